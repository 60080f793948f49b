package bot

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// TestOpenChallengeAccepted: a challenge without an opponent pings nobody,
// its challenger cannot take it, and another member of the channel can.
func TestOpenChallengeAccepted(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	msg := h.alice.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("variant", "Classic"), discordtest.Opt("move_time", "1h")).Reply(t)
	if msg.Ephemeral || !strings.Contains(msg.Content, "open challenge") || !strings.Contains(msg.Content, "1 hour per move") {
		t.Fatalf("open challenge message %q", msg.Content)
	}
	if hasButton(msg, "Decline") {
		t.Error("an open challenge has a Decline button: nobody was challenged")
	}
	own := h.alice.ClickButton(t, msg, button(t, msg, "Accept")).Reply(t)
	if !own.Ephemeral || !strings.Contains(own.Content, "someone else must accept it") {
		t.Fatalf("the challenger's own accept: %q", own.Content)
	}
	got := h.carol.ClickButton(t, msg, button(t, msg, "Accept")).Reply(t)
	if !strings.Contains(got.Content, "Match #1") || !strings.Contains(got.Content, "carol") {
		t.Fatalf("accepted open challenge shows %q", got.Content)
	}
	m := h.match(1)
	if m.MoveTime != time.Hour || m.Players[0].UserID == m.Players[1].UserID {
		t.Fatalf("the match's terms: move time %s, players %v", m.MoveTime, m.Players)
	}
	for _, p := range m.Players {
		if p.UserID != h.alice.ID && p.UserID != h.carol.ID {
			t.Errorf("player %v is neither alice nor carol", p)
		}
	}
}

// TestOpenChallengeRace: 20 members press Accept at once; exactly one gets
// the match, and each of the others is told, in their language, that it was
// taken.
func TestOpenChallengeRace(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	msg := h.alice.SlashCommand(t, h.channel, "stratego challenge").Reply(t)
	if !strings.Contains(msg.Content, "open challenge") {
		t.Fatalf("open challenge message %q", msg.Content)
	}
	accept := button(t, msg, "Accept")
	var members []*discordtest.Member
	for k := range 20 {
		m := h.guild.AddMember(fmt.Sprintf("racer%d", k))
		if k%2 == 1 {
			m.SetLocale("nl")
		}
		members = append(members, m)
	}
	// All 20 press the button before any answer reaches Discord, as when
	// they press within the same moment: the answers, the winner's taking
	// the button away among them, are held until every press is in.
	hold := h.srv.HoldNext(t, "POST /interactions/{interaction_id}/{interaction_token}/callback", len(members))
	presses := make([]*discordtest.Interaction, len(members))
	var wg sync.WaitGroup
	for k, m := range members {
		wg.Add(1)
		go func() {
			defer wg.Done()
			presses[k] = m.ClickButton(t, msg, accept)
		}()
	}
	wg.Wait()
	hold.Release()
	replies := make([]*discordtest.Message, len(members))
	for k, press := range presses {
		if press == nil {
			t.Fatalf("racer%d could not press Accept", k)
		}
		replies[k] = press.Reply(t)
	}
	won := 0
	for k, r := range replies {
		switch {
		case strings.Contains(r.Content, "Match #1"):
			won++
		case !r.Ephemeral:
			t.Errorf("racer%d was told publicly: %q", k, r.Content)
		case k%2 == 0 && !strings.Contains(r.Content, "Someone else was quicker"):
			t.Errorf("racer%d was told %q", k, r.Content)
		case k%2 == 1 && !strings.Contains(r.Content, "Iemand anders was sneller"):
			t.Errorf("racer%d (Dutch) was told %q", k, r.Content)
		}
	}
	if won != 1 {
		t.Fatalf("%d members got the match, want 1", won)
	}
	if _, err := h.db.Match(context.Background(), 2); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("a second match exists: %v", err)
	}
}

// TestOpenChallengeRatingRange: only members whose rating is in range may
// accept, and the others are told their rating and the range.
func TestOpenChallengeRatingRange(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	named := h.alice.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("opponent", h.bob), discordtest.Opt("rating_min", 1400)).Reply(t)
	if !named.Ephemeral || !strings.Contains(named.Content, "are for open challenges") {
		t.Fatalf("a rating range on a named challenge: %q", named.Content)
	}
	empty := h.alice.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("rating_min", 1600), discordtest.Opt("rating_max", 1400)).Reply(t)
	if !empty.Ephemeral || !strings.Contains(empty.Content, "must not be above") {
		t.Fatalf("an empty range: %q", empty.Content)
	}
	high := h.alice.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("rating_min", 1600), discordtest.Opt("rating_max", 1800)).Reply(t)
	if !strings.Contains(high.Content, "Ratings 1600 to 1800") {
		t.Fatalf("the range is not shown: %q", high.Content)
	}
	refused := h.bob.ClickButton(t, high, button(t, high, "Accept")).Reply(t)
	if !refused.Ephemeral || !strings.Contains(refused.Content, "for ratings 1600–1800; your Classic rating here is 1500") {
		t.Fatalf("bob (1500) accepting a 1600–1800 challenge: %q", refused.Content)
	}
	low := h.alice.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("rating_max", 1550)).Reply(t)
	if got := h.bob.ClickButton(t, low, button(t, low, "Accept")).Reply(t); !strings.Contains(got.Content, "Match #") {
		t.Fatalf("bob (1500) accepting a challenge up to 1550: %q", got.Content)
	}
}

// TestOpenChallengeExpires: an open challenge expires like any other.
func TestOpenChallengeExpires(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	msg := h.alice.SlashCommand(t, h.channel, "stratego challenge").Reply(t)
	h.srv.WaitFor(t, "the challenge message to be recorded", func() bool {
		c, err := h.db.Challenge(context.Background(), 1)
		return err == nil && c.MessageID == msg.ID
	})
	h.advance(25 * time.Hour)
	h.srv.WaitFor(t, "the challenge to expire", func() bool {
		m := h.srv.Message(msg.ID)
		return strings.Contains(m.Content, "expired") && strings.Contains(m.Content, "challenged anyone") && len(m.Buttons()) == 0
	})
	if _, err := h.db.Challenge(context.Background(), 1); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("the expired challenge is still stored: %v", err)
	}
}

// TestOpenChallengeChallengerLeft: the member who posted an open challenge
// leaves the server before anyone accepts it. A member who presses Accept
// gets no match with someone who is gone: the challenge is withdrawn, and
// its message says so and what to do instead.
func TestOpenChallengeChallengerLeft(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	msg := h.alice.SlashCommand(t, h.channel, "stratego challenge").Reply(t)
	h.guild.RemoveMember(h.alice)
	got := h.bob.ClickButton(t, msg, button(t, msg, "Accept")).Reply(t)
	if !strings.Contains(got.Content, "alice left the server: this open challenge is withdrawn.") || !strings.Contains(got.Content, "/stratego challenge") {
		t.Errorf("accepting the open challenge of a member who left shows %q", got.Content)
	}
	if len(got.Buttons()) != 0 {
		t.Errorf("the withdrawn challenge keeps its buttons: %v", got.Buttons())
	}
	if ms, err := h.db.PlayerMatches(context.Background(), h.bob.ID, true, 0); err != nil || len(ms) != 0 {
		t.Errorf("bob has %d matches (%v), want none", len(ms), err)
	}
}

// originalRoute reads the first answer to an interaction.
const originalRoute = "GET /webhooks/{webhook_id}/{webhook_token}/messages/@original"

// TestChallengeMessageReadAgain: Discord fails the bot's read of its own
// answer, the challenge's message, once (a 503). The bot reads it again,
// and the message is known: it says so when the challenge expires, its
// buttons taken away. Before, the bot gave up at the first failure, and an
// open challenge's message kept its Accept button for good, which then
// told whoever pressed it that someone else had been quicker.
func TestChallengeMessageReadAgain(t *testing.T) {
	for _, tc := range []struct {
		name  string
		named bool // to bob; else open
		want  string
	}{
		{"open", false, "challenged anyone"},
		{"to a member", true, "challenged bob"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			var args []discordtest.Arg
			if tc.named {
				args = []discordtest.Arg{discordtest.Opt("opponent", h.bob)}
			}
			h.srv.FailNext(t, originalRoute, 1, http.StatusServiceUnavailable)
			msg := h.alice.SlashCommand(t, h.channel, "stratego challenge", args...).Reply(t)
			h.srv.WaitFor(t, "the challenge message to be recorded", func() bool {
				c, err := h.db.Challenge(context.Background(), 1)
				return err == nil && c.MessageID == msg.ID
			})
			h.advance(25 * time.Hour)
			h.srv.WaitFor(t, "the challenge to expire", func() bool {
				m := h.srv.Message(msg.ID)
				return strings.Contains(m.Content, "expired") && strings.Contains(m.Content, tc.want) && len(m.Buttons()) == 0
			})
		})
	}
}
