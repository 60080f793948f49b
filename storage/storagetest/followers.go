package storagetest

import (
	"context"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// testFollowers: members follow and unfollow a match without changing it;
// their notices, recorded as the channel's are done, wait in a queue of their
// own each and go out in order.
func testFollowers(t *testing.T, s storage.Store) {
	ctx := context.Background()
	m := Started(t, s, NewMatch(game.VariantClassic), 7)
	other := Started(t, s, NewMatch(game.VariantBarrage), 8)
	version := m.Version

	steps := []struct {
		user string
		on   bool
		want []string
	}{
		{"2002", true, []string{"2002"}},
		{"2001", true, []string{"2001", "2002"}},
		{"2002", true, []string{"2001", "2002"}}, // following twice is following
		{"2002", false, []string{"2001"}},
		{"2003", false, []string{"2001"}}, // who never followed: nothing to undo
	}
	for _, st := range steps {
		if err := s.Follow(ctx, m.ID, st.user, st.on); err != nil {
			t.Fatalf("Follow(%s, %v): %v", st.user, st.on, err)
		}
		if got := must(s.Followers(ctx, m.ID)).in(t); !slices.Equal(got, st.want) {
			t.Errorf("after Follow(%s, %v): followers %v, want %v", st.user, st.on, got, st.want)
		}
	}
	if got := must(s.Followers(ctx, other.ID)).in(t); len(got) != 0 {
		t.Errorf("another match's followers: %v, want none", got)
	}
	if got := must(s.Match(ctx, m.ID)).in(t); got.Version != version {
		t.Errorf("following changed the match's version: %d, want %d (the players' menus would go stale)", got.Version, version)
	}
	wantErr(t, "following an unknown match", s.Follow(ctx, 999999, "2001", true), storage.ErrNotFound)
	wantErr(t, "a follower without a user id", s.Follow(ctx, m.ID, "", true), storage.ErrInvalid)

	// A follower's notices: recorded with the channel's notice done, each
	// follower in a queue of their own, in order; invalid ones refused.
	m = Play(t, s, m, 1, rand.New(rand.NewPCG(1, 2)))
	side, mv := RandomMove(t, m, rand.New(rand.NewPCG(3, 4)))
	at := lastTime(m).Add(time.Minute)
	m, _, err := s.ApplyMove(ctx, m.ID, m.Version, side, mv, at)
	if err != nil {
		t.Fatal(err)
	}
	followerNotice := func(user string, log int) storage.Notice {
		return storage.Notice{Match: m.ID, Event: storage.EventMove, To: storage.AudienceFollower, Follower: user, Log: log, At: at}
	}
	var public storage.Notice
	for _, n := range must(s.DueNotices(ctx, at, 0)).in(t) {
		if n.Match == m.ID && n.To == storage.AudiencePublic {
			public = n
		}
	}
	if public.ID == 0 {
		t.Fatal("no public notice for the move")
	}
	for _, bad := range []storage.Notice{
		{Match: m.ID, Event: storage.EventMove, To: storage.AudienceFollower, Log: len(m.Log), At: at},                     // nobody named
		{Match: m.ID, Event: storage.EventMove, To: storage.AudiencePublic, Follower: "2001", Log: len(m.Log), At: at},     // not a follower's
		{Match: m.ID, Event: storage.EventMove, To: storage.AudienceFollower, Follower: "2001", StartsClock: true, At: at}, // no clock
	} {
		wantErr(t, "an invalid follower's notice", s.NoticeDone(ctx, public.ID, at, bad), storage.ErrInvalid)
	}
	if err := s.NoticeDone(ctx, public.ID, at, followerNotice("2001", len(m.Log)-1), followerNotice("2001", len(m.Log)), followerNotice("2004", len(m.Log))); err != nil {
		t.Fatal(err)
	}
	var got []string
	for {
		due := must(s.DueNotices(ctx, at, 0)).in(t)
		if len(due) == 0 {
			break
		}
		for _, n := range due {
			if n.To == storage.AudienceFollower {
				got = append(got, n.Follower+"@"+strconv.Itoa(n.Log))
				if q := storage.NoticeQueue(&n); q != "m"+strconv.Itoa(int(m.ID))+"/follower/"+n.Follower {
					t.Errorf("a follower's queue: %q", q)
				}
			}
			if err := s.NoticeDone(ctx, n.ID, at); err != nil {
				t.Fatal(err)
			}
		}
	}
	want := []string{"2001@" + strconv.Itoa(len(m.Log)-1), "2004@" + strconv.Itoa(len(m.Log)), "2001@" + strconv.Itoa(len(m.Log))}
	if !sameWords(got, want) || slices.Index(got, want[0]) > slices.Index(got, want[2]) {
		t.Errorf("followers' notices delivered %v, want %v with 2001's in order", got, want)
	}
}
