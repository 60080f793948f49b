package bot

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/tournament"
)

// tournamentTimers runs the tournaments whose timer is due: called by the
// timers' pass, in the process that holds the lease. A tournament still
// due, at the same time, after it ran is held back (timerholds.go): what
// was due failed (its round's matches could not all be started, its
// round could not be closed), and is tried again later, the other
// tournaments and the matches' timers going on meanwhile; so is one whose
// record cannot be read (dueTournaments).
func (b *Bot) tournamentTimers(ctx context.Context, now time.Time) {
	if b.holds.held(dueTournamentsKey, now) {
		return
	}
	due, unreadable, err := b.dueTournaments(ctx, now)
	if err != nil {
		until := b.holds.failed(dueTournamentsKey, now)
		b.log.Error("reading due tournaments failed", "error", err, "retry", until)
		return
	}
	b.holds.clear(dueTournamentsKey)
	keys := map[timerKey]bool{}
	if unreadable != nil {
		for i, id := range unreadable.IDs {
			k := unreadableKey(id)
			keys[k] = true
			if b.holds.held(k, now) {
				continue
			}
			if until := b.holds.failed(k, now); until.After(now) { // not for the try at once
				b.log.Error("a stored tournament cannot be read; its timer is held back, the others go on", "tournament", id, "error", unreadable.Errs[i], "retry", until)
			}
		}
	}
	var handled []timerKey
	ran := map[timerKey]*storage.Tournament{}
	for _, t := range due {
		k := tournamentKey(t)
		keys[k] = true
		if b.holds.held(k, now) {
			continue
		}
		handled = append(handled, k)
		ran[k] = t
		b.guard(ctx, "tournament", func(ctx context.Context) { b.advanceTournament(ctx, t) })
	}
	b.holds.keepOnly(isTournamentHold, func(k timerKey) bool { return keys[k] }) // the others moved on
	if len(handled) == 0 {
		return
	}
	left := map[timerKey]bool{}
	if at, ok := b.nextTournamentWake(ctx); ok && !at.After(now) {
		still, _, err := b.dueTournaments(ctx, now)
		if err != nil {
			b.log.Error("reading due tournaments failed", "error", err)
			return
		}
		for _, t := range still {
			left[tournamentKey(t)] = true
		}
	}
	for _, k := range handled {
		t := ran[k]
		if left[k] {
			until := b.holds.failed(k, now)
			b.log.Warn("a tournament's timer is still due after it ran; tried again later", "tournament", k.id, "retry", until)
			if since, ok := b.holds.failingSince(k); ok && now.Sub(since) >= heldUpAfter && t.HeldUp.IsZero() && !t.Done {
				b.guard(ctx, "tournament held up", func(ctx context.Context) {
					if after := b.markHeldUp(ctx, t.ID, since); after != nil && after.Version == t.Version+1 {
						b.holds.rekey(k, tournamentKey(after)) // no progress: the hold goes on
					}
				})
			}
		} else {
			b.holds.clear(k)
			if !t.HeldUp.IsZero() {
				b.guard(ctx, "tournament going on", func(ctx context.Context) { b.markHeldUp(ctx, t.ID, time.Time{}) })
			}
		}
	}
}

// heldUpAfter is how long a tournament's timer fails, in a row, before
// its channel is told that the bot cannot go on with it (markHeldUp): the
// players wait for a round that does not come, and the server's admins
// learn that the bot, not their settings, holds it up, and whom to tell.
const heldUpAfter = time.Hour

// markHeldUp records that the timers have failed to move tournament id on
// since since (the change owes its channel one announcement:
// storage.EventTourneyHeldUp), or, since zero, that they moved it on
// again: the next stall is told too. It returns the tournament after, nil
// when it changed nothing.
func (b *Bot) markHeldUp(ctx context.Context, id storage.TournamentID, since time.Time) *storage.Tournament {
	after, err := b.updateTournament(ctx, id, func(x *storage.Tournament) error {
		if x.HeldUp.IsZero() == since.IsZero() || x.Done && !since.IsZero() {
			return errNothingToRecord // told already, going on already, or over
		}
		x.HeldUp = since
		return nil
	})
	switch {
	case errors.Is(err, errNothingToRecord):
		return nil
	case err != nil:
		b.log.Warn("recording whether a tournament is held up failed", "tournament", id, "error", err)
		return nil
	case since.IsZero():
		b.log.Info("a tournament held up goes on", "tournament", id)
	default:
		b.log.Error("a tournament's timer has failed for long; its channel is told it is held up", "tournament", id, "since", since)
	}
	return after
}

// dueTournaments reads the tournaments due at now: those that can be read,
// and the others (unreadable: damaged, or written by a newer strategobot),
// which hold up none of them. err is the read's own failure.
func (b *Bot) dueTournaments(ctx context.Context, now time.Time) (due []*storage.Tournament, unreadable *storage.UnreadableError, err error) {
	due, err = b.store.DueTournaments(ctx, now)
	if errors.As(err, &unreadable) {
		return due, unreadable, nil
	}
	return due, nil, err
}

// serverTournaments lists the tournaments of guild not yet over (all:
// every one) that can be read, and how many cannot (damaged, or written by
// a newer strategobot), each logged by its id: one bad record hides no
// other. err is the read's own failure.
func (b *Bot) serverTournaments(ctx context.Context, guild string, all bool) (list []*storage.Tournament, unread int, err error) {
	list, err = b.store.ServerTournaments(ctx, guild, all)
	var bad *storage.UnreadableError
	if errors.As(err, &bad) {
		b.log.Error("tournaments that cannot be read are passed over", "guild", guild, "tournaments", bad.IDs, "error", bad)
		return list, len(bad.IDs), nil
	}
	return list, 0, err
}

// nextTournamentWake is when the next tournament timer is due.
func (b *Bot) nextTournamentWake(ctx context.Context) (time.Time, bool) {
	at, ok, err := b.store.NextTournamentWake(ctx)
	if err != nil {
		if ctx.Err() == nil {
			b.log.Error("reading the next tournament timer failed", "error", err)
		}
		return time.Time{}, false
	}
	return at, ok
}

// advanceTournament does what is due: closes a round whose deadline passed,
// pairs the next round or ends the tournament, and starts the matches of
// the round; before the deadline, checks that the players are still
// members of the server, when that is due.
func (b *Bot) advanceTournament(ctx context.Context, t *storage.Tournament) {
	now := b.now()
	state, err := t.State()
	if err != nil {
		b.log.Error("a stored tournament does not replay", "tournament", t.ID, "error", err)
		return
	}
	if t.Starting {
		// The round was paired but its matches not all started (a crash).
		if t = b.startRound(ctx, t); t == nil || t.Starting || t.Done {
			return // a cancelled one's strays are off: its games' call-offs are checked later (CallingOff)
		}
	}
	if t.Done {
		b.callOffCancelled(ctx, t) // due: cancelled with games that may still be on
		return
	}
	rounds := state.Rounds()
	if len(rounds) == 0 && now.Before(t.StartAt) {
		return // woken before its start (a timer set by an older rule): it starts at StartAt
	}
	if n := len(rounds); n > 0 && !state.AllPairedComplete() {
		if now.Before(t.RoundDeadline) {
			b.checkMembers(ctx, t)
			// A call-off that followed a withdrawal, or an earlier round's
			// close, may have been lost.
			b.callOffScored(ctx, t, state)
			return
		}
		if t.Rules.AllAtOnce {
			n = 0 // the one deadline closes every round
		}
		t = b.closeRound(ctx, t, n)
		if t == nil {
			return
		}
		if state, err = t.State(); err != nil {
			return
		}
	}
	offThrough := 0
	if len(rounds) > 0 {
		// Before the next round is paired or the event ends: a call-off
		// that followed the change that completed the round (the close
		// just now, a withdrawal, an earlier round's close) may have been
		// lost. One still lost is called off by its match's own timer
		// (roundOver), the event over or not.
		offThrough = b.callOffScored(ctx, t, state)
	}
	if state.Status() == tournament.Finished || state.Status() == tournament.CancelledStatus {
		b.finishTournament(ctx, t)
		return
	}
	b.withdrawLeavers(ctx, t, state)
	var paired []tournament.Event
	before := t
	t, err = b.updateTournament(ctx, t.ID, func(x *storage.Tournament) error {
		s, err := x.State()
		if err != nil {
			return err
		}
		if x.Done || len(s.Rounds()) != len(rounds) || s.Status() == tournament.CancelledStatus {
			return errPairedAlready // another process moved it on meanwhile
		}
		if len(s.Rounds()) == 0 && len(s.Active()) < 2 {
			x.Log = append(x.Log, tournament.Cancel())
			x.Done = true
			return nil
		}
		if paired, err = roundsDue(s, x.Rules); err != nil {
			return fmt.Errorf("%w: %v", errNoRound, err)
		}
		x.Log = append(x.Log, paired...)
		x.OffThrough = max(x.OffThrough, offThrough) // the rounds played that the next passes need not read
		x.RoundDeadline = now.Add(x.RoundTime)
		if x.Rules.AllAtOnce {
			x.RoundDeadline = allAtOnceDeadline(x.Changed, x.RoundTime, len(paired)) // x.Changed: the time its announcement tells
		}
		x.Starting = true
		x.MembersDue = now.Add(memberCheckEvery) // withdrawLeavers just asked
		if after, err := x.State(); err == nil && after.AllPairedComplete() {
			x.RoundDeadline = now // only forfeits and a bye: the next round is due
		}
		return nil
	})
	switch {
	case errors.Is(err, errPairedAlready):
		return
	case errors.Is(err, errNoRound):
		// Fewer than two players left in a Swiss event, or no legal
		// pairing: the tournament ends here.
		b.log.Info("no next round; the tournament ends", "tournament", before.ID, "error", err)
		b.finishTournament(ctx, before)
		return
	case err != nil:
		b.log.Warn("pairing a tournament round failed", "error", err)
		return
	case t.Done:
		return // cancelled: fewer than two players joined by its start
	}
	for _, e := range paired {
		b.log.Info("tournament round paired", "tournament", t.ID, "round", e.Round, "games", len(e.Games))
	}
	b.startRound(ctx, t)
}

// roundsDue returns the Paired events due: the next round's, or, for a
// round robin played all at once, every round's.
func roundsDue(s *tournament.Tournament, rules tournament.Rules) ([]tournament.Event, error) {
	if rules.AllAtOnce {
		return s.PairAll()
	}
	e, err := s.NextRound()
	if err != nil {
		return nil, err
	}
	return []tournament.Event{e}, nil
}

// allAtOnceDeadline is the one deadline of a round robin played all at
// once that starts at start with rounds rounds: a round's length for each,
// so that the event lasts no longer than played round by round.
func allAtOnceDeadline(start time.Time, roundTime time.Duration, rounds int) time.Time {
	return start.Add(roundTime * time.Duration(rounds))
}

// errNoRound: the next round cannot be paired; errPairedAlready: another
// process paired it or ended the tournament first.
var (
	errNoRound       = errors.New("no next round")
	errPairedAlready = errors.New("paired already")
)

// finishTournament marks a tournament done: the change owes its final
// standings (or, cancelled, nothing more).
func (b *Bot) finishTournament(ctx context.Context, t *storage.Tournament) {
	_, err := b.updateTournament(ctx, t.ID, func(x *storage.Tournament) error {
		if x.Done {
			return errPairedAlready // another process ended it
		}
		x.Done = true
		x.RoundDeadline = time.Time{}
		return nil
	})
	if err != nil && !errors.Is(err, errPairedAlready) {
		b.log.Warn("finishing a tournament failed", "tournament", t.ID, "error", err)
	}
}
