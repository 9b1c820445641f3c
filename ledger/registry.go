package ledger

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"iter"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
	"github.com/ledgernode/ledgernode/registry"
)

// Registry page sizes.
const (
	DefaultInstrumentsPageSize = 25
	MaxInstrumentsPageSize     = 100
)

func registryErr(err error) error {
	var fe *registry.FieldError
	if errors.As(err, &fe) {
		return apierr.InvalidArgument.New("%v", err)
	}
	return err
}

// PutInstrument creates or replaces an instrument after validating it
// (ParticipantAdmin).
func (n *Node) PutInstrument(ctx context.Context, in registry.Instrument) (registry.Instrument, error) {
	if err := requireParticipantAdmin(ctx, "changing registry instruments"); err != nil {
		return registry.Instrument{}, err
	}
	if err := in.Validate(); err != nil {
		return registry.Instrument{}, registryErr(err)
	}
	_, err := n.st.Submit(func(tx *store.Tx) (any, error) {
		tx.Set(store.InstrumentKey(in.ID), mustJSON(in))
		return nil, nil
	})
	return in, storeErr(err)
}

// PutInstruments creates or replaces many instruments and sets the info in
// one commit: all or nothing (ParticipantAdmin). It is what loading an
// instruments file does.
func (n *Node) PutInstruments(ctx context.Context, f registry.File) error {
	if err := requireParticipantAdmin(ctx, "changing registry instruments"); err != nil {
		return err
	}
	if err := f.Info.Validate(); err != nil {
		return registryErr(err)
	}
	for _, in := range f.Instruments {
		if err := in.Validate(); err != nil {
			return registryErr(err)
		}
	}
	_, err := n.st.Submit(func(tx *store.Tx) (any, error) {
		tx.Set(store.KeyRegistryInfo, mustJSON(f.Info))
		for _, in := range f.Instruments {
			tx.Set(store.InstrumentKey(in.ID), mustJSON(in))
		}
		return nil, nil
	})
	return storeErr(err)
}

// DeleteInstrument removes an instrument (ParticipantAdmin);
// INSTRUMENT_NOT_FOUND when there is none.
func (n *Node) DeleteInstrument(ctx context.Context, id string) error {
	if err := requireParticipantAdmin(ctx, "changing registry instruments"); err != nil {
		return err
	}
	_, err := n.st.Submit(func(tx *store.Tx) (any, error) {
		ok, err := tx.Has(store.InstrumentKey(id))
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, instrumentNotFound(id)
		}
		tx.Delete(store.InstrumentKey(id))
		return nil, nil
	})
	return storeErr(err)
}

func instrumentNotFound(id string) error {
	return apierr.InstrumentNotFound.New("instrument %q not found", apierr.Quote(id)).WithResource("INSTRUMENT", id)
}

// GetInstrument returns one instrument (any caller).
func (n *Node) GetInstrument(ctx context.Context, id string) (registry.Instrument, error) {
	if err := n.public(ctx); err != nil {
		return registry.Instrument{}, err
	}
	var in registry.Instrument
	err := n.st.View(func(r *store.Reader) error {
		raw, err := r.Get(store.InstrumentKey(id))
		if errors.Is(err, store.ErrNotFound) {
			return instrumentNotFound(id)
		}
		if err != nil {
			return err
		}
		return json.Unmarshal(raw, &in)
	})
	return in, storeErr(err)
}

// ListInstruments returns a page of instruments ordered by id (any caller)
// and the next page's token ("" on the last page). pageSize is 1 to 100;
// 0 means 25, other values are INVALID_ARGUMENT. pageToken is the previous
// page's nextPageToken ("" for the first); pages are stable under
// concurrent inserts: each instrument present during the whole walk is
// seen exactly once.
func (n *Node) ListInstruments(ctx context.Context, pageSize int32, pageToken string) (instruments []registry.Instrument, nextPageToken string, err error) {
	if err := n.public(ctx); err != nil {
		return nil, "", err
	}
	size := int(pageSize)
	switch {
	case size == 0:
		size = DefaultInstrumentsPageSize
	case size < 0 || size > MaxInstrumentsPageSize:
		return nil, "", apierr.InvalidArgument.New("pageSize must be between 1 and %d, not %d", MaxInstrumentsPageSize, size)
	}
	var start []byte
	if pageToken != "" {
		last, err := base64.RawURLEncoding.DecodeString(pageToken)
		if err != nil || len(last) == 0 {
			return nil, "", apierr.InvalidArgument.New("invalid pageToken %q", apierr.Quote(pageToken))
		}
		start = append(store.InstrumentKey(string(last)), 0)
	}
	instruments = []registry.Instrument{}
	more := false
	err = n.st.View(func(r *store.Reader) error {
		return r.Scan([]byte(store.PrefixInstrument), start, func(_, v []byte) (bool, error) {
			if len(instruments) == size {
				more = true
				return false, nil
			}
			var in registry.Instrument
			if err := json.Unmarshal(v, &in); err != nil {
				return false, err
			}
			instruments = append(instruments, in)
			return true, nil
		})
	})
	if err != nil {
		return nil, "", storeErr(err)
	}
	if more {
		nextPageToken = base64.RawURLEncoding.EncodeToString([]byte(instruments[len(instruments)-1].ID))
	}
	return instruments, nextPageToken, nil
}

// AllInstruments walks every instrument in id order, a page of pageSize at
// a time (0: the default). Stopping the loop stops the walk.
func (n *Node) AllInstruments(ctx context.Context, pageSize int32) iter.Seq2[registry.Instrument, error] {
	return func(yield func(registry.Instrument, error) bool) {
		token := ""
		for {
			page, next, err := n.ListInstruments(ctx, pageSize, token)
			if err != nil {
				yield(registry.Instrument{}, err)
				return
			}
			for _, in := range page {
				if !yield(in, nil) {
					return
				}
			}
			if next == "" {
				return
			}
			token = next
		}
	}
}

// SetRegistryInfo sets the registry's info (ParticipantAdmin).
func (n *Node) SetRegistryInfo(ctx context.Context, info registry.Info) (registry.Info, error) {
	if err := requireParticipantAdmin(ctx, "changing the registry info"); err != nil {
		return registry.Info{}, err
	}
	if err := info.Validate(); err != nil {
		return registry.Info{}, registryErr(err)
	}
	if info.SupportedAPIs == nil {
		info.SupportedAPIs = map[string]int32{}
	}
	_, err := n.st.Submit(func(tx *store.Tx) (any, error) {
		tx.Set(store.KeyRegistryInfo, mustJSON(info))
		return nil, nil
	})
	return info, storeErr(err)
}

// RegistryInfo returns the registry's info (any caller);
// REGISTRY_INFO_NOT_SET until it is set.
func (n *Node) RegistryInfo(ctx context.Context) (registry.Info, error) {
	if err := n.public(ctx); err != nil {
		return registry.Info{}, err
	}
	var info registry.Info
	err := n.st.View(func(r *store.Reader) error {
		raw, err := r.Get(store.KeyRegistryInfo)
		if errors.Is(err, store.ErrNotFound) {
			return apierr.RegistryInfoNotSet.New("the registry info has not been set")
		}
		if err != nil {
			return err
		}
		return json.Unmarshal(raw, &info)
	})
	return info, storeErr(err)
}
