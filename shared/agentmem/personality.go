package agentmem

import (
	"net/mail"
)

// Personality limits and the page sizes of their listing
// (GET /api/personalities).
const (
	DefaultPersonalitiesPage = 100
	MaxPersonalitiesPage     = 500

	MaxPromptBytes      = 8 << 10
	MaxDisplayNameBytes = 100
	MaxVoiceBytes       = 1 << 10
	MaxTraits           = 20
	MaxTraitBytes       = 100
)

// Personality is an agent's persona, shared by all its projects: it is
// keyed by agent name.
type Personality struct {
	AgentName   string   `json:"agentName" dynamo:"agentName,hash" index:"name-index,range"`
	DisplayName string   `json:"displayName,omitempty" dynamo:"displayName,omitempty"`
	Voice       string   `json:"voice,omitempty" dynamo:"voice,omitempty"`
	Traits      []string `json:"traits,omitempty" dynamo:"traits,omitempty"`
	Prompt      string   `json:"prompt,omitempty" dynamo:"prompt,omitempty"`
	GitName     string   `json:"gitName,omitempty" dynamo:"gitName,omitempty"`
	GitEmail    string   `json:"gitEmail,omitempty" dynamo:"gitEmail,omitempty"`
	UpdatedAt   string   `json:"updatedAt" dynamo:"updatedAt"`
	// Version increases by one on every write. A writer that sends the
	// version it read gets EConflict if someone else wrote in between.
	Version int `json:"version" dynamo:"version"`
}

// PersonalityInput is the body of PUT .../personality. Version, when set, is
// the version the caller last read (0: the personality must not exist yet).
type PersonalityInput struct {
	DisplayName string   `json:"displayName,omitempty"`
	Voice       string   `json:"voice,omitempty"`
	Traits      []string `json:"traits,omitempty"`
	Prompt      string   `json:"prompt,omitempty"`
	GitName     string   `json:"gitName,omitempty"`
	GitEmail    string   `json:"gitEmail,omitempty"`
	Version     *int     `json:"version,omitempty"`
	// ClientToken is an idempotency key (IdempotencyKey): a retry with
	// the same token and the same personality gets the first answer back.
	ClientToken string `json:"clientToken,omitempty"`
}

// Normalize writes every line terminator as "\n" (NormalizeLineBreaks)
// and trims white space around every field, so that Validate's
// single-line rule sees every kind of line break.
func (in *PersonalityInput) Normalize() {
	in.DisplayName = normalizeText(in.DisplayName)
	in.Voice = normalizeText(in.Voice)
	in.Prompt = normalizeText(in.Prompt)
	in.GitName = normalizeText(in.GitName)
	in.GitEmail = normalizeText(in.GitEmail)
	for i := range in.Traits {
		in.Traits[i] = normalizeText(in.Traits[i])
	}
}

// Validate checks sizes and shapes; a personality needs at least a display
// name or a prompt to be worth injecting.
func (in *PersonalityInput) Validate() error {
	if in.DisplayName == "" && in.Prompt == "" {
		return Errorf(EInvalid, "a personality needs a displayName or a prompt")
	}
	fields := []struct {
		name, value string
		max         int
	}{
		{"displayName", in.DisplayName, MaxDisplayNameBytes},
		{"voice", in.Voice, MaxVoiceBytes},
		{"prompt", in.Prompt, MaxPromptBytes},
		{"gitName", in.GitName, MaxDisplayNameBytes},
		{"gitEmail", in.GitEmail, MaxDisplayNameBytes},
	}
	for _, f := range fields {
		if err := validateText(f.name, f.value, f.max, false); err != nil {
			return err
		}
	}
	for _, f := range []struct{ name, value string }{{"displayName", in.DisplayName}, {"gitName", in.GitName}, {"gitEmail", in.GitEmail}} {
		if hasLineBreak(f.value) {
			return Errorf(EInvalid, "%s must be a single line", f.name)
		}
	}
	if in.GitEmail != "" {
		if a, err := mail.ParseAddress(in.GitEmail); err != nil || a.Address != in.GitEmail {
			return Errorf(EInvalid, "gitEmail %q is not a plain email address", in.GitEmail)
		}
	}
	if len(in.Traits) > MaxTraits {
		return Errorf(EInvalid, "at most %d traits are allowed, got %d", MaxTraits, len(in.Traits))
	}
	for _, t := range in.Traits {
		if err := validateText("trait", t, MaxTraitBytes, true); err != nil {
			return err
		}
	}
	if in.Version != nil && *in.Version < 0 {
		return Errorf(EInvalid, "version must not be negative")
	}
	if in.ClientToken != "" {
		return ValidateIdempotencyKey(in.ClientToken)
	}
	return nil
}

// Personality returns the personality the input describes for agentName.
func (in *PersonalityInput) Personality(agentName string) Personality {
	return Personality{
		AgentName:   agentName,
		DisplayName: in.DisplayName,
		Voice:       in.Voice,
		Traits:      in.Traits,
		Prompt:      in.Prompt,
		GitName:     in.GitName,
		GitEmail:    in.GitEmail,
	}
}
