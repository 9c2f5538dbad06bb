package agentmem

import "strings"

// Name limits (BRIEF §3): '#' separates agent and project in the partition
// key, so names are restricted to [A-Za-z0-9._-].
const (
	MaxAgentNameLen = 64
	MaxProjectIDLen = 128
	MaxRunIDLen     = 128
	MaxSessionIDLen = 128
	MaxKeyLen       = 128
)

// ValidateAgentName checks an agent name.
func ValidateAgentName(s string) error { return validateName("agentName", s, MaxAgentNameLen) }

// ValidateProjectID checks a project id.
func ValidateProjectID(s string) error { return validateName("projectId", s, MaxProjectIDLen) }

// ValidateRunID checks a pipeline run id.
func ValidateRunID(s string) error { return validateName("runId", s, MaxRunIDLen) }

// ValidateSessionID checks a session id.
func ValidateSessionID(s string) error { return validateName("sessionId", s, MaxSessionIDLen) }

// ValidateKey checks a session context key.
func ValidateKey(s string) error { return validateName("key", s, MaxKeyLen) }

// ValidateTags checks a tag list: at most MaxTags tags of 1..MaxTagLen
// characters from [A-Za-z0-9._:/-].
func ValidateTags(tags []string) error {
	if len(tags) > MaxTags {
		return Errorf(EInvalid, "at most %d tags are allowed, got %d", MaxTags, len(tags))
	}
	for _, t := range tags {
		if t == "" || len(t) > MaxTagLen || strings.IndexFunc(t, func(r rune) bool { return !nameRune(r) && r != ':' && r != '/' }) >= 0 {
			return Errorf(EInvalid, "tag %q must be 1 to %d characters of letters, digits and . _ - : /", t, MaxTagLen)
		}
	}
	return nil
}

func validateName(field, s string, max int) error {
	switch {
	case s == "":
		return Errorf(EInvalid, "%s is required", field)
	case len(s) > max:
		return Errorf(EInvalid, "%s is %d characters; the limit is %d", field, len(s), max)
	case strings.IndexFunc(s, func(r rune) bool { return !nameRune(r) }) >= 0:
		return Errorf(EInvalid, "%s %q may only contain letters, digits, '.', '_' and '-'", field, s)
	}
	return nil
}

func nameRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-'
}
