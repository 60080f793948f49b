package render

import (
	"bytes"
	"image"
	"math/rand/v2"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/gametest"
)

// TestSetupPreviewOpponentTray: the opponent's tray row of a set-up preview
// is not left empty: it shows the army of the rules, a mini piece and a
// count for each rank, inked over at least a third of the row's width. It
// tells nothing of a set-up: the opponent's name line and tray are the same
// pixels whatever the previewed set-up, complete or not.
func TestSetupPreviewOpponentTray(t *testing.T) {
	r := renderer(t)
	strip := r.board.strips[0]
	area := strip.name.Union(strip.tray)
	pixels := func(img *image.Paletted, rect image.Rectangle) []byte {
		var out []byte
		for y := rect.Min.Y; y < rect.Max.Y; y++ {
			out = append(out, img.Pix[img.PixOffset(rect.Min.X, y):img.PixOffset(rect.Max.X, y)]...)
		}
		return out
	}
	for _, rules := range testRules(t) {
		for _, side := range []game.Side{game.Red, game.Blue} {
			t.Run(rules.Variant.String()+"/"+side.String(), func(t *testing.T) {
				var first []byte
				for seed := range uint64(3) {
					setup := gametest.Setup(rules, rand.New(rand.NewPCG(seed, uint64(side))))
					if seed == 2 {
						setup[0] = [10]game.Rank{} // incomplete
					}
					var b bytes.Buffer
					if err := r.SetupPreview(&b, setup, side, rules, Options{Names: [2]string{"Ada", "Grace"}}); err != nil {
						t.Fatal(err)
					}
					img := decodePNG(t, b.Bytes())
					// Columns of the tray row with ink other than the page's.
					page := uint8(r.idxPage)
					inked := 0
					for x := strip.tray.Min.X; x < strip.tray.Max.X; x++ {
						for y := strip.tray.Min.Y; y < strip.tray.Max.Y; y++ {
							if img.Pix[img.PixOffset(x, y)] != page {
								inked++
								break
							}
						}
					}
					if inked < strip.tray.Dx()/3 {
						t.Errorf("the opponent's tray row has ink in %d of %d columns", inked, strip.tray.Dx())
					}
					got := pixels(img, area)
					if first == nil {
						first = got
					} else if !bytes.Equal(got, first) {
						t.Errorf("set-up %d changes the opponent's part of the preview", seed)
					}
				}
				sc := r.setupScene(&game.Setup{}, side, rules, Options{})
				var army game.Army
				for _, e := range sc.strips[0].tray {
					army[e.rank] = uint8(e.count)
				}
				if army != rules.Army {
					t.Errorf("the opponent's tray shows %v, the army is %v", army, rules.Army)
				}
			})
		}
	}
}
