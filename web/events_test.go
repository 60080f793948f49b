package web

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
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
