// Package strictjson checks a JSON document before encoding/json decodes
// it, refusing what encoding/json would let through by guessing: the API's
// request bodies (httpapi) and the MCP tools' arguments (mcpserver) are
// held to the one rule.
package strictjson

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/agentmem/agentmem/shared/agentmem"
)

// maxJSONDepth bounds how deeply a document may nest: the API's bodies
// and the tools' arguments are at most three levels deep.
const maxJSONDepth = 32

// Check reads data before encoding/json decodes it into a value of type
// t, and refuses what encoding/json would let through silently:
// bytes that are not UTF-8, \u escapes of lone surrogates (both of which
// it would store as U+FFFD), a key given twice in one object at any depth,
// and a key that names a field of t only when compared without regard to
// case (encoding/json matches case-insensitively, so "projectId" and
// "ProjectId" would both land in one field, the last winning). It also
// checks the syntax, so that its errors come first and name the byte.
// what names the document in messages ("request body", "arguments").
// Every failure is an agentmem.EInvalid error.
func Check(data []byte, t reflect.Type, what string) error {
	body := data
	if !utf8.Valid(body) {
		i := 0
		for i < len(body) {
			r, n := utf8.DecodeRune(body[i:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			i += n
		}
		return agentmem.Errorf(agentmem.EInvalid, "%s is not valid UTF-8 (byte %d)", what, i)
	}
	p := &jsonChecker{data: body, what: what}
	p.skipSpace()
	if err := p.value(t, "", 0); err != nil {
		return err
	}
	p.skipSpace()
	if p.pos != len(p.data) {
		return agentmem.Errorf(agentmem.EInvalid, "%s must hold exactly one JSON object", what)
	}
	return nil
}

type jsonChecker struct {
	data []byte
	pos  int
	what string // the document, for messages
}

func (p *jsonChecker) fail(format string, args ...any) error {
	return agentmem.Errorf(agentmem.EInvalid, "malformed JSON at byte %d: %s", p.pos, fmt.Sprintf(format, args...))
}

func (p *jsonChecker) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// value checks one JSON value at p.pos; t is the Go type it decodes into
// (nil when unknown or any), path names it for messages.
func (p *jsonChecker) value(t reflect.Type, path string, depth int) error {
	if depth > maxJSONDepth {
		return agentmem.Errorf(agentmem.EInvalid, "%s nests deeper than %d levels", p.what, maxJSONDepth)
	}
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if p.pos >= len(p.data) {
		return agentmem.Errorf(agentmem.EInvalid, "malformed JSON: unexpected end of body")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(t, path, depth)
	case c == '[':
		return p.array(t, path, depth)
	case c == '"':
		_, err := p.str()
		return err
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	case c == 't':
		return p.literal("true")
	case c == 'f':
		return p.literal("false")
	case c == 'n':
		return p.literal("null")
	default:
		return p.fail("unexpected character %q", rune(c))
	}
}

func (p *jsonChecker) object(t reflect.Type, path string, depth int) error {
	p.pos++ // {
	var fields map[string]reflect.Type
	var folded map[string]string
	if t != nil && t.Kind() == reflect.Struct {
		fields, folded = jsonFields(t)
	}
	var elem reflect.Type
	if t != nil && t.Kind() == reflect.Map {
		elem = t.Elem()
	}
	seen := map[string]bool{}
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return nil
	}
	for {
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return p.fail("want a string key")
		}
		key, err := p.str()
		if err != nil {
			return err
		}
		name := join(path, key)
		if seen[key] {
			return agentmem.Errorf(agentmem.EInvalid, "field %q is given twice; send each field once", name)
		}
		seen[key] = true
		ft := elem
		if fields != nil {
			var ok bool
			if ft, ok = fields[key]; !ok {
				if exact, near := folded[strings.ToLower(key)]; near {
					return agentmem.Errorf(agentmem.EInvalid, "unknown field %q (did you mean %q? field names are case-sensitive)", name, join(path, exact))
				}
				return agentmem.Errorf(agentmem.EInvalid, "unknown field %q", name)
			}
		}
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return p.fail("want ':' after key %q", key)
		}
		p.pos++
		p.skipSpace()
		if err := p.value(ft, name, depth+1); err != nil {
			return err
		}
		if done, err := p.after('}'); done || err != nil {
			return err
		}
	}
}

// after reads what follows a member of an object or an element of an
// array: ',' (more to come) or the closing byte (done).
func (p *jsonChecker) after(closing byte) (done bool, err error) {
	p.skipSpace()
	if p.pos >= len(p.data) {
		return false, agentmem.Errorf(agentmem.EInvalid, "malformed JSON: unexpected end of body")
	}
	switch p.data[p.pos] {
	case ',':
		p.pos++
		return false, nil
	case closing:
		p.pos++
		return true, nil
	}
	return false, p.fail("want ',' or '%c'", closing)
}

func (p *jsonChecker) array(t reflect.Type, path string, depth int) error {
	p.pos++ // [
	var elem reflect.Type
	if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
		elem = t.Elem()
	}
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return nil
	}
	for i := 0; ; i++ {
		p.skipSpace()
		if err := p.value(elem, path+"["+strconv.Itoa(i)+"]", depth+1); err != nil {
			return err
		}
		if done, err := p.after(']'); done || err != nil {
			return err
		}
	}
}

// str reads a JSON string and returns it decoded; escapes must be valid,
// and a \u escape of a surrogate must be half of a pair.
func (p *jsonChecker) str() (string, error) {
	p.pos++ // "
	var b strings.Builder
	for {
		if p.pos >= len(p.data) {
			return "", agentmem.Errorf(agentmem.EInvalid, "malformed JSON: unterminated string")
		}
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			return b.String(), nil
		case c < 0x20:
			return "", p.fail("control character in a string (escape it)")
		case c == '\\':
			r, err := p.escape()
			if err != nil {
				return "", err
			}
			b.WriteRune(r)
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
}

// escape reads one escape sequence at p.pos.
func (p *jsonChecker) escape() (rune, error) {
	if p.pos+1 >= len(p.data) {
		return 0, agentmem.Errorf(agentmem.EInvalid, "malformed JSON: unterminated string")
	}
	switch e := p.data[p.pos+1]; e {
	case '"', '\\', '/':
		p.pos += 2
		return rune(e), nil
	case 'b':
		p.pos += 2
		return '\b', nil
	case 'f':
		p.pos += 2
		return '\f', nil
	case 'n':
		p.pos += 2
		return '\n', nil
	case 'r':
		p.pos += 2
		return '\r', nil
	case 't':
		p.pos += 2
		return '\t', nil
	case 'u':
		r, ok := p.hex4(p.pos + 2)
		if !ok {
			return 0, p.fail(`\u must be followed by four hex digits`)
		}
		at := p.pos
		p.pos += 6
		switch {
		case utf16.IsSurrogate(r) && r < 0xDC00:
			// A high surrogate: a low one must follow.
			if p.pos+1 < len(p.data) && p.data[p.pos] == '\\' && p.data[p.pos+1] == 'u' {
				if lo, ok := p.hex4(p.pos + 2); ok && lo >= 0xDC00 && lo <= 0xDFFF {
					p.pos += 6
					return utf16.DecodeRune(r, lo), nil
				}
			}
			return 0, agentmem.Errorf(agentmem.EInvalid, `%s has a lone UTF-16 surrogate (\u%04x at byte %d): it is not a character`, p.what, r, at)
		case utf16.IsSurrogate(r):
			return 0, agentmem.Errorf(agentmem.EInvalid, `%s has a lone UTF-16 surrogate (\u%04x at byte %d): it is not a character`, p.what, r, at)
		}
		return r, nil
	}
	return 0, p.fail("invalid escape \\%c", rune(p.data[p.pos+1]))
}

func (p *jsonChecker) hex4(at int) (rune, bool) {
	if at+4 > len(p.data) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(p.data[at:at+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	return rune(v), true
}

func (p *jsonChecker) number() error {
	start := p.pos
	if p.data[p.pos] == '-' {
		p.pos++
	}
	digits := func() int {
		n := 0
		for p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	switch {
	case p.pos < len(p.data) && p.data[p.pos] == '0':
		p.pos++
	case digits() == 0:
		p.pos = start
		return p.fail("malformed number")
	}
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return p.fail("malformed number")
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return p.fail("malformed number")
		}
	}
	return nil
}

func (p *jsonChecker) literal(word string) error {
	if !strings.HasPrefix(string(p.data[p.pos:min(len(p.data), p.pos+len(word))]), word) {
		return p.fail("unexpected character %q", rune(p.data[p.pos]))
	}
	p.pos += len(word)
	return nil
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// jsonFields returns the JSON names of struct type t's fields (embedded
// structs' promoted, as encoding/json does) with their types, and the
// names by their lower case.
func jsonFields(t reflect.Type) (map[string]reflect.Type, map[string]string) {
	fields, folded := map[string]reflect.Type{}, map[string]string{}
	var walk func(reflect.Type)
	walk = func(t reflect.Type) {
		for i := range t.NumField() {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			ft := f.Type
			if f.Anonymous && name == "" {
				for ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if ft.Kind() == reflect.Struct {
					walk(ft)
					continue
				}
			}
			if !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			fields[name] = f.Type
			folded[strings.ToLower(name)] = name
		}
	}
	walk(t)
	return fields, folded
}
