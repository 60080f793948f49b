package storagetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// NewPractice returns NewMatch with the computer (user "bot") as Blue, at
// level Normal, casual: a practice match of "1001".
func NewPractice(v game.Variant) *storage.Match {
	m := NewMatch(v)
	m.Casual, m.Computer = true, "normal"
	m.Players[game.Blue] = storage.Player{UserID: "bot", Name: "The computer"}
	return m
}

// challengeOf returns NewChallenge made by challenger to opponent ("":
// anyone), in guild.
func challengeOf(challenger, opponent, guild string) *storage.Challenge {
	c := NewChallenge(T0, T0.Add(time.Hour))
	c.GuildID = guild
	c.Challenger = storage.Player{UserID: challenger, Name: "P" + challenger}
	c.Opponent = storage.Player{UserID: opponent}
	if opponent != "" {
		c.Opponent.Name = "P" + opponent
	}
	return c
}

// refusedFor checks that err is a *MemberLimitError for want, and returns it.
func refusedFor(t *testing.T, what string, err, want error) *storage.MemberLimitError {
	t.Helper()
	var le *storage.MemberLimitError
	if !errors.As(err, &le) || !errors.Is(err, want) {
		t.Fatalf("%s: %v, want a *MemberLimitError for %v", what, err, want)
	}
	return le
}

// testMemberLimits: CreateChallenge keeps to the challenger's open
// challenges and to one challenge between two members, made by either;
// CreatePractice to the member's practice matches at once. A refusal
// stores nothing and says how many the member has; what is answered or
// over counts no more; zero limits bound nothing.
func testMemberLimits(t *testing.T, s storage.Store) {
	ctx := context.Background()
	limits := storage.MemberLimits{OpenChallenges: 3, OnePerPair: true, PracticeMatches: 2}
	create := func(c *storage.Challenge) (*storage.Challenge, error) { return s.CreateChallenge(ctx, c, limits) }

	ann1 := must(create(challengeOf("1001", "1002", "g1"))).in(t)
	// Between the same two, either way, while it is pending: refused,
	// naming it.
	for _, c := range []*storage.Challenge{challengeOf("1001", "1002", "g1"), challengeOf("1002", "1001", "g2")} {
		_, err := create(c)
		if le := refusedFor(t, "a second challenge between 1001 and 1002", err, storage.ErrChallengeExists); le.Challenge != ann1.ID {
			t.Errorf("the refusal names challenge %d, want %d", le.Challenge, ann1.ID)
		}
	}
	// Open challenges, and one received, are no pair's; a challenge
	// received does not count against the allowance.
	must(create(challengeOf("1003", "1001", "g1"))).in(t)
	must(create(challengeOf("1001", "", "g1"))).in(t)
	must(create(challengeOf("1001", "", "g2"))).in(t)
	_, err := create(challengeOf("1001", "1004", "g1"))
	if le := refusedFor(t, "a fourth challenge of 1001", err, storage.ErrTooManyChallenges); le.Open != 3 || le.Guild != "g2" {
		t.Errorf("the refusal: %d open, newest in %q; want 3, in g2", le.Open, le.Guild)
	}
	if got := must(s.PlayerChallenges(ctx, "1001")).in(t); len(got) != 4 {
		t.Errorf("1001 has %d challenges after the refusals, want 4 (3 made, 1 received)", len(got))
	}
	// Another member is not held back; no limits bound nothing.
	must(create(challengeOf("1004", "1005", "g1"))).in(t)
	must(s.CreateChallenge(ctx, challengeOf("1001", "1002", "g1"), storage.MemberLimits{})).in(t)
	// Once answered, a challenge counts no more.
	if _, err := s.DeleteChallenge(ctx, ann1.ID); err != nil {
		t.Fatal(err)
	}
	_, err = create(challengeOf("1001", "1004", "g1"))
	refusedFor(t, "a challenge of 1001 with 3 left", err, storage.ErrTooManyChallenges)
	for _, c := range must(s.PlayerChallenges(ctx, "1001")).in(t) {
		if c.Challenger.UserID == "1001" && c.Opponent.UserID == "1002" {
			if _, err := s.AcceptChallenge(ctx, c.ID, c.Opponent, game.Red, T0.Add(time.Minute)); err != nil {
				t.Fatal(err)
			}
		}
	}
	must(create(challengeOf("1001", "1002", "g1"))).in(t)

	// Practice matches: the member's, in set-up or under way.
	practice := func(m *storage.Match, member string) (*storage.Match, error) {
		return s.CreatePractice(ctx, m, member, limits)
	}
	first := must(practice(NewPractice(game.VariantClassic), "1001")).in(t)
	if first.ID == 0 || first.Version != 1 || !first.Practice() {
		t.Fatalf("the practice match stored: %+v", first)
	}
	Started(t, s, NewPractice(game.VariantBarrage), 3) // a second, by CreateMatch: counted all the same
	_, err = practice(NewPractice(game.VariantClassic), "1001")
	if le := refusedFor(t, "a third practice match", err, storage.ErrTooManyPractice); le.Open != 2 {
		t.Errorf("the refusal counts %d practice matches, want 2", le.Open)
	}
	// The computer's side has no limit of its own here, and neither a
	// match with people nor another member's practice counts.
	other := NewPractice(game.VariantClassic)
	other.Players[game.Red] = storage.Player{UserID: "1009", Name: "Ivy"}
	must(practice(other, "1009")).in(t)
	must(s.CreateMatch(ctx, NewMatch(game.VariantClassic))).in(t)
	if _, err := s.Abandon(ctx, first.ID, first.Version, T0.Add(time.Minute), storage.CallOffModerator); err != nil {
		t.Fatal(err)
	}
	must(practice(NewPractice(game.VariantClassic), "1001")).in(t)
	if got := must(s.PlayerMatches(ctx, "1001", true, 0)).in(t); len(got) != 4 {
		t.Errorf("1001 plays %d matches, want 4 (3 practice, 1 with people)", len(got))
	}
	// CreatePractice takes practice matches of their member alone.
	if _, err := practice(NewMatch(game.VariantClassic), "1001"); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("CreatePractice of a match with people: %v, want ErrInvalid", err)
	}
	if _, err := practice(NewPractice(game.VariantClassic), "1002"); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("CreatePractice for a member not playing it: %v, want ErrInvalid", err)
	}
}

// testMemberLimitsRaced: challenges and practice matches racing for one
// member's allowance, as commands that reach several processes at once
// (on PostgreSQL, TestConformanceTwoPools sends them through two stores):
// exactly as many are stored as the limits allow, the others refused.
func testMemberLimitsRaced(t *testing.T, s storage.Store) {
	ctx := context.Background()
	limits := storage.MemberLimits{OpenChallenges: 3, OnePerPair: true, PracticeMatches: 2}
	const racers = 12
	race := func(what string, try func(i int) error, want error) (made int) {
		t.Helper()
		var wg sync.WaitGroup
		errs := make([]error, racers)
		for i := range racers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = try(i)
			}()
		}
		wg.Wait()
		for _, err := range errs {
			switch {
			case err == nil:
				made++
			case errors.Is(err, want) && errors.As(err, new(*storage.MemberLimitError)):
			default:
				t.Fatalf("%s: %v", what, err)
			}
		}
		return made
	}
	// One challenger, each racer a challenge to another member.
	if made := race("challenges of one member", func(i int) error {
		_, err := s.CreateChallenge(ctx, challengeOf("1001", fmt.Sprint(2000+i), "g1"), limits)
		return err
	}, storage.ErrTooManyChallenges); made != 3 {
		t.Errorf("%d challenges of one member made, want 3", made)
	}
	// Two members challenging each other at once, either way.
	if made := race("challenges between two members", func(i int) error {
		me, them := "1101", "1102"
		if i%2 == 1 {
			me, them = them, me
		}
		_, err := s.CreateChallenge(ctx, challengeOf(me, them, "g1"), limits)
		return err
	}, storage.ErrChallengeExists); made != 1 {
		t.Errorf("%d challenges between two members made, want 1", made)
	}
	if got := must(s.PlayerChallenges(ctx, "1101")).in(t); len(got) != 1 {
		t.Errorf("%d challenges between 1101 and 1102 stored, want 1", len(got))
	}
	// One member's practice matches.
	if made := race("practice matches of one member", func(int) error {
		_, err := s.CreatePractice(ctx, NewPractice(game.VariantClassic), "1001", limits)
		return err
	}, storage.ErrTooManyPractice); made != 2 {
		t.Errorf("%d practice matches made, want 2", made)
	}
	if got := must(s.PlayerMatches(ctx, "1001", true, 0)).in(t); len(got) != 2 {
		t.Errorf("1001 plays %d matches, want 2", len(got))
	}
}
