package search

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTokenize(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"empty", "", nil},
		{"only punctuation", " ,.;:!? -- __ ", nil},
		{"lower-cases and drops stopwords", "The Payments Service", []string{"payment", "servic"}},
		{"punctuation splits", "webhook,retry;backoff(3)", []string{"webhook", "retry", "backoff", "3"}},
		{"camelCase", "retryWebhook", []string{"retry", "webhook", "retrywebhook"}},
		{"PascalCase", "WebhookRetrier", []string{"webhook", "retrier", "webhookretrier"}},
		{"snake_case", "max_retry_count", []string{"max", "retry", "count", "maxretrycount"}},
		{"kebab-case", "user-service", []string{"user", "servic", "userservic"}},
		{"acronym run", "HTTPServer", []string{"http", "server", "httpserver"}},
		{"acronym at end", "userID", []string{"user", "id", "userid"}},
		{"plural acronym", "IDs", []string{"id"}},
		{"plural acronym inside", "parseURLsFast", []string{"pars", "url", "fast", "parseurlfast"}},
		{"stopword part kept in compound", "isValid", []string{"valid", "isvalid"}},
		{"digits stay with letters", "oauth2 ec2 sha256", []string{"oauth2", "ec2", "sha256"}},
		{"digit then upper splits", "s3Bucket", []string{"s3", "bucket", "s3bucket"}},
		{"numbers", "retries 3 times in 250ms", []string{"retry", "3", "tim", "250ms"}},
		{"decimal and version", "Go 1.26 and v1.2.3.", []string{"go", "1.26", "v1.2.3"}},
		{"dot between letters splits", "os.Getenv", []string{"os", "getenv"}},
		{"path", "src/components/LoginForm.tsx", []string{"src", "component", "login", "form", "loginform", "tsx"}},
		{"leading and doubled separators", "__init__ --force a__b", []string{"init", "forc"}},
		{"apostrophe joins", "don't cache the user's token", []string{"dont", "cach", "user", "token"}},
		{"typographic apostrophe", "it\u2019s the team\u2019s", []string{"team"}},
		{"single letters dropped, digits kept", "x y 7", []string{"7"}},
		{"unicode letters", "Größe ÜBER café", []string{"größe", "über", "café"}},
		{"unicode camel", "naïveBayes", []string{"naïve", "bay", "naïvebayes"}},
		{"stemming", "caching cached caches cache", []string{"cach", "cach", "cach", "cach"}},
		{"duplicates kept", "retry retry", []string{"retry", "retry"}},
		{"invalid utf-8 separates", "a\xffbc", []string{"bc"}},
		{"decomposed accents are the composed letters", "cafe\u0301 Gro\u0308\u00dfe", []string{"café", "größe"}},
		{"a decomposed letter alone is a letter alone", "e\u0301", nil},
		{"compatibility forms are their plain letters", "\uff47\uff4f \ufb01le \uff2e\uff4f\uff44\uff45\uff12\uff10", []string{"go", "fil", "node20"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := Tokenize(tt.in)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Tokenize(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestStem(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"go", "go"},
		{"aws", "aws"},
		{"webhooks", "webhook"},
		{"classes", "class"},
		{"queries", "query"},
		{"retries", "retry"},
		{"retried", "retry"},
		{"retrying", "retry"},
		{"status", "status"},
		{"statuses", "status"},
		{"analysis", "analysis"},
		{"logging", "log"},
		{"logged", "log"},
		{"rolled", "roll"},
		{"passing", "pass"},
		{"embedding", "embed"},
		{"running", "run"},
		{"added", "add"},
		{"need", "need"},
		{"needed", "need"},
		{"speed", "speed"},
		{"string", "string"},
		{"thing", "thing"},
		{"cache", "cach"},
		{"caching", "cach"},
		{"free", "free"},
		{"fixes", "fix"},
		{"fixed", "fix"},
		{"deployed", "deploy"},
		{"databases", "databas"},
		{"oauth2", "oauth2"},
		{"größe", "größe"},
	}
	for _, tt := range tests {
		if got := Stem(tt.in); got != tt.want {
			t.Errorf("Stem(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestIsStopword(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want bool
	}{
		{"the", true}, {"with", true}, {"not", false}, {"error", false}, {"The", false},
	}
	for _, tt := range tests {
		if got := IsStopword(tt.in); got != tt.want {
			t.Errorf("IsStopword(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// FuzzTokenize checks that Tokenize never panics and only returns
// non-empty, lower-case, valid UTF-8 tokens.
func FuzzTokenize(f *testing.F) {
	for _, s := range []string{
		"", "retryWebhook", "HTTPServer IDs", "snake_case-kebab", "v1.2.3", "don't",
		"Größe naïveBayes", "a\xffb", "İstanbul ǅemal", "__--..''", "ΣΑΣ σας",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, tok := range Tokenize(s) {
			if tok == "" {
				t.Fatalf("Tokenize(%q) returned an empty token", s)
			}
			if !utf8.ValidString(tok) {
				t.Fatalf("Tokenize(%q) returned invalid UTF-8 %q", s, tok)
			}
			if got := strings.ToLower(tok); got != tok {
				t.Fatalf("Tokenize(%q) returned %q, not lower-case (want %q)", s, tok, got)
			}
		}
	})
}
