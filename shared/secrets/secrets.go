// Package secrets finds credentials in text: the formats of keys and
// tokens that say what they are (an AWS access key id, a private key
// block, a GitHub, Slack, Stripe, Google, OpenAI or Anthropic token, a
// JSON Web Token), so that a writer that stores text nobody reviews
// (extraction, from a run's output) can keep them out of the memories
// injected into every later run.
//
// It looks for shapes a credential has by construction, not for words
// such as "password": a miss is possible, a false alarm on an ordinary
// engineering note should not be.
package secrets

import (
	"regexp"
	"strings"
)

// kind is one format of credential.
type kind struct {
	name string
	re   *regexp.Regexp
}

// kinds are the formats Find knows, most specific first.
var kinds = []kind{
	// The whole block, to its END line or the end of the text.
	{"private key", regexp.MustCompile(`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?s:.*?)(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|\z)`)},
	{"AWS access key id", regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b`)},
	{"AWS secret access key", regexp.MustCompile(`(?i)aws_?secret_?access_?key["']?\s*[:=]\s*["']?[A-Za-z0-9/+]{40}\b`)},
	{"GitHub token", regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})\b`)},
	{"GitLab token", regexp.MustCompile(`\bglpat-[A-Za-z0-9_-]{20,}\b`)},
	{"Slack token", regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}\b`)},
	{"Stripe secret key", regexp.MustCompile(`\b[rs]k_live_[A-Za-z0-9]{20,}\b`)},
	{"Google API key", regexp.MustCompile(`\bAIza[A-Za-z0-9_-]{35}`)},
	{"Anthropic API key", regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_-]{20,}`)},
	{"OpenAI API key", regexp.MustCompile(`\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}T3BlbkFJ[A-Za-z0-9_-]{20,}|\bsk-proj-[A-Za-z0-9_-]{40,}`)},
	{"JSON Web Token", regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}`)},
}

// Find returns the kind of the first credential in s ("AWS access key
// id", ...) and true, or "" and false when s holds none.
func Find(s string) (string, bool) {
	for _, k := range kinds {
		if k.re.MatchString(s) {
			return k.name, true
		}
	}
	return "", false
}

// Redact returns s with every credential replaced by "[redacted <kind>]".
func Redact(s string) string {
	for _, k := range kinds {
		if k.re.MatchString(s) {
			s = k.re.ReplaceAllLiteralString(s, "[redacted "+strings.ToLower(k.name)+"]")
		}
	}
	return s
}
