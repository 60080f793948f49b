package web

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/gametest"
	"github.com/strategobot/strategobot/storage"
)

// stateNow is when the tests' states are built.
var stateNow = time.Unix(1_799_990_000, 0)

// playingMatch wraps a game in the match facts a page is sent beside it.
func playingMatch(g *game.Game) *storage.Match {
	m := &storage.Match{
		ID: 9, Version: uint64(g.Ply() + 3), Rules: g.Rules(), Phase: storage.PhasePlaying,
		Players:  [2]storage.Player{{UserID: "1", Name: "Ann"}, {UserID: "2", Name: "Bob"}},
		Clock:    storage.TimeControl{Base: 10 * time.Minute},
		Left:     [2]time.Duration{time.Minute, 2 * time.Minute},
		Deadline: time.Unix(1_800_000_000, 0),
	}
	for s := range m.Setups {
		m.Setups[s] = storage.SideSetup{Status: storage.SetupConfirmed, Setup: g.Setup(game.Side(s))}
	}
	v := g.View(game.PublicViewer)
	for _, r := range v.History {
		m.Log = append(m.Log, storage.Action{Kind: storage.ActMove, Side: r.Side, Move: r.Move})
	}
	if g.Result().Over() {
		m.Phase, m.Result, m.Deadline = storage.PhaseFinished, g.Result(), time.Time{}
	}
	return m
}

// TestStateLeaksNothing is the leak comparison through whole matches: at
// every position, shuffling one side's hidden pieces leaves every byte the
// opponent's and the public's pages receive unchanged.
func TestStateLeaksNothing(t *testing.T) {
	variants := []struct {
		rules game.Rules
		seeds uint64
		every int
	}{
		{game.DefaultRules(game.VariantBarrage), 3, 1},
		{game.DefaultRules(game.VariantClassic), 1, 40},
		{game.DefaultRules(game.VariantInfiltrator), 1, 40},
	}
	if testing.Short() {
		variants = variants[:1]
	}
	for _, vt := range variants {
		for seed := uint64(1); seed <= vt.seeds; seed++ {
			r := rand.New(rand.NewPCG(seed, 7))
			changed, positions := 0, 0
			gametest.Game(t, vt.rules, seed*31, 3000, func(g *game.Game) bool {
				if g.Ply()%vt.every != 0 && !g.Result().Over() {
					return true
				}
				positions++
				m := playingMatch(g)
				for _, hidden := range []game.Side{game.Red, game.Blue} {
					sh := gametest.ShuffleHidden(t, g, hidden, r.Uint64())
					ms := playingMatch(sh)
					if sh.Setup(hidden) != g.Setup(hidden) {
						changed++
					}
					for _, viewer := range []game.Viewer{game.ViewerOf(hidden.Opponent()), game.PublicViewer} {
						a, b := BuildState(m, g, viewer, stateNow).Encode(), BuildState(ms, sh, viewer, stateNow).Encode()
						if !bytes.Equal(a, b) {
							t.Fatalf("%v seed %d ply %d: shuffling %v's hidden pieces changed the %v page:\n%s\n%s", vt.rules.Variant, seed, g.Ply(), hidden, viewer, a, b)
						}
					}
					if own := game.ViewerOf(hidden); bytes.Equal(BuildState(m, g, own, stateNow).Encode(), BuildState(ms, sh, own, stateNow).Encode()) && sh.Setup(hidden) != g.Setup(hidden) && !g.Result().Over() {
						t.Fatalf("%v seed %d ply %d: the owner's page does not show their own pieces", vt.rules.Variant, seed, g.Ply())
					}
				}
				return true
			})
			if changed < positions/2 {
				t.Fatalf("%v seed %d: only %d of %d shuffles changed anything: the test proves little", vt.rules.Variant, seed, changed, 2*positions)
			}
		}
	}
}

// TestSetupStateLeaksNothing: during set-up, the opponent's draft or
// confirmed set-up changes nothing the other side or the public receive,
// whether the set-up clock runs or waits for an invite.
func TestSetupStateLeaksNothing(t *testing.T) {
	rules := game.DefaultRules(game.VariantClassic)
	r := rand.New(rand.NewPCG(1, 2))
	for k, status := range []storage.SetupStatus{storage.SetupDraft, storage.SetupConfirmed, storage.SetupDraft, storage.SetupConfirmed} {
		m := &storage.Match{ID: 3, Version: 2, Rules: rules, Phase: storage.PhaseSetup, Deadline: time.Unix(1_800_000_000, 0), MoveTime: time.Hour}
		if k >= 2 {
			m.ClockPending, m.InvitePending = true, [2]bool{false, true}
		}
		m.Setups[game.Red] = storage.SideSetup{Status: storage.SetupDraft, Setup: gametest.Setup(rules, r)}
		m.Setups[game.Blue] = storage.SideSetup{Status: status, Setup: gametest.Setup(rules, r)}
		other := m.Clone()
		other.Setups[game.Blue].Setup = gametest.Setup(rules, r)
		for _, v := range []game.Viewer{game.RedViewer, game.PublicViewer} {
			if a, b := BuildState(m, nil, v, stateNow).Encode(), BuildState(other, nil, v, stateNow).Encode(); !bytes.Equal(a, b) {
				t.Fatalf("Blue's set-up shows on the %v page:\n%s\n%s", v, a, b)
			}
		}
		if bytes.Equal(BuildState(m, nil, game.BlueViewer, stateNow).Encode(), BuildState(other, nil, game.BlueViewer, stateNow).Encode()) {
			t.Fatal("Blue's page does not show Blue's set-up")
		}
	}
}

// world is one version of a match (as played, or with one side's hidden
// pieces shuffled) served by its own Server, with open pages on it.
type world struct {
	mu  sync.Mutex
	m   *storage.Match
	srv *Server
	ts  *httptest.Server
}

func (w *world) Match(context.Context, storage.MatchID) (*storage.Match, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.m, nil
}

// viewerAuth lets a request be the viewer its header names ("0", "1", "2"):
// the leak test needs the pages, not the links.
type viewerAuth struct{}

func (viewerAuth) Authenticate(r *http.Request) (Capability, error) {
	v, err := strconv.Atoi(r.Header.Get(CapabilityHeader))
	if err != nil || v < 0 || v > int(game.PublicViewer) {
		return Capability{}, ErrMalformed
	}
	return Capability{Match: 9, Viewer: game.Viewer(v)}, nil
}

func newWorld(t *testing.T, m *storage.Match) *world {
	w := &world{m: m}
	// One fixed clock: the time a state is sent is no secret, but two
	// worlds must send the same bytes.
	w.srv = New(Options{Auth: viewerAuth{}, Matches: w, Rate: 1e9, Now: func() time.Time { return time.Unix(1e9, 0) }})
	w.ts = httptest.NewServer(w.srv)
	t.Cleanup(func() {
		w.ts.CloseClientConnections() // open event streams, a browser's too
		w.ts.Close()
	})
	return w
}

// change stores m and tells the open pages.
func (w *world) change(m *storage.Match, g *game.Game) {
	w.mu.Lock()
	w.m = m
	w.mu.Unlock()
	w.srv.MatchChanged(m, g)
}

func (w *world) get(t *testing.T, path string, v game.Viewer) []byte {
	t.Helper()
	req, _ := http.NewRequest("GET", w.ts.URL+path, nil)
	req.Header.Set(CapabilityHeader, strconv.Itoa(int(v)))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("%s as %v: %d %s", path, v, resp.StatusCode, b)
	}
	return b
}

// answer is everything the viewer receives for a request: the status, the
// headers (the time of the answer aside) and the body.
func (w *world) answer(t *testing.T, method, path string, v game.Viewer, body string) string {
	t.Helper()
	status, b, h := call(t, method, w.ts.URL+path, strconv.Itoa(int(v)), body)
	h.Del("Date")
	var head bytes.Buffer
	if err := h.Write(&head); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%d\n%s\n%s", status, head.String(), b)
}

// page is an open event stream; next returns its next event, every byte.
type page struct {
	rd   *bufio.Reader
	body io.Closer
}

func (w *world) open(t *testing.T, v game.Viewer) *page {
	req, _ := http.NewRequest("GET", w.ts.URL+"/api/events", nil)
	req.Header.Set(CapabilityHeader, strconv.Itoa(int(v)))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return &page{rd: bufio.NewReader(resp.Body), body: resp.Body}
}

func (p *page) next(t *testing.T) []byte {
	t.Helper()
	var ev []byte
	for {
		line, err := p.rd.ReadBytes('\n')
		if err != nil {
			t.Fatal(err)
		}
		if string(line) == "\n" {
			if len(ev) > 0 {
				return ev
			}
			continue // the end of a keep-alive comment: no event
		}
		if !bytes.HasPrefix(line, []byte(":")) {
			ev = append(ev, line...)
		}
	}
}

// TestPagesLeakNothing extends the leak comparison to everything a page
// receives over the wire: through whole matches, each change's event on
// open streams, and at checkpoints the state, the texts and every replay
// frame are byte for byte the same for the opponent and the public whether
// or not one side's hidden pieces are shuffled. (A page is the same in
// every board mode of the Discord channel: nothing it receives depends on it.)
func TestPagesLeakNothing(t *testing.T) {
	variants := []struct {
		rules      game.Rules
		every      int
		checkpoint int
	}{
		{game.DefaultRules(game.VariantBarrage), 2, 100},
		{game.DefaultRules(game.VariantClassic), 40, 200},
		{game.DefaultRules(game.VariantInfiltrator), 40, 200},
	}
	if testing.Short() {
		variants = variants[:1]
	}
	for _, vt := range variants {
		t.Run(vt.rules.Variant.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(5, 7))
			events, frames := 0, 0
			for seed := uint64(77); seed < 80; seed++ {
				var played *world
				var shuffled [2]*world
				var pages [3]*page
				var spages [2][3]*page
				gametest.Game(t, vt.rules, seed, 3000, func(g *game.Game) bool {
					over := g.Result().Over()
					if g.Ply()%vt.every != 0 && !over {
						return true
					}
					m := playingMatch(g)
					if played == nil {
						played = newWorld(t, m)
						for v := range pages {
							pages[v] = played.open(t, game.Viewer(v))
						}
					} else {
						played.change(m, g)
					}
					// The first event is the state when the page opened; each
					// later one is a change's.
					var seen [3][]byte
					for v := range pages {
						seen[v] = pages[v].next(t)
					}
					for _, hidden := range []game.Side{game.Red, game.Blue} {
						sh := gametest.ShuffleHidden(t, g, hidden, r.Uint64())
						ms := playingMatch(sh)
						w := shuffled[hidden]
						if w == nil {
							w = newWorld(t, ms)
							shuffled[hidden] = w
							for _, v := range []game.Viewer{game.ViewerOf(hidden.Opponent()), game.PublicViewer} {
								spages[hidden][v] = w.open(t, v)
							}
						} else {
							w.change(ms, sh)
						}
						for _, v := range []game.Viewer{game.ViewerOf(hidden.Opponent()), game.PublicViewer} {
							a, b := seen[v], spages[hidden][v].next(t)
							events++
							if !bytes.Equal(a, b) {
								t.Fatalf("ply %d: shuffling %v's hidden pieces changed the %v page's event:\n%s\n%s", g.Ply(), hidden, v, a, b)
							}
							// Often early on, seldom in a long game: every checkpoint
							// reads all its frames.
							check := vt.checkpoint
							if g.Ply() < 40 {
								check = 4
							}
							if over || g.Ply()%check != 0 {
								continue
							}
							paths := []string{"/api/state", "/api/texts?lang=de"}
							for ply := 0; ply <= g.Ply(); ply += max(1, g.Ply()/12) {
								paths = append(paths, "/api/replay?ply="+strconv.Itoa(ply))
							}
							frames += len(paths)
							for _, p := range paths {
								if a, b := played.get(t, p, v), w.get(t, p, v); !bytes.Equal(a, b) {
									t.Fatalf("ply %d: shuffling %v's hidden pieces changed %s for %v:\n%s\n%s", g.Ply(), hidden, p, v, a, b)
								}
							}
							// Every answer whole, headers and refusals too.
							for _, p := range append(paths, "/api/reveal", "/api/record", "/api/replay?ply=x") {
								if a, b := played.answer(t, "GET", p, v, ""), w.answer(t, "GET", p, v, ""); a != b {
									t.Fatalf("ply %d: shuffling %v's hidden pieces changed the answer to %s for %v:\n%s\n%s", g.Ply(), hidden, p, v, a, b)
								}
							}
						}
					}
					return true
				})
			}
			t.Logf("%d events and %d states, texts and frames compared", events, frames)
			if events < 20 || frames < 20 {
				t.Fatalf("only %d events and %d frames compared: the test proves little", events, frames)
			}
		})
	}
}

// TestSetupPagesLeakNothing: in the set-up phase, whether Blue has no
// set-up yet, one draft or another, or a confirmed one (each against the
// same with another set-up), every answer Red's and the public's pages
// receive over the wire is the same: the first event of a stream, the
// state, the texts, and the refusals of what is not there yet, headers too.
func TestSetupPagesLeakNothing(t *testing.T) {
	rules := game.DefaultRules(game.VariantClassic)
	r := rand.New(rand.NewPCG(8, 9))
	base := func() *storage.Match {
		m := &storage.Match{ID: 9, Version: 4, Rules: rules, Phase: storage.PhaseSetup, Deadline: time.Unix(1_800_000_000, 0), MoveTime: time.Hour,
			Players: [2]storage.Player{{UserID: "1", Name: "Ann"}, {UserID: "2", Name: "Bob"}}}
		m.Setups[game.Red] = storage.SideSetup{Status: storage.SetupDraft, Setup: gametest.Setup(rules, r)}
		return m
	}
	withBlue := func(m *storage.Match, status storage.SetupStatus) *storage.Match {
		m = m.Clone()
		if status != storage.SetupNone {
			m.Setups[game.Blue] = storage.SideSetup{Status: status, Setup: gametest.Setup(rules, r)}
		}
		return m
	}
	paths := []string{"/api/state", "/api/texts?lang=fr", "/api/replay?ply=0", "/api/reveal", "/api/record"}
	for _, pair := range [][2]storage.SetupStatus{
		{storage.SetupNone, storage.SetupDraft},
		{storage.SetupDraft, storage.SetupDraft},
		{storage.SetupConfirmed, storage.SetupConfirmed},
	} {
		m := base()
		worlds := [2]*world{newWorld(t, withBlue(m, pair[0])), newWorld(t, withBlue(m, pair[1]))}
		for _, v := range []game.Viewer{game.RedViewer, game.PublicViewer} {
			if a, b := worlds[0].open(t, v).next(t), worlds[1].open(t, v).next(t); !bytes.Equal(a, b) {
				t.Fatalf("Blue's set-up (%v, %v) changed the %v page's first event:\n%s\n%s", pair[0], pair[1], v, a, b)
			}
			for _, p := range paths {
				if a, b := worlds[0].answer(t, "GET", p, v, ""), worlds[1].answer(t, "GET", p, v, ""); a != b {
					t.Fatalf("Blue's set-up (%v, %v) changed the answer to %s for %v:\n%s\n%s", pair[0], pair[1], p, v, a, b)
				}
			}
		}
		for _, p := range []string{"/api/setup", "/api/random", "/api/check", "/api/move"} {
			if a, b := worlds[0].answer(t, "POST", p, game.PublicViewer, "{}"), worlds[1].answer(t, "POST", p, game.PublicViewer, "{}"); a != b {
				t.Fatalf("Blue's set-up (%v, %v) changed the public's refusal of %s:\n%s\n%s", pair[0], pair[1], p, a, b)
			}
		}
	}
}

// TestSetupDeadlineWhileInvitesOnTheirWay: while the set-up invites are on
// their way, every page shows the deadline the invites show, the earliest
// the set-ups can be due (Match.DeadlineToShow); its moving with the time
// is no news to a stream (the key), and once the set-up clock starts, the
// deadline that holds is.
func TestSetupDeadlineWhileInvitesOnTheirWay(t *testing.T) {
	rules := game.DefaultRules(game.VariantBarrage)
	created := stateNow.Add(-10 * time.Minute)
	m := &storage.Match{
		ID: 4, Version: 1, Rules: rules, Phase: storage.PhaseSetup, MoveTime: time.Hour, Created: created,
		Deadline: created.Add(time.Hour), ClockPending: true, InvitePending: [2]bool{false, true},
		Players: [2]storage.Player{{UserID: "1", Name: "Ann"}, {UserID: "2", Name: "Bob"}},
	}
	later := stateNow.Add(time.Minute)
	started := m.Clone()
	started.ClockPending, started.InvitePending, started.Deadline = false, [2]bool{}, later.Add(time.Hour)
	for _, v := range []game.Viewer{game.RedViewer, game.BlueViewer, game.PublicViewer} {
		st := BuildState(m, nil, v, stateNow)
		if want := m.DeadlineToShow(stateNow); st.Deadline != want.UnixMilli() || !want.Equal(stateNow.Add(time.Hour)) {
			t.Errorf("%v page while Blue's invite is on its way: deadline %d, want %d (what the invite shows)", v, st.Deadline, want.UnixMilli())
		}
		data, key := st.Sent(stateNow)
		laterData, laterKey := BuildState(m, nil, v, later).Sent(later)
		if laterKey != key {
			t.Errorf("%v page: the provisional deadline's moving with the time is news to a stream:\n%s\n%s", v, data, laterData)
		}
		var got State
		if err := json.Unmarshal(laterData, &got); err != nil || got.Deadline != later.Add(time.Hour).UnixMilli() {
			t.Errorf("%v page a minute later: %s, want the deadline %d", v, laterData, later.Add(time.Hour).UnixMilli())
		}
		on := BuildState(started, nil, v, later)
		if on.Deadline != started.Deadline.UnixMilli() || on.Basis != st.Basis {
			t.Errorf("%v page once the set-up clock runs: deadline %d (basis %s), want %d (basis %s)", v, on.Deadline, on.Basis, started.Deadline.UnixMilli(), st.Basis)
		}
		if _, onKey := on.Sent(later.Add(time.Minute)); onKey == laterKey {
			t.Errorf("%v page: the set-up clock's start is no news to a stream", v)
		}
	}
}
