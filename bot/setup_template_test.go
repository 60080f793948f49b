package bot

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage"
)

// TestSetupTemplateInEveryLanguage: the set-up template's comments are in
// the player's language, with the pieces named as their edition names them,
// and the template still reads back as its example (the side's own in the
// match) in either numbering.
func TestSetupTemplateInEveryLanguage(t *testing.T) {
	want := map[string][]string{
		"en": {"front row (next to the lakes) first", "40 pieces:", "1 Marshal (10)", "6 Bombs (B)", "Modern numbers: Marshal 10"},
		"nl": {"voorste rij (naast de meren) eerst", "40 stukken:", "1 Maarschalk (10)", "6 Bommen (B)", "Moderne nummers: Maarschalk 10"},
		"de": {"vordere Reihe (an den Seen) zuerst", "40 Figuren:", "1 Feldmarschall (10)", "6 Bomben (B)", "Moderne Zahlen: Feldmarschall 10"},
		"fr": {"rangée avant (près des lacs)", "40 pièces :", "1 Maréchal (10)", "6 Bombes (B)", "Numéros modernes : Maréchal 10"},
	}
	for _, l := range lang.Languages() {
		p := lang.For(l.Code)
		for _, v := range []game.Variant{game.VariantClassic, game.VariantBarrage, game.VariantInfiltrator} {
			rules := game.DefaultRules(v)
			secret, err := storage.NewSecret()
			if err != nil {
				t.Fatal(err)
			}
			m := &storage.Match{Rules: rules, Secret: secret}
			for k, n := range []game.Numbering{game.NumberingModern, game.NumberingClassic} {
				side := game.Side(k)
				tpl := setupTemplate(p, m, side, n)
				s, got, err := game.ParseSetup(tpl, rules, game.NumberingModern)
				if err != nil || got != n || s != setupExample(m, side) {
					t.Fatalf("%s %s %v: the template reads as %v, %v:\n%s", l.Code, v, n, got, err, tpl)
				}
				for _, line := range strings.Split(tpl, "\n") {
					if strings.HasPrefix(line, "#") && utf8.RuneCountInString(line) > 80 {
						t.Errorf("%s %s: a comment line of %d characters: %q", l.Code, v, utf8.RuneCountInString(line), line)
					}
				}
				if v == game.VariantClassic && n == game.NumberingModern {
					for _, w := range want[l.Code] {
						if !strings.Contains(tpl, w) {
							t.Errorf("%s: the template lacks %q:\n%s", l.Code, w, tpl)
						}
					}
				}
			}
		}
	}
}
