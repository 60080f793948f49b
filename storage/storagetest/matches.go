package storagetest

import (
	"context"
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

func testCreateAndLoad(t *testing.T, s storage.Store) {
	ctx := context.Background()
	in := NewMatch(game.VariantClassic)
	in.ThreadID = "t1"
	in.Casual, in.Computer = true, "hard" // a practice match
	m := must(s.CreateMatch(ctx, in)).in(t)
	if m.ID == 0 || m.Version != 1 || m.Phase != storage.PhaseSetup {
		t.Fatalf("created %s, want an id, version 1, set-up", describe(m))
	}
	if want := T0.Add(in.MoveTime); !m.Deadline.Equal(want) {
		t.Errorf("set-up deadline %v, want %v", m.Deadline, want)
	}
	got := must(s.Match(ctx, m.ID)).in(t)
	if !reflect.DeepEqual(got, m) {
		t.Errorf("loaded\n%+v\nwant\n%+v", got, m)
	}
	m2 := NewMatch(game.VariantBarrage)
	m2.Tournament = 7 // made for a tournament's board
	m2 = must(s.CreateMatch(ctx, m2)).in(t)
	if m2.ID == m.ID {
		t.Errorf("two matches got id %d", m.ID)
	}
	if got := must(s.Match(ctx, m2.ID)).in(t); got.Tournament != 7 {
		t.Errorf("a tournament's match loaded as tournament %d's, want 7's", got.Tournament)
	}
	_, err := s.Match(ctx, 999999)
	wantErr(t, "Match(unknown)", err, storage.ErrNotFound)
	_, err = s.MatchVersion(ctx, 999999)
	wantErr(t, "MatchVersion(unknown)", err, storage.ErrNotFound)
	if v := must(s.MatchVersion(ctx, m.ID)).in(t); v != m.Version {
		t.Errorf("MatchVersion of a new match: %d, want %d", v, m.Version)
	}
	changed := must(s.UpdateMatch(ctx, m.ID, m.Version, func(m *storage.Match) error { m.ThreadID = "t2"; return nil })).in(t)
	if v := must(s.MatchVersion(ctx, m.ID)).in(t); v != changed.Version || v == m.Version {
		t.Errorf("MatchVersion after a change: %d, want %d", v, changed.Version)
	}
	// A Custom army survives the round trip.
	c := NewMatch(game.VariantCustom)
	c.Rules.Army = must(game.ParseArmy("10 9 3 2 2 S B F", game.NumberingModern)).in(t)
	c = must(s.CreateMatch(ctx, c)).in(t)
	if got := must(s.Match(ctx, c.ID)).in(t); got.Rules != c.Rules {
		t.Errorf("custom rules %+v, want %+v", got.Rules, c.Rules)
	}
}

func testCreateRefusesBadMatches(t *testing.T, s storage.Store) {
	tests := []struct {
		name   string
		change func(m *storage.Match)
	}{
		{"no second player", func(m *storage.Match) { m.Players[game.Blue] = storage.Player{} }},
		{"same player twice", func(m *storage.Match) { m.Players[game.Blue] = m.Players[game.Red] }},
		{"no channel", func(m *storage.Match) { m.ChannelID = "" }},
		{"move time too short", func(m *storage.Match) { m.MoveTime = time.Minute }},
		{"move time too long", func(m *storage.Match) { m.MoveTime = 8 * 24 * time.Hour }},
		{"bad rules", func(m *storage.Match) { m.Rules.TwoSquares = 4 }},
		{"no creation time", func(m *storage.Match) { m.Created = time.Time{} }},
		{"result without moves", func(m *storage.Match) {
			m.Phase = storage.PhaseFinished
			m.Result = game.Result{Outcome: game.RedWon, Method: game.FlagCaptured}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := NewMatch(game.VariantClassic)
			tc.change(m)
			if _, err := s.CreateMatch(context.Background(), m); err == nil {
				t.Fatal("CreateMatch accepted it")
			}
		})
	}
}

func testSetup(t *testing.T, s storage.Store) {
	ctx := context.Background()
	m := must(s.CreateMatch(ctx, NewMatch(game.VariantClassic))).in(t)
	red := game.RandomSetup(m.Rules, 1)
	blue := game.RandomSetup(m.Rules, 2)

	_, _, err := s.ApplyMove(ctx, m.ID, 0, game.Red, game.Move{From: 30, To: 40}, T0)
	wantErr(t, "move in set-up", err, storage.ErrNotStarted)

	// A draft may be incomplete and is kept as it is.
	var draft game.Setup
	draft[0][0] = game.Marshal
	m = must(s.SetSetup(ctx, m.ID, m.Version, game.Red, draft, storage.SetupDraft, T0.Add(time.Minute))).in(t)
	if m.Setups[game.Red].Status != storage.SetupDraft || m.Setups[game.Red].Setup != draft {
		t.Fatalf("draft not kept: %+v", m.Setups[game.Red].Status)
	}
	// An invalid set-up is refused and changes nothing.
	before := m.Version
	_, err = s.SetSetup(ctx, m.ID, m.Version, game.Red, draft, storage.SetupConfirmed, T0)
	var se *game.SetupError
	if !errors.As(err, &se) {
		t.Fatalf("confirming an incomplete set-up: %v, want a *game.SetupError", err)
	}
	if m = must(s.Match(ctx, m.ID)).in(t); m.Version != before {
		t.Fatalf("a refused set-up changed the version to %d", m.Version)
	}
	m = must(s.SetSetup(ctx, m.ID, m.Version, game.Red, red, storage.SetupConfirmed, T0.Add(2*time.Minute))).in(t)
	if m.Phase != storage.PhaseSetup {
		t.Fatalf("phase %s after one set-up", m.Phase)
	}
	_, err = s.SetSetup(ctx, m.ID, m.Version, game.Red, blue, storage.SetupConfirmed, T0)
	wantErr(t, "second confirmation", err, storage.ErrSetupConfirmed)
	_, err = s.SetSetup(ctx, m.ID, m.Version-1, game.Blue, blue, storage.SetupConfirmed, T0)
	wantErr(t, "stale set-up", err, storage.ErrStale)

	start := T0.Add(3 * time.Minute)
	m = must(s.SetSetup(ctx, m.ID, m.Version, game.Blue, blue, storage.SetupConfirmed, start)).in(t)
	if m.Phase != storage.PhasePlaying || !m.Started.Equal(start) {
		t.Fatalf("after both set-ups: phase %s started %v", m.Phase, m.Started)
	}
	if want := start.Add(m.MoveTime); !m.Deadline.Equal(want) {
		t.Errorf("deadline %v, want %v", m.Deadline, want)
	}
	g := CheckReplay(t, m)
	if g.Setup(game.Red) != red || g.Setup(game.Blue) != blue || g.ToMove() != game.Red {
		t.Errorf("the game does not start from the confirmed set-ups with Red to move")
	}
	_, err = s.SetSetup(ctx, m.ID, m.Version, game.Blue, blue, storage.SetupDraft, T0)
	wantErr(t, "set-up in play", err, storage.ErrSetupConfirmed)
}

func testMoves(t *testing.T, s storage.Store) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(1, 2))
	m := Started(t, s, NewMatch(game.VariantClassic), 3)
	side, mv := RandomMove(t, m, r)
	at := T0.Add(90 * time.Second)

	// Refusals change nothing.
	refusals := []struct {
		name    string
		version uint64
		side    game.Side
		move    game.Move
		want    error
	}{
		{"stale version", m.Version - 1, side, mv, storage.ErrStale},
		{"wrong side", m.Version, side.Opponent(), mv, storage.ErrNotYourTurn},
		{"illegal move", m.Version, side, game.Move{From: mv.From, To: mv.From}, game.ErrIllegalMove},
	}
	for _, tc := range refusals {
		_, _, err := s.ApplyMove(ctx, m.ID, tc.version, tc.side, tc.move, at)
		wantErr(t, tc.name, err, tc.want)
		if got := must(s.Match(ctx, m.ID)).in(t); got.Version != m.Version || len(got.Log) != 0 {
			t.Fatalf("%s changed the match: %s", tc.name, describe(got))
		}
	}

	m2, played, err := s.ApplyMove(ctx, m.ID, m.Version, side, mv, at)
	if err != nil {
		t.Fatalf("ApplyMove: %v", err)
	}
	rec, _ := played.LastMove()
	if m2.Version != m.Version+1 || len(m2.Log) != 1 || rec.Move != mv || rec.Side != side {
		t.Fatalf("after a move: %s, record %+v", describe(m2), rec)
	}
	// The game returned is the match's, as a replay of its log gives it.
	replayed := CheckReplay(t, m2)
	for _, v := range []game.Viewer{game.RedViewer, game.BlueViewer, game.PublicViewer} {
		if !reflect.DeepEqual(played.View(v), replayed.View(v)) {
			t.Fatalf("the game ApplyMove returned differs from the replay of its match (%v view)", v)
		}
	}
	if a := m2.Log[0]; a.Kind != storage.ActMove || a.Move != mv || !a.At.Equal(at) || a.Side != side {
		t.Fatalf("logged %+v", a)
	}
	if want := at.Add(m.MoveTime); !m2.Deadline.Equal(want) {
		t.Errorf("deadline %v, want %v", m2.Deadline, want)
	}
	// The same move again, typed (no version): refused because the turn passed.
	_, _, err = s.ApplyMove(ctx, m.ID, 0, side, mv, at)
	wantErr(t, "duplicate move", err, storage.ErrNotYourTurn)
	// The same move again, clicked (old version): stale.
	_, _, err = s.ApplyMove(ctx, m.ID, m.Version, side, mv, at)
	wantErr(t, "duplicate click", err, storage.ErrStale)

	m2 = Play(t, s, m2, 40, r)
	got := must(s.Match(ctx, m.ID)).in(t)
	if !reflect.DeepEqual(got, m2) {
		t.Fatalf("reloaded match differs from the returned one")
	}
	g := CheckReplay(t, got)
	if g.Ply() != got.Moves() {
		t.Errorf("replay has %d moves, log %d", g.Ply(), got.Moves())
	}
}

func testPlayToTheEnd(t *testing.T, s storage.Store) {
	ctx := context.Background()
	for _, v := range []game.Variant{game.VariantClassic, game.VariantBarrage, game.VariantDuel, game.VariantInfiltrator} {
		t.Run(v.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(v), 9))
			m := Started(t, s, NewMatch(v), uint64(v)+10)
			m = Play(t, s, m, 400, r)
			if m.Phase == storage.PhasePlaying {
				m = must(s.Act(ctx, m.ID, m.Version, storage.Action{Kind: storage.ActResign, Side: game.Blue, At: lastTime(m)})).in(t)
			}
			if m.Phase != storage.PhaseFinished || !m.Result.Over() || !m.Ended.Equal(lastTime(m)) {
				t.Fatalf("after the end: %s result %v ended %v", describe(m), m.Result, m.Ended)
			}
			if !m.Deadline.IsZero() || !m.RemindAt.IsZero() {
				t.Errorf("a finished match keeps a deadline")
			}
			if !m.RatingApplied {
				t.Errorf("a finished rated match is not counted")
			}
			CheckReplay(t, must(s.Match(ctx, m.ID)).in(t))
			_, _, err := s.ApplyMove(ctx, m.ID, 0, game.Red, game.Move{From: 30, To: 40}, T0)
			wantErr(t, "move after the end", err, storage.ErrGameOver)
			_, err = s.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActResign, Side: game.Red, At: T0})
			wantErr(t, "resign after the end", err, storage.ErrGameOver)
		})
	}
}

func testActions(t *testing.T, s storage.Store) {
	ctx := context.Background()
	act := func(k storage.ActionKind, side game.Side) storage.Action {
		return storage.Action{Kind: k, Side: side, At: T0.Add(time.Hour)}
	}
	tests := []struct {
		name    string
		actions []storage.Action
		wantErr error // of the last action
		result  game.Result
	}{
		{"draw agreed", []storage.Action{act(storage.ActOfferDraw, game.Red), act(storage.ActAcceptDraw, game.Blue)}, nil, game.Result{Outcome: game.Drawn, Method: game.DrawAgreed}},
		{"draw declined", []storage.Action{act(storage.ActOfferDraw, game.Blue), act(storage.ActDeclineDraw, game.Red)}, nil, game.Result{}},
		{"accept own offer", []storage.Action{act(storage.ActOfferDraw, game.Red), act(storage.ActAcceptDraw, game.Red)}, game.ErrNoDrawOffer, game.Result{}},
		{"accept no offer", []storage.Action{act(storage.ActAcceptDraw, game.Red)}, game.ErrNoDrawOffer, game.Result{}},
		{"resign", []storage.Action{act(storage.ActResign, game.Red)}, nil, game.Result{Outcome: game.BlueWon, Method: game.Resignation}},
		{"time-out too early", []storage.Action{act(storage.ActTimeOut, game.Red)}, storage.ErrNotDue, game.Result{}},
		{"time-out", []storage.Action{{Kind: storage.ActTimeOut, At: T0.Add(25 * time.Hour)}}, nil, game.Result{Outcome: game.BlueWon, Method: game.TimeForfeit}},
		{"awarded by a moderator", []storage.Action{act(storage.ActAward, game.Blue)}, nil, game.Result{Outcome: game.BlueWon, Method: game.Awarded}},
		{"awarded after a draw offer", []storage.Action{act(storage.ActOfferDraw, game.Red), act(storage.ActAward, game.Red)}, nil, game.Result{Outcome: game.RedWon, Method: game.Awarded}},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := Started(t, s, NewMatch(game.VariantClassic), uint64(i))
			var err error
			for j, a := range tc.actions {
				var next *storage.Match
				next, err = s.Act(ctx, m.ID, m.Version, a)
				if j < len(tc.actions)-1 && err != nil {
					t.Fatalf("action %d: %v", j, err)
				}
				if err == nil {
					m = next
				}
			}
			if tc.wantErr != nil {
				wantErr(t, "last action", err, tc.wantErr)
			} else if err != nil {
				t.Fatalf("last action: %v", err)
			}
			m = must(s.Match(ctx, m.ID)).in(t)
			if m.Result != tc.result {
				t.Errorf("result %v, want %v", m.Result, tc.result)
			}
			CheckReplay(t, m)
		})
	}
	// A move lapses the mover's own standing offer only after the opponent had a turn.
	m := Started(t, s, NewMatch(game.VariantClassic), 77)
	m = must(s.Act(ctx, m.ID, m.Version, act(storage.ActOfferDraw, game.Red))).in(t)
	m = Play(t, s, m, 3, rand.New(rand.NewPCG(3, 3)))
	_, err := s.Act(ctx, m.ID, m.Version, act(storage.ActAcceptDraw, game.Blue))
	wantErr(t, "accepting a lapsed offer", err, game.ErrNoDrawOffer)
	if _, err := s.Act(ctx, m.ID, m.Version, storage.Action{Kind: storage.ActMove}); err == nil {
		t.Errorf("Act accepted a move")
	}
}

func testAbandon(t *testing.T, s storage.Store) {
	ctx := context.Background()
	m := must(s.CreateMatch(ctx, NewMatch(game.VariantClassic))).in(t)
	end := T0.Add(25 * time.Hour)
	m = must(s.Abandon(ctx, m.ID, m.Version, end, storage.CallOffBotRemoved)).in(t)
	if m.Phase != storage.PhaseAbandoned || m.Result.Over() || !m.Ended.Equal(end) || m.RatingApplied {
		t.Fatalf("abandoned: %s result %v", describe(m), m.Result)
	}
	if stored := must(s.Match(ctx, m.ID)).in(t); stored.CalledOff != storage.CallOffBotRemoved {
		t.Errorf("stored reason for calling it off: %v, want %v", stored.CalledOff, storage.CallOffBotRemoved)
	}
	_, err := s.Abandon(ctx, m.ID, 0, end, storage.CallOffLateSetup)
	wantErr(t, "abandon twice", err, storage.ErrGameOver)
	_, err = s.SetSetup(ctx, m.ID, 0, game.Red, game.RandomSetup(m.Rules, 1), storage.SetupConfirmed, end)
	wantErr(t, "set-up after abandon", err, storage.ErrGameOver)
	if d, ok, _ := s.NextDeadline(ctx); ok {
		t.Errorf("an abandoned match left a timer: %+v", d)
	}
	st := must(s.Standing(ctx, "g1", game.VariantClassic, "1001")).in(t)
	if st.Played() != 0 {
		t.Errorf("an abandoned match was counted: %+v", st)
	}
}

func testUpdateMatch(t *testing.T, s storage.Store) {
	ctx := context.Background()
	m := Started(t, s, NewMatch(game.VariantClassic), 5)
	m = must(s.UpdateMatch(ctx, m.ID, m.Version, func(m *storage.Match) error {
		m.ThreadID = "thread9"
		m.ID, m.Version = 12345, 999 // ignored
		return nil
	})).in(t)
	got := must(s.Match(ctx, m.ID)).in(t)
	if got.ThreadID != "thread9" || got.Version != m.Version {
		t.Fatalf("update not kept: %+v", got)
	}
	if l := must(s.ChannelMatches(ctx, "thread9", true, 0)).in(t); len(l) != 1 || l[0].ID != m.ID {
		t.Errorf("the thread's index does not list the match: %d", len(l))
	}
	boom := errors.New("boom")
	_, err := s.UpdateMatch(ctx, m.ID, m.Version, func(m *storage.Match) error { m.ThreadID = "x"; return boom })
	wantErr(t, "fn error", err, boom)
	_, err = s.UpdateMatch(ctx, m.ID, m.Version-1, func(m *storage.Match) error { return nil })
	wantErr(t, "stale update", err, storage.ErrStale)
	_, err = s.UpdateMatch(ctx, m.ID, 0, func(m *storage.Match) error {
		m.Result = game.Result{Outcome: game.RedWon, Method: game.FlagCaptured}
		m.Phase = storage.PhaseFinished
		return nil
	})
	wantErr(t, "a result the replay does not give", err, storage.ErrInvalid)
	_, err = s.UpdateMatch(ctx, m.ID, 0, func(m *storage.Match) error {
		m.Log = append(m.Log, storage.Action{Kind: storage.ActMove, Side: game.Red, Move: game.Move{From: 0, To: 99}, At: T0})
		return nil
	})
	if err == nil {
		t.Errorf("UpdateMatch stored a log that does not replay")
	}
	if got := must(s.Match(ctx, m.ID)).in(t); got.Version != m.Version || got.ThreadID != "thread9" {
		t.Errorf("refused updates changed the match")
	}
	_, err = s.UpdateMatch(ctx, 424242, 0, func(*storage.Match) error { return nil })
	wantErr(t, "update unknown", err, storage.ErrNotFound)
}

func testLists(t *testing.T, s storage.Store) {
	ctx := context.Background()
	var ids []storage.MatchID
	for i := range 5 {
		nm := NewMatch(game.VariantBarrage)
		if i%2 == 1 {
			nm.ChannelID = "c2"
			nm.Players[game.Blue] = storage.Player{UserID: "1003", Name: "Cy"}
		}
		ids = append(ids, must(s.CreateMatch(ctx, nm)).in(t).ID)
	}
	must(s.Act(ctx, Started(t, s, NewMatch(game.VariantDuel), 1).ID, 0, storage.Action{Kind: storage.ActResign, Side: game.Red, At: T0})).in(t)
	tests := []struct {
		name string
		list func() ([]*storage.Match, error)
		want []storage.MatchID
	}{
		{"Ann active", func() ([]*storage.Match, error) { return s.PlayerMatches(ctx, "1001", true, 0) }, []storage.MatchID{ids[4], ids[3], ids[2], ids[1], ids[0]}},
		{"Ann active, limit 2", func() ([]*storage.Match, error) { return s.PlayerMatches(ctx, "1001", true, 2) }, []storage.MatchID{ids[4], ids[3]}},
		{"Bob active", func() ([]*storage.Match, error) { return s.PlayerMatches(ctx, "1002", true, 0) }, []storage.MatchID{ids[4], ids[2], ids[0]}},
		{"Cy active", func() ([]*storage.Match, error) { return s.PlayerMatches(ctx, "1003", true, 0) }, []storage.MatchID{ids[3], ids[1]}},
		{"Ann finished", func() ([]*storage.Match, error) { return s.PlayerMatches(ctx, "1001", false, 0) }, []storage.MatchID{ids[4] + 1}},
		{"Cy finished", func() ([]*storage.Match, error) { return s.PlayerMatches(ctx, "1003", false, 0) }, nil},
		{"nobody", func() ([]*storage.Match, error) { return s.PlayerMatches(ctx, "100", true, 0) }, nil},
		{"c2 active", func() ([]*storage.Match, error) { return s.ChannelMatches(ctx, "c2", true, 0) }, []storage.MatchID{ids[3], ids[1]}},
		{"c1 finished", func() ([]*storage.Match, error) { return s.ChannelMatches(ctx, "c1", false, 0) }, []storage.MatchID{ids[4] + 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			list := must(tc.list()).in(t)
			var got []storage.MatchID
			for _, m := range list {
				got = append(got, m.ID)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func testDeadlines(t *testing.T, s storage.Store) {
	ctx := context.Background()
	if _, ok := must2(t)(s.NextDeadline(ctx)); ok {
		t.Fatal("an empty store has a timer")
	}
	// The set-up clocks start as the invites arrive, here when the matches are made.
	a := must(s.CreateMatch(ctx, NewMatch(game.VariantClassic))).in(t) // set-up: deadline T0+24h, reminder at T0+18h
	Deliver(t, s, T0)
	bm := NewMatch(game.VariantClassic)
	bm.MoveTime = time.Hour
	bm.Created = T0.Add(time.Hour)
	b := must(s.CreateMatch(ctx, bm)).in(t) // deadline T0+2h, reminder T0+1h45
	Deliver(t, s, bm.Created)
	b = must(s.Match(ctx, b.ID)).in(t)
	d, ok := must2(t)(s.NextDeadline(ctx))
	if !ok || d.Kind != storage.DeadlineReminder || storage.MatchID(d.ID) != b.ID || !d.At.Equal(T0.Add(105*time.Minute)) {
		t.Fatalf("next timer %+v, want b's reminder at T0+1h45", d)
	}
	if due := must(s.DueDeadlines(ctx, T0.Add(100*time.Minute), 0)).in(t); len(due) != 0 {
		t.Fatalf("due too early: %+v", due)
	}
	_, err := s.MarkReminded(ctx, b.ID, 0, T0.Add(100*time.Minute))
	wantErr(t, "reminder before its time", err, storage.ErrNotDue)
	b = must(s.MarkReminded(ctx, b.ID, b.Version, T0.Add(106*time.Minute))).in(t)
	if b.RemindersSent != 1 || !b.RemindAt.IsZero() {
		t.Fatalf("after the reminder: sent %d, next %v", b.RemindersSent, b.RemindAt)
	}
	due := must(s.DueDeadlines(ctx, T0.Add(2*time.Hour), 0)).in(t)
	if len(due) != 1 || due[0].Kind != storage.DeadlineMatch || storage.MatchID(due[0].ID) != b.ID {
		t.Fatalf("due at T0+2h: %+v, want b's deadline", due)
	}
	if b = must(s.Abandon(ctx, b.ID, b.Version, T0.Add(2*time.Hour), storage.CallOffLateSetup)).in(t); b.Phase != storage.PhaseAbandoned {
		t.Fatalf("abandoned match in phase %v", b.Phase)
	}

	c := must(s.CreateChallenge(ctx, NewChallenge(T0, T0.Add(30*time.Minute)), storage.MemberLimits{})).in(t)
	due = must(s.DueDeadlines(ctx, T0.Add(48*time.Hour), 0)).in(t)
	want := []storage.Deadline{
		{At: T0.Add(30 * time.Minute), Kind: storage.DeadlineChallenge, ID: uint64(c.ID)},
		{At: T0.Add(18 * time.Hour), Kind: storage.DeadlineReminder, ID: uint64(a.ID)},
	}
	if !reflect.DeepEqual(due, want) {
		t.Fatalf("due: %+v\nwant %+v", due, want)
	}
	if due := must(s.DueDeadlines(ctx, T0.Add(48*time.Hour), 1)).in(t); len(due) != 1 {
		t.Errorf("limit 1 gave %d", len(due))
	}
	// In play, the timer follows the side to move; after the end there is none.
	must(s.DeleteChallenge(ctx, c.ID)).in(t)
	for side := game.Red; side <= game.Blue; side++ {
		a = must(s.SetSetup(ctx, a.ID, a.Version, side, game.RandomSetup(a.Rules, uint64(side)), storage.SetupConfirmed, T0.Add(time.Hour))).in(t)
	}
	Deliver(t, s, T0.Add(time.Hour))
	a = must(s.Match(ctx, a.ID)).in(t)
	if d, _ := must2(t)(s.NextDeadline(ctx)); d.Kind != storage.DeadlineReminder || !d.At.Equal(T0.Add(19*time.Hour)) {
		t.Fatalf("timer in play %+v, want a reminder at T0+19h", d)
	}
	a = Play(t, s, a, 1, rand.New(rand.NewPCG(1, 1)))
	if d, _ := must2(t)(s.NextDeadline(ctx)); !d.At.Equal(T0.Add(time.Hour + time.Minute + 18*time.Hour)) {
		t.Fatalf("timer after a move %+v", d)
	}
	must(s.Act(ctx, a.ID, 0, storage.Action{Kind: storage.ActTimeOut, At: a.Deadline})).in(t)
	if d, ok := must2(t)(s.NextDeadline(ctx)); ok {
		t.Fatalf("a finished match left a timer: %+v", d)
	}
}

func must2(t testing.TB) func(storage.Deadline, bool, error) (storage.Deadline, bool) {
	return func(d storage.Deadline, ok bool, err error) (storage.Deadline, bool) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return d, ok
	}
}

// noSetupIn fails if err's text shows either set-up of m.
func noSetupIn(t testing.TB, m *storage.Match, err error) {
	t.Helper()
	if err == nil {
		return
	}
	for side := range m.Setups {
		text := game.FormatSetup(m.Setups[side].Setup, game.NumberingModern)
		if first := strings.SplitN(text, "\n", 2)[0]; strings.Contains(err.Error(), first) {
			t.Errorf("error text shows a set-up: %v", err)
		}
	}
}

// testChannelBack: a match keeps when its channel was found out of reach,
// and whether it was deleted; ChannelBack brings the channel back once, owing
// the channel one board at the version it made (PublicBack is the one
// before), and refuses a channel within reach, a deleted one, and two
// callers at once.
func testChannelBack(t *testing.T, s storage.Store) {
	ctx := context.Background()
	m := Started(t, s, NewMatch(game.VariantClassic), 7)
	Deliver(t, s, T0.Add(time.Hour))
	_, err := s.ChannelBack(ctx, m.ID, T0.Add(time.Hour))
	wantErr(t, "a channel within reach", err, storage.ErrNotDue)
	lost := T0.Add(90*time.Minute + 500*time.Millisecond)
	m = must(s.UpdateMatch(ctx, m.ID, m.Version, func(x *storage.Match) error {
		x.PublicGone, x.PublicLost = true, lost
		return nil
	})).in(t)
	for _, got := range []*storage.Match{m, must(s.Match(ctx, m.ID)).in(t)} {
		if !got.PublicGone || !got.PublicLost.Equal(lost.Truncate(time.Second)) || got.PublicDeleted {
			t.Errorf("read back gone %v, lost %v, deleted %v", got.PublicGone, got.PublicLost, got.PublicDeleted)
		}
	}
	before := m.Version
	back := T0.Add(2 * time.Hour)
	results := make(chan error, 2)
	for range 2 {
		go func() {
			_, err := s.ChannelBack(ctx, m.ID, back)
			results <- err
		}()
	}
	won := 0
	for range 2 {
		switch err := <-results; {
		case err == nil:
			won++
		case !errors.Is(err, storage.ErrNotDue):
			t.Errorf("a second ChannelBack at once: %v, want ErrNotDue", err)
		}
	}
	if won != 1 {
		t.Fatalf("%d of two ChannelBacks at once changed the match, want 1", won)
	}
	got := must(s.Match(ctx, m.ID)).in(t)
	if got.PublicGone || !got.PublicLost.IsZero() || got.PublicBack != before || got.Version != before+1 {
		t.Errorf("after ChannelBack: gone %v, lost %v, back %d, version %d; want false, zero, %d, %d", got.PublicGone, got.PublicLost, got.PublicBack, got.Version, before, before+1)
	}
	due := must(s.DueNotices(ctx, back.Add(time.Hour), 0)).in(t)
	if len(due) != 1 || due[0].Event != storage.EventChannelBack || due[0].To != storage.AudiencePublic ||
		due[0].Log != len(got.Log) || due[0].Version != got.Version || !due[0].At.Equal(back) {
		t.Errorf("ChannelBack owes %+v, want the channel's board at log %d, version %d", due, len(got.Log), got.Version)
	}
	Deliver(t, s, back.Add(time.Hour))
	m = must(s.UpdateMatch(ctx, m.ID, 0, func(x *storage.Match) error {
		x.PublicGone, x.PublicLost, x.PublicDeleted = true, lost, true
		return nil
	})).in(t)
	_, err = s.ChannelBack(ctx, m.ID, back)
	wantErr(t, "a deleted channel", err, storage.ErrNotDue)
	if got := must(s.Match(ctx, m.ID)).in(t); !got.PublicDeleted || got.Version != m.Version {
		t.Errorf("a refused ChannelBack changed the match: deleted %v, version %d", got.PublicDeleted, got.Version)
	}
	_, err = s.ChannelBack(ctx, 424242, back)
	wantErr(t, "an unknown match", err, storage.ErrNotFound)
}
