package cursor_test

import (
	"encoding/base64"
	"errors"
	"testing"

	"github.com/agentmem/agentmem/shared/cursor"
)

func sealer(t testing.TB) *cursor.Sealer {
	s, err := cursor.New([]byte("0123456789abcdef0123456789abcdef"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSealedCursors: a cursor opens to its position under its binding
// only; every changed byte, another binding or another key refuses it.
func TestSealedCursors(t *testing.T) {
	t.Parallel()
	s := sealer(t)
	c := s.Seal("memories\x00nori\x00p\x00", "2026-11-22T10:00:00.000000000Z")
	if pos, err := s.Open("memories\x00nori\x00p\x00", c); err != nil || pos != "2026-11-22T10:00:00.000000000Z" {
		t.Fatalf("open: %q, %v", pos, err)
	}
	for _, binding := range []string{"memories\x00kai\x00p\x00", "memories\x00nori\x00q\x00", "memories\x00nori\x00p\x00finding", "", "scopes"} {
		if _, err := s.Open(binding, c); !errors.Is(err, cursor.ErrInvalid) {
			t.Errorf("binding %q: got %v, want ErrInvalid", binding, err)
		}
	}
	raw, _ := base64.RawURLEncoding.DecodeString(c)
	for i := range raw {
		for _, bit := range []byte{0x01, 0x80} {
			b := append([]byte(nil), raw...)
			b[i] ^= bit
			if _, err := s.Open("memories\x00nori\x00p\x00", base64.RawURLEncoding.EncodeToString(b)); !errors.Is(err, cursor.ErrInvalid) {
				t.Errorf("byte %d flipped (%#x): got %v, want ErrInvalid", i, bit, err)
			}
		}
	}
	other, err := cursor.New([]byte("another key of at least 16 bytes"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Open("memories\x00nori\x00p\x00", c); !errors.Is(err, cursor.ErrInvalid) {
		t.Errorf("another key: got %v, want ErrInvalid", err)
	}
	if _, err := cursor.New([]byte("short")); err == nil {
		t.Error("a 5-byte key was accepted")
	}
}

// FuzzOpen: any string either opens, and then it is exactly the cursor
// Seal makes of its position, or is ErrInvalid; never a panic.
func FuzzOpen(f *testing.F) {
	s := sealer(f)
	f.Add(s.Seal("b", "2026-11-22T10:00:00.000000000Z"))
	f.Add(s.Seal("b", ""))
	f.Add("AQ")
	f.Add("!!")
	f.Fuzz(func(t *testing.T, c string) {
		pos, err := s.Open("b", c)
		if err != nil {
			if !errors.Is(err, cursor.ErrInvalid) {
				t.Fatalf("%q: %v", c, err)
			}
			return
		}
		if again := s.Seal("b", pos); again != c {
			t.Fatalf("%q opened to %q, which seals to %q", c, pos, again)
		}
	})
}
