package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// lockedBuffer is a log's output, written by the server's goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// failingActor fails Red's move the way a bug would, with what the move
// found: the rank of the piece on its square, or the engine's refusal.
type failingActor struct {
	*fakeActor
	fail func(m *storage.Match, mv game.Move) error // nil: it panics instead
}

func (a failingActor) Move(_ context.Context, m *storage.Match, _ Basis, _ game.Side, mv game.Move) error {
	if a.fail != nil {
		return a.fail(m, mv)
	}
	g, _ := m.Game()
	panic(fmt.Sprintf("moving the %s on %s", g.View(game.RedViewer).Board[mv.From].Rank, mv.From))
}

// TestFailuresLogNoSecrets: what a failing request logs, through
// Options.Log or net/http's own error log, names no piece: neither the
// error of an action nor a handler's panic.
func TestFailuresLogNoSecrets(t *testing.T) {
	cases := []struct {
		name string
		fail func(m *storage.Match, mv game.Move) error
		want string // in the log
	}{
		{"a panic", nil, "web: handler panicked"},
		{"an error with the engine's reason", func(m *storage.Match, _ game.Move) error {
			g, _ := m.Game()
			_, err := g.Apply(game.Move{From: flagOf(t, m), To: flagOf(t, m) + 1})
			return fmt.Errorf("a bug passes the refusal on: %w", err)
		}, "illegal move (details withheld"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			var logged, httpLogged lockedBuffer
			logger := slog.New(slog.NewTextHandler(&logged, nil))
			f.srv.opts.Actor = failingActor{fakeActor: &fakeActor{store: f.store, srv: f.srv, at: f.now}, fail: c.fail}
			f.srv.opts.Log = logger.Warn
			ts := httptest.NewUnstartedServer(f.srv)
			ts.Config.ErrorLog = log.New(&httpLogged, "", 0)
			ts.Start()
			t.Cleanup(ts.Close)
			f.ts = ts

			m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
			g, _ := m.Game()
			mv := g.LegalMoves()[0] // Red's: the rank of its piece is Red's secret
			tok := f.token(m.ID, game.RedViewer)
			body, _ := json.Marshal(moveRequest{Basis: f.basis(t, tok), From: uint8(mv.From), To: uint8(mv.To)})
			req, _ := http.NewRequest("POST", ts.URL+"/api/move", bytes.NewReader(body))
			req.Header.Set(CapabilityHeader, tok)
			req.Header.Set("Content-Type", "application/json")
			if resp, err := http.DefaultClient.Do(req); err == nil {
				resp.Body.Close()
			}
			ts.Close() // every handler has returned, and logged

			out := logged.String() + httpLogged.String()
			if !strings.Contains(out, c.want) {
				t.Errorf("the log does not say %q:\n%s", c.want, out)
			}
			for r := game.Spy; r <= game.Flag; r++ {
				if strings.Contains(out, r.Name()) {
					t.Errorf("the log names a %s:\n%s", r.Name(), out)
				}
			}
			if strings.Contains(out, tok) || strings.Contains(out, "0x") {
				t.Errorf("the log holds the link's token or a value's words:\n%s", out)
			}
		})
	}
}

// flagOf is the square of Red's Flag in m.
func flagOf(t *testing.T, m *storage.Match) game.Square {
	t.Helper()
	for s := game.Square(0); s < game.NumSquares; s++ {
		if row, col, ok := game.SetupCell(game.Red, s); ok && m.Setups[game.Red].Setup[row][col] == game.Flag {
			return s
		}
	}
	t.Fatal("Red has no Flag")
	return game.NoSquare
}
