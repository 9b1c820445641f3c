package httpadapter

import (
	"context"
	"errors"
	"iter"
	"net/http"
	"sync"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"
	"github.com/julienschmidt/httprouter"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// wsSubprotocol is the subprotocol Canton's JSON API answers WebSocket
// upgrades with.
const wsSubprotocol = "daml.ws.auth"

// streamFunc decodes a stream request (the first frame) and yields its
// elements.
type streamFunc func(a *adapter, ctx context.Context, frame []byte) iter.Seq2[any, error]

// wsRoute is a WebSocket channel of the asyncapi document: a GET upgrade on
// the path of its POST list twin.
type wsRoute struct {
	path   string
	stream streamFunc
}

// wsRoutes are the streams ledgernode serves over WebSockets.
var wsRoutes = []wsRoute{
	{"/v2/updates", streamWith(decodeJSON[jsonapi.GetUpdatesRequest], (*jsonapi.API).StreamUpdates)},
	{"/v2/updates/flats", streamWith(decodeJSON[jsonapi.GetUpdatesRequest], (*jsonapi.API).StreamFlats)},
	{"/v2/updates/trees", streamWith(decodeJSON[jsonapi.GetUpdatesRequest], (*jsonapi.API).StreamTrees)},
	{"/v2/state/active-contracts", streamWith(decodeJSON[jsonapi.GetActiveContractsRequest], (*jsonapi.API).StreamActiveContracts)},
	{"/v2/commands/completions", streamWith(decodeJSON[jsonapi.CompletionStreamRequest], (*jsonapi.API).StreamCompletions)},
	{"/v2/commands/command-completions", streamWith(getCompletionsFrame, (*jsonapi.API).StreamCompletions)},
}

// getCompletionsRequest is GetCompletionsRequest: the user is the caller.
type getCompletionsRequest struct {
	Parties        []string `json:"parties"`
	BeginExclusive int64    `json:"beginExclusive"`
}

func getCompletionsFrame(frame []byte) (jsonapi.CompletionStreamRequest, error) {
	g, err := decodeJSON[getCompletionsRequest](frame)
	return jsonapi.CompletionStreamRequest{Parties: g.Parties, BeginExclusive: g.BeginExclusive}, err
}

// decodeGetCompletions reads a GetCompletionsRequest body (the user is the
// caller, so the user id stays empty).
func decodeGetCompletions(rq *request) (jsonapi.CompletionStreamRequest, error) {
	g, err := decodeBody[getCompletionsRequest](rq)
	return jsonapi.CompletionStreamRequest{Parties: g.Parties, BeginExclusive: g.BeginExclusive}, err
}

// streamWith adapts a JSON API stream method whose request is the
// first frame.
func streamWith[Req, Resp any](decode func([]byte) (Req, error), m func(*jsonapi.API, context.Context, Req) iter.Seq2[Resp, error]) streamFunc {
	return func(a *adapter, ctx context.Context, frame []byte) iter.Seq2[any, error] {
		return func(yield func(any, error) bool) {
			req, err := decode(frame)
			if err != nil {
				yield(nil, err)
				return
			}
			for v, err := range m(a.api, ctx, req) {
				if !yield(v, err) || err != nil {
					return
				}
			}
		}
	}
}

// streams tracks the open WebSocket streams so that Shutdown can end them.
type streams struct {
	mu      sync.Mutex
	closing bool
	wg      sync.WaitGroup
	// down ends when Shutdown is called; the streams end with it, and so
	// do the waits of the list requests (callList: ListOptions.Stop).
	down context.Context
	stop context.CancelFunc
}

func newStreams() *streams {
	s := &streams{}
	s.down, s.stop = context.WithCancel(context.Background())
	return s
}

// open registers a stream; false once Shutdown has been called.
func (s *streams) open() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return false
	}
	s.wg.Add(1)
	return true
}

// Shutdown ends the WebSocket streams of h, a handler returned by New,
// with a close frame 1001 (going away), refuses new ones the same way, and
// waits until they have ended or ctx ends. It also ends the list requests
// that wait for new elements (the list routes with an open end and
// stream_idle_timeout_ms), now and from then on: they answer what they
// have, as at their idle timeout. WebSocket connections are hijacked, so
// http.Server.Shutdown neither ends nor waits for them, while it waits for
// the lists: call Shutdown beside it (from another goroutine, or from
// http.Server.RegisterOnShutdown), not after it returns. For any other
// handler it does nothing.
func Shutdown(ctx context.Context, h http.Handler) error {
	hd, ok := h.(*handler)
	if !ok {
		return nil
	}
	s := hd.a.streams
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	s.stop()
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// websocket serves a stream: the token comes from the bearer header or the
// Sec-WebSocket-Protocol entry "jwt.token.<JWT>"; the client sends one JSON
// text frame with the request; the server sends one text frame per element
// and closes normally at the end of a bounded stream. A failure —
// authentication included — is a single JsCantonError frame, then a normal
// close (Canton cannot use close codes for errors either). Origins are not
// checked: the token, not a cookie, authenticates the stream. On Shutdown
// the stream ends with a close frame 1001 (going away).
func (a *adapter) websocket(rt wsRoute) httprouter.Handle {
	return func(w http.ResponseWriter, r *http.Request, _ httprouter.Params) {
		ctx, authErr := a.authenticate(r, authRequired, nil)
		conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{wsSubprotocol}, InsecureSkipVerify: true})
		if err != nil {
			return // Accept has answered the failed handshake
		}
		defer conn.CloseNow()
		if !a.streams.open() {
			conn.Close(websocket.StatusGoingAway, "server shutting down")
			return
		}
		defer a.streams.wg.Done()
		closed := make(chan struct{})
		stop := context.AfterFunc(a.streams.down, func() {
			defer close(closed)
			conn.Close(websocket.StatusGoingAway, "server shutting down")
		})
		defer func() {
			if !stop() {
				<-closed // let the close handshake finish
			}
		}()
		conn.SetReadLimit(a.maxBody)
		if authErr != nil {
			a.wsFail(r, conn, authErr)
			return
		}
		noteUser(r, ctx)
		_, frame, err := conn.Read(ctx)
		if err != nil {
			return
		}
		ctx = conn.CloseRead(ctx) // ends when the client goes away
		for v, err := range rt.stream(a, ctx, frame) {
			if err != nil && ctx.Err() != nil {
				return // the client went away: nobody reads an error frame
			}
			if err != nil {
				a.wsFail(r, conn, err)
				return
			}
			if err := wsjson.Write(ctx, conn, v); err != nil {
				return
			}
		}
		if ctx.Err() == nil {
			conn.Close(websocket.StatusNormalClosure, "")
		}
	}
}

// wsFail sends err as a JsCantonError frame and closes normally. A decode
// failure of the request frame becomes INVALID_ARGUMENT; a Node error
// (apierr.Malformed included) is sent as the Node returned it, the error a
// Go caller gets.
func (a *adapter) wsFail(r *http.Request, conn *websocket.Conn, err error) {
	var de *decodeError
	if errors.As(err, &de) {
		err = apierr.InvalidArgument.New("%s", de.Error())
	}
	body, _ := a.errorBody(r, err)
	ctx := context.Background()
	if wsjson.Write(ctx, conn, body) == nil {
		conn.Close(websocket.StatusNormalClosure, "")
	}
}
