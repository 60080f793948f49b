// Command strategoload is the load test of strategobot: it runs the real
// bot, as a process of its own, against a local stand-in for Discord, plays
// many matches at once as simulated members and reports the bot's speed.
//
//	strategoload [-matches N] [-active N] [-rate R] [-duration D] [-database DB] [-bot PATH] [-pages N]
//	strategoload -web-viewers N [-matches N] [-rate R] [-duration D]
//
// It needs the strategobot binary (go build ./cmd/strategobot): -bot names
// it, or it is found beside strategoload or on PATH. docs/PERFORMANCE.md
// gives the figures it measured and how to read them.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"time"

	"github.com/strategobot/strategobot/internal/cli"
)

const usage = `usage: strategoload [-matches N] [-active N] [-rate R] [-duration D] [-database DB] [-bot PATH] [-pages N]
       strategoload -web-viewers N [-matches N] [-rate R] [-duration D]

Runs the bot (strategobot run, as its own process, on a fresh database)
against a local stand-in for Discord, and plays many matches at once as
simulated members with /stratego move: each match's next move waits for the
previous one's last message. It reports moves per second (each with its
three pictures rendered and delivered), the time from the interaction to its
acknowledgement and to the move's last message, the bot's memory and the
database's size. The running matches are written straight into the database
with both set-ups done; the bot then serves them. With -pages N the bot also
serves its board in the browser, N pages keep event streams open on the
played matches, and it reports each move's time to its state on the pages
and the bot's memory per open page.

With -web-viewers it loads the board in the browser instead, in this
process: the web server on a bbolt store, N open pages (event streams over
loopback TCP) spread over -matches matches, and moves stored and announced
as the bot does at -rate moves per second (default 100). It reports the
time from each announced change to its event read by a page, and the
memory per open page.

The bot is the strategobot binary -bot names; by default the one beside
this program, else the one on PATH. Build it with go build ./cmd/strategobot.

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
	viewers  int       // open web pages: load the web server in this process instead of the bot
	pages    int       // open web pages on the bot's own board in the browser

	botProfile, cpuProfile string // CPU profiles of the measured time: the bot's, this process's
}

// loadFlags declares the flags into o.
func loadFlags(o *loadOptions, w io.Writer) *flag.FlagSet {
	fs := cli.NewFlagSet("strategoload", usage, w)
	fs.IntVar(&o.matches, "matches", 200, "running matches, written into the database before the bot starts")
	fs.IntVar(&o.active, "active", 0, "matches played at once (0: all of them, at most 200)")
	fs.Float64Var(&o.rate, "rate", 0, "moves per second offered in all (0: each match moves again as soon as its last move is delivered)")
	fs.DurationVar(&o.duration, "duration", 30*time.Second, "how long to measure, after the warm-up")
	fs.DurationVar(&o.warmup, "warmup", 5*time.Second, "how long to play before measuring")
	fs.StringVar(&o.database, "database", "", `bbolt file (default: one in a temporary folder), a postgres:// address, or "postgres" for a throwaway server from the machine's PostgreSQL binaries`)
	fs.StringVar(&o.bot, "bot", "", "the strategobot binary to run (default: the one beside this program, else the one on PATH)")
	fs.StringVar(&o.botCPUs, "botcpus", "", "run the bot on these CPUs only (a taskset list: 0, 0-1), to measure it apart from this process, which then belongs on the others: taskset -c 1 strategoload -botcpus 0")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the set-ups and the moves")
	fs.BoolVar(&o.validate, "validate", false, "have the local Discord check every request against Discord's API description, as the tests do (a fifth of its CPU)")
	fs.IntVar(&o.pages, "pages", 0, "turn the bot's board in the browser on and keep this many pages open on the played matches (Red's, Blue's and the public view in turn); reports each move's time to its state on the pages and the bot's memory per page")
	fs.IntVar(&o.viewers, "web-viewers", 0, "load the board in the browser instead: this many open pages on -matches matches, at -rate moves/s (default 100), in this process")
	fs.StringVar(&o.botProfile, "botprofile", "", "write the bot's CPU profile of the measured time to this file")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write the CPU profile of the measured time of this process (the local Discord and the members) to this file")
	return fs
}

func main() { cli.Main(run) }

// run is the whole command: it reads the command line, finds the bot, runs
// the load test and prints its report.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o := loadOptions{log: stderr}
	if err := cli.ParseFlags(loadFlags(&o, stdout), args); err != nil {
		return cli.UsageFailed(stderr, "strategoload", usage, err)
	}
	if o.viewers > 0 {
		return runWeb(ctx, o, stdout, stderr)
	}
	if o.active == 0 {
		o.active = min(o.matches, 200)
	}
	if o.matches < 1 || o.active < 1 || o.active > o.matches || o.duration <= 0 || o.warmup < 0 || o.rate < 0 || o.pages < 0 {
		return cli.UsageFailed(stderr, "strategoload", usage, errors.New("need 1 <= -active <= -matches, a positive -duration and no negative -warmup, -rate or -pages"))
	}
	if o.bot == "" {
		bot, err := findBot()
		if err != nil {
			fmt.Fprintln(stderr, "strategoload:", err)
			return 2
		}
		o.bot = bot
	}
	bot, err := absoluteBot(o.bot)
	if err != nil {
		fmt.Fprintln(stderr, "strategoload:", err)
		return 2
	}
	o.bot = bot
	// This process is Discord's side: its memory does not matter here and its
	// CPU is not the bot's, so it collects garbage a quarter as often (a
	// seventh of its CPU went to the collector). The bot, a process of its own,
	// keeps Go's default.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	rep, err := loadtest(ctx, o)
	if rep != nil {
		rep.print(stdout)
	}
	if err != nil {
		fmt.Fprintln(stderr, "strategoload:", err)
		return 1
	}
	if rep.failures() > 0 {
		return 1
	}
	return 0
}

// runWeb is the load test of the board in the browser.
func runWeb(ctx context.Context, o loadOptions, stdout, stderr io.Writer) int {
	if o.rate == 0 {
		o.rate = 100
	}
	if o.matches < 1 || o.viewers < o.matches || o.duration <= 0 || o.warmup < 0 || o.rate < 0 {
		return cli.UsageFailed(stderr, "strategoload", usage, errors.New("-web-viewers needs at least -matches pages, a positive -duration and no negative -warmup or -rate"))
	}
	rep, err := webLoadtest(ctx, webOptions{viewers: o.viewers, matches: o.matches, rate: o.rate, duration: o.duration, warmup: o.warmup, seed: o.seed, log: stderr})
	if err != nil {
		fmt.Fprintln(stderr, "strategoload:", err)
		return 1
	}
	rep.print(stdout)
	if rep.Missed > 0 {
		return 1
	}
	return 0
}
