package render

import (
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
)

func TestResultText(t *testing.T) {
	names := [2]string{"Alice", "Bob"}
	tests := []struct {
		reader game.Viewer
		result game.Result
		want   string
	}{
		{game.RedViewer, game.Result{Outcome: game.RedWon, Method: game.FlagCaptured}, "You won: Bob's Flag was captured."},
		{game.BlueViewer, game.Result{Outcome: game.RedWon, Method: game.FlagCaptured}, "You lost: your Flag was captured."},
		{game.PublicViewer, game.Result{Outcome: game.BlueWon, Method: game.Resignation}, "Bob won: Alice resigned."},
		{game.RedViewer, game.Result{Outcome: game.BlueWon, Method: game.TimeForfeit}, "You lost: you ran out of time."},
		{game.BlueViewer, game.Result{Outcome: game.BlueWon, Method: game.NoMovablePieces}, "You won: Alice has no piece left that can move."},
		{game.PublicViewer, game.Result{Outcome: game.RedWon, Method: game.NoLegalMoves}, "Alice won: Bob has no legal move left."},
		{game.PublicViewer, game.Result{Outcome: game.Drawn, Method: game.DrawAgreed}, "The game is drawn by agreement."},
		{game.RedViewer, game.Result{Outcome: game.Drawn, Method: game.NoMovablePieces}, "The game is drawn: neither side can move."},
		{game.PublicViewer, game.Result{Outcome: game.Drawn, Method: game.MoveLimit}, "The game is drawn at the move limit."},
		{game.PublicViewer, game.Result{}, ""},
	}
	for _, tc := range tests {
		if got := ResultText(lang.Printer{}, tc.result, names, tc.reader); got != tc.want {
			t.Errorf("%v %v: got %q, want %q", tc.reader, tc.result, got, tc.want)
		}
	}
}

// TestResultTextFits: every result, as the pictures word it for every
// viewer, fits the status bar unshortened (the banner gives it the width).
func TestResultTextFits(t *testing.T) {
	r := renderer(t)
	avail := pageW - 2*padX
	outcomes := []game.Outcome{game.RedWon, game.BlueWon, game.Drawn}
	for _, o := range outcomes {
		for m := game.FlagCaptured; m <= game.MoveLimit; m++ {
			for _, v := range []game.Viewer{game.RedViewer, game.BlueViewer, game.PublicViewer} {
				text := ResultText(lang.Printer{}, game.Result{Outcome: o, Method: m}, words{}.sides(), v)
				if got := r.bold.fit(text, avail); got != text || strings.Contains(got, "…") {
					t.Errorf("%q is shortened to %q (%d px, %d available)", text, got, r.bold.width(text), avail)
				}
			}
		}
	}
}
