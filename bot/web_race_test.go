package bot

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// TestWebMoveRacesAChange: a change of the match is stored between the
// moment the bot reads it for Alice's move on the web board and the moment
// it plays the move. Bob's gift of time leaves the board her page showed
// (its basis) as it was, so her move is played, as the same move from the
// Discord menus is (TestMenuMoveRacesAGift): it was refused as made on a
// board that changed, though her page, brought again, showed the same.
// Bob's draw offer changes what her page showed, and the move is refused.
func TestWebMoveRacesAChange(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change storage.ActionKind
		path   string // alice's action: a move, or her resignation
		status int
		moves  int
	}{
		{"a gift of time", storage.ActGiveTime, "/api/move", http.StatusOK, 1},
		{"a draw offer", storage.ActOfferDraw, "/api/move", http.StatusConflict, 0},
		{"a gift of time, resigning", storage.ActGiveTime, "/api/resign", http.StatusOK, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			base := webOn(t, h)
			h.dayMatch()
			h.alice.WaitDM(t, contains("the match begins"))
			h.waitMoves(1, 0)
			link := h.bot.boardLink(h.match(1), game.RedViewer, h.bot.settingsOf(context.Background(), h.alice.ID).LinkGen)
			basis := basisOf(t, base, link)
			change := func() {
				if _, err := h.db.Act(t.Context(), 1, 0, storage.Action{Kind: tc.change, Side: game.Blue, At: h.clock.Now()}); err != nil {
					t.Errorf("bob's %s: %v", tc.name, err)
				}
			}
			body := fmt.Sprintf(`{"basis":%q,"from":30,"to":40}`, basis)
			if tc.path == "/api/resign" {
				body = fmt.Sprintf(`{"basis":%q}`, basis)
				var once sync.Once
				before := func(_ storage.MatchID, a storage.Action) {
					if a.Kind == storage.ActResign {
						once.Do(change)
					}
				}
				h.reads.beforeAct.Store(&before)
			} else {
				h.reads.beforeMove.Store(&change)
			}
			code, answer := apiStatus(t, base, link, "POST", tc.path, body)
			if code != tc.status || (code == http.StatusConflict && !strings.Contains(answer, "The board changed since you looked")) {
				t.Fatalf("alice's web move raced by %s: %d %s; want %d", tc.name, code, answer, tc.status)
			}
			m := h.waitMoves(1, tc.moves)
			if m.Moves() != tc.moves {
				t.Fatalf("after alice's web move raced by %s: %d moves; want %d", tc.name, m.Moves(), tc.moves)
			}
			if resigned := m.Phase == storage.PhaseFinished; resigned != (tc.path == "/api/resign") {
				t.Fatalf("after alice's %s raced by %s the match is %s", tc.path, tc.name, m.Phase)
			}
		})
	}
}
