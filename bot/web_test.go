package bot

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

	link := b.boardLink(m, game.PublicViewer, 0)
	_, token, _ := strings.Cut(link, "#")
	req, _ := http.NewRequestWithContext(ctx, "GET", url+"/api/events", nil)
	req.Header.Set(web.CapabilityHeader, token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	events := make(chan string, 4)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				events <- data
			}
		}
		close(events)
	}()
	next := func(what string) string {
		t.Helper()
		select {
		case e, ok := <-events:
			if !ok {
				t.Fatalf("the stream ended before %s", what)
			}
			return e
		case <-time.After(10 * time.Second):
			t.Fatalf("no event for %s", what)
		}
		return ""
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
