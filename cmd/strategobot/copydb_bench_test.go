package main

import (
	"bytes"
	"context"
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/internal/buildtest"
	"github.com/strategobot/strategobot/internal/pgtest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/bolt"
	"github.com/strategobot/strategobot/storage/postgres"
	"github.com/strategobot/strategobot/storage/storagetest"
)

var (
	copydbMatches = flag.Int("copydb.matches", 20_000, "BenchmarkCopydb: finished matches in the database copied")
	copydbPlies   = flag.Int("copydb.plies", 300, "BenchmarkCopydb: plies of each match")
	copydbBin     = flag.String("copydb.bin", "", "BenchmarkCopydb: the strategobot binary to measure (default: this tree's, built)")
)

// BenchmarkCopydb measures the peak memory (resident set, as the kernel
// counts it) of strategobot copydb, run as its own process, copying a
// database of -copydb.matches finished matches of -copydb.plies plies
// each: bbolt to bbolt, bbolt to PostgreSQL and PostgreSQL to bbolt.
//
//	go test ./cmd/strategobot -run X -bench Copydb -benchtime 1x
func BenchmarkCopydb(b *testing.B) {
	ctx := context.Background()
	bin := *copydbBin
	if bin == "" {
		bin = buildtest.Binary(b, "./cmd/strategobot")
	}
	const gnuTime = "/usr/bin/time"
	if _, err := os.Stat(gnuTime); err != nil {
		b.Skipf("BenchmarkCopydb measures copydb's peak memory with GNU time, which is not at %s: %v", gnuTime, err)
	}
	dir := b.TempDir()
	src := filepath.Join(dir, "source.db")
	db, err := bolt.Open(bolt.Options{Path: src, NoSync: true, Reminders: storagetest.Reminders})
	if err != nil {
		b.Fatal(err)
	}
	scratch := func() storage.Store {
		s, err := bolt.Open(bolt.Options{Path: filepath.Join(b.TempDir(), "scratch.db"), NoSync: true, Reminders: storagetest.Reminders})
		if err != nil {
			b.Fatal(err)
		}
		return s
	}
	if err := db.Load(ctx, storagetest.FinishedMatches(b, scratch, *copydbMatches, *copydbPlies)); err != nil {
		b.Fatal(err)
	}
	db.Close()
	if info, err := os.Stat(src); err == nil {
		b.Logf("source: %d matches, %.1f MB", *copydbMatches, float64(info.Size())/1e6)
	}
	pgSource := pgtest.NewDatabase(b)
	if code := runCopydb(ctx, []string{"-from", src, "-to", pgSource}, io.Discard, os.Stderr); code != 0 {
		b.Fatalf("filling the PostgreSQL source: exit %d", code)
	}
	n := 0
	for _, tc := range []struct {
		name string
		from string
		to   func() string
	}{
		{"bolt-to-bolt", src, func() string { n++; return filepath.Join(dir, "copy"+string(rune('a'+n))+".db") }},
		{"bolt-to-postgres", src, func() string { return pgtest.NewDatabase(b) }},
		{"postgres-to-bolt", pgSource, func() string { n++; return filepath.Join(dir, "copy"+string(rune('a'+n))+".db") }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			var peak int64
			for b.Loop() {
				b.StopTimer()
				to := tc.to()
				b.StartTimer()
				// GNU time forks copydb itself: the peak os/exec's
				// rusage gives would count this process's, which
				// copydb's shares until it execs.
				cmd := exec.Command(gnuTime, "-f", "%M", bin, "copydb", "-from", tc.from, "-to", to)
				cmd.Env = append(os.Environ(), "STRATEGOBOT_CONFIG=", "STRATEGOBOT_DATABASE=")
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				if err := cmd.Run(); err != nil {
					b.Fatalf("copydb: %v\n%s", err, stderr.Bytes())
				}
				lines := strings.Fields(stderr.String())
				kib, err := strconv.ParseInt(lines[len(lines)-1], 10, 64)
				if err != nil {
					b.Fatalf("GNU time's peak: %v in %q", err, stderr.String())
				}
				peak = max(peak, kib)
				if !postgres.IsURL(to) {
					b.StopTimer()
					os.Remove(to)
					b.StartTimer()
				}
			}
			b.ReportMetric(float64(peak)/1024, "peak-RSS-MiB")
		})
	}
}
