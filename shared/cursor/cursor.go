// Package cursor seals the page cursors of the API: a cursor carries the
// position where a listing stopped, bound to the listing it came from (the
// agent, the project, the filter, the route) and signed with HMAC-SHA256,
// so that a cursor from another listing, edited or made up is refused
// instead of silently skipping or repeating items.
//
// A cursor is base64url (no padding) of: a version byte, the position, and
// the first 16 bytes of HMAC-SHA256(key, version || binding || 0x00 ||
// position). The binding is not in the cursor: the server knows it from
// the request, and a cursor only opens under the binding it was sealed
// with.
package cursor

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strings"
)

const (
	version = 1
	macLen  = 16
	// MaxLen bounds a cursor: positions are keys of a few hundred bytes.
	MaxLen = 1024
	// MinKeyLen is the shortest key New accepts.
	MinKeyLen = 16
)

// ErrInvalid is what Open returns for any cursor it refuses.
var ErrInvalid = errors.New("cursor is not valid for this listing: it is malformed, altered, or from another listing (agent, project or filter); start again without a cursor")

// Sealer seals and opens cursors with one key. It is safe for concurrent
// use.
type Sealer struct {
	key []byte
}

// New returns a Sealer with key (at least MinKeyLen bytes).
func New(key []byte) (*Sealer, error) {
	if len(key) < MinKeyLen {
		return nil, errors.New("cursor key is too short: want at least 16 bytes")
	}
	return &Sealer{key: append([]byte(nil), key...)}, nil
}

func (s *Sealer) mac(binding, position string) []byte {
	h := hmac.New(sha256.New, s.key)
	h.Write([]byte{version})
	h.Write([]byte(binding))
	h.Write([]byte{0})
	h.Write([]byte(position))
	return h.Sum(nil)[:macLen]
}

// Seal returns the cursor of position in the listing binding.
func (s *Sealer) Seal(binding, position string) string {
	raw := make([]byte, 0, 1+len(position)+macLen)
	raw = append(raw, version)
	raw = append(raw, position...)
	raw = append(raw, s.mac(binding, position)...)
	return base64.RawURLEncoding.EncodeToString(raw)
}

// Open returns the position a cursor sealed for binding holds; ErrInvalid
// for anything else.
func (s *Sealer) Open(binding, c string) (string, error) {
	// Base64 decoding skips CR and LF even in strict mode: refuse them, so
	// that a cursor opens only in the one form Seal wrote.
	if len(c) > MaxLen || strings.ContainsAny(c, "\r\n") {
		return "", ErrInvalid
	}
	raw, err := base64.RawURLEncoding.Strict().DecodeString(c)
	if err != nil || len(raw) < 1+macLen || raw[0] != version {
		return "", ErrInvalid
	}
	position := string(raw[1 : len(raw)-macLen])
	if !hmac.Equal(raw[len(raw)-macLen:], s.mac(binding, position)) {
		return "", ErrInvalid
	}
	return position, nil
}
