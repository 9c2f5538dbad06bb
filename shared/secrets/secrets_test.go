package secrets

import (
	"strings"
	"testing"
)

// Credentials are built from parts so that no scanner takes this file for
// a leak; the AWS ones are the documentation's own examples.
var (
	awsKeyID  = "AKIA" + "IOSFODNN7EXAMPLE"
	awsSecret = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"
	ghToken   = "ghp_" + strings.Repeat("a1B2", 9)
	jwt       = "eyJhbGciOiJIUzI1NiJ9" + "." + "eyJzdWIiOiIxMjM0NTY3ODkwIn0" + "." + "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
	pemKey    = "-----BEGIN RSA " + "PRIVATE KEY-----\nMIIEpAIBAAKCAQEA1234\nabcd\n-----END RSA " + "PRIVATE KEY-----"
)

func TestFind(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text, want string // want "": no credential
	}{
		{"The deploy role uses " + awsKeyID + " in CI.", "AWS access key id"},
		{"aws_secret_access_key = " + awsSecret, "AWS secret access key"},
		{`"AWS_SECRET_ACCESS_KEY": "` + awsSecret + `"`, "AWS secret access key"},
		{"token " + ghToken + " works for the API", "GitHub token"},
		{"github_pat_" + strings.Repeat("x9", 21), "GitHub token"},
		{"glpat-" + strings.Repeat("Ab3", 7), "GitLab token"},
		{"SLACK_BOT_TOKEN=xoxb-" + "1234567890-abcdefghij", "Slack token"},
		{"sk_live_" + strings.Repeat("4eC39H", 4), "Stripe secret key"},
		{"key=AIza" + strings.Repeat("Sy9_-", 7), "Google API key"},
		{"ANTHROPIC_API_KEY=sk-ant-" + "api03-" + strings.Repeat("Zz9", 10), "Anthropic API key"},
		{"OPENAI_API_KEY=sk-proj-" + strings.Repeat("aB3_", 12), "OpenAI API key"},
		{"Authorization: Bearer " + jwt, "JSON Web Token"},
		{"the key:\n" + pemKey, "private key"},
		{"a cut key: -----BEGIN OPENSSH " + "PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA", "private key"},

		// Engineering notes that are no credential.
		{"Set AWS_REGION=eu-west-1 and AWS_PROFILE=ci before cdk deploy", ""},
		{"The AKIA prefix marks long-term keys; rotate them every 90 days", ""},
		{"The scorer uses sk-learn 1.4 and the ghp_ prefix check in CI", ""},
		{"Tokens are JWTs (eyJ...) that expire after 15 minutes", ""},
		{"-----BEGIN " + "CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----", ""},
		{"sk_test_" + strings.Repeat("4eC39H", 4) + " is Stripe's test key", ""},
		{"commit 9d05c75e4b7a1f0c2d3e4f5a6b7c8d9e0f1a2b3c, sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", ""},
		{"id 01JD5Q8Z3K7M2N4P6R8T0V2X4Y, request 3f2b1c9e-8d7a-4e6f-9b0c-1a2d3e4f5a6b", ""},
		{"base64 of the payload: dGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZw==", ""},
		{"BEGIN TRANSACTION; the password policy needs 12 characters", ""},
	}
	for _, tt := range tests {
		got, ok := Find(tt.text)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("Find(%q) = %q, %v; want %q", tt.text, got, ok, tt.want)
		}
	}
}

func TestRedact(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"Run failed: key " + awsKeyID + " was refused", "Run failed: key [redacted aws access key id] was refused"},
		{"kept " + pemKey + " in the repo", "kept [redacted private key] in the repo"},
		{"no credential here", "no credential here"},
		{ghToken + " and " + ghToken, "[redacted github token] and [redacted github token]"},
	}
	for _, tt := range tests {
		if got := Redact(tt.in); got != tt.want {
			t.Errorf("Redact(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if _, ok := Find(Redact(tt.in)); ok {
			t.Errorf("Redact(%q) still holds a credential", tt.in)
		}
	}
}

// FuzzRedact checks that Redact leaves nothing Find finds, and changes
// text that holds no credential not at all.
func FuzzRedact(f *testing.F) {
	for _, s := range []string{"", awsKeyID, pemKey, jwt, "plain note", "AKIA" + strings.Repeat("A", 40), "-----BEGIN " + "PRIVATE KEY-----"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r := Redact(s)
		if kind, ok := Find(r); ok {
			t.Fatalf("Redact(%q) = %q, which still holds a %s", s, r, kind)
		}
		if _, ok := Find(s); !ok && r != s {
			t.Fatalf("Redact(%q) = %q, changed text with no credential", s, r)
		}
	})
}
