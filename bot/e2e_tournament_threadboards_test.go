package bot

import (
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// TestTournamentInThreadPlaysInIt: a tournament created in a thread, on a
// server that plays each match in its own thread, plays its matches in
// that thread (Discord opens no thread in a thread), without asking
// Discord for one: the round's pairings, which tell the players where
// their games are, and the games' boards are posted in the thread.
func TestTournamentInThreadPlaysInIt(t *testing.T) {
	t.Parallel()
	h := newTourney(t)
	h.playInThreads(t)
	thread := threadTourney(h, discordgo.ChannelTypeGuildPublicThread)
	in := func(m *discordtest.Member, sub string, args ...discordtest.Arg) string {
		t.Helper()
		return m.SlashCommand(t, thread, "stratego tournament "+sub, args...).Reply(t).Content
	}
	if got := in(h.alice, "create", discordtest.Opt("name", "Cup"), discordtest.Opt("format", "swiss"),
		discordtest.Opt("rounds", 1), discordtest.Opt("starts_in_hours", 1)); !strings.Contains(got, "Tournament #1") {
		t.Fatalf("create in the thread: %q", got)
	}
	for _, m := range []*discordtest.Member{h.bob, h.carol} {
		if got := in(m, "join"); !strings.Contains(got, "You joined") {
			t.Fatalf("join in the thread: %q", got)
		}
	}
	h.advance(time.Hour)
	m := h.roundMatches(1)[0]
	h.outboxEmpty()
	m = h.match(m.ID)
	if m.Where() != thread.ID {
		t.Errorf("the match is played in %s, want the tournament's thread %s", m.Where(), thread.ID)
	}
	for _, r := range h.srv.Requests("POST /channels/{channel_id}/threads") {
		if strings.Contains(r.Path, "/channels/"+thread.ID+"/") {
			t.Errorf("the bot asked Discord for a thread in the tournament's thread: %d", r.Status)
		}
	}
	// The round's pairings are posted in the thread, and so is the game's
	// first board once both set-ups are in.
	said := false
	for _, msg := range h.srv.ChannelMessages(thread) {
		said = said || strings.Contains(msg.Content, "round 1 of 1")
	}
	if !said {
		t.Error("the round's pairings are not in the tournament's thread")
	}
	h.setUp(m, game.Red, game.Blue)
	h.srv.WaitFor(t, "the match to begin", func() bool { return h.match(m.ID).Phase == storage.PhasePlaying })
	h.outboxEmpty()
	if h.match(m.ID).ThreadID != "" {
		t.Errorf("the match has a thread of its own: %s", h.match(m.ID).ThreadID)
	}
	boards := 0
	for _, msg := range h.srv.ChannelMessages(thread) {
		if strings.Contains(msg.Content, "Match #"+m.ID.String()) {
			boards++
		}
	}
	if boards == 0 {
		t.Errorf("no post of Match #%s in the tournament's thread", m.ID)
	}
}

// TestChallengeInThreadPlaysInIt: a challenge accepted in a thread, on a
// server that plays each match in its own thread, is played in that
// thread, without asking Discord to open a thread from its message, which
// Discord refuses in a thread.
func TestChallengeInThreadPlaysInIt(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.playInThreads(t)
	parent := h.channel
	thread := startThread(h, discordgo.ChannelTypeGuildPublicThread)
	h.channel = thread
	h.challenge("Classic")
	h.outboxEmpty()
	h.channel = parent
	if m := h.match(1); m.Where() != thread.ID || m.ThreadID != "" {
		t.Errorf("match #1 is played in %s (thread %q), want the thread it was made in, %s", m.Where(), m.ThreadID, thread.ID)
	}
	for _, r := range h.srv.Requests("POST /channels/{channel_id}/messages/{message_id}/threads") {
		t.Errorf("the bot asked Discord for a thread from a message in a thread: %s %d", r.Path, r.Status)
	}
}

// TestSeekInThreadPlaysInIt: a seek paired in a thread, on a server that
// plays each match in its own thread, is played in that thread, as a
// challenge there is: the queue's announcement, posted there for the
// seeker who waited in it, did not ask Discord for a thread from itself,
// which Discord refuses in a thread (50024), at every such pairing.
func TestSeekInThreadPlaysInIt(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.playInThreads(t)
	lobby := h.guild.AddChannel("lobby")
	lobby.SetOverwrite(h.alice, 0, discordgo.PermissionViewChannel)
	overwritesKnown(h, lobby, 1)
	thread := startThread(h, discordgo.ChannelTypeGuildPublicThread)
	seek := func(m *discordtest.Member, ch *discordtest.Channel) string {
		t.Helper()
		return m.SlashCommand(t, ch, "stratego seek", discordtest.Opt("time", "24h")).Reply(t).Content
	}
	if got := seek(h.alice, thread); !strings.Contains(got, "You are in the queue") {
		t.Fatalf("alice's seek in the thread: %q", got)
	}
	// bob seeks in a channel alice cannot see: the match is made in the
	// thread she waits in, and announced there by the outbox.
	if got := seek(h.bob, lobby); !strings.Contains(got, "Match #1") {
		t.Fatalf("bob's seek in the lobby: %q", got)
	}
	h.srv.WaitFor(t, "the queue's match", func() bool { _, err := h.db.Match(t.Context(), 1); return err == nil })
	h.srv.WaitFor(t, "the match's live message", func() bool { return h.match(1).LiveMessage != "" })
	h.outboxEmpty()
	if m := h.match(1); m.Where() != thread.ID || m.ThreadID != "" {
		t.Errorf("match #1 is played in %s (thread %q), want the thread alice waited in, %s", m.Where(), m.ThreadID, thread.ID)
	}
	for _, r := range h.srv.Requests("POST /channels/{channel_id}/messages/{message_id}/threads") {
		t.Errorf("the bot asked Discord for a thread from a message in a thread: %s %d", r.Path, r.Status)
	}
}
