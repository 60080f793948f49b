package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/internal/logsafe"
	"github.com/strategobot/strategobot/storage"
)

// Options configures a Server.
type Options struct {
	Auth    Authenticator
	Matches Matches
	Actor   Actor
	// Rate is how many API requests one client may make per second for one
	// viewer of one match (burst 4×); 0 means 5. Over all its links
	// together a client may make ClientLinks times as many (burst
	// ClientLinks times 4×), and as many requests whose link is refused
	// unread (none, malformed, forged) as for one link. See clientOf for
	// who a client is.
	Rate float64
	// Preferences gives a player's language and piece numbering (their
	// settings); nil: the page's browser language, modern numbering.
	Preferences func(ctx context.Context, userID string) (Preferences, error)
	// Names gives both players' names as a reader in p's language sees
	// them: the computer's seat of a practice match named in that language
	// ("Ordinateur (difficile)"), where the match stores the English name.
	// Nil: the names as stored.
	Names func(p lang.Printer, m *storage.Match) [2]string
	// Log reports failures; it is never given a token, and errors and panics
	// reach it through package logsafe. Nil: silent.
	Log func(msg string, args ...any)
	// Now is the server's clock, sent with each state for the page's
	// countdown; nil: time.Now.
	Now func() time.Time
}

// Server is the board in the browser: the page, the state, live events and
// the actions of one viewer of one match.
type Server struct {
	opts    Options
	hub     *hub
	limiter *limiter
	streams *streamCount
	mux     *http.ServeMux
	// bodyTimeout bounds the arrival of a request's body (BodyTimeout).
	bodyTimeout time.Duration
	// ping is how often an open event stream is pinged, in nanoseconds
	// (PingEvery; a test's shorter).
	ping atomic.Int64
	// build is the build of the page served (assetBuild; a test's
	// another, as after an upgrade).
	build atomic.Pointer[string]
}

// defaultRate is Options.Rate when it is 0.
const defaultRate = 5

// MaxBody is the largest request body accepted.
const MaxBody = 4 << 10

// New returns a server; mount it with http.Server{Handler: s}.
func New(opts Options) *Server {
	if opts.Rate == 0 {
		opts.Rate = defaultRate
	}
	if opts.Log == nil {
		opts.Log = func(string, ...any) {}
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	s := &Server{opts: opts, hub: newHub(), limiter: newLimiter(limitsFor(opts.Rate)), streams: newStreamCount(), bodyTimeout: BodyTimeout}
	s.setPing(PingEvery)
	s.setBuild(assetBuild())
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.page)
	mux.HandleFunc("GET /board", s.page)
	mux.Handle("GET /static/", s.assets())
	mux.HandleFunc("GET /api/state", s.api(s.state))
	mux.HandleFunc("GET /api/events", s.api(s.events))
	mux.HandleFunc("GET /api/texts", s.api(s.texts))
	mux.HandleFunc("GET /api/replay", s.api(s.replay))
	mux.HandleFunc("GET /api/reveal", s.api(s.reveal))
	mux.HandleFunc("GET /api/record", s.api(s.record))
	mux.HandleFunc("POST /api/check", s.api(s.check))
	mux.HandleFunc("POST /api/move", s.api(s.move))
	mux.HandleFunc("POST /api/setup", s.api(s.setup))
	mux.HandleFunc("POST /api/random", s.api(s.random))
	mux.HandleFunc("GET /api/setups", s.api(s.savedSetups))
	mux.HandleFunc("POST /api/setups", s.api(s.saveSetup))
	mux.HandleFunc("POST /api/resign", s.api(s.resign))
	mux.HandleFunc("POST /api/draw", s.api(s.draw))
	mux.HandleFunc("POST /api/givetime", s.api(s.giveTime))
	mux.HandleFunc("POST /api/pause", s.api(s.pause))
	s.mux = mux
	return s
}

// ServeHTTP sets the security headers and serves.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	defer func() {
		// net/http would log a handler's panic with its value and a stack
		// whose argument words are whatever the handler held (a rank, a
		// set-up): Options.Log gets logsafe's report instead, and the
		// connection is dropped as net/http drops it, without its log line.
		if v := recover(); v != nil {
			if v != http.ErrAbortHandler {
				s.opts.Log("web: handler panicked", "path", r.URL.Path, "panic", logsafe.Panic(v))
			}
			panic(http.ErrAbortHandler)
		}
	}()
	s.mux.ServeHTTP(w, r)
}

// MatchChanged tells open pages of m that it changed. g is m's game after the
// change (nil before the game starts): the snapshot every viewer's state is
// built from, once per viewer. Call it after every committed change.
func (s *Server) MatchChanged(m *storage.Match, g *game.Game) {
	if !s.hub.watched(m.ID) {
		return
	}
	u := update{version: m.Version, started: !m.ClockPending}
	now := s.opts.Now()
	for v := range u.states {
		u.states[v], u.keys[v] = BuildState(m, g, game.Viewer(v), now).Sent(now)
	}
	s.hub.publish(m.ID, u)
}

type apiHandler func(w http.ResponseWriter, r *http.Request, c Capability) error

func (s *Server) api(h apiHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set(BuildHeader, s.buildName())
		// Errors speak the page's language (its browser's, a query parameter:
		// no secret); a refusal's reason comes translated from the Actor.
		p := lang.For(r.URL.Query().Get("lang"))
		// The limits come before the full check, which reads the database:
		// a link's own and its client's over all links; a link refused
		// unread counts against its client's refusals alone. A throttled
		// request is answered with the same words whoever asks, and has the
		// security headers (ServeHTTP) as every answer does.
		client := clientOf(r)
		claimed, err := s.claim(r)
		var allowed bool
		if err != nil {
			allowed = s.limiter.allow(limitKey{scope: perRefused, client: client})
		} else {
			allowed = s.limiter.allow(linkKey(claimed, client), limitKey{scope: perClient, client: client})
		}
		if !allowed {
			httpError(w, http.StatusTooManyRequests, p.Sprintf(txtTooMany))
			return
		}
		var c Capability
		if err == nil {
			var read *storage.Match
			c, read, err = s.authenticate(r)
			if read != nil {
				r = r.WithContext(context.WithValue(r.Context(), authenticatedKey{}, read))
			}
		}
		if err != nil && !refused(err) {
			s.opts.Log("web: checking a link failed", "path", r.URL.Path, "match", claimed.Match, "err", logsafe.Err(err))
			httpError(w, http.StatusInternalServerError, p.Sprintf(txtFailed))
			return
		}
		if err != nil {
			httpError(w, refusedStatus(err), refusedText(p, err))
			return
		}
		if r.Method == http.MethodPost {
			if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				httpError(w, http.StatusUnsupportedMediaType, p.Sprintf(txtJSONOnly))
				return
			}
			body, err := s.readBody(w, r)
			if err != nil {
				var mb *http.MaxBytesError
				if errors.As(err, &mb) {
					httpError(w, http.StatusRequestEntityTooLarge, p.Sprintf(txtTooLarge))
				} else {
					httpError(w, http.StatusBadRequest, p.Sprintf(txtBadRequest))
				}
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		if err := h(w, r, c); err != nil {
			var ref *Refusal
			var fb *forbidden
			switch {
			case errors.As(err, &ref):
				httpError(w, http.StatusConflict, ref.Reason)
			case errors.Is(err, errBadRequest):
				httpError(w, http.StatusBadRequest, p.Sprintf(txtBadRequest))
			case errors.Is(err, errTooManyStreams):
				httpError(w, http.StatusTooManyRequests, p.Sprintf(txtTooMany))
			case errors.As(err, &fb):
				httpError(w, http.StatusForbidden, fb.reason)
			case errors.Is(err, errForbidden):
				httpError(w, http.StatusForbidden, p.Sprintf(txtPlayersOnly))
			case errors.Is(err, storage.ErrNotFound):
				httpError(w, http.StatusNotFound, p.Sprintf(txtNoMatch))
			default:
				s.opts.Log("web: request failed", "path", r.URL.Path, "match", c.Match, "err", logsafe.Err(err))
				httpError(w, http.StatusInternalServerError, p.Sprintf(txtFailed))
			}
		}
	}
}

func (s *Server) setBuild(b string) { s.build.Store(&b) }
func (s *Server) buildName() string { return *s.build.Load() }

// BodyTimeout is how long a request's body may take to arrive.
const BodyTimeout = 10 * time.Second

// readBody reads r's body, at most MaxBody bytes within s.bodyTimeout: the
// server has no ReadTimeout (an event stream is one long request), so a
// body that trickles in would hold its handler as long as its sender liked.
// The deadline is lifted once the body is in, before the action, which
// must not be cut off halfway; a body that did not come in whole leaves it,
// and the connection is closed after the answer (net/http would otherwise
// wait for the rest of the body before it answers).
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(s.bodyTimeout)) // ErrNotSupported: a test's recorder
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	if err != nil {
		w.Header().Set("Connection", "close")
		return nil, err
	}
	_ = rc.SetReadDeadline(time.Time{})
	return body, nil
}

var (
	errBadRequest     = errors.New("bad request")
	errForbidden      = errors.New("not a player")
	errTooManyStreams = errors.New("too many open streams for one link or client")
)

func httpError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": msg})
}
