package bot

import (
	"context"
	"sync"
	"time"

	"github.com/strategobot/strategobot/storage"
)

// A timer whose handling fails every time — the database refuses the
// change, a record does not replay, a tournament's round cannot be
// started — stays due: its match's deadline, or its tournament's wake,
// does not move. The timers' loop sleeps until the earliest timer, so it
// would come back at once, again and again, spinning on the one timer
// and hammering the database and the log. So a timer still due, at the
// same time, after a pass handled it is held back (timerHolds): it is
// tried again after timerRetryFirst, then twice as long each time, up to
// timerRetryMax, while the pass goes on with the others and the loop
// sleeps until the next timer not held. A tournament whose record cannot
// be read at all (storage.UnreadableError) is held back so too, by its id
// (unreadableKey), and logged as each hold begins. A timer that moved (a new
// deadline, a new wake) is a new one, tried at once. Holds live in the
// process that runs the timers: a restart, or another process taking
// them on, tries each at once.
const (
	timerRetryFirst = time.Minute
	timerRetryMax   = time.Hour
	// timerBatch is how many due deadlines one pass handles; the loop
	// comes back at once for more.
	timerBatch = 50
)

// timerKey names one timer at its due time: a storage.DeadlineKind and its
// id, or a tournament (holdTournament) and its id at its version (a
// tournament that changed made progress: a withdrawal may leave its next
// round due at the very time the check that found it was), or the read of
// the due tournaments (holdDueTournaments) or deadlines (holdDueDeadlines).
type timerKey struct {
	kind    byte
	id      uint64
	at      int64 // unix seconds
	version uint64
}

const (
	holdTournament     = 'T'
	holdDueTournaments = 'D'
	holdDueDeadlines   = 'd'
	holdNotice         = 'n' // a notice of the outbox (outboxHolds)
)

func deadlineKey(d storage.Deadline) timerKey {
	return timerKey{kind: byte(d.Kind), id: d.ID, at: d.At.Unix()}
}

// unreadableKey names the timer of a tournament whose record cannot be
// read (storage.UnreadableError): by its id alone. Held back as a timer
// that fails, it is looked at again when its hold ends; once it reads, it
// is tried at once, under its own key.
func unreadableKey(id uint64) timerKey { return timerKey{kind: holdTournament, id: id} }

func tournamentKey(t *storage.Tournament) timerKey {
	at, _ := t.Wake()
	return timerKey{holdTournament, uint64(t.ID), at.Unix(), t.Version}
}

var (
	dueTournamentsKey = timerKey{kind: holdDueTournaments}
	dueDeadlinesKey   = timerKey{kind: holdDueDeadlines}
)

type timerHold struct {
	fails int
	until time.Time
	at    time.Time // of the latest failure
	since time.Time // of the first failure in a row
}

// timerHolds are the timers held back after failing; safe for concurrent
// use (the loop reads them, the pass changes them).
type timerHolds struct {
	mu sync.Mutex
	m  map[timerKey]timerHold
	// atOnce is how many failures in a row are tried again at once (the
	// next pass) before the holds begin: the outbox's, whose deliveries a
	// blip of the database must not hold up a minute, and the timers', one
	// of which a change to its match may overtake (storage.ErrStale).
	atOnce int
}

// held reports whether k is held back at now.
func (h *timerHolds) held(k timerKey, now time.Time) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	hold, ok := h.m[k]
	return ok && now.Before(hold.until)
}

// failed holds k back from now: timerRetryFirst after its first failure,
// twice as long after each next one, up to timerRetryMax.
func (h *timerHolds) failed(k timerKey, now time.Time) time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.m == nil {
		h.m = map[timerKey]timerHold{}
	}
	hold := h.m[k]
	wait, doubled := timerRetryFirst, hold.fails-h.atOnce
	for i := 0; i < doubled && wait < timerRetryMax; i++ {
		wait *= 2
	}
	if doubled < 0 {
		wait = 0
	}
	if hold.fails == 0 {
		hold.since = now
	}
	hold.fails++
	hold.until, hold.at = now.Add(min(wait, timerRetryMax)), now
	h.m[k] = hold
	return hold.until
}

// failingSince is when k began to fail, in a row; false when it is not
// held.
func (h *timerHolds) failingSince(k timerKey) (time.Time, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	hold, ok := h.m[k]
	return hold.since, ok
}

// rekey carries the hold of from over to to: the timer's own change, which
// makes no progress, moved its key (markHeldUp).
func (h *timerHolds) rekey(from, to timerKey) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if hold, ok := h.m[from]; ok {
		delete(h.m, from)
		h.m[to] = hold
	}
}

// clear forgets k: it was handled, or is no longer due.
func (h *timerHolds) clear(k timerKey) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.m, k)
}

// keepOnly forgets the holds of kinds for which keep says false: timers
// no longer due at the time they were held for (handled by another
// process, moved, gone).
func (h *timerHolds) keepOnly(kinds func(byte) bool, keep func(timerKey) bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for k := range h.m {
		if kinds(k.kind) && !keep(k) {
			delete(h.m, k)
		}
	}
}

// dropEnded forgets the holds ended by now but for a failure at now: a
// pass has just tried each timer they held that is still due, and held it
// again if it failed, so that no ended hold makes the loop come back at
// once for nothing.
func (h *timerHolds) dropEnded(now time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for k, hold := range h.m {
		if !now.Before(hold.until) && !hold.at.Equal(now) {
			delete(h.m, k)
		}
	}
}

// heldIDs lists the ids of the timers held back at now.
func (h *timerHolds) heldIDs(now time.Time) []uint64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []uint64
	for k, hold := range h.m {
		if now.Before(hold.until) {
			out = append(out, k.id)
		}
	}
	return out
}

// count is how many holds of kinds there are.
func (h *timerHolds) count(kinds func(byte) bool) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for k := range h.m {
		if kinds(k.kind) {
			n++
		}
	}
	return n
}

// next is the earliest time a hold ends; false when none is held.
func (h *timerHolds) next() (time.Time, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var at time.Time
	ok := false
	for _, hold := range h.m {
		if !ok || hold.until.Before(at) {
			at, ok = hold.until, true
		}
	}
	return at, ok
}

func isDeadlineHold(kind byte) bool {
	return kind != holdTournament && kind != holdDueTournaments && kind != holdDueDeadlines
}
func isTournamentHold(kind byte) bool { return kind == holdTournament }

// nextTimer is when the loop must next run a pass: the earliest timer not
// held back (a deadline, a tournament's wake) or the end of a hold; false
// when nothing waits. An error is the deadlines' read's.
func (b *Bot) nextTimer(ctx context.Context) (time.Time, bool, error) {
	now := b.now()
	var next time.Time
	ok := false
	consider := func(at time.Time) {
		if !ok || at.Before(next) {
			next, ok = at, true
		}
	}
	if !b.holds.held(dueDeadlinesKey, now) { // else read again when that hold ends
		d, has, err := b.nextDeadline(ctx)
		if err != nil {
			return time.Time{}, false, err
		}
		if has {
			consider(d.At)
		}
	}
	until, holding := b.holds.next()
	if holding {
		consider(until)
	}
	if b.holds.held(dueTournamentsKey, now) {
		return next, ok, nil // the tournaments are read again when that hold ends
	}
	at, has := b.nextTournamentWake(ctx)
	switch {
	case !has:
	case at.After(now) || b.holds.count(isTournamentHold) == 0:
		consider(at)
	default:
		// Due now, and some held: the next wake of one not held, before
		// the earliest hold ends (which is considered already).
		// One that cannot be read is held back by the pass that meets it
		// (tournamentTimers), and looked at again when its hold ends.
		list, _, err := b.dueTournaments(ctx, until)
		if err != nil {
			if ctx.Err() == nil {
				b.log.Error("reading the next tournament timers failed", "error", err)
			}
			consider(now.Add(timerRetryFirst))
			break
		}
		for _, t := range list {
			if wake, due := t.Wake(); due && !b.holds.held(tournamentKey(t), now) {
				consider(wake)
			}
		}
	}
	return next, ok, nil
}
