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
	// Dropped lists the bullets the fabrication guard refused.
	Dropped []DroppedBullet `json:"dropped,omitempty" dynamo:"dropped,omitempty"`
	// Notes are remarks about the run (compression skipped, records left
	// out, duplicates of kept memories removed).
	Notes []string `json:"notes,omitempty" dynamo:"notes,omitempty"`

	// Counts of what the dream did to the core.
	Created    int `json:"created" dynamo:"created"`
	Deleted    int `json:"deleted" dynamo:"deleted"`
	Unchanged  int `json:"unchanged" dynamo:"unchanged"`
	Kept       int `json:"kept" dynamo:"kept"`
	Compressed int `json:"compressed,omitempty" dynamo:"compressed,omitempty"`
	// KeepManual tells whether manual memories were kept as they were.
	KeepManual bool `json:"keepManual" dynamo:"keepManual"`

	Model  string `json:"model,omitempty" dynamo:"model,omitempty"`
	Prompt string `json:"prompt,omitempty" dynamo:"prompt,omitempty"`
	Error  string `json:"error,omitempty" dynamo:"error,omitempty"`

	// RevertOf is the dream a revert entry undid; RevertedBy the revert
	// that undid a dream.
	RevertOf   string `json:"revertOf,omitempty" dynamo:"revertOf,omitempty"`
	RevertedBy string `json:"revertedBy,omitempty" dynamo:"revertedBy,omitempty"`
}

// DroppedBullet is a bullet of the model's answer that the sources do not
// support.
type DroppedBullet struct {
	Type    Type   `json:"type" dynamo:"type"`
	Content string `json:"content" dynamo:"content"`
	// Support is the share of the bullet's content words found in the
	// sources, 0..1.
	Support float64 `json:"support" dynamo:"support"`
	// Missing lists the bullet's words the sources do not contain.
	Missing []string `json:"missing,omitempty" dynamo:"missing,omitempty"`
	// Class is the support test's class of failure (identifier_missing,
	// number_context, negation, modality, causal, role_swap,
	// status_change, unsupported_combination, low_overlap, ...; see
	// shared/dream/support); empty for a bullet dropped for another reason.
	Class  string `json:"class,omitempty" dynamo:"class,omitempty"`
	Reason string `json:"reason" dynamo:"reason"`
}
