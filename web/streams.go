package web

import (
	"errors"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Event streams: a page's live updates, and how many one link or client
// may hold open.

// events streams the viewer's state as server-sent events: the current
// state first, then one event per change that changes what the viewer
// learns (its key); a change of the version alone is not sent, so that the
// stream's timing tells nothing its content does not.
func (s *Server) events(w http.ResponseWriter, r *http.Request, c Capability) error {
	fl, ok := w.(http.Flusher)
	if !ok {
		return errors.New("streaming unsupported")
	}
	client := clientOf(r)
	if !s.streams.acquire(c, client) {
		return errTooManyStreams
	}
	defer s.streams.release(c, client)
	sub := s.hub.subscribe(c.Match)
	defer s.hub.unsubscribe(c.Match, sub)
	m, g, err := s.load(r.Context(), c)
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("X-Accel-Buffering", "no")
	every := time.Duration(s.ping.Load()) // the interval the page is told is the one kept
	h.Set(PingHeader, strconv.FormatInt(every.Milliseconds(), 10))
	last, lastStarted := m.Version, !m.ClockPending
	now := s.opts.Now()
	data, lastKey := BuildState(m, g, c.Viewer, now).Sent(now)
	if err := writeEvent(w, data); err != nil {
		return nil
	}
	fl.Flush()
	ping := time.NewTicker(every)
	defer ping.Stop()
	for {
		select {
		case <-r.Context().Done():
			return nil
		case <-ping.C:
			if _, err := s.opts.Auth.Authenticate(r); err != nil {
				return nil // expired or revoked while open
			}
			if _, err := io.WriteString(w, ": ping\n\n"); err != nil {
				return nil
			}
			fl.Flush()
		case u := <-sub:
			if u.before(last, lastStarted) || u.keys[c.Viewer] == lastKey {
				continue
			}
			last, lastStarted, lastKey = u.version, u.started, u.keys[c.Viewer]
			if _, err := s.opts.Auth.Authenticate(r); err != nil {
				return nil // expired or revoked while open: no more states
			}
			if err := writeEvent(w, u.states[c.Viewer]); err != nil {
				return nil
			}
			fl.Flush()
		}
	}
}

// PingEvery is how often an open event stream is sent a ping (a comment
// line): a proxy keeps a connection that carries bytes, and a page that
// hears nothing for several times as long knows its stream died unheard
// (PingHeader) and opens another.
const PingEvery = 25 * time.Second

// PingHeader names the event stream's ping interval, in milliseconds.
const PingHeader = "X-Strategobot-Ping"

func (s *Server) setPing(d time.Duration) { s.ping.Store(int64(d)) }

func writeEvent(w io.Writer, data []byte) error {
	if _, err := io.WriteString(w, "event: state\ndata: "); err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n\n")
	return err
}

// MaxStreamsPerLink is how many event streams one link may hold open at
// once, over all clients: a link passed on beyond Discord opens no more.
const MaxStreamsPerLink = 8

// MaxStreamsPerClient is how many event streams one client (clientOf) may
// hold open at once, over all its links: a club watching its games through
// one school's or café's address, not one person with a link from every
// /stratego watch, each bringing MaxStreamsPerLink more streams.
const MaxStreamsPerClient = 64

// MaxStreams is how many event streams the server holds open at once over
// all links and clients (some 50 KiB of the bot's memory each): clients
// with many addresses (an IPv6 host given a /48 is 65,536 clients) and
// many links, each within its own bounds, fill this one and are refused,
// rather than the bot's memory, which would end it on Discord too.
const MaxStreams = 10000

// streamCount counts the open event streams of each link and each client,
// and in all.
type streamCount struct {
	mu       sync.Mutex
	open     map[Capability]int
	byClient map[string]int
	total    int
	max      int // MaxStreams; a test's fewer
}

func newStreamCount() *streamCount {
	return &streamCount{open: map[Capability]int{}, byClient: map[string]int{}, max: MaxStreams}
}
func (s *streamCount) acquire(c Capability, client string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.open[c] >= MaxStreamsPerLink || s.byClient[client] >= MaxStreamsPerClient || s.total >= s.max {
		return false
	}
	s.open[c]++
	s.byClient[client]++
	s.total++
	return true
}
func (s *streamCount) release(c Capability, client string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.total--
	if s.open[c]--; s.open[c] <= 0 {
		delete(s.open, c)
	}
	if s.byClient[client]--; s.byClient[client] <= 0 {
		delete(s.byClient, client)
	}
}
