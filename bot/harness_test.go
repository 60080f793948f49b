package bot

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/bolt"
)

// The end-to-end tests run the real bot, with a real discordgo session,
// against the local Discord of internal/discordtest, which checks every
// request against Discord's API description and its interaction rules. The
// harness and the helpers they share are here.

var sharedRenderer = sync.OnceValues(render.New)

// T0 is the fixed clock of the tests, so that every text is reproducible.
var T0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// registerRoute is the request with which the bot registers its command
// globally, and listRoute the one with which it lists the commands
// registered, before it registers them only if they differ.
const (
	registerRoute = "PUT /applications/{application_id}/commands"
	listRoute     = "GET /applications/{application_id}/commands"
)

type harness struct {
	t                 testing.TB
	srv               *discordtest.Server
	guild             *discordtest.Guild
	channel           *discordtest.Channel
	alice, bob, carol *discordtest.Member
	dbPath            string
	db                *bolt.DB
	reads             *countingStore // the bot's store: db, counting what the bot reads
	bot               *Bot
	cfg               Config // the bot's configuration; Now is the harness's, and Logger unless a test sets it
	stop              func()
	exited            chan error             // Run's answer, once the bot stops
	clock             *discordtest.FakeClock // the bot's clock
	// challenged runs once a challenge is accepted: the match exists, its
	// set-up phase has begun.
	challenged []func()
	// beforeAct, when set, is each process's store's beforeAct from its
	// start: what it does from its first action on.
	beforeAct func(id storage.MatchID, a storage.Action)
	// failServerUpdates is how many of each process's first
	// UpdateServer calls fail, as a database briefly away at start-up.
	failServerUpdates int64
}

func newHarness(t testing.TB, configure ...func(*Config)) *harness {
	t.Helper()
	return newHarnessOn(t, nil, configure...)
}

// newHarnessOn is newHarness with a local Discord built with opts.
func newHarnessOn(t testing.TB, opts []discordtest.Option, configure ...func(*Config)) *harness {
	t.Helper()
	srv := discordtest.New(t, opts...)
	g := srv.AddGuild("Stratego Club")
	h := &harness{t: t, srv: srv, guild: g, channel: g.General(),
		alice: g.AddMember("alice"), bob: g.AddMember("bob"), carol: g.AddMember("carol"),
		dbPath: filepath.Join(t.TempDir(), "bot.db"), clock: discordtest.NewFakeClock(T0)}
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
	db, err := bolt.Open(bolt.Options{Path: h.dbPath, NoSync: true, Reminders: Reminders})
	if err != nil {
		t.Fatal(err)
	}
	pics, err := sharedRenderer()
	if err != nil {
		t.Fatal(err)
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	switch {
	case h.cfg.Logger != nil: // a test reads what the bot logs
		logger = h.cfg.Logger
	case testing.Verbose():
		logger = slog.New(slog.NewTextHandler(testWriter{t}, nil))
	}
	cfg := h.cfg
	cfg.Now, cfg.Logger = h.clock.Now, logger
	h.reads = &countingStore{Store: db}
	if f := h.beforeAct; f != nil {
		h.reads.beforeAct.Store(&f)
	}
	h.reads.failServer.Store(h.failServerUpdates)
	b := New(cfg, h.srv.NewSession(t), h.reads, pics)
	h.bot = b
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	h.exited = done
	go func() { done <- b.Run(ctx) }()
	h.db = db
	h.stop = func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("bot stopped with %v", err)
		}
		db.Close()
	}
	// Ready once this process has registered its command, or found it
	// registered, after READY.
	h.srv.WaitFor(t, "the /stratego command", b.registered.Load)
	if cfg.GuildID == "" {
		// The command global, the bot looks once for a copy of it in
		// the server (dropGuildCopy) and notes it in the server's
		// settings: done before the test reads them.
		h.srv.WaitFor(t, "the server looked at for a copy of the command", func() bool {
			s, err := db.Server(context.Background(), h.guild.ID)
			return err == nil && s.CommandChecked
		})
	}
}

// playInThreads makes the test's server play each match in a thread of its
// own (storage.BoardThread), as its admin would with /stratego server.
func (h *harness) playInThreads(t testing.TB) {
	t.Helper()
	if _, err := h.db.UpdateServer(context.Background(), h.guild.ID, func(s *storage.ServerSettings) error {
		s.Board = storage.BoardThread
		return nil
	}); err != nil {
		t.Fatal(err)
	}
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

// advance moves the bot's clock and returns once the timers due by then
// have been handled: it runs a pass itself, which waits for any pass of the
// timer loop under way.
func (h *harness) advance(d time.Duration) {
	// A delivery under way ends first, at the time it was made: a player's
	// time starts when the bot records their board's arrival, and a test
	// that has seen the board must not move the clock under that record.
	h.bot.deliverDue(context.Background())
	h.clock.Advance(d)
	h.bot.handleDue(context.Background())
	h.bot.deliverDue(context.Background())
	h.bot.nudgeTimers()
}

// fixtures runs f, which writes test fixtures straight into the database,
// with the outbox held back, and then drops what they owe: the fixtures'
// players are made up, and nobody must be told about them.
func (h *harness) fixtures(f func()) {
	h.t.Helper()
	h.bot.outboxPass.Lock()
	defer h.bot.outboxPass.Unlock()
	f()
	ctx := context.Background()
	due, err := h.db.DueNotices(ctx, time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC), 0)
	if err != nil {
		h.t.Fatal(err)
	}
	for _, n := range due {
		if err := h.db.NoticeDone(ctx, n.ID, n.At); err != nil {
			h.t.Fatal(err)
		}
	}
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

// answers accepts the bot's DMs that reply to msg and contain text.
func answers(msg *discordtest.Message, text string) func(*discordtest.Message) bool {
	return func(m *discordtest.Message) bool {
		return m.MessageReference != nil && m.MessageReference.MessageID == msg.ID && strings.Contains(m.Content, text)
	}
}

// dayMatch challenges for a Classic match at a day a move and sends both
// set-ups, with a Sergeant on A1 (so that A4 moves first): the match of
// the tests of correspondence time (pauses, vacations, gifts, menus).
func (h *harness) dayMatch() {
	h.t.Helper()
	h.challenge("Classic", discordtest.Opt("move_time", "24h"))
	sergeant := placed(h.t, map[[2]int]game.Rank{{0, 0}: game.Sergeant})
	h.sendSetups(sergeant, sergeant)
}

// placed builds a full Classic set-up with some pieces at given cells (row,
// col from the player's view) and the rest of the army filled in order.
func placed(t testing.TB, fixed map[[2]int]game.Rank) game.Setup {
	t.Helper()
	return placedIn(t, game.DefaultRules(game.VariantClassic), fixed)
}

// placedIn is placed for the army of rules.
func placedIn(t testing.TB, rules game.Rules, fixed map[[2]int]game.Rank) game.Setup {
	t.Helper()
	army := rules.Army
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
	if err := s.Validate(rules); err != nil {
		t.Fatal(err)
	}
	return s
}

// setupOf builds a set-up from cells (row, col from the player's view).
func setupOf(t *testing.T, rules game.Rules, cells map[[2]int]game.Rank) game.Setup {
	t.Helper()
	var s game.Setup
	for c, r := range cells {
		s[c[0]][c[1]] = r
	}
	if err := s.Validate(rules); err != nil {
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
	for _, f := range h.challenged {
		f()
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

func (h *harness) startClassic() {
	h.t.Helper()
	red := placed(h.t, map[[2]int]game.Rank{{0, 0}: game.Sergeant, {0, 4}: game.Scout, {3, 0}: game.Flag})
	blue := placed(h.t, map[[2]int]game.Rank{{0, 0}: game.Sergeant, {0, 5}: game.Flag})
	h.challenge("Classic")
	h.sendSetups(red, blue)
}

// waitMoves waits until the stored match has n moves and the bot has
// delivered what they owe, as a person would wait to see the board before
// moving again: it runs an outbox pass itself.
func (h *harness) waitMoves(id storage.MatchID, n int) *storage.Match {
	h.t.Helper()
	h.waitStored(id, n)
	h.bot.deliverDue(context.Background())
	return h.match(id)
}

// waitStored waits until the stored match has n moves.
func (h *harness) waitStored(id storage.MatchID, n int) *storage.Match {
	h.t.Helper()
	var m *storage.Match
	h.srv.WaitFor(h.t, "the match to reach its next move", func() bool {
		var err error
		m, err = h.db.Match(context.Background(), id)
		return err == nil && (m.Moves() >= n || !m.Phase.Active())
	})
	return m
}

// outboxEmpty waits until the outbox owes nothing: every message of what
// happened so far is out.
func (h *harness) outboxEmpty() {
	h.t.Helper()
	h.srv.WaitFor(h.t, "the outbox to owe nothing", func() bool {
		_, owed, err := h.db.NextNotice(context.Background())
		return err == nil && !owed
	})
}

// match loads a stored match.
// quietMove is a legal move of g's side to move that attacks nothing, and
// false when it has none: a test that moves "some piece" of a random set-up
// must not end the match by a Scout's taking a Flag down an open line.
func quietMove(g *game.Game) (game.Move, bool) {
	for _, mv := range g.LegalMoves() {
		if _, _, occupied := g.PieceAt(mv.To); !occupied {
			return mv, true
		}
	}
	return game.Move{}, false
}

// mustQuietMove is quietMove for the test's own player, who has one.
func mustQuietMove(t *testing.T, g *game.Game) game.Move {
	t.Helper()
	mv, ok := quietMove(g)
	if !ok {
		t.Fatalf("no legal move attacks nothing, after %d plies (result %v)", g.Ply(), g.Result())
	}
	return mv
}

func (h *harness) match(id storage.MatchID) *storage.Match {
	h.t.Helper()
	m, err := h.db.Match(context.Background(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	return m
}

func (h *harness) channelSays(what string) {
	h.t.Helper()
	h.srv.WaitFor(h.t, "the channel to say "+what, func() bool {
		for _, m := range h.srv.ChannelMessages(h.channel) {
			if strings.Contains(m.Content, what) {
				return true
			}
		}
		return false
	})
}

// pick chooses value in the menu at index k under msg and waits for the
// first answer; it returns the message as it is then, and the interaction.
func (h *harness) pick(m *discordtest.Member, msg *discordtest.Message, k int, value string) (*discordtest.Message, *discordtest.Interaction) {
	h.t.Helper()
	menus := msg.SelectMenus()
	if len(menus) <= k {
		h.t.Fatalf("no menu %d under %q", k, msg.Content)
	}
	in := m.SelectMenu(h.t, msg, menus[k].CustomID, value)
	in.Wait(h.t)
	return h.srv.Message(msg.ID), in
}

// followUp waits for the first follow-up message of an interaction.
func (h *harness) followUp(in *discordtest.Interaction) *discordtest.Message {
	h.t.Helper()
	var r discordtest.Response
	h.srv.WaitFor(h.t, "a follow-up to interaction "+in.ID, func() bool {
		r = in.Response()
		return len(r.Followups) > 0
	})
	return r.Followups[0]
}

// ownExample is the example set-up of a set-up invite's template (after its
// "numbering:" line): drawn for the member from the match's secret
// (setupExample), which every run draws anew, and independent of anything
// the other player did, so the leak comparisons leave it out.
var ownExample = regexp.MustCompile("(\n# [^\n]*\nnumbering: [a-z]+\n)[^`]*")

// transcript is everything one member saw, as text, file digests and alt
// texts, sorted. Every picture must have an alt text.
func transcript(h *harness, m *discordtest.Member, skipFinale bool) []string {
	var out []string
	add := func(where string, msgs []*discordtest.Message) {
		for _, msg := range msgs {
			if !msg.FromBot() {
				continue
			}
			line := where + ": " + ownExample.ReplaceAllString(msg.Content, "${1}<the member's own example>\n")
			finale := false
			for _, f := range msg.Files {
				finale = finale || f.Name == "final.png" || f.Name == "replay.gif"
				// The alt text is part of what the member sees: it goes through
				// the same comparisons as the picture.
				line += fmt.Sprintf(" [%s %x %q]", f.Name, sha256.Sum256(f.Data), f.Description)
				if f.Description == "" && (strings.HasSuffix(f.Name, ".png") || strings.HasSuffix(f.Name, ".gif")) {
					h.t.Errorf("%s: the picture %s has no alt text (message %q)", where, f.Name, msg.Content)
				}
			}
			if finale && skipFinale {
				continue
			}
			out = append(out, line+controlsOf(msg))
		}
	}
	add("dm", m.DMs())
	add("ephemeral", m.Ephemerals())
	add("channel", m.Messages(h.channel))
	for _, th := range h.channel.Threads() {
		add("thread", m.Messages(th))
	}
	// DMs and channel posts of one move are sent concurrently, so their
	// order may vary from run to run: compare what was seen, not when.
	slices.Sort(out)
	return out
}

// draftMarkID is the custom id of a set-up preview's Confirm button: its
// mark is keyed by the match's secret (draftMark), which every run draws
// anew, and names the member's own draft, so the leak comparisons leave it out.
var draftMarkID = regexp.MustCompile(`^(su:conf:\d+:)\d+`)

// controlsOf is what a member's client reads of msg's controls, which they
// can inspect without pressing anything: each button's label, style, custom
// id and link, each menu's custom id, placeholder and options. A link's
// token is signed with the bot's key, and its server listens on an address,
// which every run draws anew: only its path is kept.
func controlsOf(msg *discordtest.Message) string {
	var b strings.Builder
	for _, c := range msg.Buttons() {
		link := c.URL
		if u, err := url.Parse(c.URL); err == nil && c.URL != "" {
			link = u.Path
		}
		fmt.Fprintf(&b, " <button %q %d %q %q %v>", c.Label, c.Style, draftMarkID.ReplaceAllString(c.CustomID, "${1}<mark>"), link, c.Disabled)
	}
	for _, m := range msg.SelectMenus() {
		fmt.Fprintf(&b, " <menu %q %q", m.CustomID, m.Placeholder)
		for _, o := range m.Options {
			fmt.Fprintf(&b, " (%q %q %q %v)", o.Label, o.Value, o.Description, o.Default)
		}
		b.WriteString(">")
	}
	return b.String()
}

// leakRed is Red's set-up in the leak tests: a Sergeant and a Scout in
// front, the Flag, the Marshal and a Bomb on the back row.
func leakRed(t *testing.T) game.Setup {
	return placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant, {0, 4}: game.Scout, {3, 0}: game.Flag, {3, 1}: game.Marshal, {3, 2}: game.Bomb})
}

// boardMode returns a preparation of a harness in which a moderator sets
// the server's board mode.
func boardMode(t *testing.T, mode string) func(*harness) {
	return func(h *harness) {
		moderator(h)
		h.carol.SlashCommand(t, h.channel, "stratego server", discordtest.Opt(optBoardMode, mode)).Reply(t)
	}
}

// marshalAndBombSwapped returns red with its Marshal and Bomb on the back
// row's B and C squares traded: pieces nobody sees before they move.
func marshalAndBombSwapped(red game.Setup) game.Setup {
	red[3][1], red[3][2] = red[3][2], red[3][1]
	return red
}

// bothWays plays a match twice at once, with Red's set-up red and with
// shuffled, which differs only in hidden pieces; play fills in what each
// audience saw in run k, for sameSight to compare.
func bothWays(t *testing.T, red, shuffled game.Setup, play func(t *testing.T, k int, setup game.Setup)) {
	t.Helper()
	if shuffled == red {
		t.Fatal("the shuffle changed nothing")
	}
	t.Run("both", func(t *testing.T) {
		for k, setup := range []game.Setup{red, shuffled} {
			t.Run([]string{"red", "shuffled"}[k], func(t *testing.T) {
				t.Parallel()
				play(t, k, setup)
			})
		}
	})
}

// sameSight is the leak comparison of two runs that differ only in Red's
// hidden pieces: who must have seen exactly the same in both.
func sameSight(t *testing.T, who string, saw [2][]string) {
	t.Helper()
	if !slices.Equal(saw[0], saw[1]) {
		t.Errorf("%s saw something of Red's hidden pieces:\n%s", who, firstDiff(saw[0], saw[1]))
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

// countingStore counts the bot's reads of matches outside a transaction, and
// its moves.
type countingStore struct {
	storage.Store
	matches, lists, moves atomic.Int64
	webMatches            atomic.Int64 // the reads of matches made for a web board's request (webRequest)
	versions              atomic.Int64 // MatchVersion calls
	players               sync.Map     // user id → *atomic.Int64: reads of their settings
	matchesRead           sync.Map     // match id → *atomic.Int64: reads of that match (Match)
	// failDone makes that many of the next NoticeDone calls fail, as a
	// database that is briefly away would.
	failDone atomic.Int64
	// dones counts the NoticeDone calls.
	dones atomic.Int64
	// failDoneOf, when set, makes NoticeDone fail for the notices it
	// answers true, as a process that stops before it records the outcome.
	failDoneOf atomic.Pointer[func(n storage.Notice) bool]
	// failUpdateMatch makes that many of the next UpdateMatch calls fail,
	// as a database that is briefly away would, or with failUpdateMatchWith
	// when set.
	failUpdateMatch     atomic.Int64
	failUpdateMatchWith atomic.Pointer[error]
	// failServer makes that many of the next UpdateServer calls fail,
	// as a database that is briefly away would.
	failServer atomic.Int64
	// failTournament makes that many of the next UpdateTournament calls
	// fail, as a database that is briefly away would.
	failTournament atomic.Int64
	// beforeAbandon, when set, runs once before the next Abandon: another
	// change of the match that comes first.
	beforeAbandon atomic.Pointer[func()]
	// failAbandon makes that many of the next Abandon calls fail;
	// abandons counts the calls.
	failAbandon, abandons atomic.Int64
	// failCreateMatch makes that many of the next CreateMatch calls fail;
	// createMatches counts the calls.
	failCreateMatch, createMatches atomic.Int64
	// panicCreateMatchIn, when set, makes CreateMatch panic for a match
	// in that channel: a bug met by one item of a pass.
	panicCreateMatchIn atomic.Pointer[string]
	// dueAhead, when set, puts its deadlines, all due, ahead of the
	// store's own in NextDeadline and DueDeadlines.
	dueAhead atomic.Pointer[[]storage.Deadline]
	// moveAs, when set, is given each move before it is applied, and
	// returns the move to apply instead; it may panic, as a bug would.
	moveAs atomic.Pointer[func(side game.Side, mv game.Move) game.Move]
	// failNoticeTournament makes that many of the next reads of a
	// tournament made while delivering a notice (or answering a member)
	// fail, as a database that is briefly away would; failedTournament
	// counts those failed.
	failNoticeTournament, failedTournament atomic.Int64
	// failLists makes that many of the next PlayerMatches calls fail, as a
	// database that is briefly away would.
	failLists atomic.Int64
	// beforeMove, when set, runs once before the next ApplyMove: another
	// change of the match that comes first.
	beforeMove atomic.Pointer[func()]
	// nextDeadlinePanics, when set, is the value the next NextDeadline
	// panics with, as a bug in the timers' loop would.
	nextDeadlinePanics atomic.Pointer[any]
	// afterCreateMatch, when set, runs once after the next CreateMatch
	// that stores a match, with it: what another process does meanwhile.
	afterCreateMatch atomic.Pointer[func(m *storage.Match)]
	// tournaments counts the reads of tournaments (Tournament).
	tournaments atomic.Int64
	// challengeLists counts the reads of a member's challenges
	// (PlayerChallenges), with which the bot checks its limits.
	challengeLists atomic.Int64
	// beforeCreateChallenge, when set, runs once before the next
	// CreateChallenge: what another press does meanwhile.
	beforeCreateChallenge atomic.Pointer[func()]
	// beforeCreatePractice, when set, runs once before the next
	// CreatePractice: what another process does meanwhile.
	beforeCreatePractice atomic.Pointer[func()]
	// beforePlaceSeek, when set, runs once before the next PlaceSeek.
	beforePlaceSeek atomic.Pointer[func()]
	// beforeAct, while set, runs before each Act with its match and
	// action: what another member or the timers do meanwhile.
	beforeAct atomic.Pointer[func(id storage.MatchID, a storage.Action)]
	// readOnly, while set, makes Lead fail as every write does on a
	// database that can be read but not written (a full disk, a read-only
	// file or server); reads go on.
	readOnly atomic.Bool
	// healthWrites counts the writes of the health check (Lead of
	// leaseHealth), tried or made.
	healthWrites atomic.Int64
}

func (c *countingStore) Lead(ctx context.Context, name, holder string, at time.Time, ttl time.Duration) (bool, error) {
	if name == leaseHealth {
		c.healthWrites.Add(1)
	}
	if c.readOnly.Load() {
		return false, errors.New("write /data/strategobot.db: no space left on device")
	}
	return c.Store.Lead(ctx, name, holder, at, ttl)
}

func (c *countingStore) UpdateMatch(ctx context.Context, id storage.MatchID, version uint64, fn func(m *storage.Match) error) (*storage.Match, error) {
	if c.failUpdateMatch.Add(-1) >= 0 {
		if err := c.failUpdateMatchWith.Load(); err != nil {
			return nil, *err
		}
		return nil, errors.New("the database is away")
	}
	c.failUpdateMatch.Store(0)
	return c.Store.UpdateMatch(ctx, id, version, fn)
}

func (c *countingStore) Act(ctx context.Context, id storage.MatchID, version uint64, a storage.Action) (*storage.Match, error) {
	if f := c.beforeAct.Load(); f != nil {
		(*f)(id, a)
	}
	return c.Store.Act(ctx, id, version, a)
}

func (c *countingStore) PlayerChallenges(ctx context.Context, user string) ([]*storage.Challenge, error) {
	c.challengeLists.Add(1)
	return c.Store.PlayerChallenges(ctx, user)
}

func (c *countingStore) CreateChallenge(ctx context.Context, ch *storage.Challenge, limits storage.MemberLimits) (*storage.Challenge, error) {
	if f := c.beforeCreateChallenge.Swap(nil); f != nil {
		(*f)()
	}
	return c.Store.CreateChallenge(ctx, ch, limits)
}

func (c *countingStore) CreatePractice(ctx context.Context, m *storage.Match, member string, limits storage.MemberLimits) (*storage.Match, error) {
	if f := c.beforeCreatePractice.Swap(nil); f != nil {
		(*f)()
	}
	return c.Store.CreatePractice(ctx, m, member, limits)
}

func (c *countingStore) PlaceSeek(ctx context.Context, s *storage.Seek, partnerSide game.Side) (storage.SeekOutcome, error) {
	if f := c.beforePlaceSeek.Swap(nil); f != nil {
		(*f)()
	}
	return c.Store.PlaceSeek(ctx, s, partnerSide)
}

func (c *countingStore) CreateMatch(ctx context.Context, m *storage.Match) (*storage.Match, error) {
	c.createMatches.Add(1)
	if c.failCreateMatch.Add(-1) >= 0 {
		return nil, errors.New("the database is away")
	}
	c.failCreateMatch.Store(0)
	if ch := c.panicCreateMatchIn.Load(); ch != nil && *ch == m.ChannelID {
		panic("a bug met by one match")
	}
	made, err := c.Store.CreateMatch(ctx, m)
	if err == nil {
		if f := c.afterCreateMatch.Swap(nil); f != nil {
			(*f)(made)
		}
	}
	return made, err
}

func (c *countingStore) NextDeadline(ctx context.Context) (storage.Deadline, bool, error) {
	if p := c.nextDeadlinePanics.Swap(nil); p != nil {
		panic(*p)
	}
	if ahead := c.dueAhead.Load(); ahead != nil && len(*ahead) > 0 {
		return (*ahead)[0], true, nil
	}
	return c.Store.NextDeadline(ctx)
}

func (c *countingStore) DueDeadlines(ctx context.Context, now time.Time, limit int) ([]storage.Deadline, error) {
	ahead := c.dueAhead.Load()
	if ahead == nil {
		return c.Store.DueDeadlines(ctx, now, limit)
	}
	own, err := c.Store.DueDeadlines(ctx, now, 0)
	if err != nil {
		return nil, err
	}
	all := append(slices.Clone(*ahead), own...)
	if limit > 0 && len(all) > limit {
		all = all[:limit]
	}
	return all, nil
}

func (c *countingStore) Tournament(ctx context.Context, id storage.TournamentID) (*storage.Tournament, error) {
	c.tournaments.Add(1)
	if ctx.Value(settingsMemoKey{}) != nil {
		if c.failNoticeTournament.Add(-1) >= 0 {
			c.failedTournament.Add(1)
			return nil, errors.New("the database is away")
		}
		c.failNoticeTournament.Store(0)
	}
	return c.Store.Tournament(ctx, id)
}

func (c *countingStore) Abandon(ctx context.Context, id storage.MatchID, version uint64, at time.Time, why storage.CallOff) (*storage.Match, error) {
	c.abandons.Add(1)
	if f := c.beforeAbandon.Swap(nil); f != nil {
		(*f)()
	}
	if c.failAbandon.Add(-1) >= 0 {
		return nil, errors.New("the database is away")
	}
	c.failAbandon.Store(0)
	return c.Store.Abandon(ctx, id, version, at, why)
}

func (c *countingStore) UpdateServer(ctx context.Context, guildID string, fn func(s *storage.ServerSettings) error) (*storage.ServerSettings, error) {
	if c.failServer.Add(-1) >= 0 {
		return nil, errors.New("the database is away")
	}
	c.failServer.Store(0)
	return c.Store.UpdateServer(ctx, guildID, fn)
}

func (c *countingStore) UpdateTournament(ctx context.Context, id storage.TournamentID, version uint64, fn func(t *storage.Tournament) error) (*storage.Tournament, error) {
	if c.failTournament.Add(-1) >= 0 {
		return nil, errors.New("the database is away")
	}
	c.failTournament.Store(0)
	return c.Store.UpdateTournament(ctx, id, version, fn)
}

func (c *countingStore) NoticeDone(ctx context.Context, id uint64, at time.Time, follow ...storage.Notice) error {
	c.dones.Add(1)
	if c.failDone.Add(-1) >= 0 {
		return errors.New("the database is away")
	}
	c.failDone.Store(0)
	if f := c.failDoneOf.Load(); f != nil {
		due, err := c.Store.DueNotices(ctx, at.Add(24*time.Hour), 0)
		if err != nil {
			return err
		}
		for _, n := range due {
			if n.ID == id && (*f)(n) {
				return errors.New("the process stopped")
			}
		}
	}
	return c.Store.NoticeDone(ctx, id, at, follow...)
}

func (c *countingStore) Match(ctx context.Context, id storage.MatchID) (*storage.Match, error) {
	c.matches.Add(1)
	n, _ := c.matchesRead.LoadOrStore(id, new(atomic.Int64))
	n.(*atomic.Int64).Add(1)
	if ctx.Value(webRequest{}) != nil {
		c.webMatches.Add(1)
	}
	return c.Store.Match(ctx, id)
}

func (c *countingStore) MatchVersion(ctx context.Context, id storage.MatchID) (uint64, error) {
	c.versions.Add(1)
	return c.Store.MatchVersion(ctx, id)
}

func (c *countingStore) PlayerMatches(ctx context.Context, user string, active bool, limit int) ([]*storage.Match, error) {
	c.lists.Add(1)
	if c.failLists.Add(-1) >= 0 {
		return nil, errors.New("the database is away")
	}
	c.failLists.Store(0)
	return c.Store.PlayerMatches(ctx, user, active, limit)
}

func (c *countingStore) ApplyMove(ctx context.Context, id storage.MatchID, version uint64, side game.Side, mv game.Move, at time.Time) (*storage.Match, *game.Game, error) {
	c.moves.Add(1)
	if f := c.beforeMove.Swap(nil); f != nil {
		(*f)()
	}
	if f := c.moveAs.Load(); f != nil {
		mv = (*f)(side, mv)
	}
	return c.Store.ApplyMove(ctx, id, version, side, mv, at)
}

func (c *countingStore) Player(ctx context.Context, user string) (*storage.PlayerSettings, error) {
	n, _ := c.players.LoadOrStore(user, new(atomic.Int64))
	n.(*atomic.Int64).Add(1)
	return c.Store.Player(ctx, user)
}

// playerReads returns how often user's settings were read.
func (c *countingStore) playerReads(user string) int64 {
	n, ok := c.players.Load(user)
	if !ok {
		return 0
	}
	return n.(*atomic.Int64).Load()
}

// reset zeroes the counts.
func (c *countingStore) reset() {
	c.matches.Store(0)
	c.webMatches.Store(0)
	c.versions.Store(0)
	c.lists.Store(0)
	c.moves.Store(0)
	c.tournaments.Store(0)
	c.players.Clear()
	c.matchesRead.Clear()
}

// readsOf counts the reads of match id since the last reset.
func (c *countingStore) readsOf(id storage.MatchID) int64 {
	if n, ok := c.matchesRead.Load(id); ok {
		return n.(*atomic.Int64).Load()
	}
	return 0
}

// countDMs counts the bot's DMs to m that contain s.
func countDMs(m *discordtest.Member, s string) int {
	n := 0
	for _, msg := range m.DMs() {
		if strings.Contains(msg.Content, s) {
			n++
		}
	}
	return n
}

// lastDM is the member's latest DM.
func lastDM(m *discordtest.Member) *discordtest.Message {
	dms := m.DMs()
	if len(dms) == 0 {
		return &discordtest.Message{}
	}
	return dms[len(dms)-1]
}

// moderator gives carol a role with Manage Server.
func moderator(h *harness) {
	mods := h.guild.AddRole("mods", discordgo.PermissionManageGuild)
	h.guild.GiveRole(h.carol, mods)
}

// lastPublicBoard is the newest board picture in the channel.
func lastPublicBoard(t *testing.T, h *harness) *discordtest.Message {
	t.Helper()
	msgs := h.srv.ChannelMessages(h.channel)
	for k := len(msgs) - 1; k >= 0; k-- {
		if len(msgs[k].Files) == 1 {
			return msgs[k]
		}
	}
	t.Fatal("no public board in the channel")
	return nil
}

// webOn turns the harness's bot's web board on, served by a local HTTP server
// whose address is the public URL; it returns that URL.
func webOn(t *testing.T, h *harness) string {
	t.Helper()
	ts := httptest.NewUnstartedServer(nil)
	url := "http://" + ts.Listener.Addr().String()
	handler, err := h.bot.EnableWeb(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	// Every request's context is marked, so that the reads made for it
	// can be told from those of the outbox and the timers running meanwhile.
	ts.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		handler.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), webRequest{}, true)))
	})
	ts.Start()
	t.Cleanup(func() {
		ts.CloseClientConnections() // the open pages' event streams
		ts.Close()
	})
	return url
}

// webRequest marks the context of a request to the web board (webOn).
type webRequest struct{}

// openBoardLink returns the URL of msg's "Open board" link button.
func openBoardLink(t *testing.T, msg *discordtest.Message) string {
	t.Helper()
	for _, b := range msg.Buttons() {
		if b.Label == "Open board" {
			if b.Style != discordgo.LinkButton || b.URL == "" || b.CustomID != "" {
				t.Fatalf("the Open board button is not a link: %+v", b)
			}
			return b.URL
		}
	}
	t.Fatalf("no Open board link on %q", msg.Content)
	return ""
}

// channelCount counts the messages in the harness's channel that contain text.
func (h *harness) channelCount(text string) int {
	n := 0
	for _, msg := range h.srv.ChannelMessages(h.channel) {
		if strings.Contains(msg.Content, text) {
			n++
		}
	}
	return n
}

// createMessageRoute is Discord's route of a message's create, a DM's too.
const createMessageRoute = "POST /channels/{channel_id}/messages"

// aliceMovesBobsBoardHeld has alice play A4-A5 by slash command while the
// local Discord holds bob's board DM, and returns once the move is stored
// and the board is held: released by the test, or at its end.
func (h *harness) aliceMovesBobsBoardHeld() *discordtest.Hold {
	t := h.t
	t.Helper()
	hold := h.srv.HoldNextIn(t, createMessageRoute, h.bob.DM(), 1)
	t.Cleanup(hold.Release)
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.waitStored(1, 1)
	h.srv.WaitFor(t, "Bob's board to be held", func() bool { return hold.Waiting() == 1 })
	return hold
}
