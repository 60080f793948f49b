package bot

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
)

// The end-to-end tests run the real bot, with a real discordgo session,
// against the local Discord of internal/discordtest, which checks every
// request against Discord's API description and its interaction rules.

var sharedRenderer = sync.OnceValues(render.New)

// T0 is the fixed clock of the tests, so that every text is reproducible.
var T0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// registerRoute is the request with which the bot registers its command globally.
const registerRoute = "PUT /applications/{application_id}/commands"

type harness struct {
	t                 testing.TB
	srv               *discordtest.Server
	guild             *discordtest.Guild
	channel           *discordtest.Channel
	alice, bob, carol *discordtest.Member
	dbPath            string
	db                *storage.DB
	bot               *Bot
	cfg               Config // the bot's configuration; Now and Logger are the harness's
	stop              func()
	clock             *testClock
}

// testClock is a settable clock for the bot.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func newHarness(t testing.TB, configure ...func(*Config)) *harness {
	t.Helper()
	srv := discordtest.New(t)
	g := srv.AddGuild("Stratego Club")
	h := &harness{t: t, srv: srv, guild: g, channel: g.General(),
		alice: g.AddMember("alice"), bob: g.AddMember("bob"), carol: g.AddMember("carol"),
		dbPath: filepath.Join(t.TempDir(), "bot.db"), clock: &testClock{now: T0}}
	for _, c := range configure {
		c(&h.cfg)
	}
	h.start()
	t.Cleanup(func() { h.shutdown() })
	return h
}

// start runs a bot process: storage opened on the harness's file, a new session.
func (h *harness) start() {
	t := h.t
	t.Helper()
	db, err := storage.Open(storage.Options{Path: h.dbPath, NoSync: true, Reminders: Reminders})
	if err != nil {
		t.Fatal(err)
	}
	pics, err := sharedRenderer()
	if err != nil {
		t.Fatal(err)
	}
	registered := len(h.srv.Requests(registerRoute))
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	if testing.Verbose() {
		logger = slog.New(slog.NewTextHandler(testWriter{t}, nil))
	}
	cfg := h.cfg
	cfg.Now, cfg.Logger = h.clock.Now, logger
	b := New(cfg, h.srv.NewSession(t), db, pics)
	h.bot = b
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	h.db = db
	h.stop = func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("bot stopped with %v", err)
		}
		db.Close()
	}
	// Ready once this process has registered its command, after READY.
	h.srv.WaitFor(t, "the /stratego command", func() bool { return len(h.srv.Requests(registerRoute)) > registered })
}

func (h *harness) shutdown() {
	if h.stop != nil {
		h.stop()
		h.stop = nil
	}
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// button returns the custom id of the button labelled label on msg.
func button(t testing.TB, msg *discordtest.Message, label string) string {
	t.Helper()
	for _, b := range msg.Buttons() {
		if b.Label == label {
			return b.CustomID
		}
	}
	t.Fatalf("no %q button on %q", label, msg.Content)
	return ""
}

func hasButton(msg *discordtest.Message, label string) bool {
	for _, b := range msg.Buttons() {
		if b.Label == label {
			return true
		}
	}
	return false
}

func contains(s string) func(*discordtest.Message) bool {
	return func(m *discordtest.Message) bool { return strings.Contains(m.Content, s) }
}

// placed builds a full Classic set-up with some pieces at given cells (row,
// col from the player's view) and the rest of the army filled in order.
func placed(t testing.TB, fixed map[[2]int]game.Rank) game.Setup {
	t.Helper()
	army := game.VariantClassic.Army()
	var s game.Setup
	for cell, r := range fixed {
		s[cell[0]][cell[1]] = r
		army[r]--
	}
	var rest []game.Rank
	for _, r := range game.Ranks {
		for k := 0; k < int(army[r]); k++ {
			rest = append(rest, r)
		}
	}
	for row := 3; row >= 0; row-- {
		for col := 0; col < 10; col++ {
			if s[row][col] == game.NoRank {
				s[row][col], rest = rest[0], rest[1:]
			}
		}
	}
	if err := s.Validate(game.DefaultRules(game.VariantClassic)); err != nil {
		t.Fatal(err)
	}
	return s
}

// challenge makes alice challenge bob (alice plays Red) and bob accept.
func (h *harness) challenge(variant string, extra ...discordtest.Arg) {
	t := h.t
	t.Helper()
	args := append([]discordtest.Arg{discordtest.Opt("opponent", h.bob), discordtest.Opt("variant", variant), discordtest.Opt("side", "red")}, extra...)
	in := h.alice.SlashCommand(t, h.channel, "stratego challenge", args...)
	msg := in.Reply(t)
	if !strings.Contains(msg.Content, "challenges you") || msg.Ephemeral {
		t.Fatalf("challenge message %q", msg.Content)
	}
	// A third member cannot accept it.
	carol := h.carol.ClickButton(t, msg, button(t, msg, "Accept")).Reply(t)
	if !carol.Ephemeral || !strings.Contains(carol.Content, "for someone else") {
		t.Fatalf("carol's accept: %q", carol.Content)
	}
	accepted := h.bob.ClickButton(t, msg, button(t, msg, "Accept")).Reply(t)
	if !strings.Contains(accepted.Content, "Match #") {
		t.Fatalf("accepted challenge shows %q", accepted.Content)
	}
}

// sendSetups: alice types hers in the DM; bob uses the form.
func (h *harness) sendSetups(red, blue game.Setup) {
	t := h.t
	t.Helper()
	invite := h.alice.WaitDM(t, contains("Send me your secret set-up"))
	if !hasButton(invite, "Random") {
		t.Fatalf("set-up invite without buttons: %q", invite.Content)
	}
	h.alice.SendDM(t, game.FormatSetup(red, game.NumberingModern))
	preview := h.alice.WaitDM(t, contains("Your set-up for match"))
	if imgs, err := preview.Images(); err != nil || len(imgs) != 1 {
		t.Fatalf("preview pictures: %d, %v", len(imgs), err)
	}
	h.alice.ClickButton(t, preview, button(t, preview, "Confirm")).Reply(t)

	invite = h.bob.WaitDM(t, contains("Send me your secret set-up"))
	edit := h.bob.ClickButton(t, invite, button(t, invite, "Edit"))
	if form := edit.Wait(t); form.Modal == nil {
		t.Fatalf("Edit opened no form: %+v", form)
	}
	submitted := h.bob.SubmitModal(t, edit, map[string]string{setupField: game.FormatSetup(blue, game.NumberingModern)})
	preview = submitted.Reply(t)
	h.bob.ClickButton(t, preview, button(t, preview, "Confirm")).Reply(t)
	h.alice.WaitDM(t, contains("the match begins"))
	h.bob.WaitDM(t, contains("the match begins"))
}

// transcript is everything one member saw, as text and file digests, sorted.
func transcript(h *harness, m *discordtest.Member, skipFinale bool) []string {
	var out []string
	add := func(where string, msgs []*discordtest.Message) {
		for _, msg := range msgs {
			if !msg.FromBot() {
				continue
			}
			line := where + ": " + msg.Content
			finale := false
			for _, f := range msg.Files {
				finale = finale || f.Name == "final.png" || f.Name == "replay.gif"
				line += fmt.Sprintf(" [%s %x]", f.Name, sha256.Sum256(f.Data))
			}
			if finale && skipFinale {
				continue
			}
			out = append(out, line)
		}
	}
	add("dm", m.DMs())
	add("ephemeral", m.Ephemerals())
	add("channel", m.Messages(h.channel))
	// DMs and channel posts of one move are sent concurrently, so their
	// order may vary from run to run: compare what was seen, not when.
	slices.Sort(out)
	return out
}

// playClassic plays the scripted Classic match: all three ways of moving,
// and a Scout that takes the Flag from range.
func playClassic(t *testing.T, red game.Setup) (*harness, []string, []string) {
	h := newHarness(t)
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
	// 5. Red's Scout strikes the Flag from E4, by DM.
	h.alice.SendDM(t, "E4xE7")
	h.alice.WaitDM(t, contains("You won"))
	h.bob.WaitDM(t, contains("You lost: your Flag was captured"))
	h.srv.WaitFor(t, "the final reveal", func() bool {
		for _, m := range h.srv.ChannelMessages(h.channel) {
			for _, f := range m.Files {
				if f.Name == "replay.gif" {
					return true
				}
			}
		}
		return false
	})
	bobSaw := append(transcript(h, h.bob, true), "autocomplete: "+strings.Join(offered, ", "))
	return h, bobSaw, transcript(h, h.carol, true)
}

func TestClassicMatchEndToEnd(t *testing.T) {
	red := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant, {0, 4}: game.Scout, {3, 0}: game.Flag, {3, 1}: game.Marshal, {3, 2}: game.Bomb})
	h, bobSaw, publicSaw := playClassic(t, red)

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

	if len(bobSaw) < 8 || !strings.Contains(strings.Join(bobSaw, "\n"), "[board.png ") || len(publicSaw) < 7 {
		t.Fatalf("too little to compare: bob saw %d messages, the channel %d", len(bobSaw), len(publicSaw))
	}
	// The leak test: the same match with Red's unrevealed back pieces
	// shuffled must look exactly the same to Bob and to the channel.
	shuffled := red
	shuffled[3][1], shuffled[3][2] = shuffled[3][2], shuffled[3][1] // Marshal and Bomb trade places
	shuffled[3][5], shuffled[3][9] = shuffled[3][9], shuffled[3][5]
	if shuffled == red {
		t.Fatal("the shuffle changed nothing")
	}
	_, bobSaw2, publicSaw2 := playClassic(t, shuffled)
	if !slices.Equal(bobSaw, bobSaw2) {
		t.Errorf("Bob saw something of Red's hidden pieces:\n%s", firstDiff(bobSaw, bobSaw2))
	}
	if !slices.Equal(publicSaw, publicSaw2) {
		t.Errorf("the channel saw something of Red's hidden pieces:\n%s", firstDiff(publicSaw, publicSaw2))
	}
}

func firstDiff(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("#%d:\n  %s\n  %s", i, a[i], b[i])
		}
	}
	return fmt.Sprintf("lengths %d and %d", len(a), len(b))
}
