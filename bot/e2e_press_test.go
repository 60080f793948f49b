package bot

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage"
)

// callbackRoute is the route of an interaction's first response.
const callbackRoute = "POST /interactions/{interaction_id}/{interaction_token}/callback"

// press is one press of a button, or one choice in a select menu, on a
// message the bot sent.
type press struct {
	who   *discordtest.Member
	msg   *discordtest.Message
	label string // the button's label; "" for the menu
	value string // the value chosen in the message's first menu
	// refused are the texts, as catalogue keys with their arguments, one
	// of which is the whole answer to this press when it is refused.
	refused []pressRefusal
}

// pressRefusal is a catalogue key with its arguments.
type pressRefusal struct {
	key  string
	args []any
}

func refusedWith(key string, args ...any) []pressRefusal { return []pressRefusal{{key, args}} }

// pressCase is a way a member presses a button twice, too late, or
// without the right to: the presses are refused but for the number that
// acts, and the refused leave the match as it was.
type pressCase struct {
	name string
	// prepare builds the state (in English) and returns the presses.
	prepare func(t *testing.T, h *harness) []press
	restart bool // the bot restarts before the presses: what they answer is read from storage
	atOnce  bool // the presses go in at the same moment, before any is answered
	acts    int  // how many of the presses act
	// match is the match whose log the presses may lengthen by logAdds
	// actions, and no other way; 0 for none.
	match   storage.MatchID
	logAdds int
	// menu: the press that does not act is answered by showing the board
	// as it is now, not by a refusal.
	menu bool
	// check asserts the one effect in storage.
	check func(t *testing.T, h *harness)
}

// TestPressesTwiceLateOrNotYours presses the bot's buttons and menus twice
// at once, too late, after a restart, and as a member who may not: exactly
// the one effect happens, every other press is answered at once and
// privately, in the presser's language, with what to do instead, and the
// match's log keeps only the one effect.
func TestPressesTwiceLateOrNotYours(t *testing.T) {
	t.Parallel()
	named := func(t *testing.T, h *harness) *discordtest.Message {
		msg := h.alice.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("opponent", h.bob), discordtest.Opt("move_time", "24h")).Reply(t)
		if !strings.Contains(msg.Content, "challenges you") {
			t.Fatalf("the challenge: %q", msg.Content)
		}
		return msg
	}
	noChallenge := func(t *testing.T, h *harness) {
		for _, m := range []*discordtest.Member{h.alice, h.bob} {
			if cs, err := h.db.PlayerChallenges(t.Context(), m.ID); err != nil || len(cs) != 0 {
				t.Errorf("%s has %d challenges (%v), want none", m.Name, len(cs), err)
			}
		}
	}
	matches := func(t *testing.T, h *harness, want int) {
		t.Helper()
		for id := storage.MatchID(1); id <= storage.MatchID(want)+1; id++ {
			_, err := h.db.Match(t.Context(), id)
			if exists := err == nil; exists != (int(id) <= want) {
				t.Errorf("match #%d exists: %v; want %d matches", id, exists, want)
			}
		}
	}
	challenges := func(t *testing.T, h *harness, want int) {
		t.Helper()
		cs, err := h.db.PlayerChallenges(t.Context(), h.alice.ID)
		if err != nil || len(cs) != want {
			t.Errorf("%d challenges between alice and bob (%v), want %d", len(cs), err, want)
		}
	}
	// proposal: alice proposes a pause of days; bob's DM asks him.
	proposal := func(t *testing.T, h *harness, days int) *discordtest.Message {
		h.alice.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("days", days)).Reply(t)
		h.bot.deliverDue(t.Context())
		return h.bob.WaitDM(t, contains(fmt.Sprintf("alice proposes to pause the match for %d days", days)))
	}
	drawOffer := func(t *testing.T, h *harness) *discordtest.Message {
		h.alice.SlashCommand(t, h.channel, "stratego draw").Reply(t)
		h.bot.deliverDue(t.Context())
		return h.bob.WaitDM(t, contains("alice offers a draw"))
	}
	paused := func(want bool) func(t *testing.T, h *harness) {
		return func(t *testing.T, h *harness) {
			if m := h.match(1); m.PausedUntil().IsZero() == want {
				t.Errorf("paused until %v; want paused: %v", m.PausedUntil(), want)
			}
		}
	}
	over := func(want game.Result) func(t *testing.T, h *harness) {
		return func(t *testing.T, h *harness) {
			if m := h.match(1); m.Result != want {
				t.Errorf("the result is %+v, want %+v", m.Result, want)
			}
		}
	}
	// preview: alice's set-up preview of match #1, drawn at random.
	preview := func(t *testing.T, h *harness) *discordtest.Message {
		h.challenge("Classic", discordtest.Opt("move_time", "24h"))
		invite := h.alice.WaitDM(t, contains("Send me your secret set-up"))
		return h.alice.ClickButton(t, invite, button(t, invite, "Random")).Reply(t)
	}
	confirmed := func(t *testing.T, h *harness) {
		if m := h.match(1); m.Setups[game.Red].Status != storage.SetupConfirmed || m.Setups[game.Blue].Status == storage.SetupConfirmed {
			t.Errorf("the set-ups are %v and %v; want alice's confirmed", m.Setups[game.Red].Status, m.Setups[game.Blue].Status)
		}
	}
	gone := refusedWith(txtChallengeGone)
	over1 := refusedWith("This match is over. `/stratego games` lists your running matches.")
	// pausedFor is the answer to a press too late for a pause of days
	// agreed to now.
	pausedFor := func(h *harness, days int) []pressRefusal {
		return refusedWith(txtPausedUntil, unix(h.clock.Now().Add(time.Duration(days)*24*time.Hour)))
	}

	tests := []pressCase{
		// Challenges.
		{name: "the challenged presses Accept twice as the challenger withdraws", atOnce: true, acts: 1,
			prepare: func(t *testing.T, h *harness) []press {
				msg := named(t, h)
				return []press{{who: h.bob, msg: msg, label: "Accept", refused: gone}, {who: h.bob, msg: msg, label: "Accept", refused: gone},
					{who: h.alice, msg: msg, label: "Cancel", refused: gone}}
			},
			check: func(t *testing.T, h *harness) {
				noChallenge(t, h)
				if _, err := h.db.Match(t.Context(), 1); err == nil {
					matches(t, h, 1)
				} else {
					matches(t, h, 0)
				}
			}},
		{name: "the challenger presses Accept and Decline", acts: 0,
			prepare: func(t *testing.T, h *harness) []press {
				msg := named(t, h)
				return []press{
					{who: h.alice, msg: msg, label: "Accept", refused: refusedWith("You made this challenge; only the member you challenged can accept it. Withdraw it with %[1]s.", "**Cancel**")},
					{who: h.alice, msg: msg, label: "Decline", refused: refusedWith("Only the member who was challenged can decline. The challenger can withdraw it with %[1]s.", "**Cancel**")},
				}
			},
			check: func(t *testing.T, h *harness) { challenges(t, h, 1); matches(t, h, 0) }},
		{name: "the challenged presses Cancel", acts: 0,
			prepare: func(t *testing.T, h *harness) []press {
				msg := named(t, h)
				return []press{{who: h.bob, msg: msg, label: "Cancel", refused: refusedWith(txtOnlyChallengerCancels, "**Decline**")}}
			},
			check: func(t *testing.T, h *harness) { challenges(t, h, 1) }},
		{name: "a third member presses Decline and Cancel", acts: 0,
			prepare: func(t *testing.T, h *harness) []press {
				msg := named(t, h)
				other := refusedWith("This challenge is for someone else. Start your own with `/stratego challenge`.")
				return []press{{who: h.carol, msg: msg, label: "Decline", refused: other}, {who: h.carol, msg: msg, label: "Cancel", refused: other}}
			},
			check: func(t *testing.T, h *harness) { challenges(t, h, 1) }},
		{name: "a member presses Cancel on another's open challenge", acts: 0,
			prepare: func(t *testing.T, h *harness) []press {
				msg := h.alice.SlashCommand(t, h.channel, "stratego challenge").Reply(t)
				return []press{{who: h.bob, msg: msg, label: "Cancel", refused: refusedWith(txtOpenNotYours, "**Accept**")}}
			},
			check: func(t *testing.T, h *harness) { challenges(t, h, 1) }},
		{name: "the challenger, then the challenged, press Accept after a restart", restart: true, acts: 1,
			prepare: func(t *testing.T, h *harness) []press {
				msg := named(t, h)
				return []press{{who: h.alice, msg: msg, label: "Accept", refused: refusedWith("You made this challenge; only the member you challenged can accept it. Withdraw it with %[1]s.", "**Cancel**")},
					{who: h.bob, msg: msg, label: "Accept"}}
			},
			check: func(t *testing.T, h *harness) { noChallenge(t, h); matches(t, h, 1) }},

		// Rematches.
		{name: "both players press Rematch at once", atOnce: true, acts: 1,
			prepare: func(t *testing.T, h *harness) []press {
				finale := resignedFinale(t, h)
				// The first press to store its challenge waits until the
				// other has read their challenges, or for a second when it
				// cannot: both checks pass, and the store, which counts
				// and writes in one transaction, refuses the second write
				// with the check's words.
				lists := h.reads.challengeLists.Load()
				wait := func() {
					deadline := time.Now().Add(time.Second)
					for h.reads.challengeLists.Load() < lists+2 && time.Now().Before(deadline) {
						time.Sleep(time.Millisecond)
					}
				}
				h.reads.beforeCreateChallenge.Store(&wait)
				between := func(other *discordtest.Member) []pressRefusal {
					var out []pressRefusal
					for _, id := range []string{"2", "3"} {
						out = append(out, pressRefusal{"There is already a challenge between you and <@%[1]s> (#%[2]s): answer or cancel it first.", []any{other.ID, id}})
					}
					return out
				}
				return []press{{who: h.alice, msg: finale, label: "Rematch", refused: between(h.bob)}, {who: h.bob, msg: finale, label: "Rematch", refused: between(h.alice)}}
			},
			match: 1, check: func(t *testing.T, h *harness) { challenges(t, h, 1) }},
		{name: "a player presses Rematch after the other did, after a restart", restart: true, acts: 1,
			prepare: func(t *testing.T, h *harness) []press {
				finale := resignedFinale(t, h)
				return []press{{who: h.bob, msg: finale, label: "Rematch"},
					{who: h.alice, msg: finale, label: "Rematch", refused: refusedWith("There is already a challenge between you and <@%[1]s> (#%[2]s): answer or cancel it first.", h.bob.ID, "2")}}
			},
			match: 1, check: func(t *testing.T, h *harness) { challenges(t, h, 1) }},

		// Pauses.
		{name: "the opponent presses Pause twice at once", atOnce: true, acts: 1, match: 1, logAdds: 1,
			prepare: func(t *testing.T, h *harness) []press {
				h.dayMatch()
				ask := proposal(t, h, 3)
				return []press{{who: h.bob, msg: ask, label: "Pause", refused: pausedFor(h, 3)}, {who: h.bob, msg: ask, label: "Pause", refused: pausedFor(h, 3)}}
			},
			check: paused(true)},
		{name: "the opponent presses Pause and Decline at once", atOnce: true, acts: 1, match: 1, logAdds: 1,
			prepare: func(t *testing.T, h *harness) []press {
				h.dayMatch()
				ask := proposal(t, h, 3)
				// The one refused is told what the other did.
				late := append(refusedWith(txtPauseDeclinedAlready), pausedFor(h, 3)...)
				return []press{{who: h.bob, msg: ask, label: "Pause", refused: late}, {who: h.bob, msg: ask, label: "Decline", refused: late}}
			}},
		{name: "the opponent presses Pause under a proposal withdrawn and made again for other days", acts: 0, match: 1,
			prepare: func(t *testing.T, h *harness) []press {
				h.dayMatch()
				old := proposal(t, h, 3)
				h.alice.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("action", "decline")).Reply(t)
				proposal(t, h, 14)
				// Settled, the old proposal's DM lost its buttons: pressed
				// as a client that had not shown the edit yet sends them.
				gone := refusedWith(txtNotOnMessage)
				return []press{{who: h.bob, msg: old, label: "Pause", refused: gone}, {who: h.bob, msg: old, label: "Decline", refused: gone}}
			},
			check: paused(false)},
		{name: "the opponent presses Pause under a proposal made again for other days, in a match resigned since", acts: 0, match: 1,
			prepare: func(t *testing.T, h *harness) []press {
				h.dayMatch()
				old := proposal(t, h, 3)
				h.alice.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("action", "decline")).Reply(t)
				proposal(t, h, 14)
				ask := h.alice.SlashCommand(t, h.channel, "stratego resign").Reply(t)
				h.alice.ClickButton(t, ask, button(t, ask, "Resign")).Updated(t)
				// The old proposal's DM lost its buttons; the match is over.
				return []press{{who: h.bob, msg: old, label: "Pause", refused: over1}, {who: h.bob, msg: old, label: "Decline", refused: over1}}
			},
			check: over(game.Result{Outcome: game.BlueWon, Method: game.Resignation})},
		{name: "the opponent presses Pause after a restart, and again", restart: true, acts: 1, match: 1, logAdds: 1,
			prepare: func(t *testing.T, h *harness) []press {
				h.dayMatch()
				ask := proposal(t, h, 3)
				// The second press finds the pause agreed, or, once its
				// edit came, the DM without its buttons.
				return []press{{who: h.bob, msg: ask, label: "Pause"}, {who: h.bob, msg: ask, label: "Pause", refused: append(pausedFor(h, 3), refusedWith(txtNotOnMessage)...)}}
			},
			check: paused(true)},

		// Draws and resignations.
		{name: "the opponent presses Accept draw twice at once", atOnce: true, acts: 1, match: 1, logAdds: 1,
			prepare: func(t *testing.T, h *harness) []press {
				h.dayMatch()
				offer := drawOffer(t, h)
				return []press{{who: h.bob, msg: offer, label: "Accept draw", refused: over1}, {who: h.bob, msg: offer, label: "Accept draw", refused: over1}}
			},
			check: over(game.Result{Outcome: game.Drawn, Method: game.DrawAgreed})},
		{name: "the opponent presses Accept draw after the offer was withdrawn", acts: 0, match: 1,
			prepare: func(t *testing.T, h *harness) []press {
				h.dayMatch()
				offer := drawOffer(t, h)
				h.alice.SlashCommand(t, h.channel, "stratego draw", discordtest.Opt("action", "decline")).Reply(t)
				// The withdrawn offer's DM lost its buttons.
				return []press{{who: h.bob, msg: offer, label: "Accept draw", refused: refusedWith(txtNotOnMessage)}}
			},
			check: over(game.Result{})},
		{name: "a player presses Resign twice at once", atOnce: true, acts: 1, match: 1, logAdds: 1,
			prepare: func(t *testing.T, h *harness) []press {
				h.dayMatch()
				ask := h.alice.SlashCommand(t, h.channel, "stratego resign").Reply(t)
				return []press{{who: h.alice, msg: ask, label: "Resign", refused: over1}, {who: h.alice, msg: ask, label: "Resign", refused: over1}}
			},
			check: over(game.Result{Outcome: game.BlueWon, Method: game.Resignation})},
		{name: "a player presses Resign and Keep playing under a prompt of a match resigned since", acts: 0, match: 1,
			prepare: func(t *testing.T, h *harness) []press {
				h.dayMatch()
				old := h.alice.SlashCommand(t, h.channel, "stratego resign").Reply(t)
				ask := h.alice.SlashCommand(t, h.channel, "stratego resign").Reply(t)
				h.alice.ClickButton(t, ask, button(t, ask, "Resign")).Updated(t)
				return []press{{who: h.alice, msg: old, label: "Resign", refused: over1}, {who: h.alice, msg: old, label: "Keep playing", refused: over1}}
			},
			check: over(game.Result{Outcome: game.BlueWon, Method: game.Resignation})},

		// Set-ups.
		{name: "a player presses Confirm twice at once", atOnce: true, acts: 1,
			prepare: func(t *testing.T, h *harness) []press {
				pv := preview(t, h)
				already := refusedWith("Your set-up is already confirmed; the match starts when your opponent has confirmed theirs.")
				return []press{{who: h.alice, msg: pv, label: "Confirm", refused: already}, {who: h.alice, msg: pv, label: "Confirm", refused: already}}
			},
			check: confirmed},
		{name: "a player presses Confirm after a restart, and again", restart: true, acts: 1,
			prepare: func(t *testing.T, h *harness) []press {
				pv := preview(t, h)
				return []press{{who: h.alice, msg: pv, label: "Confirm"},
					{who: h.alice, msg: pv, label: "Confirm", refused: refusedWith("Your set-up is already confirmed; the match starts when your opponent has confirmed theirs.")}}
			},
			check: confirmed},
		{name: "a player presses Confirm once the match is being played", acts: 0, match: 1,
			prepare: func(t *testing.T, h *harness) []press {
				h.dayMatch()
				var pv *discordtest.Message
				for _, m := range h.alice.DMs() {
					if strings.Contains(m.Content, "Your set-up for match") && hasButton(m, "Confirm") {
						pv = m
					}
				}
				if pv == nil {
					t.Fatal("alice has no preview with Confirm")
				}
				return []press{{who: h.alice, msg: pv, label: "Confirm", refused: refusedWith(txtSetupPhaseOver, "1")}}
			}},

		// Move menus.
		{name: "a player picks the same target twice at once", atOnce: true, acts: 1, menu: true, match: 1, logAdds: 1,
			prepare: func(t *testing.T, h *harness) []press {
				h.dayMatch()
				board := h.alice.WaitDM(t, contains("the match begins"))
				h.waitMoves(1, 0)
				picked, _ := h.pick(h.alice, board, 0, "A4")
				return []press{{who: h.alice, msg: picked, value: "A5"}, {who: h.alice, msg: picked, value: "A5"}}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			presses := tc.prepare(t, h)
			h.outboxEmpty()
			var before *storage.Match
			if tc.match != 0 {
				before = h.match(tc.match)
			}
			if tc.restart {
				h.shutdown()
				h.start()
			}
			// The refusals are read in the presser's language.
			for _, p := range presses {
				p.who.SetLocale("nl")
			}
			answers := pressAll(t, h, presses, tc.atOnce)
			nl := lang.For("nl")
			acted := 0
			for k, p := range presses {
				r := answers[k]
				if r.Failed {
					t.Errorf("press %d (%s by %s) failed: %q", k, p.label, p.who.Name, r.Error)
					continue
				}
				if tc.menu {
					acted++ // the board as it is now, or the move
					continue
				}
				// The answer, or the message it was on with the answer
				// written under what it said.
				answer, text := r.Original, ""
				if r.Update != nil {
					answer = r.Update
				}
				if answer != nil {
					text = answer.Content
				}
				refused := false
				for _, f := range p.refused {
					want := nl.Sprintf(f.key, f.args...)
					refused = refused || text == want || r.Update != nil && strings.HasSuffix(text, "\n"+want)
				}
				switch {
				case !refused:
					acted++
				case answer == nil || !answer.Ephemeral:
					t.Errorf("press %d (%s by %s) was refused in public: %q", k, p.label, p.who.Name, text)
				case goish.MatchString(text) || rankNames().MatchString(text):
					t.Errorf("press %d (%s by %s) was refused with %q", k, p.label, p.who.Name, text)
				}
				if !refused && len(p.refused) > 0 && !tc.atOnce {
					t.Errorf("press %d (%s by %s) was answered %q; want a refusal", k, p.label, p.who.Name, text)
				}
			}
			if want := tc.acts; tc.menu {
				want = len(presses)
				if acted != want {
					t.Errorf("%d presses were answered, want %d", acted, want)
				}
			} else if acted != want {
				t.Errorf("%d presses acted, want %d", acted, want)
			}
			if tc.match != 0 {
				h.srv.WaitFor(t, "the press that acts to be stored", func() bool { return len(h.match(tc.match).Log) >= len(before.Log)+tc.logAdds })
				h.outboxEmpty()
				after := h.match(tc.match)
				if len(after.Log) != len(before.Log)+tc.logAdds || !slices.Equal(after.Log[:len(before.Log)], before.Log) {
					t.Errorf("the log of match #%d went from %v to %v; want %d more", tc.match, before.Log, after.Log, tc.logAdds)
				}
			}
			if tc.check != nil {
				tc.check(t, h)
			}
		})
	}
}

// pressAll makes the presses and waits for each one's answer: one after
// another, or all at once, every press in before any is answered.
func pressAll(t *testing.T, h *harness, presses []press, atOnce bool) []discordtest.Response {
	t.Helper()
	do := func(p press) *discordtest.Interaction {
		if p.label == "" {
			return p.who.SelectMenu(t, p.msg, p.msg.SelectMenus()[0].CustomID, p.value)
		}
		if id := button(t, p.msg, p.label); !answerButton(id) {
			return p.who.ClickButton(t, p.msg, id)
		}
		return pressStale(t, p.who, p.msg, p.label)
	}
	ins := make([]*discordtest.Interaction, len(presses))
	if atOnce {
		hold := h.srv.HoldNext(t, callbackRoute, len(presses))
		var wg sync.WaitGroup
		for k, p := range presses {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ins[k] = do(p)
			}()
		}
		wg.Wait()
		// Released once every press is waiting for its answer, or has
		// done all it does before answering.
		h.srv.WaitFor(t, "every press to be in", func() bool { return hold.Waiting() == len(presses) })
		hold.Release()
	}
	out := make([]discordtest.Response, len(presses))
	for k, p := range presses {
		if !atOnce {
			ins[k] = do(p)
		}
		h.srv.WaitFor(t, "the answer to press "+fmt.Sprint(k), func() bool {
			out[k] = ins[k].Response()
			r := out[k]
			if r.Failed || r.Update != nil {
				return true
			}
			if r.Type == discordgo.InteractionResponseDeferredMessageUpdate {
				// A menu's answer may change nothing but the menus; a
				// button's writes its answer in the message it is on.
				return p.label == ""
			}
			return r.Original != nil && !r.Original.Loading
		})
	}
	return out
}

// resignedFinale plays a day-a-move match that bob resigns at once, and
// returns the finale under which the channel offers a rematch.
func resignedFinale(t *testing.T, h *harness) *discordtest.Message {
	t.Helper()
	h.dayMatch()
	ask := h.bob.SlashCommand(t, h.channel, "stratego resign").Reply(t)
	h.bob.ClickButton(t, ask, button(t, ask, "Resign")).Updated(t)
	h.outboxEmpty()
	var finale *discordtest.Message
	h.srv.WaitFor(t, "the finale's Rematch button", func() bool {
		for _, m := range h.srv.ChannelMessages(h.channel) {
			if hasButton(m, "Rematch") {
				finale = m
			}
		}
		return finale != nil
	})
	if m := h.match(1); m.Phase.Active() {
		t.Fatalf("match #1 is not over: %v", m.Phase)
	}
	return finale
}
