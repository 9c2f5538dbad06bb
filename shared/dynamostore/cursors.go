package dynamostore

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/cursor"
	"github.com/guregu/dynamo/v2"
)

// Page cursors are sealed (package cursor): bound to their listing and
// signed with a key every function instance shares. The key is
// Store.CursorKey when set (AGENTMEM_CURSOR_KEY); otherwise a random key
// the store creates in the journal table on first use (item
// "config#cursor-key" / "v1", a conditional put so that concurrent first
// uses agree) and reads once per process. Whoever can read that item can
// read every memory anyway; deleting it invalidates the cursors in flight,
// which then answer 400 and the caller starts its listing again.

// errBadCursor is the EInvalid error of a cursor that does not open.
var errBadCursor = agentmem.Errorf(agentmem.EInvalid, "%s", cursor.ErrInvalid.Error())

type cursorKeyItem struct {
	PK  string `dynamo:"pk,hash"`
	SK  string `dynamo:"sk,range"`
	Key []byte `dynamo:"key"`
}

const (
	cursorKeyPK = "config#cursor-key"
	cursorKeySK = "v1"
)

// sealer returns the cursor sealer, loading or creating the key on first
// use.
func (s *Store) sealer(ctx context.Context) (*cursor.Sealer, error) {
	s.cursorMu.Lock()
	defer s.cursorMu.Unlock()
	if s.cursors != nil {
		return s.cursors, nil
	}
	key := s.CursorKey
	if len(key) == 0 {
		var err error
		if key, err = s.sharedCursorKey(ctx); err != nil {
			return nil, err
		}
	} else {
		sum := sha256.Sum256(key)
		key = sum[:]
	}
	sl, err := cursor.New(key)
	if err != nil {
		return nil, err
	}
	s.cursors = sl
	return sl, nil
}

// sharedCursorKey reads the journal's cursor key, creating it if there is
// none yet.
func (s *Store) sharedCursorKey(ctx context.Context) ([]byte, error) {
	var it cursorKeyItem
	err := s.journal.Get("pk", cursorKeyPK).Range("sk", dynamo.Equal, cursorKeySK).Consistent(true).One(ctx, &it)
	if err == nil && len(it.Key) >= cursor.MinKeyLen {
		return it.Key, nil
	}
	if err != nil && !notFound(err) {
		return nil, fmt.Errorf("read the cursor key: %w", err)
	}
	fresh := make([]byte, 32)
	if _, err := rand.Read(fresh); err != nil {
		return nil, fmt.Errorf("make a cursor key: %w", err)
	}
	err = s.journal.Put(cursorKeyItem{PK: cursorKeyPK, SK: cursorKeySK, Key: fresh}).If("attribute_not_exists($)", "pk").Run(ctx)
	switch {
	case err == nil:
		return fresh, nil
	case !dynamo.IsCondCheckFailed(err):
		return nil, fmt.Errorf("store the cursor key: %w", err)
	}
	// Another process made it first: use theirs.
	if err := s.journal.Get("pk", cursorKeyPK).Range("sk", dynamo.Equal, cursorKeySK).Consistent(true).One(ctx, &it); err != nil {
		return nil, fmt.Errorf("read the cursor key: %w", err)
	}
	return it.Key, nil
}

// sealCursor seals position for the listing binding.
func (s *Store) sealCursor(ctx context.Context, binding, position string) (string, error) {
	sl, err := s.sealer(ctx)
	if err != nil {
		return "", err
	}
	return sl.Seal(binding, position), nil
}

// openCursor opens a cursor of the listing binding; errBadCursor when it
// is not one.
func (s *Store) openCursor(ctx context.Context, binding, c string) (string, error) {
	sl, err := s.sealer(ctx)
	if err != nil {
		return "", err
	}
	pos, err := sl.Open(binding, c)
	if errors.Is(err, cursor.ErrInvalid) {
		return "", errBadCursor
	}
	return pos, err
}
