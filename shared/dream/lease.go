package dream

import (
	"context"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/oklog/ulid/v2"
)

// A dream holds its scope with a lease (dynamostore.AcquireDreamLease)
// for Config.Lease, and renews it every Lease/3 while it runs
// (RenewDreamLease, a conditional write on its holder id), so a dream
// may run longer than the lease while one that dies frees the scope when
// the lease ends. A renewal that finds the lease taken by another dream
// (this one's expired while a renewal could not be written) stops the
// dream before its commit: its model calls are cancelled and it returns
// EBusy, committing nothing and recording nothing (the other dream's
// diary tells what happened). Right before the commit the lease is
// renewed once more, and BeginDream's transaction checks it again.

// minRenewEvery bounds how often a lease is renewed.
const minRenewEvery = time.Second

// lease is a dream's hold on its scope while it runs.
type lease struct {
	d                     *Dreamer
	agent, project, owner string
	// work is the dream's context before its commit: cancelled, with the
	// renewal's EBusy as its cause, when the lease is lost.
	work   context.Context
	cancel context.CancelCauseFunc
	stop   chan struct{}
	done   chan struct{}
}

// withLease runs fn holding the scope's lease, renewed while fn runs,
// after finishing a commit an earlier run left behind. It returns the ref
// of that commit, if any.
func (d *Dreamer) withLease(ctx context.Context, agent, project string, fn func(l *lease, st dynamostore.DreamState) error) (rolled string, err error) {
	id := ulid.Make().String()
	st, err := d.Store.AcquireDreamLease(ctx, agent, project, id, d.Config.Lease)
	if err != nil {
		return "", err
	}
	l := &lease{d: d, agent: agent, project: project, owner: id, stop: make(chan struct{}), done: make(chan struct{})}
	l.work, l.cancel = context.WithCancelCause(ctx)
	go l.keep(ctx)
	defer func() {
		close(l.stop)
		<-l.done
		l.cancel(nil)
		// Released even when ctx is cancelled; a lease left behind only
		// expires.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		if rerr := d.Store.ReleaseDreamLease(rctx, agent, project, id); rerr != nil {
			d.Log.WarnContext(ctx, "dream lease not released; it expires by itself", "agent", agent, "project", project, "err", rerr)
		}
	}()
	if st.Committing != "" {
		rolled = st.Committing
		if err := d.rollForward(ctx, agent, project, st.Committing); err != nil {
			return "", err
		}
		if st, err = d.Store.GetDreamState(ctx, agent, project); err != nil {
			return "", err
		}
	}
	return rolled, fn(l, st)
}

// keep renews the lease every Lease/3 (or on each of the dreamer's test
// ticks) until the dream ends or the lease is lost.
func (l *lease) keep(ctx context.Context) {
	defer close(l.done)
	ticks := l.d.renewTicks
	if ticks == nil {
		t := time.NewTicker(max(l.d.Config.Lease/3, minRenewEvery))
		defer t.Stop()
		ticks = t.C
	}
	for {
		select {
		case <-l.stop:
			return
		case <-ctx.Done():
			return
		case <-ticks:
		}
		err := l.renew(ctx)
		if l.d.renewed != nil {
			l.d.renewed(err)
		}
		if l.work.Err() != nil {
			return
		}
	}
}

// renew extends the lease by Config.Lease. A lease another dream holds
// cancels the work and is returned (EBusy); another failure is logged and
// returned, and the next renewal tries again.
func (l *lease) renew(ctx context.Context) error {
	rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	err := l.d.Store.RenewDreamLease(rctx, l.agent, l.project, l.owner, l.d.Config.Lease)
	switch {
	case agentmem.ErrorCode(err) == agentmem.EBusy:
		lost := agentmem.Wrap(agentmem.EBusy, err, "dream %s of %s/%s lost its lease to another dream before committing; nothing changed", l.owner, l.agent, l.project)
		l.cancel(lost)
		return lost
	case err != nil:
		l.d.Log.WarnContext(ctx, "dream lease not renewed; trying again", "agent", l.agent, "project", l.project, "dream", l.owner, "err", err)
	}
	return err
}

// lost returns the error that stopped the dream when the lease was lost,
// else nil.
func (l *lease) lost() error {
	if cause := context.Cause(l.work); cause != nil && agentmem.ErrorCode(cause) == agentmem.EBusy {
		return cause
	}
	return nil
}

// or returns the lease's loss when the lease was lost (what stopped the
// work that failed with err), else err.
func (l *lease) or(err error) error {
	if lost := l.lost(); lost != nil {
		return lost
	}
	return err
}

// check renews the lease right before the commit: EBusy when another
// dream holds it.
func (l *lease) check(ctx context.Context) error {
	if lost := l.lost(); lost != nil {
		return lost
	}
	return l.renew(ctx)
}
