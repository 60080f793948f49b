package bot

import (
	"slices"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestLanguages plays the first moves of a match between a Dutch-speaking and
// a French-speaking member on a German server, from the challenge on. Each
// reads the answers, the DMs, the set-up invites and previews, the help and
// the pictures' alt texts in their own language, and the channel (the
// challenge, its acceptance, the boards) reads German. It is also the leak test in those languages: with Red's
// hidden pieces shuffled, Bob and the channel see exactly the same.
func TestLanguages(t *testing.T) {
	t.Parallel()
	red := leakRed(t)
	blue := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant, {0, 5}: game.Flag})
	var bobSaw, publicSaw [2][]string
	bothWays(t, red, marshalAndBombSwapped(red), func(t *testing.T, k int, setup game.Setup) {
		h := newHarness(t)
		h.guild.SetLocale("de")
		h.shutdown()
		h.start() // a new session, whose GUILD_CREATE carries the server's locale
		h.alice.SetLocale("nl")
		h.bob.SetLocale("fr")
		h.challengeInLanguages(setup, blue)

		// Bob's first interaction in French: his later DMs are in French too.
		h.bob.SlashCommand(t, h.channel, "stratego board", discordtest.Opt("text", true)).Reply(t)
		reply := h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
		if reply.Content != "Je zette je Sergeant (4) A4-A5." {
			t.Errorf("alice's answer in Dutch: %q", reply.Content)
		}
		dm := h.bob.WaitDM(t, contains("alice a joué A4-A5."))
		for _, want := range []string{"**Partie #1** · alice (Rouge) contre bob (Bleu)", "**à vous de jouer**"} {
			if !strings.Contains(dm.Content, want) {
				t.Errorf("bob's DM in French lacks %q: %q", want, dm.Content)
			}
		}
		if len(dm.Files) != 1 || !strings.HasPrefix(dm.Files[0].Description, "Votre plateau de Stratego, Classique, après le coup 1") {
			t.Errorf("bob's picture's alt text: %+v", dm.Files)
		}
		h.srv.WaitFor(t, "the channel's German board", func() bool {
			return slices.ContainsFunc(h.srv.ChannelMessages(h.channel), func(m *discordtest.Message) bool {
				return strings.Contains(m.Content, "alice zog A4-A5.") && len(m.Files) == 1 &&
					strings.HasPrefix(m.Files[0].Description, "Stratego-Brett, Klassisch, nach Zug 1")
			})
		})
		bobReply := h.bob.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "J7"), discordtest.Opt("to", "J6")).Reply(t)
		if bobReply.Content != "Vous avez joué votre Sergent (4) J7-J6." {
			t.Errorf("bob's answer in French: %q", bobReply.Content)
		}
		h.alice.WaitDM(t, contains("bob zette J7-J6."))
		// The rules engine's reasons, in Dutch, with the piece's Dutch name.
		for _, tc := range []struct{ to, want string }{
			{"A7", "Die zet mag niet: een Sergeant (4) gaat maar één veld per zet; alleen Verkenners gaan verder."},
			{"C5", "Die zet mag niet: C5 is een meer."},
		} {
			wrong := h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A5"), discordtest.Opt("to", tc.to)).Reply(t)
			if wrong.Content != tc.want {
				t.Errorf("a refused move in Dutch: %q, want %q", wrong.Content, tc.want)
			}
		}
		early := h.bob.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "J6"), discordtest.Opt("to", "J5")).Reply(t)
		if want := "Aucune de vos parties n'attend votre coup pour l'instant. `/stratego games` les liste."; early.Content != want {
			t.Errorf("a move out of turn in French: %q", early.Content)
		}
		h.waitMoves(1, 2)
		bobSaw[k], publicSaw[k] = transcript(h, h.bob, false), transcript(h, h.carol, false)
	})
	if t.Failed() {
		return
	}
	sameSight(t, "Bob", bobSaw)
	sameSight(t, "the channel", publicSaw)
}

// challengeInLanguages makes alice (Dutch) challenge bob (French) on the
// German server, bob accept, and both send their set-ups, checking each
// text in its reader's language.
func (h *harness) challengeInLanguages(red, blue game.Setup) {
	t := h.t
	t.Helper()
	msg := h.alice.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("opponent", h.bob),
		discordtest.Opt("variant", "Classic"), discordtest.Opt("side", "red")).Reply(t)
	// A post in the channel: German, the server's language.
	if want := "<@" + h.bob.ID + ">, alice fordert dich zu einer Partie Stratego heraus: Klassisch · 1 Tag pro Zug. alice spielt Rot.\n" +
		"Die Herausforderung läuft <t:"; msg.Ephemeral || !strings.HasPrefix(msg.Content, want) {
		t.Fatalf("the challenge in German: %q, want it to begin %q", msg.Content, want)
	}
	for _, label := range []string{"Annehmen", "Ablehnen", "Abbrechen"} {
		if !hasButton(msg, label) {
			t.Errorf("the challenge has no %q button: %+v", label, msg.Buttons())
		}
	}
	// Alice's own click on Accept: her answer in Dutch.
	mine := h.alice.ClickButton(t, msg, button(t, msg, "Annehmen")).Reply(t)
	// The button named as the channel shows it, in German.
	if want := "Dit is jouw uitdaging; alleen wie je uitdaagde kan die aannemen. Intrekken kan met **Abbrechen**."; mine.Content != want {
		t.Errorf("alice's accept in Dutch: %q", mine.Content)
	}
	accepted := h.bob.ClickButton(t, msg, button(t, msg, "Annehmen")).Reply(t)
	if want := "Partie #1: **alice** (Rot) gegen **bob** (Blau) — Klassisch · 1 Tag pro Zug.\nBeide Spieler schicken mir jetzt per DM ihre geheime Aufstellung"; !strings.HasPrefix(accepted.Content, want) {
		t.Errorf("the accepted challenge in German: %q", accepted.Content)
	}

	help := h.alice.SlashCommand(t, h.channel, "stratego help").Reply(t)
	for _, want := range []string{"**Stratego op Discord**\n", "• Geen tegenstander? `/stratego seek` zet je in de wachtrij van de server"} {
		if !strings.Contains(help.Content, want) {
			t.Errorf("help in Dutch lacks %q: %q", want, help.Content)
		}
	}
	// The key picture's alt text, in Dutch and in alice's numbering.
	if len(help.Files) != 1 || !strings.HasPrefix(help.Files[0].Description, "Legenda bij de bordafbeeldingen.") ||
		!strings.Contains(help.Files[0].Description, "10 Maarschalk") {
		t.Errorf("the key in Dutch: %+v", help.Files)
	}

	invite := h.alice.WaitDM(t, contains("**Partij #1** tegen bob — Klassiek · 1 dag per zet. Jij speelt **Rood** en begint.\nStuur me je geheime opstelling"))
	if !hasButton(invite, "Willekeurig") || !hasButton(invite, "Bewerken") {
		t.Errorf("alice's invite's buttons: %+v", invite.Buttons())
	}
	h.alice.SendDM(t, game.FormatSetup(red, game.NumberingModern))
	preview := h.alice.WaitDM(t, contains("Je opstelling voor partij #1 (jij bent Rood):\n```"))
	if len(preview.Files) != 1 || !strings.HasPrefix(preview.Files[0].Description, "Een afbeelding van je opstelling voor partij #1") {
		t.Errorf("alice's preview's picture: %+v", preview.Files)
	}
	confirmed := h.alice.ClickButton(t, preview, button(t, preview, "Bevestigen")).Reply(t)
	if want := "Opstelling bevestigd. Partij #1 begint zodra ook bob een opstelling heeft bevestigd."; confirmed.Content != want {
		t.Errorf("alice's confirmation in Dutch: %q", confirmed.Content)
	}

	invite = h.bob.WaitDM(t, contains("**Partie #1** contre alice — Classique · 1 jour par coup. Vous jouez **Bleu**.\nEnvoyez-moi votre placement secret"))
	// A set-up the rules refuse, typed in the form: the engine's reason in French.
	edit := h.bob.ClickButton(t, invite, button(t, invite, "Modifier"))
	if form := edit.Wait(t); form.Modal == nil {
		t.Fatalf("Modifier opened no form: %+v", form)
	}
	rows := strings.Split(game.FormatSetup(blue, game.NumberingModern), "\n")
	rows[0] = "B B B B B B B B B B"
	bad := h.bob.SubmitModal(t, edit, map[string]string{setupField: strings.Join(rows, "\n")}).Reply(t)
	if !strings.HasPrefix(bad.Content, "Ce placement ne convient pas :\nIl manque : ") || !strings.Contains(bad.Content, "\nEn trop : 4 Bombes.\n") ||
		!strings.HasSuffix(bad.Content, "\nAppuyez sur **Modifier** pour réessayer.") {
		t.Errorf("a refused set-up in French: %q", bad.Content)
	}
	edit = h.bob.ClickButton(t, invite, button(t, invite, "Modifier"))
	edit.Wait(t)
	preview = h.bob.SubmitModal(t, edit, map[string]string{setupField: game.FormatSetup(blue, game.NumberingModern)}).Reply(t)
	if !strings.HasPrefix(preview.Content, "Votre placement pour la partie #1 (vous êtes Bleu) :\n```") {
		t.Errorf("bob's preview in French: %q", preview.Content)
	}
	confirmed = h.bob.ClickButton(t, preview, button(t, preview, "Confirmer")).Reply(t)
	if want := "Placement confirmé. La partie #1 commence !"; confirmed.Content != want {
		t.Errorf("bob's confirmation in French: %q", confirmed.Content)
	}
	h.alice.WaitDM(t, contains("de partij begint!"))
	h.bob.WaitDM(t, contains("la partie commence !"))
}
