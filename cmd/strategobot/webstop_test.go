package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"testing"
	"time"
)

// TestWebStopCutsSlowClients: stopping the board's web server does not wait
// for a client that holds a request open (a body sent slowly, headers not
// finished): the requests are cut once their short grace is over, and the
// connections closed, so that a signal ends the bot at once. Shutdown
// waited 5 s for them, and left them open after that.
func TestWebStopCutsSlowClients(t *testing.T) {
	entered := make(chan struct{}, 1)
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		entered <- struct{}{}
		_, _ = io.Copy(io.Discard, r.Body) // as a page's POST is read
	})
	var logs bytes.Buffer
	stop, err := serveWeb("127.0.0.1:0", "http://localhost", handler, slog.New(slog.NewJSONHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	var line struct{ Addr string }
	if err := json.Unmarshal(logs.Bytes(), &line); err != nil || line.Addr == "" {
		t.Fatalf("the address it serves on: %v in %q", err, logs.String())
	}
	// One client in the middle of its body, one in the middle of its headers.
	body, err := net.Dial("tcp", line.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer body.Close()
	if _, err := io.WriteString(body, "POST /api HTTP/1.1\r\nHost: stratego.example.org\r\nContent-Length: 100\r\n\r\n{\"mo"); err != nil {
		t.Fatal(err)
	}
	<-entered
	headers, err := net.Dial("tcp", line.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer headers.Close()
	if _, err := io.WriteString(headers, "GET /api HTTP/1.1\r\nHost: stratego.example.org\r\n"); err != nil {
		t.Fatal(err)
	}
	stop()
	for name, conn := range map[string]net.Conn{"a body sent slowly": body, "headers not finished": headers} {
		// Closed by the server when stop returned: a read ends at once. The
		// deadline only keeps a failing test from hanging.
		_ = conn.SetReadDeadline(time.Now().Add(stopBound))
		_, err := io.ReadAll(conn)
		if errors.Is(err, os.ErrDeadlineExceeded) {
			t.Errorf("%s: the connection is still open after the web server stopped", name)
		}
	}
}
