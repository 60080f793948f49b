package storagetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/tournament"
)

// NewTournament returns a round robin of server "g1", channel "c1", created
// by "1001", starting a day after T0, with no player yet.
func NewTournament(guild string) *storage.Tournament {
	return &storage.Tournament{
		GuildID: guild, ChannelID: "c1", Name: "Winter league", CreatorID: "1001", Created: T0,
		Rules: tournament.DefaultRules(tournament.RoundRobin, 0), Game: game.DefaultRules(game.VariantClassic),
		MoveTime: 24 * time.Hour, RoundTime: 7 * 24 * time.Hour,
		StartAt: T0.Add(24 * time.Hour), JoinBy: T0.Add(24 * time.Hour), MaxPlayers: 8,
	}
}

// joinAll appends a Joined event for each id.
func joinAll(ids ...string) func(t *storage.Tournament) error {
	return func(t *storage.Tournament) error {
		for _, id := range ids {
			t.Log = append(t.Log, tournament.Join(id, 1500))
			t.Names[id] = "Player " + id
		}
		return nil
	}
}

// pairNext appends the next round's Paired event, with the round's deadline.
func pairNext(at time.Time) func(t *storage.Tournament) error {
	return func(t *storage.Tournament) error {
		state, err := t.State()
		if err != nil {
			return err
		}
		e, err := state.NextRound()
		if err != nil {
			return err
		}
		t.Log = append(t.Log, e)
		t.RoundDeadline = at.Add(t.RoundTime)
		return nil
	}
}

// testTournaments: a tournament is created at version 1, loaded as stored,
// grows by appending at its version, and refuses a stale version, a
// rewritten log, a log that does not replay and bad terms.
func testTournaments(t *testing.T, s storage.Store) {
	ctx := context.Background()
	bad := NewTournament("g1")
	bad.MaxPlayers = 1
	if _, err := s.CreateTournament(ctx, bad, storage.TournamentLimits{}); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("a player limit of 1: %v, want ErrInvalid", err)
	}
	tt := must(s.CreateTournament(ctx, NewTournament("g1"), storage.TournamentLimits{})).in(t)
	if tt.ID == 0 || tt.Version != 1 {
		t.Fatalf("created: id %d version %d, want an id and version 1", tt.ID, tt.Version)
	}
	got := must(s.Tournament(ctx, tt.ID)).in(t)
	if got.Name != "Winter league" || !got.StartAt.Equal(T0.Add(24*time.Hour)) || got.Rules != tt.Rules || got.MoveTime != 24*time.Hour {
		t.Errorf("loaded %+v, want what was stored", got)
	}
	if _, err := s.Tournament(ctx, tt.ID+100); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("an unknown tournament: %v", err)
	}
	tt = must(s.UpdateTournament(ctx, tt.ID, 1, joinAll("a", "b"))).in(t)
	if tt.Version != 2 || len(tt.Log) != 2 || tt.Names["b"] != "Player b" {
		t.Fatalf("after two joins: version %d, log %v", tt.Version, tt.Log)
	}
	if _, err := s.UpdateTournament(ctx, tt.ID, 1, joinAll("c")); !errors.Is(err, storage.ErrStale) {
		t.Errorf("an append at an old version: %v, want ErrStale", err)
	}
	rewrite := func(t *storage.Tournament) error { t.Log = t.Log[:1]; return nil }
	if _, err := s.UpdateTournament(ctx, tt.ID, 0, rewrite); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("a shortened log: %v, want ErrInvalid", err)
	}
	if _, err := s.UpdateTournament(ctx, tt.ID, 0, joinAll("a")); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("a second join of one player: %v, want ErrInvalid", err)
	}
	if got := must(s.Tournament(ctx, tt.ID)).in(t); got.Version != 2 || len(got.Log) != 2 {
		t.Errorf("refused changes changed it: version %d, %d events", got.Version, len(got.Log))
	}
	refuse := errors.New("no")
	if _, err := s.UpdateTournament(ctx, tt.ID, 0, func(*storage.Tournament) error { return refuse }); !errors.Is(err, refuse) {
		t.Errorf("fn's error: %v", err)
	}
	// The organiser's latest note that the channel is out of reach is kept.
	told := T0.Add(90 * time.Minute)
	must(s.UpdateTournament(ctx, tt.ID, 0, func(x *storage.Tournament) error {
		x.NoReachNotice, x.NoReachAt = 42, told.Add(300*time.Millisecond)
		return nil
	})).in(t)
	if got := must(s.Tournament(ctx, tt.ID)).in(t); got.NoReachNotice != 42 || !got.NoReachAt.Equal(told) {
		t.Errorf("the organiser's note: notice %d at %v, want 42 at %v", got.NoReachNotice, got.NoReachAt, told)
	}
}

// testTournamentAppendRace: of several appends at one version at once,
// exactly one is stored; the others are told ErrStale.
func testTournamentAppendRace(t *testing.T, s storage.Store) {
	ctx := context.Background()
	tt := must(s.CreateTournament(ctx, NewTournament("g1"), storage.TournamentLimits{})).in(t)
	const racers = 8
	var wg sync.WaitGroup
	errs := make([]error, racers)
	for i := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = s.UpdateTournament(ctx, tt.ID, tt.Version, joinAll(fmt.Sprintf("p%d", i)))
		}()
	}
	wg.Wait()
	won := 0
	for i, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, storage.ErrStale):
			t.Errorf("racer %d: %v, want ErrStale", i, err)
		}
	}
	got := must(s.Tournament(ctx, tt.ID)).in(t)
	if won != 1 || len(got.Log) != 1 || got.Version != 2 {
		t.Errorf("%d appends won, log %v at version %d; want exactly one", won, got.Log, got.Version)
	}
}

// testTournamentLists: a server's running tournaments, then all of them,
// oldest first; another server's are not listed.
func testTournamentLists(t *testing.T, s storage.Store) {
	ctx := context.Background()
	a := must(s.CreateTournament(ctx, NewTournament("g1"), storage.TournamentLimits{})).in(t)
	b := must(s.CreateTournament(ctx, NewTournament("g1"), storage.TournamentLimits{})).in(t)
	must(s.CreateTournament(ctx, NewTournament("g2"), storage.TournamentLimits{})).in(t)
	must(s.UpdateTournament(ctx, a.ID, 0, func(t *storage.Tournament) error {
		t.Log = append(t.Log, tournament.Cancel())
		t.Done = true
		return nil
	})).in(t)
	ids := func(list []*storage.Tournament) []storage.TournamentID {
		var out []storage.TournamentID
		for _, x := range list {
			out = append(out, x.ID)
		}
		return out
	}
	if got := ids(must(s.ServerTournaments(ctx, "g1", false)).in(t)); fmt.Sprint(got) != fmt.Sprint([]storage.TournamentID{b.ID}) {
		t.Errorf("running tournaments of g1: %v, want [%d]", got, b.ID)
	}
	if got := ids(must(s.ServerTournaments(ctx, "g1", true)).in(t)); fmt.Sprint(got) != fmt.Sprint([]storage.TournamentID{a.ID, b.ID}) {
		t.Errorf("all tournaments of g1: %v, want [%d %d]", got, a.ID, b.ID)
	}
	if got := must(s.ServerTournaments(ctx, "g3", true)).in(t); len(got) != 0 {
		t.Errorf("a server without tournaments lists %d", len(got))
	}
}

// testTournamentGames: a board is linked to its match, and the match leads
// back to its board; a link stays.
func testTournamentGames(t *testing.T, s storage.Store) {
	ctx := context.Background()
	tt := must(s.CreateTournament(ctx, NewTournament("g1"), storage.TournamentLimits{})).in(t)
	tt = must(s.UpdateTournament(ctx, tt.ID, 0, joinAll("1001", "1002"))).in(t)
	tt = must(s.UpdateTournament(ctx, tt.ID, 0, pairNext(T0))).in(t)
	m := must(s.CreateMatch(ctx, NewMatch(game.VariantClassic))).in(t)
	if _, err := s.MatchTournament(ctx, m.ID); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("a match before it is linked: %v, want ErrNotFound", err)
	}
	link := func(round, board int) func(t *storage.Tournament) error {
		return func(t *storage.Tournament) error {
			t.Games = append(t.Games, storage.TournamentGame{Round: round, Board: board, Match: m.ID})
			return nil
		}
	}
	if _, err := s.UpdateTournament(ctx, tt.ID, 0, link(2, 1)); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("a link to a round not paired: %v, want ErrInvalid", err)
	}
	tt = must(s.UpdateTournament(ctx, tt.ID, tt.Version, link(1, 1))).in(t)
	g := must(s.MatchTournament(ctx, m.ID)).in(t)
	if g.Tournament != tt.ID || g.Round != 1 || g.Board != 1 || g.Match != m.ID {
		t.Errorf("the match's board: %+v", g)
	}
	if got, ok := must(s.Tournament(ctx, tt.ID)).in(t).GameOf(1, 1); !ok || got.Match != m.ID {
		t.Errorf("the board's match: %+v, %v", got, ok)
	}
	other := must(s.CreateMatch(ctx, NewMatch(game.VariantClassic))).in(t)
	twice := func(t *storage.Tournament) error {
		t.Games = append(t.Games, storage.TournamentGame{Round: 1, Board: 1, Match: other.ID})
		return nil
	}
	if _, err := s.UpdateTournament(ctx, tt.ID, 0, twice); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("a second match for one board: %v, want ErrInvalid", err)
	}
	unlink := func(t *storage.Tournament) error { t.Games = nil; return nil }
	if _, err := s.UpdateTournament(ctx, tt.ID, 0, unlink); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("unlinking a match: %v, want ErrInvalid", err)
	}
	// A match plays for one tournament: another's link to it is refused,
	// and leaves it its board. Before, PostgreSQL kept the first link and
	// bbolt the last, each storing the second tournament's record that
	// says its board plays that match.
	tt2 := must(s.CreateTournament(ctx, NewTournament("g1"), storage.TournamentLimits{})).in(t)
	tt2 = must(s.UpdateTournament(ctx, tt2.ID, 0, joinAll("1001", "1002"))).in(t)
	tt2 = must(s.UpdateTournament(ctx, tt2.ID, 0, pairNext(T0))).in(t)
	if _, err := s.UpdateTournament(ctx, tt2.ID, 0, link(1, 1)); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("another tournament's link to match %d, which tournament %d plays: %v, want ErrInvalid", m.ID, tt.ID, err)
	}
	if g := must(s.MatchTournament(ctx, m.ID)).in(t); g.Tournament != tt.ID || g.Round != 1 || g.Board != 1 {
		t.Errorf("the match's board after another tournament's link: %+v, want tournament %d's board 1 of round 1", g, tt.ID)
	}
	if _, ok := must(s.Tournament(ctx, tt2.ID)).in(t).GameOf(1, 1); ok {
		t.Errorf("tournament %d's board 1 plays a match after its link was refused", tt2.ID)
	}
}

// testTournamentWake: a tournament waits for its start, then for its round's
// deadline or the check of its players' membership, whichever comes first
// (at once when they were never checked), then, done, for nothing; but
// cancelled with games to call off (CallingOff), for the check that they
// are.
func testTournamentWake(t *testing.T, s storage.Store) {
	ctx := context.Background()
	if _, ok, err := s.NextTournamentWake(ctx); ok || err != nil {
		t.Errorf("an empty store has a tournament timer: %v, %v", ok, err)
	}
	tt := must(s.CreateTournament(ctx, NewTournament("g1"), storage.TournamentLimits{})).in(t)
	start := T0.Add(24 * time.Hour)
	if at, ok, err := s.NextTournamentWake(ctx); !ok || err != nil || !at.Equal(start) {
		t.Errorf("next timer %v, %v, %v; want the start %v", at, ok, err, start)
	}
	if due := must(s.DueTournaments(ctx, start.Add(-time.Second))).in(t); len(due) != 0 {
		t.Errorf("due before the start: %d", len(due))
	}
	if due := must(s.DueTournaments(ctx, start)).in(t); len(due) != 1 || due[0].ID != tt.ID {
		t.Errorf("due at the start: %v", due)
	}
	must(s.UpdateTournament(ctx, tt.ID, 0, joinAll("a", "b"))).in(t)
	tt = must(s.UpdateTournament(ctx, tt.ID, 0, pairNext(start))).in(t)
	deadline := start.Add(tt.RoundTime)
	// Its players never checked for membership: due at once.
	if at, ok, _ := s.NextTournamentWake(ctx); !ok || !at.Equal(tt.Created) {
		t.Errorf("next timer after pairing, members never checked: %v, %v; want at once (%v)", at, ok, tt.Created)
	}
	// Checked: due at the next check, or at the deadline, whichever comes first.
	check := start.Add(time.Hour)
	must(s.UpdateTournament(ctx, tt.ID, 0, func(t *storage.Tournament) error { t.MembersDue = check; return nil })).in(t)
	if at, ok, _ := s.NextTournamentWake(ctx); !ok || !at.Equal(check) {
		t.Errorf("next timer %v, %v; want the members' check %v", at, ok, check)
	}
	if due := must(s.DueTournaments(ctx, check.Add(-time.Second))).in(t); len(due) != 0 {
		t.Errorf("due before the members' check: %d", len(due))
	}
	if due := must(s.DueTournaments(ctx, check)).in(t); len(due) != 1 || !due[0].MembersDue.Equal(check) {
		t.Errorf("due at the members' check: %v", due)
	}
	tt = must(s.UpdateTournament(ctx, tt.ID, 0, func(t *storage.Tournament) error { t.MembersDue = deadline.Add(time.Hour); return nil })).in(t)
	if at, ok, _ := s.NextTournamentWake(ctx); !ok || !at.Equal(deadline) {
		t.Errorf("next timer after pairing %v, %v; want the round's deadline %v", at, ok, deadline)
	}
	if due := must(s.DueTournaments(ctx, start.Add(time.Hour))).in(t); len(due) != 0 {
		t.Errorf("due after pairing, before the deadline: %d", len(due))
	}
	// While its matches are being started, it is due at once.
	must(s.UpdateTournament(ctx, tt.ID, 0, func(t *storage.Tournament) error { t.Starting = true; return nil })).in(t)
	if due := must(s.DueTournaments(ctx, start.Add(time.Hour))).in(t); len(due) != 1 || !due[0].Starting {
		t.Errorf("a tournament starting its matches is not due: %v", due)
	}
	// Cancelled meanwhile, it is still due until the pass that started
	// its matches is done with them.
	must(s.UpdateTournament(ctx, tt.ID, 0, func(t *storage.Tournament) error { t.Done = true; return nil })).in(t)
	if due := must(s.DueTournaments(ctx, start.Add(time.Hour))).in(t); len(due) != 1 || !due[0].Starting || !due[0].Done {
		t.Errorf("a tournament cancelled while starting its matches is not due: %v", due)
	}
	must(s.UpdateTournament(ctx, tt.ID, 0, func(t *storage.Tournament) error { t.Starting = false; return nil })).in(t)
	if _, ok, _ := s.NextTournamentWake(ctx); ok {
		t.Errorf("a finished tournament still has a timer")
	}
	// Cancelled with games to call off: due at the check, until it is
	// made.
	must(s.UpdateTournament(ctx, tt.ID, 0, func(t *storage.Tournament) error { t.CallingOff, t.MembersDue = true, check; return nil })).in(t)
	if at, ok, _ := s.NextTournamentWake(ctx); !ok || !at.Equal(check) {
		t.Errorf("next timer of a cancelled tournament with games to call off %v, %v; want %v", at, ok, check)
	}
	if due := must(s.DueTournaments(ctx, check.Add(-time.Second))).in(t); len(due) != 0 {
		t.Errorf("a cancelled tournament due before its call-offs' check: %d", len(due))
	}
	if due := must(s.DueTournaments(ctx, check)).in(t); len(due) != 1 || !due[0].CallingOff || !due[0].Done {
		t.Errorf("a cancelled tournament with games to call off is not due at its check: %v", due)
	}
	must(s.UpdateTournament(ctx, tt.ID, 0, func(t *storage.Tournament) error { t.CallingOff = false; return nil })).in(t)
	if _, ok, _ := s.NextTournamentWake(ctx); ok {
		t.Errorf("a cancelled tournament whose games are off still has a timer")
	}
}

// testTournamentOneLeaderPairs: several processes on one database wake for
// a tournament's start at once. Each asks for the lease of the timers; the
// one holding it pairs the round, at the version it read. Exactly one
// round is paired, even when a process that lost the lease (its lease
// expired while it worked) still tries: the version lets one pairing in.
func testTournamentOneLeaderPairs(t *testing.T, s storage.Store) {
	ctx := context.Background()
	tt := must(s.CreateTournament(ctx, NewTournament("g1"), storage.TournamentLimits{})).in(t)
	tt = must(s.UpdateTournament(ctx, tt.ID, 0, joinAll("a", "b", "c", "d"))).in(t)
	start := tt.StartAt
	// Every process woke and read the due tournament before any paired it.
	due := must(s.DueTournaments(ctx, start)).in(t)
	if len(due) != 1 || due[0].ID != tt.ID {
		t.Fatalf("due at the start: %v", due)
	}
	const processes = 6
	var wg sync.WaitGroup
	var mu sync.Mutex
	leaders, paired := 0, 0
	for i := range processes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			holder := fmt.Sprintf("process-%d", i)
			lead, err := s.Lead(ctx, "timers", holder, start, 10*time.Second)
			if err != nil {
				t.Errorf("%s: Lead: %v", holder, err)
				return
			}
			// A stale leader: one process believes it leads although it lost the lease.
			if !lead && i != 0 {
				return
			}
			_, err = s.UpdateTournament(ctx, due[0].ID, due[0].Version, pairNext(start))
			mu.Lock()
			defer mu.Unlock()
			if lead {
				leaders++
			}
			switch {
			case err == nil:
				paired++
			case !errors.Is(err, storage.ErrStale) && !errors.Is(err, storage.ErrInvalid):
				t.Errorf("%s: pairing: %v", holder, err)
			}
		}()
	}
	wg.Wait()
	got := must(s.Tournament(ctx, tt.ID)).in(t)
	rounds := 0
	for _, e := range got.Log {
		if e.Kind == tournament.Paired {
			rounds++
		}
	}
	if leaders != 1 || paired != 1 || rounds != 1 {
		t.Errorf("%d leaders, %d pairings stored, %d rounds in the log; want one each", leaders, paired, rounds)
	}
}

// testTournamentNotices: each change of a tournament records, in its
// transaction, the announcements it owes its channel, in one queue
// delivered in order: a pairing, a result, a withdrawal after the start,
// the end. Joining and leaving before the start owe none, and a stale
// change records nothing.
func testTournamentNotices(t *testing.T, s storage.Store) {
	ctx := context.Background()
	tt := must(s.CreateTournament(ctx, NewTournament("g1"), storage.TournamentLimits{})).in(t)
	tt = must(s.UpdateTournament(ctx, tt.ID, 0, joinAll("a", "b", "c", "d", "e"))).in(t)
	tt = must(s.UpdateTournament(ctx, tt.ID, 0, func(x *storage.Tournament) error {
		x.Log = append(x.Log, tournament.Withdraw("e", tournament.WithdrewByChoice))
		return nil
	})).in(t)
	if due := must(s.DueNotices(ctx, T0.Add(time.Hour), 10)).in(t); len(due) != 0 {
		t.Fatalf("joining and leaving before the start owe %v, want nothing", due)
	}
	at := tt.StartAt
	tt = must(s.UpdateTournament(ctx, tt.ID, 0, func(x *storage.Tournament) error {
		x.Changed = at
		return pairNext(at)(x)
	})).in(t)
	if _, err := s.UpdateTournament(ctx, tt.ID, tt.Version-1, joinAll("z")); !errors.Is(err, storage.ErrStale) {
		t.Fatalf("a stale change: %v", err)
	}
	tt = must(s.UpdateTournament(ctx, tt.ID, 0, func(x *storage.Tournament) error {
		x.Changed = at.Add(time.Hour)
		x.Log = append(x.Log, tournament.Record(1, 1, tournament.RedWon), tournament.Withdraw("c", tournament.Removed))
		return nil
	})).in(t)
	tt = must(s.UpdateTournament(ctx, tt.ID, 0, func(x *storage.Tournament) error {
		x.Changed = at.Add(2 * time.Hour)
		x.Log = append(x.Log, tournament.Cancel())
		x.Done = true
		return nil
	})).in(t)
	want := []struct {
		event storage.Event
		log   int
	}{
		{storage.EventRoundPaired, 7},
		{storage.EventRoundResult, 8},
		{storage.EventWithdrawn, 9},
		{storage.EventTourneyCancel, 10},
	}
	for k, w := range want {
		due := must(s.DueNotices(ctx, at.Add(3*time.Hour), 10)).in(t)
		if len(due) != 1 {
			t.Fatalf("announcement %d: %d due, want only the queue's oldest: %+v", k+1, len(due), due)
		}
		n := due[0]
		if n.Tournament != tt.ID || n.Match != 0 || n.Event != w.event || n.Log != w.log || n.To != storage.AudiencePublic {
			t.Errorf("announcement %d: %s of tournament %d at log %d to %s, want %s at log %d to the channel",
				k+1, n.Event, n.Tournament, n.Log, n.To, w.event, w.log)
		}
		if err := s.NoticeDone(ctx, n.ID, at.Add(3*time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	if due := must(s.DueNotices(ctx, at.Add(3*time.Hour), 10)).in(t); len(due) != 0 {
		t.Errorf("after the cancellation: %v still owed", due)
	}
	// A finish that is not a cancellation owes the final standings.
	u := must(s.CreateTournament(ctx, NewTournament("g1"), storage.TournamentLimits{})).in(t)
	u = must(s.UpdateTournament(ctx, u.ID, 0, joinAll("a", "b"))).in(t)
	u = must(s.UpdateTournament(ctx, u.ID, 0, pairNext(at))).in(t)
	must(s.UpdateTournament(ctx, u.ID, 0, func(x *storage.Tournament) error {
		x.Done = true
		return nil
	})).in(t)
	var got []storage.Event
	for range 2 {
		due := must(s.DueNotices(ctx, at.Add(3*time.Hour), 10)).in(t)
		for _, n := range due {
			got = append(got, n.Event)
			if err := s.NoticeDone(ctx, n.ID, at); err != nil {
				t.Fatal(err)
			}
		}
	}
	if fmt.Sprint(got) != fmt.Sprint([]storage.Event{storage.EventRoundPaired, storage.EventTourneyOver}) {
		t.Errorf("a tournament paired and ended owes %v, want its pairing and then its end", got)
	}
	// The organiser's note names them; nothing else may be sent them.
	for _, n := range []storage.Notice{
		{Tournament: u.ID, Event: storage.EventRoundPaired, To: storage.AudienceOrganiser, At: at},
		{Tournament: u.ID, Event: storage.EventMove, To: storage.AudiencePublic, At: at},
		{Match: 1, Tournament: u.ID, Event: storage.EventRoundPaired, To: storage.AudiencePublic, At: at},
		{Tournament: u.ID, Event: storage.EventTourneyOver, To: storage.AudiencePlayer, At: at},                 // nobody named
		{Tournament: u.ID, Event: storage.EventTourneyOver, To: storage.AudiencePublic, Player: "a", At: at},    // a player named on the channel's
		{Tournament: u.ID, Event: storage.EventTourneyNoReach, To: storage.AudiencePlayer, Player: "a", At: at}, // the organiser's note
		{Match: 1, Event: storage.EventMove, To: storage.AudiencePlayer, Player: "a", At: at},                   // a match's
	} {
		if err := storage.PrepareNotice(&n); !errors.Is(err, storage.ErrInvalid) {
			t.Errorf("notice %+v: %v, want ErrInvalid", n, err)
		}
	}
}

// testTournamentResultAfterTheGame: a tournament's announcement of a game's
// result, recorded after the game ended, is not due before the notices of
// the game's end to its channel are done, however the outbox's queues
// interleave, and NextNotice does not offer it meanwhile; the players' own
// notices and the tournament's other queues do not hold it back.
func testTournamentResultAfterTheGame(t *testing.T, s storage.Store) {
	ctx := context.Background()
	tt := must(s.CreateTournament(ctx, NewTournament("g1"), storage.TournamentLimits{})).in(t)
	tt = must(s.UpdateTournament(ctx, tt.ID, 0, joinAll("1001", "1002"))).in(t)
	tt = must(s.UpdateTournament(ctx, tt.ID, 0, pairNext(T0))).in(t)
	m := Started(t, s, NewMatch(game.VariantClassic), 7)
	tt = must(s.UpdateTournament(ctx, tt.ID, 0, func(x *storage.Tournament) error {
		x.Games = append(x.Games, storage.TournamentGame{Round: 1, Board: 1, Match: m.ID})
		return nil
	})).in(t)
	at := T0.Add(time.Hour)
	owed(t, s, T0) // the pairing, the start
	m = must(s.Act(ctx, m.ID, m.Version, storage.Action{Kind: storage.ActResign, Side: game.Blue, At: at})).in(t)
	must(s.UpdateTournament(ctx, tt.ID, 0, func(x *storage.Tournament) error {
		x.Changed = at
		x.Log = append(x.Log, tournament.Record(1, 1, tournament.RedWon))
		return nil
	})).in(t)
	step := func(want ...string) []storage.Notice {
		t.Helper()
		due := must(s.DueNotices(ctx, at.Add(storage.WaitCap-time.Second), 0)).in(t) // within its wait
		var got []string
		for _, n := range due {
			got = append(got, n.Event.String()+">"+n.To.String())
		}
		if !sameWords(got, want) {
			t.Fatalf("due %v, want %v", got, want)
		}
		return due
	}
	done := func(n storage.Notice) {
		t.Helper()
		if err := s.NoticeDone(ctx, n.ID, at); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range step("ended>red", "ended>blue", "ended>public") {
		if n.To != storage.AudiencePublic {
			done(n)
		}
	}
	public := step("ended>public")[0]
	// Put off, the game's end holds the result back until it is tried again.
	if _, err := s.NoticeRetry(ctx, public.ID, at.Add(30*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if next, ok, err := s.NextNotice(ctx); err != nil || !ok || !next.Equal(at.Add(30*time.Minute)) {
		t.Fatalf("the next notice at %v (%v), want the game's end put off to %v, not the result that waits for it (%v)", next, ok, at.Add(30*time.Minute), err)
	}
	done(step("ended>public")[0])
	finale := step("finale>public")[0]
	done(finale)
	result := step("round-result>public")[0]
	if result.After != m.ID || result.Tournament != tt.ID {
		t.Errorf("the result notice waits for match %d of tournament %d, want %d of %d", result.After, result.Tournament, m.ID, tt.ID)
	}
	done(result)
	step()
}

// testTournamentClosedAfterTheCallOffs: a tournament's announcement of a
// round's deadline, of a withdrawal, or of its cancel, that scored (or
// ended) a game still on is
// recorded before the bot calls the game's match off: it is not due, and
// NextNotice does not offer it, while that match is on, nor while the
// notices of its call-off to its channel, recorded after it, are owed; it
// names the match it waits for, and only that one (not a game that ended
// before, whose notices are done).
func testTournamentClosedAfterTheCallOffs(t *testing.T, s storage.Store) {
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		event tournament.Event
		want  string
	}{
		{"deadline", tournament.CloseRound(1), "round-closed>public"},
		{"withdrawal", tournament.Withdraw("1001", tournament.WithdrewByChoice), "withdrawn>public"},
		{"cancel", tournament.Cancel(), "tournament-cancelled>public"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tt := must(s.CreateTournament(ctx, NewTournament("g1"), storage.TournamentLimits{})).in(t)
			tt = must(s.UpdateTournament(ctx, tt.ID, 0, joinAll("1001", "1002", "1003", "1004"))).in(t)
			tt = must(s.UpdateTournament(ctx, tt.ID, 0, pairNext(T0))).in(t)
			on := Started(t, s, NewMatch(game.VariantClassic), 7)
			over := Started(t, s, NewMatch(game.VariantClassic), 8)
			state := must(tt.State()).in(t)
			board := func(player string) int {
				for i, g := range state.Rounds()[0].Games {
					if g.Has(player) {
						return i + 1
					}
				}
				t.Fatalf("player %s has no board", player)
				return 0
			}
			onBoard, overBoard := board("1001"), board("1003")
			tt = must(s.UpdateTournament(ctx, tt.ID, 0, func(x *storage.Tournament) error {
				x.Games = append(x.Games, storage.TournamentGame{Round: 1, Board: onBoard, Match: on.ID},
					storage.TournamentGame{Round: 1, Board: overBoard, Match: over.ID})
				return nil
			})).in(t)
			at := T0.Add(time.Hour)
			over = must(s.Act(ctx, over.ID, over.Version, storage.Action{Kind: storage.ActResign, Side: game.Blue, At: at})).in(t)
			must(s.UpdateTournament(ctx, tt.ID, 0, func(x *storage.Tournament) error {
				x.Changed = at
				x.Log = append(x.Log, tournament.Record(1, overBoard, tournament.RedWon))
				return nil
			})).in(t)
			owed(t, s, at)
			must(s.UpdateTournament(ctx, tt.ID, 0, func(x *storage.Tournament) error {
				x.Changed = at
				x.Log = append(x.Log, tc.event)
				x.Done = tc.event.Kind == tournament.Cancelled
				return nil
			})).in(t)
			// Within storage.WaitCap: the announcement waits for the
			// match, and the outbox offers it only at the end of that wait.
			soon := at.Add(storage.WaitCap - time.Second)
			if due := must(s.DueNotices(ctx, soon, 0)).in(t); len(due) != 0 {
				t.Fatalf("%s>%s due while the match it scored is on", due[0].Event, due[0].To)
			}
			if next, ok, err := s.NextNotice(ctx); err != nil || !ok || !next.Equal(at.Add(storage.WaitCap)) {
				t.Fatalf("the next notice at %v (%v, %v), want %v, the end of its wait, while the match is on", next, ok, err, at.Add(storage.WaitCap))
			}
			must(s.Abandon(ctx, on.ID, 0, at, storage.CallOffTournament)).in(t)
			due := must(s.DueNotices(ctx, soon, 0)).in(t)
			var public storage.Notice
			for _, n := range due {
				switch {
				case n.Tournament != 0:
					t.Fatalf("%s>%s due while the call-off's notices are owed", n.Event, n.To)
				case n.To == storage.AudiencePublic:
					public = n
				default:
					if err := s.NoticeDone(ctx, n.ID, at); err != nil {
						t.Fatal(err)
					}
				}
			}
			if public.ID == 0 {
				t.Fatal("the call-off owes its channel nothing")
			}
			if _, err := s.NoticeRetry(ctx, public.ID, soon); err != nil {
				t.Fatal(err)
			}
			for _, n := range must(s.DueNotices(ctx, soon.Add(-time.Second), 0)).in(t) {
				if n.Tournament != 0 {
					t.Fatalf("%s>%s due while the call-off's notice to the channel is put off", n.Event, n.To)
				}
			}
			var got []string
			var result storage.Notice
			for {
				due := must(s.DueNotices(ctx, soon, 0)).in(t)
				if len(due) == 0 {
					break
				}
				for _, n := range due {
					got = append(got, n.Event.String()+">"+n.To.String())
					if n.Tournament != 0 {
						result = n
					}
					if err := s.NoticeDone(ctx, n.ID, soon); err != nil {
						t.Fatal(err)
					}
				}
			}
			if len(got) == 0 || got[len(got)-1] != tc.want {
				t.Fatalf("then due %v, want the call-off's, then %s", got, tc.want)
			}
			if len(result.Until) != 1 || result.Until[0] != on.ID {
				t.Errorf("the announcement waits for matches %v, want only %d, the one it scored still on", result.Until, on.ID)
			}
		})
	}
}

// testTournamentCallOffWaitCapped: a tournament's announcement that waits
// for a match it scored still on (Notice.Until) waits no longer than
// storage.WaitCap from its time, so that a match whose call-off never
// comes cannot hold the tournament's channel back for good: NextNotice
// offers it at the end of that wait, and DueNotices then, the match still
// on, and not a second before; what follows it in its queue goes out
// after it.
func testTournamentCallOffWaitCapped(t *testing.T, s storage.Store) {
	ctx := context.Background()
	tt := must(s.CreateTournament(ctx, NewTournament("g1"), storage.TournamentLimits{})).in(t)
	tt = must(s.UpdateTournament(ctx, tt.ID, 0, joinAll("1001", "1002", "1003", "1004"))).in(t)
	tt = must(s.UpdateTournament(ctx, tt.ID, 0, pairNext(T0))).in(t)
	on := Started(t, s, NewMatch(game.VariantClassic), 7)
	state := must(tt.State()).in(t)
	board := 0
	for i, g := range state.Rounds()[0].Games {
		if g.Has("1001") {
			board = i + 1
		}
	}
	tt = must(s.UpdateTournament(ctx, tt.ID, 0, func(x *storage.Tournament) error {
		x.Games = append(x.Games, storage.TournamentGame{Round: 1, Board: board, Match: on.ID})
		return nil
	})).in(t)
	at := T0.Add(time.Hour)
	owed(t, s, at)
	must(s.UpdateTournament(ctx, tt.ID, 0, func(x *storage.Tournament) error {
		x.Changed = at
		x.Log = append(x.Log, tournament.CloseRound(1))
		return nil
	})).in(t)
	must(s.UpdateTournament(ctx, tt.ID, 0, func(x *storage.Tournament) error {
		x.Changed = at
		x.Log = append(x.Log, tournament.Withdraw("1003", tournament.WithdrewByChoice))
		return nil
	})).in(t)
	end := at.Add(storage.WaitCap)
	if next, ok, err := s.NextNotice(ctx); err != nil || !ok || !next.Equal(end) {
		t.Fatalf("the next notice at %v (%v, %v), want %v, the end of the announcement's wait", next, ok, err, end)
	}
	if due := must(s.DueNotices(ctx, end.Add(-time.Second), 0)).in(t); len(due) != 0 {
		t.Fatalf("%s>%s due before the end of its wait, the match on", due[0].Event, due[0].To)
	}
	var got []string
	for {
		due := must(s.DueNotices(ctx, end, 0)).in(t)
		if len(due) == 0 {
			break
		}
		for _, n := range due {
			got = append(got, n.Event.String()+">"+n.To.String())
			if err := s.NoticeDone(ctx, n.ID, end); err != nil {
				t.Fatal(err)
			}
		}
	}
	if want := []string{"round-closed>public", "withdrawn>public"}; !slices.Equal(got, want) {
		t.Errorf("due at the end of the wait %v, want %v", got, want)
	}
	if m := must(s.Match(ctx, on.ID)).in(t); !m.Phase.Active() {
		t.Fatalf("the match is %v, want it still on", m.Phase)
	}
}

// testTournamentAllAtOnce: a round robin played all at once pairs every
// round in one change, which owes one announcement, told after the last
// round; results of any round are then stored in any order, and one
// deadline closes every round. Its rules keep the flag.
func testTournamentAllAtOnce(t *testing.T, s storage.Store) {
	ctx := context.Background()
	rr := NewTournament("g1")
	rr.Rules.AllAtOnce = true
	tt := must(s.CreateTournament(ctx, rr, storage.TournamentLimits{})).in(t)
	tt = must(s.UpdateTournament(ctx, tt.ID, 0, joinAll("a", "b", "c", "d"))).in(t)
	at := tt.StartAt
	tt = must(s.UpdateTournament(ctx, tt.ID, 0, func(x *storage.Tournament) error {
		state, err := x.State()
		if err != nil {
			return err
		}
		rounds, err := state.PairAll()
		if err != nil {
			return err
		}
		x.Changed = at
		x.Log = append(x.Log, rounds...)
		x.RoundDeadline = at.Add(time.Duration(len(rounds)) * x.RoundTime)
		x.MembersDue = x.RoundDeadline.Add(time.Hour)
		return nil
	})).in(t)
	if !tt.Rules.AllAtOnce {
		t.Fatalf("the rules lost the flag: %+v", tt.Rules)
	}
	due := must(s.DueNotices(ctx, at.Add(time.Hour), 10)).in(t)
	if len(due) != 1 || due[0].Event != storage.EventRoundPaired || due[0].Log != 7 {
		t.Fatalf("three rounds paired at once owe %+v, want one pairing announcement at log 7", due)
	}
	if wake, ok := tt.Wake(); !ok || !wake.Equal(at.Add(21*24*time.Hour)) {
		t.Errorf("wakes at %v (%v), want the one deadline", wake, ok)
	}
	for _, e := range []tournament.Event{tournament.Record(3, 2, tournament.Drawn), tournament.Record(1, 1, tournament.RedWon), tournament.CloseAll()} {
		tt = must(s.UpdateTournament(ctx, tt.ID, 0, func(x *storage.Tournament) error {
			x.Log = append(x.Log, e)
			return nil
		})).in(t)
	}
	state := must(tt.State()).in(t)
	if state.Status() != tournament.Finished || len(state.Rounds()) != 3 {
		t.Errorf("after the deadline: %s with %d rounds", state.Status(), len(state.Rounds()))
	}
}

// testTournamentCreateLimits: creates racing on one server, of one creator
// and of many, keep to the limits: exactly as many are stored as the
// limits allow, the others are refused with a *TournamentLimitError, and a
// tournament that is over counts no more. Another server is not counted.
func testTournamentCreateLimits(t *testing.T, s storage.Store) {
	ctx := context.Background()
	limits := storage.TournamentLimits{PerCreator: 2, PerServer: 5}
	race := func(guild string, creator func(i int) string) (created []*storage.Tournament, refused []*storage.TournamentLimitError) {
		const racers = 12
		var wg sync.WaitGroup
		var mu sync.Mutex
		for i := range racers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				tt := NewTournament(guild)
				tt.CreatorID = creator(i)
				got, err := s.CreateTournament(ctx, tt, limits)
				mu.Lock()
				defer mu.Unlock()
				var le *storage.TournamentLimitError
				switch {
				case err == nil:
					created = append(created, got)
				case errors.As(err, &le):
					refused = append(refused, le)
				default:
					t.Errorf("create on %s: %v", guild, err)
				}
			}()
		}
		wg.Wait()
		return created, refused
	}
	created, refused := race("limits1", func(int) string { return "one" })
	if len(created) != 2 || len(refused) != 10 || !refused[0].Creator {
		t.Fatalf("one creator: %d created, %d refused (%+v); want 2 and 10 for the creator's limit", len(created), len(refused), refused)
	}
	created, refused = race("limits1", func(i int) string { return fmt.Sprintf("c%d", i) })
	if len(created) != 3 || len(refused) != 9 || refused[0].Creator {
		t.Fatalf("many creators: %d created, %d refused; want 3 more (5 in all) and 9 for the server's limit", len(created), len(refused))
	}
	if open := must(s.ServerTournaments(ctx, "limits1", false)).in(t); len(open) != 5 {
		t.Fatalf("%d tournaments open, want 5", len(open))
	}
	must(s.UpdateTournament(ctx, created[0].ID, 0, func(x *storage.Tournament) error {
		x.Log = append(x.Log, tournament.Cancel())
		x.Done = true
		return nil
	})).in(t)
	next := NewTournament("limits1")
	next.CreatorID = "late"
	must(s.CreateTournament(ctx, next, limits)).in(t)
	if _, err := s.CreateTournament(ctx, NewTournament("limits1"), limits); !errors.As(err, new(*storage.TournamentLimitError)) {
		t.Fatalf("a sixth open tournament: %v, want refused", err)
	}
	must(s.CreateTournament(ctx, NewTournament("limits2"), limits)).in(t)
}

// testTournamentPlayerNotices: an announcement its channel could not be
// told is owed to the players it concerns, each by DM, recorded with the
// channel's notice done. Each player's notices are a queue of their own:
// one that waits to be retried holds back no one else's.
func testTournamentPlayerNotices(t *testing.T, s storage.Store) {
	ctx := context.Background()
	tt := must(s.CreateTournament(ctx, NewTournament("g1"), storage.TournamentLimits{})).in(t)
	tt = must(s.UpdateTournament(ctx, tt.ID, 0, joinAll("a", "b"))).in(t)
	at := tt.StartAt
	must(s.UpdateTournament(ctx, tt.ID, 0, pairNext(at))).in(t)
	due := must(s.DueNotices(ctx, at.Add(time.Hour), 10)).in(t)
	if len(due) != 1 || due[0].Event != storage.EventRoundPaired {
		t.Fatalf("after pairing: %+v, want the pairing's announcement", due)
	}
	players := []storage.Notice{
		{Tournament: tt.ID, Event: storage.EventRoundPaired, To: storage.AudiencePlayer, Player: "a", Log: due[0].Log, At: at},
		{Tournament: tt.ID, Event: storage.EventRoundPaired, To: storage.AudiencePlayer, Player: "b", Log: due[0].Log, At: at},
	}
	must(0, s.NoticeDone(ctx, due[0].ID, at, players...)).in(t)
	heads := must(s.DueNotices(ctx, at.Add(time.Hour), 10)).in(t)
	if len(heads) != 2 {
		t.Fatalf("%d due after the channel's was given up, want each player's: %+v", len(heads), heads)
	}
	for k, n := range heads {
		if n.To != storage.AudiencePlayer || n.Player != players[k].Player || n.Tournament != tt.ID || n.Log != due[0].Log {
			t.Errorf("player notice %d: %+v, want %+v", k, n, players[k])
		}
	}
	// A's waits to be retried, with one more behind it; b's is due.
	must(0, s.NoticeDone(ctx, heads[1].ID, at, storage.Notice{Tournament: tt.ID, Event: storage.EventTourneyOver, To: storage.AudiencePlayer, Player: "a", Log: due[0].Log, At: at})).in(t)
	must(s.NoticeRetry(ctx, heads[0].ID, at.Add(time.Hour))).in(t)
	if got := must(s.DueNotices(ctx, at, 10)).in(t); len(got) != 0 {
		t.Errorf("due while a's first waits: %+v, want nothing (a's second waits behind it)", got)
	}
	must(0, s.NoticeDone(ctx, heads[0].ID, at)).in(t)
	if got := must(s.DueNotices(ctx, at.Add(time.Hour), 10)).in(t); len(got) != 1 || got[0].Player != "a" || got[0].Event != storage.EventTourneyOver {
		t.Errorf("after a's first: %+v, want a's second", got)
	}
}

// testTournamentChannelLost: a tournament keeps when its channel was found
// out of reach, and whether it was deleted, as read back by every read;
// recording it owes no announcement, and clearing it is kept too.
func testTournamentChannelLost(t *testing.T, s storage.Store) {
	ctx := context.Background()
	tt := must(s.CreateTournament(ctx, NewTournament("g1"), storage.TournamentLimits{})).in(t)
	lost := T0.Add(90*time.Minute + 500*time.Millisecond)
	tests := []struct {
		name    string
		lost    time.Time
		deleted bool
	}{
		{"out of reach", lost, false},
		{"deleted", lost.Add(time.Hour), true},
		{"within reach again", time.Time{}, false},
	}
	for _, tc := range tests {
		tt = must(s.UpdateTournament(ctx, tt.ID, tt.Version, func(x *storage.Tournament) error {
			x.ChannelLost, x.ChannelDeleted = tc.lost, tc.deleted
			return nil
		})).in(t)
		list := must(s.ServerTournaments(ctx, "g1", true)).in(t)
		if len(list) != 1 {
			t.Fatalf("%s: the server lists %d tournaments, want 1", tc.name, len(list))
		}
		for _, got := range []*storage.Tournament{tt, must(s.Tournament(ctx, tt.ID)).in(t), list[0]} {
			if !got.ChannelLost.Equal(tc.lost.Truncate(time.Second)) || got.ChannelDeleted != tc.deleted {
				t.Errorf("%s: read back lost %v, deleted %v; want %v, %v", tc.name, got.ChannelLost, got.ChannelDeleted, tc.lost, tc.deleted)
			}
		}
	}
	if due := must(s.DueNotices(ctx, T0.Add(30*24*time.Hour), 10)).in(t); len(due) != 0 {
		t.Errorf("recording a lost channel owes %v, want nothing", due)
	}
}

// testTournamentHeldUp: the change that marks a tournament held up (its
// timers failed for long) owes its channel one announcement, at the
// change, and keeps when the stall began; marked again while it still is,
// or cleared, it owes none; held up again after it went on, it owes one
// more. A tournament over owes none.
func testTournamentHeldUp(t *testing.T, s storage.Store) {
	ctx := context.Background()
	tt := must(s.CreateTournament(ctx, NewTournament("g1"), storage.TournamentLimits{})).in(t)
	since := tt.StartAt.Add(time.Minute)
	told := since.Add(time.Hour)
	mark := func(at, heldUp time.Time, done bool) func(x *storage.Tournament) error {
		return func(x *storage.Tournament) error {
			x.Changed, x.HeldUp, x.Done = at, heldUp, done
			return nil
		}
	}
	after := must(s.UpdateTournament(ctx, tt.ID, tt.Version, mark(told, since, false))).in(t)
	if got := must(s.Tournament(ctx, tt.ID)).in(t); !got.HeldUp.Equal(since) {
		t.Errorf("held up since %v, want %v", got.HeldUp, since)
	}
	due := must(s.DueNotices(ctx, told, 0)).in(t)
	if len(due) != 1 || due[0].Tournament != tt.ID || due[0].Event != storage.EventTourneyHeldUp || due[0].To != storage.AudiencePublic ||
		due[0].Version != after.Version || !due[0].At.Equal(told) {
		t.Fatalf("marking a tournament held up owes %s, want one tournament-held-up to the channel at the change", describeNotices(due))
	}
	Deliver(t, s, told)
	steps := []struct {
		name   string
		heldUp time.Time
		done   bool
		want   string
	}{
		{"marked again", since.Add(time.Hour), false, ""},
		{"cleared", time.Time{}, false, ""},
		{"held up again", told.Add(24 * time.Hour), false, "tournament-held-up>public"},
		{"cleared again", time.Time{}, false, ""},
		{"held up as it ends", told.Add(48 * time.Hour), true, "tournament-over>public"},
	}
	for k, step := range steps {
		at := told.Add(time.Duration(k+1) * time.Hour)
		must(s.UpdateTournament(ctx, tt.ID, 0, mark(at, step.heldUp, step.done))).in(t)
		if got := dueEvents(t, s, at); got != step.want {
			t.Errorf("%s: owes %q, want %q", step.name, got, step.want)
		}
		Deliver(t, s, at)
	}
}
