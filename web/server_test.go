package web

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/bolt"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// openStore opens a real store for a test (the one line to change when the
// bbolt backend moves).
func openStore(t testing.TB) storage.Store {
	t.Helper()
	db, err := bolt.Open(bolt.Options{Path: filepath.Join(t.TempDir(), "web.db"), NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

type fakeLinks struct {
	mu    sync.Mutex
	gens  map[string]uint32
	reads int // LinkGeneration calls: database reads in the bot
}

func (l *fakeLinks) LinkGeneration(_ context.Context, user string) (uint32, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.reads++
	return l.gens[user], nil
}

func (l *fakeLinks) readsSoFar() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.reads
}

func (l *fakeLinks) revoke(user string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.gens[user]++
}

// fakeActor applies actions to the store the way the bot's one path does,
// then tells the server.
type fakeActor struct {
	store storage.Store
	srv   *Server
	at    time.Time
}

func refusal(err error) error {
	var me *game.MoveError
	var se *game.SetupError
	switch {
	case errors.As(err, &me):
		return &Refusal{Reason: me.Reason}
	case errors.As(err, &se):
		return &Refusal{Reason: se.Reason}
	case errors.Is(err, storage.ErrStale), errors.Is(err, game.ErrNotYourTurn), errors.Is(err, game.ErrGameOver),
		errors.Is(err, storage.ErrNotStarted), errors.Is(err, storage.ErrSetupConfirmed), errors.Is(err, game.ErrNoDrawOffer),
		errors.Is(err, storage.ErrNoGiftsLeft), errors.Is(err, storage.ErrNotCorrespondence), errors.Is(err, storage.ErrNoPauseOffer),
		errors.Is(err, storage.ErrPaused), errors.Is(err, storage.ErrGiftGiven):
		return &Refusal{Reason: err.Error()}
	}
	return err
}

func (a *fakeActor) changed(m *storage.Match, g *game.Game, err error) error {
	if err != nil {
		return refusal(err)
	}
	if g == nil && m.Phase != storage.PhaseSetup {
		g, _ = m.Game()
	}
	a.srv.MatchChanged(m, g)
	return nil
}

// made checks at's basis on m, and returns m's version to act at.
func made(m *storage.Match, at Basis) (uint64, error) {
	var g *game.Game
	if m.Setups[game.Red].Status == storage.SetupConfirmed && m.Setups[game.Blue].Status == storage.SetupConfirmed {
		var err error
		if g, err = m.Game(); err != nil {
			return 0, err
		}
	}
	return m.Version, at(m, g)
}

func (a *fakeActor) Move(ctx context.Context, m *storage.Match, at Basis, side game.Side, mv game.Move) error {
	version, err := made(m, at)
	if err != nil {
		return err
	}
	m, g, err := a.store.ApplyMove(ctx, m.ID, version, side, mv, a.at)
	return a.changed(m, g, err)
}

func (a *fakeActor) Setup(ctx context.Context, m *storage.Match, side game.Side, s game.Setup, confirm bool) error {
	status := storage.SetupDraft
	if confirm {
		status = storage.SetupConfirmed
	}
	m, err := a.store.SetSetup(ctx, m.ID, 0, side, s, status, a.at)
	return a.changed(m, nil, err)
}

// CheckSetup checks as the bot does: the rules, then whether a piece can move.
func (a *fakeActor) CheckSetup(ctx context.Context, m *storage.Match, side game.Side, s game.Setup) error {
	if err := s.Validate(m.Rules); err != nil {
		return refusal(err)
	}
	if !s.CanMove(m.Rules) {
		return &Refusal{Reason: "none of its pieces can move"}
	}
	return nil
}

// RandomSetup draws a set-up and stores it as side's draft, as the bot does.
func (a *fakeActor) RandomSetup(ctx context.Context, m *storage.Match, side game.Side) (game.Setup, error) {
	s := game.RandomSetup(m.Rules, m.Secret.Seed("web-random", uint64(side), uint64(a.at.UnixNano())))
	m, err := a.store.SetSetup(ctx, m.ID, 0, side, s, storage.SetupDraft, a.at)
	return s, a.changed(m, nil, err)
}

func (a *fakeActor) Resign(ctx context.Context, m *storage.Match, at Basis, side game.Side) error {
	version, err := made(m, at)
	if err != nil {
		return err
	}
	m, err = a.store.Act(ctx, m.ID, version, storage.Action{Kind: storage.ActResign, Side: side, At: a.at})
	return a.changed(m, nil, err)
}

func (a *fakeActor) Draw(ctx context.Context, m *storage.Match, at Basis, side game.Side, d DrawAnswer) error {
	version, err := made(m, at)
	if err != nil {
		return err
	}
	kind := [...]storage.ActionKind{storage.ActOfferDraw, storage.ActAcceptDraw, storage.ActDeclineDraw}[d]
	m, err = a.store.Act(ctx, m.ID, version, storage.Action{Kind: kind, Side: side, At: a.at})
	return a.changed(m, nil, err)
}

func (a *fakeActor) GiveTime(ctx context.Context, m *storage.Match, side game.Side, given int) error {
	m, err := a.store.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActGiveTime, Side: side, Gift: given + 1, At: a.at})
	return a.changed(m, nil, err)
}

// Pause refuses, as the bot does, an answer to a proposal other than the
// one the page showed (the friendly text aside), then acts on the store.
func (a *fakeActor) Pause(ctx context.Context, m *storage.Match, side game.Side, answer PauseAnswer, days int) error {
	act := storage.Action{Kind: storage.ActOfferPause, Side: side, Days: days, At: a.at}
	if answer != PausePropose {
		act.Kind, act.Days = storage.ActAcceptPause, 0
		if answer == PauseDecline {
			act.Kind = storage.ActDeclinePause
		}
		if by, shown, ok := m.PauseOffer(); ok && by != side && shown != days {
			return &Refusal{Reason: "That proposal was withdrawn"}
		}
	}
	m, err := a.store.Act(ctx, m.ID, 0, act)
	return a.changed(m, nil, err)
}

func (a *fakeActor) SavedSetups(ctx context.Context, m *storage.Match, side game.Side) ([]SavedSetup, error) {
	if m.Setups[side].Status == storage.SetupConfirmed {
		return nil, refusal(storage.ErrSetupConfirmed)
	}
	p, err := a.store.Player(ctx, m.Players[side].UserID)
	if err != nil {
		return nil, err
	}
	var out []SavedSetup
	for _, s := range p.Setups {
		if s.Army == m.Rules.Army {
			out = append(out, SavedSetup{Name: s.Name, Setup: s.Setup})
		}
	}
	return out, nil
}

func (a *fakeActor) SaveSetup(ctx context.Context, m *storage.Match, side game.Side, name string, su game.Setup) error {
	if err := su.Validate(m.Rules); err != nil {
		return refusal(err)
	}
	_, err := a.store.UpdatePlayer(ctx, m.Players[side].UserID, func(p *storage.PlayerSettings) error {
		return p.SaveSetup(storage.SavedSetup{Name: name, Variant: m.Rules.Variant, Army: m.Rules.Army, Setup: su, Saved: a.at})
	})
	return err
}

type fixture struct {
	mu     sync.Mutex
	prefs  map[string]Preferences // by user ID
	store  storage.Store
	signer *Signer
	links  *fakeLinks
	srv    *Server
	ts     *httptest.Server
	now    time.Time
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	f := &fixture{store: openStore(t), signer: testSigner(t, 0), links: &fakeLinks{gens: map[string]uint32{}}, now: storagetest.T0}
	actor := &fakeActor{store: f.store, at: storagetest.T0}
	f.srv = New(Options{
		Auth:    &CapabilityAuth{Signer: f.signer, Matches: f.store, Links: f.links, Now: f.clock},
		Matches: f.store, Actor: actor, Rate: 1000,
		Preferences: func(_ context.Context, user string) (Preferences, error) {
			f.mu.Lock()
			defer f.mu.Unlock()
			return f.prefs[user], nil
		},
		Log: func(msg string, args ...any) { t.Logf("%s %v", msg, args) },
	})
	actor.srv = f.srv
	f.ts = httptest.NewServer(f.srv)
	t.Cleanup(f.ts.Close)
	return f
}

// clock is the links' clock: f.now.
func (f *fixture) clock() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// setPrefs sets a member's language and numbering.
func (f *fixture) setPrefs(user string, p Preferences) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.prefs == nil {
		f.prefs = map[string]Preferences{}
	}
	f.prefs[user] = p
}

func (f *fixture) token(id storage.MatchID, v game.Viewer) string {
	return f.signer.Sign(Capability{Match: id, Viewer: v, Expires: f.now.Add(time.Hour)})
}

// basis returns what tok's viewer sees now (State.Basis): what an action
// of theirs is made on.
func (f *fixture) basis(t testing.TB, tok string) string {
	t.Helper()
	code, resp, _ := f.do(t, "GET", "/api/state", tok, "")
	var st State
	if code != 200 || json.Unmarshal([]byte(resp), &st) != nil {
		t.Fatalf("state: %d %s", code, resp)
	}
	return st.Basis
}

func (f *fixture) do(t testing.TB, method, path, tok, body string) (int, string, http.Header) {
	t.Helper()
	status, b, h := call(t, method, f.ts.URL+path, tok, body)
	return status, string(b), h
}

// call makes one request with a capability token (none when empty) and a
// JSON body (none when empty), and returns the whole answer.
func call(t testing.TB, method, url, tok, body string) (int, []byte, http.Header) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	if tok != "" {
		req.Header.Set(CapabilityHeader, tok)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b, resp.Header
}

func TestRefusedLinks(t *testing.T) {
	f := newFixture(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	red := f.token(m.ID, game.RedViewer)
	blueOld := f.token(m.ID, game.BlueViewer)
	f.links.revoke("1002")
	expired := f.signer.Sign(Capability{Match: m.ID, Viewer: game.RedViewer, Expires: f.now})
	forged := testSigner(t, 1).Sign(Capability{Match: m.ID, Viewer: game.RedViewer, Expires: f.now.Add(time.Hour)})
	for _, tt := range []struct {
		name, tok string
		status    int
	}{
		{"none", "", 403}, {"forged", forged, 403}, {"expired", expired, 410}, {"revoked", blueOld, 410},
		{"garbage", "x", 403}, {"good", red, 200},
	} {
		if code, body, _ := f.do(t, "GET", "/api/state", tt.tok, ""); code != tt.status {
			t.Errorf("%s: status %d (%s), want %d", tt.name, code, body, tt.status)
		}
	}
	// Revoking Blue left Red's link working; a new Blue link works.
	if code, _, _ := f.do(t, "GET", "/api/state", f.signer.Sign(Capability{Match: m.ID, Viewer: game.BlueViewer, Gen: 1, Expires: f.now.Add(time.Hour)}), ""); code != 200 {
		t.Errorf("a fresh Blue link: %d", code)
	}
}

func TestWrongSideCannotAct(t *testing.T) {
	f := newFixture(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	g, _ := m.Game()
	mv := g.LegalMoves()[0] // Red's
	body := func(v game.Viewer) string {
		b, _ := json.Marshal(moveRequest{Basis: f.basis(t, f.token(m.ID, v)), From: uint8(mv.From), To: uint8(mv.To)})
		return string(b)
	}
	for _, v := range []game.Viewer{game.BlueViewer, game.PublicViewer} {
		code, resp, _ := f.do(t, "POST", "/api/move", f.token(m.ID, v), body(v))
		if code == 200 {
			t.Fatalf("%v moved Red's piece: %s", v, resp)
		}
	}
	if code, resp, _ := f.do(t, "POST", "/api/resign", f.token(m.ID, game.PublicViewer), `{"basis":""}`); code != 403 {
		t.Fatalf("a spectator resigned: %d %s", code, resp)
	}
	if code, resp, _ := f.do(t, "POST", "/api/move", f.token(m.ID, game.RedViewer), body(game.RedViewer)); code != 200 {
		t.Fatalf("Red's own move: %d %s", code, resp)
	}
	// An illegal move comes back with the engine's reason.
	blue := f.token(m.ID, game.BlueViewer)
	code, resp, _ := f.do(t, "POST", "/api/move", blue, `{"basis":"`+f.basis(t, blue)+`","from":0,"to":99}`)
	if code != 409 || !strings.Contains(resp, "error") {
		t.Fatalf("illegal move: %d %s", code, resp)
	}
}

func TestHeadersAndLimits(t *testing.T) {
	f := newFixture(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	tok := f.token(m.ID, game.RedViewer)
	_, page, h := f.do(t, "GET", "/board", "", "")
	if !strings.Contains(h.Get("Content-Security-Policy"), "script-src 'self'") || h.Get("Referrer-Policy") != "no-referrer" {
		t.Fatalf("headers: %v", h)
	}
	if strings.Contains(page, "<script>") || strings.Contains(page, "style=") {
		t.Fatal("inline script or style in the page")
	}
	if code, _, _ := f.do(t, "POST", "/api/move", tok, `{"basis":"","from":1,"to":2,"x":"`+strings.Repeat("a", MaxBody)+`"}`); code != 413 {
		t.Fatalf("a large body: %d", code)
	}
	req, _ := http.NewRequest("POST", f.ts.URL+"/api/resign", strings.NewReader(`{"basis":""}`))
	req.Header.Set(CapabilityHeader, tok)
	req.Header.Set("Content-Type", "text/plain")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 415 {
		t.Fatalf("a form post: %v %v", resp.StatusCode, err)
	}
	// Rate limit.
	f.srv.limiter = newLimiter(linkLimits(1, 3))
	limited := false
	for range 10 {
		if code, _, _ := f.do(t, "GET", "/api/state", tok, ""); code == 429 {
			limited = true
		}
	}
	if !limited {
		t.Fatal("no rate limit")
	}
}

// TestRateLimitPerClient: the rate limit counts each client (as the reverse
// proxy names it) apart, so one spectator cannot starve another on the same
// link, and a limited request reads nothing from the database.
func TestRateLimitPerClient(t *testing.T) {
	f := newFixture(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	f.srv.limiter = newLimiter(linkLimits(0.001, 3))
	get := func(tok, client string) int {
		req, _ := http.NewRequest("GET", f.ts.URL+"/api/state", nil)
		req.Header.Set(CapabilityHeader, tok)
		req.Header.Set("X-Forwarded-For", "203.0.113.9, "+client) // the first hop is the client's own claim
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	public, red := f.token(m.ID, game.PublicViewer), f.token(m.ID, game.RedViewer)
	tests := []struct {
		name, tok, client string
		want              int
	}{
		{"the first spectator's burst", public, "198.51.100.1", 200},
		{"", public, "198.51.100.1", 200},
		{"", public, "198.51.100.1", 200},
		{"the first spectator, limited", public, "198.51.100.1", 429},
		{"another spectator on the same link", public, "198.51.100.2", 200},
		{"Red's burst", red, "198.51.100.3", 200},
		{"", red, "198.51.100.3", 200},
		{"", red, "198.51.100.3", 200},
	}
	for i, tc := range tests {
		if got := get(tc.tok, tc.client); got != tc.want {
			t.Fatalf("#%d %s: %d, want %d", i, tc.name, got, tc.want)
		}
	}
	reads := f.links.readsSoFar()
	if got := get(red, "198.51.100.3"); got != 429 {
		t.Fatalf("Red past the burst: %d", got)
	}
	if f.links.readsSoFar() != reads {
		t.Fatal("a limited request read the player's link generation: the limit must come first")
	}
}

// TestStreamsPerLink: one link holds at most MaxStreamsPerLink event
// streams open at once.
func TestStreamsPerLink(t *testing.T) {
	f := newFixture(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	tok := f.token(m.ID, game.PublicViewer)
	open := func() *http.Response {
		req, _ := http.NewRequest("GET", f.ts.URL+"/api/events", nil)
		req.Header.Set(CapabilityHeader, tok)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	for i := range MaxStreamsPerLink {
		if resp := open(); resp.StatusCode != 200 {
			t.Fatalf("stream %d: %d", i+1, resp.StatusCode)
		}
	}
	if resp := open(); resp.StatusCode != 429 {
		t.Fatalf("one stream too many: %d", resp.StatusCode)
	}
}

// TestStreamsPerClient: one client holds at most MaxStreamsPerClient event
// streams open at once, over all its links; another client still gets its
// own.
func TestStreamsPerClient(t *testing.T) {
	f := newFixture(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	links := 0
	open := func(client string) *http.Response {
		req, _ := http.NewRequest("GET", f.ts.URL+"/api/events", nil)
		// A new link for each stream, as each /stratego watch makes.
		links++
		req.Header.Set(CapabilityHeader, f.signer.Sign(Capability{Match: m.ID, Viewer: game.PublicViewer, Expires: f.now.Add(time.Hour + time.Duration(links)*time.Second)}))
		req.Header.Set("X-Forwarded-For", client)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	for i := range MaxStreamsPerClient {
		if resp := open("198.51.100.7"); resp.StatusCode != 200 {
			t.Fatalf("stream %d: %d", i+1, resp.StatusCode)
		}
	}
	if resp := open("198.51.100.7"); resp.StatusCode != 429 {
		t.Fatalf("one stream too many for one client: %d", resp.StatusCode)
	}
	if resp := open("198.51.100.8"); resp.StatusCode != 200 {
		t.Fatalf("another client's stream: %d", resp.StatusCode)
	}
}

// TestEvents: a move stored elsewhere (as on Discord) reaches an open stream.
func TestEvents(t *testing.T) {
	f := newFixture(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	req, _ := http.NewRequest("GET", f.ts.URL+"/api/events", nil)
	req.Header.Set(CapabilityHeader, f.token(m.ID, game.BlueViewer))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	rd := bufio.NewReader(resp.Body)
	next := func() *State {
		for {
			line, err := rd.ReadString('\n')
			if err != nil {
				t.Fatal(err)
			}
			if data, ok := strings.CutPrefix(line, "data: "); ok {
				var st State
				if err := json.Unmarshal([]byte(data), &st); err != nil {
					t.Fatal(err)
				}
				return &st
			}
		}
	}
	if st := next(); len(st.History) != 0 || st.Viewer != "blue" {
		t.Fatalf("first event: %+v", st)
	}
	g, _ := m.Game()
	mv := g.LegalMoves()[0]
	m2, g2, err := f.store.ApplyMove(context.Background(), m.ID, m.Version, game.Red, mv, storagetest.T0)
	if err != nil {
		t.Fatal(err)
	}
	f.srv.MatchChanged(m2, g2) // how soon it arrives is BenchmarkMoveToEvent's
	if st := next(); len(st.History) != 1 {
		t.Fatalf("after the move: %+v", st)
	}
	// Revoking Blue's links ends the open stream at the next change.
	f.links.revoke("1002")
	g2mv := g2.LegalMoves()[0]
	m3, g3, err := f.store.ApplyMove(context.Background(), m2.ID, m2.Version, game.Blue, g2mv, storagetest.T0)
	if err != nil {
		t.Fatal(err)
	}
	f.srv.MatchChanged(m3, g3)
	for {
		line, err := rd.ReadString('\n')
		if err != nil {
			break
		}
		if strings.HasPrefix(line, "data: ") {
			t.Fatal("a revoked link still receives states")
		}
	}
}

func TestLink(t *testing.T) {
	s := testSigner(t, 0)
	c := Capability{Match: 5, Viewer: game.PublicViewer, Expires: time.Unix(2e9, 0)}
	if got := s.Link("https://board.example/", c); got != "https://board.example/board#"+s.Sign(c) {
		t.Fatal(got)
	}
}

func FuzzHandlers(f *testing.F) {
	fx := newFixture(f)
	m := storagetest.Started(f, fx.store, storagetest.NewMatch(game.VariantBarrage), 1)
	red := fx.token(m.ID, game.RedViewer)
	var mu sync.Mutex
	var failure string
	fx.srv.opts.Log = func(msg string, args ...any) { mu.Lock(); failure = fmt.Sprint(msg, args); mu.Unlock() }
	for _, s := range []string{`{"basis":"","from":3,"to":13}`, `{"setup":[[1,2]],"confirm":true}`, `{"basis":"","answer":"offer"}`, `{}`, `[`, ``} {
		for _, p := range []string{"/api/move", "/api/setup", "/api/draw", "/api/resign", "/api/random", "/api/state", "/api/check"} {
			f.Add(p, s, true)
		}
	}
	f.Fuzz(func(t *testing.T, path, body string, auth bool) {
		req := httptest.NewRequest("POST", "/", strings.NewReader(body))
		req.URL.Path = "/" + strings.TrimLeft(path, "/")
		req.Header.Set("Content-Type", "application/json")
		if auth {
			req.Header.Set(CapabilityHeader, red)
		}
		w := httptest.NewRecorder()
		fx.srv.ServeHTTP(w, req)
		if w.Code >= 500 {
			mu.Lock()
			defer mu.Unlock()
			t.Fatalf("%s %q: %d %s (%s)", path, body, w.Code, w.Body, failure)
		}
		if strings.Contains(w.Body.String(), red) {
			t.Fatal("the token echoed")
		}
	})
}

func TestReplayAndRecord(t *testing.T) {
	f := newFixture(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	red := f.token(m.ID, game.RedViewer)
	g, _ := m.Game()
	mv := g.LegalMoves()[0]
	if code, resp, _ := f.do(t, "POST", "/api/move", red, fmt.Sprintf(`{"basis":%q,"from":%d,"to":%d}`, f.basis(t, red), mv.From, mv.To)); code != 200 {
		t.Fatalf("move: %d %s", code, resp)
	}
	code, resp, _ := f.do(t, "GET", "/api/replay?ply=0", red, "")
	var st State
	if code != 200 || json.Unmarshal([]byte(resp), &st) != nil || len(st.History) != 0 || st.Board[mv.From].Side != "red" {
		t.Fatalf("replay of ply 0: %d %s", code, resp)
	}
	if code, _, _ := f.do(t, "GET", "/api/reveal", red, ""); code != 403 {
		t.Fatalf("reveal during play: %d", code)
	}
	if code, _, _ := f.do(t, "POST", "/api/resign", red, `{"basis":"`+f.basis(t, red)+`"}`); code != 200 {
		t.Fatal("resign")
	}
	if code, resp, _ := f.do(t, "GET", "/api/record", f.token(m.ID, game.PublicViewer), ""); code != 200 || !strings.Contains(resp, "<") {
		t.Fatalf("record: %d %s", code, resp)
	}
	if code, _, _ := f.do(t, "GET", "/api/reveal", f.token(m.ID, game.BlueViewer), ""); code != 200 {
		t.Fatalf("reveal after the end: %d", code)
	}
}

// FuzzQueries: any query on the reading endpoints (a language, a ply) gets
// an answer, never a failure, and never the token.
func FuzzQueries(f *testing.F) {
	fx := newFixture(f)
	m := storagetest.Started(f, fx.store, storagetest.NewMatch(game.VariantBarrage), 1)
	red := fx.token(m.ID, game.RedViewer)
	for _, q := range []string{"lang=fr", "lang=pt-BR", "ply=0", "ply=-1", "ply=99999999999", "lang=%zz", "lang=de&ply=0"} {
		for _, p := range []string{"/api/texts", "/api/replay", "/api/state", "/api/reveal", "/api/record"} {
			f.Add(p, q)
		}
	}
	f.Fuzz(func(t *testing.T, path, query string) {
		req := httptest.NewRequest("GET", "/", nil)
		req.URL.Path = "/" + strings.TrimLeft(path, "/")
		req.URL.RawQuery = query
		req.Header.Set(CapabilityHeader, red)
		w := httptest.NewRecorder()
		fx.srv.ServeHTTP(w, req)
		if w.Code >= 500 {
			t.Fatalf("%s?%s: %d %s", path, query, w.Code, w.Body)
		}
		if strings.Contains(w.Body.String(), red) {
			t.Fatal("the token echoed")
		}
	})
}

// TestSavedSetups: a player's saved set-ups reach only their own side's page,
// only while that side sets up, and a set-up is kept only when the rules
// accept it.
func TestSavedSetups(t *testing.T) {
	f := newFixture(t)
	bg := context.Background()
	m, err := f.store.CreateMatch(bg, storagetest.NewMatch(game.VariantBarrage))
	if err != nil {
		t.Fatal(err)
	}
	red, blue, public := f.token(m.ID, game.RedViewer), f.token(m.ID, game.BlueViewer), f.token(m.ID, game.PublicViewer)
	good, _ := json.Marshal(saveRequest{Name: "Wall", Setup: rowsOf(game.RandomSetup(m.Rules, 3))})
	empty, _ := json.Marshal(saveRequest{Name: "Nothing"})
	long, _ := json.Marshal(saveRequest{Name: strings.Repeat("x", MaxSetupName+1), Setup: rowsOf(game.RandomSetup(m.Rules, 3))})
	blank, _ := json.Marshal(saveRequest{Name: "  ", Setup: rowsOf(game.RandomSetup(m.Rules, 3))})
	// 100 characters, 200 bytes: within MaxSetupName, which counts characters.
	accented, _ := json.Marshal(saveRequest{Name: strings.Repeat("é", MaxSetupName), Setup: rowsOf(game.RandomSetup(m.Rules, 5))})
	// 60 emoji: 120 characters as a browser (and perhaps a Discord menu) counts them.
	emoji, _ := json.Marshal(saveRequest{Name: strings.Repeat("😀", 60), Setup: rowsOf(game.RandomSetup(m.Rules, 5))})
	twoLines, _ := json.Marshal(saveRequest{Name: "Wall\nof bombs", Setup: rowsOf(game.RandomSetup(m.Rules, 5))})
	for _, tt := range []struct {
		name, method, tok, body string
		status                  int
		want                    string // in the answer
	}{
		{"a spectator lists", "GET", public, "", 403, "Only a player"},
		{"a spectator saves", "POST", public, string(good), 403, "Only a player"},
		{"none yet", "GET", red, "", 200, `{"setups":[]}`},
		{"an incomplete set-up", "POST", red, string(empty), 409, "error"},
		{"a name too long", "POST", red, string(long), 400, "Bad request"},
		{"a blank name", "POST", red, string(blank), 400, "Bad request"},
		{"a good one", "POST", red, string(good), 200, `"ok":true`},
		{"a long name in letters of two bytes", "POST", red, string(accented), 200, `"ok":true`},
		{"a name of too many emoji", "POST", red, string(emoji), 400, "Bad request"},
		{"a name of two lines", "POST", red, string(twoLines), 400, "Bad request"},
		{"Red sees it", "GET", red, "", 200, `"name":"Wall"`},
		{"Blue does not", "GET", blue, "", 200, `{"setups":[]}`},
	} {
		code, body, _ := f.do(t, tt.method, "/api/setups", tt.tok, tt.body)
		if code != tt.status || !strings.Contains(body, tt.want) {
			t.Errorf("%s: %d %s, want %d with %q", tt.name, code, body, tt.status, tt.want)
		}
	}
	// Once Red's set-up is confirmed, Red's link no longer shows them.
	if _, err := f.store.SetSetup(bg, m.ID, 0, game.Red, game.RandomSetup(m.Rules, 4), storage.SetupConfirmed, storagetest.T0); err != nil {
		t.Fatal(err)
	}
	if code, body, _ := f.do(t, "GET", "/api/setups", red, ""); code != 409 || strings.Contains(body, "Wall") {
		t.Errorf("after Red's set-up: %d %s", code, body)
	}
}

// TestStaleBasisRefused: a move, resignation or draw answer made on a board
// the player no longer sees is refused, in the player's language, and
// changes nothing.
func TestStaleBasisRefused(t *testing.T) {
	f := newFixture(t)
	f.setPrefs("1001", Preferences{Language: "nl"})
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	g, _ := m.Game()
	mv := g.LegalMoves()[0] // Red's
	red := f.token(m.ID, game.RedViewer)
	stale := f.basis(t, f.token(m.ID, game.BlueViewer)) // not the board Red sees
	for _, tc := range []struct{ path, body string }{
		{"/api/move", fmt.Sprintf(`{"basis":%q,"from":%d,"to":%d}`, stale, mv.From, mv.To)},
		{"/api/resign", fmt.Sprintf(`{"basis":%q}`, stale)},
		{"/api/draw", fmt.Sprintf(`{"basis":%q,"answer":"offer"}`, stale)},
	} {
		code, resp, _ := f.do(t, "POST", tc.path, red, tc.body)
		if code != 409 || !strings.Contains(resp, "Het bord is veranderd sinds je keek") {
			t.Errorf("%s on a stale board: %d %s", tc.path, code, resp)
		}
	}
	now, err := f.store.Match(context.Background(), m.ID)
	if err != nil {
		t.Fatal(err)
	}
	if now.Version != m.Version {
		t.Errorf("the refused actions changed the match: version %d, was %d", now.Version, m.Version)
	}
}

// TestRateLimitIPv6Network: a client on IPv6 holds a whole /64 and can
// name itself anew with each request within it: the limit counts the
// network, not the address.
func TestRateLimitIPv6Network(t *testing.T) {
	f := newFixture(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	f.srv.limiter = newLimiter(linkLimits(0.001, 3))
	public := f.token(m.ID, game.PublicViewer)
	get := func(client string) int {
		req, _ := http.NewRequest("GET", f.ts.URL+"/api/state", nil)
		req.Header.Set(CapabilityHeader, public)
		req.Header.Set("X-Forwarded-For", client)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for i := range 3 {
		if got := get(fmt.Sprintf("2001:db8:1:2::%x", i+1)); got != 200 {
			t.Fatalf("request %d of the burst: %d", i+1, got)
		}
	}
	if got := get("2001:db8:1:2:ffff::9"); got != 429 {
		t.Fatalf("another address of the same /64 after the burst: %d, want 429", got)
	}
	if got := get("2001:db8:1:3::1"); got != 200 {
		t.Fatalf("another /64: %d, want 200", got)
	}
}

// TestLimiterManyClients: many clients at once (the limiter's sweep of
// idle buckets) cost each request little, not a pass over every bucket.
func TestLimiterManyClients(t *testing.T) {
	l := newLimiter(limitsFor(5))
	start := time.Now()
	for i := range 60000 {
		l.allow(limitKey{match: 1, client: fmt.Sprint("198.18.", i/256, ".", i%256)})
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("60000 clients' first requests took %v: each request sweeps every bucket", d)
	}
}

// TestSlowBodyRefused: a request whose body trickles in is cut off: a
// capability's holder cannot hold a handler per request forever at the
// rate limit's pace.
func TestSlowBodyRefused(t *testing.T) {
	f := newFixture(t)
	f.srv.bodyTimeout = 300 * time.Millisecond
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	conn, err := net.Dial("tcp", strings.TrimPrefix(f.ts.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/resign HTTP/1.1\r\nHost: board\r\n%s: %s\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{", CapabilityHeader, f.token(m.ID, game.RedViewer))
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			t.Fatal("the server still waits for the body after 5 s")
		}
		return // the connection was closed: cut off too
	}
	resp.Body.Close()
	if resp.StatusCode < 400 {
		t.Fatalf("a body that never came: %d", resp.StatusCode)
	}
}

// TestProxyDocsNameTheCapabilityHeader: the reverse proxy's page tells the
// admin which request header holds the link's secret, to keep it out of
// access logs; it must name the header the page sends.
func TestProxyDocsNameTheCapabilityHeader(t *testing.T) {
	for _, file := range []string{"../docs/deploy/reverse-proxy.md", "../README.md"} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), CapabilityHeader) {
			t.Errorf("%s does not name %s, the header that carries the link's secret", file, CapabilityHeader)
		}
	}
}

// TestEventsEndAtExpiry: a stream opened before its link expired receives
// no state after: the next change finds the link expired and ends it.
func TestEventsEndAtExpiry(t *testing.T) {
	f := newFixture(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	tok := f.signer.Sign(Capability{Match: m.ID, Viewer: game.PublicViewer, Expires: f.now.Add(time.Minute)})
	req, _ := http.NewRequest("GET", f.ts.URL+"/api/events", nil)
	req.Header.Set(CapabilityHeader, tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	rd := bufio.NewReader(resp.Body)
	for {
		line, err := rd.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(line, "data: ") {
			break // the state when it opened
		}
	}
	f.mu.Lock()
	f.now = f.now.Add(time.Minute) // the link's last second has passed
	f.mu.Unlock()
	g, _ := m.Game()
	m2, g2, err := f.store.ApplyMove(context.Background(), m.ID, m.Version, game.Red, g.LegalMoves()[0], storagetest.T0)
	if err != nil {
		t.Fatal(err)
	}
	f.srv.MatchChanged(m2, g2)
	for {
		line, err := rd.ReadString('\n')
		if err != nil {
			break // ended
		}
		if strings.HasPrefix(line, "data: ") {
			t.Fatal("an expired link still receives states")
		}
	}
}
