package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"testing"
)

// TestBusyPortIsAConfigurationError: web_addr or metrics_addr on a port
// another program holds stops the start with what to do, and run exits 2
// (errConfig), which systemd does not restart into the same failure.
func TestBusyPortIsAConfigurationError(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	addr := busy.Addr().String()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tests := []struct {
		key    string
		listen func() error
	}{
		{"web_addr", func() error {
			stop, err := serveWeb(addr, "https://stratego.example.org", http.NotFoundHandler(), logger)
			if err == nil {
				stop()
			}
			return err
		}},
		{"metrics_addr", func() error { return serveMetrics(ctx, addr, false, newRegistry(), nil, logger) }},
	}
	for _, tc := range tests {
		t.Run(tc.key, func(t *testing.T) {
			err := tc.listen()
			want := tc.key + " " + addr + ": another program listens there: choose another port or stop it"
			if err == nil || err.Error() != want {
				t.Errorf("error %v, want %q", err, want)
			}
			if !errors.Is(err, errConfig) {
				t.Errorf("error %v is no configuration error: run would exit 1, and systemd restart it for ever", err)
			}
		})
	}
}
