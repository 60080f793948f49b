package main

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/strategobot/strategobot/bot"
	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/internal/pgtest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/postgres"
)

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
