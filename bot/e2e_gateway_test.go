package bot

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
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

// TestLoopPanicStopsTheBot: a bug in a loop that keeps the bot going (here
// the timers' read of the next deadline) stops the bot in order with
// ErrCrashed, for its supervisor to start it again; the log has where it
// happened, not the value the loop held, which may be a match's secret.
func TestLoopPanicStopsTheBot(t *testing.T) {
	t.Parallel()
	var logs logLines
	h := newHarness(t, logs.capture)
	h.startClassic()
	var secret any = fmt.Sprintf("the Marshal on %s", game.SquareAt(1, 6))
	h.reads.nextDeadlinePanics.Store(&secret)
	h.bot.nudgeTimers()
	var err error
	select {
	case err = <-h.exited:
	case <-time.After(10 * time.Second):
		t.Fatal("the bot still runs 10 s after its timers' loop panicked")
	}
	h.stop = func() { h.db.Close() }
	if !errors.Is(err, ErrCrashed) || !strings.Contains(err.Error(), "the timers panicked at") {
		t.Fatalf("the bot stopped with %v", err)
	}
	out := logs.String()
	if !strings.Contains(out, "a loop of the bot panicked; stopping") || !strings.Contains(out, `panic.kind="a value of type string"`) || !strings.Contains(out, "NextDeadline") {
		t.Fatalf("the log does not say where the loop panicked:\n%s", out)
	}
	if w := rankNames().FindString(out); w != "" || strings.Contains(out, "B7") {
		t.Errorf("the log shows what the loop held (%q):\n%s", w, out)
	}
}
