package render

import (
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
)

// TestAltTextBattleArticles: an alt text tells a battle with the articles
// each language puts before the pieces, the one a Bomb takes included: "Der
// Mineur (3) von Rot entschärft die Bombe von Blau", "l'Éclaireur (2) de
// Rouge saute sur la Bombe de Bleu". German and French wrote every battle
// without its first article ("Aufklärer (2) von Rot erobert die Fahne von
// Blau", "Éclaireur (2) de Rouge prend le Drapeau de Bleu"), as the
// defender's article could not follow a Bomb ("den Bombe").
func TestAltTextBattleArticles(t *testing.T) {
	m := func(from, to string) game.Move { return game.Move{From: sq(t, from), To: sq(t, to)} }
	battle := func(outcome game.BattleOutcome, att, def game.Rank) game.MoveRecord {
		return game.MoveRecord{Side: game.Red, Move: m("B4", "B5"), Outcome: outcome, Attacker: att, Defender: def}
	}
	tests := []struct {
		name string
		rec  game.MoveRecord
		want map[string]string
	}{
		{"beats", battle(game.AttackerWon, game.Captain, game.Scout), map[string]string{
			"en": "Red Captain (6) beats Blue Scout (2)",
			"nl": "de Kapitein (6) van Rood verslaat de Verkenner (2) van Blauw",
			"de": "Der Hauptmann (6) von Rot schlägt den Aufklärer (2) von Blau",
			"fr": "le Capitaine (6) de Rouge bat l'Éclaireur (2) de Bleu",
		}},
		{"the Spy takes the Marshal", battle(game.AttackerWon, game.Spy, game.Marshal), map[string]string{
			"en": "Red Spy beats Blue Marshal (10)",
			"nl": "de Spion van Rood verslaat de Maarschalk (10) van Blauw",
			"de": "Der Spion von Rot schlägt den Feldmarschall (10) von Blau",
			"fr": "l'Espion de Rouge bat le Maréchal (10) de Bleu",
		}},
		{"loses to", battle(game.DefenderWon, game.Scout, game.Major), map[string]string{
			"en": "Red Scout (2) loses to Blue Major (7)",
			"nl": "de Verkenner (2) van Rood verliest van de Majoor (7) van Blauw",
			"de": "Der Aufklärer (2) von Rot verliert gegen den Major (7) von Blau",
			"fr": "l'Éclaireur (2) de Rouge perd contre le Commandant (7) de Bleu",
		}},
		{"a Miner defuses a Bomb", battle(game.AttackerWon, game.Miner, game.Bomb), map[string]string{
			"en": "Red Miner (3) beats Blue Bomb",
			"nl": "de Mineur (3) van Rood ontmantelt de Bom van Blauw",
			"de": "Der Mineur (3) von Rot entschärft die Bombe von Blau",
			"fr": "le Démineur (3) de Rouge désamorce la Bombe de Bleu",
		}},
		{"a Scout hits a Bomb", battle(game.DefenderWon, game.Scout, game.Bomb), map[string]string{
			"en": "Red Scout (2) loses to Blue Bomb",
			"nl": "de Verkenner (2) van Rood loopt op de Bom van Blauw",
			"de": "Der Aufklärer (2) von Rot läuft auf die Bombe von Blau",
			"fr": "l'Éclaireur (2) de Rouge saute sur la Bombe de Bleu",
		}},
		{"both fall", battle(game.BothRemoved, game.Major, game.Major), map[string]string{
			"en": "Red Major (7) and Blue Major (7) both fall",
			"nl": "de Majoor (7) van Rood en de Majoor (7) van Blauw vallen allebei",
			"de": "Der Major (7) von Rot und der Major (7) von Blau fallen beide",
			"fr": "le Commandant (7) de Rouge et le Commandant (7) de Bleu tombent tous les deux",
		}},
		{"the Flag captured", battle(game.AttackerWon, game.Scout, game.Flag), map[string]string{
			"en": "Red Scout (2) captures the Blue Flag",
			"nl": "de Verkenner (2) van Rood verovert de Vlag van Blauw",
			"de": "Der Aufklärer (2) von Rot erobert die Fahne von Blau",
			"fr": "l'Éclaireur (2) de Rouge prend le Drapeau de Bleu",
		}},
	}
	for _, tc := range tests {
		for _, l := range lang.Languages() {
			v := goldenGame(t, 7).View(game.PublicViewer)
			v.History[len(v.History)-1] = tc.rec
			got, err := AltText(v, Options{Names: [2]string{"Ada", "Grace"}, Lang: lang.For(l.Code)})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(got, tc.want[l.Code]+".") {
				t.Errorf("%s, %s:\ngot  %q\nwant %q in it", tc.name, l.Code, got, tc.want[l.Code])
			}
		}
	}
}
