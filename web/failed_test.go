package web

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestFailureSaysWhatToDo: an action the bot fails on (its database busy,
// a bug) is answered in the page's language with what to do, as Discord's
// answer to a failed command says it: to try again in a moment. "Something
// went wrong." said neither whose trouble it was nor what to do.
func TestFailureSaysWhatToDo(t *testing.T) {
	for _, code := range []string{"en", "nl", "de", "fr"} {
		t.Run(code, func(t *testing.T) {
			f := newFixture(t)
			f.srv.opts.Actor = failingActor{fakeActor: &fakeActor{store: f.store, srv: f.srv, at: f.now}, fail: func(*storage.Match, game.Move) error {
				return errors.New("database is busy")
			}}
			m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
			g, _ := m.Game()
			mv := g.LegalMoves()[0]
			tok := f.token(m.ID, game.RedViewer)
			body, _ := json.Marshal(moveRequest{Basis: f.basis(t, tok), From: uint8(mv.From), To: uint8(mv.To)})
			status, resp, _ := f.do(t, "POST", "/api/move?lang="+code, tok, string(body))
			var got struct{ Error string }
			if err := json.Unmarshal([]byte(resp), &got); err != nil || status != 500 {
				t.Fatalf("answered %d %s (%v)", status, resp, err)
			}
			const en = "Something went wrong on the bot's side: try again in a moment."
			want := lang.For(code).Sprintf(en)
			if code != "en" && want == en {
				t.Fatalf("no %s for %q", code, en)
			}
			if got.Error != want {
				t.Errorf("a failed move says %q, want %q", got.Error, want)
			}
		})
	}
}
