package httpadapter

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
	"unsafe"

	"github.com/ledgernode/ledgernode/internal/jsontext"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// fastJsCommands decodes a submission's body (starting with '{') into c
// exactly as json.Unmarshal does, without its reflection, for
// the bodies clients send: the fields commands (CreateCommand and
// ExerciseCommand with object or array arguments), commandId, actAs,
// userId, readAs, workflowId, submissionId, synchronizerId and
// packageIdSelectionPreference, each at most once, with strings without
// escapes. For any other body — invalid JSON or UTF-8, another field or
// spelling, null, an escape, a duplicate key — it reports false and
// leaves c alone,
// and json.Unmarshal decodes it (and words its errors). The cursor checks
// the JSON grammar of what it reads itself, and the arguments with
// plainEnd or json.Valid; they (json.RawMessage) and the strings share
// data's bytes, as copies would hold them.
func fastJsCommands(data []byte, c *jsonapi.JsCommands) bool {
	return fastJsCommandsIn(data, c, new(commandsBlock))
}

// fastJsCommandsIn is fastJsCommands with the first of what it decodes
// in blk (a request's own, request.block), which it uses once.
func fastJsCommandsIn(data []byte, c *jsonapi.JsCommands, blk *commandsBlock) bool {
	// The strings share data's bytes, as the arguments do: data is a
	// request body of its own (readBody's), which no one writes after it
	// was read, and the strings would otherwise hold a copy as large.
	p := jsonCursor{b: data, s: unsafe.String(unsafe.SliceData(data), len(data)), blk: blk}
	var out jsonapi.JsCommands
	var seen uint16
	ok := p.object(func(key string) bool {
		bit := uint16(0)
		ok := false
		switch key {
		case "commands":
			bit = 1 << 0
			out.Commands, ok = p.commands()
		case "commandId":
			bit = 1 << 1
			out.CommandID, ok = p.str()
		case "actAs":
			bit = 1 << 2
			out.ActAs, ok = p.strs(p.blk.actAs[:0:1])
		case "userId":
			bit = 1 << 3
			out.UserID, ok = p.str()
		case "readAs":
			bit = 1 << 4
			out.ReadAs, ok = p.strs(p.blk.readAs[:0:1])
		case "workflowId":
			bit = 1 << 5
			out.WorkflowID, ok = p.str()
		case "submissionId":
			bit = 1 << 6
			out.SubmissionID, ok = p.str()
		case "synchronizerId":
			bit = 1 << 7
			out.SynchronizerID, ok = p.str()
		case "packageIdSelectionPreference":
			bit = 1 << 8
			out.PackageIDSelectionPreference, ok = p.strs([]string{})
		}
		if !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
		return true
	})
	p.ws()
	if !ok || p.i != len(p.b) {
		return false
	}
	*c = out
	return true
}

// jsonCursor reads a JSON text front to back, strictly (RFC 8259); every
// method reports false for what is not JSON or what fastJsCommands leaves
// to encoding/json.
type jsonCursor struct {
	b   []byte
	s   string // b as a string, which the strings read share
	i   int
	blk *commandsBlock
}

// commandsBlock holds the first of what fastJsCommands decodes, in one
// allocation rather than one each: the command, its create or exercise,
// the actAs party and the readAs party (a submission's usual single
// ones). A slice that grows past its slot moves out, as from any array.
type commandsBlock struct {
	cmds     [1]jsonapi.JsCommand
	create   jsonapi.JsCreateCommand
	exercise jsonapi.JsExerciseCommand
	actAs    [1]string
	readAs   [1]string
	// The slots handed out.
	createUsed, exerciseUsed bool
}

// ws skips JSON whitespace.
func (p *jsonCursor) ws() { p.i = jsontext.SkipSpace(p.b, p.i) }

// next skips whitespace and reports whether the next byte is c (and
// consumes it then).
func (p *jsonCursor) next(c byte) bool {
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// str reads a string without escapes (nor control characters, which JSON
// does not allow in strings).
func (p *jsonCursor) str() (string, bool) {
	p.ws()
	end, ok := plainString(p.b, p.i)
	if !ok {
		return "", false
	}
	s := p.s[p.i+1 : end-1]
	p.i = end
	return s, true
}

// strs reads an array of strings into out, an empty non-nil slice ([] is
// one, as encoding/json makes it).
func (p *jsonCursor) strs(out []string) ([]string, bool) {
	if !p.next('[') {
		return nil, false
	}
	if p.next(']') {
		return out, true
	}
	for {
		s, ok := p.str()
		if !ok {
			return nil, false
		}
		out = append(out, s)
		if p.next(']') {
			return out, true
		}
		if !p.next(',') {
			return nil, false
		}
	}
}

// object reads an object, calling field with each key (without escapes)
// positioned at its value, which field must read.
func (p *jsonCursor) object(field func(key string) bool) bool {
	if !p.next('{') {
		return false
	}
	if p.next('}') {
		return true
	}
	for {
		key, ok := p.str()
		if !ok || !p.next(':') || !field(key) {
			return false
		}
		if p.next('}') {
			return true
		}
		if !p.next(',') {
			return false
		}
	}
}

// raw reads an object or array value, valid JSON (json.Valid), and returns
// its bytes (sharing b, capacity capped).
func (p *jsonCursor) raw() (json.RawMessage, bool) {
	p.ws()
	if p.i >= len(p.b) || (p.b[p.i] != '{' && p.b[p.i] != '[') {
		return nil, false
	}
	if end, ok := plainEnd(p.b, p.i); ok {
		start := p.i
		p.i = end
		return p.b[start:end:end], true
	}
	return bracketRaw(p)
}

// bracketRaw is raw's way for what plainEnd does not read (escapes, deep
// nesting, malformed JSON): a scan to the matching bracket, then
// json.Valid.
func bracketRaw(p *jsonCursor) (json.RawMessage, bool) {
	start, depth := p.i, 0
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				p.i++
				v := p.b[start:p.i:p.i]
				return v, json.Valid(v) && utf8.Valid(v) // json.Valid takes any bytes in strings
			}
		case '"':
			for p.i++; p.i < len(p.b) && p.b[p.i] != '"'; p.i++ {
				if p.b[p.i] == '\\' {
					p.i++
				}
			}
		}
		p.i++
	}
	return nil, false
}

// commands reads the commands array.
func (p *jsonCursor) commands() ([]jsonapi.JsCommand, bool) {
	if !p.next('[') {
		return nil, false
	}
	out := p.blk.cmds[:0:1]
	if p.next(']') {
		return out, true
	}
	for {
		var c jsonapi.JsCommand
		ok := p.object(func(key string) bool {
			switch key {
			case "CreateCommand":
				if c.CreateCommand != nil {
					return false
				}
				c.CreateCommand = p.newCreate()
				return p.create(c.CreateCommand)
			case "ExerciseCommand":
				if c.ExerciseCommand != nil {
					return false
				}
				c.ExerciseCommand = p.newExercise()
				return p.exercise(c.ExerciseCommand)
			}
			return false
		})
		if !ok {
			return nil, false
		}
		out = append(out, c)
		if p.next(']') {
			return out, true
		}
		if !p.next(',') {
			return nil, false
		}
	}
}

// newCreate returns an empty CreateCommand, the block's first.
func (p *jsonCursor) newCreate() *jsonapi.JsCreateCommand {
	if p.blk.createUsed {
		return &jsonapi.JsCreateCommand{}
	}
	p.blk.createUsed = true
	return &p.blk.create
}

// newExercise returns an empty ExerciseCommand, the block's first.
func (p *jsonCursor) newExercise() *jsonapi.JsExerciseCommand {
	if p.blk.exerciseUsed {
		return &jsonapi.JsExerciseCommand{}
	}
	p.blk.exerciseUsed = true
	return &p.blk.exercise
}

// create reads a CreateCommand.
func (p *jsonCursor) create(c *jsonapi.JsCreateCommand) bool {
	var seen uint8
	return p.object(func(key string) bool {
		bit, ok := uint8(0), false
		switch key {
		case "templateId":
			bit = 1
			c.TemplateID, ok = p.str()
		case "createArguments":
			bit = 2
			c.CreateArguments, ok = p.raw()
		}
		if !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
		return true
	})
}

// exercise reads an ExerciseCommand.
func (p *jsonCursor) exercise(c *jsonapi.JsExerciseCommand) bool {
	var seen uint8
	return p.object(func(key string) bool {
		bit, ok := uint8(0), false
		switch key {
		case "templateId":
			bit = 1
			c.TemplateID, ok = p.str()
		case "contractId":
			bit = 2
			c.ContractID, ok = p.str()
		case "choice":
			bit = 4
			c.Choice, ok = p.str()
		case "choiceArgument":
			bit = 8
			c.ChoiceArgument, ok = p.raw()
		}
		if !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
		return true
	})
}

// plainEnd returns the end of the object or array starting at b[i] when
// it is valid JSON made of what Daml JSON arguments are made of: strings
// without escapes, numbers, true, false, null, nested at most 32 deep. It
// reports false for anything else, valid or not, which raw then leaves to
// json.Valid: one pass over the value, not a bracket scan and then
// json.Valid's state machine, for the arguments of every submission.
func plainEnd(b []byte, i int) (int, bool) {
	var closers [32]byte // the closing bytes of the open containers
	n := 0
	for {
		// At a value.
		i = jsontext.SkipSpace(b, i)
		if i >= len(b) {
			return 0, false
		}
		ok := true
		switch c := b[i]; c {
		case '{', '[':
			if n == len(closers) {
				return 0, false
			}
			closer := byte(']')
			if c == '{' {
				closer = '}'
			}
			closers[n] = closer
			n++
			i = jsontext.SkipSpace(b, i+1)
			if i < len(b) && b[i] == closer {
				n--
				i++
				break
			}
			if c == '{' {
				if i, ok = plainKey(b, i); !ok {
					return 0, false
				}
			}
			continue
		case '"':
			i, ok = plainString(b, i)
		case 't':
			i, ok = jsontext.LiteralEnd(b, i, "true")
		case 'f':
			i, ok = jsontext.LiteralEnd(b, i, "false")
		case 'n':
			i, ok = jsontext.LiteralEnd(b, i, "null")
		default:
			i, ok = jsontext.NumberEnd(b, i)
		}
		if !ok {
			return 0, false
		}
		// After a value: the next one of its container, or the ends of
		// containers.
		for {
			if n == 0 {
				return i, true
			}
			i = jsontext.SkipSpace(b, i)
			if i >= len(b) {
				return 0, false
			}
			if b[i] == closers[n-1] {
				n--
				i++
				continue
			}
			if b[i] != ',' {
				return 0, false
			}
			i++
			if closers[n-1] == '}' {
				if i, ok = plainKey(b, jsontext.SkipSpace(b, i)); !ok {
					return 0, false
				}
			}
			break
		}
	}
}

// plainKey reads an object's key (a string without escapes) and its
// colon from b[i], returning the index after the colon.
func plainKey(b []byte, i int) (int, bool) {
	i, ok := plainString(b, i)
	if !ok {
		return 0, false
	}
	i = jsontext.SkipSpace(b, i)
	if i >= len(b) || b[i] != ':' {
		return 0, false
	}
	return i + 1, true
}

// plainString reads a string without escapes from b[i], returning the
// index after its closing quote: the first quote after b[i] ends it when
// no backslash or control character comes before it, and the bytes
// before it are valid UTF-8. jsontext.PlainPrefix finds the first byte
// that is a quote, a backslash, a control character or not ASCII, sixteen
// bytes at a time: the strings of a submission are mostly long ASCII
// party and template ids, and short keys. A string with another byte
// than a printable ASCII one is left to plainStringUTF8.
func plainString(b []byte, i int) (int, bool) {
	if i >= len(b) || b[i] != '"' {
		return 0, false
	}
	k := i + 1 + jsontext.PlainPrefix(b[i+1:])
	switch {
	case k >= len(b):
		return 0, false
	case b[k] == '"':
		return k + 1, true
	}
	return plainStringUTF8(b, i)
}

// plainStringUTF8 is plainString for a string with a byte other than a
// printable ASCII one before its first quote (jsontext.PlainPrefix found
// it): the quote is found with bytes.IndexByte, and the bytes before it
// are checked as UTF-8 (plainUTF8).
func plainStringUTF8(b []byte, i int) (int, bool) {
	n := bytes.IndexByte(b[i+1:], '"')
	if n < 0 || !plainUTF8(b[i+1:i+1+n]) {
		return 0, false
	}
	return i + 1 + n + 1, true
}

// plainUTF8 reports whether s is valid UTF-8 without a backslash or a
// control character (below 0x20).
func plainUTF8(s []byte) bool {
	for _, c := range s {
		if c == '\\' || c < 0x20 {
			return false
		}
	}
	return utf8.Valid(s)
}
