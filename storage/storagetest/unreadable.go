package storagetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/tournament"
)

// Damage overwrites the stored record of tournament id with data, as a
// damaged disk, a hand edit, or a newer strategobot sharing the database
// would leave it; the record's indexes (its timer) stay as they were. A
// backend's own test gives it: the Store interface writes no such record.
type Damage func(t *testing.T, id storage.TournamentID, data []byte)

// UnreadableTournaments runs, on stores from open, the checks that a
// tournament record that cannot be read holds up no other: DueTournaments
// and ServerTournaments return every other tournament, in order, with an
// *storage.UnreadableError naming that one (errors.Is sees its cause);
// NextTournamentWake still reports its timer, and CreateTournament counts
// it among its server's tournaments not yet over.
func UnreadableTournaments(t *testing.T, open func(t *testing.T) (storage.Store, Damage)) {
	tests := []struct {
		name string
		data string
		want error
	}{
		{"damaged", `{"v":1,"id":2,"log":"not a log"}`, storage.ErrCorrupt},
		{"bad rules", `{"v":1,"id":2,"game":{"variant":"nonsense"}}`, storage.ErrCorrupt},
		{"newer", `{"v":99,"id":2}`, storage.ErrNewerSchema},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, damage := open(t)
			t.Cleanup(func() {
				if err := s.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			})
			ctx := context.Background()
			var ids []storage.TournamentID
			for _, guild := range []string{"g1", "g2", "g3", "g2"} {
				ids = append(ids, must(s.CreateTournament(ctx, NewTournament(guild), storage.TournamentLimits{})).in(t).ID)
			}
			// The fourth, of g2 too, is over.
			must(s.UpdateTournament(ctx, ids[3], 0, func(x *storage.Tournament) error { x.Done = true; return nil })).in(t)
			start := T0.Add(24 * time.Hour) // NewTournament's start
			damage(t, ids[1], []byte(tc.data))
			due, err := s.DueTournaments(ctx, start)
			var unread *storage.UnreadableError
			if !errors.As(err, &unread) {
				t.Fatalf("DueTournaments with tournament %d damaged: %v, want an *UnreadableError", ids[1], err)
			}
			if !slices.Equal(unread.IDs, []uint64{uint64(ids[1])}) || !errors.Is(err, tc.want) {
				t.Errorf("unreadable %v (%v), want tournament %d, %v", unread.IDs, err, ids[1], tc.want)
			}
			var got []storage.TournamentID
			for _, x := range due {
				got = append(got, x.ID)
			}
			if want := []storage.TournamentID{ids[0], ids[2]}; !slices.Equal(got, want) {
				t.Errorf("due with tournament %d damaged: %v, want the others %v", ids[1], got, want)
			}
			if at, ok, err := s.NextTournamentWake(ctx); !ok || err != nil || !at.Equal(start) {
				t.Errorf("next timer %v, %v, %v; want the start %v", at, ok, err, start)
			}
			// Before any is due, nothing is read, and nothing fails.
			if due, err := s.DueTournaments(ctx, start.Add(-time.Second)); len(due) != 0 || err != nil {
				t.Errorf("due before the start: %v, %v", due, err)
			}
			for _, all := range []bool{false, true} {
				list, err := s.ServerTournaments(ctx, "g2", all)
				if !errors.As(err, &unread) || !slices.Equal(unread.IDs, []uint64{uint64(ids[1])}) || !errors.Is(err, tc.want) {
					t.Errorf("ServerTournaments(all %v) with tournament %d damaged: %v, want an *UnreadableError naming it", all, ids[1], err)
				}
				var got []storage.TournamentID
				for _, x := range list {
					got = append(got, x.ID)
				}
				var want []storage.TournamentID
				if all {
					want = []storage.TournamentID{ids[3]}
				}
				if !slices.Equal(got, want) {
					t.Errorf("ServerTournaments(all %v) with tournament %d damaged: %v, want the others %v", all, ids[1], got, want)
				}
			}
			// The damaged one is not over: it counts for its server.
			limits := storage.TournamentLimits{PerServer: 2}
			if _, err := s.CreateTournament(ctx, NewTournament("g2"), limits); err != nil {
				t.Errorf("a second tournament of g2 beside the damaged one: %v", err)
			}
			var limit *storage.TournamentLimitError
			if _, err := s.CreateTournament(ctx, NewTournament("g2"), limits); !errors.As(err, &limit) || limit.Open != 2 {
				t.Errorf("a third tournament of g2, two allowed: %v, want a *TournamentLimitError of 2", err)
			}
		})
	}
}

// DamageSeek overwrites the stored record of user's seek in guild with
// data, as Damage does a tournament's.
type DamageSeek func(t *testing.T, guild, user string, data []byte)

// UnreadableSeeks runs, on stores from open, the checks that a seek whose
// record cannot be read holds up no other of its server's queue: Seeks
// returns the others with an *storage.UnreadableError naming its member;
// PlaceSeek passes over it, pairs the others and counts it for nothing;
// its member's next seek replaces it; DeleteSeek takes it out, with its
// error; and once it expired it is named no more (unreadableSeekExpires).
func UnreadableSeeks(t *testing.T, open func(t *testing.T) (storage.Store, DamageSeek)) {
	for _, data := range []string{`{"v":1,"player":"not a player"}`, `{"v":99}`} {
		t.Run(data+" expires", func(t *testing.T) {
			unreadableSeekExpires(t, open, data)
		})
		t.Run(data, func(t *testing.T) {
			s, damage := open(t)
			t.Cleanup(func() {
				if err := s.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			})
			ctx := context.Background()
			place := func(k *storage.Seek) storage.SeekOutcome {
				t.Helper()
				return must(s.PlaceSeek(ctx, k, game.Red)).in(t)
			}
			users := func(q []*storage.Seek) []string {
				var out []string
				for _, k := range q {
					out = append(out, k.Player.UserID)
				}
				return out
			}
			// 1001 and 1002 wait, each for another time.
			ann, bob := NewSeek("1001", T0), NewSeek("1002", T0.Add(time.Minute))
			bob.TimeClass, bob.MoveTime = "12h", 12*time.Hour
			place(ann)
			place(bob)
			damage(t, "g1", "1001", []byte(data))
			at := T0.Add(2 * time.Minute)
			q, err := s.Seeks(ctx, "g1", at)
			var unread *storage.UnreadableError
			if !errors.As(err, &unread) || !slices.Equal(unread.Keys, []string{"1001"}) {
				t.Errorf("Seeks with 1001's seek damaged: %v, want an *UnreadableError naming 1001", err)
			}
			if got := users(q); !slices.Equal(got, []string{"1002"}) {
				t.Errorf("the queue with 1001's seek damaged: %v, want the others", got)
			}
			// Another of 1001's terms passes it over and meets 1002's.
			cy := NewSeek("1003", at)
			cy.TimeClass, cy.MoveTime = "12h", 12*time.Hour
			if got := place(cy); got.Match == nil || got.Partner.Player.UserID != "1002" {
				t.Fatalf("1003's seek: %+v, want a match with 1002", got)
			}
			// 1001 seeks again: the new seek replaces the damaged one.
			again := NewSeek("1001", at.Add(time.Minute))
			if got := place(again); got.Match != nil || got.Seek == nil {
				t.Fatalf("1001's seek again: %+v, want it to wait", got)
			}
			if q, err := s.Seeks(ctx, "g1", at.Add(2*time.Minute)); err != nil || !slices.Equal(users(q), []string{"1001"}) {
				t.Errorf("the queue after 1001 sought again: %v, %v; want 1001's new seek alone", users(q), err)
			}
			// Damaged again, it can still be left.
			damage(t, "g1", "1001", []byte(data))
			if _, err := s.DeleteSeek(ctx, "g1", "1001"); err == nil {
				t.Errorf("DeleteSeek of a damaged seek: no error")
			}
			if q, err := s.Seeks(ctx, "g1", at.Add(2*time.Minute)); err != nil || len(q) != 0 {
				t.Errorf("the queue after 1001 left: %v, %v; want it empty", users(q), err)
			}
		})
	}
}

// unreadableSeekExpires: a seek whose record cannot be read (data) is
// named by Seeks until it expires, by the expiry it was stored with, and
// then no more, as the seeks that can be read are left out once expired;
// the server's next PlaceSeek drops it (DeleteSeek finds none). The others
// are listed. Before, bbolt named it for good: the bot logged an error at
// each list of that server's queue.
func unreadableSeekExpires(t *testing.T, open func(t *testing.T) (storage.Store, DamageSeek), data string) {
	s, damage := open(t)
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	ctx := context.Background()
	ann, bob := NewSeek("1001", T0), NewSeek("1002", T0.Add(time.Minute))
	bob.TimeClass, bob.MoveTime = "12h", 12*time.Hour
	bob.Expires = T0.Add(3 * time.Hour)
	for _, k := range []*storage.Seek{ann, bob} {
		if got := must(s.PlaceSeek(ctx, k, game.Red)).in(t); got.Match != nil {
			t.Fatalf("%s's seek made a match", k.Player.UserID)
		}
	}
	damage(t, "g1", "1001", []byte(data))
	check := func(at time.Time, named bool) {
		t.Helper()
		q, err := s.Seeks(ctx, "g1", at)
		var unread *storage.UnreadableError
		switch {
		case named && (!errors.As(err, &unread) || !slices.Equal(unread.Keys, []string{"1001"})):
			t.Errorf("Seeks at %v, before 1001's damaged seek expires: %v, want an *UnreadableError naming 1001", at, err)
		case !named && err != nil:
			t.Errorf("Seeks at %v, 1001's damaged seek expired: %v, want no error", at, err)
		}
		if len(q) != 1 || q[0].Player.UserID != "1002" {
			t.Errorf("Seeks at %v: %d seeks, want 1002's alone", at, len(q))
		}
	}
	check(ann.Expires.Add(-time.Second), true)
	check(ann.Expires, false)
	// Another member's seek, of other terms, after it expired.
	cy := NewSeek("1003", ann.Expires.Add(time.Minute))
	cy.TimeClass, cy.MoveTime = "72h", 72*time.Hour
	if got := must(s.PlaceSeek(ctx, cy, game.Red)).in(t); got.Match != nil {
		t.Fatalf("1003's seek made a match: %+v", got.Match)
	}
	if _, err := s.DeleteSeek(ctx, "g1", "1003"); err != nil {
		t.Fatal(err)
	}
	check(ann.Expires.Add(2*time.Minute), false)
	if _, err := s.DeleteSeek(ctx, "g1", "1001"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("DeleteSeek of 1001's damaged seek, expired, after another seek was placed: %v, want ErrNotFound (dropped)", err)
	}
}

// DamageNotice overwrites the stored record of notice id with data, as
// Damage does a tournament's.
type DamageNotice func(t *testing.T, id uint64, data []byte)

// UnreadableNotices runs, on stores from open, the checks that a notice
// whose record cannot be read holds up no other queue of the outbox:
// DueNotices returns every other due notice with an
// *storage.UnreadableError naming it, and, skipping it, none; NextNotice
// passes over it; a tournament's announcement that waits for it
// (unreadableNoticeWaitedFor) waits no longer than storage.WaitCap; and
// the notice before it in its queue is done all the same
// (unreadableNoticeBehind).
func UnreadableNotices(t *testing.T, open func(t *testing.T) (storage.Store, DamageNotice)) {
	for _, data := range []string{`{"v":1,"event":"no such event"}`, `{"v":99}`} {
		t.Run(data+" waited for", func(t *testing.T) {
			unreadableNoticeWaitedFor(t, open, data)
		})
		t.Run(data, func(t *testing.T) {
			s, damage := open(t)
			t.Cleanup(func() {
				if err := s.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			})
			ctx := context.Background()
			far := time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)
			for k := range 3 {
				m := NewMatch(game.VariantClassic)
				m.ChannelID = fmt.Sprintf("c%d", k+1)
				must(s.CreateMatch(ctx, m)).in(t)
			}
			ids := func(ns []storage.Notice) []uint64 {
				var out []uint64
				for _, n := range ns {
					out = append(out, n.ID)
				}
				return out
			}
			before := ids(must(s.DueNotices(ctx, far, 0)).in(t))
			if len(before) < 3 {
				t.Fatalf("three new matches owe %d notices due", len(before))
			}
			bad := before[1]
			damage(t, bad, []byte(data))
			due, err := s.DueNotices(ctx, far, 0)
			var unread *storage.UnreadableError
			if !errors.As(err, &unread) || !slices.Equal(unread.IDs, []uint64{bad}) {
				t.Fatalf("DueNotices with notice %d damaged: %v, want an *UnreadableError naming it", bad, err)
			}
			want := slices.DeleteFunc(slices.Clone(before), func(id uint64) bool { return id == bad })
			if got := ids(due); !slices.Equal(got, want) {
				t.Errorf("due with notice %d damaged: %v, want the others %v", bad, got, want)
			}
			if due, err := s.DueNotices(ctx, far, 0, bad); err != nil || !slices.Equal(ids(due), want) {
				t.Errorf("due, skipping the damaged one: %v, %v; want %v", ids(due), err, want)
			}
			// It counts in the limit, as it does in the lists of matches:
			// bbolt counted only those it could read, PostgreSQL's LIMIT
			// every row, and so they listed different notices.
			due, err = s.DueNotices(ctx, far, 2)
			if !errors.As(err, &unread) || !slices.Equal(unread.IDs, []uint64{bad}) {
				t.Errorf("DueNotices(limit 2) with notice %d damaged: %v, want an *UnreadableError naming it", bad, err)
			}
			if got := ids(due); !slices.Equal(got, before[:1]) {
				t.Errorf("due (limit 2) with notice %d damaged: %v, want %v: the damaged one counts in the limit", bad, got, before[:1])
			}
			if _, ok, err := s.NextNotice(ctx); !ok || err != nil {
				t.Errorf("NextNotice with notice %d damaged: %v, %v", bad, ok, err)
			}
		})
		t.Run(data+" behind", func(t *testing.T) {
			unreadableNoticeBehind(t, open, data)
		})
	}
}

// unreadableNoticeBehind: the second notice of a queue cannot be read
// (data). The first is done all the same, and the second then named as
// due and unreadable. Before, bbolt's NoticeDone failed at the second,
// which it reads to make it due: the bot could not record the first
// delivered, and held it to deliver again.
func unreadableNoticeBehind(t *testing.T, open func(t *testing.T) (storage.Store, DamageNotice), data string) {
	s, damage := open(t)
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	ctx := context.Background()
	must(s.CreateMatch(ctx, NewMatch(game.VariantClassic))).in(t)
	first := must(s.DueNotices(ctx, T0, 1)).in(t)
	if len(first) != 1 {
		t.Fatal("a new match owes nothing due")
	}
	head := first[0]
	// Two more of its queue, recorded as its outcome (a fallback's).
	more := storage.Notice{Match: head.Match, Event: head.Event, To: head.To, Player: head.Player, At: T0}
	if err := s.NoticeDone(ctx, head.ID, T0, more, more); err != nil {
		t.Fatal(err)
	}
	var q []storage.Notice
	for _, n := range must(s.DueNotices(ctx, T0, 0)).in(t) {
		if storage.NoticeQueue(&n) == storage.NoticeQueue(&head) {
			q = append(q, n)
		}
	}
	if len(q) != 1 {
		t.Fatalf("%d notices of the queue due, want its head", len(q))
	}
	bad := q[0].ID + 1 // the second, recorded with it
	damage(t, bad, []byte(data))
	if err := s.NoticeDone(ctx, q[0].ID, T0); err != nil {
		t.Fatalf("NoticeDone of notice %d, with the next of its queue damaged: %v", q[0].ID, err)
	}
	_, err := s.DueNotices(ctx, T0.Add(time.Minute), 0)
	var unread *storage.UnreadableError
	if !errors.As(err, &unread) || !slices.Equal(unread.IDs, []uint64{bad}) {
		t.Errorf("DueNotices after: %v, want an *UnreadableError naming notice %d", err, bad)
	}
}

// unreadableNoticeWaitedFor: the notice of a game's end to its channel
// cannot be read (data), and the bot holds it back until it is mended. The
// tournament's announcement of the game's result, which waits for it
// (Notice.After), waits no longer than storage.WaitCap from its time:
// DueNotices returns it then, and not a second before, and NextNotice
// offers it by then; the tournament's next announcement, in the same
// queue, follows it. Before, it waited for good, and every later
// announcement of the tournament with it.
func unreadableNoticeWaitedFor(t *testing.T, open func(t *testing.T) (storage.Store, DamageNotice), data string) {
	s, damage := open(t)
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	ctx := context.Background()
	tt := must(s.CreateTournament(ctx, NewTournament("g1"), storage.TournamentLimits{})).in(t)
	tt = must(s.UpdateTournament(ctx, tt.ID, 0, joinAll("1001", "1002"))).in(t)
	tt = must(s.UpdateTournament(ctx, tt.ID, 0, pairNext(T0))).in(t)
	m := Started(t, s, NewMatch(game.VariantClassic), 7)
	tt = must(s.UpdateTournament(ctx, tt.ID, 0, func(x *storage.Tournament) error {
		x.Games = append(x.Games, storage.TournamentGame{Round: 1, Board: 1, Match: m.ID})
		return nil
	})).in(t)
	owed(t, s, T0) // the pairing, the start
	at := T0.Add(time.Hour)
	m = must(s.Act(ctx, m.ID, m.Version, storage.Action{Kind: storage.ActResign, Side: game.Blue, At: at})).in(t)
	for _, e := range []tournament.Event{tournament.Record(1, 1, tournament.RedWon), tournament.CloseRound(1)} {
		must(s.UpdateTournament(ctx, tt.ID, 0, func(x *storage.Tournament) error {
			x.Changed = at
			x.Log = append(x.Log, e)
			return nil
		})).in(t)
	}
	var bad uint64
	for _, n := range must(s.DueNotices(ctx, at, 0)).in(t) {
		switch {
		case n.Tournament != 0:
			t.Fatalf("%s>%s due before the game's end was told", n.Event, n.To)
		case n.Match == m.ID && n.To == storage.AudiencePublic:
			bad = n.ID
		default:
			if err := s.NoticeDone(ctx, n.ID, at); err != nil {
				t.Fatal(err)
			}
		}
	}
	if bad == 0 {
		t.Fatal("the game's end owes its channel nothing")
	}
	damage(t, bad, []byte(data))
	end := at.Add(storage.WaitCap)
	if next, ok, err := s.NextNotice(ctx); err != nil || !ok || next.After(end) {
		t.Fatalf("the next notice at %v (%v, %v), want by %v, the end of the announcement's wait", next, ok, err, end)
	}
	if due := must(s.DueNotices(ctx, end.Add(-time.Second), 0, bad)).in(t); len(due) != 0 {
		t.Fatalf("%s>%s due before the end of its wait", due[0].Event, due[0].To)
	}
	var got []string
	for {
		due := must(s.DueNotices(ctx, end, 0, bad)).in(t)
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
	if want := []string{"round-result>public", "round-closed>public"}; !slices.Equal(got, want) {
		t.Errorf("due at the end of the wait %v, want %v", got, want)
	}
}

// DamageMatch overwrites the stored record of match id with data, as
// Damage does a tournament's.
type DamageMatch func(t *testing.T, id storage.MatchID, data []byte)

// UnreadableMatches runs, on stores from open, the checks that a match
// whose record cannot be read hides no other of its player's or channel's
// list: PlayerMatches and ChannelMatches return the others, newest first,
// with an *storage.UnreadableError naming it (counted in the limit).
func UnreadableMatches(t *testing.T, open func(t *testing.T) (storage.Store, DamageMatch)) {
	for _, data := range []string{`{"v":2,"id":2,"log":7}`, `{"v":99}`} {
		t.Run(data, func(t *testing.T) {
			s, damage := open(t)
			t.Cleanup(func() {
				if err := s.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			})
			ctx := context.Background()
			var ids []storage.MatchID
			for range 3 {
				ids = append(ids, must(s.CreateMatch(ctx, NewMatch(game.VariantClassic))).in(t).ID)
			}
			damage(t, ids[1], []byte(data))
			lists := []struct {
				name string
				list func(limit int) ([]*storage.Match, error)
			}{
				{"PlayerMatches", func(limit int) ([]*storage.Match, error) { return s.PlayerMatches(ctx, "1001", true, limit) }},
				{"ChannelMatches", func(limit int) ([]*storage.Match, error) { return s.ChannelMatches(ctx, "c1", true, limit) }},
			}
			for _, l := range lists {
				for _, limit := range []int{0, 2} {
					got, err := l.list(limit)
					var unread *storage.UnreadableError
					if !errors.As(err, &unread) || !slices.Equal(unread.IDs, []uint64{uint64(ids[1])}) {
						t.Errorf("%s(limit %d) with match %d damaged: %v, want an *UnreadableError naming it", l.name, limit, ids[1], err)
					}
					var gotIDs []storage.MatchID
					for _, m := range got {
						gotIDs = append(gotIDs, m.ID)
					}
					want := []storage.MatchID{ids[2], ids[0]}
					if limit == 2 {
						want = want[:1] // the damaged one counts in the limit
					}
					if !slices.Equal(gotIDs, want) {
						t.Errorf("%s(limit %d) with match %d damaged: %v, want the others %v", l.name, limit, ids[1], gotIDs, want)
					}
				}
			}
			// It may be a practice match: it counts against 1001's
			// allowance (the others are not practice matches).
			_, err := s.CreatePractice(ctx, NewPractice(game.VariantClassic), "1001", storage.MemberLimits{PracticeMatches: 1})
			if le := new(storage.MemberLimitError); !errors.As(err, &le) || !errors.Is(err, storage.ErrTooManyPractice) || le.Open != 1 {
				t.Errorf("CreatePractice with match %d damaged and 1 allowed: %v, want refused counting it", ids[1], err)
			}
			must(s.CreatePractice(ctx, NewPractice(game.VariantClassic), "1001", storage.MemberLimits{PracticeMatches: 2})).in(t)
		})
	}
}

// DamageChallenge overwrites the stored record of challenge id with data,
// as Damage does a tournament's.
type DamageChallenge func(t *testing.T, id storage.ChallengeID, data []byte)

// UnreadableChallenges runs, on stores from open, the checks that a
// challenge whose record cannot be read hides no other of its player's or
// channel's list: PlayerChallenges and ChannelChallenges return the
// others, oldest first, with an *storage.UnreadableError naming it
// (errors.Is sees its cause). Before, the list failed as a whole, and the
// bot's removal from a server withdrew none of that channel's challenges.
func UnreadableChallenges(t *testing.T, open func(t *testing.T) (storage.Store, DamageChallenge)) {
	tests := []struct {
		name string
		data string
		want error
	}{
		{"damaged", `{"v":1,"id":2,"rules":"not rules"}`, storage.ErrCorrupt},
		{"newer", `{"v":99,"id":2}`, storage.ErrNewerSchema},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, damage := open(t)
			t.Cleanup(func() {
				if err := s.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			})
			ctx := context.Background()
			var ids []storage.ChallengeID
			for _, opponent := range []string{"", "1002", "1003"} {
				c := NewChallenge(T0, T0.Add(time.Hour))
				c.Opponent = storage.Player{UserID: opponent}
				ids = append(ids, must(s.CreateChallenge(ctx, c, storage.MemberLimits{})).in(t).ID)
			}
			damage(t, ids[1], []byte(tc.data))
			lists := []struct {
				name string
				list func() ([]*storage.Challenge, error)
				want []storage.ChallengeID
			}{
				{"PlayerChallenges of the challenger", func() ([]*storage.Challenge, error) { return s.PlayerChallenges(ctx, "1001") }, []storage.ChallengeID{ids[0], ids[2]}},
				{"PlayerChallenges of its opponent", func() ([]*storage.Challenge, error) { return s.PlayerChallenges(ctx, "1002") }, nil},
				{"ChannelChallenges", func() ([]*storage.Challenge, error) { return s.ChannelChallenges(ctx, "c1") }, []storage.ChallengeID{ids[0], ids[2]}},
			}
			for _, l := range lists {
				got, err := l.list()
				var unread *storage.UnreadableError
				if !errors.As(err, &unread) || !slices.Equal(unread.IDs, []uint64{uint64(ids[1])}) || !errors.Is(err, tc.want) {
					t.Errorf("%s with challenge %d damaged: %v, want an *UnreadableError naming it, %v", l.name, ids[1], err, tc.want)
				}
				var gotIDs []storage.ChallengeID
				for _, c := range got {
					gotIDs = append(gotIDs, c.ID)
				}
				if !slices.Equal(gotIDs, l.want) {
					t.Errorf("%s with challenge %d damaged: %v, want the others %v", l.name, ids[1], gotIDs, l.want)
				}
			}
			// A list without it fails nothing.
			if got, err := s.PlayerChallenges(ctx, "1003"); err != nil || len(got) != 1 || got[0].ID != ids[2] {
				t.Errorf("PlayerChallenges of 1003: %v, %v; want challenge %d alone", got, err, ids[2])
			}
			// DeleteChallenge refuses it and changes nothing, as the
			// other changes of a challenge do: PostgreSQL deleted it,
			// then failed to read what it deleted, and returned that
			// error with the change made.
			if c, err := s.DeleteChallenge(ctx, ids[1]); !errors.Is(err, tc.want) || c != nil {
				t.Errorf("DeleteChallenge of damaged challenge %d: %v, %v; want %v", ids[1], c, err, tc.want)
			}
			var unread *storage.UnreadableError
			if _, err := s.ChannelChallenges(ctx, "c1"); !errors.As(err, &unread) || !slices.Equal(unread.IDs, []uint64{uint64(ids[1])}) {
				t.Errorf("ChannelChallenges after a refused DeleteChallenge of damaged challenge %d: %v, want it named still", ids[1], err)
			}
			if _, err := s.ExpireChallenge(ctx, ids[1], T0.Add(2*time.Hour)); !errors.Is(err, tc.want) {
				t.Errorf("ExpireChallenge of damaged challenge %d: %v; want %v", ids[1], err, tc.want)
			}
			if n := must(s.CountNotices(ctx)).in(t); n != 0 {
				t.Errorf("the outbox after a refused ExpireChallenge holds %d notices, want none", n)
			}
			if _, err := s.ChannelChallenges(ctx, "c1"); !errors.As(err, &unread) || !slices.Equal(unread.IDs, []uint64{uint64(ids[1])}) {
				t.Errorf("ChannelChallenges after a refused ExpireChallenge of damaged challenge %d: %v, want it named still", ids[1], err)
			}
			// It may be one 1001 made: it counts against the allowance,
			// beside the two 1001 made that can be read.
			limits := storage.MemberLimits{OpenChallenges: 3, OnePerPair: true}
			_, err := s.CreateChallenge(ctx, challengeOf("1001", "1004", "g1"), limits)
			if le := new(storage.MemberLimitError); !errors.As(err, &le) || !errors.Is(err, storage.ErrTooManyChallenges) || le.Open != 3 || le.Guild != "g1" {
				t.Errorf("CreateChallenge with challenge %d damaged and 3 allowed: %v, want refused counting it", ids[1], err)
			}
			limits.OpenChallenges = 4
			must(s.CreateChallenge(ctx, challengeOf("1001", "1004", "g1"), limits)).in(t)
		})
	}
}
