package render

import (
	"bytes"
	"io"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/gametest"
)

// benchGames returns Classic games from random set-ups after 20 to 200 random
// moves: typical positions, with pieces moved, revealed and taken.
func benchGames(b testing.TB) []*game.Game {
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
				// Each game its own match, as the bot draws them (Options.Secret).
				if err := r.Board(&buf, views[n%len(views)], Options{Names: [2]string{"Ada", "Grace"}, Secret: uint64(n%len(views) + 1)}); err != nil {
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
		o.Secret = uint64(n%len(games) + 1) // each game its own match, as the bot draws them
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

// BenchmarkReplayLongGame makes the GIF of a 20,000-move game: with the frame
// cap its memory (-benchmem) and size stay those of a 400-move game.
func BenchmarkReplayLongGame(b *testing.B) {
	r := renderer(b)
	g := shuttleGame(b, 20000)
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := r.Replay(&buf, g, ReplayOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "gif-bytes")
}

// BenchmarkNew builds the tile cache: every tile, glyph and background.
func BenchmarkNew(b *testing.B) {
	for b.Loop() {
		if _, err := New(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAltText writes the alt text of a board picture, and the text board.
func BenchmarkAltText(b *testing.B) {
	games := benchGames(b)
	o := Options{Names: [2]string{"Ada", "Grace"}}
	views := make([]game.View, 0, 3*len(games))
	for _, g := range games {
		for _, viewer := range []game.Viewer{game.RedViewer, game.BlueViewer, game.PublicViewer} {
			views = append(views, g.View(viewer))
		}
	}
	for _, tc := range []struct {
		name string
		f    func(game.View, Options) (string, error)
	}{{"alt", AltText}, {"text-board", TextBoard}} {
		b.Run(tc.name, func(b *testing.B) {
			n := 0
			for b.Loop() {
				if _, err := tc.f(views[n%len(views)], o); err != nil {
					b.Fatal(err)
				}
				n++
			}
		})
	}
}

// BenchmarkBoardSizes renders every viewer's board every 20 moves of random
// games of every variant, with long names, and reports the mean and the
// largest PNG: the size goal is for every board, not only the typical one.
func BenchmarkBoardSizes(b *testing.B) {
	r := renderer(b)
	var views []game.View
	for _, rules := range testRules(b) {
		for seed := uint64(1); seed <= 6; seed++ {
			gametest.Game(b, rules, seed, 400, func(g *game.Game) bool {
				if g.Ply()%20 == 0 {
					for _, v := range []game.Viewer{game.RedViewer, game.BlueViewer, game.PublicViewer} {
						views = append(views, g.View(v))
					}
				}
				return true
			})
		}
	}
	o := Options{Names: goldenNames}
	var buf bytes.Buffer
	total, largest := 0, 0
	for b.Loop() {
		total, largest = 0, 0
		for _, v := range views {
			buf.Reset()
			if err := r.Board(&buf, v, o); err != nil {
				b.Fatal(err)
			}
			total += buf.Len()
			largest = max(largest, buf.Len())
		}
	}
	b.ReportMetric(float64(total)/float64(len(views)), "mean-png-bytes")
	b.ReportMetric(float64(largest), "max-png-bytes")
	b.ReportMetric(float64(len(views)), "boards")
}

// BenchmarkMatchMoves makes the three pictures of each move of many matches
// played at once, as the bot does under load: 200 random Classic games take
// turns, one move each, so the pictures before a move are 600 pictures back;
// the measure starts at the 40th move (the pictures before it are drawn
// first). band-hits is the share of bands the encoder found compressed already.
func BenchmarkMatchMoves(b *testing.B) {
	r := renderer(b)
	rules := game.DefaultRules(game.VariantClassic)
	const matches = 200
	var views [][3]game.View // every match's views after every ply, interleaved
	var of []int             // the match of each of views, whose number is its pictures' Secret
	games := make([][][3]game.View, matches)
	for i := range games {
		gametest.Game(b, rules, uint64(1000+i), 120, func(g *game.Game) bool {
			games[i] = append(games[i], [3]game.View{g.View(game.RedViewer), g.View(game.BlueViewer), g.View(game.PublicViewer)})
			return true
		})
	}
	for ply := 0; ; ply++ {
		more := false
		for i, g := range games {
			if ply < len(g) {
				views = append(views, g[ply])
				of = append(of, i+1)
				more = true
			}
		}
		if !more {
			break
		}
	}
	o := Options{Names: [2]string{"Ada", "Grace"}}
	var buf bytes.Buffer
	const start = 40 * matches
	for k, vs := range views[start-matches : start] {
		o.Secret = uint64(of[start-matches+k])
		for _, v := range vs {
			if err := r.Board(io.Discard, v, o); err != nil {
				b.Fatal(err)
			}
		}
	}
	total, n := 0, start
	l0, h0 := r.enc.cache.stats()
	for b.Loop() {
		o.Secret = uint64(of[n%len(views)])
		for _, v := range views[n%len(views)] {
			buf.Reset()
			if err := r.Board(&buf, v, o); err != nil {
				b.Fatal(err)
			}
			total += buf.Len()
		}
		n++
	}
	l, h := r.enc.cache.stats()
	b.ReportMetric(float64(total)/float64(n-start), "png-bytes/op")
	b.ReportMetric(float64(h-h0)/float64(max(l-l0, 1)), "band-hits")
}
