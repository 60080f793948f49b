package bot

import (
	"context"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/strategobot/strategobot/game/ai"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/internal/logsafe"
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
	// move to its move being played, once for each round of thinking the
	// answers owed then take (thinking.book); 0: defaultComputerPace.
	// How long it thinks depends on its own pieces, which its opponent must
	// not learn from when the move arrives.
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

// memberLocks serialises what one member starts (challenges, practice
// matches), so that a burst of commands cannot slip past a limit between
// its check and its write. The bot runs as one process per database.
type memberLocks struct{ m sync.Map }

func (l *memberLocks) lock(user string) func() {
	mu, _ := l.m.LoadOrStore(user, &sync.Mutex{})
	mu.(*sync.Mutex).Lock()
	return mu.(*sync.Mutex).Unlock
}

// lockBoth locks two members, always in the same order so that two
// callers locking the same pair cannot wait for each other; other is
// skipped when "" (nobody) or user. It serialises what concerns both, such
// as a challenge between them that either may make at the same moment.
func (l *memberLocks) lockBoth(user, other string) func() {
	if other == "" || other == user {
		return l.lock(user)
	}
	first, second := min(user, other), max(user, other)
	unlockFirst := l.lock(first)
	unlockSecond := l.lock(second)
	return func() {
		unlockSecond()
		unlockFirst()
	}
}

// whyNotChallenge says why challenger may not challenge opponent now; "" when
// they may.
func (b *Bot) whyNotChallenge(ctx context.Context, p lang.Printer, challenger, opponent string) string {
	open, err := b.store.PlayerChallenges(ctx, challenger)
	if err != nil {
		return "" // the store's own error will show when the challenge is written
	}
	made, guild := 0, ""
	for _, c := range open {
		if opponent != "" && (c.Challenger.UserID == challenger && c.Opponent.UserID == opponent ||
			c.Challenger.UserID == opponent && c.Opponent.UserID == challenger) {
			return p.Sprintf("There is already a challenge between you and <@%[1]s> (#%[2]s): answer or cancel it first.", opponent, strconv.FormatUint(uint64(c.ID), 10))
		}
		if c.Challenger.UserID == challenger {
			made, guild = made+1, c.GuildID
		}
	}
	if made >= b.limits.OpenChallenges {
		// The button as its channel shows it, in the server's language.
		cancel := buttonName(b.publicPrinter(guild).Sprintf(txtCancel))
		return p.Sprintf("You have %[1]d challenges waiting for an answer, the most one member may have. Withdraw one with its %[2]s button, or wait for answers.", made, cancel)
	}
	return ""
}

// whyNotPractice says why user may not start another practice match; "" when
// they may.
func (b *Bot) whyNotPractice(ctx context.Context, p lang.Printer, user string) string {
	matches, err := b.store.PlayerMatches(ctx, user, true, 0)
	if err != nil {
		return ""
	}
	running := 0
	for _, m := range matches {
		if m.Practice() {
			running++
		}
	}
	if running >= b.limits.PracticeMatches {
		return p.Sprintf("You are playing %[1]d practice matches against the computer, the most at once. Finish or resign one first (`/stratego games` lists them).", running)
	}
	return ""
}

// thinking runs the computer's choices, at most ComputerThinkers at once,
// each on an OS thread of the lowest priority: the rest wait their turn, and
// whenever people's work wants a core the operating system gives it theirs.
// A thinker holds a Go P while it runs, so the process runs one P more per
// thinker than it has cores (GoProcs): people's work always has as many Ps as
// cores, and the thinkers only the time those leave.
type thinking struct {
	slots chan struct{}
	mu    sync.Mutex
	owed  int // the answers booked and not yet due (book)
}

func newThinking(n int) *thinking { return &thinking{slots: make(chan struct{}, n)} }

// book counts an answer of the computer asked for now, until release is
// called once it is due, and returns in how many paces from now it may be
// played: one for each round of thinking that the answers owed before it
// and itself take in the slots, each no longer than its pace. The answers
// owed count until they are due, not until they are thought of, so that
// how many there are tells nothing of how long any thought: that depends on
// its computer's hidden pieces.
func (t *thinking) book() (paces int, release func()) {
	t.mu.Lock()
	t.owed++
	n := t.owed
	t.mu.Unlock()
	var once sync.Once
	return (n + cap(t.slots) - 1) / cap(t.slots), func() {
		once.Do(func() {
			t.mu.Lock()
			t.owed--
			t.mu.Unlock()
		})
	}
}

// do runs f when a slot is free, or gives up when stop is closed first. f
// runs on a thread of its own at the lowest priority, which ends with it.
func (t *thinking) do(stop <-chan struct{}, f func()) {
	select {
	case t.slots <- struct{}{}:
	case <-stop:
		return
	}
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
