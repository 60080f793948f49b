package storagetest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// CopyStore is a store that a whole database can be read from and written
// into (storage.Copy): both backends are.
type CopyStore interface {
	storage.Store
	storage.Dumper
	storage.Loader
}

// CopyTest fills a store from "from" through the Store interface with every
// kind of record the bot keeps (matches ended, under way and in set-up,
// with their logs, followers and the notices still owed, part sent or to be
// tried again, one holding an expired challenge; challenges, seeks,
// players' settings, saved set-ups, vacations and link generations, server
// settings, standings, a tournament with a linked match, the web key, when
// the bot was last alive, a lease), copies it with storage.Copy into an
// empty store from "to", and checks that everything read back through the
// Store interface is the same, that both go on with the same ids, and that
// a second copy into the now full target is refused (storage.ErrNotEmpty)
// and leaves it as it was. Leases are not copied: the source's holders are
// stopped.
func CopyTest(t *testing.T, from, to func(t *testing.T) CopyStore) {
	ctx := context.Background()
	src := from(t)
	Fill(t, src)
	// The source sends its records one at a time, Meta first, and stops
	// at the first its Sink refuses, returning that refusal.
	spy := &stopAt{}
	if err := src.Dump(ctx, spy); !errors.Is(err, errTargetFull) || spy.meta != 1 || spy.matches != 1 {
		t.Errorf("a Dump whose Sink refuses the first match: %v after %d Meta and %d matches; want errTargetFull after 1 and 1", err, spy.meta, spy.matches)
	}
	dst := to(t)
	counts := must(storage.Copy(ctx, src, dst)).in(t)
	want := storage.Counts{Matches: 4, Active: 3, Followers: 2, Challenges: 2, Players: 2, Servers: 1, Standings: 2,
		Seeks: 1, Tournaments: 1}
	if counts.Notices == 0 {
		t.Errorf("copied no notice, but the last move's and the set-up's are still owed")
	}
	counts.Notices = 0
	if counts != want {
		t.Errorf("copied %+v, want %+v", counts, want)
	}
	before, orig := snapshot(t, dst), snapshot(t, src)
	for what, got := range before {
		if want := orig[what]; !reflect.DeepEqual(got, want) {
			t.Errorf("%s copied as\n%+v\nwant\n%+v", what, got, want)
		}
	}
	for what := range orig {
		if _, ok := before[what]; !ok {
			t.Errorf("%s not in the copy", what)
		}
	}

	// The copy is refused by a target that holds anything, and leaves it as it was.
	if _, err := storage.Copy(ctx, src, dst); !errors.Is(err, storage.ErrNotEmpty) {
		t.Errorf("a second copy into the same target: %v, want ErrNotEmpty", err)
	}
	if after := snapshot(t, dst); !reflect.DeepEqual(after, before) {
		t.Errorf("a refused copy changed the target")
	}
	keyed := to(t)
	must(keyed.WebKey(ctx)).in(t)
	if _, err := storage.Copy(ctx, src, keyed); !errors.Is(err, storage.ErrNotEmpty) {
		t.Errorf("a copy into a target holding only a web key: %v, want ErrNotEmpty", err)
	}

	// Leases are the source's processes': a new holder takes them on the copy.
	if !must(dst.Lead(ctx, "timers", "target", T0, time.Minute)).in(t) {
		t.Errorf("the source's lease was copied: a new process cannot lead the copy")
	}
	// Both go on alike: the same next ids (of matches, challenges,
	// tournaments and notices), the same time alive before.
	var ids [2][]uint64
	for i, s := range []storage.Store{src, dst} {
		m := must(s.CreateMatch(ctx, NewMatch(game.VariantDuel))).in(t)
		c := must(s.CreateChallenge(ctx, NewChallenge(T0, T0.Add(time.Hour)), storage.MemberLimits{})).in(t)
		tt := must(s.CreateTournament(ctx, NewTournament("g2"), storage.TournamentLimits{})).in(t)
		ids[i] = []uint64{uint64(m.ID), uint64(c.ID), uint64(tt.ID)}
		for _, n := range must(s.DueNotices(ctx, T0.Add(1000*24*time.Hour), 0)).in(t) {
			ids[i] = append(ids[i], n.ID)
		}
	}
	if !reflect.DeepEqual(ids[0], ids[1]) {
		t.Errorf("after the copy, a new match, challenge and tournament (and the notices due) got the ids %v, want %v as in the source", ids[1], ids[0])
	}
	at := T0.Add(5 * time.Hour)
	if x, y := must(src.Alive(ctx, at)).in(t), must(dst.Alive(ctx, at)).in(t); !x.Equal(y) || x.IsZero() {
		t.Errorf("last alive %v in the copy, want %v", y, x)
	}
}

// CopyDoubleLink copies, with storage.Copy, a store from "from" where two
// tournaments' records link one match, as strategobot left it before such
// a link was refused (one of them linked it, the other's record written
// raw by forge, which writes a tournament's record and leaves its
// indexes), into an empty store from "to": the copy is taken, the match
// plays the board the source says it plays (MatchTournament), whichever
// tournament's id is the lower, the other's record keeps its link, and its
// next change is stored and leaves the match its board. It runs with the
// lower id's link the real one, then the higher's. Before, the target
// refused the second tournament (ErrInvalid), so such a database could
// not be copied at all; then it gave the match to the lower id, so that
// the bot recorded its result in a tournament it did not play for.
func CopyDoubleLink(t *testing.T, from func(t *testing.T) (CopyStore, Damage), to func(t *testing.T) CopyStore) {
	for _, realFirst := range []bool{true, false} {
		name := map[bool]string{true: "LowerIDLinks", false: "HigherIDLinks"}[realFirst]
		t.Run(name, func(t *testing.T) { copyDoubleLink(t, from, to, realFirst) })
	}
}

// copyDoubleLink is CopyDoubleLink with the lower id's link the real one
// (realFirst), or the higher's.
func copyDoubleLink(t *testing.T, from func(t *testing.T) (CopyStore, Damage), to func(t *testing.T) CopyStore, realFirst bool) {
	ctx := context.Background()
	src, forge := from(t)
	paired := func() *storage.Tournament {
		tt := must(src.CreateTournament(ctx, NewTournament("g1"), storage.TournamentLimits{})).in(t)
		tt = must(src.UpdateTournament(ctx, tt.ID, 0, joinAll("1001", "1002"))).in(t)
		return must(src.UpdateTournament(ctx, tt.ID, 0, pairNext(T0))).in(t)
	}
	first, second := paired(), paired()
	owner, forged := first, second
	if !realFirst {
		owner, forged = second, first
	}
	m := must(src.CreateMatch(ctx, NewMatch(game.VariantClassic))).in(t)
	onBoard := storage.TournamentGame{Round: 1, Board: 1, Match: m.ID}
	owner = must(src.UpdateTournament(ctx, owner.ID, 0, func(t *storage.Tournament) error {
		t.Games = append(t.Games, onBoard)
		return nil
	})).in(t)
	forged.Games = append(forged.Games, onBoard)
	forge(t, forged.ID, must(storage.EncodeTournament(forged)).in(t))
	forged = must(src.Tournament(ctx, forged.ID)).in(t)
	if _, ok := forged.GameOf(1, 1); !ok {
		t.Fatalf("the forged tournament %d links no match to its board 1", forged.ID)
	}
	want := storage.TournamentGame{Tournament: owner.ID, Round: 1, Board: 1, Match: m.ID}
	if g, err := src.MatchTournament(ctx, m.ID); err != nil || g != want {
		t.Fatalf("in the source, the match's board: %+v, %v; want %+v, the tournament that linked it", g, err, want)
	}

	dst := to(t)
	if _, err := storage.Copy(ctx, src, dst); err != nil {
		t.Fatalf("a copy of a store where tournaments %d and %d link match %d: %v", first.ID, second.ID, m.ID, err)
	}
	board := func(when string) {
		t.Helper()
		if g, err := dst.MatchTournament(ctx, m.ID); err != nil || g != want {
			t.Errorf("%s, the match's board: %+v, %v; want %+v, the source's", when, g, err, want)
		}
	}
	board("in the copy")
	for _, want := range []*storage.Tournament{owner, forged} {
		if got := must(dst.Tournament(ctx, want.ID)).in(t); !reflect.DeepEqual(got, want) {
			t.Errorf("tournament %d copied as\n%+v\nwant\n%+v", want.ID, got, want)
		}
	}
	for _, tt := range []*storage.Tournament{forged, owner} {
		changed := must(dst.UpdateTournament(ctx, tt.ID, 0, func(t *storage.Tournament) error {
			t.ChannelID = "c2"
			return nil
		})).in(t)
		if _, ok := changed.GameOf(1, 1); !ok || changed.ChannelID != "c2" {
			t.Errorf("tournament %d changed in the copy: channel %q, its link kept %v; want c2 and true", tt.ID, changed.ChannelID, ok)
		}
		board(fmt.Sprintf("after tournament %d's change", tt.ID))
	}

	// The board a Source names is the match's where its tournament's
	// record holds it; otherwise the records' stands, the lower id's.
	var d storage.Dump
	if err := src.Dump(ctx, &d); err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(d.Games, func(g storage.TournamentGame) bool { return g.Match == m.ID })
	if i < 0 || d.Games[i] != want {
		t.Fatalf("the source sent the boards %+v; want %+v among them", d.Games, want)
	}
	lower := storage.TournamentGame{Tournament: first.ID, Round: 1, Board: 1, Match: m.ID}
	for _, c := range []struct{ sent, want storage.TournamentGame }{
		{storage.TournamentGame{Tournament: forged.ID, Round: 1, Board: 1, Match: m.ID}, storage.TournamentGame{Tournament: forged.ID, Round: 1, Board: 1, Match: m.ID}},
		{storage.TournamentGame{Tournament: forged.ID, Round: 1, Board: 2, Match: m.ID}, lower},
		{storage.TournamentGame{Tournament: 99, Round: 1, Board: 1, Match: m.ID}, lower},
	} {
		d.Games[i] = c.sent
		dst := to(t)
		if err := dst.Load(ctx, d.Send); err != nil {
			t.Fatalf("a load with the board %+v sent: %v", c.sent, err)
		}
		if g, err := dst.MatchTournament(ctx, m.ID); err != nil || g != c.want {
			t.Errorf("a load with the board %+v sent: the match's board %+v, %v; want %+v", c.sent, g, err, c.want)
		}
	}
}

// snapshot reads everything the Store interface shows of the records fill
// makes (and of the few made after the copy), by name.
func snapshot(t *testing.T, s storage.Store) map[string]any {
	ctx := context.Background()
	far := T0.Add(1000 * 24 * time.Hour)
	out := map[string]any{}
	put := func(what string, v any, err error) {
		t.Helper()
		if err != nil && !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("%s: %v", what, err)
		}
		switch rv := reflect.ValueOf(v); {
		case errors.Is(err, storage.ErrNotFound):
			out[what] = "not found" // the backends' zero values differ
		case rv.Kind() == reflect.Slice && rv.Len() == 0:
			out[what] = "none" // nil or empty, as each backend gives it
		default:
			out[what] = v
		}
	}
	for id := storage.MatchID(1); id <= 8; id++ {
		m, err := s.Match(ctx, id)
		put("match "+id.String(), m, err)
		f, err := s.Followers(ctx, id)
		put("followers of "+id.String(), f, err)
		g, err := s.MatchTournament(ctx, id)
		put("tournament of match "+id.String(), g, err)
	}
	for id := storage.ChallengeID(1); id <= 4; id++ {
		c, err := s.Challenge(ctx, id)
		put("challenge "+id.String(), c, err)
	}
	for id := storage.TournamentID(1); id <= 3; id++ {
		tt, err := s.Tournament(ctx, id)
		put("tournament "+id.String(), tt, err)
	}
	for _, u := range []string{"1001", "1002", "1003", "1004", "2001"} {
		for _, active := range []bool{true, false} {
			m, err := s.PlayerMatches(ctx, u, active, 0)
			put("matches of "+u+map[bool]string{true: " under way", false: " ended"}[active], m, err)
		}
		c, err := s.PlayerChallenges(ctx, u)
		put("challenges of "+u, c, err)
		p, err := s.Player(ctx, u)
		put("player "+u, p, err)
		g, err := s.LinkGeneration(ctx, u)
		put("link generation of "+u, g, err)
		for _, v := range []game.Variant{game.VariantClassic, game.VariantBarrage} {
			st, err := s.Standing(ctx, "g1", v, u)
			put("standing of "+u+" in "+v.String(), st, err)
		}
	}
	for _, c := range []string{"c1", "c2", "th2"} {
		for _, active := range []bool{true, false} {
			m, err := s.ChannelMatches(ctx, c, active, 0)
			put("matches in "+c+map[bool]string{true: " under way", false: " ended"}[active], m, err)
		}
		ch, err := s.ChannelChallenges(ctx, c)
		put("challenges in "+c, ch, err)
	}
	for _, g := range []string{"g1", "g2"} {
		srv, err := s.Server(ctx, g)
		put("server "+g, srv, err)
		q, err := s.Seeks(ctx, g, T0)
		put("seeks of "+g, q, err)
		tt, err := s.ServerTournaments(ctx, g, true)
		put("tournaments of "+g, tt, err)
		for _, v := range []game.Variant{game.VariantClassic, game.VariantBarrage} {
			st, err := s.Standings(ctx, g, v, 0)
			put("standings of "+g+" in "+v.String(), st, err)
		}
	}
	d, ok, err := s.NextDeadline(ctx)
	put("next deadline", []any{d, ok}, err)
	ds, err := s.DueDeadlines(ctx, far, 0)
	put("deadlines", ds, err)
	n, ok, err := s.NextNotice(ctx)
	put("next notice", []any{n, ok}, err)
	ns, err := s.DueNotices(ctx, far, 0)
	put("notices due", ns, err)
	nc, err := s.CountNotices(ctx)
	put("notices owed", nc, err)
	w, ok, err := s.NextTournamentWake(ctx)
	put("next tournament wake", []any{w, ok}, err)
	ts, err := s.DueTournaments(ctx, far)
	put("tournaments due", ts, err)
	v, err := s.PlayersOnVacation(ctx, T0)
	put("players on vacation", v, err)
	k, err := s.WebKey(ctx)
	put("web key", k, err)
	return out
}

// Fill stores every kind of record through the Store interface, as
// CopyTest does before it copies: a backend's test that every table or
// bucket is covered by its copy fills one with it.
func Fill(t *testing.T, s storage.Store) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(7, 7))
	day := 24 * time.Hour

	// A rated match that ended, counted in the standings.
	ended := Started(t, s, NewMatch(game.VariantClassic), 1)
	ended = Play(t, s, ended, 6, r)
	ended = must(s.Act(ctx, ended.ID, ended.Version, storage.Action{Kind: storage.ActResign, Side: game.Blue, At: lastTime(ended).Add(time.Minute)})).in(t)
	Deliver(t, s, lastTime(ended))

	// A match under way, with notices
	// still owed, and two followers.
	on := Started(t, s, NewMatch(game.VariantBarrage), 2)
	on = Play(t, s, on, 5, r)
	for range 2 { // two moves untold: queues of two notices
		side, mv := RandomMove(t, on, r)
		on, _ = must2m(t)(s.ApplyMove(ctx, on.ID, on.Version, side, mv, lastTime(on).Add(time.Minute)))
	}
	must(struct{}{}, s.Follow(ctx, on.ID, "2001", true)).in(t)
	must(struct{}{}, s.Follow(ctx, on.ID, "2002", true)).in(t)

	// A match in set-up, one side's draft in, its invites still owed.
	setup := NewMatch(game.VariantClassic)
	setup.Players[game.Blue] = storage.Player{UserID: "1003", Name: "Cy"}
	setup.ChannelID, setup.ThreadID = "c2", "th2"
	setup = must(s.CreateMatch(ctx, setup)).in(t)
	must(s.SetSetup(ctx, setup.ID, setup.Version, game.Red, game.RandomSetup(setup.Rules, 9), storage.SetupDraft, T0)).in(t)

	// Challenges, a seek, a tournament with a match on its first board.
	must(s.CreateChallenge(ctx, NewChallenge(T0, T0.Add(time.Hour)), storage.MemberLimits{})).in(t)
	named := NewChallenge(T0, T0.Add(2*time.Hour))
	named.Opponent, named.ChannelID = storage.Player{UserID: "1003", Name: "Cy"}, "c2"
	must(s.CreateChallenge(ctx, named, storage.MemberLimits{})).in(t)
	must(s.PlaceSeek(ctx, NewSeek("1004", T0), game.Red)).in(t)
	lapsed := must(s.CreateChallenge(ctx, NewChallenge(T0, T0.Add(30*time.Minute)), storage.MemberLimits{})).in(t)
	must(s.ExpireChallenge(ctx, lapsed.ID, T0.Add(time.Hour))).in(t) // its notice holds it
	tt := must(s.CreateTournament(ctx, NewTournament("g1"), storage.TournamentLimits{})).in(t)
	tt = must(s.UpdateTournament(ctx, tt.ID, 0, joinAll("1001", "1002"))).in(t)
	tt = must(s.UpdateTournament(ctx, tt.ID, 0, pairNext(T0))).in(t)
	board := must(s.CreateMatch(ctx, NewMatch(game.VariantClassic))).in(t)
	must(s.UpdateTournament(ctx, tt.ID, 0, func(t *storage.Tournament) error {
		t.Games = append(t.Games, storage.TournamentGame{Round: 1, Board: 1, Match: board.ID})
		return nil
	})).in(t)

	// Players' and servers' settings, a vacation, revoked links.
	must(s.UpdatePlayer(ctx, "1001", func(p *storage.PlayerSettings) error {
		p.Locale, p.DMChannel, p.NoReminders = "nl", "dm1", true
		p.Setups = []storage.SavedSetup{{Name: "wall", Variant: game.VariantClassic, Setup: game.RandomSetup(game.DefaultRules(game.VariantClassic), 3), Saved: T0}}
		p.Defaults = map[game.Variant]string{game.VariantClassic: "wall"}
		return p.StartVacation(T0.Add(day), 5)
	})).in(t)
	must(s.RevokeLinks(ctx, "1002")).in(t)
	must(s.RevokeLinks(ctx, "1002")).in(t)
	ten := 10
	must(s.UpdateServer(ctx, "g1", func(srv *storage.ServerSettings) error { srv.VacationDays = &ten; return nil })).in(t)
	must(s.WebKey(ctx)).in(t)

	// Notices part sent, and one to be tried again later.
	due := must(s.DueNotices(ctx, T0.Add(1000*day), 0)).in(t)
	if len(due) < 2 {
		t.Fatalf("%d notices due, want at least 2", len(due))
	}
	must(struct{}{}, s.NoticeProgress(ctx, due[0].ID, 1)).in(t)
	must(s.NoticeRetry(ctx, due[1].ID, T0.Add(2*day))).in(t)
	must(s.Alive(ctx, T0.Add(3*time.Hour))).in(t)
	if !must(s.Lead(ctx, "timers", "source", T0, time.Hour)).in(t) {
		t.Fatal("the source's lease was refused")
	}
}

// FinishedMatches returns a Source of a database of n finished matches,
// each a copy of one Classic match of plies random moves a minute apart
// (fewer when it ends first), then resigned if still on, played on a
// scratch store made by open: the matches of a server that has run for
// months, for measuring a copy of them (strategobot copydb). The copies
// are made as they are sent, so that the Source holds one at a time; 500
// players in 50 channels play them.
func FinishedMatches(t testing.TB, open func() storage.Store, n, plies int) storage.Source {
	t.Helper()
	ctx := context.Background()
	s := open()
	defer s.Close()
	m := Started(t, s, NewMatch(game.VariantClassic), 1)
	m = Play(t, s, m, plies, rand.New(rand.NewPCG(3, 5)))
	if m.Phase.Active() {
		at := lastTime(m).Add(time.Minute)
		m = must(s.Act(ctx, m.ID, m.Version, storage.Action{Kind: storage.ActResign, Side: game.Blue, At: at})).in(t)
	}
	return func(ctx context.Context, to storage.Sink) error {
		if err := to.Meta(storage.Meta{Alive: lastTime(m), Sequences: storage.Sequences{Match: uint64(n)}}); err != nil {
			return err
		}
		for k := range n {
			c := m.Clone()
			c.ID = storage.MatchID(k + 1)
			c.ChannelID = fmt.Sprintf("c%d", k%50)
			c.Players[game.Red].UserID = fmt.Sprintf("%d", 1000+k%500)
			c.Players[game.Blue].UserID = fmt.Sprintf("%d", 1000+(k+1)%500)
			if err := to.Match(c); err != nil {
				return err
			}
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		return nil
	}
}

// errTargetFull is stopAt's refusal.
var errTargetFull = errors.New("no space left on device")

// stopAt is a Sink that refuses the first match, as a full target would.
type stopAt struct {
	storage.Dump
	meta, matches int
}

func (s *stopAt) Meta(m storage.Meta) error {
	s.meta++
	return s.Dump.Meta(m)
}

func (s *stopAt) Match(*storage.Match) error {
	s.matches++
	return errTargetFull
}
