package bolt_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/bolt"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// recordedGame is a Classic game of random legal moves, with set-ups and
// realistic gaps between moves (5 seconds to 12 hours, log-uniform).
type recordedGame struct {
	red, blue game.Setup
	moves     []game.Move
	gaps      []time.Duration
}

// randomGames returns n games of exactly plies moves each (the side to move
// then resigns), the same for the same seed.
func randomGames(tb testing.TB, n, plies int, seed uint64) []recordedGame {
	tb.Helper()
	rules := game.DefaultRules(game.VariantClassic)
	r := rand.New(rand.NewPCG(seed, 99))
	var out []recordedGame
	for len(out) < n {
		rg := recordedGame{red: game.RandomSetup(rules, r.Uint64()), blue: game.RandomSetup(rules, r.Uint64())}
		g, err := game.NewGame(rules, rg.red, rg.blue)
		if err != nil {
			tb.Fatal(err)
		}
		for len(rg.moves) < plies && !g.Result().Over() {
			moves := g.LegalMoves()
			mv := moves[r.IntN(len(moves))]
			if _, err := g.Apply(mv); err != nil {
				tb.Fatal(err)
			}
			rg.moves = append(rg.moves, mv)
			rg.gaps = append(rg.gaps, time.Duration(math.Exp(math.Log(5)+r.Float64()*(math.Log(43200)-math.Log(5))))*time.Second)
		}
		if len(rg.moves) == plies && !g.Result().Over() {
			out = append(out, rg)
		}
	}
	return out
}

// finishedMatch builds the finished match of a recorded game, for a bulk import.
func finishedMatch(tb testing.TB, rg recordedGame, red, blue, guild string, created time.Time) *storage.Match {
	m := storagetest.NewMatch(game.VariantClassic)
	m.GuildID, m.ChannelID, m.Created = guild, "chan-"+guild, created
	m.Players[game.Red] = storage.Player{UserID: red, Name: "Player " + red}
	m.Players[game.Blue] = storage.Player{UserID: blue, Name: "Player " + blue}
	m.Setups[game.Red] = storage.SideSetup{Status: storage.SetupConfirmed, Setup: rg.red, At: created}
	m.Setups[game.Blue] = storage.SideSetup{Status: storage.SetupConfirmed, Setup: rg.blue, At: created}
	m.Started = created
	at := created
	for i, mv := range rg.moves {
		at = at.Add(rg.gaps[i])
		m.Log = append(m.Log, storage.Action{Kind: storage.ActMove, Side: game.Side(i % 2), Move: mv, At: at})
	}
	loser := game.Side(len(rg.moves) % 2)
	m.Log = append(m.Log, storage.Action{Kind: storage.ActResign, Side: loser, At: at})
	m.Phase, m.Ended = storage.PhaseFinished, at
	m.Result = game.Result{Outcome: game.WinFor(loser.Opponent()), Method: game.Resignation}
	m.Deadline = time.Time{}
	return m
}

// importGames writes n finished games into a new file with NoSync and
// parallel writers (so that commits are batched), and returns its path.
func importGames(b *testing.B, dir string, n int) string {
	b.Helper()
	path := filepath.Join(dir, fmt.Sprintf("archive-%d.db", n))
	db, err := bolt.Open(bolt.Options{Path: path, NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	games := randomGames(b, 200, 300, 1)
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := 0; w < 64; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(n) {
					return
				}
				red, blue := fmt.Sprint(1000+i%997), fmt.Sprint(3000+i%1009)
				m := finishedMatch(b, games[i%int64(len(games))], red, blue, fmt.Sprint("guild", i%10), storagetest.T0.Add(time.Duration(i)*time.Minute))
				if _, err := db.CreateMatch(context.Background(), m); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	if err := db.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkApplyMove measures committed moves per second with fsync on: one
// match played move after move, and many matches played at once (their
// moves share commits).
func BenchmarkApplyMove(b *testing.B) {
	storagetest.BenchmarkApplyMove(b, func(b *testing.B) storage.Store { return openTemp(b, false) })
}

// BenchmarkLoadMatch300 measures loading a match of 300 moves, and rebuilding its game.
func BenchmarkLoadMatch300(b *testing.B) {
	db := openTemp(b, true)
	defer db.Close()
	rg := randomGames(b, 1, 300, 3)[0]
	m, err := db.CreateMatch(context.Background(), finishedMatch(b, rg, "1", "2", "g", storagetest.T0))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.Run("load", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := db.Match(ctx, m.ID); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("load+replay", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			got, err := db.Match(ctx, m.ID)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := got.Game(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkBytesPerGame plays finished 300-move Classic games move by move,
// 50 at a time as on a busy server, and reports the file size per game.
func BenchmarkBytesPerGame(b *testing.B) {
	const games, inFlight = 200, 20
	recorded := randomGames(b, 100, 300, 4)
	for b.Loop() {
		path := filepath.Join(b.TempDir(), "played.db")
		db, err := bolt.Open(bolt.Options{Path: path, NoSync: true})
		if err != nil {
			b.Fatal(err)
		}
		ctx := context.Background()
		var next atomic.Int64
		var wg sync.WaitGroup
		for w := 0; w < inFlight; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					i := next.Add(1) - 1
					if i >= games {
						return
					}
					rg := recorded[i%int64(len(recorded))]
					full := finishedMatch(b, rg, fmt.Sprint(1000+i%97), fmt.Sprint(2000+i%89), "g1", storagetest.T0)
					m := storagetest.NewMatch(game.VariantClassic)
					m.Players = full.Players
					m, err := db.CreateMatch(ctx, m)
					if err == nil {
						m, err = db.SetSetup(ctx, m.ID, m.Version, game.Red, rg.red, storage.SetupConfirmed, storagetest.T0)
					}
					if err == nil {
						m, err = db.SetSetup(ctx, m.ID, m.Version, game.Blue, rg.blue, storage.SetupConfirmed, storagetest.T0)
					}
					for j := 0; err == nil && j < len(rg.moves); j++ {
						m, _, err = db.ApplyMove(ctx, m.ID, m.Version, game.Side(j%2), rg.moves[j], full.Log[j].At)
						if err == nil {
							err = deliverMatch(ctx, db, m.ID) // as the bot does after every move
						}
					}
					if err == nil {
						_, err = db.Act(ctx, m.ID, m.Version, storage.Action{Kind: storage.ActResign, Side: game.Side(len(rg.moves) % 2), At: full.Ended})
					}
					if err != nil {
						b.Error(err)
						return
					}
				}
			}()
		}
		wg.Wait()
		if err := db.Close(); err != nil {
			b.Fatal(err)
		}
		reportSize(b, path, games)
	}
}

// deliverMatch marks the due notices of one match done, as the bot's outbox
// does once it has sent them.
func deliverMatch(ctx context.Context, db *bolt.DB, id storage.MatchID) error {
	for {
		due, err := db.DueNotices(ctx, storagetest.T0.Add(1000*time.Hour), 0)
		if err != nil {
			return err
		}
		left := 0
		for _, n := range due {
			if n.Match != id {
				continue
			}
			left++
			if err := db.NoticeDone(ctx, n.ID, n.At); err != nil {
				return err
			}
		}
		if left == 0 {
			return nil
		}
	}
}

// BenchmarkOutboxStaysSmall plays 10,000 moves (about 33 games of 300) with
// the outbox delivered after every move, as the bot does, and reports what is
// left in it (nothing) and the file's pages: delivered notices are pruned, so
// the outbox does not grow with the moves played.
func BenchmarkOutboxStaysSmall(b *testing.B) {
	const moves = 10000
	recorded := randomGames(b, 40, 300, 9)
	for b.Loop() {
		path := filepath.Join(b.TempDir(), "outbox.db")
		db, err := bolt.Open(bolt.Options{Path: path, NoSync: true})
		if err != nil {
			b.Fatal(err)
		}
		ctx := context.Background()
		played := 0
		for i := 0; played < moves; i++ {
			rg := recorded[i%len(recorded)]
			m := must(db.CreateMatch(ctx, storagetest.NewMatch(game.VariantClassic)))(b)
			m = must(db.SetSetup(ctx, m.ID, m.Version, game.Red, rg.red, storage.SetupConfirmed, storagetest.T0))(b)
			m = must(db.SetSetup(ctx, m.ID, m.Version, game.Blue, rg.blue, storage.SetupConfirmed, storagetest.T0))(b)
			storagetest.Deliver(b, db, storagetest.T0)
			for j := 0; j < len(rg.moves) && played < moves && m.Phase == storage.PhasePlaying; j++ {
				m, _, err = db.ApplyMove(ctx, m.ID, 0, game.Side(j%2), rg.moves[j], storagetest.T0)
				if err != nil {
					b.Fatal(err)
				}
				storagetest.Deliver(b, db, storagetest.T0)
				played++
			}
		}
		if _, ok, _ := db.NextNotice(ctx); ok {
			b.Fatal("notices left in the outbox after delivering them all")
		}
		if err := db.Close(); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(highWater(b, path))/moves, "page-bytes/move")
		b.ReportMetric(0, "notices-left")
	}
}

func must(m *storage.Match, err error) func(testing.TB) *storage.Match {
	return func(tb testing.TB) *storage.Match {
		tb.Helper()
		if err != nil {
			tb.Fatal(err)
		}
		return m
	}
}

// reportSize reports a file's size per game three ways: the file's length
// (which includes bbolt's growth ahead of need: up to 16 MB, or a doubling
// for small files), the disk blocks actually allocated (that growth is
// sparse), and how far bbolt's pages reach (records, indexes, free pages).
func reportSize(b *testing.B, path string, games int) {
	info, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(info.Size())/float64(games), "file-bytes/game")
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		b.ReportMetric(float64(st.Blocks*512)/float64(games), "disk-bytes/game")
	}
	b.ReportMetric(float64(highWater(b, path))/float64(games), "page-bytes/game")
}

// BenchmarkOpen measures opening files of 10,000 and 100,000 finished games:
// time and memory must not grow with the number of games. The files are built
// once per run, outside the measurement (minutes for the larger one).
func BenchmarkOpen(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		b.Run(fmt.Sprintf("%d-games", n), func(b *testing.B) {
			path := importGames(b, b.TempDir(), n)
			runtime.GC()
			b.ReportAllocs()
			var heap uint64
			for b.Loop() {
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				db, err := bolt.Open(bolt.Options{Path: path})
				if err != nil {
					b.Fatal(err)
				}
				runtime.ReadMemStats(&after)
				heap = max(heap, after.HeapAlloc-min(after.HeapAlloc, before.HeapAlloc))
				if err := db.Close(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(heap), "heap-bytes")
			reportSize(b, path, n) // after the loop, which clears metrics when it starts
		})
	}
}

// BenchmarkOutbox measures what the outbox's depth costs a scrape
// (storagetest.BenchmarkOutboxDepth) over a backlog of notices
// (storagetest.OutboxBacklog), as PostgreSQL's BenchmarkOutbox does.
func BenchmarkOutbox(b *testing.B) {
	for _, size := range []int{16_000, 200_000} {
		for _, shape := range []string{"new", "retried"} {
			b.Run(fmt.Sprintf("%s-%d", shape, size), func(b *testing.B) {
				db := openTemp(b, true)
				defer db.Close()
				now := time.Now().UTC().Truncate(time.Second)
				d := &storage.Dump{Notices: storagetest.OutboxBacklog(size, shape == "retried", now), Sequences: storage.Sequences{Notice: uint64(size)}}
				if err := db.Load(context.Background(), d.Send); err != nil {
					b.Fatal(err)
				}
				storagetest.BenchmarkOutboxDepth(b, db, size)
			})
		}
	}
}
