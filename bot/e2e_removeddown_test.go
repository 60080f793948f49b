package bot

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/storagetest"
	"github.com/strategobot/strategobot/tournament"
)

// guildRoute is the request with which the bot asks Discord whether it is
// still in a server.
const guildRoute = "GET /guilds/{guild_id}"

// removedText is what a player of a match called off by the removal is told.
const removedText = "I was removed from the server"

// startChecked starts a bot process and waits until it has looked, after
// its READY, for the servers it was removed from while it was down.
func (h *harness) startChecked() {
	h.t.Helper()
	h.start()
	b := h.bot
	h.srv.WaitFor(h.t, "the servers of READY checked", func() bool {
		select {
		case <-b.firstReady:
			return true
		default:
			return false
		}
	})
}

// TestBotRemovedWhileDown: the bot removed from a server while it was
// down never gets the GUILD_DELETE. As it starts, the server is missing
// from its READY, and Discord says the bot is no longer in it: its
// matches there are called off with no result, its challenges withdrawn,
// and its players told by DM, as if it had seen the removal. A second
// restart does nothing more.
func TestBotRemovedWhileDown(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	other := h.srv.AddGuild("Another Club")
	other.Join(h.alice)
	other.Join(h.bob)
	h.startClassic()
	h.waitMoves(1, 0)
	pending := h.alice.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("opponent", h.carol)).Reply(t)
	if pending.Ephemeral {
		t.Fatalf("challenge refused: %q", pending.Content)
	}
	h.bot.deliverDue(context.Background())

	h.shutdown()
	h.guild.KickBot()
	h.startChecked()
	h.srv.WaitFor(t, "the match called off", func() bool { return h.match(1).Phase == storage.PhaseAbandoned })
	if m := h.match(1); m.CalledOff != storage.CallOffBotRemoved || m.Result.Over() {
		t.Errorf("called off for %v with result %+v", m.CalledOff, m.Result)
	}
	h.srv.WaitFor(t, "the challenge withdrawn", func() bool {
		c, err := h.db.PlayerChallenges(context.Background(), h.alice.ID)
		return err == nil && len(c) == 0
	})
	h.bot.deliverDue(context.Background())
	h.alice.WaitDM(t, contains(removedText))
	h.bob.WaitDM(t, contains(removedText))
	h.outboxEmpty()

	h.shutdown()
	h.startChecked()
	h.bot.deliverDue(context.Background())
	h.outboxEmpty()
	for _, m := range []*discordtest.Member{h.alice, h.bob} {
		if n := countDMs(m, removedText); n != 1 {
			t.Errorf("%s was told %d times of the match called off, want once", m.Name, n)
		}
	}
	if asked := h.srv.Requests(guildRoute); len(asked) != 1 || asked[0].Code != 50001 {
		t.Errorf("the bot asked Discord about servers %d times (%+v), want once, answered Missing Access", len(asked), asked)
	}
}

// TestBotRemovedWhileDownUnsure: a server missing from READY is no proof
// the bot was removed. Unavailable in READY (an outage), it is not even
// asked about; when Discord fails the question (503), nothing changes
// until the next READY asks again.
func TestBotRemovedWhileDownUnsure(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	other := h.srv.AddGuild("Another Club")
	other.Join(h.alice)
	other.Join(h.bob)
	h.startClassic()
	h.waitMoves(1, 0)
	h.bot.deliverDue(context.Background())
	playing := func(when string) {
		t.Helper()
		if m := h.match(1); m.Phase != storage.PhasePlaying {
			t.Fatalf("%s the match is %v (called off for %v)", when, m.Phase, m.CalledOff)
		}
	}

	h.shutdown()
	h.guild.Outage()
	h.startChecked()
	playing("after an outage over a restart")
	if asked := h.srv.Requests(guildRoute); len(asked) != 0 {
		t.Errorf("the bot asked about a server in its READY: %+v", asked)
	}
	h.shutdown()
	h.guild.EndOutage()

	h.guild.KickBot()
	h.srv.FailNext(t, guildRoute, 1, http.StatusServiceUnavailable)
	h.startChecked()
	playing("after Discord failed to say whether the bot is in the server")
	if asked := h.srv.Requests(guildRoute); len(asked) != 1 || asked[0].Status != http.StatusServiceUnavailable {
		t.Errorf("the questions about the server: %+v, want one, failed", asked)
	}
	if n := countDMs(h.alice, removedText); n != 0 {
		t.Errorf("alice was told %d times of a removal not confirmed", n)
	}

	h.shutdown()
	h.startChecked()
	h.srv.WaitFor(t, "the match called off", func() bool { return h.match(1).Phase == storage.PhaseAbandoned })
	h.bot.deliverDue(context.Background())
	h.alice.WaitDM(t, contains(removedText))
	h.outboxEmpty()
	if n := countDMs(h.alice, removedText); n != 1 {
		t.Errorf("alice was told %d times, want once", n)
	}
}

// TestTournamentBotRemovedWhileDown: a tournament under way in a server
// the bot was removed from while it was down is cancelled as it starts,
// before its game is called off, and its players are told once, as when
// the bot sees the removal (TestTournamentBotRemoved); no later round is
// paired, though the round's deadline passed while the bot was down, and a
// second restart changes nothing.
func TestTournamentBotRemovedWhileDown(t *testing.T) {
	t.Parallel()
	h := newTourney(t)
	other := h.srv.AddGuild("Another Club")
	players := []*discordtest.Member{h.alice, h.bob, h.carol}
	for _, m := range players {
		other.Join(m)
	}
	h.expect(h.run(h.alice, "create", discordtest.Opt("name", "Cup"), discordtest.Opt("format", "swiss"), discordtest.Opt("rounds", 2),
		discordtest.Opt("starts_in_hours", 1)), "Tournament #1")
	for _, m := range players {
		h.expect(h.run(m, "join"), "You joined")
	}
	h.advance(time.Hour)
	m := h.roundMatches(1)[0]
	h.bot.deliverDue(context.Background())

	// Down past the round's deadline: the timers, as the bot starts, would
	// close the round and pair the next, unless the removal is seen first,
	// however slowly Discord answers.
	before, _ := h.stored()
	h.shutdown()
	h.guild.KickBot()
	h.clock.Advance(before.RoundDeadline.Sub(h.clock.Now()) + time.Hour)
	h.srv.DelayNext(t, guildRoute, 1, 300*time.Millisecond)
	h.startChecked()
	h.srv.WaitFor(t, "the match called off", func() bool { return h.match(m.ID).Phase == storage.PhaseAbandoned })
	h.advance(time.Minute) // the timers' pass: no round 2
	const cancelled = "**Cup** is cancelled: I was removed from the server it was played in."
	for _, p := range players {
		p.WaitDM(t, contains(cancelled))
	}
	h.outboxEmpty()
	tt, s := h.stored()
	if !tt.Done || s.Status() != tournament.CancelledStatus || len(s.Rounds()) != 1 || len(tt.Games) != 1 {
		t.Fatalf("after the removal: done %v, %s, %d rounds, %d matches; want cancelled in round 1", tt.Done, s.Status(), len(s.Rounds()), len(tt.Games))
	}
	if got := h.match(m.ID).CalledOff; got != storage.CallOffTournament {
		t.Errorf("the game on was called off for %s, want by its tournament's cancel", got)
	}

	h.shutdown()
	h.startChecked()
	h.advance(time.Hour)
	h.outboxEmpty()
	for _, p := range players {
		if n := countDMs(p, cancelled); n != 1 {
			t.Errorf("%s was told %d times of the cancel, want once", p.Name, n)
		}
	}
}

// TestBotRemovedWhileDownPastABadRecord: as the bot starts, it looks over
// every match, challenge and tournament with a timer for the servers it
// may have been removed from while down. One of them, of another server,
// cannot be read (damaged, or written by a newer strategobot). The look
// passes over it, logs it, and finds the removal all the same: the match
// of the server the bot left is called off. Before, the look gave up at
// the bad record, and the timers ran on in a server the bot was no longer
// in.
func TestBotRemovedWhileDownPastABadRecord(t *testing.T) {
	t.Parallel()
	tests := []struct {
		bucket string
		logged string // how the log names the bad record, whose id is %d
	}{
		{"matches", "record=match id=%d "},
		{"challenges", "record=challenge id=%d "},
		{"tournaments", "tournaments=[%d]"},
	}
	for _, tc := range tests {
		t.Run(tc.bucket, func(t *testing.T) {
			t.Parallel()
			var logs logLines
			h := newHarness(t, logs.capture)
			other := h.srv.AddGuild("Another Club")
			dave, erin := other.AddMember("dave"), other.AddMember("erin")
			h.startClassic() // match #1, in the server the bot is removed from
			h.waitMoves(1, 0)
			ctx := context.Background()
			now := h.clock.Now()
			ids := map[string]uint64{} // the records of the other server, by bucket
			h.fixtures(func() {
				m := &storage.Match{GuildID: other.ID, ChannelID: other.General().ID, Rules: game.DefaultRules(game.VariantClassic),
					MoveTime: 24 * time.Hour, Phase: storage.PhaseSetup, Created: now}
				m.Players[game.Red] = storage.Player{UserID: dave.ID, Name: dave.Name}
				m.Players[game.Blue] = storage.Player{UserID: erin.ID, Name: erin.Name}
				m, err := h.db.CreateMatch(ctx, m)
				for side := game.Red; side <= game.Blue && err == nil; side++ {
					m, err = h.db.SetSetup(ctx, m.ID, 0, side, game.RandomSetup(m.Rules, uint64(side)+1), storage.SetupConfirmed, now)
				}
				for err == nil { // its notices delivered: its clock runs, its timer is set
					var due []storage.Notice
					if due, err = h.db.DueNotices(ctx, farFuture, 0); len(due) == 0 {
						break
					}
					for _, n := range due {
						if err == nil {
							err = h.db.NoticeDone(ctx, n.ID, now)
						}
					}
				}
				if err != nil {
					t.Fatal(err)
				}
				ids["matches"] = uint64(m.ID)
				c := storagetest.NewChallenge(now, now.Add(12*time.Hour))
				c.GuildID, c.ChannelID = other.ID, other.General().ID
				c.Challenger = storage.Player{UserID: dave.ID, Name: dave.Name}
				c, err = h.db.CreateChallenge(ctx, c, storage.MemberLimits{})
				if err != nil {
					t.Fatal(err)
				}
				ids["challenges"] = uint64(c.ID)
				tt := storagetest.NewTournament(other.ID)
				tt.ChannelID, tt.CreatorID, tt.Created = other.General().ID, dave.ID, now
				tt.StartAt, tt.JoinBy = now.Add(24*time.Hour), now.Add(24*time.Hour)
				if tt, err = h.db.CreateTournament(ctx, tt, storage.TournamentLimits{}); err != nil {
					t.Fatal(err)
				}
				ids["tournaments"] = uint64(tt.ID)
			})
			h.shutdown()
			h.putRecord(tc.bucket, ids[tc.bucket], `{"v":99}`)
			h.guild.KickBot()
			h.startChecked()
			h.srv.WaitFor(t, "the match called off", func() bool { return h.match(1).Phase == storage.PhaseAbandoned })
			if m := h.match(1); m.CalledOff != storage.CallOffBotRemoved {
				t.Errorf("called off for %v, want the bot's removal", m.CalledOff)
			}
			if strings.Contains(logs.String(), "listing the servers with matches under way failed") {
				t.Errorf("the look for removals gave up:\n%s", logs.String())
			}
			if !strings.Contains(logs.String(), fmt.Sprintf(tc.logged, ids[tc.bucket])) {
				t.Errorf("the bad record is not logged:\n%s", logs.String())
			}
		})
	}
}

// TestUnreadableMatchHidesNoOther: of alice's two matches in the channel,
// one cannot be read (damaged, or written by a newer strategobot).
// `/stratego games` lists the other, and when the bot is removed from the
// server the other is called off. Before, the list of the channel's (and
// the player's) matches failed as a whole at the bad record: her games
// answered with an error, and the removal called off nothing there.
func TestUnreadableMatchHidesNoOther(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startClassic() // #1: alice against bob
	h.waitMoves(1, 0)
	h.fixtures(func() { // #2: alice against carol, in set-up
		m := &storage.Match{GuildID: h.guild.ID, ChannelID: h.channel.ID, Rules: game.DefaultRules(game.VariantClassic),
			MoveTime: 24 * time.Hour, Phase: storage.PhaseSetup, Created: h.clock.Now()}
		m.Players[game.Red] = storage.Player{UserID: h.alice.ID, Name: h.alice.Name}
		m.Players[game.Blue] = storage.Player{UserID: h.carol.ID, Name: h.carol.Name}
		if _, err := h.db.CreateMatch(context.Background(), m); err != nil {
			t.Fatal(err)
		}
	})
	h.shutdown()
	h.putRecord("matches", 2, `{"v":99}`)
	h.start()
	if got := h.alice.SlashCommand(t, h.channel, "stratego games").Reply(t); !strings.Contains(got.Content, "**#1** vs bob") {
		t.Fatalf("alice's games, #2 damaged: %q", got.Content)
	}
	h.guild.KickBot()
	h.srv.WaitFor(t, "#1 called off", func() bool { return h.match(1).Phase == storage.PhaseAbandoned })
	if m := h.match(1); m.CalledOff != storage.CallOffBotRemoved {
		t.Errorf("#1 called off for %v, want the bot's removal", m.CalledOff)
	}
}
