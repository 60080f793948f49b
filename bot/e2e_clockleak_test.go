package bot

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestClockMatchLeaksNothing is the leak comparison of a match on a game
// clock, followed by a third member by DM, as each member's client shows
// it: Bob's DMs and the channel's posts in their order, each with how
// often it was edited, Carol's DMs as a follower, Bob's answers between
// moves, and every message the bot sent to those three channels as it went
// over the wire, nonce included (a client reads a message's nonce in
// MESSAGE_CREATE; the bot's are made of its notices' numbers, so they count
// the notices recorded between two messages). Played twice with Red's
// hidden pieces shuffled, each is the same, the finale aside (it shows
// every piece by design). The clocks stand in the pictures, their alt texts
// and the texts, and each side's time starts when its board arrives, so
// they are compared too.
func TestClockMatchLeaksNothing(t *testing.T) {
	t.Parallel()
	red := leakRed(t)
	shuffled := marshalAndBombSwapped(red)
	shuffled[3][5], shuffled[3][9] = shuffled[3][9], shuffled[3][5]
	audiences := []string{"Bob's DMs", "Carol's DMs", "the channel", "Bob's answers", "the requests to Bob's DM", "the requests to Carol's DM", "the requests to the channel"}
	saw := make([][2][]string, len(audiences))
	bothWays(t, red, shuffled, func(t *testing.T, k int, setup game.Setup) {
		h := newHarness(t)
		h.challenge("Classic", discordtest.Opt("clock", "10+5"))
		h.sendSetups(setup, placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant, {0, 5}: game.Flag}))
		h.waitMoves(1, 0)
		h.carol.SlashCommand(t, h.channel, "stratego watch", discordtest.Opt("match", "1"), discordtest.Opt("follow", true)).Reply(t)
		for j, mv := range []string{"A4-A5", "J7-J6", "A5-A6", "J6-J5", "E4xE7"} {
			// Each move takes its own time, so that the clocks change.
			h.advance(time.Duration(3+4*j) * time.Second)
			mover := h.alice
			if j%2 == 1 {
				mover = h.bob
			}
			mover.SendDM(t, mv)
			h.waitMoves(1, j+1)
			h.outboxEmpty()
			if j < 4 {
				h.bob.SlashCommand(t, h.channel, "stratego board").Reply(t)
				h.bob.SlashCommand(t, h.channel, "stratego board", discordtest.Opt("text", true)).Reply(t)
				h.bob.SlashCommand(t, h.channel, "stratego history").Reply(t)
			}
		}
		h.bob.WaitDM(t, contains("You lost: your Flag was captured"))
		h.outboxEmpty()
		// Each harness draws its members' and channels' ids.
		bobDM, carolDM := h.bob.DM().ID, h.carol.DM().ID
		ids := strings.NewReplacer(h.alice.ID, "alice", h.bob.ID, "bob", h.carol.ID, "carol", bobDM, "bob-dm", carolDM, "carol-dm", h.channel.ID, "channel")
		seen := func(lines []string) []string {
			for i, line := range lines {
				lines[i] = ids.Replace(line)
			}
			return lines
		}
		saw[0][k] = seen(inOrder(h.bob.DMs()))
		saw[1][k] = seen(inOrder(h.carol.DMs()))
		saw[2][k] = seen(inOrder(h.carol.Messages(h.channel)))
		saw[3][k] = seen(transcript(h, h.bob, true))
		for i, channel := range []string{bobDM, carolDM, h.channel.ID} {
			saw[4+i][k] = seen(requestsTo(h, channel))
		}
		joined := strings.Join(saw[0][k], "\n")
		for _, want := range []string{"Clocks: alice 9:", "[board.png ", "<menu ", "captured your Flag"} {
			if !strings.Contains(joined, want) {
				t.Fatalf("Bob never saw %q: the comparison proves little:\n%s", want, joined)
			}
		}
		if len(saw[1][k]) < 5 || len(saw[6][k]) < 6 {
			t.Fatalf("too little to compare: Carol got %d DMs, the channel %d messages", len(saw[1][k]), len(saw[6][k]))
		}
	})
	if t.Failed() {
		return
	}
	for i, who := range audiences {
		sameSight(t, who, saw[i])
	}
}

// inOrder is what a member sees of the bot's messages in one channel, in
// the order they came: each one's text, files, controls and how often it
// was edited; the finale, which shows every piece, left out.
func inOrder(msgs []*discordtest.Message) []string {
	var out []string
	for _, msg := range msgs {
		if !msg.FromBot() || finale(msg.Files) {
			continue
		}
		line := fmt.Sprintf("edited %d: %s", msg.Edits, ownExample.ReplaceAllString(msg.Content, "${1}<the member's own example>\n"))
		for _, f := range msg.Files {
			line += fmt.Sprintf(" [%s %x %q]", f.Name, sha256.Sum256(f.Data), f.Description)
		}
		out = append(out, line+controlsOf(msg))
	}
	return out
}

// finale reports whether files are the final reveal's.
func finale(files []discordtest.File) bool {
	for _, f := range files {
		if f.Name == "final.png" || f.Name == "replay.gif" {
			return true
		}
	}
	return false
}

// messageIDs are the ids of messages in request paths: each run's own.
var messageIDs = regexp.MustCompile(`/messages/\d+`)

// requestsTo lists the requests the bot made to channel, in order: each
// one's method, path and body (its nonce with it; a set-up invite's own
// example left out, as transcript leaves it) and files, the finale's left
// out.
func requestsTo(h *harness, channel string) []string {
	var out []string
	for _, r := range h.srv.Requests("") {
		if !strings.Contains(r.Path, "/channels/"+channel+"/") || finale(r.Files) {
			continue
		}
		body := string(r.Body)
		var fields map[string]any
		if json.Unmarshal(r.Body, &fields) == nil {
			if content, ok := fields["content"].(string); ok {
				fields["content"] = ownExample.ReplaceAllString(content, "${1}<the member's own example>\n")
			}
			text, _ := json.Marshal(fields)
			body = string(text)
		}
		line := r.Method + " " + messageIDs.ReplaceAllString(r.Path, "/messages/ID") + " " + body
		for _, f := range r.Files {
			line += fmt.Sprintf(" [%s %x]", f.Name, sha256.Sum256(f.Data))
		}
		out = append(out, line)
	}
	return out
}
