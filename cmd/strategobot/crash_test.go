package main

import (
	"bytes"
	"crypto/sha256"
	"flag"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/buildtest"
	"github.com/strategobot/strategobot/internal/discordtest"
)

// crashes is how many times TestCrashes kills the bot. The default is a
// sample for every test run; the full check is
//
//	go test ./cmd/strategobot -run TestCrashes -crashes 120 -v
var crashes = flag.Int("crashes", 8, "SIGKILLs of the bot in TestCrashes")

// TestCrashes plays one match between two members with the built binary
// against the local Discord (slash commands, DM text and the menus under
// the boards), twice: once undisturbed, once with the process killed with
// SIGKILL at random moments and restarted on the same database. A member
// whose command went unanswered tries again, as a person would. Afterwards
// each player's DMs and the channel hold every board of the match exactly
// once, in order, the same as in the undisturbed run.
func TestCrashes(t *testing.T) {
	bin := buildtest.Binary(t, "./cmd/strategobot")
	moves := max(24, *crashes/3)
	calm := playWithCrashes(t, bin, moves, 0)
	crashed := playWithCrashes(t, bin, moves, *crashes)
	lost, doubled, delivered := 0, 0, 0
	for _, who := range []string{"alice", "bob", "channel"} {
		a, b := calm.seen[who], crashed.seen[who]
		delivered += len(b)
		for _, board := range a {
			switch n := count(b, board); {
			case n == 0:
				lost++
			case n > 1:
				doubled += n - 1
			}
		}
		if !slices.Equal(a, b) {
			t.Errorf("%s saw %d boards undisturbed and %d with crashes; first difference %s", who, len(a), len(b), firstDifference(a, b))
		}
	}
	t.Logf("%d kills, %d moves, %d boards delivered (each player's and the channel's), %d lost, %d doubled", crashed.kills, moves, delivered, lost, doubled)
}

func count(list []string, s string) int {
	n := 0
	for _, x := range list {
		if x == s {
			n++
		}
	}
	return n
}

// crashRun is what one run saw: per recipient, the boards in order.
type crashRun struct {
	kills int
	seen  map[string][]string
}

// process is one run of the bot's binary.
type process struct {
	cmd    *exec.Cmd
	exited chan error
	logs   *bytes.Buffer
}

func startProcess(t *testing.T, bin, dir string, env []string) *process {
	t.Helper()
	cmd := exec.Command(bin)
	cmd.Dir = dir
	cmd.Env = env
	logs := &bytes.Buffer{}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &process{cmd: cmd, exited: make(chan error, 1), logs: logs}
	go func() { p.exited <- cmd.Wait() }()
	return p
}

func (p *process) kill() {
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.exited
}

// playWithCrashes plays the scripted match, killing the bot kills times.
func playWithCrashes(t *testing.T, bin string, moves, kills int) crashRun {
	dir := t.TempDir()
	srv := discordtest.New(t, discordtest.WithWaitTimeout(30*time.Second))
	club := srv.AddGuild("Stratego Club")
	alice, bob := club.AddMember("alice"), club.AddMember("bob")
	channel := club.General()
	env := botEnv(srv,
		"STRATEGOBOT_DATABASE="+filepath.Join(dir, "bot.db"),
	)
	// The first start registers the command; a restart lists it, and
	// writes it only if it changed, which it did not.
	const register, list = "PUT /applications/{application_id}/commands", "GET /applications/{application_id}/commands"
	var mu sync.Mutex // guards bot and up
	bot, up := startProcess(t, bin, dir, env), false
	srv.WaitFor(t, "the bot's command registered", func() bool { return len(srv.Requests(register)) > 0 })
	up = true
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		if bot != nil {
			bot.kill()
		}
	})

	// The set-ups, undisturbed: Two-Squares and More-Squares off let the
	// pieces shuffle for as long as the script wants.
	rules := game.DefaultRules(game.VariantClassic)
	rules.TwoSquares, rules.MoreSquares = 0, false
	red, blue := game.RandomSetup(rules, 11), game.RandomSetup(rules, 12)
	challenge := alice.SlashCommand(t, channel, "stratego challenge", discordtest.Opt("opponent", bob),
		discordtest.Opt("side", "red"), discordtest.Opt("two_squares", 0), discordtest.Opt("more_squares", false)).Reply(t)
	bob.ClickButton(t, challenge, buttonID(t, challenge, "Accept")).Reply(t)
	for _, p := range []struct {
		who   *discordtest.Member
		setup game.Setup
	}{{alice, red}, {bob, blue}} {
		p.who.WaitDM(t, func(m *discordtest.Message) bool { return strings.Contains(m.Content, "Send me your secret set-up") })
		p.who.SendDM(t, game.FormatSetup(p.setup, game.NumberingModern))
		preview := p.who.WaitDM(t, func(m *discordtest.Message) bool { return strings.Contains(m.Content, "Your set-up for match") })
		p.who.ClickButton(t, preview, buttonID(t, preview, "Confirm")).Reply(t)
	}
	replica, err := game.NewGame(rules, red, blue)
	if err != nil {
		t.Fatal(err)
	}
	alice.WaitDM(t, func(m *discordtest.Message) bool { return strings.Contains(m.Content, "the match begins") })

	// The killer: SIGKILL at a random moment after a member's action (while
	// the bot handles it, stores it or sends its messages), then a restart
	// on the same file. The kills are spread over the moves.
	krng := rand.New(rand.NewPCG(uint64(kills), 7))
	killsAt := map[int]int{}
	for k := range kills {
		killsAt[k*moves/max(kills, 1)]++
	}
	n := 0
	killAndRestart := func() {
		time.Sleep(time.Duration(krng.IntN(60)) * time.Millisecond)
		mu.Lock()
		srv.BotKilled()
		bot.kill()
		up = false
		mu.Unlock()
		n++
		listed := len(srv.Requests(list))
		mu.Lock()
		bot = startProcess(t, bin, dir, env)
		mu.Unlock()
		srv.WaitFor(t, "the restarted bot's command", func() bool { return len(srv.Requests(list)) > listed })
		mu.Lock()
		up = true
		mu.Unlock()
	}

	// The moves: chosen by the replica from the same seed in every run, made
	// in turn by slash command, DM text and the menus, each tried again
	// until Discord shows it was played.
	rng := rand.New(rand.NewPCG(3, 5))
	players := map[game.Side]*discordtest.Member{game.Red: alice, game.Blue: bob}
	for ply := 0; ply < moves && !replica.Result().Over(); ply++ {
		mv := chooseMove(replica, rng)
		mover, opponent := players[replica.ToMove()], players[replica.ToMove().Opponent()]
		played := func() bool {
			for _, m := range opponent.DMs() {
				if m.FromBot() && strings.Contains(m.Content, fmt.Sprintf("Move %d:", ply+2)) {
					return true
				}
			}
			return false
		}
		for attempt := 0; !played(); attempt++ {
			mu.Lock()
			isUp := up
			mu.Unlock()
			if isUp {
				switch (ply + attempt) % 3 {
				case 0:
					mover.SlashCommand(t, channel, "stratego move", discordtest.Opt("from", mv.From.String()), discordtest.Opt("to", mv.To.String()))
				case 1:
					mover.SendDM(t, mv.String())
				default:
					pickWithMenus(t, mover, mv)
				}
				for ; killsAt[ply] > 0; killsAt[ply]-- {
					killAndRestart()
				}
			}
			deadline := time.Now().Add(2 * time.Second)
			for !played() && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
		}
		if _, err := replica.Apply(mv); err != nil {
			t.Fatalf("the replica refused move %d %v: %v", ply+1, mv, err)
		}
	}
	// Everything owed is delivered by the last process: every board of the
	// last move, and the finale if the game ended.
	last := fmt.Sprintf("Move %d:", replica.Ply()+1)
	if replica.Result().Over() {
		last = "replay.gif"
	}
	srv.WaitFor(t, "the last move's boards", func() bool {
		for _, seen := range [][]*discordtest.Message{alice.DMs(), bob.DMs(), srv.ChannelMessages(channel)} {
			if !slices.ContainsFunc(boards(seen), func(s string) bool { return strings.Contains(s, last) }) {
				return false
			}
		}
		return true
	})
	time.Sleep(200 * time.Millisecond) // nothing more comes
	mu.Lock()
	final := bot
	mu.Unlock()
	final.kill()
	mu.Lock()
	bot = nil
	mu.Unlock()
	return crashRun{kills: n, seen: map[string][]string{
		"alice":   boards(alice.DMs()),
		"bob":     boards(bob.DMs()),
		"channel": boards(srv.ChannelMessages(channel)),
	}}
}

// chooseMove picks a move that attacks nothing when it can, from rng.
func chooseMove(g *game.Game, rng *rand.Rand) game.Move {
	legal := g.LegalMoves()
	var quiet []game.Move
	for _, m := range legal {
		if _, _, occupied := g.PieceAt(m.To); !occupied {
			quiet = append(quiet, m)
		}
	}
	if len(quiet) > 0 {
		legal = quiet
	}
	slices.SortFunc(legal, func(a, b game.Move) int { return strings.Compare(a.String(), b.String()) })
	return legal[rng.IntN(len(legal))]
}

// pickWithMenus plays mv with the two menus under the member's latest board.
func pickWithMenus(t *testing.T, m *discordtest.Member, mv game.Move) {
	var board *discordtest.Message
	for _, d := range m.DMs() {
		if d.FromBot() && len(d.SelectMenus()) > 0 {
			board = d
		}
	}
	if board == nil {
		m.SendDM(t, mv.String())
		return
	}
	m.SelectMenu(t, board, board.SelectMenus()[0].CustomID, mv.From.String())
	// The answer replaces the menus with the targets of the piece picked;
	// if it does not come (the bot was killed), the caller tries again.
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		for _, d := range m.DMs() {
			if d.ID == board.ID && len(d.SelectMenus()) > 0 && strings.Contains(d.SelectMenus()[0].Placeholder, mv.From.String()) {
				m.SelectMenu(t, d, d.SelectMenus()[0].CustomID, mv.To.String())
				return
			}
		}
	}
}

// tsPattern matches Discord timestamps, which differ from run to run.
var tsPattern = regexp.MustCompile(`<t:\d+:[A-Za-z]>`)

// boards lists the bot's messages with pictures, as text and digests.
func boards(msgs []*discordtest.Message) []string {
	var out []string
	for _, m := range msgs {
		if !m.FromBot() || len(m.Files) == 0 {
			continue
		}
		line := tsPattern.ReplaceAllString(m.Content, "<t>")
		for _, f := range m.Files {
			line += fmt.Sprintf(" [%s %x]", f.Name, sha256.Sum256(f.Data))
		}
		out = append(out, line)
	}
	return out
}

func buttonID(t *testing.T, m *discordtest.Message, label string) string {
	t.Helper()
	for _, b := range m.Buttons() {
		if b.Label == label {
			return b.CustomID
		}
	}
	t.Fatalf("no %q button on %q", label, m.Content)
	return ""
}

func firstDifference(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("at #%d:\n  %s\n  %s", i, a[i], b[i])
		}
	}
	return fmt.Sprintf("in length: %d and %d", len(a), len(b))
}
