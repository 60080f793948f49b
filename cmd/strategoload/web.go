package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/bolt"
	"github.com/strategobot/strategobot/web"
)

// webOptions is what a load test of the board in the browser does.
type webOptions struct {
	viewers  int     // open pages
	matches  int     // matches they watch, each by viewers/matches pages
	rate     float64 // moves per second in all
	duration time.Duration
	warmup   time.Duration
	seed     uint64
	log      io.Writer
}

// webReport is what it measured.
type webReport struct {
	Viewers, Matches int
	Rate             float64
	Measured         time.Duration
	Moves            int             // moves stored and announced in the measured time
	Events           int             // events read by the pages in the measured time
	Missed           int             // events the pages should have read but did not
	Latency          []time.Duration // from the change announced to the event read, sorted
	HeapPerPage      float64         // bytes of heap and stacks per open page (server and page together)
}

// webLoadtest runs the web server in this process on a bbolt store, opens
// the pages as event streams over loopback TCP, and stores and announces
// moves as the bot does (store, then Server.MatchChanged), at o.rate.
func webLoadtest(ctx context.Context, o webOptions) (*webReport, error) {
	dir, err := os.MkdirTemp("", "strategoload-web")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	db, err := bolt.Open(bolt.Options{Path: filepath.Join(dir, "web.db"), NoSync: true})
	if err != nil {
		return nil, err
	}
	defer db.Close()
	key := make([]byte, 32)
	for i := range key {
		key[i] = byte(rand.Uint32())
	}
	signer, err := web.NewSigner(key)
	if err != nil {
		return nil, err
	}
	srv := web.New(web.Options{
		Auth:    &web.CapabilityAuth{Signer: signer, Matches: db, Links: noRevocations{}},
		Matches: db, Rate: 1e9,
		Log: func(msg string, args ...any) { fmt.Fprintln(o.log, append([]any{msg}, args...)...) },
	})
	ts := httptest.NewServer(srv)
	defer ts.Close()

	fmt.Fprintf(o.log, "web: %d matches, %d open pages…\n", o.matches, o.viewers)
	rules := game.DefaultRules(game.VariantClassic)
	now := time.Now()
	type running struct {
		m *storage.Match
		g *game.Game
	}
	matches := make([]running, o.matches)
	for k := range matches {
		m := &storage.Match{GuildID: "g", ChannelID: fmt.Sprint(k), Rules: rules, MoveTime: 24 * time.Hour, Casual: true, Phase: storage.PhaseSetup, Created: now}
		m.Players[game.Red] = storage.Player{UserID: fmt.Sprint(2 * k), Name: "Red"}
		m.Players[game.Blue] = storage.Player{UserID: fmt.Sprint(2*k + 1), Name: "Blue"}
		m, err := db.CreateMatch(ctx, m)
		for side := range 2 {
			if err == nil {
				m, err = db.SetSetup(ctx, m.ID, m.Version, game.Side(side), game.RandomSetup(rules, o.seed*1_000_003+uint64(2*k+side)), storage.SetupConfirmed, now)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("web: seed match %d: %w", k, err)
		}
		g, err := m.Game()
		if err != nil {
			return nil, err
		}
		matches[k] = running{m, g}
	}

	// sent[match][moves] is when the change that made the match's moves
	// that many was announced (a page is not sent the version).
	var mu sync.Mutex
	sent := map[storage.MatchID]map[int]time.Time{}
	var lat []time.Duration
	measuring, events := false, 0

	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var opened sync.WaitGroup
	var pages sync.WaitGroup
	openErr := make(chan error, 1)
	for i := range o.viewers {
		run := matches[i%o.matches]
		tok := signer.Sign(web.Capability{Match: run.m.ID, Viewer: game.Viewer(i / o.matches % 3), Expires: now.Add(time.Hour)})
		opened.Add(1)
		pages.Add(1)
		go func() {
			defer pages.Done()
			req, _ := http.NewRequestWithContext(pctx, "GET", ts.URL+"/api/events", nil)
			req.Header.Set(web.CapabilityHeader, tok)
			req.Header.Set("X-Forwarded-For", visitor(i))
			resp, err := http.DefaultClient.Do(req)
			if err != nil || resp.StatusCode != 200 {
				select {
				case openErr <- fmt.Errorf("web: open a page: %v", err):
				default:
				}
				opened.Done()
				return
			}
			defer resp.Body.Close()
			rd := bufio.NewReaderSize(resp.Body, 64<<10) // a whole state fits
			first := true
			for {
				line, err := rd.ReadSlice('\n')
				if err != nil {
					return
				}
				if !strings.HasPrefix(string(line[:min(len(line), 6)]), "data: ") {
					continue
				}
				at := time.Now()
				if first {
					first = false
					opened.Done()
					continue
				}
				var head struct {
					Match   storage.MatchID   `json:"match"`
					History []json.RawMessage `json:"history"`
				}
				if json.Unmarshal(line[6:], &head) != nil {
					continue
				}
				mu.Lock()
				if t, ok := sent[head.Match][len(head.History)]; ok {
					lat = append(lat, at.Sub(t))
					events++
				}
				mu.Unlock()
			}
		}()
	}
	opened.Wait()
	select {
	case err := <-openErr:
		return nil, err
	default:
	}
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	perPage := float64(int64(after.HeapInuse+after.StackInuse)-int64(before.HeapInuse+before.StackInuse)) / float64(o.viewers)
	fmt.Fprintf(o.log, "web: pages open; playing %.0f moves/s…\n", o.rate)

	r := rand.New(rand.NewPCG(o.seed, 0x3eb))
	start := time.Now()
	moves, expected, next := 0, 0, 0
	var measuredFrom time.Time
	for time.Since(start) < o.warmup+o.duration {
		// The next move is due at start+next/rate; one that is late goes at
		// once, so the rate holds on a busy machine.
		due := start.Add(time.Duration(float64(next) / o.rate * float64(time.Second)))
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Until(due)):
		}
		if !measuring && time.Since(start) >= o.warmup {
			measuring, measuredFrom = true, time.Now()
		}
		run := &matches[next%o.matches]
		next++
		if run.g.Result().Over() {
			continue
		}
		legal := run.g.LegalMoves()
		m, g, err := db.ApplyMove(ctx, run.m.ID, run.m.Version, run.g.ToMove(), legal[r.IntN(len(legal))], time.Now())
		if err != nil {
			return nil, fmt.Errorf("web: move: %w", err)
		}
		run.m, run.g = m, g
		if measuring {
			// Only the measured moves' events are counted.
			mu.Lock()
			if sent[m.ID] == nil {
				sent[m.ID] = map[int]time.Time{}
			}
			sent[m.ID][g.Ply()] = time.Now()
			mu.Unlock()
		}
		srv.MatchChanged(m, g)
		if measuring {
			moves++
			expected += o.viewers / o.matches
			if o.viewers%o.matches > (next-1)%o.matches {
				expected++
			}
		}
	}
	measured := time.Since(measuredFrom)
	time.Sleep(time.Second) // the last events on their way
	mu.Lock()
	defer mu.Unlock()
	slices.Sort(lat)
	return &webReport{
		Viewers: o.viewers, Matches: o.matches, Rate: o.rate, Measured: measured, Moves: moves,
		Events: events, Missed: max(0, expected-events), Latency: lat, HeapPerPage: perPage,
	}, nil
}

// noRevocations: the load test revokes no links.
type noRevocations struct{}

func (noRevocations) LinkGeneration(context.Context, string) (uint32, error) { return 0, nil }

func (r *webReport) print(w io.Writer) {
	fmt.Fprintf(w, "web viewers (in this process): %d open pages on %d matches, %.0f moves/s offered\n", r.Viewers, r.Matches, r.Rate)
	fmt.Fprintf(w, "  moves: %d in %v (%.1f/s)\n", r.Moves, r.Measured.Round(time.Millisecond), float64(r.Moves)/r.Measured.Seconds())
	fmt.Fprintf(w, "  events read: %d, missed: %d\n", r.Events, r.Missed)
	fmt.Fprintf(w, "  event latency (change announced to event read): %s\n", spread(r.Latency))
	fmt.Fprintf(w, "  memory per open page (heap and stacks, server and page together): %.1f KiB\n", r.HeapPerPage/1024)
}
