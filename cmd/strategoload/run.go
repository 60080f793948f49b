package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

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
	arrived [3]int            // messages that reached red's DM, blue's DM and the channel
	last    [3]time.Time      // when the latest of each arrived
	sent    map[int]time.Time // by ply: when a measured move's interaction was sent
	wake    chan struct{}
}

// noteSent notes when the measured move that makes ply ply was sent.
func (m *loadMatch) noteSent(ply int, at time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.sent == nil {
		m.sent = map[int]time.Time{}
	}
	m.sent[ply] = at
}

// sentAt is when the measured move that made ply ply was sent.
func (m *loadMatch) sentAt(ply int) (time.Time, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.sent[ply]
	return t, ok
}

// measuredUpTo counts the measured moves up to ply ply.
func (m *loadMatch) measuredUpTo(ply int) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for k := range m.sent {
		if k <= ply {
			n++
		}
	}
	return n
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

	webKey []byte // the key of the bot's web links, with -pages

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

	var env []string
	webAddr := ""
	if o.pages > 0 {
		if webAddr, err = freeAddr(); err != nil {
			return nil, err
		}
		env = []string{"STRATEGOBOT_WEB_ADDR=" + webAddr, "STRATEGOBOT_PUBLIC_URL=http://" + webAddr}
	}
	proc, err := startLoadBot(o.bot, o.botCPUs, dir, r.srv, database, o.botProfile != "", env...)
	if err != nil {
		return nil, err
	}
	defer proc.kill()
	if err := r.waitRegistered(ctx, proc); err != nil {
		return nil, err
	}
	rep := &loadReport{Database: shown, Matches: o.matches, Active: o.active, Rate: o.rate, Validated: o.validate, Pages: o.pages}
	var pages *botPages
	if o.pages > 0 {
		heap0, rss0, err := proc.memory()
		if err != nil {
			return nil, fmt.Errorf("the bot's memory before the pages: %w", err)
		}
		fmt.Fprintf(o.log, "opening %d web pages on the %d played matches…\n", o.pages, o.active)
		pctx, closePages := context.WithCancel(ctx)
		defer closePages()
		if pages, err = openPages(pctx, "http://"+webAddr, r.webKey, matches[:o.active], o.pages); err != nil {
			return nil, err
		}
		time.Sleep(2 * time.Second) // the bot's heap settles after the opening
		heap1, rss1, err := proc.memory()
		if err != nil {
			return nil, fmt.Errorf("the bot's memory with the pages: %w", err)
		}
		rep.PageHeap = (float64(heap1) - float64(heap0)) / float64(o.pages)
		rep.PageRSS = (float64(rss1) - float64(rss0)) / float64(o.pages)
	}
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
	if pages != nil {
		rep.PageLatency, rep.PageEvents, rep.PageMissed, rep.PagesClosed = pages.settle()
	}

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
