package agentmem

import (
	"fmt"
	"strings"
)

// Name limits (BRIEF §3): '#' separates agent and project in the partition
// key, so names are restricted to [A-Za-z0-9._-]. Names are also path
// segments of the API's routes, so "." and ".." (dot segments) are
// refused: clients that normalise paths (curl, browsers, SigV4 signers,
// API Gateway) would resolve them away and never reach what they name.
// Names that merely hold dots ("v1.2", "a..b", ".hidden", "...") are
// valid.
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

// NamePattern is the name rule of ValidateAgentName and friends as a
// regular expression for names of at most max characters (max ≥ 3): 1 to
// max characters of [A-Za-z0-9._-], but not "." or "..". It uses no
// lookahead and escapes '-' in its classes, so RE2 (Go), ECMA-262 with
// the u or v flag (JSON Schema validators, HTML pattern attributes) read
// it alike: any 3 to max characters, or one character that is not a dot,
// or two that are not both dots.
func NamePattern(max int) string {
	if max < 3 {
		panic(fmt.Sprintf("agentmem: NamePattern(%d): the limit must be at least 3", max))
	}
	const anyRune, notDot = `[A-Za-z0-9._\-]`, `[A-Za-z0-9_\-]`
	return fmt.Sprintf(`^(?:%s{3,%d}|%s%s?|\.%s)$`, anyRune, max, notDot, anyRune, notDot)
}

// IsDotSegment reports whether s is "." or "..", the path segments that
// URL normalisation removes (RFC 3986 §5.2.4). No name may be one.
func IsDotSegment(s string) bool { return s == "." || s == ".." }

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

// validateName is the one name rule (NamePattern says the same as a
// regular expression; a test holds them together).
func validateName(field, s string, max int) error {
	switch {
	case s == "":
		return Errorf(EInvalid, "%s is required", field)
	case len(s) > max:
		return Errorf(EInvalid, "%s is %d characters; the limit is %d", field, len(s), max)
	case strings.IndexFunc(s, func(r rune) bool { return !nameRune(r) }) >= 0:
		return Errorf(EInvalid, "%s %q may only contain letters, digits, '.', '_' and '-'", field, s)
	case IsDotSegment(s):
		return Errorf(EInvalid, "%s %q is a dot segment: \".\" and \"..\" cannot be names, since clients that normalise URL paths (curl, browsers, SigV4 signers) resolve them away; dots beside other characters are fine (\"v1.2\", \".hidden\")", field, s)
	}
	return nil
}

func nameRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-'
}
