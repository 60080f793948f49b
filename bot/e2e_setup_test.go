package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// walledClassic is a Classic set-up in which no piece can move: Bombs on A4
// B4 E4 F4 I4 J4, and the lakes in front of the rest.
func walledClassic(t *testing.T) game.Setup {
	t.Helper()
	cells := map[[2]int]game.Rank{}
	for _, col := range []int{0, 1, 4, 5, 8, 9} {
		cells[[2]int{0, col}] = game.Bomb
	}
	return placed(t, cells)
}

// TestSetupThatCannotMoveIsRefused: a set-up in which no piece can move
// would lose the moment both set-ups are in. It is refused at the preview,
// typed in the DM or in the form, with the reason, and nothing is stored.
func TestSetupThatCannotMoveIsRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.challenge("Classic")
	h.alice.WaitDM(t, contains("Send me your secret set-up"))
	typed := h.alice.SendDM(t, game.FormatSetup(walledClassic(t), game.NumberingModern))
	refusal := h.alice.WaitDM(t, answers(typed, "none of its pieces can move"))
	if len(refusal.Buttons()) != 0 || len(refusal.Files) != 0 {
		t.Fatalf("the refusal offers a preview: %q", refusal.Content)
	}
	if m := h.match(1); m.Setups[game.Red].Status != storage.SetupNone {
		t.Fatalf("the walled set-up was stored as %v", m.Setups[game.Red].Status)
	}

	// A Custom army of a Scout walled in by Bombs in a corner, through the form.
	const army = "2 B B F"
	h.challenge("Custom", discordtest.Opt("army", army))
	invite := h.bob.WaitDM(t, contains("**Match #2**"))
	rules := game.DefaultRules(game.VariantCustom)
	var err error
	if rules.Army, err = game.ParseArmy(army, game.NumberingModern); err != nil {
		t.Fatal(err)
	}
	corner := setupOf(t, rules, map[[2]int]game.Rank{{3, 0}: game.Scout, {2, 0}: game.Bomb, {3, 1}: game.Bomb, {3, 9}: game.Flag})
	edit := h.bob.ClickButton(t, invite, button(t, invite, "Edit"))
	edit.Wait(t)
	answer := h.bob.SubmitModal(t, edit, map[string]string{setupField: game.FormatSetup(corner, game.NumberingModern)}).Reply(t)
	if !strings.Contains(answer.Content, "none of its pieces can move") || hasButton(answer, "Confirm") {
		t.Fatalf("the form's walled set-up: %q", answer.Content)
	}
	if m := h.match(2); m.Setups[game.Blue].Status != storage.SetupNone {
		t.Fatalf("the walled Custom set-up was stored as %v", m.Setups[game.Blue].Status)
	}
}

// TestMatchOverAtConfirmationIsAnnounced: a set-up confirmed before such
// set-ups were refused ends the match when the other set-up is confirmed.
// That ending is announced like any other: both players and the channel hear
// the result.
func TestMatchOverAtConfirmationIsAnnounced(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.challenge("Classic")
	// Bob's walled set-up, confirmed by an older version of the bot.
	if _, err := h.db.SetSetup(context.Background(), 1, 0, game.Blue, walledClassic(t), storage.SetupConfirmed, T0); err != nil {
		t.Fatal(err)
	}
	invite := h.alice.WaitDM(t, contains("Send me your secret set-up"))
	preview := h.alice.ClickButton(t, invite, button(t, invite, "Random")).Reply(t)
	done := h.alice.ClickButton(t, preview, button(t, preview, "Confirm")).Reply(t)
	if strings.Contains(done.Content, "as soon as") {
		t.Fatalf("alice is told %q", done.Content)
	}
	h.alice.WaitDM(t, contains("You won: bob has no piece left that can move."))
	h.bob.WaitDM(t, contains("You lost: you have no piece left that can move."))
	h.channelSays("alice won: bob has no piece left that can move.")
	if m := h.match(1); m.Phase != storage.PhaseFinished {
		t.Fatalf("phase %v", m.Phase)
	}
}

// TestConfirmTheDraftShown: Confirm makes final the draft its preview
// showed. The opponent's drafts and the match's thread, changed meanwhile,
// do not stop it; a newer draft of the player's own does, and its own
// preview confirms it.
func TestConfirmTheDraftShown(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(c *Config) { c.Threads = true })
	h.challenge("Classic")
	h.alice.WaitDM(t, contains("Send me your secret set-up"))
	h.bob.WaitDM(t, contains("Send me your secret set-up"))
	first := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant})
	typed := h.alice.SendDM(t, game.FormatSetup(first, game.NumberingModern))
	older := h.alice.WaitDM(t, answers(typed, "Your set-up for match"))

	// Bob drafts twice meanwhile.
	for _, s := range []game.Setup{placed(t, map[[2]int]game.Rank{{0, 0}: game.Scout}), placed(t, map[[2]int]game.Rank{{0, 1}: game.Scout})} {
		typed := h.bob.SendDM(t, game.FormatSetup(s, game.NumberingModern))
		h.bob.WaitDM(t, answers(typed, "Your set-up for match"))
	}
	// Alice drafts again, then presses Confirm on the older preview.
	second := placed(t, map[[2]int]game.Rank{{0, 0}: game.Miner})
	typed = h.alice.SendDM(t, game.FormatSetup(second, game.NumberingModern))
	newer := h.alice.WaitDM(t, answers(typed, "Your set-up for match"))
	if got := h.alice.ClickButton(t, older, button(t, older, "Confirm")).Reply(t); !strings.Contains(got.Content, "You changed this set-up") {
		t.Fatalf("Confirm under the older preview answered %q", got.Content)
	}
	typed = h.bob.SendDM(t, game.FormatSetup(first, game.NumberingModern)) // and Bob once more
	h.bob.WaitDM(t, answers(typed, "Your set-up for match"))
	if got := h.alice.ClickButton(t, newer, button(t, newer, "Confirm")).Reply(t); !strings.Contains(got.Content, "Set-up confirmed") {
		t.Fatalf("Confirm under the newest preview answered %q", got.Content)
	}
	if m := h.match(1); m.Setups[game.Red].Status != storage.SetupConfirmed || m.Setups[game.Red].Setup != second {
		t.Fatalf("Red's set-up is %v, not the one confirmed", m.Setups[game.Red].Status)
	}
}

// TestSetupExampleIsSecret: the example set-up in a player's invite, and in
// the form Edit opens, is as secret as a Random one. A player who sends it
// back unchanged (the form's Submit at once, or the invite's text typed
// back) plays it, so nobody else may be able to know it: not the opponent
// from their own invite, not anyone from the code (a fixed example is the
// same in every match), not the same player in another match. Two matches
// alike in everything public (players, numbers, rules) are played: in each,
// alice submits the form Edit opened unchanged, and what she confirmed is
// compared with every example anyone else was shown.
func TestSetupExampleIsSecret(t *testing.T) {
	t.Parallel()
	rules := game.DefaultRules(game.VariantClassic)
	// example reads the example out of an invite.
	example := func(t *testing.T, invite *discordtest.Message) game.Setup {
		t.Helper()
		parts := strings.Split(invite.Content, "```")
		if len(parts) < 3 {
			t.Fatalf("an invite without its template: %q", invite.Content)
		}
		s, _, err := game.ParseSetup(parts[1], rules, game.NumberingModern)
		if err != nil {
			t.Fatalf("the invite's template does not read: %v\n%s", err, parts[1])
		}
		return s
	}
	public, _, err := game.ParseSetup(game.SetupTemplate(rules, game.NumberingModern), rules, game.NumberingModern)
	if err != nil {
		t.Fatal(err)
	}
	var confirmed, alices, bobs [2]game.Setup
	for k := range confirmed {
		h := newHarness(t)
		h.challenge("Classic", discordtest.Opt("move_time", "24h"))
		invite := h.alice.WaitDM(t, contains("Send me your secret set-up"))
		alices[k] = example(t, invite)
		bobs[k] = example(t, h.bob.WaitDM(t, contains("Send me your secret set-up")))
		edit := h.alice.ClickButton(t, invite, button(t, invite, "Edit"))
		form := edit.Wait(t).Modal
		if form == nil || len(form.Inputs) != 1 {
			t.Fatalf("Edit opened no form of one field: %+v", form)
		}
		preview := h.alice.SubmitModal(t, edit, map[string]string{setupField: form.Inputs[0].Value}).Reply(t)
		h.alice.ClickButton(t, preview, button(t, preview, "Confirm")).Reply(t)
		m := h.match(1)
		if m.Setups[game.Red].Status != storage.SetupConfirmed {
			t.Fatalf("alice's set-up is not confirmed: %+v", m.Setups[game.Red])
		}
		confirmed[k] = m.Setups[game.Red].Setup
		if confirmed[k] != alices[k] {
			t.Fatalf("the form Edit opened did not hold the invite's example")
		}
	}
	for k := range confirmed {
		for _, other := range []struct {
			what  string
			setup game.Setup
		}{
			{"the example in the code (game.SetupTemplate)", public},
			{"the example in bob's invite to the same match", bobs[k]},
			{"the example in alice's invite to the other match", alices[1-k]},
			{"the example in bob's invite to the other match", bobs[1-k]},
		} {
			if confirmed[k] == other.setup {
				t.Errorf("match %d: alice sent back her invite's example, and it is %s: anyone who sees that knows her set-up", k+1, other.what)
			}
		}
	}
}

// TestSetupInviteSaysWhatWorks: the set-up invite and the answer to
// /stratego setup offer what works where they are read. A saved set-up is
// offered only when the menu of saved set-ups is under the text: every
// player with none (a saved one of another army is none) was told to "pick
// a saved one" from a menu that was not there. And /stratego setup in a
// server's channel, for a player whose DMs are closed, asks for the set-up
// by its buttons, never typed: it said "type it here", and the bot reads no
// message in a channel, where a set-up typed would show every piece to
// everyone in it.
func TestSetupInviteSaysWhatWorks(t *testing.T) {
	t.Parallel()
	barrage := game.DefaultRules(game.VariantBarrage)
	for _, tc := range []struct {
		name      string
		saved     *storage.SavedSetup // alice's, before the challenge
		inChannel bool                // /stratego setup in the channel, else the DM invite
		locale    string
		want      string // the line that says how
	}{
		{"the invite, nothing saved", nil, false, "",
			"Send me your secret set-up: type it here (4 lines, your front row first, as you see your side of the board), or press **Edit** to fill in a form or **Random** for a new set-up in the style of real players'. Deadline: <t:"},
		{"the invite, a set-up saved", &storage.SavedSetup{Name: "mine", Variant: game.VariantClassic, Army: game.VariantClassic.Army()}, false, "",
			"Send me your secret set-up: type it here (4 lines, your front row first, as you see your side of the board), or press **Edit** to fill in a form, **Random** for a new set-up in the style of real players', or pick a saved one. Deadline: <t:"},
		{"the invite, a Barrage set-up saved", &storage.SavedSetup{Name: "barrage", Variant: game.VariantBarrage, Army: barrage.Army}, false, "",
			"Send me your secret set-up: type it here (4 lines, your front row first, as you see your side of the board), or press **Edit** to fill in a form or **Random** for a new set-up in the style of real players'. Deadline: <t:"},
		{"in the channel, nothing saved", nil, true, "",
			"Make your secret set-up with the buttons below, which only you see: **Edit** to fill in a form (4 lines, your front row first, as you see your side of the board) or **Random** for a new set-up in the style of real players'. Never type it in this channel: everyone here would see it. Deadline: <t:"},
		{"in the channel, a set-up saved", &storage.SavedSetup{Name: "mine", Variant: game.VariantClassic, Army: game.VariantClassic.Army()}, true, "",
			"Make your secret set-up with the buttons below, which only you see: **Edit** to fill in a form (4 lines, your front row first, as you see your side of the board), **Random** for a new set-up in the style of real players', or pick a saved one. Never type it in this channel: everyone here would see it. Deadline: <t:"},
		{"in the channel, in Dutch", nil, true, "nl",
			"Maak je geheime opstelling met de knoppen hieronder, die alleen jij ziet: **Bewerken** om een formulier in te vullen (4 regels, je voorste rij eerst, zoals je jouw kant van het bord ziet) of **Willekeurig** voor een nieuwe opstelling in de stijl van echte spelers. Typ je opstelling nooit in dit kanaal: iedereen hier zou die zien. Uiterlijk: <t:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			if s := tc.saved; s != nil {
				rules := game.DefaultRules(s.Variant)
				s.Setup, s.Saved = game.RandomSetup(rules, 7), T0
				if _, err := h.db.UpdatePlayer(context.Background(), h.alice.ID, func(p *storage.PlayerSettings) error { return p.SaveSetup(*s) }); err != nil {
					t.Fatal(err)
				}
			}
			h.challenge("Classic")
			got := h.alice.WaitDM(t, contains("**Match #1**"))
			if tc.inChannel {
				if tc.locale != "" {
					h.alice.SetLocale(tc.locale)
				}
				got = h.alice.SlashCommand(t, h.channel, "stratego setup").Reply(t)
				if !got.Ephemeral {
					t.Fatalf("the answer to /stratego setup is not private: %q", got.Content)
				}
			}
			if !strings.Contains(got.Content, "\n"+tc.want) {
				t.Errorf("the set-up asked for reads\n%s\nwant a line that begins\n%s", got.Content, tc.want)
			}
			menus := got.SelectMenus()
			if offered := tc.saved != nil && tc.saved.Variant == game.VariantClassic; len(menus) > 0 != offered {
				t.Errorf("%d menus of saved set-ups under it, want them %v", len(menus), offered)
			}
		})
	}
}
