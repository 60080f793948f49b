package bot

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// playClassic plays the scripted Classic match: all three ways of moving,
// and a Scout that takes the Flag from range.
func playClassic(t *testing.T, red game.Setup, prepare ...func(h *harness)) (*harness, []string, []string) {
	h := newHarness(t)
	for _, p := range prepare {
		p(h)
	}
	// Blue's set-up, from Blue's side: J7 (col 0) a Sergeant, E7 (col 5) the Flag.
	blue := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant, {0, 5}: game.Flag})
	h.challenge("Classic")
	h.sendSetups(red, blue)

	// 1. Red by slash command.
	reply := h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	if !reply.Ephemeral || !strings.Contains(reply.Content, "You moved your Sergeant (4) A4-A5") {
		t.Fatalf("move reply %q", reply.Content)
	}
	h.bob.WaitDM(t, contains("alice moved A4-A5"))
	// Autocomplete offers bob only his own movable pieces, by rank.
	choices := h.bob.Autocomplete(t, h.channel, "stratego move", discordtest.Focused("from", ""), discordtest.Opt("to", "J6"))
	var offered []string
	for _, c := range choices {
		offered = append(offered, c.Name)
	}
	if !slices.Contains(offered, "J7 Sergeant (4)") || len(offered) == 0 || len(offered) > 25 {
		t.Fatalf("bob is offered %v", offered)
	}
	// The targets of each of them, and what the other options offer Bob
	// and Carol: the leak test compares them all.
	for _, from := range choices {
		for _, c := range h.bob.Autocomplete(t, h.channel, "stratego move", discordtest.Opt("from", from.Value), discordtest.Focused("to", "")) {
			offered = append(offered, fmt.Sprintf("%v→%s %v", from.Value, c.Name, c.Value))
		}
	}
	for _, ask := range []struct {
		who     *discordtest.Member
		command string
		args    []discordtest.Arg
	}{
		{h.bob, "stratego move", []discordtest.Arg{discordtest.Focused("match", "")}},
		{h.bob, "stratego history", []discordtest.Arg{discordtest.Focused("match", "")}},
		{h.bob, "stratego board", []discordtest.Arg{discordtest.Focused("match", "")}},
		{h.bob, "stratego watch", []discordtest.Arg{discordtest.Focused("match", "")}},
		{h.carol, "stratego watch", []discordtest.Arg{discordtest.Focused("match", "")}},
		{h.bob, "stratego move", []discordtest.Arg{discordtest.Focused("from", "J")}},
		{h.bob, "stratego move", []discordtest.Arg{discordtest.Opt("from", "J7"), discordtest.Focused("to", "J")}},
	} {
		for _, c := range ask.who.Autocomplete(t, h.channel, ask.command, ask.args...) {
			offered = append(offered, fmt.Sprintf("%s %s: %s %v", ask.who.Name, ask.command, c.Name, c.Value))
		}
	}
	// Blue's mistakes, answered privately without a word about Red's pieces.
	h.bob.SendDM(t, "A5-A6")
	h.bob.WaitDM(t, contains("the piece on A5 is Red's; it is Blue's turn"))
	wrong := h.bob.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "E4"), discordtest.Opt("to", "E7")).Reply(t)
	if !wrong.Ephemeral || !strings.Contains(wrong.Content, "the piece on E4 is Red's") {
		t.Fatalf("bob moving Red's scout: %q", wrong.Content)
	}
	// 2. Blue by DM text.
	h.bob.SendDM(t, "J7-J6")
	board := h.alice.WaitDM(t, contains("bob moved J7-J6"))
	// 3. Red with the menus under the board.
	menus := board.SelectMenus()
	if len(menus) == 0 {
		t.Fatalf("no move menu under alice's board: %q", board.Content)
	}
	h.alice.SelectMenu(t, board, menus[0].CustomID, "A5").Wait(t)
	board = h.srv.Message(board.ID)
	menus = board.SelectMenus()
	if len(menus) == 0 || !strings.Contains(menus[0].Placeholder, "A5") {
		t.Fatalf("no target menu after picking A5: %+v", menus)
	}
	h.alice.SelectMenu(t, board, menus[0].CustomID, "A6").Wait(t)
	h.bob.WaitDM(t, contains("alice moved A5-A6"))
	// 4. Blue by slash command.
	h.bob.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "J6"), discordtest.Opt("to", "J5")).Reply(t)
	h.alice.WaitDM(t, contains("bob moved J6-J5"))
	// Between moves: Bob's board as a text diagram, and Carol watching. Both
	// are in the transcripts the leak test compares.
	text := h.bob.SlashCommand(t, h.channel, "stratego board", discordtest.Opt("text", true)).Reply(t)
	if !text.Ephemeral || !strings.HasPrefix(text.Content, "```\n") || len(text.Files) != 0 || !strings.Contains(text.Content, "Blue") {
		t.Fatalf("bob's text board: %q", text.Content)
	}
	if watched := h.carol.SlashCommand(t, h.channel, "stratego watch", discordtest.Opt("match", "1")).Reply(t); len(watched.Files) != 1 {
		t.Fatalf("carol watching: %q", watched.Content)
	}
	// 5. Red's Scout strikes the Flag from E4, by DM.
	h.alice.SendDM(t, "E4xE7")
	h.alice.WaitDM(t, contains("You won"))
	h.bob.WaitDM(t, contains("You lost: your Flag was captured"))
	h.srv.WaitFor(t, "the final reveal", func() bool {
		for _, ch := range append([]*discordtest.Channel{h.channel}, h.channel.Threads()...) {
			for _, m := range h.srv.ChannelMessages(ch) {
				for _, f := range m.Files {
					if f.Name == "replay.gif" {
						return true
					}
				}
			}
		}
		return false
	})
	bobSaw := append(transcript(h, h.bob, true), "autocomplete: "+strings.Join(offered, ", "))
	return h, bobSaw, transcript(h, h.carol, true)
}

func TestClassicMatchEndToEnd(t *testing.T) {
	t.Parallel()
	red := leakRed(t)
	// The leak test: the same match with Red's unrevealed back pieces
	// shuffled must look exactly the same to Bob and to the channel.
	shuffled := marshalAndBombSwapped(red)
	shuffled[3][5], shuffled[3][9] = shuffled[3][9], shuffled[3][5]
	var bobSaw, publicSaw [2][]string
	bothWays(t, red, shuffled, func(t *testing.T, k int, setup game.Setup) { // the two matches are played at once
		h, bob, public := playClassic(t, setup)
		m, err := h.db.Match(context.Background(), 1)
		if err != nil {
			t.Fatal(err)
		}
		if m.Phase != storage.PhaseFinished || m.Result != (game.Result{Outcome: game.RedWon, Method: game.FlagCaptured}) || m.Moves() != 5 {
			t.Fatalf("stored match: phase %v result %v moves %d", m.Phase, m.Result, m.Moves())
		}
		// The public channel got a picture after every move and the finale.
		pictures := 0
		for _, msg := range h.srv.ChannelMessages(h.channel) {
			pictures += len(msg.Files)
		}
		if pictures < 7 {
			t.Fatalf("the channel got %d pictures", pictures)
		}
		if len(bob) < 8 || !strings.Contains(strings.Join(bob, "\n"), "[board.png ") || len(public) < 7 {
			t.Fatalf("too little to compare: bob saw %d messages, the channel %d", len(bob), len(public))
		}
		bobSaw[k], publicSaw[k] = bob, public
	})
	if t.Failed() {
		return
	}
	sameSight(t, "Bob", bobSaw)
	sameSight(t, "the channel", publicSaw)
}

func TestSameMoveRacedTwice(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	red := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant})
	blue := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant})
	h.challenge("Classic")
	h.sendSetups(red, blue)
	var wg sync.WaitGroup
	replies := make([]string, 3)
	for k := range replies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if k == 2 {
				h.alice.SendDM(t, "A4-A5")
				return
			}
			replies[k] = h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t).Content
		}()
	}
	wg.Wait()
	m := h.waitMoves(1, 1)
	if m.Moves() != 1 {
		t.Fatalf("%d moves stored", m.Moves())
	}
	played := 0
	for _, r := range replies[:2] {
		if strings.Contains(r, "You moved") {
			played++
		}
	}
	if played > 1 {
		t.Fatalf("two slash commands both played the move: %q", replies)
	}
}

// TestThreadModeLeak: a whole match in the thread-per-match board mode,
// played twice with Red's hidden pieces shuffled: the thread, like Bob's DMs,
// shows exactly the same in both.
func TestThreadModeLeak(t *testing.T) {
	t.Parallel()
	red := leakRed(t)
	threads := boardMode(t, "thread")
	var bobSaw, publicSaw [2][]string
	bothWays(t, red, marshalAndBombSwapped(red), func(t *testing.T, k int, setup game.Setup) {
		h, bob, public := playClassic(t, setup, threads)
		inThread := 0
		for _, line := range public {
			if strings.HasPrefix(line, "thread: ") && strings.Contains(line, "[board.png ") {
				inThread++
			}
		}
		if len(h.channel.Threads()) != 1 || inThread < 5 {
			t.Fatalf("%d threads, %d boards in the thread: the match was not played in its thread", len(h.channel.Threads()), inThread)
		}
		bobSaw[k], publicSaw[k] = bob, public
	})
	if t.Failed() {
		return
	}
	sameSight(t, "Bob", bobSaw)
	sameSight(t, "the thread", publicSaw)
}

func TestThreadPerMatch(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(c *Config) { c.Threads = true })
	h.startClassic()
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.waitMoves(1, 1)
	threads := h.channel.Threads()
	if len(threads) != 1 {
		t.Fatalf("%d threads", len(threads))
	}
	m, _ := h.db.Match(context.Background(), 1)
	if m.ThreadID != threads[0].ID {
		t.Fatalf("the match is in %q, the thread is %q", m.ThreadID, threads[0].ID)
	}
	h.srv.WaitFor(t, "the public board in the thread", func() bool {
		for _, msg := range h.srv.ChannelMessages(threads[0]) {
			if strings.Contains(msg.Content, "alice moved A4-A5") && len(msg.Files) == 1 {
				return true
			}
		}
		return false
	})
}

// TestThreadNameOneLine: a thread's name shows the players as every plain
// text does (nametext.Plain): as written, a control character a space.
func TestThreadNameOneLine(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(c *Config) { c.Threads = true })
	h.alice = h.guild.AddMember("ann\tlee `x`")
	h.startClassic()
	h.srv.WaitFor(t, "the match's thread", func() bool { return len(h.channel.Threads()) == 1 })
	if got, want := h.channel.Threads()[0].Name, "Stratego #1: ann lee `x` vs bob"; got != want {
		t.Errorf("the thread is named %q, not %q", got, want)
	}
}

// TestOneLoadPerMove: a move, from the interaction to its last message,
// loads its match at most once outside the transaction that plays it (which
// replays it and returns the game), and only to read the menus it was picked
// from. The outbox composes all three boards from what the move returned:
// the bot replays nothing itself, each player's settings are read once, and
// the clock's start when the board arrives is an update, not a new load.
func TestOneLoadPerMove(t *testing.T) {
	t.Parallel()
	t.Run("alone on its database", func(t *testing.T) { t.Parallel(); oneLoadPerMove(t, false) })
	t.Run("sharing its database", func(t *testing.T) { t.Parallel(); oneLoadPerMove(t, true) })
}

// oneLoadPerMove plays three moves, each its own way, and counts the reads
// from the interaction to the move's last message. Sharing the database, the
// outbox asks the store for the match's version before each notice it
// composes from the kept snapshot, and reads the match no more than alone.
func oneLoadPerMove(t *testing.T, shared bool) {
	h := newHarness(t, func(c *Config) { c.Shared, c.Holder = shared, "the only process" })
	h.startClassic()
	board := h.alice.WaitDM(t, contains("the match begins"))
	h.bob.WaitDM(t, contains("the match begins"))
	h.outboxEmpty()
	var picked *discordtest.Message
	tests := []struct {
		name    string
		prepare func()
		move    func()
		// the reads before the transaction: a list of the member's matches, or one match
		lists, matches int64
	}{
		{"slash command", func() {}, func() {
			h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
		}, 1, 0},
		{"DM", func() {}, func() { h.bob.SendDM(t, "J7-J6") }, 1, 0},
		{"menus", func() {
			board = h.alice.WaitDM(t, contains("bob moved J7-J6"))
			picked, _ = h.pick(h.alice, board, 0, "A5") // the piece menu is not the move
		}, func() { h.pick(h.alice, picked, 0, "A6") }, 0, 1},
	}
	for k, tc := range tests {
		tc.prepare()
		h.outboxEmpty()
		h.reads.reset()
		replays := h.bot.replays.Load()
		tc.move()
		h.channelSays(fmt.Sprintf("Move %d:", k+2))
		h.outboxEmpty() // both players' boards are out too, and the clock runs
		l, m, mv := h.reads.lists.Load(), h.reads.matches.Load(), h.reads.moves.Load()
		if l != tc.lists || m != tc.matches || mv != 1 {
			t.Errorf("a move by %s: %d lists and %d matches read, %d ApplyMove; want %d, %d, 1", tc.name, l, m, mv, tc.lists, tc.matches)
		}
		if v := h.reads.versions.Load(); (!shared && v != 0) || v > 3 {
			t.Errorf("a move by %s: %d version reads; want none alone, at most one a notice shared", tc.name, v)
		}
		if r := h.bot.replays.Load() - replays; r != 0 {
			t.Errorf("a move by %s: the bot replayed the match %d times after the move's own replay; want 0", tc.name, r)
		}
		for _, who := range []*discordtest.Member{h.alice, h.bob} {
			if n := h.reads.playerReads(who.ID); n > 1 {
				t.Errorf("a move by %s: %s's settings read %d times; want at most once", tc.name, who.Name, n)
			}
		}
		if stored := h.match(1); stored.ClockPending {
			t.Errorf("a move by %s: the clock still waits after every board arrived", tc.name)
		}
	}
}
