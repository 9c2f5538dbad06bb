package agentmem

import "time"

// Session context limits (seed 003, session scope).
const (
	MaxSessionValueBytes = 32 << 10
	DefaultSessionTTL    = 24 * time.Hour
	MinSessionTTL        = time.Minute
	MaxSessionTTL        = 7 * 24 * time.Hour
)

// SessionEntry is one key of a session's context: what the agents of one
// pipeline run share. It expires at ExpiresAt unless the session ends
// first.
type SessionEntry struct {
	ProjectID  string `json:"projectId"`
	SessionID  string `json:"sessionId"`
	Key        string `json:"key"`
	Value      string `json:"value"`
	CreatedAt  string `json:"createdAt"`
	UpdatedAt  string `json:"updatedAt"`
	AccessedAt string `json:"accessedAt"`
	ExpiresAt  string `json:"expiresAt"`
}

// SessionInput is the body of PUT .../sessions/{sessionId}/context/{key}.
type SessionInput struct {
	// Value is required; it may be empty.
	Value *string `json:"value"`
	// TTLSeconds is how long the key lives unless the session ends first
	// (default DefaultSessionTTL, between MinSessionTTL and MaxSessionTTL).
	TTLSeconds *int `json:"ttlSeconds,omitempty"`
}

// Validate checks the value and the TTL.
func (in *SessionInput) Validate() error {
	if in.Value == nil {
		return Errorf(EInvalid, "value is required (a string, possibly empty)")
	}
	if err := validateText("value", *in.Value, MaxSessionValueBytes, false); err != nil {
		return err
	}
	if in.TTLSeconds != nil {
		if n := *in.TTLSeconds; n < int(MinSessionTTL.Seconds()) || n > int(MaxSessionTTL.Seconds()) {
			return Errorf(EInvalid, "ttlSeconds must be from %d to %d", int(MinSessionTTL.Seconds()), int(MaxSessionTTL.Seconds()))
		}
	}
	return nil
}

// TTL returns the requested time to live, or the default.
func (in *SessionInput) TTL() time.Duration {
	if in.TTLSeconds == nil {
		return DefaultSessionTTL
	}
	return time.Duration(*in.TTLSeconds) * time.Second
}

// Session key listing bounds (GET .../sessions/{sessionId}/context).
const (
	DefaultSessionKeysPage = 100
	MaxSessionKeysPage     = 1000
)

// SessionKey describes a live key of a session's context without its
// value (listing keys records no access).
type SessionKey struct {
	Key string `json:"key"`
	// Bytes is the length of the value.
	Bytes      int    `json:"bytes"`
	CreatedAt  string `json:"createdAt"`
	UpdatedAt  string `json:"updatedAt"`
	AccessedAt string `json:"accessedAt"`
	ExpiresAt  string `json:"expiresAt"`
}

// SessionKeyPage is one page of a session's live keys in key order
// (GET .../sessions/{sessionId}/context).
type SessionKeyPage struct {
	ProjectID string       `json:"projectId"`
	SessionID string       `json:"sessionId"`
	Keys      []SessionKey `json:"keys"`
	// NextCursor is set when more keys remain.
	NextCursor string `json:"nextCursor,omitempty"`
}
