package bot

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
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

// TestWebRefusedLinkInSetupSaysWhereToGetAnother: a player whose links
// died (revoked, or expired) during the set-up, when no board comes by DM
// and /stratego history has no game to show, is told of /stratego setup,
// whose answer carries a fresh link that works.
func TestWebRefusedLinkInSetupSaysWhereToGetAnother(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	base := webOn(t, h)
	h.challenge("Classic")
	old := openBoardLink(t, h.alice.WaitDM(t, contains("Send me your secret set-up")))
	h.alice.SlashCommand(t, h.channel, "stratego settings", discordtest.Opt("revoke_links", true)).Reply(t)
	status, body := apiStatus(t, base, old, "GET", "/api/state", "")
	if status != http.StatusGone || !strings.Contains(body, "/stratego setup") {
		t.Fatalf("the revoked link in the set-up: %d %s, want a word of /stratego setup", status, body)
	}
	fresh := openBoardLink(t, h.alice.SlashCommand(t, h.channel, "stratego setup").Reply(t))
	if status, body := apiStatus(t, base, fresh, "GET", "/api/state", ""); status != http.StatusOK {
		t.Fatalf("the link /stratego setup gave: %d %s", status, body)
	}
}
