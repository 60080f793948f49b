package bot

import (
	"context"
	"errors"
	"time"

	"github.com/strategobot/strategobot/storage"
)

// runTimers sleeps until the next deadline in storage (or the next look for
// vacations that stop no clock, vacationTimer), handles every timer due, and
// sleeps again. Deadlines live in storage, so a restart resumes them,
// and any that passed while the bot was down are handled at once.
func (b *Bot) runTimers(ctx context.Context) {
	for {
		var wait <-chan time.Time
		next, ok, err := b.timersNext(ctx)
		switch {
		case err != nil:
			if ctx.Err() != nil {
				return
			}
			b.log.Error("reading the next deadline failed", "error", err)
			wait = time.After(time.Minute)
		case ok:
			wait = time.After(max(0, next.Sub(b.now())))
		}
		if b.cfg.Shared {
			wait = sooner(wait, sharedPoll) // other processes' changes nudge no one here
		}
		select {
		case <-ctx.Done():
			return
		case <-b.wake:
			continue
		case <-wait:
		}
		b.handleDue(ctx)
	}
}

// nextDeadline returns the earliest deadline the loop waits for: the
// store's next, passing over those held back after failing (timerholds.go)
// and the timers of matches whose computer's answer is under way
// (answeringMatch), which the computer's move ends and whose end nudges
// the timers (computerMoves). Else the loop would find such a timer due
// again at once, and run pass after pass until the move was played, a pace
// or more away. A match has one timer at a time.
func (b *Bot) nextDeadline(ctx context.Context) (storage.Deadline, bool, error) {
	now := b.now()
	next, ok, err := b.store.NextDeadline(ctx)
	if err != nil || !ok || !b.passOver(next, now) {
		return next, ok, err
	}
	for limit := 2; ; limit *= 2 {
		ahead, err := b.store.DueDeadlines(ctx, farFuture, limit)
		if err != nil {
			return storage.Deadline{}, false, err
		}
		for _, d := range ahead {
			if !b.passOver(d, now) {
				return d, true, nil
			}
		}
		if len(ahead) < limit {
			return storage.Deadline{}, false, nil
		}
	}
}

// passOver reports whether the loop and its passes leave deadline d alone
// at now: held back after failing, or its match's computer answering.
func (b *Bot) passOver(d storage.Deadline, now time.Time) bool {
	return b.holds.held(deadlineKey(d), now) || d.Kind == storage.DeadlineMatch && b.answeringMatch(storage.MatchID(d.ID))
}

// timersNext is when the timers' loop next runs a pass: at the next timer
// not held back (a deadline, a tournament's start or round deadline, or a
// hold's end: nextTimer), or the next look for vacations that stop no
// clock; false: only when nudged. A process that does not lead runs no
// pass (another does: a timer due stays due until that one handles it, and
// this one would come back for it at once, again and again), and reads
// nothing: it is nudged when it takes the lease (renewLease). Nor does one
// whose gateway connection is lost (gatewayaway.go), until it is back.
func (b *Bot) timersNext(ctx context.Context) (time.Time, bool, error) {
	if !b.runsTimers() {
		return time.Time{}, false, nil
	}
	next, ok, err := b.nextTimer(ctx)
	if err != nil {
		return time.Time{}, false, err
	}
	if vacations := b.vacationsNext(); !ok || vacations.Before(next) {
		next, ok = vacations, true // the look for vacations that stop no clock
	}
	return next, ok, nil
}

// handleDue handles the timers due now, earliest first. One pass runs at a
// time, so that when a pass returns every timer due when it started has been
// handled (tests run one to know the timers have acted): a computer's turn
// is handed to its answer (computerTurn), which moves when due, later. Passes of two
// processes may overlap: storage's versions let one of them act on a timer.
func (b *Bot) handleDue(ctx context.Context) {
	if !b.runsTimers() {
		return // another process runs the timers, or the gateway is lost (gatewayaway.go)
	}
	b.timerPass.Lock()
	defer b.timerPass.Unlock()
	if b.deafNow() {
		return // lost as the pass waited for the one before
	}
	now := b.now()
	b.deadlineTimers(ctx, now)
	b.tournamentTimers(ctx, now)
	b.vacationTimer(ctx)
	b.holds.dropEnded(now)
}

// deadlineTimers handles the due deadlines of matches and challenges, up to
// timerBatch of them not held back (timerholds.go), and holds back those
// still due, at the same time, after it: their handling failed.
func (b *Bot) deadlineTimers(ctx context.Context, now time.Time) {
	if b.holds.held(dueDeadlinesKey, now) {
		return
	}
	// Those held back and those of matches whose computer answers are
	// passed over (passOver): the read looks that many further, so that
	// they never fill the batch and starve the deadlines behind them.
	held := b.holds.count(isDeadlineHold) + b.answeringCount()
	due, err := b.store.DueDeadlines(ctx, now, timerBatch+held)
	if err != nil {
		// The next deadline may read well, and be due: the loop would
		// come back at once.
		until := b.holds.failed(dueDeadlinesKey, now)
		b.log.Error("reading due deadlines failed", "error", err, "retry", until)
		return
	}
	b.holds.clear(dueDeadlinesKey)
	if len(due) < timerBatch+held {
		// Every due deadline read: the holds of the others are of
		// deadlines that moved or went.
		listed := map[timerKey]bool{}
		for _, d := range due {
			listed[deadlineKey(d)] = true
		}
		b.holds.keepOnly(isDeadlineHold, func(k timerKey) bool { return listed[k] })
	}
	var handled []storage.Deadline
	answered := map[timerKey]bool{} // left to the computer's answer
	for _, d := range due {
		if len(handled) == timerBatch {
			break
		}
		if b.passOver(d, now) {
			continue
		}
		handled = append(handled, d)
		b.guard(ctx, "timer", func(ctx context.Context) {
			if b.onDeadline(ctx, d) {
				answered[deadlineKey(d)] = true
			}
		})
	}
	if len(handled) == 0 {
		return
	}
	b.nudgeOutbox() // reminders, time-outs and expiries owe notices
	still, err := b.store.DueDeadlines(ctx, now, timerBatch+held)
	if err != nil {
		b.log.Error("reading due deadlines failed", "error", err)
		return
	}
	left := map[timerKey]bool{}
	for _, d := range still {
		left[deadlineKey(d)] = true
	}
	for _, d := range handled {
		if k := deadlineKey(d); left[k] {
			until := b.holds.failed(k, now)
			if answered[k] {
				continue // until the answer, which nudges the timers, is known to be under way (passOver)
			}
			b.log.Warn("a timer is still due after it was handled; tried again later", "deadline", d.Kind.String(), "id", d.ID, "retry", until)
		} else {
			b.holds.clear(k)
		}
	}
}

// timerFailed logs a store error of a due timer, unless it says only that
// the timer was overtaken (the match changed, ended or went, or is no longer
// due): the timer comes round again, and a database that keeps failing
// leaves a trace of each deadline it held up.
func (b *Bot) timerFailed(msg string, d storage.Deadline, err error) {
	for _, overtaken := range []error{storage.ErrStale, storage.ErrNotDue, storage.ErrNotFound, storage.ErrGameOver} {
		if errors.Is(err, overtaken) {
			return
		}
	}
	b.log.Warn(msg, "deadline", d.Kind.String(), "id", d.ID, "error", err)
}

// roundOver reports whether err says that a timer of tournament match m
// (read by id when nil) met its round's deadline passed
// (storage.ErrRoundOver): the round's close scored the game, and its
// call-off was lost, or is yet to come. The match is called off then
// (callOffLost), for the deadline's announcement waits for it
// (storage.Notice.Until); else its timer would fail so on every pass, the
// match never over. Nothing more to log: the call-off logs its failure.
func (b *Bot) roundOver(ctx context.Context, m *storage.Match, err error, id ...storage.MatchID) bool {
	if !errors.Is(err, storage.ErrRoundOver) {
		return false
	}
	if m == nil {
		var rerr error
		if m, rerr = b.store.Match(ctx, id[0]); rerr != nil {
			b.log.Warn("reading a tournament match whose round is over failed", "match", id[0], "error", rerr)
			return true
		}
	}
	if m.Phase.Active() {
		b.callOffLost(ctx, m)
	}
	return true
}

// onDeadline handles one timer. What it changes records, in the same
// transaction, what it owes the players (the outbox tells them). It
// reports whether it left the timer to the computer's answer, which ends
// it later (the timer staying due meanwhile is no failure).
func (b *Bot) onDeadline(ctx context.Context, d storage.Deadline) (answering bool) {
	now := b.now()
	switch d.Kind {
	case storage.DeadlineChallenge:
		if _, err := b.store.ExpireChallenge(ctx, storage.ChallengeID(d.ID), now); err != nil &&
			!errors.Is(err, storage.ErrNotFound) && !errors.Is(err, storage.ErrNotDue) {
			b.log.Warn("expiring a challenge failed", "challenge", d.ID, "error", err)
		}
	case storage.DeadlineReminder:
		m, err := b.store.Match(ctx, storage.MatchID(d.ID))
		if err != nil {
			b.timerFailed("reading a match to remind failed", d, err)
			return false
		}
		reminded, err := b.store.MarkReminded(ctx, m.ID, m.Version, now)
		if err != nil {
			if !b.roundOver(ctx, m, err) {
				b.timerFailed("recording a reminder failed", d, err)
			}
			return false
		}
		m = reminded
		b.afterChange(ctx, m, nil) // the computer's turn may have been missed, by a restart say
		b.withdrawAwaited(ctx, m)  // a tournament's player it waits for may have left the server

	case storage.DeadlineVacation:
		b.onVacationOver(ctx, storage.MatchID(d.ID), now)
	case storage.DeadlineResume:
		m, err := b.store.Act(ctx, storage.MatchID(d.ID), 0, storage.Action{Kind: storage.ActResume, At: now})
		if err != nil {
			if b.roundOver(ctx, nil, err, storage.MatchID(d.ID)) {
				return false
			}
			if !errors.Is(err, storage.ErrNotDue) && !errors.Is(err, storage.ErrNotFound) && !errors.Is(err, storage.ErrGameOver) {
				b.log.Warn("ending a pause failed", "match", d.ID, "error", err)
			}
			return false
		}
		b.afterChange(ctx, m, nil)
	case storage.DeadlineMatch:
		if b.answeringMatch(storage.MatchID(d.ID)) {
			return true // the computer's answer is under way: it moves when due
		}
		m, err := b.store.Match(ctx, storage.MatchID(d.ID))
		if err != nil {
			b.timerFailed("reading a match whose time is up failed", d, err)
			return false
		}
		if b.computerToMove(m) {
			// Never lose on time for the computer. Its answer waits for
			// its turn in the thinkers' schedule, which the pass does not:
			// the timers due after this one are not held up.
			// The answer is claimed here, not on its goroutine: until
			// that had replayed the game and claimed it, the loop would
			// find this timer due, not passed over, again and again.
			key := answerKey{m.ID, m.Moves()}
			if !b.claimAnswer(key) {
				return true
			}
			ctx := context.WithoutCancel(ctx)
			if !b.goComputer(func() {
				defer b.answered(key)
				b.claimedTurn(ctx, m)
			}) {
				b.answered(key)
			}
			return true
		}
		b.matchTimeUp(ctx, m, now)
	}
	return false
}

// matchTimeUp records that the time of match m ran out, when it did by
// now: the side to move loses on time, or, in set-up, the match is called
// off for the set-ups that did not come; it returns the match after, and
// whether it ended. A tournament match whose time ran out at or after its
// round's deadline is not ended here (storage.ErrRoundOver): the round's
// deadline scores it (closeRound); one whose round was closed already,
// but whose call-off was lost (the process stopped, or the database was
// away, right after the close), is called off (callOffLost): the
// announcement of the deadline waits for it (storage.Notice.Until).
func (b *Bot) matchTimeUp(ctx context.Context, m *storage.Match, now time.Time) (*storage.Match, bool) {
	quiet := func(err error) bool {
		if b.roundOver(ctx, m, err) {
			return true
		}
		return errors.Is(err, storage.ErrStale) || errors.Is(err, storage.ErrNotDue)
	}
	switch {
	case m.Phase == storage.PhasePlaying:
		ended, err := b.store.Act(ctx, m.ID, m.Version, storage.Action{Kind: storage.ActTimeOut, Side: m.ToMove(), At: now})
		if err != nil {
			if !quiet(err) {
				b.log.Warn("ending a match on time failed", "match", m.ID, "error", err)
			}
			return m, false
		}
		b.afterChange(ctx, ended, nil)
		return ended, true
	case m.SetupOverdue(now):
		off, err := b.store.Abandon(ctx, m.ID, m.Version, now, storage.CallOffLateSetup)
		if err != nil {
			if !quiet(err) {
				b.log.Warn("calling off a match failed", "match", m.ID, "error", err)
			}
			return m, false
		}
		b.afterChange(ctx, off, nil)
		return off, true
	}
	return m, false
}
