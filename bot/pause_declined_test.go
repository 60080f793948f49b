package bot

import (
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage"
)

// TestDeclinedAlreadySaysWho: an answer to a proposal to pause that was
// answered meanwhile is told, in the player's language, who ended the
// proposal and whose it was: alice withdrawing her own proposal after bob
// declined it reads that bob declined it, not that he withdrew it.
func TestDeclinedAlreadySaysWho(t *testing.T) {
	t.Parallel()
	b := &Bot{}
	fr := lang.For("fr")
	tests := []struct {
		name      string
		offerBy   game.Side // the proposal's
		declineBy game.Side // the decline's, or withdrawal's
		answerBy  game.Side // the answer refused
		want      string
	}{
		{"the proposer withdraws one the opponent declined", game.Red, game.Blue, game.Red, fr.Sprintf(txtPauseDeclinedBy, "bob")},
		{"the opponent answers one its proposer withdrew", game.Red, game.Red, game.Blue, fr.Sprintf(txtPauseWithdrawnBy, "alice")},
		{"the opponent answers one it declined", game.Red, game.Blue, game.Blue, fr.Sprintf(txtPauseDeclinedAlready)},
		{"the proposer withdraws one it withdrew", game.Red, game.Red, game.Red, fr.Sprintf(txtPauseWithdrawn)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := &storage.Match{ID: 1, Phase: storage.PhasePlaying}
			m.Players[game.Red] = storage.Player{UserID: "a", Name: "alice"}
			m.Players[game.Blue] = storage.Player{UserID: "b", Name: "bob"}
			m.Log = []storage.Action{
				{Kind: storage.ActOfferPause, Side: tc.offerBy, Days: 3},
				{Kind: storage.ActDeclinePause, Side: tc.declineBy},
			}
			err := b.declinedAlready(m, tc.answerBy)
			if err == nil {
				t.Fatal("not refused")
			}
			if got := b.explain(fr, err, "pause"); got != tc.want {
				t.Errorf("told %q; want %q", got, tc.want)
			}
		})
	}
}
