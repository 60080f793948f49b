package render

import (
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
)

// TestInfiltratorGuessReadsNaturally: an Infiltrator's guess is written with
// each language's article for every rank it may name, in the picture's
// line of the last move (a wrong guess) and in the alt text: German kein
// or keine (eine Bombe, die Fahne), French un or une (une Bombe, le
// Drapeau), English a or an (an Infiltrator), the Flag being the only one.
func TestInfiltratorGuessReadsNaturally(t *testing.T) {
	// For each language, by rank: the wrong guess's words after the
	// Infiltrator in the picture, and the guess in the alt text.
	want := map[string]map[game.Rank][2]string{
		"en": {
			game.Marshal: {" misses: not a Marshal", "is a Marshal (10): wrong"}, game.Infiltrator: {" misses: not an Infiltrator", "is an Infiltrator: wrong"},
			game.Bomb: {" misses: not a Bomb", "is a Bomb: wrong"}, game.Flag: {" misses: not the Flag", "is the Flag: wrong"},
		},
		"nl": {
			game.Marshal: {" mist: geen Maarschalk", "een Maarschalk (10) is: fout"}, game.Flag: {" mist: niet de Vlag", "de Vlag is: fout"},
		},
		"de": {
			game.Spy: {" irrt sich: kein Spion", "sei ein Spion: falsch"}, game.Scout: {" irrt sich: kein Aufklärer", "sei ein Aufklärer (2): falsch"},
			game.Miner: {" irrt sich: kein Mineur", "sei ein Mineur (3): falsch"}, game.Sergeant: {" irrt sich: kein Unteroffizier", "sei ein Unteroffizier (4): falsch"},
			game.Lieutenant: {" irrt sich: kein Leutnant", "sei ein Leutnant (5): falsch"}, game.Captain: {" irrt sich: kein Hauptmann", "sei ein Hauptmann (6): falsch"},
			game.Major: {" irrt sich: kein Major", "sei ein Major (7): falsch"}, game.Colonel: {" irrt sich: kein Oberst", "sei ein Oberst (8): falsch"},
			game.General: {" irrt sich: kein General", "sei ein General (9): falsch"}, game.Marshal: {" irrt sich: kein Feldmarschall", "sei ein Feldmarschall (10): falsch"},
			game.Bomb: {" irrt sich: keine Bombe", "sei eine Bombe: falsch"}, game.Flag: {" irrt sich: nicht die Fahne", "sei die Fahne: falsch"},
			game.Infiltrator: {" irrt sich: kein Infiltrant", "sei ein Infiltrant: falsch"},
		},
		"fr": {
			game.Spy: {" rate : pas un Espion", "est un Espion : faux"}, game.Scout: {" rate : pas un Éclaireur", "est un Éclaireur (2) : faux"},
			game.Miner: {" rate : pas un Démineur", "est un Démineur (3) : faux"}, game.Sergeant: {" rate : pas un Sergent", "est un Sergent (4) : faux"},
			game.Lieutenant: {" rate : pas un Lieutenant", "est un Lieutenant (5) : faux"}, game.Captain: {" rate : pas un Capitaine", "est un Capitaine (6) : faux"},
			game.Major: {" rate : pas un Commandant", "est un Commandant (7) : faux"}, game.Colonel: {" rate : pas un Colonel", "est un Colonel (8) : faux"},
			game.General: {" rate : pas un Général", "est un Général (9) : faux"}, game.Marshal: {" rate : pas un Maréchal", "est un Maréchal (10) : faux"},
			game.Bomb: {" rate : pas une Bombe", "est une Bombe : faux"}, game.Flag: {" rate : pas le Drapeau", "est le Drapeau : faux"},
			game.Infiltrator: {" rate : pas un Infiltrateur", "est un Infiltrateur : faux"},
		},
	}
	for _, code := range []string{"de", "fr"} {
		if len(want[code]) != len(game.Ranks) {
			t.Fatalf("%s: the test names %d ranks, not every one of %d", code, len(want[code]), len(game.Ranks))
		}
	}
	for code, ranks := range want {
		o := Options{Names: [2]string{"Ada", "Grace"}, Lang: lang.For(code)}
		for r, w := range ranks {
			rec := game.MoveRecord{Side: game.Red, Move: game.Move{From: sq(t, "B4"), To: sq(t, "B5"), Guess: r}, Outcome: game.GuessedWrong, Attacker: game.Infiltrator}
			line := moveItems(rec, 7, o)[1]
			if got := line[len(line)-1].text; got != w[0] {
				t.Errorf("%s, %s guessed wrong: the picture says %q, want %q", code, r, got, w[0])
			}
			v := goldenGame(t, 7).View(game.PublicViewer)
			v.History[len(v.History)-1] = rec
			alt, err := AltText(v, o)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(alt, w[1]) {
				t.Errorf("%s, %s guessed wrong: the alt text says %q, want %q in it", code, r, alt, w[1])
			}
		}
	}
}
