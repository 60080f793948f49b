package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// TestWebViewers: a short run of open pages reads every change's event and
// reports its latency and memory.
func TestWebViewers(t *testing.T) {
	var out, errOut bytes.Buffer
	args := []string{"-web-viewers", "12", "-matches", "4", "-rate", "40", "-duration", "500ms", "-warmup", "100ms"}
	if code := run(context.Background(), args, &out, &errOut); code != 0 {
		t.Fatalf("exit %d:\n%s\n%s", code, out.String(), errOut.String())
	}
	for _, want := range []string{"12 open pages on 4 matches", "missed: 0", "event latency", "memory per open page"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("the report lacks %q:\n%s", want, out.String())
		}
	}
}

// TestWebViewersCountsEvents: the report's events are the moves times the pages.
func TestWebViewersCountsEvents(t *testing.T) {
	rep, err := webLoadtest(context.Background(), webOptions{viewers: 6, matches: 3, rate: 30, duration: 300 * time.Millisecond, warmup: 50 * time.Millisecond, seed: 1, log: &bytes.Buffer{}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Moves == 0 || rep.Events != rep.Moves*2 || len(rep.Latency) != rep.Events || rep.Missed != 0 {
		t.Fatalf("%d moves, %d events, %d latencies, %d missed", rep.Moves, rep.Events, len(rep.Latency), rep.Missed)
	}
}

// TestWebViewersFlags: -web-viewers needs at least one page per match.
func TestWebViewersFlags(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"-web-viewers", "2", "-matches", "5"}, &out, &errOut); code != 2 {
		t.Fatalf("exit %d, %s", code, errOut.String())
	}
}
