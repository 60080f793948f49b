package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"syscall"
	"time"
)

// webStopGrace is how long a stop lets the board's requests under way end,
// their context cancelled, before it closes their connections: as long as
// the bot gives its requests to Discord, so that a signal ends the bot at
// once whatever a client holds open.
const webStopGrace = 300 * time.Millisecond

// serveWeb serves the board in the browser on addr, behind the admin's
// reverse proxy at publicURL. It returns once it listens, so that a wrong
// address stops the start, and stop, which shuts the server down: open
// pages' event streams end, requests under way get webStopGrace, and what
// is left then (a body sent slowly, headers not finished) is cut.
func serveWeb(addr, publicURL string, handler http.Handler, logger *slog.Logger) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, listenError("web_addr", addr, err)
	}
	base, cancel := context.WithCancel(context.Background())
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 5 * time.Second,
		IdleTimeout:       2 * time.Minute,
		// Open pages hold an event stream each: ending their requests'
		// context lets Shutdown finish instead of waiting for them.
		BaseContext: func(net.Listener) context.Context { return base },
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logger.Error("the web server stopped", "error", err)
		}
	}()
	logger.Info("serving the board in the browser", "addr", ln.Addr().String(), "public_url", publicURL)
	return func() {
		shutdown, cancelShutdown := context.WithTimeout(context.Background(), webStopGrace)
		defer cancelShutdown()
		cancel()
		if err := srv.Shutdown(shutdown); err != nil {
			// A client holds a request open past the grace, or has sent
			// part of one (Shutdown waits 5 s for those).
			_ = srv.Close()
		}
		<-done
	}, nil
}

// listenError words a failure to listen on addr, the value of key
// (web_addr, metrics_addr), as a configuration error: run exits 2, since
// restarting it unchanged would find the port as busy, or the address as
// wrong, as before.
func listenError(key, addr string, err error) error {
	example := map[string]string{"web_addr": "8080", "metrics_addr": "9464"}[key]
	host, port, _ := net.SplitHostPort(addr)
	var dns *net.DNSError
	switch {
	case errors.Is(err, syscall.EADDRINUSE):
		return configError{fmt.Errorf("%s %s: another program listens there: choose another port or stop it", key, addr)}
	case errors.Is(err, syscall.EADDRNOTAVAIL):
		return configError{fmt.Errorf("%s %s: this machine has no such address: use one of its own, such as 127.0.0.1:%s, or :%s for all of them", key, addr, port, port)}
	case errors.Is(err, syscall.EACCES):
		return configError{fmt.Errorf("%s %s: the bot's user may not listen on port %s (ports below 1024 need privileges): choose a port above 1023, such as 127.0.0.1:%s", key, addr, port, example)}
	case errors.As(err, &dns):
		return configError{fmt.Errorf("%s %s: the name %s does not resolve to an address of this machine: use one of its addresses, such as 127.0.0.1:%s", key, addr, host, port)}
	}
	return configError{fmt.Errorf("%s %s: %w", key, addr, err)}
}
