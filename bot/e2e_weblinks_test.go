package bot

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/web"
)

// TestWebLinkInPrivateAnswers: /stratego setup and /stratego board, the
// ways to set up and to see the board for a player whose DMs are closed,
// carry the player's own "Open board" link, as the set-up invite and the
// board DMs do: in a server the answers are ephemeral, the member's alone.
// Without it such a player could not reach the web board before the game
// began.
func TestWebLinkInPrivateAnswers(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	base := webOn(t, h)
	h.challenge("Classic")
	viewerOf := func(who string, link string) string {
		t.Helper()
		status, body := apiStatus(t, base, link, "GET", "/api/state", "")
		var st web.State
		if err := json.Unmarshal([]byte(body), &st); status != http.StatusOK || err != nil {
			t.Fatalf("%s's link: %d %s", who, status, body)
		}
		return st.Viewer
	}
	answer := h.alice.SlashCommand(t, h.channel, "stratego setup").Reply(t)
	if !answer.Ephemeral {
		t.Fatalf("/stratego setup answered in public: %q", answer.Content)
	}
	if got := viewerOf("alice's /stratego setup", openBoardLink(t, answer)); got != "red" {
		t.Fatalf("alice's /stratego setup links to the %s view", got)
	}
	answer = h.bob.SlashCommand(t, h.channel, "stratego setup").Reply(t)
	if got := viewerOf("bob's /stratego setup", openBoardLink(t, answer)); got != "blue" {
		t.Fatalf("bob's /stratego setup links to the %s view", got)
	}

	h.sendSetups(placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant}), placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant}))
	answer = h.bob.SlashCommand(t, h.channel, "stratego board").Reply(t)
	if !answer.Ephemeral {
		t.Fatalf("/stratego board answered in public: %q", answer.Content)
	}
	if got := viewerOf("bob's /stratego board", openBoardLink(t, answer)); got != "blue" {
		t.Fatalf("bob's /stratego board links to the %s view", got)
	}
}
