package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/internal/logsafe"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
)

// Matches reads matches; storage.Store has this method.
type Matches interface {
	Match(ctx context.Context, id storage.MatchID) (*storage.Match, error)
}

// Links gives a player's current link generation. Revoking a player's links
// bumps it (the bot keeps it in its database); every link signed with an
// older generation is refused from then on.
type Links interface {
	LinkGeneration(ctx context.Context, userID string) (uint32, error)
}

// DrawAnswer is what a player does about a draw.
type DrawAnswer uint8

// The draw actions.
const (
	DrawOffer DrawAnswer = iota
	DrawAccept
	DrawDecline
)

// PauseAnswer is what a player does about a pause by agreement.
type PauseAnswer uint8

// The pause actions.
const (
	PausePropose PauseAnswer = iota // propose to pause for Days days
	PauseAccept                     // accept the opponent's proposal of Days days
	PauseDecline                    // decline the opponent's proposal of Days days (or take back one's own)
)

// Actor applies a player's action through the bot's one path for it: the
// same store call, versions and notices as the same action on Discord. An
// error whose text is safe to show the player (the engine's refusal, "not
// your turn") is returned as a *Refusal; any other error is logged by the
// bot and shown as a plain failure.
//
// Each method is given the match as the request read it (to authenticate
// it, see MatchAuthenticator) and need not read it again: an action costs
// one load of its match outside the store's own transaction, as a Discord
// menu does. A move, resignation or draw answer is made on the board the
// player saw: the Actor checks its Basis on the match and game it acts on,
// and acts at that match's version.
type Actor interface {
	Move(ctx context.Context, m *storage.Match, at Basis, side game.Side, mv game.Move) error
	// Setup stores side's draft, or confirms it as a DM set-up is confirmed;
	// it has no basis: a set-up is the player's own whatever else changed.
	Setup(ctx context.Context, m *storage.Match, side game.Side, s game.Setup, confirm bool) error
	// CheckSetup returns, as a *Refusal, the refusal s would meet as side's
	// draft or confirmed set-up (the one check both take, in one order), and
	// nil when s would be accepted. It stores nothing.
	CheckSetup(ctx context.Context, m *storage.Match, side game.Side, s game.Setup) error
	// RandomSetup draws a set-up for side with the bot's secret generator
	// (keyed with the match's secret, as the Random button on Discord draws
	// it), and may store it as side's draft as that button does; refused
	// once side's set-up is confirmed.
	RandomSetup(ctx context.Context, m *storage.Match, side game.Side) (game.Setup, error)
	Resign(ctx context.Context, m *storage.Match, at Basis, side game.Side) error
	Draw(ctx context.Context, m *storage.Match, at Basis, side game.Side, a DrawAnswer) error
	// GiveTime gives side's opponent more time, as /stratego give_time does
	// (the same store action, refusals and notices). It has no basis: a
	// gift does not depend on the board.
	GiveTime(ctx context.Context, m *storage.Match, side game.Side) error
	// Pause proposes a pause of days days, or answers the proposal the
	// page showed (days names it, as a Discord button names the proposal
	// it was drawn for), as /stratego pause and its buttons do (the same
	// store action, refusals and notices). It has no basis: a pause does
	// not depend on the board, and a proposal changed meanwhile is refused.
	Pause(ctx context.Context, m *storage.Match, side game.Side, a PauseAnswer, days int) error
	// SavedSetups lists side's saved set-ups that fit the match's army, the
	// first choice first; refused once side's set-up is confirmed.
	SavedSetups(ctx context.Context, m *storage.Match, side game.Side) ([]SavedSetup, error)
	// SaveSetup keeps s, a set-up the rules accept, under name among side's
	// saved set-ups, replacing one of the same name.
	SaveSetup(ctx context.Context, m *storage.Match, side game.Side, name string, s game.Setup) error
}

// A Basis is what a player's action was made on: the board their page
// showed (State.Basis), as a Discord menu carries the version of its board.
// Called with the match the action is about to be made on and its game
// (nil before both set-ups are confirmed), it returns nil when the player's
// viewer still sees that board, and otherwise the refusal, in the viewer's
// language, that the board changed since they looked.
type Basis func(m *storage.Match, g *game.Game) error

// Refusal is an action refused with a reason the player may read.
type Refusal struct{ Reason string }

func (r *Refusal) Error() string { return r.Reason }

// StaleRefusal refuses, in language, an action made on a board that has
// changed since the player looked: whether the page's basis or the store's
// version found it out, the player reads the same words.
func StaleRefusal(language string) *Refusal {
	return &Refusal{Reason: lang.For(language).Sprintf(txtStale)}
}

// Authenticator turns a request into the capability it carries. The link
// (CapabilityAuth) is one; a Discord Activity could sign in with OAuth2 instead.
type Authenticator interface {
	Authenticate(r *http.Request) (Capability, error)
}

// Claimer is an Authenticator that can also read the capability a request
// claims without the costly checks (the signature only, no database), so
// that the server rate-limits a request before it looks anything up.
type Claimer interface {
	Claim(r *http.Request) (Capability, error)
}

// MatchAuthenticator is an Authenticator that reads the capability's match
// to check it (CapabilityAuth: the player's link generation) and hands it
// on, nil when it read none. A player's action is then made on that match,
// read once (Actor).
type MatchAuthenticator interface {
	AuthenticateMatch(r *http.Request) (Capability, *storage.Match, error)
}

// CapabilityHeader carries the link's token on every API request. The page
// reads the token from its URL's fragment, which browsers never send to a
// server, so the secret reaches no access log.
const CapabilityHeader = "X-Strategobot-Capability"

// CapabilityAuth authenticates a request by its capability token.
type CapabilityAuth struct {
	Signer  *Signer
	Matches Matches
	Links   Links
	Now     func() time.Time
}

// Claim checks the header's token's signature only.
func (a *CapabilityAuth) Claim(r *http.Request) (Capability, error) {
	tok := r.Header.Get(CapabilityHeader)
	if tok == "" {
		return Capability{}, ErrNoLink
	}
	return a.Signer.Parse(tok)
}

// Authenticate checks the header's token: signature, expiry, and the
// player's current link generation.
func (a *CapabilityAuth) Authenticate(r *http.Request) (Capability, error) {
	c, _, err := a.AuthenticateMatch(r)
	return c, err
}

// AuthenticateMatch is Authenticate, and returns the match it read to find
// the player's link generation (nil for the public, whose link has none).
func (a *CapabilityAuth) AuthenticateMatch(r *http.Request) (Capability, *storage.Match, error) {
	tok := r.Header.Get(CapabilityHeader)
	if tok == "" {
		return Capability{}, nil, ErrNoLink
	}
	claimed, err := a.Signer.Parse(tok)
	if err != nil {
		return Capability{}, nil, err
	}
	nowf := a.Now
	if nowf == nil {
		nowf = time.Now
	}
	var read *storage.Match
	c, err := a.Signer.Verify(tok, nowf(), func(side game.Side) (uint32, error) {
		m, err := a.Matches.Match(r.Context(), claimed.Match)
		if err != nil {
			return 0, err
		}
		read = m
		return a.Links.LinkGeneration(r.Context(), m.Players[side].UserID)
	})
	if err != nil {
		return Capability{}, nil, err
	}
	return c, read, nil
}

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
	// Log reports failures; it is never given a token, and errors and panics
	// reach it through package logsafe. Nil: silent.
	Log func(msg string, args ...any)
	// Now is the server's clock, sent with each state for the page's
	// countdown; nil: time.Now.
	Now func() time.Time
}

// Link returns the page's address for capability c under publicURL (the
// address the admin's HTTPS reverse proxy serves): the token rides in the
// fragment, which no server or proxy receives.
func (s *Signer) Link(publicURL string, c Capability) string {
	return strings.TrimRight(publicURL, "/") + "/board#" + s.Sign(c)
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
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.page)
	mux.HandleFunc("GET /board", s.page)
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(staticFS())))
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

// ErrNoLink is a request that carries no capability at all: a page opened
// without a link (or whose tab lost it).
var ErrNoLink = errors.New("web: no link")

// refusedStatus is the status of a request whose capability was refused.
func refusedStatus(err error) int {
	if errors.Is(err, ErrExpired) || errors.Is(err, ErrRevoked) {
		return http.StatusGone
	}
	return http.StatusForbidden
}

// refusedText is the page's text for a refused capability.
func refusedText(p lang.Printer, err error) string {
	if errors.Is(err, ErrNoLink) {
		return p.Sprintf(txtNeedsLink)
	}
	return p.Sprintf(txtLinkInvalid)
}

var (
	errBadRequest     = errors.New("bad request")
	errForbidden      = errors.New("not a player")
	errTooManyStreams = errors.New("too many open streams for one link or client")
)

// authenticate returns the capability r carries, and the match read to
// check it when the Authenticator is a MatchAuthenticator that read one.
func (s *Server) authenticate(r *http.Request) (Capability, *storage.Match, error) {
	if ma, ok := s.opts.Auth.(MatchAuthenticator); ok {
		return ma.AuthenticateMatch(r)
	}
	c, err := s.opts.Auth.Authenticate(r)
	return c, nil, err
}

// authenticatedKey keys, in a request's context, the match its
// authentication read.
type authenticatedKey struct{}

// requested returns the match a request is about: the one read to
// authenticate it, else the match as stored now. (A page's events load
// their own: they must subscribe before it loads.)
func (s *Server) requested(r *http.Request, c Capability) (*storage.Match, error) {
	if m, ok := r.Context().Value(authenticatedKey{}).(*storage.Match); ok && m.ID == c.Match {
		return m, nil
	}
	return s.opts.Matches.Match(r.Context(), c.Match)
}

// claim returns the capability r claims, checked as far as it can be without
// the database: by Claimer, or, for another Authenticator, none (the limits
// then count per client alone).
func (s *Server) claim(r *http.Request) (Capability, error) {
	if cl, ok := s.opts.Auth.(Claimer); ok {
		return cl.Claim(r)
	}
	return Capability{}, nil
}

// clientOf names the client of r for the rate limit: the last address of
// X-Forwarded-For, the one the admin's reverse proxy appended (any before it
// are the client's own claim), else the connection's peer. This trusts the
// proxy: web_addr must be reachable by it alone, as the README says, or a
// client could name itself anew with each request.
//
// An IPv6 client is its /64: a host is given a whole one, and could
// otherwise name itself anew with each request within it.
func clientOf(r *http.Request) string {
	if fwd := r.Header.Values("X-Forwarded-For"); len(fwd) > 0 {
		hops := strings.Split(fwd[len(fwd)-1], ",")
		if last := strings.TrimSpace(hops[len(hops)-1]); last != "" {
			return network(last)
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return network(r.RemoteAddr)
	}
	return network(host)
}

// network is the client an address names: an IPv4 address itself, an IPv6
// address its /64; anything else as written.
func network(addr string) string {
	a, err := netip.ParseAddr(addr)
	if err != nil {
		return addr
	}
	if a = a.Unmap(); a.Is4() {
		return a.String()
	}
	return netip.PrefixFrom(a.WithZone(""), 64).Masked().String()
}

func httpError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": msg})
}

// load reads the match of c as stored now, and its game.
func (s *Server) load(ctx context.Context, c Capability) (*storage.Match, *game.Game, error) {
	m, err := s.opts.Matches.Match(ctx, c.Match)
	if err != nil {
		return nil, nil, err
	}
	g, err := gameOf(m)
	return m, g, err
}

// requestedGame is the match a request is about (requested), and its game.
func (s *Server) requestedGame(r *http.Request, c Capability) (*storage.Match, *game.Game, error) {
	m, err := s.requested(r, c)
	if err != nil {
		return nil, nil, err
	}
	g, err := gameOf(m)
	return m, g, err
}

// gameOf replays m's game: nil until both set-ups are confirmed.
func gameOf(m *storage.Match) (*game.Game, error) {
	if m.Setups[game.Red].Status != storage.SetupConfirmed || m.Setups[game.Blue].Status != storage.SetupConfirmed {
		return nil, nil
	}
	return m.Game()
}

func (s *Server) state(w http.ResponseWriter, r *http.Request, c Capability) error {
	m, g, err := s.requestedGame(r, c)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	now := s.opts.Now()
	data, _ := BuildState(m, g, c.Viewer, now).Sent(now)
	_, err = w.Write(data)
	return err
}

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
	last, lastStarted := m.Version, !m.ClockPending
	now := s.opts.Now()
	data, lastKey := BuildState(m, g, c.Viewer, now).Sent(now)
	if err := writeEvent(w, data); err != nil {
		return nil
	}
	fl.Flush()
	ping := time.NewTicker(25 * time.Second)
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

func decode(r *http.Request, v any) error {
	d := json.NewDecoder(r.Body)
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return errBadRequest // the body is in already (readBody): only its form is wrong
	}
	return nil
}

// forbidden is a player's request their side may not make, with the reason
// they read in their language.
type forbidden struct{ reason string }

func (f *forbidden) Error() string { return f.reason }

// playerRequest is the start of every player's request: it refuses a
// spectator's capability, decodes the body into req (none when req is nil)
// and returns the player's side and the match the request is about.
func (s *Server) playerRequest(r *http.Request, c Capability, req any) (game.Side, *storage.Match, error) {
	side, ok := c.Side()
	if !ok {
		return 0, nil, errForbidden
	}
	if req != nil {
		if err := decode(r, req); err != nil {
			return 0, nil, err
		}
	}
	m, err := s.requested(r, c)
	if err != nil {
		return 0, nil, err
	}
	return side, m, nil
}

type moveRequest struct {
	Basis string `json:"basis"` // the state the player acted on (State.Basis)
	From  uint8  `json:"from"`
	To    uint8  `json:"to"`
	Guess uint8  `json:"guess"`
}

// basis is the Basis of an action of c's viewer made on what digest names
// (State.Basis): when the board changed since the player looked, the
// action is refused in their language.
func (s *Server) basis(r *http.Request, c Capability, digest string) Basis {
	return func(m *storage.Match, g *game.Game) error {
		if BuildState(m, g, c.Viewer, s.opts.Now()).Basis == digest {
			return nil
		}
		pref := s.preferences(r.Context(), r, c, func(side game.Side) string { return m.Players[side].UserID })
		return StaleRefusal(pref.Language)
	}
}

func (s *Server) move(w http.ResponseWriter, r *http.Request, c Capability) error {
	var req moveRequest
	side, m, err := s.playerRequest(r, c, &req)
	if err != nil {
		return err
	}
	mv := game.Move{From: game.Square(req.From), To: game.Square(req.To), Guess: game.Rank(req.Guess)}
	if !mv.From.Valid() || !mv.To.Valid() || (mv.Guess != game.NoRank && !mv.Guess.Valid()) {
		return errBadRequest
	}
	if err := s.opts.Actor.Move(r.Context(), m, s.basis(r, c, req.Basis), side, mv); err != nil {
		return err
	}
	return ok(w)
}

type setupRequest struct {
	Setup   [game.SetupRows][10]int `json:"setup"`
	Confirm bool                    `json:"confirm"`
}

func (s *Server) setup(w http.ResponseWriter, r *http.Request, c Capability) error {
	var req setupRequest
	side, m, err := s.playerRequest(r, c, &req)
	if err != nil {
		return err
	}
	su, err := setupOf(req.Setup)
	if err != nil {
		return err
	}
	// A set-up is the player's own whatever else changed: no basis.
	if err := s.opts.Actor.Setup(r.Context(), m, side, su, req.Confirm); err != nil {
		return err
	}
	return ok(w)
}

func setupOf(rows [game.SetupRows][10]int) (game.Setup, error) {
	var su game.Setup
	for i, row := range rows {
		for j, k := range row {
			if rank := game.Rank(k); k < 0 || k >= game.NumRanks || (rank != game.NoRank && !rank.Valid()) {
				return su, errBadRequest
			}
			su[i][j] = game.Rank(k)
		}
	}
	return su, nil
}

func writeJSON(w http.ResponseWriter, v any) error {
	w.Header().Set("Content-Type", "application/json")
	return json.NewEncoder(w).Encode(v)
}

func (s *Server) random(w http.ResponseWriter, r *http.Request, c Capability) error {
	side, m, err := s.playerRequest(r, c, nil)
	if err != nil {
		return err
	}
	su, err := s.opts.Actor.RandomSetup(r.Context(), m, side)
	if err != nil {
		return err
	}
	return writeJSON(w, map[string]any{"setup": rowsOf(su)})
}

type actionRequest struct {
	Basis  string `json:"basis"` // the state the player acted on (State.Basis)
	Answer string `json:"answer,omitempty"`
}

func (s *Server) resign(w http.ResponseWriter, r *http.Request, c Capability) error {
	var req actionRequest
	side, m, err := s.playerRequest(r, c, &req)
	if err != nil {
		return err
	}
	if err := s.opts.Actor.Resign(r.Context(), m, s.basis(r, c, req.Basis), side); err != nil {
		return err
	}
	return ok(w)
}

func (s *Server) draw(w http.ResponseWriter, r *http.Request, c Capability) error {
	var req actionRequest
	side, m, err := s.playerRequest(r, c, &req)
	if err != nil {
		return err
	}
	a, found := map[string]DrawAnswer{"offer": DrawOffer, "accept": DrawAccept, "decline": DrawDecline}[req.Answer]
	if !found {
		return errBadRequest
	}
	if err := s.opts.Actor.Draw(r.Context(), m, s.basis(r, c, req.Basis), side, a); err != nil {
		return err
	}
	return ok(w)
}

// giveTime gives the player's opponent more time (Actor.GiveTime).
func (s *Server) giveTime(w http.ResponseWriter, r *http.Request, c Capability) error {
	side, m, err := s.playerRequest(r, c, nil)
	if err != nil {
		return err
	}
	if err := s.opts.Actor.GiveTime(r.Context(), m, side); err != nil {
		return err
	}
	return ok(w)
}

type pauseRequest struct {
	Answer string `json:"answer"` // "propose", "accept" or "decline"
	// Days is the pause proposed, or the days of the proposal answered as
	// the page showed it.
	Days int `json:"days"`
}

// pause proposes a pause or answers the opponent's proposal (Actor.Pause).
// Only the player a proposal asks may accept it: the proposer's own link
// is refused as a spectator's is.
func (s *Server) pause(w http.ResponseWriter, r *http.Request, c Capability) error {
	var req pauseRequest
	side, m, err := s.playerRequest(r, c, &req)
	if err != nil {
		return err
	}
	a, found := map[string]PauseAnswer{"propose": PausePropose, "accept": PauseAccept, "decline": PauseDecline}[req.Answer]
	if !found || req.Days < 1 || req.Days > storage.MaxPauseDays {
		return errBadRequest
	}
	if by, days, offered := m.PauseOffer(); a == PauseAccept && offered && by == side {
		pref := s.preferences(r.Context(), r, c, func(side game.Side) string { return m.Players[side].UserID })
		p := lang.For(pref.Language)
		return &forbidden{reason: p.Sprintf(txtPauseOffered, render.Duration(p, time.Duration(days)*24*time.Hour))}
	}
	if err := s.opts.Actor.Pause(r.Context(), m, side, a, req.Days); err != nil {
		return err
	}
	return ok(w)
}

func ok(w http.ResponseWriter) error {
	w.Header().Set("Content-Type", "application/json")
	_, err := io.WriteString(w, `{"ok":true}`)
	return err
}

// hub fans a match's changes out to its open event streams.
type hub struct {
	mu   sync.Mutex
	subs map[storage.MatchID]map[chan update]struct{}
}

type update struct {
	version uint64
	started bool // the clock of the side to move is no longer pending
	states  [3][]byte
	keys    [3][sha256.Size]byte // State.Sent's key of each viewer's state
}

// before reports whether u is older than the state sent last, version and
// started: within a version the clock only starts (storage.Changes.StartClock),
// so a pending state that arrives after the started one is stale.
func (u update) before(version uint64, started bool) bool {
	return u.version < version || (u.version == version && started && !u.started)
}

func newHub() *hub { return &hub{subs: map[storage.MatchID]map[chan update]struct{}{}} }

func (h *hub) subscribe(id storage.MatchID) chan update {
	ch := make(chan update, 4)
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.subs[id] == nil {
		h.subs[id] = map[chan update]struct{}{}
	}
	h.subs[id][ch] = struct{}{}
	return ch
}

func (h *hub) unsubscribe(id storage.MatchID, ch chan update) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.subs[id], ch)
	if len(h.subs[id]) == 0 {
		delete(h.subs, id)
	}
}

func (h *hub) watched(id storage.MatchID) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs[id]) > 0
}

// publish hands u to every stream of the match; a stream too far behind
// loses its oldest pending update (each carries the whole state).
func (h *hub) publish(id storage.MatchID, u update) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs[id] {
		for {
			select {
			case ch <- u:
			default:
				select {
				case <-ch:
				default:
				}
				continue
			}
			break
		}
	}
}

// MaxStreamsPerLink is how many event streams one link may hold open at
// once, over all clients: a link passed on beyond Discord opens no more.
const MaxStreamsPerLink = 8

// MaxStreamsPerClient is how many event streams one client (clientOf) may
// hold open at once, over all its links: a club watching its games through
// one school's or café's address, not one person with a link from every
// /stratego watch, each bringing MaxStreamsPerLink more streams.
const MaxStreamsPerClient = 64

// streamCount counts the open event streams of each link and each client.
type streamCount struct {
	mu       sync.Mutex
	open     map[Capability]int
	byClient map[string]int
}

func newStreamCount() *streamCount {
	return &streamCount{open: map[Capability]int{}, byClient: map[string]int{}}
}

func (s *streamCount) acquire(c Capability, client string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.open[c] >= MaxStreamsPerLink || s.byClient[client] >= MaxStreamsPerClient {
		return false
	}
	s.open[c]++
	s.byClient[client]++
	return true
}

func (s *streamCount) release(c Capability, client string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.open[c]--; s.open[c] <= 0 {
		delete(s.open, c)
	}
	if s.byClient[client]--; s.byClient[client] <= 0 {
		delete(s.byClient, client)
	}
}

// ClientLinks is how many links' worth of requests one client may make over
// all its links together: its requests come at most ClientLinks times
// Options.Rate a second, with a burst of ClientLinks links' bursts. A
// player's boards and spectated matches, each asked as fast as its own
// limit allows, or a club opening its pages at once through one address,
// stay within it; a loop over fifty spectator links does not.
const ClientLinks = 10

// limitScope is what a token bucket counts.
type limitScope uint8

const (
	// perLink counts one client's requests for one viewer of one match, so
	// that one spectator cannot starve the others.
	perLink limitScope = iota
	// perClient counts one client's requests over all its links: links are
	// had for the asking (/stratego watch), and each request replays a game.
	perClient
	// perRefused counts one client's requests whose link was refused before
	// anything was looked up (none, malformed, forged), apart from its
	// requests with links: a flood of forged links is answered 429 without
	// holding back that client's own links, or anyone else's.
	perRefused
	numScopes
)

// limitKey names a token bucket.
type limitKey struct {
	scope  limitScope
	match  storage.MatchID // perLink
	viewer game.Viewer     // perLink
	client string
}

// linkKey is the bucket of one client's requests for one viewer of one match.
func linkKey(c Capability, client string) limitKey {
	return limitKey{scope: perLink, match: c.Match, viewer: c.Viewer, client: client}
}

// rateLimit is a token bucket's figures: tokens added per second, and the
// most it holds.
type rateLimit struct{ rate, burst float64 }

// limitsFor is each scope's figures for Options.Rate: a link's burst is 4
// seconds' worth, a client's ClientLinks links' worth, and a client's
// refused requests get one link's.
func limitsFor(rate float64) [numScopes]rateLimit {
	var l [numScopes]rateLimit
	l[perLink] = rateLimit{rate, 4 * rate}
	l[perClient] = rateLimit{ClientLinks * rate, ClientLinks * 4 * rate}
	l[perRefused] = l[perLink]
	return l
}

// limiter is a token bucket per limitKey, with its scope's figures.
type limiter struct {
	mu      sync.Mutex
	now     func() time.Time // a test's clock; time.Now
	limits  [numScopes]rateLimit
	buckets map[limitKey]*bucket
	sweepAt int // how many buckets there are when a new one comes with the next sweep
}

// minSweep is the fewest buckets the limiter sweeps.
const minSweep = 10000

type bucket struct {
	tokens float64
	at     time.Time
}

func newLimiter(limits [numScopes]rateLimit) *limiter {
	return &limiter{now: time.Now, limits: limits, buckets: map[limitKey]*bucket{}, sweepAt: minSweep}
}

// allow takes a token from the bucket of each key when each has one, and
// otherwise from none: a request refused by one limit costs nothing of the
// others (a page that asks one link too fast does not hold back the
// client's other links).
func (l *limiter) allow(keys ...limitKey) bool {
	t := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	var found [2]*bucket
	bs := found[:0]
	for _, k := range keys {
		b := l.buckets[k]
		lim := l.limits[k.scope]
		if b == nil {
			if len(l.buckets) >= l.sweepAt {
				l.sweep(t)
			}
			b = &bucket{tokens: lim.burst, at: t}
			l.buckets[k] = b
		}
		if t.After(b.at) {
			b.tokens = min(lim.burst, b.tokens+t.Sub(b.at).Seconds()*lim.rate)
			b.at = t
		}
		bs = append(bs, b)
	}
	for _, b := range bs {
		if b.tokens < 1 {
			return false
		}
	}
	for _, b := range bs {
		b.tokens--
	}
	return true
}

// sweep forgets the buckets that have filled up since their last request
// (a full bucket is as good as none). The next sweep comes once there are
// twice as many buckets as it left, so that a sweep, a pass over every
// bucket under the lock, costs each new client little on average: many
// clients at once do not make every request pay for all of them.
func (l *limiter) sweep(t time.Time) {
	for k, b := range l.buckets {
		lim := l.limits[k.scope]
		if t.Sub(b.at) >= time.Duration(lim.burst/lim.rate*float64(time.Second)) {
			delete(l.buckets, k)
		}
	}
	l.sweepAt = max(minSweep, 2*len(l.buckets))
}
