package render

import (
	"bytes"
	"flag"
	"image"
	"image/gif"
	"os"
	"path/filepath"
	"testing"

	"github.com/strategobot/strategobot/game"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/golden")

// goldenNames are player names as Discord may give them: an accent, emoji, a
// zero-width joiner, Chinese characters (which the Go fonts lack), and length.
var goldenNames = [2]string{"Zoë 🐉 of the Lakes", "Гриша 张伟 the Very Patient Strategist of Many Long Games 👨‍👩‍👧"}

// TestGolden compares pictures of fixed positions with the images in
// testdata/golden. After a deliberate change of the pictures, look at them and
// run `go test ./render -run TestGolden -update`.
func TestGolden(t *testing.T) {
	r := renderer(t)
	ada := Options{Names: [2]string{"Ada", "Grace"}}
	tests := []struct {
		name  string
		write func(t *testing.T, w *bytes.Buffer) error
	}{
		{"start-red", func(t *testing.T, w *bytes.Buffer) error {
			return r.Board(w, goldenGame(t, 0).View(game.RedViewer), ada)
		}},
		{"captain-takes-scout-blue-classic", func(t *testing.T, w *bytes.Buffer) error {
			return r.Board(w, goldenGame(t, 2).View(game.BlueViewer), Options{Names: ada.Names, Numbering: game.NumberingClassic})
		}},
		{"scout-hits-bomb-public", func(t *testing.T, w *bytes.Buffer) error {
			return r.Board(w, goldenGame(t, 5).View(game.PublicViewer), ada)
		}},
		{"draw-offer-red-unicode-names", func(t *testing.T, w *bytes.Buffer) error {
			g := goldenGame(t, 7)
			if err := g.OfferDraw(game.Blue); err != nil {
				t.Fatal(err)
			}
			return r.Board(w, g.View(game.RedViewer), Options{Names: goldenNames})
		}},
		{"reveal", func(t *testing.T, w *bytes.Buffer) error {
			g := goldenGame(t, 7)
			if err := g.Resign(game.Red); err != nil {
				t.Fatal(err)
			}
			v, ok := g.Reveal()
			if !ok {
				t.Fatal("Reveal refused a finished game")
			}
			return r.Reveal(w, v, ada)
		}},
		{"key-classic", func(t *testing.T, w *bytes.Buffer) error {
			return r.Key(w, Options{Numbering: game.NumberingClassic})
		}},
		{"setup-preview-blue", func(t *testing.T, w *bytes.Buffer) error {
			_, blue := goldenSetups(t)
			return r.SetupPreview(w, blue, game.Blue, game.DefaultRules(game.VariantClassic), ada)
		}},
		{"setup-preview-barrage-incomplete", func(t *testing.T, w *bytes.Buffer) error {
			s := parseSetup(t, ". . 2 . 10 . . 3 . .", ". 2 . . . 9 . . . .", ". . . S . . . . . .", ". . . . . . . . . B")
			return r.SetupPreview(w, s, game.Red, game.DefaultRules(game.VariantBarrage), Options{Names: goldenNames})
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := tc.write(t, &b); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, tc.name+".png", b.Bytes(), func(data []byte) []image.Image {
				return []image.Image{decodePNG(t, data)}
			})
		})
	}
	t.Run("replay", func(t *testing.T) {
		g := goldenGame(t, len(goldenMoves))
		if err := g.Resign(game.Red); err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := r.Replay(&b, g, ReplayOptions{Options: ada}); err != nil {
			t.Fatal(err)
		}
		checkGolden(t, "replay.gif", b.Bytes(), func(data []byte) []image.Image {
			anim, err := gif.DecodeAll(bytes.NewReader(data))
			if err != nil {
				t.Fatalf("decoding GIF: %v", err)
			}
			frames := make([]image.Image, len(anim.Image))
			for i, f := range anim.Image {
				frames[i] = f
			}
			return frames
		})
	})
}

// checkGolden compares the images decoded from got with those of the golden
// file, pixel by pixel (not byte by byte, so that a new version of the
// compressor does not break the test), or rewrites the file under -update.
func checkGolden(t *testing.T, name string, got []byte, decode func([]byte) []image.Image) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	gi, wi := decode(got), decode(want)
	diff := ""
	if len(gi) != len(wi) {
		diff = "a different number of frames"
	}
	for i := 0; diff == "" && i < len(gi); i++ {
		if gi[i].Bounds() != wi[i].Bounds() {
			diff = "a frame of another size"
			break
		}
		b := gi[i].Bounds()
		for y := b.Min.Y; y < b.Max.Y && diff == ""; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				if rgbaAt(gi[i], x, y) != rgbaAt(wi[i], x, y) {
					diff = "pixels that differ, the first at " + image.Pt(x, y).String()
					break
				}
			}
		}
	}
	if diff == "" {
		return // the same pixels, encoded differently
	}
	// Keep the new picture for a look (t.TempDir would delete it).
	if dir, err := os.MkdirTemp("", "render-golden-"); err == nil {
		out := filepath.Join(dir, name)
		if err := os.WriteFile(out, got, 0o644); err == nil {
			t.Logf("the new picture is in %s", out)
		}
	}
	t.Errorf("%s: the picture has %s; if the change is wanted, look at it and run with -update", path, diff)
}
