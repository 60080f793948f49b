package bot

import (
	"context"
	"fmt"
	"os"
	"time"
)

// Several processes may share one PostgreSQL database (Config.Shared): each
// serves its own gateway shards, but exactly one at a time runs the timers
// and the outbox, the one holding the lease "timers" in the database. It
// renews the lease every leaseTTL/3; when it dies, another takes over once
// the lease expires, within leaseTTL. A process cut off from Discord's
// gateway gives the lease up and takes none until it is back
// (gatewayaway.go): one that hears Discord leads; with none, no timer runs
// (nor the outbox) until one reconnects. On a bbolt file only one process
// can run, and it always leads.

const (
	leaseTimers = "timers"
	leaseTTL    = 10 * time.Second
)

// sharedPoll is how often the leader looks for timers and notices that other
// processes recorded: nothing nudges it across processes.
const sharedPoll = time.Second

// sooner returns a channel that fires at wait or after d, whichever comes
// first (nil wait: never).
func sooner(wait <-chan time.Time, d time.Duration) <-chan time.Time {
	poll := time.After(d)
	if wait == nil {
		return poll
	}
	out := make(chan time.Time, 1)
	go func() {
		select {
		case v := <-wait:
			out <- v
		case v := <-poll:
			out <- v
		}
	}()
	return out
}

// defaultHolder names this process among those sharing the database.
func defaultHolder() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%s/%d", host, os.Getpid())
}

// renewLease takes or renews the lease and records whether this process
// leads; a process that cannot reach the database does not.
func (b *Bot) renewLease(ctx context.Context) {
	if !b.cfg.Shared {
		return
	}
	// One at a time: the lease loop's renewal and the one of a gateway
	// come back (gatewayBack) would both take it, both find this process
	// not leading yet, and both give the time away back, each telling it.
	b.leaseMu.Lock()
	defer b.leaseMu.Unlock()
	if b.deafNow() {
		b.giveUpLease(ctx) // a process that hears Discord leads (gatewayaway.go)
		return
	}
	ok, err := b.store.Lead(ctx, leaseTimers, b.cfg.Holder, b.now(), leaseTTL)
	if err != nil {
		b.log.Warn("renewing the lease of the timers failed", "error", err)
		ok = false
	}
	if ok && !b.leading.Load() {
		b.creditAway(ctx) // before any timer of this process runs
	}
	if was := b.leading.Swap(ok); was != ok {
		if ok {
			b.log.Info("this process now runs the timers and the outbox", "holder", b.cfg.Holder)
			b.snapshots.forgetAll() // the process before may have started clocks
			b.nudgeTimers()
		} else {
			b.log.Info("another process runs the timers and the outbox", "holder", b.cfg.Holder)
		}
	}
}

// runLease renews the lease until ctx ends, then gives it up, so that
// another process takes over at once.
func (b *Bot) runLease(ctx context.Context) {
	if !b.cfg.Shared {
		return
	}
	for {
		select {
		case <-ctx.Done():
			if b.leading.Load() {
				release, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				defer cancel()
				// A lease that ends now: the next process need not wait.
				if _, err := b.store.Lead(release, leaseTimers, b.cfg.Holder, b.now().Add(-leaseTTL), time.Nanosecond); err != nil {
					b.log.Warn("giving up the lease failed; another process takes over when it expires", "error", err)
				}
			}
			return
		case <-time.After(leaseTTL / 3):
		}
		b.renewLease(ctx)
	}
}
