package web

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// errDown is a database that does not answer for a moment.
var errDown = errors.New("connection refused")

// downLinks fails the player's link generation while down.
type downLinks struct {
	Links
	mu   sync.Mutex
	down bool
}

func (l *downLinks) LinkGeneration(ctx context.Context, user string) (uint32, error) {
	l.mu.Lock()
	down := l.down
	l.mu.Unlock()
	if down {
		return 0, fmt.Errorf("read player %s: %w", user, errDown)
	}
	return l.Links.LinkGeneration(ctx, user)
}

// downMatches fails the reads of matches while down.
type downMatches struct {
	Matches
	mu   sync.Mutex
	down bool
}

func (d *downMatches) Match(ctx context.Context, id storage.MatchID) (*storage.Match, error) {
	d.mu.Lock()
	down := d.down
	d.mu.Unlock()
	if down {
		return nil, fmt.Errorf("read match %d: %w", id, errDown)
	}
	return d.Matches.Match(ctx, id)
}

// TestLinkCheckFailureIsNotARefusal: a player's link whose check could not
// be made (the database that keeps the match or the player's link
// generation did not answer) is not refused as invalid, a 403 the page takes
// for good ("this link is not valid any more"): it is the bot's trouble,
// logged and answered 500, which the page tries again. Once the database is
// back, the same link works.
func TestLinkCheckFailureIsNotARefusal(t *testing.T) {
	for _, tc := range []struct {
		name string
		down func(links *downLinks, matches *downMatches, down bool)
	}{
		{"link generation", func(l *downLinks, _ *downMatches, down bool) { l.mu.Lock(); l.down = down; l.mu.Unlock() }},
		{"match", func(_ *downLinks, m *downMatches, down bool) { m.mu.Lock(); m.down = down; m.mu.Unlock() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			var mu sync.Mutex
			var logged []string
			f.srv.opts.Log = func(msg string, args ...any) {
				mu.Lock()
				defer mu.Unlock()
				logged = append(logged, fmt.Sprint(msg, args))
			}
			links, matches := &downLinks{Links: f.links}, &downMatches{Matches: f.store}
			auth := f.srv.opts.Auth.(*CapabilityAuth)
			auth.Links, auth.Matches = links, matches
			m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
			red := f.token(m.ID, game.RedViewer)

			tc.down(links, matches, true)
			for _, path := range []string{"/api/state", "/api/texts", "/api/events"} {
				code, body, _ := f.do(t, "GET", path, red, "")
				if code != 500 || !strings.Contains(body, lang.For("").Sprintf(txtFailed)) {
					t.Errorf("%s while the database is down: %d %s, want 500 saying the bot failed", path, code, body)
				}
			}
			mu.Lock()
			if len(logged) == 0 || !strings.Contains(strings.Join(logged, "\n"), errDown.Error()) {
				t.Errorf("the failure is not logged: %q", logged)
			}
			mu.Unlock()

			tc.down(links, matches, false)
			if code, body, _ := f.do(t, "GET", "/api/state", red, ""); code != 200 {
				t.Errorf("the database back: %d %s", code, body)
			}
		})
	}
}
