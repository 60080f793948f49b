package bot

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/ai"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// BenchmarkMoveToLastMessage measures one move from the member's slash
// command to the last message the bot sends for it (both players' DMs with
// their pictures and the channel's public picture), on the local Discord:
// one bbolt commit, three pictures, three messages. The time runs from
// sending the interaction to the arrival of the third message at the local
// Discord.
func BenchmarkMoveToLastMessage(b *testing.B) {
	h := newHarness(b)
	red := placed(b, map[[2]int]game.Rank{{0, 0}: game.Sergeant})
	blue := placed(b, map[[2]int]game.Rank{{0, 0}: game.Sergeant})
	h.challenge("Classic", discordtest.Opt("two_squares", 0), discordtest.Opt("more_squares", false))
	h.sendSetups(red, blue)
	h.bot.deliverDue(context.Background()) // the start's messages are out: each move's three are its own
	moves := [][2]string{{"A4", "A5"}, {"J7", "J6"}, {"A5", "A4"}, {"J6", "J7"}}
	players := []*discordtest.Member{h.alice, h.bob}
	const send = "POST /channels/{channel_id}/messages"
	var took []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// Moves a tenth of a second apart stay within Discord's global
		// limit of 50 requests a second, as real players' moves do: the
		// figure is a move's own time, not a queue's.
		time.Sleep(100 * time.Millisecond)
		before := len(h.srv.Requests(send))
		start := time.Now()
		mv := moves[i%len(moves)]
		players[i%2].SlashCommand(b, h.channel, "stratego move", discordtest.Opt("from", mv[0]), discordtest.Opt("to", mv[1]))
		// The move is announced with three messages: two DMs and the channel's.
		var sent []discordtest.Request
		h.srv.WaitFor(b, "the move's messages", func() bool {
			sent = h.srv.Requests(send)
			return len(sent) >= before+3
		})
		took = append(took, sent[before+2].At.Sub(start))
	}
	b.StopTimer()
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "ms-median")
	b.ReportMetric(float64(took[len(took)-1].Microseconds())/1000, "ms-max")
}

// BenchmarkMovesUnderComputerLoad measures what BenchmarkMoveToLastMessage
// does while 150 practice matches are played against the hard computer:
// with the computer's thinking bounded (the bot's default, one fewer
// thinker than cores) and unbounded (every computer move in its own
// goroutine, as before the limit), the practice players answering 2 s or
// 10 s after the computer's move reached them. It reports the median, the
// 99th percentile and the worst of the people's moves, and how many of the
// computer's 150 moves were made by the end. The harness learns of messages
// from the local Discord's request hook, without polling: its own work
// stays out of the figures as far as it can on a shared machine.
func BenchmarkMovesUnderComputerLoad(b *testing.B) {
	for _, tc := range []struct {
		name     string
		thinkers int
		pace     time.Duration // how long each practice player takes to answer the computer
	}{{"bounded/pace-2s", 0, 2 * time.Second}, {"bounded/pace-10s", 0, 10 * time.Second}, {"unbounded/pace-2s", 1 << 20, 2 * time.Second}} {
		b.Run(tc.name, func(b *testing.B) {
			const send = "POST /channels/{channel_id}/messages"
			var (
				mu       sync.Mutex
				marker   string      // the measured move, e.g. "A4-A5"
				arrived  []time.Time // its messages' arrivals
				measured = make(chan struct{}, 1)
				lastDM   = map[string]time.Time{} // a DM channel's last message from the bot
			)
			hook := func(r discordtest.Request) {
				if r.Route != send || r.Status >= 300 {
					return
				}
				channel := strings.TrimSuffix(r.Path[strings.Index(r.Path, "/channels/")+len("/channels/"):], "/messages")
				body := string(r.Body)
				mu.Lock()
				defer mu.Unlock()
				lastDM[channel] = r.At
				if marker != "" && strings.Contains(body, "Match #1**") && strings.Contains(body, marker) {
					if arrived = append(arrived, r.At); len(arrived) == 3 {
						measured <- struct{}{}
					}
				}
			}
			limits := Limits{ComputerThinkers: tc.thinkers}
			if tc.thinkers < 1<<20 {
				// As strategobot serves: a P per thinker besides the cores.
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(limits.GoProcs(runtime.GOMAXPROCS(0))))
			}
			h := newHarnessOn(b, []discordtest.Option{discordtest.WithRequestHook(hook)}, func(c *Config) { c.Limits = limits })
			red := placed(b, map[[2]int]game.Rank{{0, 0}: game.Sergeant})
			blue := placed(b, map[[2]int]game.Rank{{0, 0}: game.Sergeant})
			h.challenge("Classic", discordtest.Opt("two_squares", 0), discordtest.Opt("more_squares", false))
			h.sendSetups(red, blue)
			h.bot.deliverDue(context.Background())

			const practice = 150
			ctx := context.Background()
			rules := game.DefaultRules(game.VariantClassic)
			level := ai.Hard
			var started []*storage.Match
			// Practice matches played in DMs, one member each: Discord's
			// limits per channel then leave the measure to the machine.
			humans := make([]*discordtest.Member, practice)
			for k := range humans {
				humans[k] = h.guild.AddMember(fmt.Sprintf("player%d", k))
			}
			h.fixtures(func() {
				for k := range practice {
					m := &storage.Match{ChannelID: humans[k].DM().ID, Rules: rules, MoveTime: 24 * time.Hour,
						Casual: true, Computer: level.String(), Phase: storage.PhaseSetup, Created: T0}
					m.Players[game.Red] = storage.Player{UserID: h.srv.BotID(), Name: "Computer (hard)"}
					m.Players[game.Blue] = storage.Player{UserID: humans[k].ID, Name: humans[k].Name}
					m, err := h.db.CreateMatch(ctx, m)
					for side := range 2 {
						if err == nil {
							m, err = h.db.SetSetup(ctx, m.ID, 0, game.Side(side), game.RandomSetup(rules, uint64(2*k+side+1)), storage.SetupConfirmed, T0)
						}
					}
					if err != nil {
						b.Fatal(err)
					}
					started = append(started, m)
				}
			})
			computerMoves := func() int {
				n := 0
				for _, m := range started {
					if got, err := h.db.Match(ctx, m.ID); err == nil {
						n += (len(got.Log) + 1) / 2
					}
				}
				return n
			}
			for _, m := range started {
				g, err := m.Game()
				if err != nil {
					b.Fatal(err)
				}
				h.bot.letComputerMove(ctx, m, g)
			}
			// Each player answers the pace after the computer's move reached
			// them (2 s: a very quick player; 10 s: a quick one), through the
			// path a person's move takes: the 150 computers keep thinking. A
			// player looks at their match only when a new DM came.
			stop := make(chan struct{})
			answering := make(chan struct{})
			go func() {
				defer close(answering)
				checked := make([]time.Time, practice) // the DM each player last looked at
				for k := 0; ; k++ {
					select {
					case <-stop:
						return
					case <-time.After(50 * time.Millisecond):
					}
					for j, s := range started {
						mu.Lock()
						last := lastDM[humans[j].DM().ID]
						mu.Unlock()
						if !last.After(checked[j]) || time.Since(last) < tc.pace {
							continue
						}
						checked[j] = last
						m, err := h.db.Match(ctx, s.ID)
						if err != nil || m.Phase != storage.PhasePlaying || m.ToMove() != game.Blue {
							continue
						}
						g, err := m.Game()
						if err != nil {
							continue
						}
						legal := g.LegalMoves()
						if len(legal) == 0 {
							continue
						}
						_, _, _ = h.bot.play(ctx, m, game.Blue, m.Version, legal[k%len(legal)], nil)
					}
				}
			}()
			defer func() { close(stop); <-answering }()

			// The measure starts once every computer has moved once: the load
			// is then steady, not the burst of 150 openings at once.
			// (150 first moves take the one thinker 10 to 30 s.)
			for deadline := time.Now().Add(2 * time.Minute); computerMoves() < practice; time.Sleep(time.Second) {
				if time.Now().After(deadline) {
					b.Fatalf("the computers made %d of their %d first moves in 2 minutes", computerMoves(), practice)
				}
			}
			moves := [][2]string{{"A4", "A5"}, {"J7", "J6"}, {"A5", "A4"}, {"J6", "J7"}}
			players := []*discordtest.Member{h.alice, h.bob}
			var took []time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				time.Sleep(100 * time.Millisecond) // people's pace; see BenchmarkMoveToLastMessage
				mv := moves[i%len(moves)]
				mu.Lock()
				marker, arrived = mv[0]+"-"+mv[1], nil
				mu.Unlock()
				start := time.Now()
				players[i%2].SlashCommand(b, h.channel, "stratego move", discordtest.Opt("from", mv[0]), discordtest.Opt("to", mv[1]))
				// The move's three messages, told apart from the computer's by
				// their match. Unbounded, they may not come for minutes: a move
				// is given 30 s, and the run ends at the first that takes longer.
				select {
				case <-measured:
					mu.Lock()
					took = append(took, arrived[2].Sub(start))
					marker = ""
					mu.Unlock()
				case <-time.After(30 * time.Second):
					took = append(took, time.Since(start))
				}
				if took[len(took)-1] >= 30*time.Second {
					b.Logf("move %d took over 30 s: the run stops", i+1)
					break
				}
			}
			b.StopTimer()
			slices.Sort(took)
			b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "ms-median")
			b.ReportMetric(float64(took[len(took)*99/100].Microseconds())/1000, "ms-p99")
			b.ReportMetric(float64(took[len(took)-1].Microseconds())/1000, "ms-max")
			b.ReportMetric(float64(computerMoves()), "computer-moves")
		})
	}
}

// BenchmarkComputerSchedule runs the computer's thinkers as the bot does
// (thinking, one thinker, GoProcs's Ps) on 10 answers asked for at once,
// each a hard thought of a mid-game Classic position, with the machine as
// it is (quiet) or with every core kept busy by work of normal priority
// (busy; the thinkers run at the lowest): the default pace, and a pace of
// 50 ms, whose reservations are shorter than most hard thoughts, so that
// nearly every one is cut where its reservation ends. It reports the
// schedule's moves a second per thinker and the delay of the tenth answer
// (both follow from the schedule alone), the thoughts cut, and the latest
// any thought ended past its cap and past its reservation's end (the search
// looks at the clock every 256 nodes, and a thread of the lowest priority
// waits for a busy core), which the pace's margin past the reservation must
// cover.
func BenchmarkComputerSchedule(b *testing.B) {
	rules := game.DefaultRules(game.VariantClassic)
	var views []game.View
	for seed := range uint64(4) {
		g, err := game.NewGame(rules, ai.Setup(rules, 2*seed+1), ai.Setup(rules, 2*seed+2))
		if err != nil {
			b.Fatal(err)
		}
		for range 60 {
			mv, err := ai.New(ai.Easy, seed).Choose(g.View(game.ViewerOf(g.ToMove())))
			if err == nil {
				_, err = g.Apply(mv)
			}
			if err != nil {
				b.Fatal(err)
			}
		}
		views = append(views, g.View(game.ViewerOf(g.ToMove())))
	}
	ai.New(ai.Hard, 1).Choose(views[0]) // the published set-ups' index, built once a process
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(Limits{ComputerThinkers: 1}.GoProcs(runtime.GOMAXPROCS(0))))
	for _, busy := range []bool{false, true} {
		for _, pace := range []time.Duration{defaultComputerPace, 50 * time.Millisecond} {
			name := fmt.Sprintf("quiet/pace-%v", pace)
			if busy {
				name = fmt.Sprintf("busy/pace-%v", pace)
			}
			b.Run(name, func(b *testing.B) {
				stop := make(chan struct{})
				defer close(stop)
				var spun atomic.Bool // the busy work ends
				defer spun.Store(true)
				if busy {
					for range runtime.NumCPU() {
						go func() {
							for !spun.Load() { // work of normal priority, on every core
							}
						}()
					}
				}
				const n = 10
				var (
					mu          sync.Mutex
					late        = time.Duration(-1 << 62)
					over        time.Duration // the most a thought ran past its cap
					cut, all    int
					first, last *answer
					asked       time.Time
				)
				for range b.N {
					th := newThinking(1, pace)
					asked = time.Now()
					var wg sync.WaitGroup
					for k := range n {
						a := th.book(asked)
						if k == 0 {
							first = a
						}
						last = a
						wg.Add(1)
						go func() {
							defer wg.Done()
							th.do(stop, a, func() {
								thoughtCap := a.thoughtCap()
								begun := time.Now()
								if _, err := ai.New(ai.Hard, uint64(k)).WithTimeCap(thoughtCap).Choose(views[k%len(views)]); err != nil {
									b.Error(err)
								}
								ended := time.Now()
								mu.Lock()
								defer mu.Unlock()
								all++
								if ended.Sub(begun) >= thoughtCap {
									cut++
									over = max(over, ended.Sub(begun)-thoughtCap)
								}
								late = max(late, ended.Sub(a.end))
							})
						}()
					}
					wg.Wait()
				}
				b.ReportMetric(float64(n-1)/last.due.Sub(first.due).Seconds(), "moves/s/thinker")
				b.ReportMetric(last.due.Sub(asked).Seconds(), "s-tenth-due")
				b.ReportMetric(float64(cut)/float64(all), "cut/thought")
				b.ReportMetric(float64(over)/float64(time.Millisecond), "ms-most-past-cap")
				b.ReportMetric(float64(late)/float64(time.Millisecond), "ms-latest-past-reservation")
			})
		}
	}
}
