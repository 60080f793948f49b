package bot

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestCommandOfTwoProcessesHandledOnce: two processes of one shard (a
// deploy, the new one connected before the old one left) are both given
// alice's move, and both defer it. Discord takes the first deferral and
// answers the second that the interaction was answered already (40060):
// that process stops there, and the move is played and answered once. It
// took every 40060 for its own deferral sent again after a 502, and went
// on: the second process found the move played, and its "It is not your
// turn yet" replaced alice's answer.
func TestCommandOfTwoProcessesHandledOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startClassic()
	h.bob.WaitDM(t, contains("the match begins"))
	h.channelSays("the match begins")
	h.outboxEmpty()
	h.secondProcess(t)
	hold := h.srv.HoldNext(t, callbackRoute, 2)
	in := h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5"))
	h.srv.WaitFor(t, "both processes to defer alice's move", func() bool { return hold.Waiting() == 2 })
	hold.Release()
	got := in.Reply(t)
	h.waitMoves(1, 1)
	h.bob.WaitDM(t, contains("alice moved A4-A5"))
	h.channelSays("alice moved A4-A5")
	h.outboxEmpty()
	h.seenOnce(t, "A4-A5")
	if !strings.Contains(got.Content, "A4-A5") {
		t.Errorf("alice's answer says %q; want her move", got.Content)
	}
	edits := 0
	for _, r := range h.srv.Requests(originalEditRoute) {
		if strings.Contains(r.Path, in.Token) {
			edits++
		}
	}
	if edits != 1 {
		t.Errorf("alice's answer was edited %d times; want once, by the process whose deferral Discord took", edits)
	}
}

// secondProcess starts another bot process on h's store, with a gateway
// session of its own on the same shard: as during a deploy, both are given
// every interaction. It stops at the test's end.
func (h *harness) secondProcess(t *testing.T) *Bot {
	t.Helper()
	pics, err := sharedRenderer()
	if err != nil {
		t.Fatal(err)
	}
	cfg := h.cfg
	cfg.Now, cfg.Logger = h.clock.Now, slog.New(slog.DiscardHandler)
	b := New(cfg, h.srv.NewSession(t), h.reads, pics)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("the second process stopped with %v", err)
		}
	})
	h.srv.WaitFor(t, "the second process's /stratego command", b.registered.Load)
	return b
}
