package bot

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// TestSeeksPair: seeks of another time wait; the second seek of the same
// game pairs both at once, in its channel, pinging the first seeker, who
// is sent the set-up invitation; the queue shows who waits, with a Leave
// button only for a member in it.
func TestSeeksPair(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	waiting := h.alice.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "24h"), discordtest.Opt("rating_max", 1600)).Reply(t)
	if !waiting.Ephemeral || !strings.Contains(waiting.Content, "You are in the queue for Classic · 1 day per move. Ratings up to 1600.") || !hasButton(waiting, "Leave the queue") {
		t.Fatalf("the first seek answered %q", waiting.Content)
	}
	if got := h.bob.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "10+5")).Reply(t); !got.Ephemeral || !strings.Contains(got.Content, "clock 10+5") {
		t.Fatalf("bob's seek of another time answered %q", got.Content)
	}
	list := h.carol.SlashCommand(t, h.channel, "stratego seeks").Reply(t)
	if !list.Ephemeral || !strings.Contains(list.Content, "(2):") || !strings.Contains(list.Content, "alice (1500): Classic · 1 day per move. Ratings up to 1600. Expires <t:") ||
		!strings.Contains(list.Content, "bob (1500): Classic · clock 10+5 (10 minutes each, 5 s more a move). Expires <t:") || hasButton(list, "Leave the queue") {
		t.Fatalf("the queue, as carol sees it: %q", list.Content)
	}
	other := h.guild.AddChannel("games")
	paired := h.carol.SlashCommand(t, other, "stratego seek", discordtest.Opt("time", "24h")).Reply(t)
	if paired.Ephemeral || !strings.Contains(paired.Content, "<@"+h.alice.ID+"> and <@"+h.carol.ID+">: the queue paired you.") || !strings.Contains(paired.Content, "Match #1") {
		t.Fatalf("the pairing seek answered %q", paired.Content)
	}
	m := h.match(1)
	if m.ChannelID != other.ID || m.MoveTime != 24*time.Hour {
		t.Fatalf("the match is in channel %s with %s a move, want %s and a day", m.ChannelID, m.MoveTime, other.ID)
	}
	if ids := [2]string{m.Players[game.Red].UserID, m.Players[game.Blue].UserID}; ids != [2]string{h.alice.ID, h.carol.ID} && ids != [2]string{h.carol.ID, h.alice.ID} {
		t.Fatalf("the match's players %v", ids)
	}
	h.alice.WaitDM(t, contains("Send me your secret set-up"))
	if got := h.alice.SlashCommand(t, h.channel, "stratego seeks").Reply(t); !strings.Contains(got.Content, "(1):") || strings.Contains(got.Content, "alice") {
		t.Fatalf("the queue after the pairing: %q", got.Content)
	}
}

// TestSeekLeaveAndReplace: a member's second seek replaces the first; the
// Leave button takes them out of the queue.
func TestSeekLeaveAndReplace(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.alice.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "24h")).Reply(t)
	again := h.alice.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "72h"), discordtest.Opt("variant", "Barrage")).Reply(t)
	if !strings.Contains(again.Content, "Your earlier seek (Classic · 1 day per move) is replaced.") {
		t.Fatalf("the second seek answered %q", again.Content)
	}
	list := h.alice.SlashCommand(t, h.channel, "stratego seeks").Reply(t)
	if !strings.Contains(list.Content, "(1):") || !strings.Contains(list.Content, "3 days per move") {
		t.Fatalf("the queue: %q", list.Content)
	}
	left := h.alice.ClickButton(t, list, button(t, list, "Leave the queue")).Reply(t)
	if !strings.Contains(left.Content, "You left the queue.") {
		t.Fatalf("leaving answered %q", left.Content)
	}
	if got := h.bob.SlashCommand(t, h.channel, "stratego seeks").Reply(t); !strings.Contains(got.Content, "Nobody is in the queue") {
		t.Fatalf("the queue after leaving: %q", got.Content)
	}
	// The button of the first answer now says so.
	if got := h.alice.ClickButton(t, again, button(t, again, "Leave the queue")).Reply(t); !strings.Contains(got.Content, "You are not in the queue") {
		t.Fatalf("leaving twice answered %q", got.Content)
	}
}

// TestSeekExpiry: a seek on a clock waits an hour, one with a time per move
// a day, or what the server set; an expired seek pairs with nobody.
func TestSeekExpiry(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.alice.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "10+5")).Reply(t)
	h.bob.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "24h")).Reply(t)
	h.advance(time.Hour + time.Minute)
	list := h.carol.SlashCommand(t, h.channel, "stratego seeks").Reply(t)
	if !strings.Contains(list.Content, "(1):") || !strings.Contains(list.Content, "bob") {
		t.Fatalf("the queue after an hour: %q", list.Content)
	}
	if got := h.carol.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "10+5")).Reply(t); !got.Ephemeral || strings.Contains(got.Content, "the queue paired you") {
		t.Fatalf("a seek paired with an expired one: %q", got.Content)
	}
	h.advance(23 * time.Hour)
	if got := h.carol.SlashCommand(t, h.channel, "stratego seeks").Reply(t); !strings.Contains(got.Content, "Nobody is in the queue") {
		t.Fatalf("the queue after a day: %q", got.Content)
	}
	// The server lets seeks wait 3 hours.
	moderator(h)
	set := h.carol.SlashCommand(t, h.channel, "stratego server", discordtest.Opt("seek_hours", 3)).Reply(t)
	if !strings.Contains(set.Content, "seeks wait 3 hours") {
		t.Fatalf("the server setting answered %q", set.Content)
	}
	h.alice.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "10+5")).Reply(t)
	h.advance(2 * time.Hour)
	if got := h.bob.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "10+5")).Reply(t); !strings.Contains(got.Content, "the queue paired you") {
		t.Fatalf("a seek within the server's 3 hours: %q", got.Content)
	}
}

// TestSeekSurvivesRestart: the queue is in storage; a seek made before a
// restart pairs with one made after it.
func TestSeekSurvivesRestart(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.alice.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "12h")).Reply(t)
	h.shutdown()
	h.start()
	if got := h.bob.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "12h")).Reply(t); !strings.Contains(got.Content, "the queue paired you") {
		t.Fatalf("the seek after the restart answered %q", got.Content)
	}
}

// TestSeekRatingRange: seeks pair only when each is inside the other's range.
func TestSeekRatingRange(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.alice.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "24h"), discordtest.Opt("rating_min", 1600)).Reply(t)
	if got := h.bob.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "24h")).Reply(t); strings.Contains(got.Content, "the queue paired you") {
		t.Fatalf("bob (1500) paired with a seek from 1600: %q", got.Content)
	}
	if got := h.carol.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "24h"), discordtest.Opt("rating_max", 1400)).Reply(t); strings.Contains(got.Content, "the queue paired you") {
		t.Fatalf("carol, seeking up to 1400, paired with a 1500: %q", got.Content)
	}
	dave := h.guild.AddMember("dave")
	if got := dave.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "24h")).Reply(t); !strings.Contains(got.Content, "<@"+h.bob.ID+"> and <@"+dave.ID+">") {
		t.Fatalf("dave's seek answered %q", got.Content)
	}
}

// TestSeekPartnerLeft: a waiting seeker who left the server is dropped from
// the queue when a seek would pair with them, and the seek pairs with the
// next compatible one or waits; when Discord does not say in time whether
// the seeker left, or fails, they count as still a member.
func TestSeekPartnerLeft(t *testing.T) {
	tests := []struct {
		name   string
		left   []string // of alice and bob, who seek first, in that order
		fault  func(h *harness)
		paired string // whom carol's seek pairs with; "" when it waits
	}{
		{"the oldest seeker left", []string{"alice"}, nil, "bob"},
		{"both left", []string{"alice", "bob"}, nil, ""},
		{"still members", nil, nil, "alice"},
		{"Discord fails to say", []string{"alice"}, func(h *harness) { h.srv.FailNext(t, memberRoute, 1, 500) }, "alice"},
		{"Discord answers too late", []string{"alice"}, func(h *harness) { h.srv.DelayNext(t, memberRoute, 1, 4*time.Second) }, "alice"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			members := map[string]*discordtest.Member{"alice": h.alice, "bob": h.bob}
			// alice (from 1450) and bob (1400) both wait: each is out of
			// the other's range, and carol (1500) is in both.
			h.alice.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "24h"), discordtest.Opt("rating_min", 1450)).Reply(t)
			queue, err := h.db.Seeks(context.Background(), h.guild.ID, h.clock.Now())
			if err != nil || len(queue) != 1 {
				t.Fatalf("the queue after alice's seek: %v, %v", queue, err)
			}
			bob := *queue[0]
			bob.Player = storage.Player{UserID: h.bob.ID, Name: "bob"}
			bob.Rating, bob.RatingMin = 1400, 0
			bob.Created = bob.Created.Add(time.Second)
			if out, err := h.db.PlaceSeek(context.Background(), &bob, game.Red); err != nil || out.Seek == nil {
				t.Fatalf("bob's seek: %+v, %v", out, err)
			}
			for _, name := range tc.left {
				h.guild.RemoveMember(members[name])
			}
			if tc.fault != nil {
				tc.fault(h)
			}
			got := h.carol.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "24h")).Reply(t)
			if tc.paired == "" {
				if !got.Ephemeral || !strings.Contains(got.Content, "You are in the queue") {
					t.Fatalf("carol's seek answered %q, want her waiting", got.Content)
				}
				if list := h.carol.SlashCommand(t, h.channel, "stratego seeks").Reply(t); !strings.Contains(list.Content, "(1):") || !strings.Contains(list.Content, "carol") {
					t.Fatalf("the queue after both seekers left: %q", list.Content)
				}
				return
			}
			want := "<@" + members[tc.paired].ID + "> and <@" + h.carol.ID + ">: the queue paired you."
			if got.Ephemeral || !strings.Contains(got.Content, want) {
				t.Fatalf("carol's seek answered %q, want %q", got.Content, want)
			}
		})
	}
}

// TestSeekPairsWhereBothSee: the queue's match is played where both
// seekers can see it: the second seek's channel when the first seeker can
// see it; else the first seek's, when the second seeker can see that (they
// are told privately where, and both are pinged there, by the outbox);
// else the two are not paired and both wait.
func TestSeekPairsWhereBothSee(t *testing.T) {
	view := int64(discordgo.PermissionViewChannel)
	for _, tc := range []struct {
		name                 string
		aliceSees, carolSees bool   // the other's channel
		match                string // whose channel the match is in; "" when not paired
	}{
		{"each sees the other's channel", true, true, "carol"},
		{"alice cannot see carol's channel", false, true, "alice"},
		{"carol cannot see alice's channel", true, false, "carol"},
		{"neither sees the other's channel", false, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			aliceCh, carolCh := h.guild.AddChannel("alice-corner"), h.guild.AddChannel("carol-corner")
			// A channel the other cannot see is private: its member and the bot only.
			private := func(ch *discordtest.Channel, m *discordtest.Member) {
				ch.SetOverwrite(h.guild.Everyone(), 0, view)
				ch.SetOverwrite(m, view, 0)
				ch.SetOverwrite(h.srv.Bot(), view|discordgo.PermissionSendMessages|discordgo.PermissionAttachFiles|discordgo.PermissionCreatePublicThreads, 0)
				overwritesKnown(h, ch, 3)
			}
			if !tc.aliceSees {
				private(carolCh, h.carol)
			}
			if !tc.carolSees {
				private(aliceCh, h.alice)
			}
			h.alice.SlashCommand(t, aliceCh, "stratego seek", discordtest.Opt("time", "24h")).Reply(t)
			got := h.carol.SlashCommand(t, carolCh, "stratego seek", discordtest.Opt("time", "24h")).Reply(t)
			pinged := "<@" + h.alice.ID + "> and <@" + h.carol.ID + ">: the queue paired you."
			switch tc.match {
			case "":
				if !got.Ephemeral || !strings.Contains(got.Content, "You are in the queue") {
					t.Fatalf("carol's seek answered %q, want her waiting", got.Content)
				}
				if list := h.carol.SlashCommand(t, carolCh, "stratego seeks").Reply(t); !strings.Contains(list.Content, "(2):") {
					t.Fatalf("the queue: %q, want both waiting", list.Content)
				}
				return
			case "carol":
				if got.Ephemeral || !strings.Contains(got.Content, pinged) || h.match(1).ChannelID != carolCh.ID {
					t.Fatalf("carol's seek answered %q; the match is in %s, want carol's channel", got.Content, h.match(1).ChannelID)
				}
			case "alice":
				want := "The queue paired you with alice: Match #1 is played in <#" + aliceCh.ID + ">"
				if !got.Ephemeral || !strings.Contains(got.Content, want) {
					t.Fatalf("carol's seek answered %q, want %q", got.Content, want)
				}
				if m := h.match(1); m.ChannelID != aliceCh.ID {
					t.Fatalf("the match is in %s, want alice's channel %s", m.ChannelID, aliceCh.ID)
				}
				h.srv.WaitFor(t, "the match announced in alice's channel", func() bool {
					for _, msg := range h.srv.ChannelMessages(aliceCh) {
						if seekPairing(msg, h.alice, h.carol) {
							return true
						}
					}
					return false
				})
				if n := len(h.srv.ChannelMessages(carolCh)); n != 0 {
					t.Errorf("carol's channel, which alice cannot see, got %d messages", n)
				}
			}
			h.alice.WaitDM(t, contains("Send me your secret set-up"))
			h.carol.WaitDM(t, contains("Send me your secret set-up"))
		})
	}
}

// TestSeekServerDefaults: a seek that names no variant seeks the server's
// default one, as a challenge does; a seek waits with the rules the server
// had when it was made, and pairs only with one of the same rules, so that
// nobody plays rules their seek did not show.
func TestSeekServerDefaults(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	moderator(h)
	h.carol.SlashCommand(t, h.channel, "stratego server", discordtest.Opt("variant", "Barrage")).Reply(t)
	if got := h.alice.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "24h")).Reply(t); !strings.Contains(got.Content, "You are in the queue for Barrage · 1 day per move.") {
		t.Fatalf("a seek with the server's default variant Barrage answered %q", got.Content)
	}
	h.carol.SlashCommand(t, h.channel, "stratego server", discordtest.Opt("two_squares", 5)).Reply(t)
	if got := h.bob.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "24h")).Reply(t); strings.Contains(got.Content, "the queue paired you") ||
		!strings.Contains(got.Content, "You are in the queue for Barrage · 1 day per move · Two-Squares 5.") {
		t.Fatalf("a seek made under Two-Squares 5 answered %q", got.Content)
	}
	list := h.carol.SlashCommand(t, h.channel, "stratego seeks").Reply(t)
	if !strings.Contains(list.Content, "alice (1500): Barrage · 1 day per move. Expires") || !strings.Contains(list.Content, "bob (1500): Barrage · 1 day per move · Two-Squares 5. Expires") {
		t.Fatalf("the queue: %q", list.Content)
	}
	dave := h.guild.AddMember("dave")
	if got := dave.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "24h"), discordtest.Opt("variant", "Barrage")).Reply(t); !strings.Contains(got.Content, "<@"+h.bob.ID+"> and <@"+dave.ID+">") {
		t.Fatalf("dave's seek, under the server's rules of now, answered %q", got.Content)
	}
	if m := h.match(1); m.Rules.Variant != game.VariantBarrage || m.Rules.TwoSquares != 5 {
		t.Fatalf("the match's rules %+v", m.Rules)
	}
}

// TestLeaderboardServerDefault: the leaderboard that names no variant is
// the server's default variant's, as a challenge or a seek that names none
// plays it.
func TestLeaderboardServerDefault(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	moderator(h)
	if got := h.alice.SlashCommand(t, h.channel, "stratego leaderboard").Reply(t); !strings.Contains(got.Content, "No rated Classic games") {
		t.Fatalf("the leaderboard of a server with no default: %q", got.Content)
	}
	h.carol.SlashCommand(t, h.channel, "stratego server", discordtest.Opt("variant", "Barrage")).Reply(t)
	if got := h.alice.SlashCommand(t, h.channel, "stratego leaderboard").Reply(t); !strings.Contains(got.Content, "No rated Barrage games") {
		t.Fatalf("the leaderboard of a Barrage server: %q", got.Content)
	}
}

// TestUnreadableSeekHoldsUpNoOther: alice's seek cannot be read (damaged,
// or written by a newer strategobot). The queue shows bob's; carol's seek
// of bob's time pairs with his; alice's next seek replaces the bad one,
// and she can leave the queue. Before, each failed at the bad record: the
// server's queue was out of use until the record was mended.
func TestUnreadableSeekHoldsUpNoOther(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.alice.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "24h")).Reply(t)
	h.bob.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "10+5")).Reply(t)
	h.shutdown()
	h.putRecordKey("seeks", []byte(h.guild.ID+"\x00"+h.alice.ID), `{"v":99}`)
	h.start()
	if list := h.carol.SlashCommand(t, h.channel, "stratego seeks").Reply(t); !strings.Contains(list.Content, "(1):") || !strings.Contains(list.Content, "bob (1500): Classic · clock 10+5") {
		t.Fatalf("the queue, alice's seek damaged: %q", list.Content)
	}
	if paired := h.carol.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "10+5")).Reply(t); !strings.Contains(paired.Content, "the queue paired you") {
		t.Fatalf("carol's seek of bob's time answered %q", paired.Content)
	}
	again := h.alice.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "24h")).Reply(t)
	if !strings.Contains(again.Content, "You are in the queue for Classic · 1 day per move.") {
		t.Fatalf("alice's seek again answered %q", again.Content)
	}
	list := h.alice.SlashCommand(t, h.channel, "stratego seeks").Reply(t)
	if !strings.Contains(list.Content, "(1):") || !strings.Contains(list.Content, "alice (1500)") {
		t.Fatalf("the queue after alice sought again: %q", list.Content)
	}
	h.shutdown()
	h.putRecordKey("seeks", []byte(h.guild.ID+"\x00"+h.alice.ID), `{"v":99}`)
	h.start()
	if left := h.alice.ClickButton(t, again, button(t, again, "Leave the queue")).Reply(t); !strings.Contains(left.Content, "You left the queue.") {
		t.Fatalf("leaving, her seek damaged, answered %q", left.Content)
	}
	if got := h.bob.SlashCommand(t, h.channel, "stratego seeks").Reply(t); !strings.Contains(got.Content, "Nobody is in the queue") {
		t.Fatalf("the queue after alice left: %q", got.Content)
	}
}

// TestSeekRatingIsTheMembersNow: bob's seek waits while he wins a rated
// game. The queue lists him at his rating now, as /stratego stats shows
// it, and a seek up to 1600 is not paired with him; one of any rating is.
// Before, his seek kept the 1500 of when he made it, in the list and in
// the pairing.
func TestSeekRatingIsTheMembersNow(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.bob.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "24h")).Reply(t)
	h.startClassic()
	ask := h.alice.SlashCommand(t, h.channel, "stratego resign").Reply(t)
	h.alice.ClickButton(t, ask, button(t, ask, "Resign")).Updated(t)
	h.bob.WaitDM(t, contains("You won: alice resigned."))
	st, err := h.db.Standing(context.Background(), h.guild.ID, game.VariantClassic, h.bob.ID)
	if err != nil || roundedRating(st.Rating) <= 1600 {
		t.Fatalf("bob's standing after his win: %+v, %v", st, err)
	}
	rating := strconv.Itoa(roundedRating(st.Rating))
	if list := h.carol.SlashCommand(t, h.channel, "stratego seeks").Reply(t); !strings.Contains(list.Content, "bob ("+rating+"): Classic · 1 day per move") {
		t.Fatalf("the queue after bob's win (%s): %q", rating, list.Content)
	}
	if got := h.carol.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "24h"), discordtest.Opt("rating_max", 1600)).Reply(t); !got.Ephemeral || strings.Contains(got.Content, "the queue paired you") {
		t.Fatalf("carol's seek up to 1600, bob at %s, answered %q", rating, got.Content)
	}
	dave := h.guild.AddMember("dave")
	if got := dave.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "24h")).Reply(t); !strings.Contains(got.Content, "<@"+h.bob.ID+"> and <@"+dave.ID+">") {
		t.Fatalf("dave's seek answered %q", got.Content)
	}
}

// TestSeeksOfTheSameMomentPair: alice's seek is placed in bob's channel
// while the bot is still looking, for bob's seek there, at the queue as it
// was (it asks Discord about carol, who waits in a channel neither sees).
// The two seeks are of the same game in the same channel: they pair there.
// Before, bob's seek paired only with a seek the bot had looked at, so
// both waited side by side, each compatible with the other, until a third
// member came.
func TestSeeksOfTheSameMomentPair(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	view := int64(discordgo.PermissionViewChannel)
	carolCh := h.guild.AddChannel("carol-corner")
	carolCh.SetOverwrite(h.guild.Everyone(), 0, view)
	carolCh.SetOverwrite(h.carol, view, 0)
	carolCh.SetOverwrite(h.srv.Bot(), view|discordgo.PermissionSendMessages|discordgo.PermissionAttachFiles|discordgo.PermissionCreatePublicThreads, 0)
	overwritesKnown(h, carolCh, 3)
	h.channel.SetOverwrite(h.carol, 0, view)
	overwritesKnown(h, h.channel, 1)
	h.carol.SlashCommand(t, carolCh, "stratego seek", discordtest.Opt("time", "24h")).Reply(t)

	hold := h.srv.HoldNext(t, memberRoute, 1)
	bob := h.bob.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "24h"))
	h.srv.WaitFor(t, "the bot to ask about carol", func() bool { return hold.Waiting() == 1 })
	// alice's seek, of the same moment, handled meanwhile (by another
	// process of the bot, say).
	now := h.clock.Now()
	alice := &storage.Seek{GuildID: h.guild.ID, ChannelID: h.channel.ID, Player: storage.Player{UserID: h.alice.ID, Name: "alice"},
		TimeClass: "24h", Rules: game.DefaultRules(game.VariantClassic), MoveTime: 24 * time.Hour, Rating: 1500,
		Created: now, Expires: now.Add(24 * time.Hour), Meets: map[string]string{}} // as the bot judged carol's for her
	if out, err := h.db.PlaceSeek(context.Background(), alice, game.Red); err != nil || out.Seek == nil {
		t.Fatalf("alice's seek: %+v, %v", out, err)
	}
	hold.Release()
	got := bob.Reply(t)
	if want := "<@" + h.alice.ID + "> and <@" + h.bob.ID + ">: the queue paired you."; got.Ephemeral || !strings.Contains(got.Content, want) {
		t.Fatalf("bob's seek answered %q, want %q", got.Content, want)
	}
	if m := h.match(1); m.ChannelID != h.channel.ID {
		t.Errorf("the match is in %s, want bob's channel %s", m.ChannelID, h.channel.ID)
	}
	if list := h.carol.SlashCommand(t, carolCh, "stratego seeks").Reply(t); !strings.Contains(list.Content, "(1):") || !strings.Contains(list.Content, "carol") {
		t.Errorf("the queue: %q, want carol alone", list.Content)
	}
}

// TestSeekPairedAtOnceSaysItsEarlierIsReplaced: alice waits for a game of
// a day a move, then seeks 10+5, which pairs her at once with bob. Her
// first seek is gone (one seek a member and server), and she is told so
// privately, as a seek that waits says it: before, only a seek that waited
// said so, and she was left thinking her day-a-move seek still waited.
func TestSeekPairedAtOnceSaysItsEarlierIsReplaced(t *testing.T) {
	view := int64(discordgo.PermissionViewChannel)
	const replaced = "Your earlier seek (Classic · 1 day per move) is replaced."
	for _, tc := range []struct {
		name      string
		elsewhere bool // bob waits in a channel of his own, and cannot see alice's
	}{
		{"paired in alice's channel", false},
		{"paired in bob's channel", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			bobCh := h.channel
			if tc.elsewhere {
				bobCh = h.guild.AddChannel("bob-corner")
				h.channel.SetOverwrite(h.bob, 0, view)
				overwritesKnown(h, h.channel, 1)
			}
			h.alice.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "24h")).Reply(t)
			h.bob.SlashCommand(t, bobCh, "stratego seek", discordtest.Opt("time", "10+5")).Reply(t)
			in := h.alice.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "10+5"))
			got := in.Reply(t)
			if tc.elsewhere {
				if !got.Ephemeral || !strings.Contains(got.Content, "The queue paired you with bob") || !strings.Contains(got.Content, replaced) {
					t.Fatalf("alice's seek answered %q, want %q", got.Content, replaced)
				}
			} else {
				if got.Ephemeral || !strings.Contains(got.Content, "the queue paired you") || strings.Contains(got.Content, "replaced") {
					t.Fatalf("alice's seek answered %q", got.Content)
				}
				if f := h.followUp(in); !f.Ephemeral || !strings.Contains(f.Content, replaced) {
					t.Fatalf("alice's follow-up %q (ephemeral %v), want %q", f.Content, f.Ephemeral, replaced)
				}
			}
			if list := h.carol.SlashCommand(t, h.channel, "stratego seeks").Reply(t); !strings.Contains(list.Content, "Nobody is in the queue") {
				t.Errorf("the queue after the pairing: %q", list.Content)
			}
		})
	}
}

// TestSeekMatchMessageReadAgain: Discord fails the bot's read of the
// answer that announces the queue's match, once (a 503). The bot reads it
// again, and the announcement is the match's message, kept up to date as
// the match goes on (and its thread starts from it, where the server plays
// in threads). Before, the bot gave up at the first failure.
func TestSeekMatchMessageReadAgain(t *testing.T) {
	for _, mode := range []string{"live", "thread"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			boardMode(t, mode)(h)
			h.alice.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "24h")).Reply(t)
			h.srv.FailNext(t, originalRoute, 1, http.StatusServiceUnavailable)
			got := h.bob.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "24h")).Reply(t)
			if !strings.Contains(got.Content, "the queue paired you") {
				t.Fatalf("bob's seek answered %q", got.Content)
			}
			h.srv.WaitFor(t, "the announcement to be the match's message", func() bool {
				m, err := h.db.Match(context.Background(), 1)
				return err == nil && m.LiveMessage == got.ID && (mode != "thread" || m.ThreadID != "")
			})
		})
	}
}

// TestSeekerPlayingOnTheClockWaits: alice seeks a 10+5 game, then plays
// one with bob, a challenge she took meanwhile. carol's 10+5 seek is not
// paired with her in the middle of it: carol waits. Once alice's game is
// over, her seek, still waiting, pairs with the next one's: dave's. A seek
// with a time per move pairs as ever: bob's, while he plays on the clock.
// Before, alice was paired mid-game, and carol waited the set-up time for
// a set-up that never came.
func TestSeekerPlayingOnTheClockWaits(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.alice.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "10+5")).Reply(t)
	h.bob.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "24h")).Reply(t)
	h.challenge("Classic", discordtest.Opt("clock", "10+5"))
	h.sendSetups(placed(t, nil), placed(t, nil))

	if got := h.carol.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "10+5")).Reply(t); !got.Ephemeral || !strings.Contains(got.Content, "You are in the queue") {
		t.Fatalf("carol's seek, alice playing on the clock, answered %q", got.Content)
	}
	erin := h.guild.AddMember("erin")
	if got := erin.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "24h")).Reply(t); !strings.Contains(got.Content, "<@"+h.bob.ID+"> and <@"+erin.ID+">") {
		t.Fatalf("erin's seek of a day a move answered %q", got.Content)
	}

	ask := h.alice.SlashCommand(t, h.channel, "stratego resign", discordtest.Opt("match", "1")).Reply(t)
	h.alice.ClickButton(t, ask, button(t, ask, "Resign")).Updated(t)
	h.bob.WaitDM(t, contains("You won: alice resigned."))
	dave := h.guild.AddMember("dave")
	if got := dave.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "10+5")).Reply(t); !strings.Contains(got.Content, "<@"+h.alice.ID+"> and <@"+dave.ID+">") {
		t.Fatalf("dave's seek, alice's game over, answered %q", got.Content)
	}
}

// TestSeekerOnVacationWaits: alice seeks a game, then goes on vacation
// from her match with bob. carol's seek of the same game is not paired
// with her while she is away: carol waits. Back early, alice's seek, still
// waiting, pairs with the next one's: dave's. Before, carol was paired
// with alice, and her new match stood still for the days of alice's
// vacation.
func TestSeekerOnVacationWaits(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.alice.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "72h")).Reply(t)
	h.challenge("Classic")
	h.advance(time.Minute)
	if got := h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 7)).Reply(t); !strings.Contains(got.Content, "You are on vacation until") {
		t.Fatalf("alice's vacation answered %q", got.Content)
	}
	if got := h.carol.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "72h")).Reply(t); !got.Ephemeral || !strings.Contains(got.Content, "You are in the queue") {
		t.Fatalf("carol's seek, alice on vacation, answered %q", got.Content)
	}
	if got := h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("end", true)).Reply(t); !strings.Contains(got.Content, "vacation") {
		t.Fatalf("alice's end of vacation answered %q", got.Content)
	}
	dave := h.guild.AddMember("dave")
	if got := dave.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "72h")).Reply(t); !strings.Contains(got.Content, "<@"+h.alice.ID+"> and <@"+dave.ID+">") {
		t.Fatalf("dave's seek, alice back, answered %q", got.Content)
	}
}

// TestSeekNotPairedWithOneUnchecked: a seek pairs only with waiting seeks
// the bot judged, or placed after it read the queue. Here alice, free
// again, is the partner found for dave; she leaves the queue just before
// dave's seek is placed; carol, also waiting in the channel but playing on
// the clock now, was never judged, and dave's seek waits rather than pair
// with her. Before, a waiting seek in the same channel that the bot had
// not looked at paired as if placed at the same moment, unchecked.
func TestSeekNotPairedWithOneUnchecked(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.alice.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "10+5")).Reply(t)
	h.challenge("Classic", discordtest.Opt("clock", "10+5"))
	h.sendSetups(placed(t, nil), placed(t, nil))
	if got := h.carol.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "10+5")).Reply(t); !strings.Contains(got.Content, "You are in the queue") {
		t.Fatalf("carol's seek, alice playing on the clock, answered %q", got.Content)
	}
	erin := h.guild.AddMember("erin")
	offer := erin.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("opponent", h.carol), discordtest.Opt("clock", "10+5")).Reply(t)
	if got := h.carol.ClickButton(t, offer, button(t, offer, "Accept")).Reply(t); !strings.Contains(got.Content, "Match #") {
		t.Fatalf("carol's accept: %q", got.Content)
	}
	ask := h.alice.SlashCommand(t, h.channel, "stratego resign", discordtest.Opt("match", "1")).Reply(t)
	h.alice.ClickButton(t, ask, button(t, ask, "Resign")).Updated(t)
	h.bob.WaitDM(t, contains("You won: alice resigned."))
	leaves := func() {
		if _, err := h.db.DeleteSeek(context.Background(), h.guild.ID, h.alice.ID); err != nil {
			t.Error(err)
		}
	}
	h.reads.beforePlaceSeek.Store(&leaves)
	dave := h.guild.AddMember("dave")
	if got := dave.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "10+5")).Reply(t); !strings.Contains(got.Content, "You are in the queue") {
		t.Fatalf("dave's seek, alice gone and carol playing on the clock, answered %q", got.Content)
	}
}

// TestSeekOnTheClockWhilePlayingOne: a member playing a game on the clock
// is told to seek another once it is over, or a time per move now: paired
// at once, their new opponent waited out the set-up time for a set-up they
// had no time to send.
func TestSeekOnTheClockWhilePlayingOne(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.challenge("Classic", discordtest.Opt("clock", "10+5"))
	want := "You are playing a game on the clock: seek another once it is over, or seek a time per move (like 24h) now."
	if got := h.alice.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "10+5")).Reply(t); !got.Ephemeral || got.Content != want {
		t.Fatalf("alice's seek on the clock, playing one, answered %q, want %q", got.Content, want)
	}
	if got := h.alice.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "24h")).Reply(t); !strings.Contains(got.Content, "You are in the queue") {
		t.Fatalf("alice's seek of a day a move answered %q", got.Content)
	}
}
