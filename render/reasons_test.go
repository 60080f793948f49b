package render

import (
	"errors"
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

// TestSetupRefusalListsTheArmy: a set-up with a word that names no piece is
// refused with what the player may write instead, in their language: the
// labels of that variant's pieces in the numbering read, each with its
// name, and the empty square where the variant has empty squares.
func TestSetupRefusalListsTheArmy(t *testing.T) {
	tests := []struct {
		lang    string
		variant game.Variant
		n       game.Numbering
		want    string
	}{
		{"en", game.VariantClassic, game.NumberingModern,
			`row 1 from the front, column 1: "Zz" is not a piece; write one of 10 (Marshal), 9 (General), 8 (Colonel), 7 (Major), 6 (Captain), 5 (Lieutenant), 4 (Sergeant), 3 (Miner), 2 (Scout), S (Spy), B (Bomb), F (Flag)`},
		{"nl", game.VariantBarrage, game.NumberingModern,
			`rij 1 van voren, kolom 1: "Zz" is geen stuk; kies uit 10 (Maarschalk), 9 (Generaal), 3 (Mineur), 2 (Verkenner), S (Spion), B (Bom), F (Vlag), of . voor een leeg veld`},
		{"de", game.VariantClassic, game.NumberingClassic,
			`"Zz" ist keine Figur; schreib eines dieser Kürzel: 1 (Feldmarschall), 2 (General), 3 (Oberst), 4 (Major), 5 (Hauptmann), 6 (Leutnant), 7 (Unteroffizier), 8 (Mineur), 9 (Aufklärer), S (Spion), B (Bombe), F (Fahne)`},
		{"fr", game.VariantInfiltrator, game.NumberingModern,
			`"Zz" n'est pas une pièce ; écrivez l'un de ces symboles : 10 (Maréchal), 9 (Général), 8 (Colonel), 7 (Commandant), 6 (Capitaine), 5 (Lieutenant), 4 (Sergent), 3 (Démineur), 2 (Éclaireur), S (Espion), I (Infiltrateur), B (Bombe), F (Drapeau)`},
	}
	for _, tc := range tests {
		t.Run(tc.lang+" "+tc.variant.String(), func(t *testing.T) {
			_, _, err := game.ParseSetup("Zz", game.DefaultRules(tc.variant), tc.n)
			var se *game.SetupError
			if !errors.As(err, &se) {
				t.Fatalf("ParseSetup answered %v, want a *game.SetupError", err)
			}
			if got := Reason(lang.For(tc.lang), tc.n, se.Text); !strings.Contains(got, tc.want) {
				t.Errorf("the refusal reads\n  %q\nwant in it\n  %q", got, tc.want)
			}
		})
	}
}
