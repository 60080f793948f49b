package bot

import (
	"context"
	"fmt"
	"hash/fnv"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/ai"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// TestPracticeAgainstTheComputer: the computer sets up at once, answers each
// move through the same path as a person, and is never rated.
func TestPracticeAgainstTheComputer(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	start := h.alice.SlashCommand(t, h.channel, "stratego practice", discordtest.Opt("level", "easy"),
		discordtest.Opt("variant", "Duel"), discordtest.Opt("side", "red")).Reply(t)
	if !strings.Contains(start.Content, "Practice match #1") {
		t.Fatalf("practice answer %q", start.Content)
	}
	invite := h.alice.WaitDM(t, contains("Send me your secret set-up"))
	preview := h.alice.ClickButton(t, invite, button(t, invite, "Random")).Reply(t)
	h.alice.ClickButton(t, preview, button(t, preview, "Confirm")).Reply(t)
	h.alice.WaitDM(t, contains("the match begins"))
	for ply := 0; ply < 6; ply += 2 {
		m := h.waitMoves(1, ply)
		if !m.Phase.Active() {
			break
		}
		g, err := m.Game()
		if err != nil {
			t.Fatal(err)
		}
		h.alice.SendDM(t, g.LegalMoves()[0].String())
		m = h.waitMoves(1, ply+2) // the computer answers by itself
		if m.Phase.Active() && m.Moves() != ply+2 {
			t.Fatalf("after alice's move %d the match has %d moves", ply/2+1, m.Moves())
		}
	}
	// The computer's last move, told to alice: a plain move or a battle,
	// as the match's secret chose.
	h.alice.WaitDM(t, func(m *discordtest.Message) bool {
		return (strings.Contains(m.Content, "Computer (easy) moved") || strings.Contains(m.Content, "Computer (easy)'s")) && len(m.Files) == 1
	})
	m, _ := h.db.Match(context.Background(), 1)
	if !m.Casual {
		t.Fatal("a practice match is rated")
	}
	if m.Phase == storage.PhaseSetup {
		t.Fatal("the match never started")
	}
}

// TestComputerChoicesAreUnpredictable: the computer's set-up comes from the
// match's secret, not from anything a member sees. Two servers' practice
// matches with the same numbers get different set-ups, none of them the one
// the match number alone would give, and each is reproducible from the
// stored secret.
func TestComputerChoicesAreUnpredictable(t *testing.T) {
	const matches = 6
	var setups [2][matches]game.Setup
	for run := range setups {
		h := newHarness(t, func(c *Config) { c.Limits.PracticeMatches = matches })
		for n := 1; n <= matches; n++ {
			h.alice.SlashCommand(t, h.channel, "stratego practice", discordtest.Opt("variant", "Classic"), discordtest.Opt("side", "red")).Reply(t)
			m, err := h.db.Match(context.Background(), storage.MatchID(n))
			if err != nil {
				t.Fatal(err)
			}
			got := m.Setups[game.Blue]
			if got.Status != storage.SetupConfirmed {
				t.Fatalf("match %d: the computer's set-up is not ready", n)
			}
			if want := ai.Setup(m.Rules, m.Secret.Seed(seedComputerSetup)); got.Setup != want {
				t.Errorf("match %d: the computer's set-up does not follow from the stored secret", n)
			}
			// What the code before match secrets did: a hash of the match number.
			byNumber := fnv.New64a()
			fmt.Fprintf(byNumber, "%d/%d", n, 0)
			if got.Setup == ai.Setup(m.Rules, byNumber.Sum64()) {
				t.Errorf("match %d: the computer's set-up follows from the match number", n)
			}
			setups[run][n-1] = got.Setup
		}
	}
	for n := range matches {
		if setups[0][n] == setups[1][n] {
			t.Errorf("match #%d got the same computer set-up on two servers", n+1)
		}
	}
}

// TestComputerNamedInTheMembersLanguage: the computer's name, stored with
// the practice match, reads in each member's language.
func TestComputerNamedInTheMembersLanguage(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.bob.SetLocale("nl")
	h.bob.SlashCommand(t, h.channel, "stratego practice", discordtest.Opt("level", "hard")).Reply(t)
	invite := h.bob.WaitDM(t, contains("Computer (moeilijk)"))
	if strings.Contains(invite.Content, "Computer (hard)") {
		t.Errorf("the Dutch invite names the computer in English: %q", invite.Content)
	}
	if games := h.bob.SlashCommand(t, h.channel, "stratego games").Reply(t); !strings.Contains(games.Content, "Computer (moeilijk)") {
		t.Errorf("bob's games list: %q", games.Content)
	}
}

// practiceDuelBegun starts alice's practice Duel as Red against the
// computer at level, with a Random set-up, and returns the game once the
// computer has set up and it is alice's move.
func practiceDuelBegun(t *testing.T, h *harness, level string) *game.Game {
	t.Helper()
	h.alice.SlashCommand(t, h.channel, "stratego practice", discordtest.Opt("level", level),
		discordtest.Opt("variant", "Duel"), discordtest.Opt("side", "red")).Reply(t)
	invite := h.alice.WaitDM(t, contains("Send me your secret set-up"))
	preview := h.alice.ClickButton(t, invite, button(t, invite, "Random")).Reply(t)
	h.alice.ClickButton(t, preview, button(t, preview, "Confirm")).Reply(t)
	h.alice.WaitDM(t, contains("the match begins"))
	g, err := h.waitMoves(1, 0).Game()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestComputerTakesItsPace: how long the computer thinks depends on its own
// hidden pieces (at hard, one arrangement of them searched twice the nodes
// of another in the same position), and its opponent sees when its move
// arrives. So at every level its move is played no sooner than its pace
// (Limits.ComputerPace, by default half again ai.MoveTimeCap, the longest it thinks)
// after it began to think, whatever its pieces made it think.
func TestComputerTakesItsPace(t *testing.T) {
	t.Parallel()
	for _, level := range []string{"easy", "normal", "hard"} {
		t.Run(level, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			g := practiceDuelBegun(t, h, level)
			moved := time.Now()
			h.alice.SendDM(t, g.LegalMoves()[0].String())
			m := h.waitStored(1, 2)
			took := time.Since(moved)
			if m.Moves() != 2 {
				t.Fatalf("the computer did not answer: %d moves", m.Moves())
			}
			if took < defaultComputerPace {
				t.Errorf("the computer's move was played %v after alice's, want at least its pace %v: how long it thought shows", took, defaultComputerPace)
			}
		})
	}
}

// TestComputerPaceCountsFromItsTurn: the pace counts from when the computer
// is asked to move, not from when a thinker's slot came free. Another
// match's thinking holds the slot for a while that depends on that
// computer's hidden pieces; counted from the slot, the wait would show in
// this match's answer.
func TestComputerPaceCountsFromItsTurn(t *testing.T) {
	t.Parallel()
	// A pace longer than the default, so that a loaded machine's slowness
	// stays well inside the margin between the two.
	const pace, held = 3 * time.Second, 2500 * time.Millisecond // held: another match's long thinking
	h := newHarness(t, func(c *Config) { c.Limits.ComputerThinkers, c.Limits.ComputerPace = 1, pace })
	g := practiceDuelBegun(t, h, "easy")
	h.bot.thinkers.slots <- struct{}{} // the one thinker is busy
	go func() {
		time.Sleep(held)
		<-h.bot.thinkers.slots
	}()
	moved := time.Now()
	h.alice.SendDM(t, g.LegalMoves()[0].String())
	h.waitStored(1, 2)
	if took := time.Since(moved); took < pace || took >= pace+held*2/3 {
		t.Errorf("the computer answered %v after alice's move, want its pace %v from then, not from when the thinker came free %v later", took, pace, held)
	}
}

// TestComputerPaceCountsTheThoughtsOwed: when the computer is asked to
// move while the answers of other practice matches are owed (one member
// may play several at once, and move in each at the same moment), its move
// is played a pace after its turn in the thinkers' schedule, which reserves
// the longest a thought takes for each answer asked for before it, not
// when the thoughts before it happened to end: how long they took depends
// on their computers' hidden pieces. Here two answers are owed, thought of
// in turn in the one slot for less than their reservation each: the move
// comes after the two reservations and a pace, three seconds after alice's,
// not after the two thoughts and its own (which told their length).
func TestComputerPaceCountsTheThoughtsOwed(t *testing.T) {
	t.Parallel()
	const pace, thought = time.Second, 800 * time.Millisecond
	h := newHarness(t, func(c *Config) { c.Limits.ComputerThinkers, c.Limits.ComputerPace = 1, pace })
	g := practiceDuelBegun(t, h, "easy")
	for range 2 { // asked just before, and thought of in turn
		a := h.bot.thinkers.book(time.Now())
		go h.bot.thinkers.do(h.bot.stopping, a, func() { time.Sleep(thought) })
	}
	moved := time.Now()
	h.alice.SendDM(t, g.LegalMoves()[0].String())
	h.waitStored(1, 2)
	if want := 2*ai.MoveTimeCap + pace; time.Since(moved) < want {
		t.Errorf("the computer answered %v after alice's move, while two answers were owed: want two reservations and a pace, %v, whatever the thoughts before took", time.Since(moved), want)
	}
}

// TestThinkingBook: the schedule of the thinkers (thinking.book). An answer
// reserves the slot that comes free first, from when it is asked for or
// when that slot's last reservation ends, whichever is later, for the
// longest a thought takes, and is due a pace after its reservation begins;
// an answer done early (a short thought) gives nothing back, so that no
// answer's time tells how long another's thought was.
func TestThinkingBook(t *testing.T) {
	const think, pace = ai.MoveTimeCap, ai.MoveTimeCap * 3 / 2
	ms := func(ds ...int) []time.Duration {
		var out []time.Duration
		for _, d := range ds {
			out = append(out, time.Duration(d)*time.Millisecond)
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		slots int
		asks  []time.Duration // when each answer is asked for, in booking order
		due   []time.Duration // when each is due
	}{
		{"one slot, asked at once", 1, ms(0, 0, 0, 0), ms(1500, 2500, 3500, 4500)},
		{"two slots, asked at once", 2, ms(0, 0, 0, 0, 0), ms(1500, 1500, 2500, 2500, 3500)},
		{"three slots, asked at once", 3, ms(0, 0, 0, 0), ms(1500, 1500, 1500, 2500)},
		{"asked after the reservation before ended", 1, ms(0, 1000, 5000), ms(1500, 2500, 6500)},
		{"asked during the reservation before", 1, ms(0, 400), ms(1500, 2500)},
		{"the slot that comes free first", 2, ms(0, 300, 600, 700), ms(1500, 1800, 2500, 2800)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			th := newThinking(tc.slots, pace)
			if th.think != think {
				t.Fatalf("a reservation lasts %v, want %v", th.think, think)
			}
			for k, ask := range tc.asks {
				a := th.book(T0.Add(ask))
				a.pass() // its thought took no time: it changes nothing
				if got := a.due.Sub(T0); got != tc.due[k] {
					t.Errorf("answer %d, asked at %v: due at %v, want %v", k+1, ask, got, tc.due[k])
				}
				if a.end.After(a.due) {
					t.Errorf("answer %d: its reservation ends at %v, after it is due", k+1, a.end.Sub(T0))
				}
			}
		})
	}
	// A pace shorter than the longest thought (tests that play fast):
	// reservations last the pace.
	if th := newThinking(1, time.Millisecond); th.book(T0).due != T0.Add(time.Millisecond) || th.book(T0).due != T0.Add(2*time.Millisecond) {
		t.Error("with a pace of 1 ms, two answers asked at once are not due 1 ms and 2 ms after")
	}
}

// TestThinkersTakeTheirTurns: the thoughts take the slots in the order their
// answers were booked, whichever asks for a slot first (else a thought
// booked later could take the slot the schedule gave an earlier one, which
// would then end after its reservation); an answer that gives up passes
// its turn on; and a thought is cut where its reservation ends.
func TestThinkersTakeTheirTurns(t *testing.T) {
	th := newThinking(1, defaultComputerPace)
	stop := make(chan struct{})
	first, second, third := th.book(time.Now()), th.book(time.Now()), th.book(time.Now())
	var (
		mu    sync.Mutex
		order []string
	)
	ran := func(name string) func() {
		return func() {
			mu.Lock()
			defer mu.Unlock()
			order = append(order, name)
		}
	}
	done := make(chan struct{})
	asking := make(chan struct{})
	go func() {
		defer close(done)
		close(asking)
		th.do(stop, third, ran("third")) // asks for the slot before the others
	}()
	<-asking
	for range 100 {
		runtime.Gosched() // let the third ask for the slot first
	}
	second.pass() // the second gives up: its turn passes on
	th.do(stop, first, ran("first"))
	<-done
	if strings.Join(order, " ") != "first third" {
		t.Errorf("the thoughts ran in the order %v, want first third: the order of booking", order)
	}
	if c := first.thoughtCap(); c > ai.MoveTimeCap || c <= 0 {
		t.Errorf("a thought's cap %v, want at most %v and more than nothing", c, ai.MoveTimeCap)
	}
	late := newThinking(1, defaultComputerPace).book(time.Now().Add(-time.Hour)) // its reservation ended long ago
	if c := late.thoughtCap(); c != time.Nanosecond {
		t.Errorf("a thought begun after its reservation ended may take %v, want a nanosecond", c)
	}
}

// TestPracticeLeaksNothing is the leak comparison of a practice match: the
// computer plays Red with set-ups that differ only in pieces alice never
// sees (its Marshal and a Bomb traded on its back row), making the same
// moves in both runs, and alice, who plays Blue by DM, sees exactly the
// same: the practice post, her invite, the boards and the computer's moves
// described, her history and her board as text, her autocomplete, and the
// end (the final reveal aside: it shows every piece by design); and so do
// her page of the web board and the public's.
func TestPracticeLeaksNothing(t *testing.T) {
	t.Parallel()
	red := leakRed(t)
	var aliceSaw [2][]string
	var pages [2][2][]string // run, then alice's page's states and the public page's
	bothWays(t, red, marshalAndBombSwapped(red), func(t *testing.T, k int, setup game.Setup) {
		h := newHarness(t, func(c *Config) { c.Limits.ComputerPace = time.Millisecond })
		base := webOn(t, h)
		ctx := context.Background()
		h.alice.SlashCommand(t, h.channel, "stratego practice", discordtest.Opt("variant", "Classic"), discordtest.Opt("side", "blue")).Reply(t)
		// The computer's set-up, in place of the one its secret drew.
		if _, err := h.db.UpdateMatch(ctx, 1, 0, func(m *storage.Match) error {
			m.Setups[game.Red].Setup = setup
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		rec := &pageRecorder{}
		rec.open(t, h, base, h.alice, game.Blue)
		// The computer's moves, in place of those it chooses: the same in
		// both runs, and its Scout takes alice's Flag from E4 at the end.
		script := []string{"A4-A5", "A5-A6", "E4xE7"}
		played := 0
		scripted := func(side game.Side, mv game.Move) game.Move {
			if side != game.Red {
				return mv
			}
			from, to, _ := strings.Cut(strings.NewReplacer("x", "-").Replace(script[played]), "-")
			played++
			return game.Move{From: sq(t, from), To: sq(t, to)}
		}
		h.reads.moveAs.Store(&scripted)
		h.alice.WaitDM(t, contains("Send me your secret set-up"))
		blue := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant, {0, 5}: game.Flag})
		h.alice.SendDM(t, game.FormatSetup(blue, game.NumberingModern))
		preview := h.alice.WaitDM(t, contains("Your set-up for match"))
		h.alice.ClickButton(t, preview, button(t, preview, "Confirm")).Reply(t)
		h.waitMoves(1, 1)
		h.outboxEmpty()
		var offered []string
		for j, mv := range []string{"J7-J6", "J6-J5"} {
			for _, c := range h.alice.Autocomplete(t, h.channel, "stratego move", discordtest.Focused("from", "")) {
				offered = append(offered, c.Name)
			}
			for _, c := range h.alice.Autocomplete(t, h.channel, "stratego move", discordtest.Opt("from", mv[:2]), discordtest.Focused("to", "")) {
				offered = append(offered, c.Name)
			}
			h.alice.SlashCommand(t, h.channel, "stratego board", discordtest.Opt("text", true)).Reply(t)
			h.alice.SlashCommand(t, h.channel, "stratego history").Reply(t)
			h.alice.SendDM(t, mv)
			h.waitMoves(1, 2*j+3) // hers and the computer's answer
			h.outboxEmpty()
		}
		h.alice.WaitDM(t, contains("You lost: your Flag was captured"))
		h.outboxEmpty()
		if m := h.match(1); m.Phase != storage.PhaseFinished || played != len(script) {
			t.Fatalf("the match is %v after %d of the computer's scripted moves", m.Phase, played)
		}
		aliceSaw[k] = append(transcript(h, h.alice, true), "autocomplete: "+strings.Join(offered, ", "))
		pages[k] = rec.final(t)
		if joined := strings.Join(aliceSaw[k], "\n"); !strings.Contains(joined, "[board.png ") || !strings.Contains(joined, "Practice match #1") {
			t.Fatalf("too little to compare:\n%s", joined)
		}
	})
	if t.Failed() {
		return
	}
	sameSight(t, "alice", aliceSaw)
	samePages(t, "alice's page", pages[0][0], pages[1][0])
	samePages(t, "the public page", pages[0][1], pages[1][1])
}
