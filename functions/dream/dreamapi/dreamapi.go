// Package dreamapi is the dream function: the Deep Dream routes (run a
// dream now, read the dream diary, revert a dream) and, in the same Lambda
// binary, the nightly dispatcher and the SQS worker (see Lambda). The
// Lambda main and cmd/devserver both serve the routes.
package dreamapi

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/applog"
	"github.com/agentmem/agentmem/shared/bulkjobs"
	"github.com/agentmem/agentmem/shared/dream"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/httpapi"
	"github.com/agentmem/agentmem/shared/lambdamain"
	"github.com/agentmem/agentmem/shared/markdown"
	"github.com/agentmem/agentmem/shared/routes"
	"github.com/agentmem/agentmem/shared/settings"
)

// DefaultAPIModelBudget bounds the model calls of a dream run through
// POST .../dreams (AGENTMEM_DREAM_API_MODEL_BUDGET): with the reads and
// writes around them, the answer comes before API Gateway's 30 s
// integration timeout. Scheduled dreams have the function's whole timeout.
const DefaultAPIModelBudget = 22 * time.Second

// API serves the dream function's routes.
type API struct {
	Store   *dynamostore.Store
	Dreamer *dream.Dreamer
	Log     *slog.Logger
	// ModelBudget bounds the model calls of a dream run through the API.
	ModelBudget time.Duration
	// Jobs runs the dreams a request hands over (see APIMaxRounds): the
	// dream queue in AWS (NewLambda), goroutines of this process
	// otherwise.
	Jobs bulkjobs.Continuer
}

// newAPI builds the API and its dreamer from deps.
func newAPI(deps lambdamain.Deps) (*API, error) {
	log := deps.Log
	if log == nil {
		log = slog.Default()
	}
	getenv := deps.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	cfg, err := dream.ConfigFromEnv(getenv)
	if err != nil {
		return nil, err
	}
	budget := DefaultAPIModelBudget
	if v := settings.DreamAPIModelBudget.Get(getenv); v != "" {
		if budget, err = time.ParseDuration(v); err != nil || budget <= 0 {
			return nil, fmt.Errorf("%s=%q: want a positive Go duration such as 22s", settings.DreamAPIModelBudget, v)
		}
	}
	a := &API{Store: deps.Store, Dreamer: dream.New(deps.Store, deps.LLM, log, cfg), Log: log, ModelBudget: budget}
	a.Jobs = &bulkjobs.InProcess{Store: deps.Store, Log: log, Run: a.jobs().run, RunTime: routes.Timeouts[routes.Dream]}
	return a, nil
}

func (a *API) jobs() jobRunner { return jobRunner{store: a.Store, dreamer: a.Dreamer, log: a.Log} }

// New returns the API Gateway handler of the dream function.
func New(deps lambdamain.Deps) (*httpapi.Handler, error) {
	a, err := newAPI(deps)
	if err != nil {
		return nil, err
	}
	return a.handler()
}

func (a *API) handler() (*httpapi.Handler, error) {
	return httpapi.NewDreamHandler(a, a.Log)
}

// CreateDream serves POST /api/agents/{agentName}/dreams: 201 dreamed, 200
// skipped, or 202 with a job when the scope's review takes more than
// APIMaxRounds rounds of model calls.
func (a *API) CreateDream(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	agent, err := r.AgentName()
	if err != nil {
		return httpapi.Response{}, err
	}
	var in agentmem.CreateDreamInput
	if err := r.Decode(&in); err != nil {
		return httpapi.Response{}, err
	}
	days := 0
	if in.LookbackDays != nil {
		if days = *in.LookbackDays; days < 1 || days > dream.MaxLookbackDays {
			return httpapi.Response{}, agentmem.Errorf(agentmem.EInvalid, "lookbackDays must be from 1 to %d", dream.MaxLookbackDays)
		}
	}
	res, err := a.Dreamer.Run(ctx, dream.Request{
		AgentName: agent, ProjectID: in.ProjectID, LookbackDays: days, KeepManual: in.KeepManual,
		Force: in.Force, CompressAfterDays: in.CompressAfterDays, Trigger: agentmem.TriggerAPI,
		ModelBudget: a.ModelBudget, MaxRounds: APIMaxRounds,
	})
	if tooLarge := (*dream.TooLargeError)(nil); errors.As(err, &tooLarge) {
		return a.queueDream(ctx, agent, in, tooLarge)
	}
	if err != nil {
		if code := agentmem.ErrorCode(err); code != agentmem.EBusy && code != agentmem.EInvalid && code != agentmem.ENotFound && code != agentmem.ELLMUnavailable {
			a.Log.WarnContext(ctx, applog.DreamFailed, "agent", agent, "project", in.ProjectID, "trigger", agentmem.TriggerAPI, "err", err)
		}
		return httpapi.Response{}, err
	}
	if res.Status == agentmem.DreamStatusSkipped {
		return httpapi.JSON(http.StatusOK, res), nil
	}
	resp := httpapi.JSON(http.StatusCreated, res)
	resp.Headers["Location"] = fmt.Sprintf("/api/agents/%s/dreams/%s?projectId=%s", agent, res.Dream.Date, url.QueryEscape(in.ProjectID))
	return resp, nil
}

// ListDreams serves GET /api/agents/{agentName}/dreams.
func (a *API) ListDreams(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	agent, project, err := r.Scope()
	if err != nil {
		return httpapi.Response{}, err
	}
	limit, err := r.IntQuery("limit", agentmem.DefaultDreamsPage, 1, agentmem.MaxListLimit)
	if err != nil {
		return httpapi.Response{}, err
	}
	page, err := a.Store.ListDreams(ctx, agent, project, limit, r.Query.Get("cursor"))
	if err != nil {
		return httpapi.Response{}, err
	}
	return httpapi.JSON(http.StatusOK, page), nil
}

// GetDream serves GET /api/agents/{agentName}/dreams/{date}.
func (a *API) GetDream(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	agent, project, err := r.Scope()
	if err != nil {
		return httpapi.Response{}, err
	}
	withPlan, err := r.BoolQuery("plan", false)
	if err != nil {
		return httpapi.Response{}, err
	}
	date := r.Param("date")
	dreams, err := a.Store.DreamsOn(ctx, agent, project, date)
	if err != nil {
		return httpapi.Response{}, err
	}
	if len(dreams) == 0 {
		return httpapi.Response{}, agentmem.Errorf(agentmem.ENotFound, "agent %s has no dreams in project %s on %s", agent, project, date)
	}
	if r.Accepts("text/markdown") {
		return httpapi.Markdown(http.StatusOK, markdown.DreamDiary(date, dreams)), nil
	}
	day := agentmem.DreamDay{AgentName: agent, ProjectID: project, Date: date}
	for _, d := range dreams {
		v := agentmem.DreamView{Dream: d}
		if withPlan && d.Status != agentmem.DreamFailed {
			plan, err := a.Store.DreamPlanOf(ctx, d)
			if err != nil {
				return httpapi.Response{}, err
			}
			v.Written, v.Replaced, v.Sources = plan.Written(), plan.Replaced(), plan.Sources
		}
		day.Dreams = append(day.Dreams, v)
	}
	return httpapi.JSON(http.StatusOK, day), nil
}

// RevertDream serves POST /api/agents/{agentName}/dreams/{date}/revert.
func (a *API) RevertDream(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	agent, project, err := r.Scope()
	if err != nil {
		return httpapi.Response{}, err
	}
	rev, err := a.Dreamer.Revert(ctx, agent, project, r.Param("date"))
	if err != nil {
		return httpapi.Response{}, err
	}
	return httpapi.JSON(http.StatusOK, rev), nil
}
