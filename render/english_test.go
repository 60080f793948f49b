package render

import (
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/internal/lang/langtest"
)

// sceneTexts returns every text a picture of sc draws.
func sceneTexts(sc *scene) []string {
	out := []string{sc.status.left, sc.status.right}
	for _, st := range sc.strips {
		out = append(out, st.note, st.sideName, st.label)
		for _, e := range st.tray {
			out = append(out, e.text)
		}
	}
	for _, line := range sc.footer {
		text := ""
		for _, it := range line {
			text += it.text
		}
		out = append(out, text)
	}
	return out
}

// TestNoEnglishLeft draws, in each language but English, the pictures of a
// game from its start, a set-up that is not ready and one that is, and the
// key, and reads what they draw, their alt texts and the text boards: none
// may hold an English sentence of the catalogue.
func TestNoEnglishLeft(t *testing.T) {
	r := renderer(t)
	check := langtest.New()
	red, _ := goldenSetups(t)
	short := red
	short[3][0], short[3][1] = game.NoRank, game.Scout // a piece missing, a Scout too many
	classic := game.DefaultRules(game.VariantClassic)
	for _, l := range lang.Languages()[1:] {
		o := Options{Names: [2]string{"Ada", "Grace"}, Lang: lang.For(l.Code)}
		var texts []string
		for _, plies := range []int{0, 2, 5, 7} {
			g := goldenGame(t, plies)
			for _, viewer := range []game.Viewer{game.RedViewer, game.BlueViewer, game.PublicViewer} {
				v := g.View(viewer)
				sc := r.viewScene(&v, o)
				texts = append(texts, sceneTexts(&sc)...)
				alt, err := AltText(v, o)
				if err != nil {
					t.Fatal(err)
				}
				board, err := TextBoard(v, o)
				if err != nil {
					t.Fatal(err)
				}
				texts = append(texts, alt, board)
			}
		}
		for _, s := range []game.Setup{red, short} {
			sc := r.setupScene(&s, game.Red, classic, o)
			texts = append(texts, sceneTexts(&sc)...)
			alt, err := SetupAltText(s, game.Red, classic, o)
			if err != nil {
				t.Fatal(err)
			}
			texts = append(texts, alt)
		}
		w := words{o.Lang}
		texts = append(texts, w.p.Sprintf(txtKeyTitle), w.p.Sprintf(txtKeyRanks, w.p.Sprintf(txtKeyNumbering(o.Numbering))), w.p.Sprintf(txtKeySquares))
		for _, k := range keyTexts {
			texts = append(texts, w.p.Sprintf(k))
		}
		alt, err := KeyAltText(o)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, alt)
		seen := map[string]bool{}
		for _, text := range texts {
			if english := check.English(text); len(english) > 0 && !seen[text] {
				seen[text] = true
				t.Errorf("%s: English left in %q: %q", l.Code, text, english)
			}
			if d := langtest.Doubled(text); d != "" {
				t.Errorf("%s: %q in %q", l.Code, d, text)
			}
		}
	}
}

// TestKeyFollowsLanguageAndNumbering: the key's alt text is in the reader's
// language and numbers the pieces as the reader does.
func TestKeyFollowsLanguageAndNumbering(t *testing.T) {
	tests := []struct {
		lang      string
		numbering game.Numbering
		want      []string
	}{
		{"en", game.NumberingModern, []string{"Key to the board pictures.", "(modern numbering):", "10 Marshal, 9 General"}},
		{"nl", game.NumberingModern, []string{"Legenda bij de bordafbeeldingen.", "(moderne nummering):", "10 Maarschalk, 9 Generaal"}},
		{"nl", game.NumberingClassic, []string{"(klassieke nummering):", "1 Maarschalk, 2 Generaal"}},
		{"de", game.NumberingClassic, []string{"Legende zu den Brettbildern.", "1 Feldmarschall"}},
		{"fr", game.NumberingModern, []string{"Légende des images du plateau.", "10 Maréchal"}},
	}
	for _, tc := range tests {
		alt, err := KeyAltText(Options{Lang: lang.For(tc.lang), Numbering: tc.numbering})
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(alt, w) {
				t.Errorf("%s, %v: the key's alt text %q lacks %q", tc.lang, tc.numbering, alt, w)
			}
		}
	}
}
