package render

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
)

// TestTrayCountsFit lays out the trays of every variant, and of custom
// armies with ten pieces or more of a rank, on a board and in a set-up
// preview: each count is drawn whole, at least a pixel before the next
// mini piece (a "12" ran under it and read "1"), and says the count; a
// count of one digit is bold in Classic as in Barrage and Duel (Classic's
// were in the smaller font for want of 2 pixels).
func TestTrayCountsFit(t *testing.T) {
	r := renderer(t)
	width := r.board.strips[1].tray.Dx() - 2*padX
	rules := testRules(t)
	for _, army := range []string{
		"10 9 8 7 6 5 4 3 2 2 2 2 2 2 2 2 2 2 2 2 S I B B B B B B B B B B B F",             // 13 ranks, 12 Scouts, 11 Bombs
		"10 9 8 7 6 5 4 3 2 2 2 2 2 2 2 2 2 2 2 2 S B B B B B B B B B B F",                 // 12 ranks
		"10 3 3 3 3 3 3 3 3 3 3 2 2 2 2 2 2 2 2 2 2 2 2 B B B B B B B B B B F",             // 10 Miners, 12 Scouts, 10 Bombs
		"10 9 8 7 6 5 4 3 3 3 3 3 3 3 3 3 3 2 2 2 2 2 2 2 2 2 2 S I B B B B B B B B B B F", // the widest: 13 ranks, three of 10
	} {
		a, err := game.ParseArmy(army, game.NumberingModern)
		if err != nil {
			t.Fatalf("ParseArmy(%q): %v", army, err)
		}
		custom := game.DefaultRules(game.VariantCustom)
		custom.Army = a
		rules = append(rules, custom)
	}
	for _, rl := range rules {
		g, err := game.NewGame(rl, game.RandomSetup(rl, 1), game.RandomSetup(rl, 2))
		if err != nil {
			t.Fatalf("%s: %v", rl.Army, err)
		}
		v := g.View(game.RedViewer)
		board := r.viewScene(&v, Options{})
		red := game.RandomSetup(rl, 1)
		red[0][0], red[0][1] = game.NoRank, game.NoRank // wrong counts: "1/12"
		setup := r.setupScene(&red, game.Red, rl, Options{})
		empty := r.setupScene(&game.Setup{}, game.Red, rl, Options{})
		for what, tray := range map[string][]trayEntry{
			"board": board.strips[1].tray, "set-up": setup.strips[1].tray, "empty set-up": empty.strips[1].tray,
			"opponent's in a set-up": setup.strips[0].tray,
		} {
			name := fmt.Sprintf("%s %s, %s tray", rl.Variant, rl.Army, what)
			cells := r.layoutTray(tray, width)
			for i, c := range cells {
				e := tray[i]
				if c.text != e.text && c.text != strconv.Itoa(e.count) {
					t.Errorf("%s: the %s count %q is drawn %q", name, e.rank, e.text, c.text)
				}
				if n, _, _ := strings.Cut(c.text, "/"); n != strconv.Itoa(e.count) {
					t.Errorf("%s: %d %s are drawn %q", name, e.count, e.rank, c.text)
				}
				end, next := c.tx+c.a.width(c.text), width+1
				if i+1 < len(cells) {
					next = cells[i+1].x
				}
				if end >= next || c.x < 0 {
					t.Errorf("%s: the %s count %q ends at %d, the next mini piece starts at %d", name, e.rank, c.text, end, next)
				}
				if rl.Variant <= game.VariantDuel && len(c.text) == 1 && c.a != r.bold {
					t.Errorf("%s: the %s count %q is not bold", name, e.rank, c.text)
				}
			}
		}
	}
}
