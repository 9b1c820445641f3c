package httpadapter

import (
	"encoding/json"

	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// fastJsCommands decodes a submission's body (valid UTF-8, starting with
// '{') into c exactly as json.Unmarshal does, without its reflection, for
// the bodies clients send: the fields commands (CreateCommand and
// ExerciseCommand with object or array arguments), commandId, actAs,
// userId, readAs, workflowId, submissionId, synchronizerId and
// packageIdSelectionPreference, each at most once, with strings without
// escapes. For any other body — invalid JSON, another field or spelling,
// null, an escape, a duplicate key — it reports false and leaves c alone,
// and json.Unmarshal decodes it (and words its errors). The cursor checks
// the JSON grammar of what it reads itself, and the arguments with
// json.Valid; they (json.RawMessage) share data's bytes, and the strings
// one copy of data, as copies would hold them.
func fastJsCommands(data []byte, c *jsonapi.JsCommands) bool {
	p := jsonCursor{b: data, s: string(data)}
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
			out.ActAs, ok = p.strs()
		case "userId":
			bit = 1 << 3
			out.UserID, ok = p.str()
		case "readAs":
			bit = 1 << 4
			out.ReadAs, ok = p.strs()
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
			out.PackageIDSelectionPreference, ok = p.strs()
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
	b []byte
	s string // b as a string, which the strings read share
	i int
}

// ws skips JSON whitespace.
func (p *jsonCursor) ws() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

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
	if !p.next('"') {
		return "", false
	}
	start := p.i
	for ; p.i < len(p.b); p.i++ {
		switch c := p.b[p.i]; {
		case c == '"':
			p.i++
			return p.s[start : p.i-1], true
		case c == '\\' || c < 0x20:
			return "", false
		}
	}
	return "", false
}

// strs reads an array of strings ([] is an empty, non-nil slice, as
// encoding/json makes it).
func (p *jsonCursor) strs() ([]string, bool) {
	if !p.next('[') {
		return nil, false
	}
	out := []string{}
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
				return v, json.Valid(v)
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
	out := []jsonapi.JsCommand{}
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
				c.CreateCommand = &jsonapi.JsCreateCommand{}
				return p.create(c.CreateCommand)
			case "ExerciseCommand":
				if c.ExerciseCommand != nil {
					return false
				}
				c.ExerciseCommand = &jsonapi.JsExerciseCommand{}
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
