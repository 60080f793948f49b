package web

import (
	"bufio"
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// BenchmarkMoveToEvent measures from a stored move (the commit returned) to
// its event read by an open page's stream, and reports the p99.
func BenchmarkMoveToEvent(b *testing.B) {
	f := newFixture(b)
	f.srv.opts.Log = func(string, ...any) {}
	bg := context.Background()
	var lat []time.Duration
	seed := uint64(1)
	for i := 0; i < b.N; {
		m := storagetest.Started(b, f.store, storagetest.NewMatch(game.VariantBarrage), seed)
		seed++
		req, _ := http.NewRequest("GET", f.ts.URL+"/api/events", nil)
		req.Header.Set(CapabilityHeader, f.token(m.ID, game.PublicViewer))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		rd := bufio.NewReader(resp.Body)
		next := func() {
			for {
				line, err := rd.ReadString('\n')
				if err != nil {
					b.Fatal(err)
				}
				if strings.HasPrefix(line, "data: ") {
					return
				}
			}
		}
		next()
		for ; i < b.N; i++ {
			g, _ := m.Game()
			if g.Result().Over() {
				break
			}
			moves := g.LegalMoves()
			m2, g2, err := f.store.ApplyMove(bg, m.ID, m.Version, g.ToMove(), moves[i%len(moves)], storagetest.T0)
			if err != nil {
				b.Fatal(err)
			}
			start := time.Now()
			f.srv.MatchChanged(m2, g2)
			next()
			lat = append(lat, time.Since(start))
			m = m2
		}
		resp.Body.Close()
	}
	slices.Sort(lat)
	p99 := lat[len(lat)*99/100]
	b.ReportMetric(float64(p99.Microseconds())/1000, "p99-ms")
	if p99 > 50*time.Millisecond {
		b.Errorf("p99 %v, over 50 ms", p99)
	}
}
