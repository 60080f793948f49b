package bot

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage"
)

// editRoute is the route of a message's edit.
const editRoute = "PATCH /channels/{channel_id}/messages/{message_id}"

// editsOf counts the edits of message id that Discord answered: made, or
// refused with code (0: made).
func editsOf(h *harness, id string, code int) int {
	n := 0
	for _, r := range h.srv.Requests(editRoute) {
		if strings.HasSuffix(r.Path, "/messages/"+id) && r.Code == code && (code != 0 || r.Status < 300) {
			n++
		}
	}
	return n
}

// settledAs waits until the DM msg says, on its last line, what became of
// its offer, and has no button left; it fails unless Discord made exactly
// one edit of it.
func settledAs(t *testing.T, h *harness, msg *discordtest.Message, line string) {
	t.Helper()
	h.bot.deliverDue(t.Context())
	var now *discordtest.Message
	h.srv.WaitFor(t, "the DM to say "+line, func() bool {
		now = h.srv.Message(msg.ID)
		return now != nil && strings.HasSuffix(now.Content, "\n"+line)
	})
	if len(now.Buttons()) != 0 {
		t.Errorf("the settled offer's DM keeps its buttons: %q", controlsOf(now))
	}
	if !strings.HasPrefix(now.Content, msg.Content+"\n") {
		t.Errorf("the settled offer's DM reads %q, want what it said (%q) and a line", now.Content, msg.Content)
	}
	h.outboxEmpty()
	if n := editsOf(h, msg.ID, 0); n != 1 {
		t.Errorf("the DM was edited %d times, want once", n)
	}
}

// pressStale presses a button of an offer's DM, which the outbox takes
// away once the offer is settled: as a client that has not yet shown the
// edit sends it, whether or not the DM still shows the button. A press
// made after the offer settled races the edit.
func pressStale(t *testing.T, who *discordtest.Member, msg *discordtest.Message, label string) *discordtest.Interaction {
	t.Helper()
	return who.ForgeClick(t, msg, button(t, msg, label))
}

// editHeld holds the outbox's next edit in member's DM, which takes the
// buttons of a settled offer away, until the test ends: a press of them
// made meanwhile races the edit, and is answered from the match as it
// stands. Nothing may wait for a pass of the outbox meanwhile.
func editHeld(t *testing.T, h *harness, member *discordtest.Member) {
	t.Helper()
	held := h.srv.HoldNextIn(t, editRoute, member.DM(), 1)
	t.Cleanup(held.Release)
}

// answerButton reports whether customID is a button that goes once
// answered: a draw offer's or a proposal to pause's DM's, or the question
// of /stratego resign's.
func answerButton(customID string) bool {
	id, err := parseCustomID(customID)
	return err == nil && (id.kind == kindDraw || id.kind == kindPause || id.kind == kindResign)
}

// TestSettledOfferDMs: the DM that asks Bob about Alice's draw offer or
// proposal to pause loses its buttons once the offer is settled, and says
// what became of it, edited once: accepted, declined, withdrawn, lapsed as
// the game went on, or ended with the match. It kept live buttons, which
// refused a press only once pressed.
func TestSettledOfferDMs(t *testing.T) {
	t.Parallel()
	move := func(h *harness, who *discordtest.Member, from, to string, moves int) {
		who.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", from), discordtest.Opt("to", to)).Reply(t)
		h.waitMoves(1, moves)
	}
	draw := func(h *harness) *discordtest.Message {
		h.alice.SlashCommand(t, h.channel, "stratego draw").Reply(t)
		h.bot.deliverDue(t.Context())
		return h.bob.WaitDM(t, contains("alice offers a draw."))
	}
	pause := func(h *harness) *discordtest.Message {
		h.alice.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("days", 3)).Reply(t)
		h.bot.deliverDue(t.Context())
		return h.bob.WaitDM(t, contains("alice proposes to pause the match for 3 days"))
	}
	for _, tc := range []struct {
		name   string
		ask    func(h *harness) *discordtest.Message
		settle func(h *harness, ask *discordtest.Message)
		line   string
	}{
		{"draw accepted", draw, func(h *harness, ask *discordtest.Message) {
			h.bob.ClickButton(t, ask, button(t, ask, "Accept draw")).Reply(t)
		}, "Accepted."},
		{"draw declined", draw, func(h *harness, ask *discordtest.Message) {
			h.bob.ClickButton(t, ask, button(t, ask, "Decline")).Reply(t)
		}, "Declined."},
		{"draw withdrawn", draw, func(h *harness, _ *discordtest.Message) {
			h.alice.SlashCommand(t, h.channel, "stratego draw", discordtest.Opt("action", "decline")).Reply(t)
		}, "Withdrawn."},
		{"draw lapsed", draw, func(h *harness, _ *discordtest.Message) {
			// Bob moves without answering, and Alice moves again.
			move(h, h.alice, "A4", "A5", 1)
			move(h, h.bob, "J7", "J6", 2)
			move(h, h.alice, "A5", "A6", 3)
		}, "No longer stands: the game went on."},
		{"draw over", draw, func(h *harness, _ *discordtest.Message) {
			ask := h.alice.SlashCommand(t, h.channel, "stratego resign").Reply(t)
			h.alice.ClickButton(t, ask, button(t, ask, "Resign")).Updated(t)
		}, "The match is over."},
		{"pause accepted", pause, func(h *harness, ask *discordtest.Message) {
			h.bob.ClickButton(t, ask, button(t, ask, "Pause")).Reply(t)
		}, "Accepted."},
		{"pause declined", pause, func(h *harness, ask *discordtest.Message) {
			h.bob.ClickButton(t, ask, button(t, ask, "Decline")).Reply(t)
		}, "Declined."},
		{"pause withdrawn", pause, func(h *harness, _ *discordtest.Message) {
			h.alice.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("action", "decline")).Reply(t)
		}, "Withdrawn."},
		{"pause made again for other days", pause, func(h *harness, _ *discordtest.Message) {
			// The new proposal's DM is delivered, and recorded, before the
			// first's edit: it took the first's place in the record.
			h.alice.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("days", 5)).Reply(t)
			h.bot.deliverDue(t.Context())
			h.bob.WaitDM(t, contains("alice proposes to pause the match for 5 days"))
		}, "Withdrawn."},
		{"pause lapsed", pause, func(h *harness, _ *discordtest.Message) {
			// Bob, asked, moves without answering.
			move(h, h.alice, "A4", "A5", 1)
			move(h, h.bob, "J7", "J6", 2)
		}, "No longer stands: the game went on."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.dayMatch()
			h.waitMoves(1, 0)
			ask := tc.ask(h)
			tc.settle(h, ask)
			settledAs(t, h, ask, tc.line)
		})
	}
}

// TestSettledOfferInBobsLanguage: the line is in the reader's language.
func TestSettledOfferInBobsLanguage(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ locale, line string }{
		{"nl", "Geweigerd."},
		{"de", "Abgelehnt."},
		{"fr", "Refusée."},
	} {
		t.Run(c.locale, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.dayMatch()
			h.waitMoves(1, 0)
			h.bob.SetLocale(c.locale)
			h.bob.SlashCommand(t, h.channel, "stratego games").Reply(t) // the bot learns his language
			h.alice.SlashCommand(t, h.channel, "stratego draw").Reply(t)
			h.bot.deliverDue(t.Context())
			ask := h.bob.WaitDM(t, func(m *discordtest.Message) bool { return len(m.Buttons()) == 2 })
			h.bob.SlashCommand(t, h.channel, "stratego draw", discordtest.Opt("action", "decline")).Reply(t)
			settledAs(t, h, ask, c.line)
		})
	}
}

// TestSettledOfferAcrossRestart: the bot stops while the edit of the DM
// of a declined draw offer is on its way (Discord holds it); the bot that
// starts again edits it, once.
func TestSettledOfferAcrossRestart(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.dayMatch()
	h.waitMoves(1, 0)
	h.alice.SlashCommand(t, h.channel, "stratego draw").Reply(t)
	h.bot.deliverDue(t.Context())
	ask := h.bob.WaitDM(t, contains("alice offers a draw."))
	held := h.srv.HoldNextIn(t, editRoute, h.bob.DM(), 1)
	defer held.Release() // never: the cut edit stays unanswered
	h.bob.ClickButton(t, ask, button(t, ask, "Decline")).Reply(t)
	h.srv.WaitFor(t, "Discord to hold the edit", func() bool { return held.Waiting() > 0 })
	h.shutdown()
	if n := editsOf(h, ask.ID, 0); n != 0 {
		t.Fatalf("the DM was edited %d times before the restart", n)
	}
	h.start()
	settledAs(t, h, ask, "Declined.")
	h.alice.WaitDM(t, contains("bob declined the draw"))
}

// TestSettledOfferDMGone: the DM of a settled offer is gone when it is to
// be edited (Discord answers Unknown Message): the edit is given up
// quietly, once tried, and what Bob is owed next still comes.
func TestSettledOfferDMGone(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.dayMatch()
	h.waitMoves(1, 0)
	h.alice.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("days", 2)).Reply(t)
	h.bot.deliverDue(t.Context())
	ask := h.bob.WaitDM(t, contains("alice proposes to pause the match for 2 days"))
	h.srv.RefuseNextIn(t, editRoute, h.bob.DM(), 1, discordtest.UnknownMessage())
	h.bob.ClickButton(t, ask, button(t, ask, "Decline")).Reply(t)
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.waitMoves(1, 1)
	h.bob.WaitDM(t, contains("A5"))
	h.outboxEmpty()
	if n := editsOf(h, ask.ID, 10008); n != 1 {
		t.Errorf("the gone DM's edit was tried %d times, want once", n)
	}
	if now := h.srv.Message(ask.ID); now == nil || len(now.Buttons()) != 2 {
		t.Errorf("the refused edit changed the DM: %+v", now)
	}
	if m := h.match(1); m.Phase != storage.PhasePlaying {
		t.Errorf("the match is %v", m.Phase)
	}
	// Bob's DMs reach him: neither he nor the channel is told otherwise.
	if s, err := h.db.Player(t.Context(), h.bob.ID); err != nil || !s.DMBlockedAt.IsZero() {
		t.Errorf("Bob's DMs are taken for closed since %v (%v)", s.DMBlockedAt, err)
	}
	for _, msg := range h.srv.ChannelMessages(h.channel) {
		if strings.Contains(msg.Content, "can't send you direct messages") {
			t.Errorf("the channel is told of the gone DM: %q", msg.Content)
		}
	}
}

// TestSettledOfferDMAnswerLost: Discord makes the DM that asks Bob about
// Alice's offer, but its answer to the create is lost (a 503); the bot
// learns from the gateway that the DM arrived, and records it as the one
// that asked all the same: once Bob declines, it loses its buttons, and
// says what it said. Known made only by its nonce, it was never recorded,
// and kept its live buttons.
func TestSettledOfferDMAnswerLost(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, command, asks string
		opts                []discordtest.Arg
	}{
		{"draw", "stratego draw", "alice offers a draw.", nil},
		{"pause", "stratego pause", "alice proposes to pause the match for 3 days", []discordtest.Arg{discordtest.Opt("days", 3)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.dayMatch()
			h.waitMoves(1, 0)
			h.srv.LoseAnswerNextIn(t, "POST /channels/{channel_id}/messages", h.bob.DM(), 1, http.StatusServiceUnavailable)
			h.alice.SlashCommand(t, h.channel, tc.command, tc.opts...).Reply(t)
			h.bot.deliverDue(t.Context())
			ask := h.bob.WaitDM(t, contains(tc.asks))
			// Whether the gateway told before the 503 came or after it,
			// the outbox knows the DM made once it has heard, and tries
			// no create again.
			h.srv.WaitFor(t, "the bot to hear its DM made", func() bool {
				if _, owed, err := h.db.NextNotice(t.Context()); err == nil && !owed {
					return true
				}
				h.bot.made.mu.Lock()
				defer h.bot.made.mu.Unlock()
				for _, made := range h.bot.made.watched {
					if !made.at.IsZero() {
						return true
					}
				}
				return false
			})
			for k := 0; ; k++ {
				due, err := h.db.DueNotices(t.Context(), h.clock.Now().Add(24*time.Hour), 0)
				if err != nil {
					t.Fatal(err)
				}
				if len(due) == 0 {
					break
				}
				if k == 20 {
					t.Fatalf("still owed after 20 tries: %+v", due)
				}
				h.advance(max(time.Second, due[0].NextTry.Sub(h.clock.Now())))
			}
			if n := countDMs(h.bob, tc.asks); n != 1 {
				t.Fatalf("Bob was asked %d times, want once", n)
			}
			h.bob.ClickButton(t, ask, button(t, ask, "Decline")).Reply(t)
			settledAs(t, h, ask, "Declined.")
		})
	}
}

// TestSettledOfferDMUnrecorded: the database is away as the outbox records
// the DM that asks Bob about Alice's draw offer as the one to edit. The
// notice is left for a later pass, which sends it again with the same
// nonce: Discord makes no second DM, and answers with the first, which is
// recorded; once Bob declines, it loses its buttons. The failure was
// logged and the notice done, and the DM kept its live buttons.
func TestSettledOfferDMUnrecorded(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.dayMatch()
	h.waitMoves(1, 0)
	h.alice.SlashCommand(t, h.channel, "stratego draw").Reply(t)
	h.reads.failUpdateMatch.Store(1)
	h.bot.deliverDue(t.Context())
	ask := h.bob.WaitDM(t, contains("alice offers a draw."))
	if n := h.reads.failUpdateMatch.Load(); n != 0 {
		t.Fatalf("%d failures of the database left unused", n)
	}
	h.bot.deliverDue(t.Context()) // the next pass, if the bot has not run it yet
	h.outboxEmpty()
	if n := countDMs(h.bob, "alice offers a draw."); n != 1 {
		t.Fatalf("Bob was asked %d times, want once", n)
	}
	h.bob.ClickButton(t, ask, button(t, ask, "Decline")).Reply(t)
	settledAs(t, h, ask, "Declined.")
}

// TestSettledOfferDMRefusedForGood: the store refuses for good to record
// the DM that asks Bob about Alice's draw offer (the match no longer
// passes its checks, storage.ErrInvalid). No later pass could record it,
// so the notice is done at once: Bob is asked once, and his queue does not
// wait behind it, to be asked again with live buttons each time Discord's
// nonce window has passed.
func TestSettledOfferDMRefusedForGood(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.dayMatch()
	h.waitMoves(1, 0)
	h.alice.SlashCommand(t, h.channel, "stratego draw").Reply(t)
	invalid := fmt.Errorf("match 1: %w", storage.ErrInvalid)
	h.reads.failUpdateMatchWith.Store(&invalid)
	h.reads.failUpdateMatch.Store(1 << 20) // for good
	h.bot.deliverDue(t.Context())
	h.bob.WaitDM(t, contains("alice offers a draw."))
	h.outboxEmpty()
	h.reads.failUpdateMatch.Store(0)
	if n := countDMs(h.bob, "alice offers a draw."); n != 1 {
		t.Fatalf("Bob was asked %d times, want once", n)
	}
}

// TestStalePressOnceTheMatchIsOver: once the match ended, a press of a
// button of a draw offer's or a proposal to pause's DM, which lost its
// buttons with the ending, as a client that has not shown the edit sends
// it, is told that the match is over, in the presser's language: it was
// told that the message changed as the player chose, and to choose again
// from what it shows, where nothing is left to choose.
func TestStalePressOnceTheMatchIsOver(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		ask     func(h *harness) *discordtest.Message
		buttons []string
	}{
		{"draw", func(h *harness) *discordtest.Message {
			h.alice.SlashCommand(t, h.channel, "stratego draw").Reply(t)
			h.bot.deliverDue(t.Context())
			return h.bob.WaitDM(t, contains("alice offers a draw."))
		}, []string{"Accept draw", "Decline"}},
		{"pause", func(h *harness) *discordtest.Message {
			h.alice.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("days", 3)).Reply(t)
			h.bot.deliverDue(t.Context())
			return h.bob.WaitDM(t, contains("alice proposes to pause the match for 3 days"))
		}, []string{"Pause", "Decline"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.dayMatch()
			h.waitMoves(1, 0)
			ask := tc.ask(h)
			resign := h.alice.SlashCommand(t, h.channel, "stratego resign").Reply(t)
			h.alice.ClickButton(t, resign, button(t, resign, "Resign")).Updated(t)
			settledAs(t, h, ask, "The match is over.")
			h.bob.SetLocale("de")
			h.bob.SlashCommand(t, h.channel, "stratego games").Reply(t) // the bot learns his language
			de := lang.For("de")
			for _, label := range tc.buttons {
				got := pressStale(t, h.bob, ask, label).Reply(t)
				if want := de.Sprintf("This match is over. `/stratego games` lists your running matches."); got.Content != want || !got.Ephemeral {
					t.Errorf("%s pressed once the match is over answered %q (ephemeral: %v), want %q", label, got.Content, got.Ephemeral, want)
				}
			}
		})
	}
}

// TestResignQuestionAnswered: the question of /stratego resign is answered
// in its message: what it asked, the answer under it, and no button left,
// whether the player resigned or kept playing, or the match was over by
// then. Its buttons stayed after either answer, which came as a message of
// its own, and meant nothing more. A press of them sent by a client that
// has not shown the update is told what became of the match.
func TestResignQuestionAnswered(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.dayMatch()
	h.waitMoves(1, 0)
	answered := func(got, ask *discordtest.Message, line string) {
		t.Helper()
		if want := ask.Content + "\n" + line; got.Content != want || len(got.Buttons()) != 0 || !got.Ephemeral {
			t.Errorf("the answered question reads %q with buttons %q (ephemeral: %v), want %q and none", got.Content, controlsOf(got), got.Ephemeral, want)
		}
		if now := h.srv.Message(ask.ID); now == nil || now.Content != got.Content || len(now.Buttons()) != 0 {
			t.Errorf("the question's message is now %+v", now)
		}
	}
	kept := h.alice.SlashCommand(t, h.channel, "stratego resign").Reply(t)
	old := h.alice.SlashCommand(t, h.channel, "stratego resign").Reply(t)
	answered(h.alice.ClickButton(t, kept, button(t, kept, "Keep playing")).Updated(t), kept, "You keep playing.")
	if m := h.match(1); !m.Phase.Active() {
		t.Fatalf("Keep playing ended the match: %v", m.Result)
	}
	ask := h.alice.SlashCommand(t, h.channel, "stratego resign").Reply(t)
	answered(h.alice.ClickButton(t, ask, button(t, ask, "Resign")).Updated(t), ask, "You resigned.")
	if m := h.match(1); m.Result != (game.Result{Outcome: game.BlueWon, Method: game.Resignation}) {
		t.Fatalf("the result is %+v", m.Result)
	}
	over := "This match is over. `/stratego games` lists your running matches."
	answered(h.alice.ClickButton(t, old, button(t, old, "Keep playing")).Updated(t), old, over)
	for _, label := range []string{"Resign", "Keep playing"} {
		for _, q := range []*discordtest.Message{kept, ask, old} {
			if got := pressStale(t, h.alice, q, label).Reply(t); got.Content != over || !got.Ephemeral || got.ID == q.ID {
				t.Errorf("%s pressed again under %q answered %q", label, q.Content, got.Content)
			}
		}
	}
}
