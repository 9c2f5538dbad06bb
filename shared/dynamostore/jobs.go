package dynamostore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/guregu/dynamo/v2"
)

// Bulk deletes (delete-all, forget) are jobs, so that a scope of any size
// is emptied whatever the request's deadline. A job is a journal record
// ("job#<agent>" / "<id>") naming what to delete; RunJob deletes it page by
// page until it is done or its context's deadline nears, then gives the
// job back (a lease on the record keeps two runners apart) for the next
// run to continue where it stopped: what it deleted is gone, so it reads
// the scope again. Each delete transaction also adds what it removed to
// the job's progress (one item per counter slot, "<id>#p<slot>", so that
// parallel transactions do not contend), so Removed is exact however many
// runs it took and whatever died. Records expire after JobRetention.
//
// The memories function runs a job inline until just before its deadline
// and answers 202 when it could not finish; a queued continuation (the
// dream function's worker in Lambda, a goroutine in make dev) runs it on.
//
// A dream job (JobDream) records a dream the API could not wait for: its
// runner (the dream function's worker) holds it (HoldJob) while the dream
// runs, reports its progress (ReportDreamProgress) and ends it with the
// dream's result (EndJob). RunJob never runs one: it deletes nothing for
// a job that is not a bulk delete.

// JobRetention is how long a job's record and progress are kept.
const JobRetention = 7 * 24 * time.Hour

// jobMargin is what RunJob leaves of its context's time to give the job
// back and answer.
const jobMargin = 1500 * time.Millisecond

// jobRunTime bounds a run whose context has no deadline.
const jobRunTime = 30 * time.Second

type jobItem struct {
	PK string `dynamo:"pk,hash"`
	SK string `dynamo:"sk,range"`
	agentmem.Job
	// Owner holds the job until LeaseUntil (RunJob).
	Owner      string `dynamo:"owner,omitempty"`
	LeaseUntil string `dynamo:"leaseUntil,omitempty"`
	ExpiresAt  int64  `dynamo:"expiresAt"`
}

func jobPK(agentName string) string { return "job#" + agentName }

func progressSK(id string, slot int) string { return id + "#p" + strconv.Itoa(slot) }

// StartJob records a new job (kind, agent, project and, for a forget, the
// cutoff and whether pinned memories go too) and returns it, running.
func (s *Store) StartJob(ctx context.Context, j agentmem.Job) (agentmem.Job, error) {
	if err := agentmem.ValidateAgentName(j.AgentName); err != nil {
		return agentmem.Job{}, err
	}
	if err := agentmem.ValidateProjectID(j.ProjectID); err != nil {
		return agentmem.Job{}, err
	}
	j.Phase, j.Calls, j.PlannedCalls, j.DreamResult = "", 0, 0, nil
	switch j.Kind {
	case agentmem.JobDeleteScope:
		j.Cutoff, j.IncludePinned, j.DreamInput = "", false, nil
	case agentmem.JobForget:
		if _, err := agentmem.ParseTime(j.Cutoff); err != nil {
			return agentmem.Job{}, agentmem.Errorf(agentmem.EInvalid, "job cutoff %q is not a time", j.Cutoff)
		}
		j.DreamInput = nil
	case agentmem.JobDream:
		if j.DreamInput == nil {
			return agentmem.Job{}, agentmem.Errorf(agentmem.EInvalid, "a dream job needs its request")
		}
		in := *j.DreamInput
		in.ProjectID = j.ProjectID
		j.DreamInput, j.Cutoff, j.IncludePinned, j.Phase = &in, "", false, agentmem.DreamPhaseQueued
	default:
		return agentmem.Job{}, agentmem.Errorf(agentmem.EInvalid, "job kind %q is not %q, %q or %q", j.Kind, agentmem.JobDeleteScope, agentmem.JobForget, agentmem.JobDream)
	}
	now := s.now()
	j.ID = s.newID(now)
	j.Status, j.Removed, j.Error, j.FinishedAt = agentmem.JobRunning, 0, "", ""
	j.CreatedAt, j.UpdatedAt = agentmem.FormatTime(now), agentmem.FormatTime(now)
	// The id is new: a failed condition can only be this put sent again
	// by the client after its first answer was lost.
	err := s.journal.Put(jobItem{PK: jobPK(j.AgentName), SK: j.ID, Job: j, ExpiresAt: now.Add(JobRetention).Unix()}).
		If("attribute_not_exists($)", "pk").Run(ctx)
	if err != nil && !dynamo.IsCondCheckFailed(err) {
		return agentmem.Job{}, fmt.Errorf("start job %s: %w", j.ID, err)
	}
	return j, nil
}

// GetJob returns a job of agentName with what it removed so far;
// ENotFound if there is none (or it expired).
func (s *Store) GetJob(ctx context.Context, agentName, id string) (agentmem.Job, error) {
	j, _, err := s.getJob(ctx, agentName, id)
	return j, err
}

func (s *Store) getJob(ctx context.Context, agentName, id string) (agentmem.Job, jobItem, error) {
	var items []dynamo.Item
	err := s.journal.Get("pk", jobPK(agentName)).Range("sk", dynamo.BeginsWith, id).Consistent(true).All(ctx, &items)
	if err != nil {
		return agentmem.Job{}, jobItem{}, fmt.Errorf("get job %s: %w", id, err)
	}
	var rec *jobItem
	var removed int64
	for _, item := range items {
		sk := strAttr(item, "sk")
		switch {
		case sk == id:
			var it jobItem
			if err := dynamo.UnmarshalItem(item, &it); err != nil {
				return agentmem.Job{}, jobItem{}, fmt.Errorf("decode job %s: %w", id, err)
			}
			rec = &it
		case strings.HasPrefix(sk, id+"#p"):
			removed += intAttr(item, "removed")
		}
	}
	if rec == nil || rec.ExpiresAt <= s.now().Unix() {
		return agentmem.Job{}, jobItem{}, agentmem.Errorf(agentmem.ENotFound, "agent %s has no job %s", agentName, id)
	}
	j := rec.Job
	j.Removed = removed
	return j, *rec, nil
}

// RunJob works on a job until it is done or its context's deadline nears
// (jobRunTime without one), and returns it as it stands: JobDone, or
// JobRunning when it must be run again to go on. A job another runner
// holds is returned as it is, untouched.
func (s *Store) RunJob(ctx context.Context, agentName, id string) (agentmem.Job, error) {
	// The job's own records are read and written on a context of their
	// own: a run whose time is up still says where the job stands.
	book, cancel := context.WithTimeout(context.WithoutCancel(ctx), bookkeepingTimeout)
	defer cancel()
	j, _, err := s.getJob(book, agentName, id)
	if err != nil || j.Status != agentmem.JobRunning {
		return j, err
	}
	if j.Kind != agentmem.JobDeleteScope && j.Kind != agentmem.JobForget {
		return j, agentmem.Errorf(agentmem.EInvalid, "job %s is a %s job, not a bulk delete; its own runner runs it", id, j.Kind)
	}
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(jobRunTime)
	}
	if time.Until(deadline) <= jobMargin || ctx.Err() != nil {
		return j, nil // no time to work: the next run will
	}
	owner, held, err := s.takeJob(book, agentName, id, deadline)
	switch {
	case err != nil:
		return j, err
	case !held:
		return s.GetJob(book, agentName, id) // held by another run, or finished
	}
	work, cancelWork := context.WithDeadline(ctx, deadline.Add(-jobMargin))
	defer cancelWork()
	done, err := s.workJob(work, j)
	switch {
	case done:
		return s.EndJob(ctx, agentName, id, owner, agentmem.JobDone, "", nil)
	case err != nil && work.Err() == nil:
		s.log().ErrorContext(ctx, "job failed", "agent", agentName, "job", id, "err", err)
		if agentmem.ErrorCode(err) == agentmem.EUnavailable {
			// Worth another run: give it back.
			s.ReleaseJob(ctx, agentName, id, owner)
			return j, err
		}
		return s.EndJob(ctx, agentName, id, owner, agentmem.JobFailed, agentmem.ErrorMessage(err), nil)
	}
	s.ReleaseJob(ctx, agentName, id, owner)
	return s.GetJob(book, agentName, id)
}

// takeJob takes a running job's lease until a little after deadline (so
// that a clock a little ahead elsewhere does not take the job over while
// this run ends), for a new owner; held is false when the job is over or
// another run holds it.
func (s *Store) takeJob(ctx context.Context, agentName, id string, deadline time.Time) (owner string, held bool, err error) {
	owner = s.newID(s.now())
	now := s.now()
	err = s.journal.Update("pk", jobPK(agentName)).Range("sk", id).
		Set("owner", owner).Set("leaseUntil", agentmem.FormatTime(deadline.Add(jobMargin))).
		If("$ = ? AND (attribute_not_exists($) OR $ < ? OR $ = ?)", "status", agentmem.JobRunning,
			"leaseUntil", "leaseUntil", agentmem.FormatTime(now), "owner", owner).
		Run(ctx)
	switch {
	case dynamo.IsCondCheckFailed(err):
		return "", false, nil
	case err != nil:
		return "", false, fmt.Errorf("take job %s: %w", id, err)
	}
	return owner, true, nil
}

// HoldJob takes a running job for a runner of its own (a dream job's
// worker) until deadline: it returns the job and the owner id that
// ReportDreamProgress, EndJob and ReleaseJob take. held is false, with the
// job as it stands, when the job is over or another runner holds it.
func (s *Store) HoldJob(ctx context.Context, agentName, id string, deadline time.Time) (j agentmem.Job, owner string, held bool, err error) {
	j, _, err = s.getJob(ctx, agentName, id)
	if err != nil || j.Status != agentmem.JobRunning {
		return j, "", false, err
	}
	if owner, held, err = s.takeJob(ctx, agentName, id, deadline); err != nil || !held {
		if err == nil {
			j, err = s.GetJob(ctx, agentName, id)
		}
		return j, "", false, err
	}
	return j, owner, true, nil
}

// ReportDreamProgress records where a dream job that owner holds stands;
// a job owner no longer holds is left as it is (EBusy).
func (s *Store) ReportDreamProgress(ctx context.Context, agentName, id, owner string, phase agentmem.DreamPhase, calls, planned int) error {
	err := s.journal.Update("pk", jobPK(agentName)).Range("sk", id).
		Set("phase", phase).Set("calls", calls).Set("plannedCalls", planned).
		Set("updatedAt", agentmem.FormatTime(s.now())).
		If("$ = ?", "owner", owner).Run(ctx)
	switch {
	case dynamo.IsCondCheckFailed(err):
		return agentmem.Errorf(agentmem.EBusy, "job %s is no longer held by %s", id, owner)
	case err != nil:
		return fmt.Errorf("report progress of job %s: %w", id, err)
	}
	return nil
}

// bookkeepingTimeout bounds the reads and writes of a job's own records.
const bookkeepingTimeout = 5 * time.Second

// maxIdlePages is how many pages in a row may delete nothing (every item
// deleted by someone else meanwhile) before a job gives up.
const maxIdlePages = 3

// workJob deletes what j selects, a page at a time, until nothing is left
// (done) or ctx ends.
func (s *Store) workJob(ctx context.Context, j agentmem.Job) (done bool, err error) {
	scope := agentmem.Scope(j.AgentName, j.ProjectID)
	progress := func(slot int, n int) *dynamo.Update {
		return s.journal.Update("pk", jobPK(j.AgentName)).Range("sk", progressSK(j.ID, slot)).
			Add("removed", n).Set("expiresAt", s.now().Add(JobRetention).Unix())
	}
	idle := 0
	for ctx.Err() == nil {
		q := s.memories.Get("scope", scope).Consistent(true).Project(evictionFields...)
		if j.Kind == agentmem.JobForget {
			q = q.Range("createdAt", dynamo.Less, j.Cutoff)
			if !j.IncludePinned {
				q = q.Filter("attribute_not_exists($) OR $ = ?", "pinned", "pinned", false)
			}
		}
		var items []memoryItem
		if err := q.Limit(deletePage).All(ctx, &items); err != nil {
			return false, fmt.Errorf("read memories of %s: %w", scope, err)
		}
		if len(items) == 0 {
			if j.Kind == agentmem.JobDeleteScope {
				// The scope's superseded and retired memories go with it.
				if _, err := s.purgeGone(ctx, j.AgentName, j.ProjectID); err != nil {
					return false, err
				}
			}
			return true, nil
		}
		var guard deleteGuard
		if j.Kind == agentmem.JobForget && !j.IncludePinned {
			guard = unpinned // pinned since the read: kept
		}
		deleted, _, err := s.deleteItems(ctx, j.AgentName, j.ProjectID, items, guard, progress)
		if err != nil {
			return false, err
		}
		if len(deleted) > 0 {
			idle = 0
		} else if idle++; idle >= maxIdlePages {
			return false, fmt.Errorf("job %s: %d pages in a row deleted nothing", j.ID, idle)
		}
	}
	return false, ctx.Err()
}

// EndJob records the end of a job owner holds: status done or failed,
// msg (why it failed) and, for a dream job, the dream's result. It
// returns the job as it stands; a job owner no longer holds is left as
// it is. It runs even when ctx is cancelled.
func (s *Store) EndJob(ctx context.Context, agentName, id, owner string, status agentmem.JobStatus, msg string, result *agentmem.DreamResult) (agentmem.Job, error) {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), bookkeepingTimeout)
	defer cancel()
	now := agentmem.FormatTime(s.now())
	u := s.journal.Update("pk", jobPK(agentName)).Range("sk", id).
		Set("status", status).Set("finishedAt", now).Set("updatedAt", now).
		Remove("owner", "leaseUntil").
		If("$ = ?", "owner", owner)
	if msg != "" {
		u = u.Set("error", msg)
	}
	if result != nil {
		u = u.Set("dreamResult", result)
	}
	if err := u.Run(cctx); err != nil && !dynamo.IsCondCheckFailed(err) {
		return agentmem.Job{}, fmt.Errorf("end job %s: %w", id, err)
	}
	return s.GetJob(cctx, agentName, id)
}

// ReleaseJob gives a job owner holds back for its next run; it runs even
// when ctx is cancelled, and a failure only leaves the lease to expire.
func (s *Store) ReleaseJob(ctx context.Context, agentName, id, owner string) {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), bookkeepingTimeout)
	defer cancel()
	err := s.journal.Update("pk", jobPK(agentName)).Range("sk", id).
		Set("updatedAt", agentmem.FormatTime(s.now())).
		Remove("owner", "leaseUntil").
		If("$ = ?", "owner", owner).Run(cctx)
	if err != nil && !dynamo.IsCondCheckFailed(err) {
		s.log().WarnContext(ctx, "job not given back; its lease ends it", "agent", agentName, "job", id, "err", err)
	}
}

// JobMessage is the queue message that asks a worker to run a job on
// (the memories function sends it to the dream queue, whose worker calls
// RunJob and sends it again while the job is not done): {"job": ref} for
// a bulk delete, {"dreamJob": ref} for a dream job, a key of its own so
// that a worker that knows no dream jobs never takes one for a bulk
// delete (it refuses the message instead).
type JobMessage struct {
	Job JobRef
}

// JobRef names a job. Dream marks a dream job.
type JobRef struct {
	AgentName string `json:"agentName"`
	ID        string `json:"id"`
	Dream     bool   `json:"-"`
}

// Encode returns the message body.
func (m JobMessage) Encode() string {
	key := "job"
	if m.Job.Dream {
		key = "dreamJob"
	}
	b, _ := json.Marshal(map[string]JobRef{key: m.Job})
	return string(b)
}

// ParseJobMessage decodes a queue message body; ok is false when the body
// is not a job message (a dream message).
func ParseJobMessage(body string) (ref JobRef, ok bool, err error) {
	var probe struct {
		Job      *JobRef `json:"job"`
		DreamJob *JobRef `json:"dreamJob"`
	}
	if json.Unmarshal([]byte(body), &probe) != nil || (probe.Job == nil) == (probe.DreamJob == nil) {
		if probe.Job != nil && probe.DreamJob != nil {
			return JobRef{}, true, errors.New("job message names both a job and a dream job")
		}
		return JobRef{}, false, nil
	}
	if probe.DreamJob != nil {
		ref = *probe.DreamJob
		ref.Dream = true
	} else {
		ref = *probe.Job
	}
	if agentmem.ValidateAgentName(ref.AgentName) != nil || ref.ID == "" || strings.Contains(ref.ID, "#") {
		return ref, true, errors.New("job message names no valid agent and job id")
	}
	return ref, true, nil
}
