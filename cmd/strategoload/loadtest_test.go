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
	}{
		{"bbolt", func(t *testing.T) string { return "" }, ""},
		{"postgres", func(t *testing.T) string { return pgtest.NewDatabase(t) }, ""},
		{"bbolt, the bot on CPU 0", func(t *testing.T) string { return "" }, "0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var progress bytes.Buffer
			rep, err := loadtest(context.Background(), loadOptions{matches: 6, active: 4, duration: 2 * time.Second,
				warmup: 500 * time.Millisecond, database: tc.database(t), bot: bin, botCPUs: tc.cpus, seed: 1, validate: true, log: &progress})
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
			if !rep.Validated || !strings.Contains(out.String(), "limits and bodies, against Discord's API description") {
				t.Errorf("the report does not say that every request was checked:\n%s", out.String())
			}
		})
	}
}
