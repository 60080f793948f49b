package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"syscall"
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

// TestListenErrorSaysWhatToDo: web_addr or metrics_addr that this machine
// cannot listen on, for another reason than a busy port, is named with
// what to do instead, and is a configuration error too.
func TestListenErrorSaysWhatToDo(t *testing.T) {
	bind := func(errno syscall.Errno) error {
		return &net.OpError{Op: "listen", Net: "tcp", Err: os.NewSyscallError("bind", errno)}
	}
	tests := []struct {
		name, addr string
		err        error
		want       string
	}{
		{"an address of another machine", "192.0.2.1:9464", bind(syscall.EADDRNOTAVAIL),
			"metrics_addr 192.0.2.1:9464: this machine has no such address: use one of its own, such as 127.0.0.1:9464, or :9464 for all of them"},
		{"a port below 1024", "127.0.0.1:80", bind(syscall.EACCES),
			"metrics_addr 127.0.0.1:80: the bot's user may not listen on port 80 (ports below 1024 need privileges): choose a port above 1023, such as 127.0.0.1:9464"},
		{"a host name that does not resolve", "nohost.invalid:9464", &net.OpError{Op: "listen", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "nohost.invalid", IsNotFound: true}},
			"metrics_addr nohost.invalid:9464: the name nohost.invalid does not resolve to an address of this machine: use one of its addresses, such as 127.0.0.1:9464"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := listenError("metrics_addr", tc.addr, tc.err)
			if err.Error() != tc.want {
				t.Errorf("error %q, want %q", err, tc.want)
			}
			if !errors.Is(err, errConfig) {
				t.Errorf("error %v is no configuration error", err)
			}
		})
	}
	// A real address no interface has, as the admin would meet it.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	err := serveMetrics(ctx, "192.0.2.1:9464", false, newRegistry(), nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err == nil || !strings.Contains(err.Error(), "this machine has no such address") {
		t.Errorf("metrics_addr 192.0.2.1:9464: %v", err)
	}
}
