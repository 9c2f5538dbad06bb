package dynamostore

import (
	"context"
	"fmt"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/guregu/dynamo/v2"
)

// Extraction run states.
const (
	RunRunning = "running" // claimed; the extraction is under way
	RunDone    = "done"    // finished; Result is replayed to retries
)

// RunRetention is how long the journal keeps a run's record (its TTL).
// Pipelines retry within minutes; after this a repeated runId is a new run
// (whose duplicates the extraction still skips by content).
const RunRetention = 30 * 24 * time.Hour

// Run is the journal record of one extraction run, keyed by agent,
// project and runId. It makes extraction idempotent per runId: a caller
// claims the run before asking its LLM, and either finishes it (storing
// the saved memory ids and the answer, replayed to retries) or releases
// it on failure so that a later retry can run.
type Run struct {
	AgentName string `dynamo:"agentName" json:"agentName"`
	ProjectID string `dynamo:"projectId" json:"projectId"`
	RunID     string `dynamo:"runId" json:"runId"`
	Status    string `dynamo:"status" json:"status"`
	// Owner identifies one claim; only its holder finishes or releases
	// the run.
	Owner     string `dynamo:"owner" json:"-"`
	ClaimedAt string `dynamo:"claimedAt" json:"claimedAt"`
	// LeaseUntil ends a running claim: past it, the claimer is presumed
	// dead and another caller may take the run over.
	LeaseUntil string   `dynamo:"leaseUntil" json:"leaseUntil"`
	FinishedAt string   `dynamo:"finishedAt,omitempty" json:"finishedAt,omitempty"`
	MemoryIDs  []string `dynamo:"memoryIds,omitempty" json:"memoryIds,omitempty"`
	// Result is the finished run's answer, as the caller stored it.
	Result string `dynamo:"result,omitempty" json:"-"`
}

// runItem is a Run as stored in the journal.
type runItem struct {
	PK string `dynamo:"pk,hash"`
	SK string `dynamo:"sk,range"`
	Run
	ExpiresAt int64 `dynamo:"expiresAt"`
}

// runKey returns the journal key of an extraction run.
func runKey(agentName, projectID, runID string) (pk, sk string) {
	return "run#" + agentmem.Scope(agentName, projectID), runID
}

// maxClaimAttempts bounds ClaimRun's retries when the record it found
// disappears before it can be read (a release in between).
const maxClaimAttempts = 3

// ClaimRun claims the extraction run runID of agent+project until
// leaseUntil. claimed is true when the caller now holds the run and must
// FinishRun or ReleaseRun it. When the run already finished it returns the
// finished record with claimed false (replay its Result). When another
// caller holds an unexpired claim it returns EBusy. A claim whose lease
// has passed is taken over.
func (s *Store) ClaimRun(ctx context.Context, agentName, projectID, runID string, leaseUntil time.Time) (run Run, claimed bool, err error) {
	pk, sk := runKey(agentName, projectID, runID)
	for attempt := 0; attempt < maxClaimAttempts; attempt++ {
		now := s.now()
		item := runItem{PK: pk, SK: sk, ExpiresAt: now.Add(RunRetention).Unix(), Run: Run{
			AgentName: agentName, ProjectID: projectID, RunID: runID,
			Status: RunRunning, Owner: s.newID(now),
			ClaimedAt: agentmem.FormatTime(now), LeaseUntil: agentmem.FormatTime(leaseUntil),
		}}
		err := s.journal.Put(item).
			If("attribute_not_exists($) OR ($ = ? AND $ < ?)", "pk", "status", RunRunning, "leaseUntil", agentmem.FormatTime(now)).
			Run(ctx)
		if err == nil {
			return item.Run, true, nil
		}
		if !dynamo.IsCondCheckFailed(err) {
			// The claim may have been written with its answer lost: give
			// it back now rather than leave it held until its lease
			// ends, so that the caller's retry can take the run.
			s.abandonClaim(ctx, item.Run)
			return Run{}, false, fmt.Errorf("claim run %s in %s: %w", runID, pk, err)
		}
		cur, err := s.GetRun(ctx, agentName, projectID, runID)
		switch {
		case agentmem.ErrorCode(err) == agentmem.ENotFound:
			continue // released in between: claim again
		case err != nil:
			return Run{}, false, err
		case cur.Status == RunDone:
			return cur, false, nil
		case cur.Owner == item.Owner:
			// The client sent the put again after its first answer was
			// lost: the claim is this call's.
			return cur, true, nil
		}
		busy := agentmem.Errorf(agentmem.EBusy, "run %s of agent %s in project %s is being extracted since %s; retry after %s", runID, agentName, projectID, cur.ClaimedAt, cur.LeaseUntil)
		if until, err := agentmem.ParseTime(cur.LeaseUntil); err == nil {
			busy.RetryAfter = max(time.Second, until.Sub(now).Round(time.Second))
		}
		return Run{}, false, busy
	}
	return Run{}, false, agentmem.Errorf(agentmem.EBusy, "run %s of agent %s in project %s is changing hands; retry", runID, agentName, projectID)
}

// abandonTimeout bounds the release of a claim whose write failed.
const abandonTimeout = 2 * time.Second

// abandonClaim releases a claim whose write returned an error (it may
// have been written nonetheless), on a context of its own: the caller's
// may be what ended. Failures are logged; the lease still ends the claim.
func (s *Store) abandonClaim(ctx context.Context, run Run) {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), abandonTimeout)
	defer cancel()
	if err := s.ReleaseRun(cctx, run); err != nil {
		s.log().WarnContext(ctx, "claim of an extraction run not released after a failed write; its lease ends it",
			"agent", run.AgentName, "project", run.ProjectID, "runId", run.RunID, "leaseUntil", run.LeaseUntil, "err", err)
	}
}

// GetRun returns the record of an extraction run; ENotFound if there is
// none.
func (s *Store) GetRun(ctx context.Context, agentName, projectID, runID string) (Run, error) {
	pk, sk := runKey(agentName, projectID, runID)
	var item runItem
	err := s.journal.Get("pk", pk).Range("sk", dynamo.Equal, sk).Consistent(true).One(ctx, &item)
	switch {
	case notFound(err):
		return Run{}, agentmem.Errorf(agentmem.ENotFound, "no extraction run %s for agent %s in project %s", runID, agentName, projectID)
	case err != nil:
		return Run{}, fmt.Errorf("get run %s in %s: %w", runID, pk, err)
	}
	return item.Run, nil
}

// FinishRun marks a claimed run done with the ids of the memories it saved
// and its answer (replayed to retries). EConflict if the claim was lost
// (its lease passed and another caller took the run over).
func (s *Store) FinishRun(ctx context.Context, run Run, memoryIDs []string, result []byte) (Run, error) {
	pk, sk := runKey(run.AgentName, run.ProjectID, run.RunID)
	now := s.now()
	run.Status, run.FinishedAt = RunDone, agentmem.FormatTime(now)
	run.MemoryIDs, run.Result = memoryIDs, string(result)
	err := s.journal.Put(runItem{PK: pk, SK: sk, Run: run, ExpiresAt: now.Add(RunRetention).Unix()}).
		If("$ = ?", "owner", run.Owner).
		Run(ctx)
	switch {
	case dynamo.IsCondCheckFailed(err):
		return run, agentmem.Errorf(agentmem.EConflict, "run %s: the claim was lost before it finished", run.RunID)
	case err != nil:
		return run, fmt.Errorf("finish run %s in %s: %w", run.RunID, pk, err)
	}
	return run, nil
}

// ReleaseRun gives up a claimed run that failed, so that a retry can run
// it. Releasing a claim that is no longer held is not an error.
func (s *Store) ReleaseRun(ctx context.Context, run Run) error {
	pk, sk := runKey(run.AgentName, run.ProjectID, run.RunID)
	err := s.journal.Delete("pk", pk).Range("sk", sk).
		If("$ = ? AND $ = ?", "owner", run.Owner, "status", RunRunning).
		Run(ctx)
	if err != nil && !dynamo.IsCondCheckFailed(err) {
		return fmt.Errorf("release run %s in %s: %w", run.RunID, pk, err)
	}
	return nil
}
