package bot

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestRevokedTokenStopsTheBot: a token reset while the bot runs closes its
// gateway with 4004, and every reconnect would get 4004 again: the bot
// stops, saying why and what to do, instead of retrying for ever.
func TestRevokedTokenStopsTheBot(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startClassic()
	h.srv.RevokeToken()
	var err error
	select {
	case err = <-h.exited:
	case <-time.After(10 * time.Second):
		t.Fatal("the bot still runs 10 s after its token was revoked")
	}
	h.stop = func() { h.db.Close() }
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "4004") || !strings.Contains(err.Error(), "into DISCORD_TOKEN") || strings.Count(err.Error(), "4004") != 1 {
		t.Fatalf("the bot stopped with %v", err)
	}
}

// TestGatewayDropMidGame: the connection drops, a player types a move in
// the DM while the bot is away, and the bot resumes its session: Discord
// replays the message, and the move is played once, with its messages.
func TestGatewayDropMidGame(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startClassic()
	h.waitMoves(1, 0)
	before := h.srv.GatewayStats()
	h.srv.DropGateway()
	h.alice.SendDM(t, "A4-A5")
	h.srv.WaitFor(t, "the resume", func() bool { return h.srv.GatewayStats().Resumes > before.Resumes })
	m := h.waitMoves(1, 1)
	if len(m.Log) != 1 {
		t.Fatalf("%d actions after one move", len(m.Log))
	}
	h.bob.WaitDM(t, contains("alice moved A4-A5"))
	h.bob.SendDM(t, "J7-J6")
	h.waitMoves(1, 2)
	answered := 0
	for _, dm := range h.alice.DMs() {
		if strings.Contains(dm.Content, "You moved") && strings.Contains(dm.Content, "A4-A5") {
			answered++
		}
	}
	if answered != 1 {
		t.Errorf("alice's DM move was answered %d times", answered)
	}
	if after := h.srv.GatewayStats(); after.Replayed == before.Replayed || after.Identifies != before.Identifies {
		t.Errorf("gateway before %+v, after %+v: want a resume that replayed the DM, and no new IDENTIFY", before, after)
	}
}
