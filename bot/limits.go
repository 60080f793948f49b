package bot

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"time"

	"github.com/strategobot/strategobot/game/ai"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/internal/logsafe"
	"github.com/strategobot/strategobot/storage"
)

// Fair limits: what one member may have open at once, so that nobody floods
// a channel with challenges (or another member with pings) or the computer
// with practice games; and the computer's thinking, bounded so that people's
// moves never wait for it.

// Default limits (Config.Limits).
const (
	DefaultOpenChallenges  = 5 // challenges a member has made that wait for an answer
	DefaultPracticeMatches = 3 // practice matches a member plays at once
	// defaultComputerPace is half again the longest the computer thinks: its
	// search stops at ai.MoveTimeCap only when it next looks at the clock,
	// and at the lowest OS priority a busy machine may run it late, so a
	// pace of exactly the cap would still show the longest thoughts.
	defaultComputerPace = ai.MoveTimeCap * 3 / 2
)

// Limits bounds what one member may have open at once; 0 means the default.
type Limits struct {
	OpenChallenges  int
	PracticeMatches int
	// ComputerThinkers bounds the computer moves chosen at once; 0: one
	// fewer than the machine's cores, at least one.
	ComputerThinkers int
	// ComputerPace is the least time from the computer's being asked to
	// move to its move being played, or, when the answers asked for before
	// fill the thinkers, from its turn in their schedule (thinking);
	// 0: defaultComputerPace. How long it thinks depends on its own pieces,
	// which its opponent must not learn from when the move arrives.
	ComputerPace time.Duration
}

func (l Limits) withDefaults() Limits {
	if l.OpenChallenges <= 0 {
		l.OpenChallenges = DefaultOpenChallenges
	}
	if l.PracticeMatches <= 0 {
		l.PracticeMatches = DefaultPracticeMatches
	}
	if l.ComputerThinkers <= 0 {
		l.ComputerThinkers = max(1, runtime.NumCPU()-1)
	}
	if l.ComputerPace <= 0 {
		l.ComputerPace = defaultComputerPace
	}
	return l
}

// memberLimits are the limits of what one member starts, as storage keeps
// to them: the store counts and writes in one transaction, which holds
// across every process sharing its database (a member's commands in two
// servers may reach two shards).
func (l Limits) memberLimits() storage.MemberLimits {
	return storage.MemberLimits{OpenChallenges: l.OpenChallenges, OnePerPair: true, PracticeMatches: l.PracticeMatches}
}

// whyNotChallenge says why challenger may not challenge opponent now; ""
// when they may, as far as the challenges stored now show: a quick answer
// before any other check. The store keeps to the limits when it writes
// the challenge (whyNotMember).
func (b *Bot) whyNotChallenge(ctx context.Context, p lang.Printer, challenger, opponent string) string {
	// One that cannot be read (damaged, or written by a newer strategobot)
	// may be one the member made: it counts against their allowance, as
	// storage's own count does.
	open, err := b.store.PlayerChallenges(ctx, challenger)
	open, unread, err := passOver(b, "challenges", open, err)
	if err != nil {
		return "" // the store's own error will show when the challenge is written
	}
	c := &storage.Challenge{Challenger: storage.Player{UserID: challenger}, Opponent: storage.Player{UserID: opponent}}
	return b.whyNotMember(p, b.limits.memberLimits().AllowChallenge(c, open, unread), opponent)
}

// whyNotPractice says why user may not start another practice match; ""
// when they may, as far as the matches stored now show (as above).
func (b *Bot) whyNotPractice(ctx context.Context, p lang.Printer, user string) string {
	// One that cannot be read may be a practice match: it counts, as above.
	matches, err := b.store.PlayerMatches(ctx, user, true, 0)
	matches, unread, err := passOver(b, "matches", matches, err)
	if err != nil {
		return ""
	}
	return b.whyNotMember(p, b.limits.memberLimits().AllowPractice(matches, unread), "")
}

// whyNotMember words err when it is a member's limit (a
// *storage.MemberLimitError, of the store or of the checks above); ""
// when it is not. opponent is the member challenged, if any.
func (b *Bot) whyNotMember(p lang.Printer, err error, opponent string) string {
	var over *storage.MemberLimitError
	if !errors.As(err, &over) {
		return ""
	}
	switch {
	case errors.Is(err, storage.ErrChallengeExists):
		return p.Sprintf("There is already a challenge between you and <@%[1]s> (#%[2]s): answer or cancel it first.", opponent, over.Challenge.String())
	case errors.Is(err, storage.ErrTooManyChallenges):
		// The button as its channel shows it, in the server's language.
		cancel := buttonName(b.publicPrinter(over.Guild).Sprintf(txtCancel))
		return p.Sprintf("You have %[1]d challenges waiting for an answer, the most one member may have. Withdraw one with its %[2]s button, or wait for answers.", over.Open, cancel)
	case errors.Is(err, storage.ErrTooManyPractice):
		return p.Sprintf("You are playing %[1]d practice matches against the computer, the most at once. Finish or resign one first (`/stratego games` lists them).", over.Open)
	}
	return ""
}

// thinking runs the computer's choices, at most ComputerThinkers at once,
// each on an OS thread of the lowest priority: the rest wait their turn, and
// whenever people's work wants a core the operating system gives it theirs.
// A thinker holds a Go P while it runs, so the process runs one P more per
// thinker than it has cores (GoProcs): people's work always has as many Ps as
// cores, and the thinkers only the time those leave.
//
// When an answer is played follows from a schedule of the slots that knows
// only when answers were asked for, never how long any thought took, which
// its computer's hidden pieces decide (book): an answer reserves the slot
// that comes free first in the schedule, from when it is asked for or that
// slot's last reservation ends, whichever is later, for think, the longest
// a thought takes; it is due a pace after its reservation begins.
//
// The real thoughts keep to the schedule: they take the slots in the order
// their answers were booked (answer.turn), and each is cut where its
// reservation ends (answer.thoughtCap). Were every thought before the k-th
// within its reservation, the k-th begins no later than its own: the slots
// the schedule gives the k answers before it come free no later than there
// (the same answers, each ended by its reservation's end), and its turn
// comes as soon as those before it have taken theirs, which they did no
// later than their reservations began; so it has the whole of think, and
// ends within its reservation. The cut is for when that does not hold: the
// search looks at the clock every 256 nodes, so a thought ends a little
// after its cap, and on a machine busy with other work a thread of the
// lowest priority may wait for a core longer still (docs/PERFORMANCE.md);
// cut where its reservation ends, the next thought gives back what the one
// before overran instead of adding its own whole length to it (one begun
// after its reservation ended stops at its first look at the clock). The
// answer is due the pace's margin past its reservation's end (pace - think,
// half a second by default: due = max(asked + pace, end + pace - think)),
// as the first answer of an idle slot is, so that such lateness still
// plays the move when due, not when its thought ended.
type thinking struct {
	slots  chan struct{} // a token per thought under way
	think  time.Duration // a reservation: the longest a thought takes
	pace   time.Duration // from a reservation's beginning to the answer's move
	mu     sync.Mutex
	ends   []time.Time   // per slot of the schedule, when its last reservation ends
	last   chan struct{} // closed once the answer booked last has taken a slot, or gave up
	booked int           // answers booked in all
}

// newThinking returns n thinkers, whose answers are due pace after their
// reservations begin; a reservation lasts ai.MoveTimeCap, or pace when that
// is shorter (tests that play fast).
func newThinking(n int, pace time.Duration) *thinking {
	last := make(chan struct{})
	close(last)
	return &thinking{slots: make(chan struct{}, n), think: min(ai.MoveTimeCap, pace), pace: pace,
		ends: make([]time.Time, n), last: last}
}

// answer is an answer of the computer booked in the schedule (thinking).
type answer struct {
	due   time.Time       // when its move may be played
	end   time.Time       // when its reservation ends: its thought is cut there
	turn  <-chan struct{} // closed once the answers booked before it have taken a slot, or gave up
	taken chan struct{}   // closed once it has taken a slot, or gave up: the next one's turn
	once  sync.Once
}

// book books an answer asked for at now (see thinking).
func (t *thinking) book(now time.Time) *answer {
	t.mu.Lock()
	defer t.mu.Unlock()
	first := 0
	for i, end := range t.ends {
		if end.Before(t.ends[first]) {
			first = i
		}
	}
	begin := now
	if t.ends[first].After(begin) {
		begin = t.ends[first]
	}
	a := &answer{due: begin.Add(t.pace), end: begin.Add(t.think), turn: t.last, taken: make(chan struct{})}
	t.ends[first], t.last = a.end, a.taken
	t.booked++
	return a
}

// answers returns how many answers were booked in all.
func (t *thinking) answers() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.booked
}

// pass gives the next answer booked its turn to take a slot: a has taken
// one, or gave up. Once is enough; more do nothing.
func (a *answer) pass() { a.once.Do(func() { close(a.taken) }) }

// thoughtCap is how long a's thought begun now may take: until its
// reservation ends, at most ai.MoveTimeCap, and at least a nanosecond (an
// ai.Player given 0 would think without a cap).
func (a *answer) thoughtCap() time.Duration {
	return min(ai.MoveTimeCap, max(time.Nanosecond, time.Until(a.end)))
}

// do runs f, a's thought, when the answers booked before a have taken a
// slot and one is free, or gives up when stop is closed first. f runs on a
// thread of its own at the lowest priority, which ends with it.
func (t *thinking) do(stop <-chan struct{}, a *answer, f func()) {
	defer a.pass()
	select {
	case <-a.turn:
	case <-stop:
		return
	}
	select {
	case t.slots <- struct{}{}:
	case <-stop:
		return
	}
	a.pass()
	defer func() { <-t.slots }()
	done := make(chan struct{})
	var panicked any
	go func() {
		defer close(done)
		defer func() {
			// Reported here, where its frames are, rather than where do panics again.
			if r := recover(); r != nil {
				panicked = logsafe.Panic(r)
			}
		}()
		// Never unlocked: the thread ends with this goroutine, so its low
		// priority never passes to other work.
		runtime.LockOSThread()
		_ = lowerThreadPriority() // if it fails, thinking still keeps to its slots
		f()
	}()
	<-done
	if panicked != nil {
		panic(panicked) // the caller's guard logs the report
	}
}

// GoProcs returns how many Ps the Go runtime should run for a machine
// where it would run base: one more per computer thinker, since a thinker,
// at the lowest priority, holds a P while it thinks (see thinking).
func (l Limits) GoProcs(base int) int { return base + l.withDefaults().ComputerThinkers }
