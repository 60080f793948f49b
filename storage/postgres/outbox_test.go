package postgres_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/pgtest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestOutboxAcrossProcesses plays several matches through two stores on one
// database (two processes' pools) while a deliverer drains the outbox through
// both in turn, and a second deliverer races it for the same notices. Every
// notice must be done exactly once, each queue's notices must come due in the
// order they were recorded (a move's notices by its ply), and no move's
// notice may be lost.
func TestOutboxAcrossProcesses(t *testing.T) {
	const matches, plies = 4, 24
	url := pgtest.NewDatabase(t)
	dbs := [2]storage.Store{openURL(t, url), openURL(t, url)}
	ctx := context.Background()
	var ms [matches]*storage.Match
	for i := range ms {
		ms[i] = storagetest.Started(t, dbs[i%2], storagetest.NewMatch(game.VariantClassic), uint64(i+1))
	}
	future := storagetest.T0.Add(365 * 24 * time.Hour) // every notice is due

	type queue struct {
		match storage.MatchID
		to    storage.Audience
	}
	var (
		mu       sync.Mutex
		doneBy   = map[uint64]int{}   // notice id → which deliverer did it
		lastID   = map[queue]uint64{} // the ordered deliverer's last id per queue
		movesLog = map[queue][]int{}  // Log of each move notice done, per queue
		stop     = make(chan struct{})
		wg, dwg  sync.WaitGroup
	)
	deliver := func(who int, n storage.Notice, s storage.Store) {
		err := s.NoticeDone(ctx, n.ID, future)
		if errors.Is(err, storage.ErrNotFound) {
			return // the other deliverer did it first
		}
		if err != nil {
			t.Errorf("NoticeDone %d: %v", n.ID, err)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if prev, ok := doneBy[n.ID]; ok {
			t.Errorf("notice %d done by deliverers %d and %d", n.ID, prev, who)
		}
		doneBy[n.ID] = who
		if n.Event == storage.EventMove {
			q := queue{n.Match, n.To}
			movesLog[q] = append(movesLog[q], n.Log)
		}
	}
	drain := func(who int, s storage.Store) bool {
		due, err := s.DueNotices(ctx, future, 0)
		if err != nil {
			t.Errorf("DueNotices: %v", err)
			return false
		}
		heads := map[queue]bool{}
		for _, n := range due {
			if q := (queue{n.Match, n.To}); heads[q] {
				t.Errorf("queue %v: two notices due at once (only the oldest may be)", q)
			} else {
				heads[q] = true
			}
			if who == 0 {
				q := queue{n.Match, n.To}
				mu.Lock()
				if n.ID <= lastID[q] {
					t.Errorf("queue %v: notice %d came due after notice %d", q, n.ID, lastID[q])
				}
				lastID[q] = n.ID
				mu.Unlock()
			}
			deliver(who, n, s)
		}
		return len(due) > 0
	}
	for who := range 2 {
		dwg.Add(1)
		go func() {
			defer dwg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				s := dbs[(i+who)%2]
				if who == 1 {
					s = dbs[1] // the racer works from the second process only
				}
				drain(who, s)
			}
		}()
	}
	for i := range ms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m, r := ms[i], rand.New(rand.NewPCG(uint64(i), 7))
			at := storagetest.T0
			for ply := 0; ply < plies && m.Phase == storage.PhasePlaying; ply++ {
				g, err := m.Game()
				if err != nil {
					t.Errorf("match %d: %v", m.ID, err)
					return
				}
				moves := g.LegalMoves()
				at = at.Add(time.Minute)
				if m, _, err = dbs[ply%2].ApplyMove(ctx, m.ID, m.Version, g.ToMove(), moves[r.IntN(len(moves))], at); err != nil {
					t.Errorf("match %d ply %d: %v", m.ID, ply, err)
					return
				}
			}
			mu.Lock()
			ms[i] = m
			mu.Unlock()
		}()
	}
	wg.Wait()
	close(stop)
	dwg.Wait()
	for drain(0, dbs[0]) {
	}
	if _, ok, err := dbs[1].NextNotice(ctx); err != nil || ok {
		t.Fatalf("outbox after delivery: NextNotice = %v, %v; want empty", ok, err)
	}
	for _, m := range ms {
		for to := storage.AudienceRed; to <= storage.AudiencePublic; to++ {
			got := movesLog[queue{m.ID, to}]
			if len(got) != len(m.Log) {
				t.Errorf("match %d, %s: %d move notices done, want %d", m.ID, to, len(got), len(m.Log))
				continue
			}
			seen := map[int]bool{}
			for _, log := range got {
				seen[log] = true
			}
			for ply := 1; ply <= len(m.Log); ply++ {
				if !seen[ply] {
					t.Errorf("match %d, %s: no notice of ply %d", m.ID, to, ply)
				}
			}
		}
		final, err := dbs[0].Match(ctx, m.ID)
		if err != nil {
			t.Fatal(err)
		}
		if final.ClockPending || final.Version != m.Version {
			t.Errorf("match %d after delivery: clock pending %v, version %d (want false, %d)", m.ID, final.ClockPending, final.Version, m.Version)
		}
	}
	racer := 0
	for _, who := range doneBy {
		racer += who
	}
	t.Logf("%d notices done, %d of them by the racing deliverer", len(doneBy), racer)
}
