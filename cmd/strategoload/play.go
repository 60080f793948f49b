package main

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
)

// play drives the active matches through the warm-up and the measured
// time, then waits for the moves under way.
func (r *loadRun) play(ctx context.Context, matches []*loadMatch, rep *loadReport, proc *loadBot) {
	o := r.opts
	var tokens <-chan time.Time
	if o.rate > 0 {
		t := time.NewTicker(time.Duration(float64(time.Second) / o.rate))
		defer t.Stop()
		tokens = t.C
	}
	stop := make(chan struct{})
	var (
		mu            sync.Mutex
		from, to      time.Time // the measured time
		ack, last     []time.Duration
		unfinished    atomic.Int64
		ended         atomic.Int64
		measuring     atomic.Bool
		started       atomic.Int64 // matches whose first move is done
		wg            sync.WaitGroup
		botCPU0, drv0 time.Duration
	)
	for k, m := range matches {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(o.seed, uint64(k)))
			var legal []game.Move
			first := true
			for {
				select {
				case <-stop:
					return
				case <-ctx.Done():
					return
				default:
				}
				if tokens != nil {
					select {
					case <-tokens:
					case <-stop:
						return
					}
				}
				legal = m.game.AppendLegalMoves(legal[:0])
				mv := quietMove(m.game, rng, legal)
				side := m.game.ToMove()
				m.mu.Lock()
				before := m.arrived
				m.mu.Unlock()
				counted := measuring.Load()
				start := time.Now()
				if counted {
					m.noteSent(m.game.Ply()+1, start)
				}
				in := m.players[side].SlashCommand(r.owner, m.channel, "stratego move",
					discordtest.Opt("from", mv.From.String()), discordtest.Opt("to", mv.To.String()))
				a := r.answerOf(in.Token)
				acked, done, ok := r.waitMove(m, a, before, start.Add(30*time.Second))
				r.answers.Delete(in.Token)
				if !ok {
					unfinished.Add(1)
					return // this match's state is unknown now: it is played no more
				}
				if first {
					first = false
					started.Add(1)
				}
				if counted && measuring.Load() {
					mu.Lock()
					ack, last = append(ack, acked.Sub(start)), append(last, done.Sub(start))
					mu.Unlock()
				}
				if _, err := m.game.Apply(mv); err != nil {
					r.owner.Errorf("the driver's own game refused %v: %v", mv, err)
					return
				}
				if m.game.Result().Over() {
					ended.Add(1)
					return
				}
			}
		}()
	}
	// The warm-up lasts until every match has moved once: each player's
	// first DM opens a DM channel, one rate-limited route for everyone,
	// which is a start's cost and not a move's.
	began := time.Now()
	for time.Since(began) < o.warmup || (started.Load() < int64(len(matches)) && time.Since(began) < 2*time.Minute) {
		select {
		case <-time.After(10 * time.Millisecond):
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	rep.Warmup = time.Since(began)
	botCPU0, drv0 = proc.cpu(), ownCPU()
	profiled := r.profile(proc)
	from = time.Now()
	measuring.Store(true)
	select {
	case <-time.After(o.duration):
	case <-ctx.Done():
	}
	measuring.Store(false)
	to = time.Now()
	profiled()
	rep.BotCPU, rep.DriverCPU = proc.cpu()-botCPU0, ownCPU()-drv0
	close(stop)
	wg.Wait()
	rep.Measured = to.Sub(from)
	mu.Lock()
	defer mu.Unlock()
	// A move counts when it was sent in the measured time; those sent just
	// before its end and finished after add a little, those sent before
	// its start are left out: the two ends balance.
	rep.Moves = len(ack)
	slices.Sort(ack)
	slices.Sort(last)
	rep.Ack, rep.Last = ack, last
	rep.Unfinished, rep.Ended = int(unfinished.Load()), int(ended.Load())
}

// waitMove waits until a move's interaction is acknowledged and its
// answer written, and a message has reached each player's DM and the
// channel since before. It returns when it was acknowledged and when the
// last of those arrived.
func (r *loadRun) waitMove(m *loadMatch, a *answer, before [3]int, deadline time.Time) (acked, done time.Time, ok bool) {
	timeout := time.NewTimer(time.Until(deadline))
	defer timeout.Stop()
	for {
		a.mu.Lock()
		acked, wrote := a.acked, a.wrote
		a.mu.Unlock()
		m.mu.Lock()
		arrived, last := m.arrived, m.last
		m.mu.Unlock()
		if !acked.IsZero() && !wrote.IsZero() && arrived[0] > before[0] && arrived[1] > before[1] && arrived[2] > before[2] {
			done = wrote
			for _, t := range last {
				if t.After(done) {
					done = t
				}
			}
			return acked, done, true
		}
		select {
		case <-a.wake:
		case <-m.wake:
		case <-timeout.C:
			return time.Time{}, time.Time{}, false
		}
	}
}

// quietMove picks a random legal move onto an empty square when there is
// one, so that matches go on for the whole run; else any legal move.
func quietMove(g *game.Game, rng *rand.Rand, legal []game.Move) game.Move {
	quiet := legal[:0:0]
	for _, mv := range legal {
		if _, _, occupied := g.PieceAt(mv.To); !occupied {
			quiet = append(quiet, mv)
		}
	}
	if len(quiet) > 0 {
		return quiet[rng.IntN(len(quiet))]
	}
	return legal[rng.IntN(len(legal))]
}
