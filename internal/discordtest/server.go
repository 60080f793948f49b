package discordtest

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// Server is a local stand-in for Discord: the REST API under /api/v9/ and
// /api/v10/, a gateway websocket, and a tiny CDN for attachments, all on one
// plain-HTTP listener on 127.0.0.1. It fails the test that owns it wherever
// real Discord would have refused or dropped what the bot did.
//
// All methods are safe for concurrent use. Methods that take a TB
// and wait, or that fail the test at once, must be called from that test's
// goroutine.
type Server struct {
	t    TB
	cfg  config
	spec *spec
	http *httptest.Server
	addr string // host:port of the listener
	log  *slog.Logger

	transport *http.Transport // for HTTPClient, closed with the server
	done      chan struct{}   // closed by Close
	wg        sync.WaitGroup  // gateway connections and delayed requests

	// tokenRevoked: the bot's token was reset (RevokeToken); requests and
	// connections with it are refused as Discord refuses them.
	tokenRevoked atomic.Bool
	// gatewayOut: the gateway is out (GatewayOutage): every new
	// connection to it is refused, until EndGatewayOutage.
	gatewayOut atomic.Bool

	vmu        sync.Mutex // guards violations and vclosed
	violations []string
	vclosed    bool // no more test failures: Close has run

	mu         sync.Mutex
	closed     bool
	botDown    bool          // BotKilled was called and no process has identified since
	changed    chan struct{} // closed and replaced on every change, for waiters
	lastID     uint64
	bot        *user  // the bot user
	appID      string // the application; the bot user's id unless WithSeparateApplication
	users      map[string]*user
	guilds     map[string]*guild
	guildOrder []string
	channels   map[string]*channel
	threads    []string // every thread ever made, oldest first: archiveDue reads only these
	messages   map[string]*message
	inters     map[string]*interaction // by id
	tokens     map[string]*interaction // by token
	commands   []*command              // global and guild commands, in creation order
	sessions   map[string]*gwSession
	conns      map[*gwConn]struct{}
	buckets    map[string]*bucket
	clients    map[string]*clientLimits // by clientKey and by "address "+IP
	nonces     map[string]*nonceEntry   // message creates with enforce_nonce, by author and nonce
	faults     []*fault
	readyHolds []*Hold // the next IDENTIFYs wait for these before READY (HoldReady)
	requests   []Request
	stats      GatewayStats
	unknownIDs map[string]bool // UnknownID's ids: refusals naming them are the test's own
}

// TB is what the stand-in needs of the one that owns it: a place to report
// what Discord would have refused (Errorf), to stop a member's action that
// cannot go on (Fatalf, called on the goroutine that acts), and to clean up
// at the end. Every testing.TB is one, so a test passes its *testing.T and
// fails as before; a command that runs the stand-in outside tests
// (strategoload) passes its own, which must count every Errorf and
// Fatalf as a failure of the run.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
	Cleanup(f func())
}

var _ TB = testing.TB(nil)

// config holds what Options set; its zero values are never used directly,
// New fills the defaults first.
type config struct {
	clock            Clock
	token            string
	botName          string
	responseDeadline time.Duration
	tokenLifetime    time.Duration
	heartbeat        time.Duration
	waitTimeout      time.Duration
	clientTimeout    time.Duration
	privileged       discordgo.Intent
	rateLimit        int
	rateWindow       time.Duration
	uploadLimit      int64
	separateApp      bool  // the application id differs from the bot user's
	botPermissions   int64 // of the bot's managed role; 0: no such role
	globalLimit      int   // requests per second per client; 0: no global limit
	invalidThreshold int   // invalid requests in 10 minutes that fail the test
	logger           *slog.Logger
	requestHook      func(Request) // told of every answered request; nil: nobody
	noRequestLog     bool          // Requests stays empty
	noValidation     bool          // requests are not checked against the API description
	noFileContents   bool          // uploads keep their size, not their bytes
	checkResponses   bool          // package tests: validate the stand-in's own answers too
}

// An Option changes how New builds a Server.
type Option func(*config)

// WithClock sets the clock for timestamps and the 15-minute life of
// interaction tokens (default: the wall clock). Use a FakeClock to let
// minutes pass instantly.
func WithClock(c Clock) Option { return func(cfg *config) { cfg.clock = c } }

// WithToken sets the bot token the server accepts (default: one shaped as
// Discord's, whose first part is the bot's id in base64; Token tells it).
// Sessions authenticate with "Bot " + token.
func WithToken(token string) Option { return func(cfg *config) { cfg.token = token } }

// WithBotName sets the bot user's name (default "Stratego").
func WithBotName(name string) Option { return func(cfg *config) { cfg.botName = name } }

// WithResponseDeadline sets how long the bot has for the first response to
// an interaction (default 3s, as on Discord). Shorten it only to test the
// deadline itself quickly.
func WithResponseDeadline(d time.Duration) Option {
	return func(cfg *config) { cfg.responseDeadline = d }
}

// WithHeartbeatInterval sets the heartbeat interval sent in HELLO (default
// 41.25s, as on Discord).
func WithHeartbeatInterval(d time.Duration) Option {
	return func(cfg *config) { cfg.heartbeat = d }
}

// WithClientTimeout sets the timeout of the HTTP clients HTTPClient and
// NewSession give (30 s by default): with DelayNext, a test makes the bot's
// requests time out while the stand-in still handles them, as a slow
// Discord does.
func WithClientTimeout(d time.Duration) Option { return func(cfg *config) { cfg.clientTimeout = d } }

// WithWaitTimeout sets how long WaitFor and the other waiting helpers wait
// before failing the test (default 30s: a limit for what never comes, not a
// measure of speed, so that a loaded CI machine does not fail a test).
func WithWaitTimeout(d time.Duration) Option { return func(cfg *config) { cfg.waitTimeout = d } }

// WithPrivilegedIntents enables privileged intents for the application, as
// ticking them in the developer portal does. Without it, IDENTIFY asking for
// GUILD_MEMBERS, GUILD_PRESENCES or MESSAGE_CONTENT is closed with 4014.
func WithPrivilegedIntents(i discordgo.Intent) Option {
	return func(cfg *config) { cfg.privileged = i }
}

// WithRateLimit sets the size of every per-route rate-limit bucket: limit
// requests per window (default 50 per second; Discord's real buckets are
// often smaller, but tests should not crawl).
func WithRateLimit(limit int, window time.Duration) Option {
	return func(cfg *config) { cfg.rateLimit, cfg.rateWindow = limit, window }
}

// WithUploadLimit sets the largest accepted file (default 10 MiB, Discord's
// limit in servers without boosts).
func WithUploadLimit(n int64) Option { return func(cfg *config) { cfg.uploadLimit = n } }

// WithSeparateApplication gives the application an id that differs from
// the bot user's, as applications created before 2020 have. READY's
// application.id, interactions' application_id and the interaction
// webhooks then use the application id, and the application-command routes
// accept only it: registering commands under the bot user's id answers 403
// with code 50001. Without this option both ids are the same (and the bot,
// which today registers under its user id, keeps passing).
func WithSeparateApplication() Option { return func(cfg *config) { cfg.separateApp = true } }

// WithBotPermissions gives the bot, in every guild it joins, the managed
// role Discord creates when a bot is invited with permissions: named after
// the bot and carrying perms (discordgo.Permission* bits). Without it the
// bot has no role of its own, as when invited with permissions=0, and its
// permissions come from @everyone.
func WithBotPermissions(perms int64) Option { return func(cfg *config) { cfg.botPermissions = perms } }

// WithGlobalRateLimit turns on the limit across all routes: a client (a bot
// token) may make perSecond requests per second, Discord's being 50, and
// gets 429 with "global": true beyond; interaction callbacks and interaction
// webhooks are exempt, as on Discord. It is off by default because tests
// play moves back to back, far faster than people do, and the limit counts
// wall-clock seconds: the bot's move benchmark, 200 moves in 4 seconds,
// meets 558 global 429s, enough over a longer run to reach the
// invalid-request threshold.
func WithGlobalRateLimit(perSecond int) Option {
	return func(cfg *config) { cfg.globalLimit = perSecond }
}

// WithInvalidRequestThreshold sets how many invalid requests (answers 401,
// 403 and 429) a client may get in 10 minutes before the test fails
// (default 1,000, a tenth of the 10,000 at which Discord bans a client for
// an hour; see InvalidRequests).
func WithInvalidRequestThreshold(n int) Option {
	return func(cfg *config) { cfg.invalidThreshold = n }
}

// WithLogger makes the server log every request and gateway event it
// handles at debug level (default: no logging).
func WithLogger(l *slog.Logger) Option { return func(cfg *config) { cfg.logger = l } }

// WithRequestHook makes the server call f with every REST request once it
// is answered, from the goroutine that answered it and with no lock held:
// a load test learns when each message arrives without polling Requests.
// f must be quick and safe for concurrent use.
func WithRequestHook(f func(Request)) Option { return func(cfg *config) { cfg.requestHook = f } }

// WithoutRequestLog keeps no log of requests (Requests returns none), so
// that a long run does not hold every message and picture it was sent.
// Violations are still reported.
func WithoutRequestLog() Option { return func(cfg *config) { cfg.noRequestLog = true } }

// WithoutFileContents keeps of each uploaded file its name, type, size and
// picture dimensions, but not its bytes: a load test's stand-in would
// otherwise hold every picture it was sent (gigabytes an hour) and spend
// more and more of the machine's cores on its own garbage collection. The
// CDN then answers 404 for those files, and members' views show them
// without data.
func WithoutFileContents() Option { return func(cfg *config) { cfg.noFileContents = true } }

// WithoutRequestValidation accepts requests without checking their bodies
// and path parameters against Discord's API description (routes, tokens,
// permissions and limits are still checked). The tests keep the checks; a
// load test leaves them out, so that the machine's cores go to the bot.
func WithoutRequestValidation() Option { return func(cfg *config) { cfg.noValidation = true } }

// withResponseChecks makes the server validate its own JSON answers against
// the document's response schemas; the package's tests use it.
func withResponseChecks() Option { return func(cfg *config) { cfg.checkResponses = true } }

// Default values of the options.
const (
	defaultResponseDeadline = 3 * time.Second
	defaultTokenLifetime    = 15 * time.Minute
	defaultHeartbeat        = 41250 * time.Millisecond
	defaultWaitTimeout      = 30 * time.Second
	defaultUploadLimit      = 10 << 20
	defaultInvalidThreshold = invalidRequestBan / 10
)

// New starts a Server owned by t and stops it when t ends. Requests that
// Discord would refuse fail t with Errorf.
func New(t TB, opts ...Option) *Server {
	t.Helper()
	cfg := config{
		clock:            realClock{},
		botName:          "Stratego",
		responseDeadline: defaultResponseDeadline,
		tokenLifetime:    defaultTokenLifetime,
		heartbeat:        defaultHeartbeat,
		waitTimeout:      defaultWaitTimeout,
		clientTimeout:    30 * time.Second,
		rateLimit:        50,
		rateWindow:       time.Second,
		uploadLimit:      defaultUploadLimit,
		invalidThreshold: defaultInvalidThreshold,
	}
	for _, o := range opts {
		o(&cfg)
	}
	sp, err := loadSpec()
	if err != nil {
		t.Fatalf("discordtest: %v", err)
	}
	logger := cfg.logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{
		t:        t,
		cfg:      cfg,
		spec:     sp,
		log:      logger,
		done:     make(chan struct{}),
		changed:  make(chan struct{}),
		users:    map[string]*user{},
		guilds:   map[string]*guild{},
		channels: map[string]*channel{},
		messages: map[string]*message{},
		inters:   map[string]*interaction{},
		tokens:   map[string]*interaction{},
		sessions: map[string]*gwSession{},
		conns:    map[*gwConn]struct{}{},
		buckets:  map[string]*bucket{},
		clients:  map[string]*clientLimits{},
		nonces:   map[string]*nonceEntry{},
	}
	s.bot = &user{id: s.nextID(), name: cfg.botName, bot: true}
	s.users[s.bot.id] = s.bot
	if s.cfg.token == "" {
		// Shaped as Discord's: the bot's id in base64, then two parts.
		s.cfg.token = base64.RawStdEncoding.EncodeToString([]byte(s.bot.id)) + ".GlocalD.local-discord-secret-part-of-the-token"
	}
	s.appID = s.bot.id
	if cfg.separateApp {
		s.appID = s.nextID()
	}

	mux := http.NewServeMux()
	mux.HandleFunc("/api/", s.serveAPI)
	mux.HandleFunc("/ws", s.serveGateway)
	mux.HandleFunc("/ws/", s.serveGateway)
	mux.HandleFunc("/attachments/", s.serveAttachment)
	mux.HandleFunc("/", s.serveUnknown)
	// The server starts once every field is set: its goroutines then come
	// after these writes, for the race detector too, which cannot see the
	// order a bot in another process gives by connecting later.
	s.http = httptest.NewUnstartedServer(mux)
	s.addr = s.http.Listener.Addr().String()
	s.transport = &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "tcp", s.addr)
		},
		MaxIdleConnsPerHost: 16,
	}
	s.http.Start()
	t.Cleanup(s.Close)
	return s
}

// Close stops the server: it closes gateway connections, stops interaction
// timers and waits for its goroutines. New registers it with t.Cleanup;
// calling it again does nothing.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	close(s.done)
	for _, in := range s.inters {
		if in.timer != nil {
			in.timer.Stop()
		}
	}
	for c := range s.conns {
		c.close()
	}
	s.mu.Unlock()
	// A violation still in progress finishes before Close returns, later
	// ones are dropped: the test may be over by then.
	s.vmu.Lock()
	s.vclosed = true
	s.vmu.Unlock()
	s.http.Close()
	s.wg.Wait()
	s.transport.CloseIdleConnections()
}

// URL returns the base URL of the listener, e.g. "http://127.0.0.1:41234".
func (s *Server) URL() string { return s.http.URL }

// APIBase returns the REST base URL a separate bot process can use in place
// of https://discord.com/api/v9/, e.g. "http://127.0.0.1:41234/api/v9/".
func (s *Server) APIBase() string { return s.http.URL + "/api/v" + discordgo.APIVersion + "/" }

// GatewayURL returns the websocket URL that GET /gateway also returns.
func (s *Server) GatewayURL() string { return "ws://" + s.addr + "/ws" }

// Token returns the bot token the server accepts, without the "Bot " prefix.
func (s *Server) Token() string { return s.cfg.token }

// AppID returns the application id: the bot user's id, unless the server
// was built WithSeparateApplication.
func (s *Server) AppID() string { return s.appID }

// BotID returns the bot user's id.
func (s *Server) BotID() string { return s.bot.id }

// HTTPClient returns a client whose requests to discord.com (and to
// Discord's CDN hosts) reach this server instead; set it as
// discordgo.Session.Client. Requests to any other host fail the test.
func (s *Server) HTTPClient() *http.Client {
	return &http.Client{Transport: &rewriteTransport{s: s}, Timeout: s.cfg.clientTimeout}
}

// Dialer returns a websocket dialer that connects to this server whatever
// host the URL names; set it as discordgo.Session.Dialer.
func (s *Server) Dialer() *websocket.Dialer { return s.dialer(nil) }

// dialer is Dialer, telling track about every connection it makes.
func (s *Server) dialer(track func(net.Conn)) *websocket.Dialer {
	return &websocket.Dialer{
		NetDialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			c, err := d.DialContext(ctx, "tcp", s.addr)
			if err == nil && track != nil {
				track(c)
			}
			return c, err
		},
		HandshakeTimeout: 10 * time.Second,
	}
}

// Configure points an existing session at this server: it sets Client and
// Dialer and leaves discordgo's package variables alone, so tests may run
// in parallel.
func (s *Server) Configure(sess *discordgo.Session) {
	sess.Client = s.HTTPClient()
	sess.Dialer = s.Dialer()
}

// NewSession returns a discordgo session for the bot, configured for this
// server but not yet opened, so that handlers can be added before Open.
//
// When t ends, the session's gateway connection is cut and its reconnecting
// switched off. discordgo then closes the session in the background: its
// Close sleeps a second, which a test need not wait for. Handlers of the
// Disconnect event may run after t ended.
func (s *Server) NewSession(t TB) *discordgo.Session {
	t.Helper()
	sess, err := discordgo.New("Bot " + s.cfg.token)
	if err != nil {
		t.Fatalf("discordtest: new session: %v", err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	sess.Client = s.HTTPClient()
	sess.Dialer = s.dialer(func(c net.Conn) {
		mu.Lock()
		defer mu.Unlock()
		conns = append(conns, c)
	})
	t.Cleanup(func() {
		// discordgo reads the flag after taking the session's lock in Close,
		// and without it in reconnect: a client that switched it off itself
		// (the bot reconnects on its own) is left alone.
		sess.Lock()
		if sess.ShouldReconnectOnError {
			sess.ShouldReconnectOnError = false
		}
		sess.Unlock()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			_ = c.Close()
		}
	})
	return sess
}

// OpenSession returns a session for the bot that is connected and has
// taken in READY and the GUILD_CREATE of every guild the bot is in that is
// not in an outage: each such guild is in its state, available.
func (s *Server) OpenSession(t TB) *discordgo.Session {
	t.Helper()
	sess := s.NewSession(t)
	if err := sess.Open(); err != nil {
		t.Fatalf("discordtest: open session: %v", err)
	}
	s.WaitReady(t)
	s.mu.Lock()
	var guilds []string
	for _, id := range s.guildOrder {
		if g := s.guilds[id]; g.botIn && !g.unavailable {
			guilds = append(guilds, id)
		}
	}
	s.mu.Unlock()
	s.WaitFor(t, "every guild in the session's state", func() bool {
		// discordgo updates guilds in place under the state's lock.
		sess.State.RLock()
		defer sess.State.RUnlock()
		available := map[string]bool{}
		for _, g := range sess.State.Guilds {
			available[g.ID] = !g.Unavailable
		}
		for _, id := range guilds {
			if !available[id] {
				return false
			}
		}
		return true
	})
	return sess
}

// rewriteTransport sends Discord-bound requests to the stand-in.
type rewriteTransport struct{ s *Server }

// discordHosts are the hosts a bot legitimately talks to.
var discordHosts = map[string]bool{
	"discord.com": true, "discordapp.com": true, "canary.discord.com": true, "ptb.discord.com": true,
	"cdn.discordapp.com": true, "media.discordapp.net": true,
}

func (rt *rewriteTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	host := req.URL.Hostname()
	if !discordHosts[host] && req.URL.Host != rt.s.addr {
		rt.s.violation("request to %s, which is not Discord: %s %s", host, req.Method, req.URL)
		return nil, fmt.Errorf("discordtest: request to a host that is not Discord: %s", req.URL)
	}
	out := req.Clone(req.Context())
	out.URL.Scheme = "http"
	out.URL.Host = rt.s.addr
	out.Host = rt.s.addr
	if host == "cdn.discordapp.com" || host == "media.discordapp.net" {
		// The CDN is its own host on Discord; here it lives under /attachments/.
		if !strings.HasPrefix(out.URL.Path, "/attachments/") {
			out.URL.Path = "/attachments" + out.URL.Path
		}
	}
	return rt.s.transport.RoundTrip(out)
}

// serveUnknown answers paths that are neither API, gateway nor CDN.
func (s *Server) serveUnknown(w http.ResponseWriter, r *http.Request) {
	s.violation("%s %s: no such path on Discord (the API lives under /api/v9/)", r.Method, r.URL.Path)
	writeJSON(w, http.StatusNotFound, map[string]any{"message": "404: Not Found", "code": 0})
}

// serveAttachment serves the bytes of an uploaded attachment.
func (s *Server) serveAttachment(w http.ResponseWriter, r *http.Request) {
	parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/attachments/"), "/")
	s.mu.Lock()
	var a *attachment
	if len(parts) == 3 {
		if c := s.channels[parts[0]]; c != nil {
			for _, id := range c.messages {
				for _, att := range s.messages[id].attachments {
					if att.id == parts[1] {
						a = att
					}
				}
			}
		}
	}
	s.mu.Unlock()
	if a == nil || a.data == nil && a.size > 0 { // unknown, or kept WithoutFileContents
		http.NotFound(w, r)
		return
	}
	if a.contentType != "" {
		w.Header().Set("Content-Type", a.contentType)
	}
	_, _ = w.Write(a.data)
}

// violation records something real Discord would refuse and fails the
// owning test. It may be called with or without s.mu held.
func (s *Server) violation(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	// A test must not be failed after it ended, and s.mu may be held by the
	// caller: vmu orders this against Close, which runs before the end.
	s.vmu.Lock()
	defer s.vmu.Unlock()
	if s.vclosed {
		return
	}
	s.violations = append(s.violations, msg)
	s.t.Errorf("discordtest: %s", msg)
	s.log.Debug("violation", "msg", msg)
}

// Violations returns every refusal the server reported to the test so far.
func (s *Server) Violations() []string {
	s.vmu.Lock()
	defer s.vmu.Unlock()
	return append([]string(nil), s.violations...)
}

// notify wakes waiters; call with s.mu held after any change.
func (s *Server) notify() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// WaitFor waits until cond returns true, re-checking it whenever the
// server's state changes, and fails t if that takes longer than the wait
// timeout. what describes the awaited state for the failure message. cond
// must not be called with any server lock held, which is the case for
// every exported reader.
func (s *Server) WaitFor(t TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.NewTimer(s.cfg.waitTimeout)
	defer deadline.Stop()
	tick := time.NewTicker(25 * time.Millisecond) // in case cond reads something else too
	defer tick.Stop()
	for {
		s.mu.Lock()
		changed := s.changed
		s.mu.Unlock()
		if cond() {
			return
		}
		select {
		case <-changed:
		case <-tick.C:
		case <-deadline.C:
			t.Fatalf("discordtest: waited %v for %s", s.cfg.waitTimeout, what)
		}
	}
}

// WaitReady waits until some gateway session is connected and has been
// sent READY and every guild's GUILD_CREATE (sent: the client may still be
// reading them).
func (s *Server) WaitReady(t TB) {
	t.Helper()
	s.WaitFor(t, "a ready gateway session", func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, gs := range s.sessions {
			if gs.conn != nil && gs.ready {
				return true
			}
		}
		return false
	})
}

// Request is one REST request the server answered, for tests that check
// what the bot sent.
type Request struct {
	Method string    // GET, POST, …
	Path   string    // as sent, e.g. "/api/v9/channels/1/messages"
	Route  string    // "POST /channels/{channel_id}/messages"; "" when unknown
	Status int       // HTTP status of the answer
	Code   int       // Discord's error code, 0 on success
	Body   []byte    // the JSON body, or the payload_json part of a multipart body
	Files  []File    // uploaded files
	At     time.Time // when the request arrived (wall clock)
	client string    // the client's IP address
}

// Requests returns the REST requests answered so far, oldest first. If
// route is not empty, only requests to that route ("POST
// /channels/{channel_id}/messages") are returned.
func (s *Server) Requests(route string) []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Request
	for _, r := range s.requests {
		if route == "" || r.Route == route {
			out = append(out, r)
		}
	}
	return out
}

// sleep waits d or until the server closes, and reports whether it is still open.
func (s *Server) sleep(d time.Duration) bool {
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
		return true
	case <-s.done:
		return false
	}
}

// readAll reads a request body up to limit bytes. size is the length the
// request declares (-1 when unknown): a buffer of that size holds a
// picture's upload at once, where growing one from 512 bytes copied it
// seven times.
func readAll(r io.Reader, size, limit int64) ([]byte, bool, error) {
	if size < 0 || size > limit {
		size = 512
	}
	// +1: the read that finds the end needs no room to grow into.
	b, err := appendAll(make([]byte, 0, size+1), io.LimitReader(r, limit+1))
	if err != nil {
		return nil, false, fmt.Errorf("read body: %w", err)
	}
	if int64(len(b)) > limit {
		return nil, true, nil
	}
	return b, false, nil
}

// appendAll appends what r holds to b, growing b only when it is full.
func appendAll(b []byte, r io.Reader) ([]byte, error) {
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if errors.Is(err, io.EOF) {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// queryBool reads a boolean query parameter the way Discord does.
func queryBool(q url.Values, name string) bool {
	switch strings.ToLower(q.Get(name)) {
	case "true", "1":
		return true
	}
	return false
}
