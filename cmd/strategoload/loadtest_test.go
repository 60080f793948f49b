package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/internal/buildtest"
	"github.com/strategobot/strategobot/internal/pgtest"
)

// TestLoadtest runs a short load test of the built binary on each database
// (a sample of strategoload, which is run by hand for its figures)
// and checks that it played through the real bot and measured what it
// says: every move with its messages, latencies in order, the bot's memory
// and a database that grew. The local Discord checks every request against
// Discord's API description here, as in the other tests (-validate).
// TestMain runs the tests, then stops the PostgreSQL server they may have
// started and deletes the binaries they built.
func TestMain(m *testing.M) {
	code := pgtest.Main(m)
	buildtest.Remove()
	os.Exit(code)
}

func TestLoadtest(t *testing.T) {
	bin := buildtest.Binary(t, "./cmd/strategobot")
	tests := []struct {
		name     string
		database func(t *testing.T) string
		cpus     string // -botcpus
		pages    int    // -pages
	}{
		{"bbolt", func(t *testing.T) string { return "" }, "", 0},
		{"postgres", func(t *testing.T) string { return pgtest.NewDatabase(t) }, "", 0},
		{"bbolt, the bot on CPU 0", func(t *testing.T) string { return "" }, "0", 0},
		{"bbolt, 9 web pages open", func(t *testing.T) string { return "" }, "", 9},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var progress bytes.Buffer
			rep, err := loadtest(context.Background(), loadOptions{matches: 6, active: 4, duration: 2 * time.Second,
				warmup: 500 * time.Millisecond, database: tc.database(t), bot: bin, botCPUs: tc.cpus, pages: tc.pages, seed: 1, validate: true, log: &progress})
			if err != nil {
				t.Fatalf("loadtest: %v\n%s", err, progress.String())
			}
			var out strings.Builder
			rep.print(&out)
			t.Log("\n" + out.String())
			if rep.failures() != 0 {
				t.Errorf("%d failures: %s %s", rep.failures(), rep.FirstViolation, rep.Sample)
			}
			if rep.Moves < 4 || len(rep.Ack) != rep.Moves || len(rep.Last) != rep.Moves {
				t.Fatalf("%d moves measured, %d acknowledgements, %d last messages; want at least 4 of each, as many", rep.Moves, len(rep.Ack), len(rep.Last))
			}
			// Each move's last message comes after its acknowledgement, so
			// every rank of the sorted times does too.
			for i := range rep.Ack {
				if rep.Ack[i] <= 0 || rep.Last[i] < rep.Ack[i] || rep.Last[i] > 30*time.Second {
					t.Fatalf("rank %d: acknowledged after %v, last message after %v", i, rep.Ack[i], rep.Last[i])
				}
			}
			// Every move sent in the measured time and those around it: at
			// least three messages and one answer each.
			if n := rep.Requests["POST /channels/{channel_id}/messages"]; n < 3*rep.Moves {
				t.Errorf("%d messages for %d moves", n, rep.Moves)
			}
			if n := rep.Requests["PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"]; n < rep.Moves {
				t.Errorf("%d answers for %d moves", n, rep.Moves)
			}
			if rep.HeapInuse == 0 || rep.RSS < rep.HeapInuse || rep.PeakRSS < rep.RSS || rep.DatabaseBytes == 0 || rep.BotCPU <= 0 {
				t.Errorf("heap %d, RSS %d (peak %d), database %d bytes, bot CPU %v: want them all measured", rep.HeapInuse, rep.RSS, rep.PeakRSS, rep.DatabaseBytes, rep.BotCPU)
			}
			if rep.BotCPUs != tc.cpus {
				t.Errorf("the bot ran on CPUs %q, want %q", rep.BotCPUs, tc.cpus)
			}
			if !strings.Contains(out.String(), "moves/s") || !strings.Contains(out.String(), "p99") {
				t.Errorf("the report lacks the rate or the percentiles:\n%s", out.String())
			}
			// Each of the 4 played matches has 2 or 3 of the pages open:
			// every measured move reaches at least 2, after its interaction.
			if tc.pages > 0 {
				if rep.PageMissed != 0 || rep.PageEvents < 2*rep.Moves || len(rep.PageLatency) != rep.PageEvents {
					t.Errorf("pages read %d states of %d moves (%d latencies), missed %d", rep.PageEvents, rep.Moves, len(rep.PageLatency), rep.PageMissed)
				}
				if len(rep.PageLatency) > 0 && (rep.PageLatency[0] <= 0 || rep.PageLatency[len(rep.PageLatency)-1] > 30*time.Second) {
					t.Errorf("move to page from %v to %v", rep.PageLatency[0], rep.PageLatency[len(rep.PageLatency)-1])
				}
				if !strings.Contains(out.String(), "9 open") || !strings.Contains(out.String(), "per open page") {
					t.Errorf("the report lacks the pages:\n%s", out.String())
				}
			}
			if !rep.Validated || !strings.Contains(out.String(), "limits and bodies, against Discord's API description") {
				t.Errorf("the report does not say that every request was checked:\n%s", out.String())
			}
		})
	}
}
