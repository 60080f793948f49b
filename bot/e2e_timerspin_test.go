package bot

import (
	"context"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// TestTimersHoldBackWhatFails: a timer whose handling fails every time —
// a tournament's round whose matches cannot be made (Starting stays, its
// timer due at once), a set-up's time-out that cannot be recorded — is
// tried again after a minute, then twice as long each time, up to an
// hour: the timers' loop does not come back at once for it, over and over
// (it would spin, and hammer the database), and the other timers go on
// meanwhile. Counted over three hours of a pass every minute: no more than
// a dozen tries (every pass tried it, and the loop between them, before),
// and the loop's next wake is always later than now. Once the failure
// clears, the timer is handled within the hour.
func TestTimersHoldBackWhatFails(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// prepare makes the timer fail from its first try on and returns
		// the count of its tries, and what clears the failure.
		prepare func(h *tourney) (tries func() int64, clear func())
		// done checks, once cleared, that the timer was handled.
		done func(h *tourney)
	}{
		{"a tournament's round that cannot start", func(h *tourney) (func() int64, func()) {
			h.bobAndCarolJoin()
			h.reads.failCreateMatch.Store(1 << 30)
			base := h.reads.createMatches.Load()
			h.advance(time.Hour) // the start: paired, its match not made
			if tt, _ := h.stored(); !tt.Starting {
				t.Fatal("the round's start did not fail")
			}
			return func() int64 { return h.reads.createMatches.Load() - base }, func() { h.reads.failCreateMatch.Store(0) }
		}, func(h *tourney) {
			if tt, _ := h.stored(); tt.Starting || len(tt.Games) != 1 {
				t.Errorf("the round has %d matches, starting %v; want 1, and started", len(tt.Games), tt.Starting)
			}
		}},
		{"a set-up's time-out that cannot be recorded", func(h *tourney) (func() int64, func()) {
			h.challenge("Classic") // bob's set-up never comes
			h.outboxEmpty()        // the set-up's time counts from its invites' arrival
			h.reads.failAbandon.Store(1 << 30)
			base := h.reads.abandons.Load()
			h.advance(24*time.Hour + time.Minute)
			if h.match(1).Phase.Active() == false {
				t.Fatal("the match is over already")
			}
			return func() int64 { return h.reads.abandons.Load() - base }, func() { h.reads.failAbandon.Store(0) }
		}, func(h *tourney) {
			h.channelSays("The match is called off")
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newTourney(t)
			tries, clear := tc.prepare(h)
			if tries() == 0 {
				t.Fatal("the timer was not tried")
			}
			// Another timer, due as it keeps failing: a challenge from
			// carol to alice that expires unanswered a day later.
			h.carol.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("opponent", h.alice)).Reply(t)
			challenge := storage.ChallengeID(1)
			if c, err := h.db.PlayerChallenges(context.Background(), h.carol.ID); err != nil || len(c) != 1 {
				t.Fatalf("carol's challenges: %v, %v", c, err)
			} else {
				challenge = c[0].ID
			}
			pass := func(d time.Duration) {
				h.advance(d)
				at, ok, err := h.bot.timersNext(context.Background())
				if now := h.clock.Now(); err != nil || !ok || !at.After(now) {
					t.Fatalf("at %s the loop's next pass is at %s (%v, %v): at once", now, at, ok, err)
				}
			}
			for range 180 {
				pass(time.Minute)
			}
			if n := tries(); n > 12 {
				t.Errorf("tried %d times in three hours, want a dozen at most", n)
			}
			for range 22 {
				pass(time.Hour) // held an hour at most: once an hour
			}
			if n := tries(); n > 12+22 {
				t.Errorf("tried %d times in a day, want %d at most", n, 12+22)
			}
			if _, err := h.db.Challenge(context.Background(), challenge); err == nil {
				t.Error("carol's challenge did not expire meanwhile")
			}
			clear()
			h.advance(time.Hour)
			tc.done(h)
		})
	}
}

// TestTournamentStartsThoughDiscordRefuses: what Discord refuses as a
// tournament's round starts — a thread for each match (the bot may not
// make threads there), the channel itself (deleted, or the bot may not
// post there) — holds up neither the round's start nor the timers: the
// matches are made and linked in the first pass, which clears Starting,
// so the tournament is not due again at once; the players are invited to
// set up by DM, and the organiser is told by DM what to do about the
// channel.
func TestTournamentStartsThoughDiscordRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		refuse func(h *tourney)
		told   string // what alice, the organiser, is told by DM; "" nothing
	}{
		{"no threads", func(h *tourney) {
			h.playInThreads(t)
			h.channel.SetOverwrite(h.srv.Bot(), 0, discordgo.PermissionCreatePublicThreads)
		}, ""},
		{"channel deleted", func(h *tourney) { h.channel.Delete() }, "The channel of **Cup** was deleted"},
		{"channel out of reach", func(h *tourney) {
			h.channel.SetOverwrite(h.srv.Bot(), 0, discordgo.PermissionSendMessages)
		}, "I could not post an announcement of **Cup**"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newTourney(t)
			h.bobAndCarolJoin()
			tc.refuse(h)
			h.advance(time.Hour)
			tt, _ := h.stored()
			if tt.Starting || len(tt.Games) != 1 {
				t.Fatalf("after the start's pass the round has %d matches, starting %v; want 1, and started", len(tt.Games), tt.Starting)
			}
			if at, ok, err := h.bot.timersNext(context.Background()); err != nil || !ok || !at.After(h.clock.Now()) {
				t.Fatalf("the loop's next pass is at %s (%v, %v), now %s", at, ok, err, h.clock.Now())
			}
			h.bob.WaitDM(t, contains("Send me your secret set-up"))
			h.carol.WaitDM(t, contains("Send me your secret set-up"))
			if tc.told != "" {
				h.alice.WaitDM(t, contains(tc.told))
			}
		})
	}
}

// TestTimersNotStarvedByFailingOnes: more deadlines than a pass takes
// (timerBatch) fail every time, and all come before another timer due: a
// challenge's expiry. The pass read the same earliest deadlines again and
// again, and never came to the challenge; it now skips those held back
// and takes the next.
func TestTimersNotStarvedByFailingOnes(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := context.Background()
	h.fixtures(func() {
		for range timerBatch + 5 {
			// In set-up, due before the challenge expires: called off
			// when due, which fails.
			m := &storage.Match{GuildID: h.guild.ID, ChannelID: h.channel.ID, Rules: game.DefaultRules(game.VariantClassic),
				MoveTime: time.Hour, Phase: storage.PhaseSetup, Created: T0, Deadline: T0.Add(time.Hour)}
			m.Players[game.Red] = storage.Player{UserID: h.alice.ID, Name: "alice"}
			m.Players[game.Blue] = storage.Player{UserID: h.bob.ID, Name: "bob"}
			if _, err := h.db.CreateMatch(ctx, m); err != nil {
				t.Fatal(err)
			}
		}
	})
	h.reads.failAbandon.Store(1 << 30)
	h.carol.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("opponent", h.alice)).Reply(t)
	h.advance(25 * time.Hour) // all due: the matches' first
	for range 3 {
		h.advance(time.Second)
	}
	if _, err := h.db.Challenge(ctx, 1); err == nil {
		t.Error("carol's challenge did not expire: the pass kept taking the failing deadlines before it")
	}
	if n := h.reads.abandons.Load(); n > 2*(timerBatch+5) {
		t.Errorf("%d tries to call off %d matches in a few passes, want each tried once or twice", n, timerBatch+5)
	}
}

// TestOutboxHoldsBackWhatItCannotRecord: the database refuses, every time,
// to record a move's notices as delivered. Each is tried again at once
// twice, then after a minute, twice as long each time, up to an hour: the outbox
// no longer comes back for them at once, again and again, sending them to
// Discord each time (150 times a second; the nonce keeps Discord from
// showing them twice only for a few minutes). Counted over three hours of
// a pass every minute. Once the database takes the record, the move's
// notices are done.
func TestOutboxHoldsBackWhatItCannotRecord(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startClassic()
	h.bob.WaitDM(t, contains("the match begins"))
	h.channelSays("the match begins")
	h.bot.deliverDue(context.Background())
	h.reads.failDone.Store(1 << 30)
	base := h.reads.dones.Load()
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.waitStored(1, 1)
	h.bob.WaitDM(t, contains("alice moved A4-A5"))
	for range 180 {
		h.advance(time.Minute)
	}
	// Three queues (alice's DMs, bob's, the channel), each tried three
	// times at first and then some 8 times.
	if n := h.reads.dones.Load() - base; n > 3*12 {
		t.Errorf("%d tries to record the move's notices in three hours, want %d at most", n, 3*12)
	}
	h.reads.failDone.Store(0)
	h.advance(time.Hour)
	if left, err := h.db.DueNotices(context.Background(), h.clock.Now().Add(time.Hour), 0); err != nil || len(left) != 0 {
		t.Fatalf("due once the database records them: %d notices, %v; want none", len(left), err)
	}
}
