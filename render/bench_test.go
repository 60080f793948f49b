package render

import (
	"bytes"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/gametest"
)

// benchGames returns Classic games from random set-ups after 20 to 200 random
// moves: typical positions, with pieces moved, revealed and taken.
func benchGames(b *testing.B) []*game.Game {
	b.Helper()
	rules := game.DefaultRules(game.VariantClassic)
	var out []*game.Game
	for i := range 10 {
		plies := 20 + 20*i
		g := gametest.Game(b, rules, uint64(100+i), plies, nil)
		out = append(out, g)
	}
	return out
}

// BenchmarkBoard renders and encodes one board picture; png-bytes is the
// average size of the PNG.
func BenchmarkBoard(b *testing.B) {
	r := renderer(b)
	games := benchGames(b)
	for _, viewer := range []game.Viewer{game.RedViewer, game.BlueViewer, game.PublicViewer} {
		b.Run(viewer.String(), func(b *testing.B) {
			views := make([]game.View, len(games))
			for i, g := range games {
				views[i] = g.View(viewer)
			}
			var buf bytes.Buffer
			total, n := 0, 0
			for b.Loop() {
				buf.Reset()
				if err := r.Board(&buf, views[n%len(views)], Options{Names: [2]string{"Ada", "Grace"}}); err != nil {
					b.Fatal(err)
				}
				total += buf.Len()
				n++
			}
			b.ReportMetric(float64(total)/float64(n), "png-bytes/op")
		})
	}
}

// BenchmarkBoardParallel renders board pictures from all cores at once.
func BenchmarkBoardParallel(b *testing.B) {
	r := renderer(b)
	games := benchGames(b)
	b.RunParallel(func(pb *testing.PB) {
		var buf bytes.Buffer
		i := 0
		for pb.Next() {
			buf.Reset()
			if err := r.Board(&buf, games[i%len(games)].View(game.PublicViewer), Options{}); err != nil {
				b.Error(err)
				return
			}
			i++
		}
	})
}

// BenchmarkMove makes the three pictures of one move, as the bot does after
// each move: the views of Red, Blue and the public, rendered and encoded.
func BenchmarkMove(b *testing.B) {
	r := renderer(b)
	games := benchGames(b)
	var buf bytes.Buffer
	total, n := 0, 0
	o := Options{Names: [2]string{"Ada", "Grace"}}
	for b.Loop() {
		g := games[n%len(games)]
		for _, viewer := range []game.Viewer{game.RedViewer, game.BlueViewer, game.PublicViewer} {
			buf.Reset()
			if err := r.Board(&buf, g.View(viewer), o); err != nil {
				b.Fatal(err)
			}
			total += buf.Len()
		}
		n++
	}
	b.ReportMetric(float64(total)/float64(n), "png-bytes/op")
}

// BenchmarkReplay makes the GIF of a whole game; ns/frame and bytes/frame are
// the averages per frame (one frame per move, plus the start).
func BenchmarkReplay(b *testing.B) {
	r := renderer(b)
	rules := game.DefaultRules(game.VariantClassic)
	g := gametest.Game(b, rules, 7, 400, nil)
	if !g.Result().Over() {
		if err := g.Resign(g.ToMove()); err != nil {
			b.Fatal(err)
		}
	}
	frames := g.Ply() + 1
	var buf bytes.Buffer
	start := time.Now()
	n := 0
	for b.Loop() {
		buf.Reset()
		if err := r.Replay(&buf, g, ReplayOptions{Options: Options{Names: [2]string{"Ada", "Grace"}}}); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(time.Since(start).Nanoseconds())/float64(n*frames), "ns/frame")
	b.ReportMetric(float64(buf.Len())/float64(frames), "bytes/frame")
	b.ReportMetric(float64(frames), "frames")
}

// BenchmarkNew builds the tile cache: every tile, glyph and background.
func BenchmarkNew(b *testing.B) {
	for b.Loop() {
		if _, err := New(); err != nil {
			b.Fatal(err)
		}
	}
}
