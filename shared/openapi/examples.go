package openapi

import (
	"reflect"

	"github.com/agentmem/agentmem/shared/agentmem"
)

var reflectErrorEnvelope = reflect.TypeFor[agentmem.ErrorEnvelope]()

// Examples of the request bodies and of the main answers, shown by the
// components of their types. A test validates each against its schema and
// requires one for every request body type, so that a viewer can "try it
// out" with a body the API accepts.
var (
	exampleCreated = "2026-03-02T09:14:05.123456789Z"

	exampleMemory = agentmem.Memory{
		ID: "01JD5Q8Z3K7M2N4P6R8T0V2X4Y", AgentName: "nori", ProjectID: "checkout-service",
		Content: "Use sqlc for the orders queries", Type: agentmem.TypeDecision, Source: agentmem.SourceManual,
		CreatedAt: exampleCreated, Rationale: "typed queries, no ORM magic", Tags: []string{"db"},
	}
	examplePersonality = agentmem.Personality{
		AgentName: "nori", DisplayName: "Nori", Voice: "warm and terse", Traits: []string{"pragmatic", "test-first"},
		GitName: "Nori (agent)", GitEmail: "nori@agents.example.com", UpdatedAt: exampleCreated, Version: 3,
	}
	exampleConfidence = 0.85
	exampleValue      = "JWT with refresh tokens"
	exampleTTL        = 7200
	exampleLookback   = 3
	exampleSuccess    = true
	exampleVersion    = 2
	exampleContent    = "Use sqlc for the orders and refunds queries"
)

var examples = map[reflect.Type]any{
	// Request bodies.
	reflect.TypeFor[agentmem.MemoryInput](): agentmem.MemoryInput{
		ProjectID: "checkout-service", Type: agentmem.TypeDecision,
		Content: "Use sqlc for the orders queries", Rationale: "typed queries, no ORM magic",
	},
	reflect.TypeFor[agentmem.PersonalityInput](): agentmem.PersonalityInput{
		DisplayName: "Nori", Voice: "warm and terse", Traits: []string{"pragmatic", "test-first"},
		GitName: "Nori (agent)", GitEmail: "nori@agents.example.com",
	},
	reflect.TypeFor[agentmem.ExtractionInput](): agentmem.ExtractionInput{
		ProjectID: "checkout-service", RunID: "run-42", Summary: "Added webhook retries.", Success: &exampleSuccess,
		Learnings: []agentmem.Learning{
			{Type: agentmem.TypeFinding, Content: "The payment provider retries webhooks 3 times"},
			{Type: agentmem.TypePattern, Content: "Deduplicate webhook deliveries", Trigger: "duplicate webhook deliveries",
				Solution: "conditional put on the event id", Confidence: &exampleConfidence},
		},
	},
	reflect.TypeFor[agentmem.DailyInput](): agentmem.DailyInput{
		ProjectID: "checkout-service", Title: "run-41",
		Content: "The payment provider retries webhooks 3 times. We decided to use idempotency keys.",
	},
	reflect.TypeFor[agentmem.SessionInput]():     agentmem.SessionInput{Value: &exampleValue, TTLSeconds: &exampleTTL},
	reflect.TypeFor[agentmem.CreateDreamInput](): agentmem.CreateDreamInput{ProjectID: "checkout-service", LookbackDays: &exampleLookback},
	reflect.TypeFor[agentmem.ForgetInput]():      agentmem.ForgetInput{ProjectID: "checkout-service", OlderThan: "30d"},
	reflect.TypeFor[agentmem.RecountInput]():     agentmem.RecountInput{AgentName: "nori", ProjectID: "checkout-service"},
	reflect.TypeFor[agentmem.MemoryPatch]():      agentmem.MemoryPatch{Version: &exampleVersion, Content: &exampleContent, Note: "refunds moved to sqlc too"},
	reflect.TypeFor[agentmem.RestoreInput]():     agentmem.RestoreInput{Version: &exampleVersion, Note: "the edit was wrong"},

	// Answers.
	reflect.TypeFor[agentmem.Memory]():      exampleMemory,
	reflect.TypeFor[agentmem.MemoryPage]():  agentmem.MemoryPage{Memories: []agentmem.Memory{exampleMemory}, NextCursor: "MjAyNi0wMy0wMlQwOToxNDowNS4xMjM0NTY3ODla"},
	reflect.TypeFor[agentmem.Personality](): examplePersonality,
	reflect.TypeFor[agentmem.SessionEntry](): agentmem.SessionEntry{
		ProjectID: "checkout-service", SessionID: "run-42", Key: "auth-patterns", Value: exampleValue,
		CreatedAt: exampleCreated, UpdatedAt: exampleCreated, AccessedAt: exampleCreated, ExpiresAt: "2026-03-02T11:14:05.000000000Z",
	},
	reflect.TypeFor[agentmem.Job](): agentmem.Job{ID: "01JD5Q9A0B1C2D3E4F5G6H7J8K", AgentName: "nori", ProjectID: "checkout-service",
		Kind: agentmem.JobDeleteScope, Status: agentmem.JobRunning, Removed: 4200, CreatedAt: exampleCreated, UpdatedAt: "2026-03-02T09:14:13.734018622Z"},
	reflect.TypeFor[agentmem.ErrorEnvelope](): agentmem.ErrorEnvelope{Error: &agentmem.Error{Code: agentmem.EInvalid, Message: "projectId is required"}},
	reflect.TypeFor[agentmem.Health](): agentmem.Health{Status: agentmem.HealthOK, Tables: []agentmem.TableHealth{
		{Table: "memories", Name: "agent-memories", Status: agentmem.HealthOK, Millis: 4.2},
		{Table: "personalities", Name: "agent-personalities", Status: agentmem.HealthOK, Millis: 3.9},
		{Table: "journal", Name: "agent-journal", Status: agentmem.HealthOK, Millis: 4.0},
	}},
}
