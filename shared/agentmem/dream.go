package agentmem

// Dream statuses.
const (
	// DreamCommitting: the new core is being written. A dream that stops
	// here (a crash) is rolled forward by the next dream of its scope.
	DreamCommitting = "committing"
	// DreamCommitted: the core was replaced (or left as it was, when the
	// consolidation changed nothing).
	DreamCommitted = "committed"
	// DreamFailed: nothing changed; Error says why.
	DreamFailed = "failed"
	// DreamReverted: a committed dream whose prior core was restored.
	DreamReverted = "reverted"
)

// Dream kinds.
const (
	DreamKindDream  = "dream"
	DreamKindRevert = "revert"
)

// DreamPhase is where a running dream stands (a dream job's Phase).
type DreamPhase string

// Dream phases, in order.
const (
	// DreamPhaseQueued: the dream waits for a worker to run it.
	DreamPhaseQueued DreamPhase = "queued"
	// DreamPhaseReview: the model is asked for operations over the
	// scope's parts.
	DreamPhaseReview DreamPhase = "review"
	// DreamPhaseVerify: the verifier checks the changes that passed the
	// support test.
	DreamPhaseVerify DreamPhase = "verify"
	// DreamPhaseCompress: old memories are compressed.
	DreamPhaseCompress DreamPhase = "compress"
	// DreamPhaseCommit: the plan is written.
	DreamPhaseCommit DreamPhase = "commit"
)

// Dream triggers.
const (
	TriggerAPI      = "api"
	TriggerSchedule = "schedule"
)

// Dream is one entry of a scope's dream diary (memory/dreams/YYYY-MM-DD.md):
// a Deep Dream consolidation, its outcome, or the revert of one. The prior core it replaced is kept with it, so it can be reverted.
type Dream struct {
	ID        string `json:"id" dynamo:"id"`
	AgentName string `json:"agentName" dynamo:"agentName"`
	ProjectID string `json:"projectId" dynamo:"projectId"`
	Kind      string `json:"kind" dynamo:"kind"`
	Status    string `json:"status" dynamo:"status"`
	Trigger   string `json:"trigger,omitempty" dynamo:"trigger,omitempty"`
	// Date is the UTC day the dream started, YYYY-MM-DD.
	Date       string `json:"date" dynamo:"date"`
	StartedAt  string `json:"startedAt" dynamo:"startedAt"`
	FinishedAt string `json:"finishedAt,omitempty" dynamo:"finishedAt,omitempty"`

	// The window of daily records the dream consolidated.
	LookbackDays int    `json:"lookbackDays,omitempty" dynamo:"lookbackDays,omitempty"`
	WindowFrom   string `json:"windowFrom,omitempty" dynamo:"windowFrom,omitempty"`
	WindowTo     string `json:"windowTo,omitempty" dynamo:"windowTo,omitempty"`
	Records      int    `json:"records,omitempty" dynamo:"records,omitempty"`
	// RecordsLeftOut counts the oldest records of the window that did not
	// fit in the prompt.
	RecordsLeftOut int `json:"recordsLeftOut,omitempty" dynamo:"recordsLeftOut,omitempty"`
	// Hash is the hash of the window's daily content.
	Hash string `json:"hash,omitempty" dynamo:"hash,omitempty"`

	// Diary is the dream's own account, in prose (the [DREAM] section).
	Diary string `json:"diary,omitempty" dynamo:"diary,omitempty"`
	// Operations lists every change the dream made to the core (add,
	// update, retire), each with the ids of the sources it cites, in the
	// order they were applied (at most MaxListedOperations; the plan holds
	// them all).
	Operations []DreamOperation `json:"operations,omitempty" dynamo:"operations,omitempty"`
	// Dropped lists the operations (and bullets) the dream refused, each
	// with its reason class.
	Dropped []DroppedBullet `json:"dropped,omitempty" dynamo:"dropped,omitempty"`
	// Notes are remarks about the run (compression skipped, records left
	// out, duplicates of kept memories removed).
	Notes []string `json:"notes,omitempty" dynamo:"notes,omitempty"`

	// Counts of what the dream did to the core: Created memories added,
	// Updated rewritten as their next version, Retired taken out of the
	// scope (both kept in their history), Deleted removed (a revert of a
	// dream from before operations; a revert counts what it restored as
	// Created and what it retired as Deleted).
	Created    int `json:"created" dynamo:"created"`
	Updated    int `json:"updated,omitempty" dynamo:"updated,omitempty"`
	Retired    int `json:"retired,omitempty" dynamo:"retired,omitempty"`
	Deleted    int `json:"deleted" dynamo:"deleted"`
	Unchanged  int `json:"unchanged" dynamo:"unchanged"`
	Kept       int `json:"kept" dynamo:"kept"`
	Compressed int `json:"compressed,omitempty" dynamo:"compressed,omitempty"`
	// KeepManual tells whether manual memories were kept as they were.
	KeepManual bool `json:"keepManual" dynamo:"keepManual"`

	// Usage is what the dream's model calls cost (the consolidation and
	// the compression; the verifier's calls are in Verifier, the restate
	// pass's in Restate).
	Usage *ModelUsage `json:"usage,omitempty" dynamo:"usage,omitempty"`
	// Verifier is the outcome of the second opinion on the operations.
	Verifier *VerifierReport `json:"verifier,omitempty" dynamo:"verifier,omitempty"`
	// Restate is the outcome of the second chance given to additions and
	// updates the support test refused (restated in the sources' words).
	Restate *RestateReport `json:"restate,omitempty" dynamo:"restate,omitempty"`

	Model  string `json:"model,omitempty" dynamo:"model,omitempty"`
	Prompt string `json:"prompt,omitempty" dynamo:"prompt,omitempty"`
	Error  string `json:"error,omitempty" dynamo:"error,omitempty"`

	// RevertOf is the dream a revert entry undid; RevertedBy the revert
	// that undid a dream.
	RevertOf   string `json:"revertOf,omitempty" dynamo:"revertOf,omitempty"`
	RevertedBy string `json:"revertedBy,omitempty" dynamo:"revertedBy,omitempty"`
}

// Operations of a dream's answer.
const (
	OpKeep   = "keep"   // the memory stays as it is (also every memory the answer does not mention)
	OpAdd    = "add"    // a new memory
	OpUpdate = "update" // a memory rewritten as its next version (the old one stays in its history)
	OpRetire = "retire" // a memory taken out of the scope (restorable from its history)
)

// MaxListedOperations bounds the operations a diary entry lists.
const MaxListedOperations = 300

// DreamOperation is one change a dream made to the core, with the ids of
// the sources (memories, daily records) that support it.
type DreamOperation struct {
	// Op is OpAdd, OpUpdate or OpRetire.
	Op string `json:"op" dynamo:"op"`
	// MemoryID is the memory added, updated or retired.
	MemoryID string `json:"memoryId" dynamo:"memoryId"`
	Type     Type   `json:"type" dynamo:"type"`
	// Content is the memory's text after the change (add, update) or as
	// it was when retired (typed fields rendered as in MEMORY.md).
	Content string `json:"content" dynamo:"content"`
	// Before is an update's text before it, BeforeType its type.
	Before     string `json:"before,omitempty" dynamo:"before,omitempty"`
	BeforeType Type   `json:"beforeType,omitempty" dynamo:"beforeType,omitempty"`
	// Version is the memory's version the change made (an update's or a
	// retirement's; 1 for an add).
	Version   int      `json:"version" dynamo:"version"`
	Citations []string `json:"citations" dynamo:"citations"`
	// Rule says why a retirement was accepted: RetireContradicted,
	// RetireObsolete or RetireRepeated.
	Rule string `json:"rule,omitempty" dynamo:"rule,omitempty"`
	// Note is the model's reason, as it wrote it.
	Note string `json:"note,omitempty" dynamo:"note,omitempty"`
	// Verified is the verifier's verdict (VerdictSupports), empty when no
	// verifier ran on it.
	Verified string `json:"verified,omitempty" dynamo:"verified,omitempty"`
	// Restated is the change as the model first wrote it, when the support
	// test refused that and the model's restatement in the cited sources'
	// own words (Content) passed; empty otherwise.
	Restated string `json:"restated,omitempty" dynamo:"restated,omitempty"`
}

// Why a retirement was accepted: a cited source says otherwise
// (contradicted), says the memory is out of date (obsolete), or a cited
// memory that stays says all of it (repeated).
const (
	RetireContradicted = "contradicted"
	RetireObsolete     = "obsolete"
	RetireRepeated     = "repeated"
)

// Verifier verdicts on an operation and its cited sources.
const (
	VerdictSupports     = "supports"
	VerdictContradicts  = "contradicts"
	VerdictNotMentioned = "not_mentioned"
)

// Verifier statuses.
const (
	VerifierRan    = "ran"    // every batch answered
	VerifierOff    = "off"    // turned off (AGENTMEM_DREAM_VERIFY=false) or nothing to verify
	VerifierFailed = "failed" // a call failed or could not be read: the deterministic test's result stands for its operations
)

// ModelUsage is what model calls cost.
type ModelUsage struct {
	Calls        int `json:"calls" dynamo:"calls"`
	InputTokens  int `json:"inputTokens" dynamo:"inputTokens"`
	OutputTokens int `json:"outputTokens" dynamo:"outputTokens"`
	// Retries counts answers cut off at the token cap and asked again
	// over a smaller part of the work.
	Retries int `json:"retries,omitempty" dynamo:"retries,omitempty"`
}

// Add adds o to u.
func (u *ModelUsage) Add(o ModelUsage) {
	u.Calls += o.Calls
	u.InputTokens += o.InputTokens
	u.OutputTokens += o.OutputTokens
	u.Retries += o.Retries
}

// VerifierReport is the outcome of a dream's verification pass.
type VerifierReport struct {
	// Status is VerifierRan, VerifierOff or VerifierFailed.
	Status string `json:"status" dynamo:"status"`
	// Checked counts the operations sent to the verifier, Dropped those it
	// refused.
	Checked int        `json:"checked" dynamo:"checked"`
	Dropped int        `json:"dropped" dynamo:"dropped"`
	Usage   ModelUsage `json:"usage" dynamo:"usage"`
	// Error says why it failed (the operations of the failed batches
	// stand on the deterministic test).
	Error string `json:"error,omitempty" dynamo:"error,omitempty"`
}

// Restate pass statuses.
const (
	RestateRan    = "ran"    // every batch answered
	RestateOff    = "off"    // turned off (AGENTMEM_DREAM_RESTATE=false) or nothing to restate
	RestateFailed = "failed" // a call failed, was cut off or could not be read: its claims stay refused
)

// RestateReport is the outcome of a dream's restate pass: the additions
// and updates the support test refused for what they say (not for a
// missing identifier or number), restated by the model in the cited
// sources' own words and checked again.
type RestateReport struct {
	// Status is RestateRan, RestateOff or RestateFailed.
	Status string `json:"status" dynamo:"status"`
	// Asked counts the refused operations sent to the model, Restated
	// those whose restatement passed the support test, Declined those the
	// model said the sources do not support.
	Asked    int        `json:"asked" dynamo:"asked"`
	Restated int        `json:"restated" dynamo:"restated"`
	Declined int        `json:"declined" dynamo:"declined"`
	Usage    ModelUsage `json:"usage" dynamo:"usage"`
	// Error says why it failed (the claims of the failed batches stay
	// refused).
	Error string `json:"error,omitempty" dynamo:"error,omitempty"`
}

// DroppedBullet is an operation (or a bullet) of the model's answer that
// the dream refused, with the reason class.
type DroppedBullet struct {
	// Op is the operation refused (add, update, retire); empty for a
	// compression's item.
	Op string `json:"op,omitempty" dynamo:"op,omitempty"`
	// MemoryID is the memory an update or retire named.
	MemoryID string `json:"memoryId,omitempty" dynamo:"memoryId,omitempty"`
	// Citations are the ids the operation cited (those that exist).
	Citations []string `json:"citations,omitempty" dynamo:"citations,omitempty"`
	Type      Type     `json:"type" dynamo:"type"`
	Content   string   `json:"content" dynamo:"content"`
	// Support is the share of the bullet's content words found in the
	// sources, 0..1.
	Support float64 `json:"support" dynamo:"support"`
	// Missing lists the bullet's words the sources do not contain.
	Missing []string `json:"missing,omitempty" dynamo:"missing,omitempty"`
	// Class is the reason class: the support test's (identifier_missing,
	// number_context, negation, modality, causal, role_swap,
	// status_change, unsupported_combination, low_overlap, ...; see
	// shared/dream/support) or the dream's own (no_citation,
	// unknown_citation, unknown_memory, fixed_memory, conflicting_op,
	// duplicate, invalid, unchanged, retire_unsupported,
	// verifier_contradicts, verifier_not_mentioned; see shared/dream).
	Class  string `json:"class,omitempty" dynamo:"class,omitempty"`
	Reason string `json:"reason" dynamo:"reason"`
}
