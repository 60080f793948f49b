package render

import (
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
)

// TestSideNamedOnce: every name line and the winner's line name the side
// once, whatever the name, in every language; a name the fonts cannot draw
// at all gives way to the side's name rather than standing beside it.
func TestSideNamedOnce(t *testing.T) {
	r := renderer(t)
	g := goldenGame(t, 7)
	over := goldenGame(t, 7)
	if err := over.Resign(game.Blue); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, in string
		drawn    bool // whether any of in is drawn
	}{
		{"Latin", "Ada", true},
		{"Chinese", "山田太郎", false},
		{"Hebrew", "אבי כהן", false},
		{"Hebrew with a hyphen", "דוד בן-גוריון", false},
		{"Arabic", "مرحبا", false},
		{"emoji", "🎲🎲", false},
		{"empty", "", false},
		{"mixed", "山田 Taro", true},
	} {
		for _, l := range lang.Languages() {
			o := Options{Names: [2]string{tc.in, tc.in}, Lang: lang.For(l.Code), Clocks: [2]string{"1:00", "0:09"}}
			w := words{o.Lang}
			t.Run(tc.name+"/"+l.Code, func(t *testing.T) {
				var strips []playerStrip
				for _, viewer := range []game.Viewer{game.RedViewer, game.BlueViewer, game.PublicViewer} {
					v := g.View(viewer)
					sc := r.viewScene(&v, o)
					strips = append(strips, sc.strips[:]...)
				}
				red, _ := goldenSetups(t)
				sc := r.setupScene(&red, game.Red, game.DefaultRules(game.VariantClassic), o)
				strips = append(strips, sc.strips[:]...)
				for _, ps := range strips {
					name, note := r.stripName(&ps)
					line := name + note
					if n := strings.Count(line, ps.sideName); n != 1 {
						t.Errorf("the name line %q names %s %d times", line, ps.sideName, n)
					}
					if tc.drawn != (name != ps.sideName) {
						t.Errorf("the name line %q: the name drawn is %q", line, name)
					}
				}
				line := lineText(r.winnerItems(w, over.Result(), o.Names))
				if n := strings.Count(line, w.side(game.Red)); n != 1 {
					t.Errorf("the winner's line %q names %s %d times", line, w.side(game.Red), n)
				}
			})
		}
	}
}

// TestNameRoomInEveryLanguage: on a name line with a clock, in every
// language, a long name keeps at least stripNameMin pixels (less an
// ellipsis' width): the side's name leaves the note first.
func TestNameRoomInEveryLanguage(t *testing.T) {
	r := renderer(t)
	g := goldenGame(t, 7)
	const long = "Maximilian von Hohenzollern"
	for _, l := range lang.Languages() {
		for _, clock := range []string{"", "12:05", "1:05:00", "0:25 low"} {
			low := strings.HasSuffix(clock, " low")
			clock = strings.TrimSuffix(clock, " low")
			o := Options{Names: [2]string{long, long}, Lang: lang.For(l.Code), Clocks: [2]string{clock, clock}, LowClocks: [2]bool{low, low}}
			for _, viewer := range []game.Viewer{game.RedViewer, game.PublicViewer} {
				v := g.View(viewer)
				sc := r.viewScene(&v, o)
				for _, ps := range sc.strips {
					w := r.nameRoom(r.board.strips[0].name, &ps)
					name, note := r.stripTexts(&ps, w)
					if got := r.bold.width(name); got < stripNameMin-r.bold.ellipsis.adv.Ceil() {
						t.Errorf("%s, clock %q: the name is drawn %q (%d px) before %q", l.Code, clock, name, got, note)
					}
					if got := r.bold.width(name) + r.noteWidth(&ps, note); got > w {
						t.Errorf("%s: %q and %q are %d px wide in %d", l.Code, name, note, got, w)
					}
				}
			}
		}
	}
}
