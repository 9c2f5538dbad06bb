// Package bulkjobs continues the jobs a request could not finish before
// its deadline, bulk deletes (dynamostore.RunJob) and dreams too large to
// wait for: through an SQS queue in AWS (the dream queue, whose worker
// runs the job on and queues it again while it is not done), or in
// goroutines of the same process under make dev and in tests.
package bulkjobs

import (
	"cmp"
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/sqsqueue"
)

// Continuer has a job run on later.
type Continuer interface {
	// Continue has the job ref run on after delay (at most
	// sqsqueue.MaxDelay); running it when it is already done or held by
	// another run is harmless.
	Continue(ctx context.Context, ref dynamostore.JobRef, after time.Duration) error
}

// Queue continues jobs through an SQS queue (dynamostore.JobMessage).
type Queue struct {
	Q *sqsqueue.Queue
}

var _ Continuer = (*Queue)(nil)

// Continue sends the job's message, delivered after delay.
func (q *Queue) Continue(ctx context.Context, ref dynamostore.JobRef, after time.Duration) error {
	return q.Q.SendAfter(ctx, dynamostore.JobMessage{Job: ref}.Encode(), after)
}

// runTime bounds one run of an in-process job; maxRuns bounds the runs of
// one job.
const (
	runTime = 30 * time.Second
	maxRuns = 1000
)

// InProcess continues jobs in goroutines of this process: each waits its
// delay, then runs the job until it is done (a run of at most RunTime at a
// time, as a Lambda worker would).
type InProcess struct {
	Store *dynamostore.Store
	Log   *slog.Logger
	// Run runs a job once within its context's deadline and returns it
	// as it stands (nil: Store.RunJob, the bulk deletes); the dream
	// function's runs dream jobs too.
	Run func(ctx context.Context, ref dynamostore.JobRef) (agentmem.Job, error)
	// RunTime bounds one run (0: 30 s).
	RunTime time.Duration

	wg       sync.WaitGroup
	stopOnce sync.Once
	stop     chan struct{}
	mu       sync.Mutex
}

var _ Continuer = (*InProcess)(nil)

// Continue starts a goroutine that runs the job on after delay.
func (p *InProcess) Continue(ctx context.Context, ref dynamostore.JobRef, after time.Duration) error {
	stop := p.stopped()
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		select {
		case <-stop:
			return
		case <-time.After(after):
		}
		for range maxRuns {
			rctx, cancel := context.WithTimeout(context.Background(), cmp.Or(p.RunTime, runTime))
			j, err := p.run(rctx, ref)
			cancel()
			switch code := agentmem.ErrorCode(err); {
			case err != nil && code != agentmem.EUnavailable && code != agentmem.EBusy:
				p.log().Error("job stopped", "agent", ref.AgentName, "job", ref.ID, "err", err)
				return
			case err != nil:
				// the database is restarting, or another dream holds the
				// scope: try again
				select {
				case <-stop:
					return
				case <-time.After(time.Second):
				}
			case j.Status != agentmem.JobRunning:
				return
			default:
				// Not done: another run holds it, or this one ran out
				// of time. Go on shortly.
				time.Sleep(100 * time.Millisecond)
			}
		}
	}()
	return nil
}

func (p *InProcess) run(ctx context.Context, ref dynamostore.JobRef) (agentmem.Job, error) {
	if p.Run != nil {
		return p.Run(ctx, ref)
	}
	return p.Store.RunJob(ctx, ref.AgentName, ref.ID)
}

// stopped returns the channel Stop closes.
func (p *InProcess) stopped() chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stop == nil {
		p.stop = make(chan struct{})
	}
	return p.stop
}

// Stop drops the continuations still waiting for their delay (a job is
// run on by the next request or process) and waits for those running.
func (p *InProcess) Stop() {
	stop := p.stopped()
	p.stopOnce.Do(func() { close(stop) })
	p.wg.Wait()
}

func (p *InProcess) log() *slog.Logger {
	if p.Log != nil {
		return p.Log
	}
	return slog.Default()
}
