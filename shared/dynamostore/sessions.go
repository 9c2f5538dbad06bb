package dynamostore

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/guregu/dynamo/v2"
)

// sessionItem is one key of a session's context in the journal table. All
// sessions of a project share the partition "session#<project>" (sort key
// "<sessionId>#<key>"), so ending a session is one query on one partition
// and a project's live session keys are counted without a scan.
type sessionItem struct {
	PK         string `dynamo:"pk,hash"`
	SK         string `dynamo:"sk,range"`
	ProjectID  string `dynamo:"projectId"`
	SessionID  string `dynamo:"sessionId"`
	Key        string `dynamo:"key"`
	Value      string `dynamo:"value"`
	CreatedAt  string `dynamo:"createdAt"`
	UpdatedAt  string `dynamo:"updatedAt"`
	AccessedAt string `dynamo:"accessedAt"`
	// ExpiresAt is the TTL attribute, epoch seconds. DynamoDB deletes
	// expired items lazily (within days), so reads check it too.
	ExpiresAt int64 `dynamo:"expiresAt"`
}

func sessionPK(projectID string) string { return "session#" + projectID }

func sessionSK(sessionID, key string) string { return sessionID + "#" + key }

func (it sessionItem) entry() agentmem.SessionEntry {
	return agentmem.SessionEntry{
		ProjectID: it.ProjectID, SessionID: it.SessionID, Key: it.Key, Value: it.Value,
		CreatedAt: it.CreatedAt, UpdatedAt: it.UpdatedAt, AccessedAt: it.AccessedAt,
		ExpiresAt: agentmem.FormatTime(time.Unix(it.ExpiresAt, 0)),
	}
}

// maxSessionPutAttempts bounds PutSessionValue's attempts when other
// puts of the key keep starting or renewing it meanwhile.
const maxSessionPutAttempts = 8

// PutSessionValue sets key in the context of a session and returns the
// entry and whether the key was new (absent or expired). Each write
// extends the key's life to now + ttl. Each attempt is one conditional
// write: a live key keeps its createdAt; an absent or expired one (TTL
// has not removed it yet) starts anew with its createdAt set in the same
// write, so no crash or concurrent put ever leaves or answers an expired
// key's createdAt.
func (s *Store) PutSessionValue(ctx context.Context, projectID, sessionID, key, value string, ttl time.Duration) (agentmem.SessionEntry, bool, error) {
	now := s.now()
	ts := agentmem.FormatTime(now)
	pk, sk := sessionPK(projectID), sessionSK(sessionID, key)
	it := sessionItem{PK: pk, SK: sk, ProjectID: projectID, SessionID: sessionID, Key: key, Value: value,
		CreatedAt: ts, UpdatedAt: ts, AccessedAt: ts, ExpiresAt: now.Add(ttl).Unix()}
	for range maxSessionPutAttempts {
		var old sessionItem
		err := s.journal.Update("pk", pk).Range("sk", sk).
			Set("projectId", projectID).Set("sessionId", sessionID).Set("key", key).
			Set("value", value).Set("updatedAt", ts).Set("accessedAt", ts).
			Set("expiresAt", it.ExpiresAt).
			If("attribute_exists($) AND $ > ?", "pk", "expiresAt", now.Unix()).
			OldValue(ctx, &old)
		switch {
		case err == nil:
			it.CreatedAt = old.CreatedAt
			return it.entry(), false, nil
		case !dynamo.IsCondCheckFailed(err):
			return agentmem.SessionEntry{}, false, fmt.Errorf("put session key %s/%s/%s: %w", projectID, sessionID, key, err)
		}
		err = s.journal.Put(it).If("attribute_not_exists($) OR $ <= ?", "pk", "expiresAt", now.Unix()).Run(ctx)
		switch {
		case err == nil:
			return it.entry(), true, nil
		case !dynamo.IsCondCheckFailed(err):
			return agentmem.SessionEntry{}, false, fmt.Errorf("put session key %s/%s/%s: %w", projectID, sessionID, key, err)
		}
		// Another put started the key meanwhile: renew it.
	}
	return agentmem.SessionEntry{}, false, agentmem.Errorf(agentmem.EConflict, "session key %q of %s kept changing; retry", key, sessionID)
}

// GetSessionValue returns a live key of a session and records the access
// (accessedAt) in the same request. An expired key is not found, whether
// or not TTL has removed it yet.
func (s *Store) GetSessionValue(ctx context.Context, projectID, sessionID, key string) (agentmem.SessionEntry, error) {
	now := s.now()
	var it sessionItem
	err := s.journal.Update("pk", sessionPK(projectID)).Range("sk", sessionSK(sessionID, key)).
		Set("accessedAt", agentmem.FormatTime(now)).
		If("attribute_exists($) AND $ > ?", "pk", "expiresAt", now.Unix()).
		Value(ctx, &it)
	switch {
	case dynamo.IsCondCheckFailed(err):
		return agentmem.SessionEntry{}, agentmem.Errorf(agentmem.ENotFound, "no key %q in session %s of project %s", key, sessionID, projectID)
	case err != nil:
		return agentmem.SessionEntry{}, fmt.Errorf("get session key %s/%s/%s: %w", projectID, sessionID, key, err)
	}
	return it.entry(), nil
}

// DeleteSessionValue deletes one key of a session; a key that is absent or
// expired is ENotFound.
func (s *Store) DeleteSessionValue(ctx context.Context, projectID, sessionID, key string) error {
	var old sessionItem
	err := s.journal.Delete("pk", sessionPK(projectID)).Range("sk", sessionSK(sessionID, key)).OldValue(ctx, &old)
	switch {
	case notFound(err) || (err == nil && old.ExpiresAt <= s.now().Unix()):
		return agentmem.Errorf(agentmem.ENotFound, "no key %q in session %s of project %s", key, sessionID, projectID)
	case err != nil:
		return fmt.Errorf("delete session key %s/%s/%s: %w", projectID, sessionID, key, err)
	}
	return nil
}

// EndSession deletes every key of a session at once, however many, and
// returns how many live keys it deleted (expired ones go too, uncounted).
func (s *Store) EndSession(ctx context.Context, projectID, sessionID string) (int, error) {
	now := s.now().Unix()
	it := s.journal.Get("pk", sessionPK(projectID)).Range("sk", dynamo.BeginsWith, sessionID+"#").
		Project("pk", "sk", "expiresAt").Consistent(true).Iter()
	var keys []dynamo.Keyed
	live := 0
	var item sessionItem
	for it.Next(ctx, &item) {
		keys = append(keys, dynamo.Keys{item.PK, item.SK})
		if item.ExpiresAt > now {
			live++
		}
		item = sessionItem{}
	}
	if err := it.Err(); err != nil {
		return 0, fmt.Errorf("end session %s/%s: %w", projectID, sessionID, err)
	}
	if len(keys) == 0 {
		return 0, nil
	}
	if _, err := s.journal.Batch("pk", "sk").Write().Delete(keys...).Run(ctx); err != nil {
		return 0, fmt.Errorf("end session %s/%s: %w", projectID, sessionID, err)
	}
	return live, nil
}

// SessionUsage counts the live session keys of a project and their size:
// one query on the project's session partition, expired keys left out.
// Total counts the live keys, Bytes approximates their stored size
// (attribute names and values, as DynamoDB counts item size). The stats
// route reports it.
func (s *Store) SessionUsage(ctx context.Context, projectID string) (agentmem.SessionUsage, error) {
	now := s.now().Unix()
	it := s.journal.Get("pk", sessionPK(projectID)).Iter()
	var u agentmem.SessionUsage
	sessions := map[string]bool{}
	var item dynamo.Item
	for it.Next(ctx, &item) {
		var si sessionItem
		if err := dynamo.UnmarshalItem(item, &si); err != nil {
			return agentmem.SessionUsage{}, fmt.Errorf("session usage of %s: %w", projectID, err)
		}
		if si.ExpiresAt > now {
			u.Total++
			sessions[si.SessionID] = true
			for k, v := range item {
				u.Bytes += int64(len(k) + attrSize(v))
			}
		}
		item = nil
	}
	if err := it.Err(); err != nil {
		return agentmem.SessionUsage{}, fmt.Errorf("session usage of %s: %w", projectID, err)
	}
	u.Sessions = len(sessions)
	return u, nil
}

// ListSessionKeys returns a page of a session's live keys in key order,
// without their values (it records no access): at most limit keys
// (1..agentmem.MaxSessionKeysPage, else DefaultSessionKeysPage) after the
// key the cursor names. Expired keys that TTL has not removed yet are left
// out.
func (s *Store) ListSessionKeys(ctx context.Context, projectID, sessionID string, limit int, cursor string) (agentmem.SessionKeyPage, error) {
	if limit <= 0 || limit > agentmem.MaxSessionKeysPage {
		limit = agentmem.DefaultSessionKeysPage
	}
	page := agentmem.SessionKeyPage{ProjectID: projectID, SessionID: sessionID, Keys: []agentmem.SessionKey{}}
	prefix := sessionID + "#"
	binding := "sessions\x00" + projectID + "\x00" + sessionID
	q := s.journal.Get("pk", sessionPK(projectID)).Consistent(true)
	if cursor != "" {
		after, err := s.openCursor(ctx, binding, cursor)
		if err != nil {
			return page, err
		}
		if !storedName(agentmem.ValidateKey(after), after) {
			return page, errBadCursor
		}
		// Every character a key may hold sorts after '#', so the
		// session's keys are contiguous: read from the cursor's key on
		// and stop at the first sort key of another session.
		q = q.Range("sk", dynamo.Greater, prefix+after)
	} else {
		q = q.Range("sk", dynamo.BeginsWith, prefix)
	}
	now := s.now().Unix()
	it := q.Iter()
	var item sessionItem
	for it.Next(ctx, &item) {
		if !strings.HasPrefix(item.SK, prefix) {
			break
		}
		if item.ExpiresAt > now {
			if len(page.Keys) == limit {
				next, err := s.sealCursor(ctx, binding, page.Keys[limit-1].Key)
				if err != nil {
					return page, err
				}
				page.NextCursor = next
				break
			}
			e := item.entry()
			page.Keys = append(page.Keys, agentmem.SessionKey{Key: e.Key, Bytes: len(e.Value),
				CreatedAt: e.CreatedAt, UpdatedAt: e.UpdatedAt, AccessedAt: e.AccessedAt, ExpiresAt: e.ExpiresAt})
		}
		item = sessionItem{}
	}
	if err := it.Err(); err != nil {
		return page, fmt.Errorf("list session keys %s/%s: %w", projectID, sessionID, err)
	}
	return page, nil
}
