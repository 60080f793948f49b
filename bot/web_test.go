package bot

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/bolt"
	"github.com/strategobot/strategobot/web"
)

// TestWebSeesOtherProcesses: on a shared database, a move another process
// stores reaches the pages this process serves, by its poll of the matches
// they show.
func TestWebSeesOtherProcesses(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	db, err := bolt.Open(bolt.Options{Path: filepath.Join(t.TempDir(), "bot.db"), NoSync: true, Reminders: Reminders})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m := &storage.Match{GuildID: "g", ChannelID: "c", Rules: game.DefaultRules(game.VariantBarrage), MoveTime: time.Hour, Created: T0}
	m.Players[game.Red] = storage.Player{UserID: "1", Name: "a"}
	m.Players[game.Blue] = storage.Player{UserID: "2", Name: "b"}
	if m, err = db.CreateMatch(ctx, m); err != nil {
		t.Fatal(err)
	}
	for side := game.Red; side <= game.Blue; side++ {
		if m, err = db.SetSetup(ctx, m.ID, 0, side, game.RandomSetup(m.Rules, uint64(side)+1), storage.SetupConfirmed, T0); err != nil {
			t.Fatal(err)
		}
	}
	clock := discordtest.NewFakeClock(T0)
	b := New(Config{Shared: true, Now: clock.Now}, nil, db, nil)
	ts := httptest.NewUnstartedServer(nil)
	url := "http://" + ts.Listener.Addr().String()
	handler, err := b.EnableWeb(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = handler
	ts.Start()
	defer func() { ts.CloseClientConnections(); ts.Close() }()

	events := webEvents(t, ctx, url, b.boardLink(m, game.PublicViewer, 0))
	next := func(what string) string {
		t.Helper()
		return nextEvent(t, events, what, func(string) bool { return true })
	}
	if first := next("the first state"); strings.Contains(first, `"history":[{`) {
		t.Fatalf("the first state has moves: %s", first)
	}
	// Another process moves: straight into the database, without this bot.
	g, err := m.Game()
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.ApplyMove(ctx, m.ID, m.Version, game.Red, g.LegalMoves()[0], T0); err != nil {
		t.Fatal(err)
	}
	if after := next("the other process's move"); !strings.Contains(after, `"history":[{`) {
		t.Fatalf("the state after the move has no move: %s", after)
	}
}

// webEvents opens the event stream of link's page on the web board at url,
// and returns the data of its events as they come.
func webEvents(t *testing.T, ctx context.Context, url, link string) <-chan string {
	t.Helper()
	_, token, _ := strings.Cut(link, "#")
	req, _ := http.NewRequestWithContext(ctx, "GET", url+"/api/events", nil)
	req.Header.Set(web.CapabilityHeader, token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	events := make(chan string, 64)
	go func() {
		defer close(events)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				events <- data
			}
		}
	}()
	return events
}

// nextEvent returns the next event that is what; it fails the test when the
// stream ends or ten seconds pass first.
func nextEvent(t *testing.T, events <-chan string, what string, is func(string) bool) string {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case e, ok := <-events:
			if !ok {
				t.Fatalf("the stream ended before %s", what)
			}
			if is(e) {
				return e
			}
		case <-timeout:
			t.Fatalf("no event for %s", what)
		}
	}
}

// TestWebClockStarts: when the board of the side to move arrives, its clock
// starts without a new version; the open pages hear of it, with the deadline
// to count down to.
func TestWebClockStarts(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	url := webOn(t, h)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h.startClassic()
	events := webEvents(t, ctx, url, h.bot.boardLink(h.match(1), game.PublicViewer, 0))
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.waitMoves(1, 1)
	h.outboxEmpty()
	m := h.match(1)
	if m.ClockPending || m.Deadline.IsZero() {
		t.Fatalf("bob's clock does not run after his board went out: pending %v, deadline %v", m.ClockPending, m.Deadline)
	}
	want := fmt.Sprintf(`"deadline":%d`, m.Deadline.UnixMilli())
	nextEvent(t, events, "bob's clock's start", func(e string) bool {
		return strings.Contains(e, `"history":[{`) && strings.Contains(e, want)
	})
}

// TestKeptLinks: the menus under a board change as the player picks, and the
// board's link button stays; a row of buttons takes it in, a menu's row
// never does.
func TestKeptLinks(t *testing.T) {
	link := &discordgo.Button{Label: "Open board", Style: discordgo.LinkButton, URL: "https://x.example/board#T"}
	old := &discordgo.Message{Components: []discordgo.MessageComponent{
		&discordgo.ActionsRow{Components: []discordgo.MessageComponent{&discordgo.SelectMenu{CustomID: "m"}}},
		&discordgo.ActionsRow{Components: []discordgo.MessageComponent{&discordgo.Button{Label: "Back", CustomID: "b"}, link}},
	}}
	menu := discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{CustomID: "m2"}}}
	buttons := discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{Label: "Back", CustomID: "b"}}}
	full := []discordgo.MessageComponent{menu, menu, menu, menu, menu}
	tests := []struct {
		name      string
		rows      []discordgo.MessageComponent
		wantRows  int
		wantLinks int
	}{
		{"nothing left", nil, 1, 1},
		{"a menu", []discordgo.MessageComponent{menu}, 2, 1},
		{"a row of buttons", []discordgo.MessageComponent{menu, buttons}, 2, 1},
		{"no room", full, 5, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := keptLinks(old, tc.rows)
			links := 0
			for _, r := range got {
				for _, c := range r.(discordgo.ActionsRow).Components {
					if b, ok := c.(discordgo.Button); ok && b.URL == link.URL {
						links++
					}
				}
			}
			if len(got) != tc.wantRows || links != tc.wantLinks {
				t.Errorf("%d rows with %d links, want %d with %d", len(got), links, tc.wantRows, tc.wantLinks)
			}
		})
	}
	if got := keptLinks(&discordgo.Message{}, nil); got != nil {
		t.Errorf("a message without links gave %v", got)
	}
}

// TestWebRefusalsInThePlayersLanguage: what the web board refuses, it
// refuses in the player's language, with the rules engine's reasons; what
// is no refusal stays an error.
func TestWebRefusalsInThePlayersLanguage(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := bolt.Open(bolt.Options{Path: filepath.Join(t.TempDir(), "bot.db"), NoSync: true, Reminders: Reminders})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m := &storage.Match{GuildID: "g", ChannelID: "c", Rules: game.DefaultRules(game.VariantBarrage), MoveTime: time.Hour, Created: T0}
	m.Players[game.Red] = storage.Player{UserID: "1", Name: "a"}
	m.Players[game.Blue] = storage.Player{UserID: "2", Name: "b"}
	if m, err = db.CreateMatch(ctx, m); err != nil {
		t.Fatal(err)
	}
	if _, err := db.UpdatePlayer(ctx, "2", func(p *storage.PlayerSettings) error { p.Locale = "nl"; return nil }); err != nil {
		t.Fatal(err)
	}
	b := New(Config{Now: discordtest.NewFakeClock(T0).Now}, nil, db, nil)
	a := webActor{b}
	refused := func(err error) string {
		t.Helper()
		var r *web.Refusal
		if !errors.As(err, &r) {
			t.Fatalf("%v is no refusal", err)
		}
		return r.Reason
	}
	seen := func(*storage.Match, *game.Game) error { return nil } // the board the player saw
	if got := refused(a.Move(ctx, m, seen, game.Blue, game.Move{From: 60, To: 50})); !strings.Contains(got, "nog niet begonnen") {
		t.Errorf("a move before the start, in Dutch: %q", got)
	}
	var empty game.Setup
	if got := refused(a.Setup(ctx, m, game.Blue, empty, true)); !strings.Contains(got, "opstelling") {
		t.Errorf("an empty set-up, in Dutch: %q", got)
	}
	if got := refused(a.Setup(ctx, m, game.Red, empty, true)); !strings.Contains(got, "set-up") {
		t.Errorf("an empty set-up, in English: %q", got)
	}
}

// TestWebSetupChecks: the web board's live check and its Save draft and
// Confirm take the one check of a set-up, in one order: a partial set-up is
// told what it lacks (not that none of its pieces can move), a walled one
// that none can move, and the check passes what Save and Confirm accept.
func TestWebSetupChecks(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	base := webOn(t, h)
	h.challenge("Classic")
	link := openBoardLink(t, h.alice.WaitDM(t, contains("Send me your secret set-up")))
	var partial game.Setup
	partial[3][0] = game.Flag
	tests := []struct {
		name  string
		setup game.Setup
		want  string // in the refusal; "" for none
	}{
		{"partial", partial, "not valid"},
		{"walled", walledClassic(t), "none of its pieces can move"},
		{"complete", placed(t, nil), ""},
	}
	for _, tc := range tests {
		body := func(confirm bool) string {
			b, _ := json.Marshal(map[string]any{"setup": tc.setup, "confirm": confirm})
			return string(b)
		}
		code, answer := apiStatus(t, base, link, "POST", "/api/check", body(false))
		var checked struct{ Refusal string }
		if err := json.Unmarshal([]byte(answer), &checked); code != 200 || err != nil {
			t.Fatalf("%s: check answered %d %s", tc.name, code, answer)
		}
		if tc.want == "" && checked.Refusal != "" || !strings.Contains(checked.Refusal, tc.want) {
			t.Fatalf("%s: the check says %q, want %q", tc.name, checked.Refusal, tc.want)
		}
		if tc.want != "" && strings.Contains(checked.Refusal, "none of its pieces can move") != strings.Contains(tc.want, "none of its pieces can move") {
			t.Fatalf("%s: the check says %q", tc.name, checked.Refusal)
		}
		for _, confirm := range []bool{false, true} {
			code, answer := apiStatus(t, base, link, "POST", "/api/setup", body(confirm))
			var refused struct{ Error string }
			_ = json.Unmarshal([]byte(answer), &refused)
			if tc.want == "" {
				if code != 200 {
					t.Fatalf("%s (confirm %v): the check passed it, the board refused it: %d %s", tc.name, confirm, code, answer)
				}
				continue
			}
			if code != 409 || refused.Error != checked.Refusal {
				t.Fatalf("%s (confirm %v): %d %q; the check said %q", tc.name, confirm, code, refused.Error, checked.Refusal)
			}
		}
	}
}

// TestWebDraftsAreSilent: while one player edits their set-up on the web
// (drafts saved, Random pressed), the other player's and the public's open
// pages receive nothing: on Discord the opponent sees none of it, and the
// timing of events would tell when and how often the other side edits.
func TestWebDraftsAreSilent(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	base := webOn(t, h)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h.challenge("Barrage")
	aliceLink := openBoardLink(t, h.alice.WaitDM(t, contains("Send me your secret set-up")))
	h.bob.WaitDM(t, contains("Send me your secret set-up"))
	h.outboxEmpty() // both invites are done: the set-up time runs, and the pages open on it
	m := h.match(1)
	watchers := map[string]<-chan string{
		"bob":    webEvents(t, ctx, base, h.bot.boardLink(m, game.BlueViewer, h.bot.settingsOf(ctx, h.bob.ID).LinkGen)),
		"public": webEvents(t, ctx, base, h.bot.boardLink(m, game.PublicViewer, 0)),
	}
	for who, events := range watchers {
		nextEvent(t, events, who+"'s first state", func(string) bool { return true })
	}
	rules := game.DefaultRules(game.VariantBarrage)
	for i := range 3 {
		draft, _ := json.Marshal(map[string]any{"setup": game.RandomSetup(rules, uint64(i)), "confirm": false})
		if code, body := apiStatus(t, base, aliceLink, "POST", "/api/setup", string(draft)); code != 200 {
			t.Fatalf("alice's draft: %d %s", code, body)
		}
		if code, body := apiStatus(t, base, aliceLink, "POST", "/api/random", "{}"); code != 200 {
			t.Fatalf("alice's Random: %d %s", code, body)
		}
	}
	if v := h.match(1).Version; v < m.Version+6 {
		t.Fatalf("alice's drafts were not stored: version %d after %d", v, m.Version)
	}
	// Bob sets up on Discord: his own draft is the first change his page
	// hears of, his confirmation the public's.
	h.bob.SendDM(t, game.FormatSetup(game.RandomSetup(rules, 9), game.NumberingModern))
	preview := h.bob.WaitDM(t, contains("Your set-up for match"))
	h.bob.ClickButton(t, preview, button(t, preview, "Confirm")).Reply(t)
	for who, first := range map[string]string{"bob": `"setup":[`, "public": `"ready":[false,true]`} {
		next := nextEvent(t, watchers[who], who+"'s next state", func(string) bool { return true })
		if !strings.Contains(next, first) {
			t.Fatalf("%s's page heard of alice's drafts: %s", who, next)
		}
	}
}

// TestHistoryLinksToOwnSide: /stratego history in a server answers only the
// member (ephemeral), so its link opens their own side's board of their
// running match, not the public view.
func TestHistoryLinksToOwnSide(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	base := webOn(t, h)
	h.startClassic()
	for _, tc := range []struct {
		who    *discordtest.Member
		viewer string
	}{{h.alice, "red"}, {h.bob, "blue"}} {
		answer := tc.who.SlashCommand(t, h.channel, "stratego history").Reply(t)
		if !answer.Ephemeral {
			t.Fatalf("the history is not ephemeral: %q", answer.Content)
		}
		link := openBoardLink(t, answer)
		if status, body := apiStatus(t, base, link, "GET", "/api/state", ""); status != http.StatusOK || !strings.Contains(body, `"viewer":"`+tc.viewer+`"`) {
			t.Fatalf("the history link of the %s player: %d %s", tc.viewer, status, body)
		}
	}
}

// TestFollowersGetTheBoardLink: a follower's board DMs carry an "Open
// board" link to the public view; the channel's boards carry none.
func TestFollowersGetTheBoardLink(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	base := webOn(t, h)
	h.startClassic()
	h.carol.SlashCommand(t, h.channel, "stratego watch", discordtest.Opt(optMatch, "1"), discordtest.Opt(optFollow, true)).Reply(t)
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	followed := h.carol.WaitDM(t, contains("alice moved A4-A5"))
	if status, body := apiStatus(t, base, openBoardLink(t, followed), "GET", "/api/state", ""); status != http.StatusOK || !strings.Contains(body, `"viewer":"public"`) {
		t.Fatalf("the follower's link: %d %s", status, body)
	}
	h.outboxEmpty()
	for _, msg := range h.srv.ChannelMessages(h.channel) {
		for _, b := range msg.Buttons() {
			if b.URL != "" {
				t.Fatalf("a link in the channel: %q on %q", b.URL, msg.Content)
			}
		}
	}
}

// TestOneLoadPerWebAction: a set-up or a move made on the web board reads
// its match once outside the store's own transaction, as a Discord menu
// does: the read that checks the link serves the action too, and the bot
// checks the page's basis on the game its last change left instead of a
// replay of its own. A move on a board that changed meanwhile is refused,
// in the player's language, after that one read.
func TestOneLoadPerWebAction(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	base := webOn(t, h)
	ctx := context.Background()
	h.challenge("Classic")
	h.alice.WaitDM(t, contains("Send me your secret set-up"))
	h.bob.WaitDM(t, contains("Send me your secret set-up"))
	m := h.match(1)
	links := map[game.Side]string{
		game.Red:  h.bot.boardLink(m, game.RedViewer, h.bot.settingsOf(ctx, h.alice.ID).LinkGen),
		game.Blue: h.bot.boardLink(m, game.BlueViewer, h.bot.settingsOf(ctx, h.bob.ID).LinkGen),
	}
	for _, side := range []game.Side{game.Red, game.Blue} {
		h.outboxEmpty()
		body, _ := json.Marshal(map[string]any{"setup": placed(t, nil), "confirm": true})
		h.reads.reset()
		if code, answer := apiStatus(t, base, links[side], "POST", "/api/setup", string(body)); code != http.StatusOK {
			t.Fatalf("%s's set-up: %d %s", side, code, answer)
		}
		// Counted by the request alone: the notices of the set-up, sent
		// meanwhile by the outbox, may read it too.
		if n := h.reads.webMatches.Load(); n != 1 {
			t.Errorf("%s's set-up on the web read the match %d times; want 1", side, n)
		}
	}
	h.alice.WaitDM(t, contains("the match begins"))
	h.outboxEmpty()
	// A page's reads read the match once: to check the link, and to answer.
	for _, path := range []string{"/api/state", "/api/texts", "/api/replay?ply=0"} {
		h.reads.reset()
		if code, answer := apiStatus(t, base, links[game.Red], "GET", path, ""); code != http.StatusOK {
			t.Fatalf("GET %s: %d %s", path, code, answer)
		}
		if n := h.reads.webMatches.Load(); n != 1 {
			t.Errorf("GET %s read the match %d times; want 1", path, n)
		}
	}
	stale := basisOf(t, base, links[game.Blue]) // Blue's board, not Red's
	basis := basisOf(t, base, links[game.Red])
	for _, tc := range []struct {
		name, basis string
		status      int
		moves       int64
	}{
		{"on a board that changed", stale, http.StatusConflict, 0},
		{"on the board as it is", basis, http.StatusOK, 1},
	} {
		h.outboxEmpty()
		h.reads.reset()
		replays := h.bot.replays.Load()
		code, answer := apiStatus(t, base, links[game.Red], "POST", "/api/move", fmt.Sprintf(`{"basis":%q,"from":30,"to":40}`, tc.basis))
		if code != tc.status || (code == http.StatusConflict && !strings.Contains(answer, "The board changed since you looked")) {
			t.Fatalf("a web move %s: %d %s", tc.name, code, answer)
		}
		h.outboxEmpty()
		if n, mv := h.reads.matches.Load(), h.reads.moves.Load(); n != 1 || mv != tc.moves {
			t.Errorf("a web move %s: %d matches read, %d ApplyMove; want 1, %d", tc.name, n, mv, tc.moves)
		}
		if r := h.bot.replays.Load() - replays; r != 0 {
			t.Errorf("a web move %s: the bot replayed the match %d times outside the move's own transaction; want 0", tc.name, r)
		}
	}
	if got := h.match(1); len(got.Log) != 1 {
		t.Errorf("the match has %d moves after one web move; want 1", len(got.Log))
	}
}
