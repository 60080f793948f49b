package render

import (
	"bytes"
	"image/png"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
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
