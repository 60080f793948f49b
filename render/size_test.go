package render

import (
	"bytes"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/gametest"
	"github.com/strategobot/strategobot/internal/lang"
)

// maxBoardBytes is the most a board picture may take: Discord shows it at
// once on a phone's connection. (Texts and symbols of 9 px on a phone made
// the largest board about 3% larger, 24.5 KB to 25.2 KB; a Scout's trail
// and a low clock's box another 0.6%, to 25.7 KB of 1,326 boards.)
const maxBoardBytes = 26_000

// TestBoardSizeLimit: boards of every variant, every viewer and every
// language, from the opening to late in a game, stay within maxBoardBytes.
// (BenchmarkBoardSizes measures many more.)
func TestBoardSizeLimit(t *testing.T) {
	r := renderer(t)
	languages := lang.Languages()
	var buf bytes.Buffer
	largest, boards := 0, 0
	type sample struct {
		rules      game.Rules
		seed       uint64
		every, end int
	}
	var samples []sample
	for k, rules := range testRules(t) {
		samples = append(samples, sample{rules, uint64(k + 1), 60, 240})
	}
	// Mid-game Classic boards from Blue's side are the largest: more of them.
	classic := game.DefaultRules(game.VariantClassic)
	samples = append(samples, sample{classic, 1, 20, 360}, sample{classic, 2, 20, 260})
	for _, sm := range samples {
		rules := sm.rules
		gametest.Game(t, rules, sm.seed, sm.end, func(g *game.Game) bool {
			if g.Ply()%sm.every != 0 {
				return true
			}
			for j, v := range []game.Viewer{game.RedViewer, game.BlueViewer, game.PublicViewer} {
				o := Options{Names: goldenNames, Lang: lang.For(languages[(boards+j)%len(languages)].Code)}
				buf.Reset()
				if err := r.Board(&buf, g.View(v), o); err != nil {
					t.Fatal(err)
				}
				boards++
				largest = max(largest, buf.Len())
				if buf.Len() > maxBoardBytes {
					t.Errorf("%s at ply %d, %s, %s: %d bytes, more than %d", rules.Variant, g.Ply(), v, o.Lang.Code(), buf.Len(), maxBoardBytes)
				}
			}
			return true
		})
	}
	if boards < 30 {
		t.Fatalf("only %d boards drawn", boards)
	}
	t.Logf("%d boards, the largest %d bytes", boards, largest)
}
