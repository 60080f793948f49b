package bot

import (
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
)

// TestRefusedSetupIsAShortList: a set-up with the wrong pieces is refused in
// the reader's language with a line for what is missing and a line for what
// is extra, never one long sentence of a clause per rank.
func TestRefusedSetupIsAShortList(t *testing.T) {
	classic := game.DefaultRules(game.VariantClassic)
	var full game.Setup
	i := 0
	for _, r := range game.Ranks {
		for range classic.Army[r] {
			full[i/10][i%10] = r
			i++
		}
	}
	swap := func(pairs ...game.Rank) game.Setup {
		s := full
		for k := 0; k < len(pairs); k += 2 {
		find:
			for row := range s {
				for col := range s[row] {
					if s[row][col] == pairs[k] {
						s[row][col] = pairs[k+1]
						break find
					}
				}
			}
		}
		return s
	}
	twoForScouts := swap(game.Marshal, game.Scout, game.General, game.Scout)
	tests := []struct {
		lang      string
		numbering game.Numbering
		setup     game.Setup
		want      string
	}{
		{"en", game.NumberingModern, twoForScouts, "That set-up is not valid:\nMissing: 1 Marshal, 1 General.\nExtra: 2 Scouts."},
		{"nl", game.NumberingModern, twoForScouts, "Die opstelling klopt niet:\nOntbreekt: 1 Maarschalk, 1 Generaal.\nTe veel: 2 Verkenners."},
		{"de", game.NumberingModern, twoForScouts, "Diese Aufstellung ist ungültig:\nFehlt: 1 Feldmarschall, 1 General.\nZu viel: 2 Aufklärer."},
		{"fr", game.NumberingModern, twoForScouts, "Ce placement ne convient pas :\nIl manque : 1 Maréchal, 1 Général.\nEn trop : 2 Éclaireurs."},
		{"nl", game.NumberingModern, swap(game.Spy, game.NoRank), "Die opstelling klopt niet:\nOntbreekt: 1 Spion."},
		{"de", game.NumberingClassic, swap(game.Scout, game.Bomb), "Diese Aufstellung ist ungültig:\nFehlt: 1 Aufklärer.\nZu viel: 1 Bombe."},
	}
	b := &Bot{}
	for _, tc := range tests {
		err := tc.setup.Validate(classic)
		if err == nil {
			t.Fatalf("%s: the set-up was accepted", tc.lang)
		}
		if got := b.explainIn(lang.For(tc.lang), tc.numbering, err, "test"); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.lang, got, tc.want)
		}
	}
}
