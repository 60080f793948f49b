package bot

import (
	"strings"
	"testing"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// originalEditRoute is the route of an edit of an interaction's first answer.
const originalEditRoute = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"

// TestResignQuestionKeepPlayingRaced: Keep playing pressed under the
// question of /stratego resign, whose answer Discord is slow to take,
// and Resign pressed meanwhile, which resigns: the question ends telling
// that the player resigned, however late Keep playing's answer comes.
// It read the match before the resignation was stored, and its answer,
// reaching Discord after Resign's, left "You keep playing." under the
// question of a match resigned.
func TestResignQuestionKeepPlayingRaced(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.dayMatch()
	h.waitMoves(1, 0)
	ask := h.alice.SlashCommand(t, h.channel, "stratego resign").Reply(t)
	hold := h.srv.HoldNext(t, callbackRoute, 1)
	keep := h.alice.ClickButton(t, ask, button(t, ask, "Keep playing"))
	h.srv.WaitFor(t, "Keep playing's answer held", func() bool { return hold.Waiting() == 1 })
	resigned := ask.Content + "\nYou resigned."
	if got := h.alice.ClickButton(t, ask, button(t, ask, "Resign")).Updated(t); got.Content != resigned {
		t.Fatalf("Resign's answer: %q", got.Content)
	}
	if m := h.match(1); m.Phase.Active() {
		t.Fatal("Resign did not end the match")
	}
	hold.Release()
	keep.Updated(t)
	h.srv.WaitFor(t, "the question to tell the resignation", func() bool {
		m := h.srv.Message(ask.ID)
		return m != nil && m.Content == resigned && len(m.Buttons()) == 0
	})
}

// TestResignQuestionEditFails: Resign pressed under the question of
// /stratego resign, whose answer the bot defers and then writes in the
// question. Discord failing that edit for a while (a 5xx) has it written
// again; Discord refusing it (the player dismissed the private question:
// Unknown Message) has the player told by a follow-up that they resigned.
// The question kept its buttons and nothing told them.
func TestResignQuestionEditFails(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		fail     func(h *harness)
		followUp bool
	}{
		{"failed once", func(h *harness) { h.srv.FailNext(h.t, originalEditRoute, 1, 500) }, false},
		{"refused", func(h *harness) { h.srv.RefuseNext(h.t, originalEditRoute, 1, discordtest.UnknownMessage()) }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.dayMatch()
			h.waitMoves(1, 0)
			ask := h.alice.SlashCommand(t, h.channel, "stratego resign").Reply(t)
			tc.fail(h)
			in := h.alice.ClickButton(t, ask, button(t, ask, "Resign"))
			if tc.followUp {
				if got := h.followUp(in); !strings.Contains(got.Content, "You resigned.") || !got.Ephemeral {
					t.Errorf("the follow-up reads %q (ephemeral: %v)", got.Content, got.Ephemeral)
				}
			} else {
				h.srv.WaitFor(t, "the question to tell the resignation", func() bool {
					m := h.srv.Message(ask.ID)
					return m != nil && strings.Contains(m.Content, "You resigned.") && len(m.Buttons()) == 0
				})
			}
			if m := h.match(1); m.Phase.Active() {
				t.Error("Resign did not end the match")
			}
		})
	}
}
