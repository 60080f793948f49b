package bot

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/web"
)

// TestCalledOffMatchRevealsNothing: a match a moderator calls off in play
// ends with no result, and so without the final reveal: neither player
// gets the Gravon record (it holds both set-ups), nor, by their web
// board's link, the record, the reveal, or a replay frame that shows a
// piece of the opponent's they never saw; the channel gets no final
// picture or replay.
func TestCalledOffMatchRevealsNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	base := webOn(t, h)
	h.startClassic()
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.waitMoves(1, 1)
	moderator(h)
	h.carol.SlashCommand(t, h.channel, "stratego cancel", discordtest.Opt(optMatch, "1"), discordtest.Opt(optReason, "test")).Reply(t)
	h.bot.deliverDue(context.Background())
	if m := h.match(1); m.Phase != storage.PhaseAbandoned {
		t.Fatalf("match phase %v after the cancel", m.Phase)
	}
	for _, player := range []struct {
		who      *discordtest.Member
		opponent string // the opponent's side in the web board's state
	}{{h.alice, "blue"}, {h.bob, "red"}} {
		record := player.who.SlashCommand(t, h.channel, "stratego record", discordtest.Opt(optMatch, "1")).Reply(t)
		if !strings.Contains(record.Content, txtRecordCalledOff) || len(record.Files) != 0 {
			t.Errorf("%s asking for the record of the called-off match: %q with %d files", player.who.Name, record.Content, len(record.Files))
		}
		history := player.who.SlashCommand(t, h.channel, "stratego history", discordtest.Opt(optMatch, "1")).Reply(t)
		if !strings.Contains(history.Content, "A4-A5") || len(history.Files) != 0 {
			t.Errorf("%s's history of the called-off match: %q with %d files", player.who.Name, history.Content, len(history.Files))
		}
		link := openBoardLink(t, history)
		for _, tc := range []struct {
			path string
			want int
		}{
			{"/api/record", http.StatusForbidden},
			{"/api/reveal", http.StatusForbidden},
			{"/api/replay?ply=0", http.StatusOK},
			{"/api/replay?ply=1", http.StatusOK},
			{"/api/state", http.StatusOK},
		} {
			status, body := apiStatus(t, base, link, "GET", tc.path, "")
			if status != tc.want {
				t.Errorf("%s's %s: %d %s, want %d", player.who.Name, tc.path, status, body, tc.want)
				continue
			}
			if status != http.StatusOK {
				continue
			}
			var st web.State
			if err := json.Unmarshal([]byte(body), &st); err != nil {
				t.Fatalf("%s: %v", tc.path, err)
			}
			for sq, c := range st.Board {
				if c.Side == player.opponent && c.Rank != 0 && !c.Revealed {
					t.Errorf("%s's %s shows the opponent's piece on square %d: rank %d", player.who.Name, tc.path, sq, c.Rank)
				}
			}
			if len(st.Board) == 0 {
				t.Errorf("%s's %s has no board: %s", player.who.Name, tc.path, body)
			}
		}
	}
	for _, msg := range h.srv.ChannelMessages(h.channel) {
		for _, f := range msg.Files {
			if f.Name == "final.png" || f.Name == "replay.gif" {
				t.Errorf("the channel got %s for the called-off match: %q", f.Name, msg.Content)
			}
		}
	}
}
