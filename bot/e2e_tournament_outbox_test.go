package bot

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/tournament"
)

// drain advances the clock by the outbox's longest wait until nothing is
// owed any more.
func (h *tourney) drain() {
	h.t.Helper()
	h.srv.WaitFor(h.t, "the outbox to be empty", func() bool {
		h.advance(lastRetry)
		due, err := h.db.DueNotices(context.Background(), h.clock.Now().Add(24*time.Hour), 0)
		return err == nil && len(due) == 0
	})
}

// waitEnded waits for the tournament to end and then for its messages. Its
// last result is recorded just after its match ends, so after play returns:
// a drain alone may find the outbox empty before the end is recorded.
func (h *tourney) waitEnded() {
	h.t.Helper()
	h.srv.WaitFor(h.t, "the tournament to end", func() bool {
		h.advance(lastRetry)
		_, s := h.stored()
		return s.Status() == tournament.Finished
	})
	h.drain()
}

// waitRecorded waits for the tournament to record m's result, which it
// does just after m ends, so after play returns: a drain alone may find
// the outbox empty before the result and its announcement are in.
func (h *tourney) waitRecorded(m *storage.Match) {
	h.t.Helper()
	h.srv.WaitFor(h.t, "the result of match "+m.ID.String()+" to be recorded", func() bool {
		tt, _ := h.stored()
		for _, g := range tt.Games {
			if g.Match != m.ID {
				continue
			}
			for _, e := range tt.Log {
				if e.Kind == tournament.Recorded && e.Round == g.Round && e.Board == g.Board {
					return true
				}
			}
		}
		return false
	})
}

// announcements lists the tournament's announcements in the channel, in
// the order they were posted: "p1" for round 1's pairings, "all" for every
// round's at the start of a round robin played all at once, "r1" for a
// result of round 1, "end" for the final standings.
func (h *tourney) announcements(name string) []string {
	all := regexp.MustCompile(`^\*\*` + name + `\*\* — all \d+ rounds start now`)
	paired := regexp.MustCompile(`^\*\*` + name + `\*\* — round (\d+) of`)
	result := regexp.MustCompile(`^\*\*` + name + `\*\*, round (\d+): `)
	var out []string
	for _, m := range h.srv.ChannelMessages(h.channel) {
		switch {
		case all.MatchString(m.Content):
			out = append(out, "all")
		case paired.MatchString(m.Content):
			out = append(out, "p"+paired.FindStringSubmatch(m.Content)[1])
		case result.MatchString(m.Content):
			out = append(out, "r"+result.FindStringSubmatch(m.Content)[1])
		case strings.Contains(m.Content, "**"+name+"** is over"):
			out = append(out, "end")
		}
	}
	return out
}

// TestTournamentAnnouncementsUnderFaults: a round robin of three whose
// every announcement meets trouble in the channel — 500s, a storm of 429s,
// requests that time out while Discord still makes the message, and the
// bot stopping while a result's standings are on their way (Discord makes
// them after it stopped). The pairings of every round (all at once), each
// result and the final standings arrive exactly once, in order. The games
// are played in threads, so that the faults meet the announcements: a
// result waits for its game's end, posted in the game's thread.
func TestTournamentAnnouncementsUnderFaults(t *testing.T) {
	t.Parallel()
	const create = "POST /channels/{channel_id}/messages"
	// Requests time out after 2 s, which even a loaded machine meets unless
	// a fault delays them on purpose.
	h := tourneyOn(newHarnessOn(t, []discordtest.Option{discordtest.WithClientTimeout(2 * time.Second)}))
	h.playInThreads(t)
	h.expect(h.run(h.alice, "create", discordtest.Opt("name", "Trophy"), discordtest.Opt("format", "round-robin"),
		discordtest.Opt("starts_in_hours", 1)), "Tournament #1: Trophy")
	for _, m := range []*discordtest.Member{h.alice, h.bob, h.carol} {
		h.expect(h.run(m, "join"), "You joined")
	}
	h.srv.FailNextIn(t, create, h.channel, 2, 500)
	h.advance(time.Hour)
	h.drain()
	faults := []func(){
		func() { h.srv.RateLimitNextIn(t, create, h.channel, 8, 30*time.Millisecond) },
		nil, // the bot stops mid-send: below
		func() { h.srv.DelayNextIn(t, create, h.channel, 3, 2500*time.Millisecond) },
	}
	matches := h.allMatches(3)
	if len(matches) != 3 {
		t.Fatalf("the start started %d matches, want 3 (three players: a bye a round)", len(matches))
	}
	for round := 1; round <= 3; round++ {
		var hold *discordtest.Hold
		if faults[round-1] != nil {
			faults[round-1]()
			h.srv.FailNextIn(t, create, h.channel, 1, 503)
		} else {
			hold = h.srv.HoldNextIn(t, create, h.channel, 20)
		}
		h.play(matches[round-1], game.Blue)
		if hold != nil {
			// The result's standings are being sent when the bot stops; Discord
			// makes them after it stopped, and the bot starts again.
			h.srv.WaitFor(t, "a post held", func() bool {
				due, err := h.db.DueNotices(context.Background(), h.clock.Now().Add(time.Hour), 0)
				return err == nil && hold.Waiting() > 0 && slices.ContainsFunc(due, func(n storage.Notice) bool {
					return n.Event == storage.EventRoundResult
				})
			})
			h.shutdown()
			hold.Release()
			h.start()
		}
		h.drain()
	}
	h.channelSays("**Trophy** is over")
	got := h.announcements("Trophy")
	want := []string{"all", "r1", "r2", "r3", "end"}
	if !slices.Equal(got, want) {
		t.Errorf("the channel's announcements %v, want each once, in order: %v", got, want)
	}
	// The pairings name their players, so that they are told.
	for _, m := range h.srv.ChannelMessages(h.channel) {
		if strings.HasPrefix(m.Content, "**Trophy** — all 3 rounds") && !strings.Contains(m.Content, "<@"+h.bob.ID+">") {
			t.Errorf("round 1's pairings %q do not mention bob", m.Content)
		}
	}
}

// TestTournamentChannelOutOfReach: when the bot may no longer post in a
// tournament's channel, its organiser is told by DM what to do; the
// players still get their set-up invitations, and by DM what the channel
// would have told them.
func TestTournamentChannelOutOfReach(t *testing.T) {
	t.Parallel()
	h := newTourney(t)
	h.roundRobin("Quiet cup", h.bob, h.carol)
	h.channel.SetOverwrite(h.srv.Bot(), 0, discordgo.PermissionSendMessages)
	h.advance(time.Hour)
	h.alice.WaitDM(t, contains("I could not post an announcement of **Quiet cup**"))
	h.bob.WaitDM(t, contains("Send me your secret set-up"))
	if got := h.announcements("Quiet cup"); len(got) != 0 {
		t.Errorf("posted %v in a channel the bot may not post in", got)
	}
	// The cancellation cannot be posted either: alice is not told again
	// the same day.
	h.expect(h.run(h.alice, "cancel"), "cancel")
	h.drain()
	cannot := func() int {
		n := 0
		for _, m := range h.alice.DMs() {
			if strings.Contains(m.Content, "I could not post an announcement of **Quiet cup**") {
				n++
			}
		}
		return n
	}
	if n := cannot(); n != 1 {
		t.Errorf("alice was told %d times in a day that the channel is out of reach, want once", n)
	}
	// The players are told by DM what the channel could not be: the
	// pairings, and the cancellation with the standings.
	h.toldByDM("Quiet cup", "**Quiet cup** — all ", 1)
	h.toldByDM("Quiet cup", "**Quiet cup** is cancelled by <@"+h.alice.ID+">. The standings as they were:", 1)
}

// refusedAnnouncements counts the announcements of tournament name that
// channel ch refused.
func (h *tourney) refusedAnnouncements(ch *discordtest.Channel, name string) int {
	n := 0
	for _, r := range h.srv.Requests("POST /channels/{channel_id}/messages") {
		if strings.Contains(r.Path, "/channels/"+ch.ID+"/") && r.Status >= 400 && strings.Contains(string(r.Body), "**"+name+"**") {
			n++
		}
	}
	return n
}

// TestTournamentChannelBackWithinReach: once its channel refused an
// announcement, a tournament's next ones go straight to the players' DMs
// (a result, which their games' own boards tell them, to nobody), without
// trying the channel again. When its permissions are restored, the first
// announcement a day later tries it again, is posted there, and so are the
// rest: the players find the tournament in its channel again.
func TestTournamentChannelBackWithinReach(t *testing.T) {
	t.Parallel()
	h := newTourney(t)
	h.expect(h.run(h.alice, "create", discordtest.Opt("name", "Cup"), discordtest.Opt("format", "round-robin"),
		discordtest.Opt("move_time", "72h"), discordtest.Opt("starts_in_hours", 1)), "Tournament #1")
	for _, m := range []*discordtest.Member{h.alice, h.bob, h.carol} {
		h.expect(h.run(m, "join"), "You joined")
	}
	h.channel.SetOverwrite(h.srv.Bot(), 0, discordgo.PermissionSendMessages)
	h.advance(time.Hour)
	matches := h.allMatches(3)
	h.drain()
	h.toldByDM("Cup", "**Cup** — all ", 1)
	if tt, _ := h.stored(); tt.ChannelLost.IsZero() || tt.ChannelDeleted {
		t.Fatalf("the tournament's channel: lost %v, deleted %v; want lost, not deleted", tt.ChannelLost, tt.ChannelDeleted)
	}
	h.play(matches[0], game.Blue)
	h.waitRecorded(matches[0])
	h.drain()
	if n := h.refusedAnnouncements(h.channel, "Cup"); n != 1 {
		t.Errorf("the channel refused %d announcements, want 1: the result was tried there again", n)
	}
	h.channel.RemoveOverwrite(h.srv.Bot())
	h.advance(lostChannelRetry)
	h.play(matches[1], game.Blue)
	h.play(matches[2], game.Red)
	h.waitEnded()
	// The two results since, and the end: not the pairings nor the first
	// result, which went when it was out of reach.
	if got := h.announcements("Cup"); len(got) != 3 || got[0] == "all" || got[2] != "end" {
		t.Errorf("the channel got %v, want two results and the end", got)
	}
	if n := h.refusedAnnouncements(h.channel, "Cup"); n != 1 {
		t.Errorf("the channel refused %d announcements, want 1", n)
	}
	if tt, _ := h.stored(); !tt.ChannelLost.IsZero() {
		t.Errorf("the channel is still taken for lost since %v", tt.ChannelLost)
	}
	h.toldByDM("Cup", "**Cup** is over.", 0)
}

// TestTournamentChannelBackAtOnce: when a moderator restores the bot's
// permissions in a tournament's lost channel, the gateway tells the bot
// (CHANNEL_UPDATE) and the next announcements are posted there at once,
// without waiting for the day after which the channel is tried again.
func TestTournamentChannelBackAtOnce(t *testing.T) {
	t.Parallel()
	h := newTourney(t)
	h.expect(h.run(h.alice, "create", discordtest.Opt("name", "Cup"), discordtest.Opt("format", "round-robin"),
		discordtest.Opt("move_time", "72h"), discordtest.Opt("starts_in_hours", 1)), "Tournament #1")
	for _, m := range []*discordtest.Member{h.alice, h.bob, h.carol} {
		h.expect(h.run(m, "join"), "You joined")
	}
	h.channel.SetOverwrite(h.srv.Bot(), 0, discordgo.PermissionSendMessages)
	h.advance(time.Hour)
	matches := h.allMatches(3)
	h.drain()
	h.toldByDM("Cup", "**Cup** — all ", 1)
	h.channel.RemoveOverwrite(h.srv.Bot())
	h.srv.WaitFor(t, "the tournament's channel back", func() bool { tt, _ := h.stored(); return tt.ChannelLost.IsZero() })
	h.play(matches[0], game.Blue)
	h.play(matches[1], game.Blue)
	h.play(matches[2], game.Red)
	h.waitEnded()
	if got := h.announcements("Cup"); len(got) != 4 || got[0] == "all" || got[3] != "end" {
		t.Errorf("the channel got %v, want three results and the end", got)
	}
	if n := h.refusedAnnouncements(h.channel, "Cup"); n != 1 {
		t.Errorf("the channel refused %d announcements, want 1", n)
	}
	h.toldByDM("Cup", "**Cup** is over.", 0)
}

// TestTournamentRemove: a moderator takes a player out, before the start
// (they are no longer in it) and during a round robin played all at once
// (every game of theirs, in every round, is forfeited and called off, and
// the others' game goes on); the channel is told each time, with the
// standings. Only moderators may, and only players who are in.
func TestTournamentRemove(t *testing.T) {
	t.Parallel()
	h := newTourney(t, "dave")
	var dave *discordtest.Member
	for _, m := range h.members {
		if m.Name == "dave" {
			dave = m
		}
	}
	h.roundRobin("Open")
	for _, m := range h.members {
		h.expect(h.run(m, "join"), "You joined")
	}
	h.expect(h.run(h.bob, "remove", discordtest.Opt("player", h.carol)), "Only members with the Manage Server permission")
	h.expect(h.run(h.alice, "remove", discordtest.Opt("player", dave)), "You took dave out of **Open**")
	h.channelSays("**Open**: a moderator removed dave before the start.")
	if n := h.channelCount("removed dave; their games still to play are forfeited"); n != 0 {
		t.Errorf("the removal before the start speaks of forfeited games %d times", n)
	}
	h.expect(h.run(h.alice, "remove", discordtest.Opt("player", dave)), "dave is not in **Open**")
	if _, s := h.stored(); len(s.Players()) != 3 {
		t.Fatalf("after removing dave before the start: %d players, want 3", len(s.Players()))
	}

	h.advance(time.Hour)
	matches := h.allMatches(3)
	red := h.members[matches[0].Players[game.Red].UserID]
	h.expect(h.run(h.alice, "remove", discordtest.Opt("player", red)), "their games still to play are forfeited")
	h.channelSays("**Open**: a moderator removed " + red.Name + "; their games still to play are forfeited.")
	var others *storage.Match
	for _, m := range matches {
		if _, plays := m.SideOf(red.ID); !plays {
			others = m
			continue
		}
		h.srv.WaitFor(t, "the removed player's match called off", func() bool { return !h.match(m.ID).Phase.Active() })
	}
	_, s := h.stored()
	forfeited := 0
	for _, r := range s.Rounds() {
		for _, g := range r.Games {
			if !g.Has(red.ID) || g.IsBye() {
				continue
			}
			want := tournament.BlueForfeited
			if g.Red == red.ID {
				want = tournament.RedForfeited
			}
			if g.Result != want {
				t.Errorf("round %d after removing %s: %s, want their forfeit", r.Number, red.Name, g)
			}
			forfeited++
		}
	}
	if p, _ := s.Player(red.ID); !p.Withdrawn || forfeited != 2 {
		t.Errorf("the removed player %+v, %d games forfeited; want withdrawn, both forfeited", p, forfeited)
	}
	for _, msg := range h.srv.ChannelMessages(h.channel) {
		if strings.HasPrefix(msg.Content, "**Open**: a moderator removed "+red.Name) && !strings.Contains(msg.Content, "```") {
			t.Errorf("the removal is announced without the standings: %q", msg.Content)
		}
	}
	// The others' game goes on, and ends the event.
	if others == nil || !h.match(others.ID).Phase.Active() {
		t.Fatalf("the game of the two others is not on")
	}
	h.play(others, game.Red)
	h.advance(time.Second)
	h.channelSays("**Open** is over")
}

// TestTournamentUnfinishedScoring: the creator chooses how games still on
// at a round's deadline count: both lose (the default) or a draw. The
// game left unfinished is called off at the deadline and scored so.
func TestTournamentUnfinishedScoring(t *testing.T) {
	t.Parallel()
	tests := []struct {
		option, says string
		points       tournament.Points // each player's, after the one game (in the rules' half points)
	}{
		{"", "a loss for both", 0},
		{"both-lose", "a loss for both", 0},
		{"draw", "a draw", tournament.Points(1)},
	}
	for _, tc := range tests {
		t.Run("unfinished="+tc.option, func(t *testing.T) {
			t.Parallel()
			h := newTourney(t)
			args := []discordtest.Arg{discordtest.Opt("name", "Slow"), discordtest.Opt("format", "round-robin"),
				discordtest.Opt("starts_in_hours", 1), discordtest.Opt("round_days", 1), discordtest.Opt("move_time", "24h")}
			if tc.option != "" {
				args = append(args, discordtest.Opt("unfinished", tc.option))
			}
			h.expect(h.run(h.alice, "create", args...), "Games unfinished at the deadline count as "+tc.says+".")
			h.expect(h.run(h.bob, "join"), "You joined")
			h.expect(h.run(h.carol, "join"), "You joined")
			h.advance(time.Hour)
			m := h.roundMatches(1)[0]
			h.advance(time.Minute) // the first move's deadline then falls after the round's
			h.setUp(m, game.Red, game.Blue)
			h.srv.WaitFor(t, "the match to begin", func() bool { return h.match(m.ID).Phase == storage.PhasePlaying })
			h.advance(24*time.Hour - time.Minute)
			h.channelSays("**Slow**: the tournament's deadline passed. Games still on are scored as " + tc.says + ", unrated.")
			h.srv.WaitFor(t, "the match called off", func() bool { return !h.match(m.ID).Phase.Active() })
			h.channelSays("**Slow** is over")
			_, s := h.stored()
			for _, st := range s.Standings() {
				if st.Points != tc.points {
					t.Errorf("%s has %s points, want %s", st.Player, st.Points, tc.points)
				}
			}
		})
	}
}

// TestTournamentDeadlineInSetUp: at a round's deadline a game still in
// set-up is won by forfeit by the side that confirmed its set-up, not lost
// by both; a game in play is adjudicated. The channel hears of both boards
// with the standings. And a move time longer than a round is refused. (A
// Swiss round's deadline: a round robin's one deadline comes after every
// set-up's time is up.)
func TestTournamentDeadlineInSetUp(t *testing.T) {
	h := newTourney(t, "dave")
	h.expect(h.run(h.alice, "create", discordtest.Opt("name", "Quick"), discordtest.Opt("format", "round-robin"),
		discordtest.Opt("round_days", 1), discordtest.Opt("move_time", "72h")), "Each round lasts")
	h.expect(h.run(h.alice, "create", discordtest.Opt("name", "Slow"), discordtest.Opt("format", "swiss"), discordtest.Opt("rounds", 1),
		discordtest.Opt("starts_in_hours", 1), discordtest.Opt("round_days", 3), discordtest.Opt("move_time", "72h")), "Tournament #1")
	for _, m := range h.members {
		h.expect(h.run(m, "join"), "You joined")
	}
	h.advance(time.Hour)
	matches := h.roundMatches(1)
	if len(matches) != 2 {
		t.Fatalf("round 1 of four players: %d matches", len(matches))
	}
	h.advance(time.Minute) // the first move's deadline then falls after the round's
	h.setUp(matches[0], game.Red)
	h.setUp(matches[1], game.Red, game.Blue)
	h.srv.WaitFor(t, "the match to begin", func() bool { return h.match(matches[1].ID).Phase == storage.PhasePlaying })
	h.advance(72*time.Hour - time.Minute)
	h.channelSays("**Slow**: the deadline of round 1 passed.")
	h.channelSays(": Red wins by forfeit")
	h.channelSays(": unfinished at the deadline")
	for _, msg := range h.srv.ChannelMessages(h.channel) {
		if strings.Contains(msg.Content, "the deadline of round 1 passed") && !strings.Contains(msg.Content, "```") {
			t.Fatalf("the round's close has no standings: %q", msg.Content)
		}
	}
	tt, s := h.stored()
	results := map[storage.MatchID]tournament.Result{}
	for _, g := range tt.Games {
		if g.Round == 1 {
			results[g.Match] = s.Rounds()[0].Games[g.Board-1].Result
		}
	}
	if got := results[matches[0].ID]; got != tournament.BlueForfeited {
		t.Errorf("the game Blue never set up: %s, want Blue forfeited", got)
	}
	if got := results[matches[1].ID]; got != tournament.Adjudicated {
		t.Errorf("the game in play: %s, want adjudicated", got)
	}
}

// TestTournamentStandingsWithoutAttachFiles: when the bot may post in a
// tournament's channel but not attach files there, its announcements go
// out once each, with their standings as a text table and without the
// picture, and the organiser is told by DM what to grant.
func TestTournamentStandingsWithoutAttachFiles(t *testing.T) {
	t.Parallel()
	h := newTourney(t)
	h.roundRobin("Plain cup", h.bob, h.carol)
	h.channel.SetOverwrite(h.srv.Bot(), 0, discordgo.PermissionAttachFiles)
	h.advance(time.Hour)
	m := h.roundMatches(1)[0]
	h.play(m, game.Red)
	h.drain()
	h.channelSays("**Plain cup** is over")
	if got, want := h.announcements("Plain cup"), []string{"all", "r1", "end"}; !slices.Equal(got, want) {
		t.Errorf("the channel's announcements %v, want %v, each once", got, want)
	}
	for _, msg := range h.srv.ChannelMessages(h.channel) {
		if strings.Contains(msg.Content, "Plain cup") && len(msg.Attachments) != 0 {
			t.Errorf("%q went with %d attachments in a channel the bot may not attach files in", msg.Content, len(msg.Attachments))
		}
	}
	h.alice.WaitDM(t, contains("I posted an announcement of **Plain cup** in <#"+h.channel.ID+"> without its standings picture: I need to attach files there."))
}

// TestTournamentAnnouncementReadFails: the database does not answer when
// the outbox reads the tournament to word an announcement. The
// announcement is tried again, not dropped: the channel has it once.
func TestTournamentAnnouncementReadFails(t *testing.T) {
	t.Parallel()
	h := newTourney(t)
	h.roundRobin("Flaky", h.alice, h.bob, h.carol)
	h.advance(time.Hour)
	matches := h.allMatches(3)
	h.drain()
	// A withdrawal recorded elsewhere, with the call-offs of carol's games
	// that follow it there, owes its announcement; the read of the
	// tournament to word it fails once.
	h.bot.outboxPass.Lock()
	if _, err := h.db.UpdateTournament(context.Background(), 1, 0, func(x *storage.Tournament) error {
		x.Changed = h.clock.Now()
		x.Log = append(x.Log, tournament.Withdraw(h.carol.ID, tournament.WithdrewByChoice))
		return nil
	}); err != nil {
		h.bot.outboxPass.Unlock()
		t.Fatal(err)
	}
	for _, m := range matches {
		if _, plays := m.SideOf(h.carol.ID); plays {
			if _, err := h.db.Abandon(context.Background(), m.ID, 0, h.clock.Now(), storage.CallOffTournament); err != nil {
				h.bot.outboxPass.Unlock()
				t.Fatal(err)
			}
		}
	}
	h.reads.failNoticeTournament.Store(1)
	h.bot.outboxPass.Unlock()
	h.drain()
	if n := h.reads.failedTournament.Load(); n != 1 {
		t.Fatalf("%d reads failed, want the announcement's one", n)
	}
	told := 0
	for _, m := range h.srv.ChannelMessages(h.channel) {
		if strings.HasPrefix(m.Content, "**Flaky**: carol withdrew") {
			told++
		}
	}
	if told != 1 {
		t.Errorf("the withdrawal was announced %d times, want once", told)
	}
}
