package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/strategobot/strategobot/bot"
	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/internal/pgtest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/postgres"
)

const loadtestUsage = `usage: strategobot loadtest [-matches N] [-active N] [-rate R] [-duration D] [-database DB]

Runs the bot (this program's "run", as its own process, on a fresh database)
against a local stand-in for Discord, and plays many matches at once as
simulated members with /stratego move: each match's next move waits for the
previous one's last message. It reports moves per second (each with its
three pictures rendered and delivered), the time from the interaction to its
acknowledgement and to the move's last message, the bot's memory and the
database's size. The running matches are written straight into the database
with both set-ups done; the bot then serves them.

Environment:
  STRATEGOBOT_TEST_POSTGRES_BIN  the folder of initdb and postgres for
                                 -database postgres, when they are not found
                                 on PATH or in the usual folders
The bot it runs gets this environment, with DISCORD_TOKEN, the database and
the local Discord's address set by the load test.

Flags:
`

// loadOptions is what one load test does.
type loadOptions struct {
	matches  int           // running matches in the database
	active   int           // of which this many are played at once
	rate     float64       // moves offered per second in all; 0: as fast as answered
	duration time.Duration // measured, after the warm-up
	warmup   time.Duration
	database string // bbolt path, postgres:// URL, "postgres" for a throwaway server, "" for a temporary bbolt file
	bot      string // the strategobot binary to run
	botCPUs  string // the CPUs the bot runs on (a taskset list); "" for any
	seed     uint64
	validate bool      // the stand-in checks every request against Discord's API description
	log      io.Writer // progress

	botProfile, cpuProfile string // CPU profiles of the measured time: the bot's, this process's
}

// loadtestFlags declares loadtest's flags into o.
func loadtestFlags(o *loadOptions, stderr io.Writer) *flag.FlagSet {
	fs := cli.NewFlagSet("loadtest", loadtestUsage, stderr)
	fs.IntVar(&o.matches, "matches", 200, "running matches, written into the database before the bot starts")
	fs.IntVar(&o.active, "active", 0, "matches played at once (0: all of them, at most 200)")
	fs.Float64Var(&o.rate, "rate", 0, "moves per second offered in all (0: each match moves again as soon as its last move is delivered)")
	fs.DurationVar(&o.duration, "duration", 30*time.Second, "how long to measure, after the warm-up")
	fs.DurationVar(&o.warmup, "warmup", 5*time.Second, "how long to play before measuring")
	fs.StringVar(&o.database, "database", "", `bbolt file (default: one in a temporary folder), a postgres:// address, or "postgres" for a throwaway server from the machine's PostgreSQL binaries`)
	fs.StringVar(&o.bot, "bot", "", "the strategobot binary to run (default: this one)")
	fs.StringVar(&o.botCPUs, "botcpus", "", "run the bot on these CPUs only (a taskset list: 0, 0-1), to measure it apart from this process, which then belongs on the others: taskset -c 1 strategobot loadtest -botcpus 0")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the set-ups and the moves")
	fs.BoolVar(&o.validate, "validate", false, "have the local Discord check every request against Discord's API description, as the tests do (a fifth of its CPU)")
	fs.StringVar(&o.botProfile, "botprofile", "", "write the bot's CPU profile of the measured time to this file")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write the CPU profile of the measured time of this process (the local Discord and the members) to this file")
	return fs
}

func runLoadtest(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o := loadOptions{log: stderr}
	if err := cli.ParseFlags(loadtestFlags(&o, stderr), args); err != nil {
		return cli.UsageFailed(stderr, "strategoload", loadtestUsage, err)
	}
	if o.active == 0 {
		o.active = min(o.matches, 200)
	}
	if o.matches < 1 || o.active < 1 || o.active > o.matches || o.duration <= 0 || o.warmup < 0 || o.rate < 0 {
		return cli.UsageFailed(stderr, "strategoload", loadtestUsage, errors.New("need 1 <= -active <= -matches, a positive -duration and no negative -warmup or -rate"))
	}
	// This process is Discord's side: its memory does not matter here and its
	// CPU is not the bot's, so it collects garbage a quarter as often (a
	// seventh of its CPU went to the collector). The bot, a process of its own,
	// keeps Go's default.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	if o.bot == "" {
		exe, err := os.Executable()
		if err != nil {
			fmt.Fprintln(stderr, "strategobot loadtest: cannot find this program to run it as the bot:", err)
			return 1
		}
		o.bot = exe
	}
	rep, err := loadtest(ctx, o)
	if rep != nil {
		rep.print(stdout)
	}
	if err != nil {
		fmt.Fprintln(stderr, "strategobot loadtest:", err)
		return 1
	}
	if rep.failures() > 0 {
		return 1
	}
	return 0
}

// loadReport is what a load test measured.
type loadReport struct {
	Database               string
	Matches, Active        int
	Rate                   float64
	BotCPUs                string // the CPUs the bot was held to, as the kernel lists them; "" if not held
	Validated              bool   // the stand-in checked every request against Discord's API description
	Measured, Warmup       time.Duration
	Moves                  int             // moves sent and completed in the measured time
	Ack, Last              []time.Duration // per move of the measured time, sorted
	HeapInuse, RSS         uint64          // the bot's at the end
	PeakHeap, PeakRSS      uint64
	DatabaseBytes          int64
	BotCPU, DriverCPU      time.Duration // over the measured time
	Violations             int           // what the stand-in says Discord would have refused
	Unfinished             int           // moves without their messages after 30 s
	Refused                int           // requests the stand-in answered with an error
	BotErrors              int           // ERROR lines in the bot's log
	BotWarnings            int           // WARN lines
	FirstWarning           string
	Ended                  int // matches that ended during the run (no longer played)
	Requests               map[string]int
	FirstViolation, Sample string
}

func (r *loadReport) failures() int { return r.Violations + r.Unfinished + r.BotErrors }

// MovesPerSecond is the sustained rate over the measured time.
func (r *loadReport) MovesPerSecond() float64 { return float64(r.Moves) / r.Measured.Seconds() }

func (r *loadReport) print(w io.Writer) {
	mb := func(b uint64) string { return fmt.Sprintf("%.1f MB", float64(b)/(1<<20)) }
	offered := "as fast as answered"
	if r.Rate > 0 {
		offered = fmt.Sprintf("%.0f moves/s offered", r.Rate)
	}
	fmt.Fprintf(w, "database          %s\n", r.Database)
	fmt.Fprintf(w, "matches           %d running, %d played at once, %s\n", r.Matches, r.Active, offered)
	fmt.Fprintf(w, "warm-up           %.1fs, until every match had moved once (each player's first DM opens a DM channel)\n", r.Warmup.Seconds())
	fmt.Fprintf(w, "moves             %d in %.1fs: %.1f moves/s (each: 3 messages with pictures and the mover's answer)\n", r.Moves, r.Measured.Seconds(), r.MovesPerSecond())
	fmt.Fprintf(w, "acknowledgement   %s\n", spread(r.Ack))
	fmt.Fprintf(w, "last message      %s\n", spread(r.Last))
	fmt.Fprintf(w, "bot memory        heap in use %s, RSS %s at the end (peaks %s and %s)\n", mb(r.HeapInuse), mb(r.RSS), mb(r.PeakHeap), mb(r.PeakRSS))
	fmt.Fprintf(w, "database size     %s\n", mb(uint64(r.DatabaseBytes)))
	perMove := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(max(r.Moves, 1)) }
	on := ""
	if r.BotCPUs != "" {
		on = " on CPUs " + r.BotCPUs
	}
	fmt.Fprintf(w, "CPU               bot %.2f cores%s (%.2f ms a move), stand-in and members %.2f cores (%.2f ms a move)\n",
		r.BotCPU.Seconds()/r.Measured.Seconds(), on, perMove(r.BotCPU), r.DriverCPU.Seconds()/r.Measured.Seconds(), perMove(r.DriverCPU))
	checked := "routes, tokens, permissions and limits (-validate: also bodies, against Discord's API description)"
	if r.Validated {
		checked = "routes, tokens, permissions, limits and bodies, against Discord's API description"
	}
	fmt.Fprintf(w, "stand-in checks   %s\n", checked)
	fmt.Fprintf(w, "failures          %d: %d refused by the stand-in as Discord would, %d moves unfinished after 30s, %d errors in the bot's log\n",
		r.failures(), r.Violations, r.Unfinished, r.BotErrors)
	if r.FirstViolation != "" {
		fmt.Fprintf(w, "                  first: %s\n", shorten(r.FirstViolation, 300))
	}
	if r.Sample != "" {
		fmt.Fprintf(w, "                  bot log: %s\n", shorten(r.Sample, 300))
	}
	if r.BotWarnings > 0 {
		fmt.Fprintf(w, "warnings          %d in the bot's log; first: %s\n", r.BotWarnings, shorten(r.FirstWarning, 300))
	}
	if r.Ended > 0 || r.Refused > 0 {
		fmt.Fprintf(w, "notes             %d matches ended and were no longer played; %d requests answered with an error (rate limits included)\n", r.Ended, r.Refused)
	}
	routes := make([]string, 0, len(r.Requests))
	for k := range r.Requests {
		routes = append(routes, k)
	}
	slices.Sort(routes)
	for _, k := range routes {
		fmt.Fprintf(w, "requests          %7d  %s\n", r.Requests[k], k)
	}
}

// spread describes sorted durations: median, 99th percentile, worst.
func spread(d []time.Duration) string {
	if len(d) == 0 {
		return "none measured"
	}
	ms := func(x time.Duration) string { return fmt.Sprintf("%.1f ms", float64(x.Microseconds())/1000) }
	return fmt.Sprintf("median %s, p99 %s, max %s", ms(percentile(d, 50)), ms(percentile(d, 99)), ms(d[len(d)-1]))
}

// percentile of sorted durations, nearest rank.
func percentile(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	i := (len(d)*p + 99) / 100
	return d[max(0, min(len(d)-1, i-1))]
}

// loadOwner owns the stand-in outside a test: every Errorf is a violation
// of the run, and a Fatalf ends the goroutine of the member that acted.
type loadOwner struct {
	mu       sync.Mutex
	errors   []string
	cleanups []func()
}

func (o *loadOwner) Helper() {}

func (o *loadOwner) Errorf(format string, args ...any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.errors = append(o.errors, fmt.Sprintf(format, args...))
}

func (o *loadOwner) Fatalf(format string, args ...any) {
	o.Errorf(format, args...)
	runtime.Goexit()
}

func (o *loadOwner) Cleanup(f func()) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.cleanups = append(o.cleanups, f)
}

func (o *loadOwner) close() {
	o.mu.Lock()
	fs := o.cleanups
	o.cleanups = nil
	o.mu.Unlock()
	for i := len(fs) - 1; i >= 0; i-- {
		fs[i]()
	}
}

func (o *loadOwner) failures() (int, string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.errors) == 0 {
		return 0, ""
	}
	return len(o.errors), o.errors[0]
}

// loadMatch is one running match and what the members know of it: the
// whole game, as the driver plays both sides.
type loadMatch struct {
	id      storage.MatchID
	channel *discordtest.Channel
	players [2]*discordtest.Member
	game    *game.Game

	mu      sync.Mutex
	arrived [3]int       // messages that reached red's DM, blue's DM and the channel
	last    [3]time.Time // when the latest of each arrived
	wake    chan struct{}
}

// arrived notes a message in one of the match's channels.
func (m *loadMatch) note(slot int, at time.Time) {
	m.mu.Lock()
	m.arrived[slot]++
	m.last[slot] = at
	m.mu.Unlock()
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

// answer is what the stand-in saw of one interaction's answers.
type answer struct {
	mu           sync.Mutex
	acked, wrote time.Time
	wake         chan struct{}
}

// loadRun is one load test under way.
type loadRun struct {
	opts    loadOptions
	owner   *loadOwner
	srv     *discordtest.Server
	inbox   map[string]loadSlot // channel id: whose messages these are; read-only once play starts
	answers sync.Map            // interaction token: *answer

	mu       sync.Mutex
	requests map[string]int
	refused  int
}

type loadSlot struct {
	match *loadMatch
	slot  int
}

func (r *loadRun) answerOf(token string) *answer {
	a, _ := r.answers.LoadOrStore(token, &answer{wake: make(chan struct{}, 1)})
	return a.(*answer)
}

// observe is the stand-in's request hook.
func (r *loadRun) observe(req discordtest.Request) {
	now := time.Now()
	r.mu.Lock()
	r.requests[req.Route]++
	if req.Status >= 300 {
		r.refused++
	}
	r.mu.Unlock()
	if req.Status >= 300 {
		return
	}
	parts := strings.Split(strings.Trim(req.Path, "/"), "/") // api v9 route…
	switch req.Route {
	case "POST /channels/{channel_id}/messages":
		if s, ok := r.inbox[parts[3]]; ok {
			s.match.note(s.slot, now)
		}
	case "POST /interactions/{interaction_id}/{interaction_token}/callback":
		a := r.answerOf(parts[4])
		a.mu.Lock()
		a.acked = now
		a.mu.Unlock()
		wakeUp(a.wake)
	case "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original":
		a := r.answerOf(parts[4])
		a.mu.Lock()
		a.wrote = now
		a.mu.Unlock()
		wakeUp(a.wake)
	}
}

func wakeUp(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// loadtest runs one load test and reports what it measured.
func loadtest(ctx context.Context, o loadOptions) (*loadReport, error) {
	dir, err := os.MkdirTemp("", "strategobot-loadtest-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	database, shown := o.database, ""
	switch {
	case database == "":
		database = filepath.Join(dir, "bot.db")
		shown = "bbolt, " + database
	case database == "postgres":
		fmt.Fprintln(o.log, "starting a throwaway PostgreSQL server…")
		url, stop, err := pgtest.Throwaway("strategobot")
		if err != nil {
			return nil, err
		}
		defer func() {
			if err := stop(); err != nil {
				fmt.Fprintln(o.log, "stopping PostgreSQL:", err)
			}
		}()
		database, shown = url, "PostgreSQL, a throwaway server from the machine's binaries (fsync on)"
	case postgres.IsURL(database):
		shown = "PostgreSQL, " + postgres.Redacted(database)
	default:
		shown = "bbolt, " + database
	}

	owner := &loadOwner{}
	defer owner.close()
	r := &loadRun{opts: o, owner: owner, inbox: map[string]loadSlot{}, requests: map[string]int{}}
	srvOpts := []discordtest.Option{discordtest.WithoutRequestLog(), discordtest.WithoutFileContents(), discordtest.WithRequestHook(r.observe)}
	if !o.validate {
		srvOpts = append(srvOpts, discordtest.WithoutRequestValidation())
	}
	r.srv = discordtest.New(owner, srvOpts...)
	matches, err := r.seed(ctx, database)
	if err != nil {
		return nil, err
	}

	proc, err := startLoadBot(o.bot, o.botCPUs, dir, r.srv, database, o.botProfile != "")
	if err != nil {
		return nil, err
	}
	defer proc.kill()
	if err := r.waitRegistered(ctx, proc); err != nil {
		return nil, err
	}
	rep := &loadReport{Database: shown, Matches: o.matches, Active: o.active, Rate: o.rate, Validated: o.validate}
	if o.botCPUs != "" {
		if rep.BotCPUs, err = proc.status("Cpus_allowed_list"); err != nil {
			return nil, fmt.Errorf("the bot's CPUs: %w", err)
		}
	}
	sampling := make(chan struct{})
	sampled := make(chan struct{})
	go func() { // the bot's memory, every second
		defer close(sampled)
		for {
			if heap, rss, err := proc.memory(); err == nil {
				rep.HeapInuse, rep.RSS = heap, rss
				rep.PeakHeap, rep.PeakRSS = max(rep.PeakHeap, heap), max(rep.PeakRSS, rss)
			}
			select {
			case <-sampling:
				return
			case <-time.After(time.Second):
			}
		}
	}()

	fmt.Fprintf(o.log, "playing %d of %d matches for %v (warm-up %v)…\n", o.active, o.matches, o.duration, o.warmup)
	r.play(ctx, matches[:o.active], rep, proc)
	close(sampling)
	<-sampled

	if postgres.IsURL(database) {
		rep.DatabaseBytes, err = postgresSize(ctx, database)
	}
	if err := proc.stop(); err != nil {
		fmt.Fprintln(o.log, "stopping the bot:", err)
	}
	if !postgres.IsURL(database) {
		var fi os.FileInfo
		if fi, err = os.Stat(database); err == nil {
			rep.DatabaseBytes = fi.Size()
		}
	}
	if err != nil {
		fmt.Fprintln(o.log, "database size:", err)
	}
	rep.Violations, rep.FirstViolation = owner.failures()
	rep.BotErrors, rep.Sample = proc.count("level=ERROR")
	rep.BotWarnings, rep.FirstWarning = proc.count("level=WARN")
	r.mu.Lock()
	rep.Requests, rep.Refused = r.requests, r.refused
	r.mu.Unlock()
	return rep, nil
}

// seed builds the stand-in's world, a channel and two members per match,
// and writes the running matches into the database, both set-ups done and
// what their start owes already delivered.
func (r *loadRun) seed(ctx context.Context, database string) ([]*loadMatch, error) {
	o := r.opts
	fmt.Fprintf(o.log, "writing %d running matches…\n", o.matches)
	club := r.srv.AddGuild("Load test")
	matches := make([]*loadMatch, o.matches)
	for k := range matches {
		m := &loadMatch{wake: make(chan struct{}, 1)}
		m.channel = club.AddChannel(fmt.Sprintf("match-%d", k+1))
		m.players[game.Red] = club.AddMember(fmt.Sprintf("red%d", k+1))
		m.players[game.Blue] = club.AddMember(fmt.Sprintf("blue%d", k+1))
		r.inbox[m.players[game.Red].DM().ID] = loadSlot{m, 0}
		r.inbox[m.players[game.Blue].DM().ID] = loadSlot{m, 1}
		r.inbox[m.channel.ID] = loadSlot{m, 2}
		matches[k] = m
	}
	db, err := openSeedStore(ctx, database)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	rules := game.DefaultRules(game.VariantClassic)
	now := time.Now()
	work := make(chan int)
	errs := make(chan error, 4)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range work {
				lm := matches[k]
				m := &storage.Match{GuildID: lm.channel.GuildID, ChannelID: lm.channel.ID, Rules: rules, MoveTime: 24 * time.Hour,
					Casual: true, Phase: storage.PhaseSetup, Created: now}
				for side, p := range lm.players {
					m.Players[side] = storage.Player{UserID: p.ID, Name: p.Name}
				}
				m, err := db.CreateMatch(ctx, m)
				for side := range 2 {
					if err == nil {
						m, err = db.SetSetup(ctx, m.ID, 0, game.Side(side), game.RandomSetup(rules, o.seed*1_000_003+uint64(2*k+side)), storage.SetupConfirmed, now)
					}
				}
				if err == nil {
					lm.id = m.ID
					lm.game, err = m.Game()
				}
				if err != nil {
					errs <- fmt.Errorf("write match %d: %w", k+1, err)
					return
				}
			}
		}()
	}
	var failed error
feed:
	for k := range matches {
		select {
		case work <- k:
		case failed = <-errs:
			break feed
		}
	}
	close(work)
	wg.Wait()
	if failed == nil && len(errs) > 0 {
		failed = <-errs
	}
	if failed != nil {
		return nil, failed
	}
	// The starts' messages are not part of the measure: they count as sent.
	for {
		due, err := db.DueNotices(ctx, time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC), 1000)
		if err != nil {
			return nil, fmt.Errorf("read the starts' notices: %w", err)
		}
		if len(due) == 0 {
			break
		}
		for _, n := range due {
			if err := db.NoticeDone(ctx, n.ID, now); err != nil {
				return nil, fmt.Errorf("drop a start's notice: %w", err)
			}
		}
	}
	return matches, nil
}

// openSeedStore opens the database to write the matches into; a bbolt file
// without fsync, as a bulk load.
func openSeedStore(ctx context.Context, database string) (storage.Store, error) {
	if postgres.IsURL(database) {
		return postgres.Open(ctx, postgres.Options{URL: database, Reminders: bot.Reminders, Logger: slog.New(slog.DiscardHandler)})
	}
	return storage.Open(storage.Options{Path: database, NoSync: true, Reminders: bot.Reminders})
}

// waitRegistered waits until the bot has registered its command, which it
// does once it is connected and ready.
func (r *loadRun) waitRegistered(ctx context.Context, proc *loadBot) error {
	deadline := time.Now().Add(2 * time.Minute)
	for {
		r.mu.Lock()
		n := r.requests["PUT /applications/{application_id}/commands"]
		r.mu.Unlock()
		if n > 0 {
			return nil
		}
		select {
		case <-proc.exited:
			return fmt.Errorf("the bot stopped at start; its log:\n%s", proc.tail())
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the bot did not register its command within 2 minutes; its log:\n%s", proc.tail())
		}
	}
}

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

// profile starts the CPU profiles asked for, of the bot and of this
// process, over the measured time; the function it returns waits for them.
func (r *loadRun) profile(proc *loadBot) func() {
	o := r.opts
	var wg sync.WaitGroup
	if o.botProfile != "" {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := proc.cpuProfile(o.botProfile, o.duration); err != nil {
				fmt.Fprintln(o.log, "the bot's profile:", err)
			}
		}()
	}
	stopOwn := func() {}
	if o.cpuProfile != "" {
		f, err := os.Create(o.cpuProfile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(o.log, "the profile of this process:", err)
		} else {
			stopOwn = func() {
				pprof.StopCPUProfile()
				if err := f.Close(); err != nil {
					fmt.Fprintln(o.log, "the profile of this process:", err)
				}
			}
		}
	}
	return func() {
		stopOwn()
		wg.Wait()
	}
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

// loadBot is the bot's process.
type loadBot struct {
	cmd     *exec.Cmd
	logPath string
	exited  chan struct{}
	metrics string // host:port of /metrics
}

func startLoadBot(bin, cpus, dir string, srv *discordtest.Server, database string, profiling bool) (*loadBot, error) {
	logPath := filepath.Join(dir, "bot.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	cmd := exec.Command(bin, "run")
	if cpus != "" {
		// taskset sets the CPUs and then becomes the bot: every thread of it
		// keeps them, and its Go runtime sizes itself to them.
		cmd = exec.Command("taskset", "-c", cpus, bin, "run")
	}
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"DISCORD_TOKEN="+srv.Token(),
		"STRATEGOBOT_API_BASE_URL="+srv.APIBase(),
		"STRATEGOBOT_DATABASE="+database,
		"STRATEGOBOT_CONFIG=",
		"STRATEGOBOT_METRICS_ADDR=127.0.0.1:0",
		"STRATEGOBOT_LOG_LEVEL=info",
		"STRATEGOBOT_PROFILING="+strconv.FormatBool(profiling),
	)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start the bot: %w", err)
	}
	p := &loadBot{cmd: cmd, logPath: logPath, exited: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

var metricsAddr = regexp.MustCompile(`serving /metrics and /healthz"? addr=(\S+)`)

// memory reads the bot's heap in use (from its /metrics) and its resident
// set (from /proc).
func (p *loadBot) memory() (heap, rss uint64, err error) {
	vm, err := p.status("VmRSS")
	if err != nil {
		return 0, 0, err
	}
	kb, _ := strconv.ParseUint(strings.TrimSuffix(vm, " kB"), 10, 64)
	rss = kb << 10
	if p.metrics == "" {
		if m := metricsAddr.FindStringSubmatch(p.tail()); m != nil {
			p.metrics = m[1]
		}
	}
	if p.metrics == "" {
		return 0, rss, errors.New("no metrics address in the bot's log yet")
	}
	heap, err = scrape(p.metrics, "go_memstats_heap_inuse_bytes")
	return heap, rss, err
}

// status returns a field of the bot's /proc status ("VmRSS", "Cpus_allowed_list").
func (p *loadBot) status(field string) (string, error) {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			return strings.TrimSpace(v), nil
		}
	}
	return "", fmt.Errorf("no %s in the bot's /proc status", field)
}

// cpuProfile writes the bot's CPU profile of the next d to path.
func (p *loadBot) cpuProfile(path string, d time.Duration) error {
	if p.metrics == "" {
		if _, _, err := p.memory(); p.metrics == "" {
			return err
		}
	}
	client := http.Client{Timeout: d + 30*time.Second}
	resp, err := client.Get(fmt.Sprintf("http://%s/debug/pprof/profile?seconds=%d", p.metrics, max(1, int(d.Seconds()))))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET /debug/pprof/profile: %s", resp.Status)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// cpu is the CPU time the bot has used so far.
func (p *loadBot) cpu() time.Duration {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	// The fields after the command's name, in parentheses: utime and stime are the 12th and 13th.
	s := string(stat)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseUint(f[11], 10, 64)
	k, _ := strconv.ParseUint(f[12], 10, 64)
	return time.Duration(u+k) * time.Second / 100 // USER_HZ is 100 on Linux
}

// ownCPU is the CPU time this process (the stand-in and the members) has used so far.
func ownCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// stop ends the bot with SIGTERM, as a service manager does.
func (p *loadBot) stop() error {
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return err
	}
	select {
	case <-p.exited:
		if !p.cmd.ProcessState.Success() {
			return fmt.Errorf("the bot ended with %v", p.cmd.ProcessState)
		}
		return nil
	case <-time.After(30 * time.Second):
		p.kill()
		return errors.New("the bot did not stop within 30s of SIGTERM and was killed")
	}
}

func (p *loadBot) kill() {
	select {
	case <-p.exited:
	default:
		_ = p.cmd.Process.Kill()
		<-p.exited
	}
}

func (p *loadBot) tail() string {
	b, _ := os.ReadFile(p.logPath)
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

// count counts the lines of the bot's log that contain level, and returns the first.
func (p *loadBot) count(level string) (int, string) {
	f, err := os.Open(p.logPath)
	if err != nil {
		return 0, ""
	}
	defer f.Close()
	n, first := 0, ""
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if strings.Contains(sc.Text(), level) {
			if n++; n == 1 {
				first = sc.Text()
			}
		}
	}
	return n, first
}

// scrape reads one gauge from a Prometheus text page.
func scrape(addr, name string) (uint64, error) {
	client := http.Client{Timeout: 5 * time.Second}
	resp, err := client.Get("http://" + addr + "/metrics")
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), name+" "); ok {
			v, err := strconv.ParseFloat(strings.TrimSpace(rest), 64)
			return uint64(v), err
		}
	}
	return 0, fmt.Errorf("no %s in the bot's /metrics", name)
}

// postgresSize is the size of the database the address names.
func postgresSize(ctx context.Context, url string) (int64, error) {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return 0, err
	}
	defer conn.Close(ctx)
	var n int64
	err = conn.QueryRow(ctx, "SELECT pg_database_size(current_database())").Scan(&n)
	return n, err
}

// shorten cuts s to n bytes for a report line.
func shorten(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
