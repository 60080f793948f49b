package bot

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
)

// TestLiveBoard: in the live board mode the match is one message in the
// channel, the challenge's, edited after every move to show the board and
// the move; the finale is a message of its own. Every version of the live
// message is the same whatever Red's hidden pieces are.
func TestLiveBoard(t *testing.T) {
	t.Parallel()
	red := leakRed(t)
	live := boardMode(t, "live")
	var versions [2][]string
	bothWays(t, red, marshalAndBombSwapped(red), func(t *testing.T, k int, setup game.Setup) {
		h, _, _ := playClassic(t, setup, live)
		var boards, finales int
		for _, msg := range h.srv.ChannelMessages(h.channel) {
			switch {
			case len(msg.Files) == 2:
				finales++
			case len(msg.Files) == 1:
				boards++
				if !strings.Contains(msg.Content, "captured bob's Flag") || msg.Edits < 6 {
					t.Errorf("the live message after the game: %q, %d edits", msg.Content, msg.Edits)
				}
			}
		}
		if boards != 1 || finales != 1 {
			t.Errorf("the channel has %d boards and %d finales; want the one live message and the finale", boards, finales)
		}
		for _, r := range h.srv.Requests("PATCH /channels/{channel_id}/messages/{message_id}") {
			var body map[string]any
			if err := json.Unmarshal(r.Body, &body); err != nil {
				t.Fatal(err)
			}
			delete(body, "ID") // the ids of the run's own channel and message
			delete(body, "Channel")
			text, _ := json.Marshal(body)
			line := string(text)
			for _, f := range r.Files {
				line += fmt.Sprintf(" [%s %x]", f.Name, sha256.Sum256(f.Data))
			}
			versions[k] = append(versions[k], line)
		}
	})
	if len(versions[0]) < 6 || !slices.Equal(versions[0], versions[1]) {
		t.Errorf("the live message's %d versions differ with Red's hidden pieces shuffled: %s", len(versions[0]), firstDiff(versions[0], versions[1]))
	}
}
