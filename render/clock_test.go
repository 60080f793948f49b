package render

import (
	"bytes"
	"image"
	"image/png"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
)

// TestClocksShown: a game on the clock shows each side's time beside its
// name, in the picture (it changes, and stays within the page) and in the
// alt text; a game over shows no clock.
func TestClocksShown(t *testing.T) {
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	rules := game.DefaultRules(game.VariantClassic)
	g, err := game.NewGame(rules, game.RandomSetup(rules, 1), game.RandomSetup(rules, 2))
	if err != nil {
		t.Fatal(err)
	}
	v := g.View(game.ViewerOf(game.Blue))
	plain := Options{Names: [2]string{"Ada", "Grace"}}
	clocked := plain
	clocked.Clocks = [2]string{"9:05", "10:00"}
	var a, b bytes.Buffer
	if err := r.Board(&a, v, plain); err != nil {
		t.Fatal(err)
	}
	if err := r.Board(&b, v, clocked); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("the clocks do not show in the picture")
	}
	if _, err := png.Decode(bytes.NewReader(b.Bytes())); err != nil {
		t.Fatal(err)
	}
	alt, err := AltText(v, clocked)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(alt, "Time left: Ada (Red) 9:05, Grace (Blue) 10:00.") {
		t.Errorf("alt text %q", alt)
	}
}

// TestLowClockWarns: a clock low on time (Options.LowClocks) changes its
// side's name line on a phone, in greyscale, by at least lowClockMin pixels
// of markLevel or more, in every language and with a long name; the other
// side's line does not change.
func TestLowClockWarns(t *testing.T) {
	r := renderer(t)
	const markLevel, lowClockMin = 50, 150 // now 236 to 388; was 0
	v := goldenGame(t, 7).View(game.RedViewer)
	l := &r.board
	scale := func(rect image.Rectangle) image.Rectangle {
		f := func(x int) int { return int(float64(x) * phoneScale) }
		return image.Rect(f(rect.Min.X), f(rect.Min.Y), f(rect.Max.X), f(rect.Max.Y)+1)
	}
	for _, tc := range []struct {
		name  string
		names [2]string
		clock string
	}{
		{"short name", [2]string{"Ada", "Grace"}, "0:25"},
		{"long name", [2]string{"Maximilian von Hohenzollern", "Grace"}, "0:25"},
		{"hours", [2]string{"Ada", "Grace"}, "1:00:59"},
	} {
		for _, language := range lang.Languages() {
			t.Run(tc.name+"/"+language.Code, func(t *testing.T) {
				o := Options{Names: tc.names, Clocks: [2]string{tc.clock, "9:05"}, Lang: lang.For(language.Code)}
				plain := onPhone(decodePNG(t, boardPNG(t, r, v, o)))
				o.LowClocks[game.Red] = true
				low := onPhone(decodePNG(t, boardPNG(t, r, v, o)))
				// Red, the viewer, is at the bottom.
				if got := difference(plain, low, scale(l.strips[1].name), markLevel); got < lowClockMin {
					t.Errorf("the low clock changes %d pixels of its line by %d levels of 255 or more, want %d", got, markLevel, lowClockMin)
				}
				if got := difference(plain, low, scale(l.strips[0].name), 1); got != 0 {
					t.Errorf("Red's low clock changes %d pixels of Blue's line", got)
				}
			})
		}
	}
}
