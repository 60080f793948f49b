package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
)

// TestTextsInEveryLanguage reads the alt text and the text board of the same
// positions in each language: the piece names of that language's Stratego
// edition, its plural forms, and no formatting left over.
func TestTextsInEveryLanguage(t *testing.T) {
	ada := Options{Names: [2]string{"Ada", "Grace"}}
	tests := []struct {
		lang   string
		plies  int
		viewer game.Viewer
		want   []string
	}{
		{"en", 2, game.RedViewer, []string{"Blue Captain (6) beats Red Scout (2). Red lost 1 Scout.", "lost: 1 Scout."}},
		{"nl", 2, game.RedViewer, []string{"Jouw Stratego-bord, Klassiek, na zet 2: jij bent Ada (Rood), onderaan",
			"de Kapitein (6) van Blauw verslaat de Verkenner (2) van Rood. Rood verloor 1 Verkenner."}},
		{"nl", 5, game.PublicViewer, []string{"verloren: 2 Verkenners.", "Bom op F7"}},
		{"de", 2, game.RedViewer, []string{"Dein Stratego-Brett, Klassisch, nach Zug 2", "Der Hauptmann (6) von Blau schlägt den Aufklärer (2) von Rot. Rot verlor 1 Aufklärer."}},
		{"de", 5, game.PublicViewer, []string{"verloren: 2 Aufklärer.", "Bombe auf F7"}},
		{"fr", 2, game.RedViewer, []string{"Votre plateau de Stratego, Classique, après le coup 2", "le Capitaine (6) de Bleu bat l'Éclaireur (2) de Rouge. Rouge a perdu 1 Éclaireur."}},
		{"fr", 5, game.PublicViewer, []string{"perdues : 2 Éclaireurs.", "Bombe en F7"}},
	}
	for _, tc := range tests {
		t.Run(tc.lang, func(t *testing.T) {
			o := ada
			o.Lang = lang.For(tc.lang)
			v := goldenGame(t, tc.plies).View(tc.viewer)
			alt, err := AltText(v, o)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(alt, w) {
					t.Errorf("alt text %q\nlacks %q", alt, w)
				}
			}
			board, err := TextBoard(v, o)
			if err != nil {
				t.Fatal(err)
			}
			for _, text := range []string{alt, board} {
				if strings.Contains(text, "%!") || strings.Contains(text, "%[") {
					t.Errorf("a format is left in %q", text)
				}
			}
		})
	}
}

// TestPicturesInEveryLanguage draws every kind of picture in every language:
// long words must fit (the pictures shorten what does not) and differ from
// English where the words do.
func TestPicturesInEveryLanguage(t *testing.T) {
	r := renderer(t)
	g := goldenGame(t, 7)
	red, _ := goldenSetups(t)
	english := map[string][]byte{}
	for _, l := range lang.Languages() {
		o := Options{Names: [2]string{"Ada", "Grace"}, Lang: lang.For(l.Code)}
		pictures := map[string]func(*bytes.Buffer) error{
			"board": func(b *bytes.Buffer) error { return r.Board(b, g.View(game.RedViewer), o) },
			"key":   func(b *bytes.Buffer) error { return r.Key(b, o) },
			"setup": func(b *bytes.Buffer) error {
				return r.SetupPreview(b, red, game.Red, game.DefaultRules(game.VariantClassic), o)
			},
		}
		for name, draw := range pictures {
			var b bytes.Buffer
			if err := draw(&b); err != nil {
				t.Fatalf("%s %s: %v", l.Code, name, err)
			}
			if l.Code == "en" {
				english[name] = b.Bytes()
			} else if bytes.Equal(b.Bytes(), english[name]) {
				t.Errorf("the %s picture in %s is the English one", name, l.Name)
			}
		}
	}
}

// TestListInEveryLanguage reads a list cut short, as an alt text writes its
// lost and known pieces: English puts a comma before "and", German, French
// and Dutch do not.
func TestListInEveryLanguage(t *testing.T) {
	items := []string{"a", "b", "c", "d", "e"}
	for _, tc := range []struct{ lang, want string }{
		{"en", "a, b, c, and 2 more"},
		{"nl", "a, b, c en nog 2"},
		{"de", "a, b, c und 2 weitere"},
		{"fr", "a, b, c et 2 de plus"},
	} {
		w := words{lang.For(tc.lang)}
		if got := w.list(items, 3); got != tc.want {
			t.Errorf("%s: list = %q, want %q", tc.lang, got, tc.want)
		}
		if got, want := w.list(items[:3], 3), "a, b, c"; got != want {
			t.Errorf("%s: the whole list = %q, want %q", tc.lang, got, want)
		}
	}
}

// TestHiddenInEveryLanguage reads how an alt text counts a side's hidden
// pieces and those of them that moved: each number takes its own plural
// form ("2 cachées, dont 1 a bougé", not "dont 1 ont bougé"), none moved,
// as at every game's start, is said in words, and one hidden piece is told
// by itself ("1 pièce cachée, qui a bougé", not "1 cachée, dont 1 a
// bougé", nor "1 hidden, 1 of them moved").
func TestHiddenInEveryLanguage(t *testing.T) {
	for _, tc := range []struct {
		lang          string
		hidden, moved int
		want          string
	}{
		{"en", 40, 0, "Blue: 40 hidden, none of them moved."},
		{"en", 3, 1, "Blue: 3 hidden, 1 of them moved."},
		{"en", 1, 1, "Blue: 1 hidden piece, which has moved."},
		{"en", 1, 0, "Blue: 1 hidden piece, which has not moved."},
		{"nl", 40, 0, "Blauw: 40 verborgen, geen ervan bewogen."},
		{"nl", 2, 1, "Blauw: 2 verborgen, waarvan 1 bewogen."},
		{"nl", 1, 1, "Blauw: 1 verborgen stuk, dat heeft bewogen."},
		{"nl", 1, 0, "Blauw: 1 verborgen stuk, dat niet heeft bewogen."},
		{"de", 40, 0, "Blau: 40 verdeckt, keine davon gezogen."},
		{"de", 2, 1, "Blau: 2 verdeckt, davon 1 gezogen."},
		{"de", 1, 1, "Blau: 1 verdeckte Figur, die gezogen hat."},
		{"de", 1, 0, "Blau: 1 verdeckte Figur, die nicht gezogen hat."},
		{"fr", 40, 0, "Bleu : 40 cachées, aucune n'a bougé."},
		{"fr", 2, 1, "Bleu : 2 cachées, dont 1 a bougé."},
		{"fr", 1, 1, "Bleu : 1 pièce cachée, qui a bougé."},
		{"fr", 1, 0, "Bleu : 1 pièce cachée, qui n'a pas bougé."},
		{"fr", 5, 2, "Bleu : 5 cachées, dont 2 ont bougé."},
	} {
		d := describer{w: words{lang.For(tc.lang)}}
		if got := d.hiddenText(game.Blue, tc.hidden, tc.moved); got != tc.want {
			t.Errorf("%s, %d hidden, %d moved: %q, want %q", tc.lang, tc.hidden, tc.moved, got, tc.want)
		}
	}
	// The whole alt text of Barrage games played to the end, where a side
	// is often down to one hidden piece.
	fr := Options{Lang: lang.For("fr")}
	seen := 0
	for seed := uint64(1); seed <= 20; seed++ {
		rules := game.DefaultRules(game.VariantBarrage)
		g, err := game.NewGame(rules, game.RandomSetup(rules, seed), game.RandomSetup(rules, seed+100))
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; !g.Result().Over() && i < 400; i++ {
			moves := g.LegalMoves()
			if _, err := g.Apply(moves[(i*7919+int(seed))%len(moves)]); err != nil {
				t.Fatal(err)
			}
			alt, err := AltText(g.View(game.PublicViewer), fr)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(alt, " : 1 pièce cachée, qui ") {
				seen++
				if strings.Contains(alt, " : 1 caché") || strings.Contains(alt, "dont 1 ont") {
					t.Fatalf("seed %d, move %d: %q", seed, g.Ply(), alt)
				}
			}
		}
	}
	if seen == 0 {
		t.Fatal("no side was down to one hidden piece")
	}
}
