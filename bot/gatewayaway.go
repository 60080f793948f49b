package bot

import (
	"context"
	"time"

	"github.com/strategobot/strategobot/storage"
)

// Time the process ran but could not hear Discord: its gateway connection
// was lost (a Discord outage, a network cut), and reconnecting took long.
// DMs and commands reach the bot only through the gateway, so a player
// could not move, as when the process was down (away.go). Being connected
// is part of running the timers, then: as the connection is lost (the
// Disconnect that starts reconnect) the process holds its timers (deaf:
// handleDue and timersNext run no pass, so no time-out, reminder, expiry,
// call-off or tournament deadline), records that it was alive until then,
// and stops recording it; on a shared database it gives up the lease, and
// takes none while deaf (renewLease), so that a process still connected
// leads, and gives the time back as it takes over. Once connected again
// (reconnect, after READY or RESUMED), and before any DM or command that
// the resume replays is handled (awaitHeard), it gives each match back the
// time away (creditAway, or the lease taken with it), with the texts and
// history of a restart, and the timers run again. A routine reconnect,
// within storage.AwayGrace, gives nothing back, as a quick restart does.
//
// The outbox runs on meanwhile, its REST requests may still go through
// (on a shared database, only while a process still connected leads): a
// board that arrives during the outage starts its player's clock then
// (storage's ClockStarted), and only what of the time away that clock ran
// is given back. The board in the browser is not held either: its players
// may move meanwhile, and are given the time back all the same, like
// everyone (what a web player did during the outage stands).

// deafNow reports whether the gateway is lost: the process runs no timer.
func (b *Bot) deafNow() bool { return b.deaf.Load() }

// runsTimers reports whether this process runs the timers now: it leads
// (always, alone on its database) and hears Discord.
func (b *Bot) runsTimers() bool { return b.leading.Load() && !b.deaf.Load() }

// gatewayLost holds the timers: the gateway connection is lost. A timer
// pass under way ends first; then, on bbolt, the moment is recorded as the
// last that the timers ran (as a stop records it), and on a shared
// database the lease is given up, for a process still connected to take.
func (b *Bot) gatewayLost(ctx context.Context) {
	b.gatewayMu.Lock()
	defer b.gatewayMu.Unlock()
	if b.deaf.Load() {
		return
	}
	// Requests held while connected: a start has not given the time away
	// back yet (holdUntilHeard), and holds them already.
	starting := b.heard.Load() != nil
	if !starting {
		heard := make(chan struct{})
		b.heard.Store(&heard)
	}
	b.deaf.Store(true)
	b.timerPass.Lock() // a pass under way ends first: the timers ran until it did
	defer b.timerPass.Unlock()
	b.log.Info("lost the connection to Discord's gateway: the timers wait until it is back, and give the clocks back the time")
	// A start that has not given the time away back yet leaves the last
	// record as it was: the time since it is given back once connected.
	if b.leading.Load() && !starting {
		if _, err := b.store.Alive(ctx, b.now()); err != nil && ctx.Err() == nil {
			b.log.Warn("recording that the timers run failed", "error", err)
		}
	}
	// On a shared database the lease is given up, once a renewal under way
	// ended: given up beside it, the renewal took it back for this process.
	b.renewLease(ctx)
}

// gatewayBack gives the clocks back the time the gateway was lost, and lets
// the timers and the requests held run again, unless the connection was
// lost again since drops counted seen (then the next reconnect does it).
func (b *Bot) gatewayBack(ctx context.Context, seen uint64) {
	b.gatewayMu.Lock()
	defer b.gatewayMu.Unlock()
	if !b.deaf.Load() || b.drops.Load() != seen {
		return
	}
	if b.cfg.Shared {
		// A process that does not lead runs no timer: the lease, when
		// free, is taken with the time given back first.
		b.deaf.Store(false)
		b.renewLease(ctx)
	} else {
		credited := b.creditAway(ctx) // before any timer runs again
		b.deaf.Store(false)
		b.computerAfterAway(ctx, credited)
	}
	b.releaseHeld()
	b.nudgeTimers()
}

// holdUntilHeard holds the DMs and commands that reach a start on bbolt
// until heardAtStart: a start gives the time away back only once connected
// (Run), and one connected meanwhile must not meet a deadline it has not
// moved yet.
func (b *Bot) holdUntilHeard() {
	b.gatewayMu.Lock()
	defer b.gatewayMu.Unlock()
	heard := make(chan struct{})
	b.heard.Store(&heard)
}

// creditAtStart gives the clocks back the time away as a start on bbolt
// has connected (creditAway), and lets the DMs and commands held since
// holdUntilHeard run; it returns the matches given time. When the
// connection was lost again meanwhile, it leaves both to gatewayBack, once
// the connection is back: the time until then is given back with it.
func (b *Bot) creditAtStart(ctx context.Context) []*storage.Match {
	b.gatewayMu.Lock()
	defer b.gatewayMu.Unlock()
	if b.deaf.Load() {
		return nil
	}
	credited := b.creditAway(ctx)
	b.releaseHeld()
	return credited
}

// heardAtStart lets the DMs and commands held since holdUntilHeard run as
// a start gives up: they meet a bot that is stopping.
func (b *Bot) heardAtStart() {
	b.gatewayMu.Lock()
	defer b.gatewayMu.Unlock()
	b.releaseHeld()
}

// releaseHeld lets the DMs and commands waiting in awaitHeard run.
func (b *Bot) releaseHeld() {
	if heard := b.heard.Swap(nil); heard != nil {
		close(*heard)
	}
}

// awaitHeard holds a DM or a command until the time the gateway was lost
// has been given back (gatewayBack): a resume replays what was sent
// meanwhile, and it must not meet a deadline the time away has not moved
// yet. It reports false when the bot stops first, or the handler's time
// runs out: the request is then left unhandled (its player is asked, once
// the time is given back, to send again a move sent meanwhile), not
// handled against the old deadline, nor does it hold up the stop.
func (b *Bot) awaitHeard(ctx context.Context) bool {
	heard := b.heard.Load()
	if heard == nil {
		return true
	}
	select {
	case <-*heard:
		return true
	case <-ctx.Done():
	case <-b.halt.Done():
	}
	return false
}

// giveUpLease ends this process's lease of the timers at once, when it
// holds it, so that another process takes over without waiting for it to
// expire.
func (b *Bot) giveUpLease(ctx context.Context) {
	if !b.leading.Swap(false) {
		return
	}
	b.log.Info("another process may run the timers and the outbox", "holder", b.cfg.Holder)
	release, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	if _, err := b.store.Lead(release, leaseTimers, b.cfg.Holder, b.now().Add(-leaseTTL), time.Nanosecond); err != nil {
		b.log.Warn("giving up the lease failed; another process takes over when it expires", "error", err)
	}
}

// waitCh is a channel closed once what those waiting on it wait for is done.
type waitCh = chan struct{}
