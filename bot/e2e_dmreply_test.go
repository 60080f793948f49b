package bot

import (
	"strings"
	"testing"
)

// TestDMAnswerThroughTrouble: bob types a move in his DM while it is
// alice's turn, and Discord fails the bot's answer (a 503), or makes it and
// loses its answer to the bot. The answer, his one word of what his message
// did, arrives once all the same (it was given up at the first failure),
// and the answer to his next DM after it.
func TestDMAnswerThroughTrouble(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		fault func(h *harness)
	}{
		{"503", func(h *harness) { h.srv.FailNextIn(h.t, createMessageRoute, h.bob.DM(), 1, 503) }},
		{"answer lost", func(h *harness) { h.srv.LoseAnswerNextIn(h.t, createMessageRoute, h.bob.DM(), 1, 503) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.startClassic()
			h.bob.WaitDM(t, contains("the match begins"))
			h.outboxEmpty()
			before := len(h.bob.DMs())
			tc.fault(h)
			h.bob.SendDM(t, "J7-J6")
			answers := func() []string {
				var got []string
				for _, msg := range h.bob.DMs()[before:] {
					if msg.Author.ID != h.bob.ID {
						got = append(got, msg.Content)
					}
				}
				return got
			}
			h.srv.WaitFor(t, "bob's answer", func() bool { return len(answers()) > 0 })
			h.outboxEmpty()
			h.bob.SendDM(t, "hello") // and its answer, after any second one
			h.srv.WaitFor(t, "the answer to bob's next DM", func() bool { return len(answers()) > 1 })
			got := answers()
			if len(got) != 2 || !strings.Contains(got[0], "waiting for your move") {
				t.Errorf("bob was answered %q; want once that no match waits for his move, then the next answer", got)
			}
			if m := h.match(1); m.Moves() != 0 {
				t.Errorf("the match has %d moves; want none", m.Moves())
			}
		})
	}
}

// TestDMAnswerGivenUpAtStop: the bot is stopped while it waits to ask
// Discord again for the answer to bob's DM, which Discord failed. The
// wait ends with the stop, and Run returns: it waited the backoff out,
// the handler's own time outliving the stop, and Run waits for the
// handlers.
func TestDMAnswerGivenUpAtStop(t *testing.T) {
	t.Parallel()
	var logs logLines
	h := newHarness(t, logs.capture)
	h.startClassic()
	h.bob.WaitDM(t, contains("the match begins"))
	h.outboxEmpty()
	failed := func() int {
		n := 0
		for _, r := range h.srv.Requests(createMessageRoute) {
			if r.Status == 503 {
				n++
			}
		}
		return n
	}
	h.srv.FailNextIn(t, createMessageRoute, h.bob.DM(), 5, 503)
	h.bob.SendDM(t, "J7-J6")
	h.srv.WaitFor(t, "the answer to bob's DM to fail", func() bool { return failed() == 1 })
	h.shutdown()
	if !strings.Contains(logs.String(), "answering a DM given up: the bot stops") {
		t.Errorf("the bot's log does not say the answer was given up as it stopped:\n%s", logs.String())
	}
	if n := failed(); n != 1 {
		t.Errorf("the answer was asked %d times; want once, before the stop", n)
	}
}

// TestDMAnswerToDMDeleted: bob deletes the DM he typed before the bot's
// answer to it reaches Discord (sent again after a failure, say). The
// answer arrives all the same, replying to nothing: as a reply to a
// message gone, Discord refused it (50035, Unknown message), and bob was
// told nothing.
func TestDMAnswerToDMDeleted(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startClassic()
	h.bob.WaitDM(t, contains("the match begins"))
	h.outboxEmpty()
	hold := h.srv.HoldNextIn(t, createMessageRoute, h.bob.DM(), 1)
	dm := h.bob.SendDM(t, "J7-J6")
	h.srv.WaitFor(t, "the answer to bob's DM to be on its way", func() bool { return hold.Waiting() == 1 })
	h.bob.Delete(t, dm)
	hold.Release()
	answer := h.bob.WaitDM(t, contains("waiting for your move"))
	if answer.MessageReference != nil {
		t.Errorf("the answer replies to %+v; want to nothing, bob's DM gone", answer.MessageReference)
	}
}
