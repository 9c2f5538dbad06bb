package memoryapi

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/httpapi"
)

// Bulk deletes run as jobs (dynamostore.StartJob, RunJob): the request
// works on one until DefaultJobBudget has passed or its deadline nears,
// and answers 200 with what it removed when it finished, 202 with the job
// otherwise. Before working it asks Jobs to run the job on once its own
// deadline has passed, so that a request that dies midway still leaves a
// continuation behind; a 202 asks again at once.
const (
	// DefaultJobBudget is how long a request works on a bulk delete.
	DefaultJobBudget = 10 * time.Second
	// answerMargin is what a request keeps of its time to answer.
	answerMargin = 2 * time.Second
	// noDeadlineWait is when the continuation of a job started by a
	// request without a deadline runs.
	noDeadlineWait = DefaultJobBudget + answerMargin
)

// runJob starts j, has it continued after this request's deadline, and
// works on it within the budget.
func (a *API) runJob(ctx context.Context, j agentmem.Job) (agentmem.Job, error) {
	j, err := a.Store.StartJob(ctx, j)
	if err != nil {
		return agentmem.Job{}, err
	}
	ref := dynamostore.JobRef{AgentName: j.AgentName, ID: j.ID}
	budget := a.JobBudget
	if budget <= 0 {
		budget = DefaultJobBudget
	}
	wait := noDeadlineWait
	work, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	if d, ok := ctx.Deadline(); ok {
		wait = time.Until(d)
		if d.Add(-answerMargin).Before(time.Now().Add(budget)) {
			cancel()
			work, cancel = context.WithDeadline(ctx, d.Add(-answerMargin))
			defer cancel()
		}
	}
	if err := a.Jobs.Continue(ctx, ref, wait); err != nil {
		return agentmem.Job{}, fmt.Errorf("queue the continuation of job %s: %w", j.ID, err)
	}
	got, err := a.Store.RunJob(work, j.AgentName, j.ID)
	if err != nil {
		if agentmem.ErrorCode(err) != agentmem.EUnavailable {
			return agentmem.Job{}, err
		}
		// The continuation will try again; tell the caller where it stands.
		a.Log.WarnContext(ctx, "bulk delete interrupted; it goes on in the background", "job", j.ID, "err", err)
		got = j
	}
	if got.Status == agentmem.JobRunning {
		if err := a.Jobs.Continue(ctx, ref, 0); err != nil {
			a.Log.WarnContext(ctx, "job continuation not queued now; the one queued for later remains", "job", j.ID, "err", err)
		}
	}
	return got, nil
}

// jobResponse answers body with 200 when j is over (done or failed), and
// with 202 and the job's Location while it runs on.
func jobResponse(j agentmem.Job, body any) httpapi.Response {
	if j.Status != agentmem.JobRunning {
		return httpapi.JSON(http.StatusOK, body)
	}
	resp := httpapi.JSON(http.StatusAccepted, body)
	resp.Headers["Location"] = fmt.Sprintf("/api/agents/%s/jobs/%s", j.AgentName, j.ID)
	return resp
}

// GetJob serves GET /api/agents/{agentName}/jobs/{jobId}.
func (a *API) GetJob(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	agent, err := r.AgentName()
	if err != nil {
		return httpapi.Response{}, err
	}
	id := r.Param("jobId")
	if !ulidPattern.MatchString(id) {
		return httpapi.Response{}, agentmem.Errorf(agentmem.EInvalid, "job id %q is not a ULID", id)
	}
	j, err := a.Store.GetJob(ctx, agent, id)
	if err != nil {
		return httpapi.Response{}, err
	}
	return httpapi.JSON(http.StatusOK, j), nil
}

// Recount serves POST /api/admin/recount.
func (a *API) Recount(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	var in agentmem.RecountInput
	if err := r.Decode(&in); err != nil {
		return httpapi.Response{}, err
	}
	rc, err := a.Store.RecountScope(ctx, in.AgentName, in.ProjectID)
	if err != nil {
		return httpapi.Response{}, err
	}
	a.Log.InfoContext(ctx, "recounted", "agent", in.AgentName, "project", in.ProjectID, "drifted", rc.Drifted,
		"driftTotal", rc.Drift.Total, "driftBytes", rc.Drift.Bytes)
	return httpapi.JSON(http.StatusOK, rc), nil
}
