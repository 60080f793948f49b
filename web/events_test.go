package web

import (
	"encoding/json"
	"math/rand/v2"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/gametest"
	"github.com/strategobot/strategobot/storage"
)

// TestEventsOnlyWhatTheViewerLearns: an open page receives a change only
// when its state (the version and the time aside) changes. The other side's
// draft saves send it nothing, so their timing is no side channel; the
// clocks' start, which keeps the version, does reach it, with the deadline,
// and a state from before it that comes late does not. The set-up clock
// waits for Blue's invite at first: the pages show the deadline the invites
// show, the earliest the set-ups can be due.
func TestEventsOnlyWhatTheViewerLearns(t *testing.T) {
	rules := game.DefaultRules(game.VariantBarrage)
	r := rand.New(rand.NewPCG(3, 4))
	setupDeadline, turnDeadline := time.Unix(1_800_000_000, 0), time.Unix(1_800_000_600, 0)
	m := &storage.Match{ID: 9, Version: 1, Rules: rules, Phase: storage.PhaseSetup, Deadline: setupDeadline, MoveTime: time.Hour,
		ClockPending: true, InvitePending: [2]bool{false, true},
		Players: [2]storage.Player{{UserID: "1", Name: "Ann"}, {UserID: "2", Name: "Bob"}}}
	w := newWorld(t, m)
	var pages [3]*page
	for v := range pages {
		pages[v] = w.open(t, game.Viewer(v))
		// The state when it opened.
		_, data, _ := strings.Cut(string(pages[v].next(t)), "data: ")
		var st State
		if err := json.Unmarshal([]byte(data), &st); err != nil {
			t.Fatal(err)
		}
		if want := m.DeadlineToShow(w.srv.opts.Now()); st.Deadline != want.UnixMilli() {
			t.Errorf("the %v page while Blue's invite is on its way: deadline %d, want %d (what the invites show)", game.Viewer(v), st.Deadline, want.UnixMilli())
		}
	}
	red, blue := gametest.Setup(rules, r), gametest.Setup(rules, r)
	g, err := game.NewGame(rules, red, blue)
	if err != nil {
		t.Fatal(err)
	}
	mv := g.LegalMoves()[0]
	played := g.Clone()
	if _, err := played.Apply(mv); err != nil {
		t.Fatal(err)
	}
	all := []game.Viewer{game.RedViewer, game.BlueViewer, game.PublicViewer}
	steps := []struct {
		name   string
		change func(m *storage.Match) *game.Game
		reach  []game.Viewer
		check  func(t *testing.T, st *State)
	}{
		{"Red saves a draft", func(m *storage.Match) *game.Game {
			m.Version++
			m.Setups[game.Red] = storage.SideSetup{Status: storage.SetupDraft, Setup: gametest.Setup(rules, r)}
			return nil
		}, []game.Viewer{game.RedViewer}, nil},
		{"Red saves another draft", func(m *storage.Match) *game.Game {
			m.Version++
			m.Setups[game.Red] = storage.SideSetup{Status: storage.SetupDraft, Setup: red}
			return nil
		}, []game.Viewer{game.RedViewer}, nil},
		{"Red confirms", func(m *storage.Match) *game.Game {
			m.Version++
			m.Setups[game.Red].Status = storage.SetupConfirmed
			return nil
		}, all, nil},
		{"Blue's invite arrives", func(m *storage.Match) *game.Game {
			m.ClockPending, m.InvitePending = false, [2]bool{}
			return nil
		}, all, func(t *testing.T, st *State) {
			if st.Deadline != setupDeadline.UnixMilli() {
				t.Errorf("the set-up clock started: deadline %d, want %d", st.Deadline, setupDeadline.UnixMilli())
			}
		}},
		{"the state before the set-up clock started, late", func(m *storage.Match) *game.Game {
			m.ClockPending, m.InvitePending = true, [2]bool{false, true}
			return nil
		}, nil, nil},
		{"the set-up clock runs", func(m *storage.Match) *game.Game {
			m.ClockPending, m.InvitePending = false, [2]bool{}
			return nil
		}, nil, nil},
		{"Blue confirms", func(m *storage.Match) *game.Game {
			m.Version++
			m.Phase, m.Deadline, m.ClockPending = storage.PhasePlaying, turnDeadline, true
			m.Setups[game.Blue] = storage.SideSetup{Status: storage.SetupConfirmed, Setup: blue}
			return g
		}, all, func(t *testing.T, st *State) {
			if st.Deadline != 0 {
				t.Errorf("a deadline before Red's board arrived: %d", st.Deadline)
			}
		}},
		{"Red's board arrives", func(m *storage.Match) *game.Game {
			m.ClockPending = false
			return g
		}, all, func(t *testing.T, st *State) {
			if st.Deadline != turnDeadline.UnixMilli() || st.Now == 0 {
				t.Errorf("deadline %d, now %d: want %d and the server's time", st.Deadline, st.Now, turnDeadline.UnixMilli())
			}
		}},
		{"the state before the clock started, late", func(m *storage.Match) *game.Game {
			m.ClockPending = true
			return g
		}, nil, nil},
		{"Red moves", func(m *storage.Match) *game.Game {
			m.Version++
			m.ClockPending = true
			m.Log = append(m.Log, storage.Action{Kind: storage.ActMove, Side: game.Red, Move: mv})
			return played
		}, all, nil},
	}
	for _, step := range steps {
		m = m.Clone()
		g := step.change(m)
		w.change(m, g)
		for _, v := range step.reach {
			// A page the step does not reach reads, at its next step, that
			// step's state: it received nothing in between.
			_, data, _ := strings.Cut(string(pages[v].next(t)), "data: ")
			now := w.srv.opts.Now()
			want, _ := BuildState(m, g, v, now).Sent(now)
			if data = strings.TrimSuffix(data, "\n"); data != string(want) {
				t.Fatalf("%s: the %v page got\n%s\nwant\n%s\n(it received a change that told it nothing)", step.name, v, data, want)
			}
			var st State
			if err := json.Unmarshal([]byte(data), &st); err != nil {
				t.Fatal(err)
			}
			if step.check != nil {
				step.check(t, &st)
			}
		}
	}
}

// TestDraftsUnheardWhileAVacationHoldsTheSetupClock: while the set-up
// invites are on their way and a vacation holds the set-up clock, the
// deadline the pages show is the vacation's end and the set-up time after
// it, and then, once the vacation is over, the set-up time from now. Every
// change of the match, Blue's drafts included, builds the pages' states
// anew as time passes; Red's and the public's pages must receive nothing
// from Blue's drafts, however many, at whatever time (before the
// vacation's end, across it and after it): run with no draft and with a
// draft at every step, they receive the same events.
func TestDraftsUnheardWhileAVacationHoldsTheSetupClock(t *testing.T) {
	rules := game.DefaultRules(game.VariantBarrage)
	created := stateNow
	vacation := storage.Action{Kind: storage.ActVacation, Side: game.Red, At: created, Days: 1}
	steps := []time.Duration{time.Minute, time.Hour, 23 * time.Hour, 24*time.Hour + time.Minute, 25 * time.Hour}
	var seen [2][2][]string // run, then Red's page's events and the public page's
	runs := []string{"without drafts", "with a draft of Blue's at every step"}
	for run, drafts := range []bool{false, true} {
		var clock atomic.Int64
		clock.Store(created.UnixNano())
		m := &storage.Match{ID: 9, Version: 2, Rules: rules, Phase: storage.PhaseSetup, MoveTime: time.Hour, Created: created,
			ClockPending: true, InvitePending: [2]bool{false, true}, Log: []storage.Action{vacation},
			Players: [2]storage.Player{{UserID: "1", Name: "Ann"}, {UserID: "2", Name: "Bob"}}}
		w := &world{m: m}
		w.srv = New(Options{Auth: viewerAuth{}, Matches: w, Rate: 1e9, Now: func() time.Time { return time.Unix(0, clock.Load()) }})
		w.ts = httptest.NewServer(w.srv)
		t.Cleanup(func() {
			w.ts.CloseClientConnections()
			w.ts.Close()
		})
		viewers := []game.Viewer{game.RedViewer, game.PublicViewer}
		pages := make([]*page, len(viewers))
		for i, v := range viewers {
			pages[i] = w.open(t, v)
			seen[run][i] = append(seen[run][i], string(pages[i].next(t)))
		}
		r := rand.New(rand.NewPCG(5, 6))
		for _, after := range steps {
			clock.Store(created.Add(after).UnixNano())
			m = m.Clone()
			m.Version++
			if drafts {
				m.Setups[game.Blue] = storage.SideSetup{Status: storage.SetupDraft, Setup: gametest.Setup(rules, r)}
			} // else a change Red cannot see either, such as a reminder to Blue
			w.change(m, nil)
		}
		// Then Red confirms, which both pages learn: the next event each
		// reads is this one if the steps before sent them nothing.
		m = m.Clone()
		m.Version++
		m.Setups[game.Red] = storage.SideSetup{Status: storage.SetupConfirmed, Setup: gametest.Setup(rules, rand.New(rand.NewPCG(7, 8)))}
		w.change(m, nil)
		for i, v := range viewers {
			ev := string(pages[i].next(t))
			seen[run][i] = append(seen[run][i], ev)
			if !strings.Contains(ev, `"ready":[true,false]`) {
				t.Errorf("the %v page, %s, heard a change before Red's confirmation:\n%s", v, runs[run], ev)
			}
		}
	}
	for i, who := range []string{"Red's page", "the public page"} {
		if !slices.Equal(seen[0][i], seen[1][i]) {
			t.Errorf("%s heard Blue's drafts:\n%q\n%q", who, seen[0][i], seen[1][i])
		}
	}
}

// TestStreamBehindLearnsNoHiddenChangeTime: a page's stream that falls
// behind (its reader slow, or not reading at all) loses its oldest
// updates. When the one it lost is the change it could see (Red's own
// draft), and those it keeps came after it from changes it cannot see (Blue's
// drafts), it must still send what it lost, as it was when that change came:
// not a state sent at the time of one of Blue's drafts, whose time ("now",
// and the deadline shown while the invites are on their way) would tell Red
// when Blue saved a draft.
func TestStreamBehindLearnsNoHiddenChangeTime(t *testing.T) {
	rules := game.DefaultRules(game.VariantBarrage)
	r := rand.New(rand.NewPCG(5, 6))
	for _, pending := range []bool{false, true} {
		m := &storage.Match{ID: 9, Version: 1, Rules: rules, Phase: storage.PhaseSetup, Deadline: time.Unix(1_800_000_000, 0), MoveTime: time.Hour,
			Players: [2]storage.Player{{UserID: "1", Name: "Ann"}, {UserID: "2", Name: "Bob"}}}
		if pending {
			m.ClockPending, m.InvitePending = true, [2]bool{false, true}
		}
		var now atomic.Int64
		now.Store(stateNow.UnixMilli())
		clock := func() time.Time { return time.UnixMilli(now.Load()) }
		srv := New(Options{Auth: viewerAuth{}, Matches: &world{m: m}, Now: clock})
		sub := srv.hub.subscribe(m.ID) // a page's stream, not reading
		// Red saves a draft: news to Red alone.
		now.Add(1000)
		m = m.Clone()
		m.Version++
		m.Setups[game.Red] = storage.SideSetup{Status: storage.SetupDraft, Setup: gametest.Setup(rules, r)}
		redSaw, _ := BuildState(m, nil, game.RedViewer, clock()).Sent(clock())
		srv.MatchChanged(m, nil)
		// Blue saves drafts, more than the stream keeps, a minute apart.
		for range cap(sub) + 1 {
			now.Add(int64(time.Minute / time.Millisecond))
			m = m.Clone()
			m.Version++
			m.Setups[game.Blue] = storage.SideSetup{Status: storage.SetupDraft, Setup: gametest.Setup(rules, r)}
			srv.MatchChanged(m, nil)
		}
		for range cap(sub) {
			u := <-sub
			if got := u.states[game.RedViewer]; string(got) != string(redSaw) {
				t.Fatalf("pending %v: behind, Red's stream would send\n%s\nfor its own draft, not what it was when Red saved it:\n%s", pending, got, redSaw)
			}
		}
		srv.hub.unsubscribe(m.ID, sub)
	}
}
