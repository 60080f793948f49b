package main

import (
	"fmt"
	"io"
	"slices"
	"time"
)

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

	Pages                  int             // open web pages, with -pages
	PageLatency            []time.Duration // from a measured move's interaction to its state on a page, sorted
	PageEvents, PageMissed int             // measured states the pages read, and those they should have but did not
	PagesClosed            int             // pages whose stream ended before the run did
	PageHeap, PageRSS      float64         // the bot's heap and resident set per open page, in bytes
}

func (r *loadReport) failures() int {
	return r.Violations + r.Unfinished + r.BotErrors + r.PageMissed + r.PagesClosed
}

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
	if r.Pages > 0 {
		fmt.Fprintf(w, "web pages         %d open (%d closed early); %d measured moves' states read, %d missed\n", r.Pages, r.PagesClosed, r.PageEvents, r.PageMissed)
		fmt.Fprintf(w, "  move to page    %s (from the interaction sent to its state read on a page)\n", spread(r.PageLatency))
		fmt.Fprintf(w, "  bot memory      %.1f KiB heap and %.1f KiB RSS per open page\n", r.PageHeap/1024, r.PageRSS/1024)
	}
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

// shorten cuts s to n bytes for a report line.
func shorten(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
