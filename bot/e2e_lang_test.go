package bot

import (
	"slices"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestLanguages plays the first moves of a match between a Dutch-speaking and
// a French-speaking member on a German server. Each reads the answers, the
// DMs and the pictures' alt texts in their own language, and the channel
// reads German. It is also the leak test in those languages: with Red's
// hidden pieces shuffled, Bob and the channel see exactly the same.
func TestLanguages(t *testing.T) {
	t.Parallel()
	red := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant, {0, 4}: game.Scout, {3, 0}: game.Flag, {3, 1}: game.Marshal, {3, 2}: game.Bomb})
	shuffled := red
	shuffled[3][1], shuffled[3][2] = shuffled[3][2], shuffled[3][1]
	blue := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant, {0, 5}: game.Flag})
	var bobSaw, publicSaw [2][]string
	t.Run("both", func(t *testing.T) {
		for k, setup := range []game.Setup{red, shuffled} {
			t.Run([]string{"red", "shuffled"}[k], func(t *testing.T) {
				t.Parallel()
				h := newHarness(t)
				h.guild.SetLocale("de")
				h.shutdown()
				h.start() // a new session, whose GUILD_CREATE carries the server's locale
				h.challenge("Classic")
				h.sendSetups(setup, blue)
				h.alice.SetLocale("nl")
				h.bob.SetLocale("fr")

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
				if bobReply.Content != "Vous avez joué Sergent (4) J7-J6." {
					t.Errorf("bob's answer in French: %q", bobReply.Content)
				}
				h.alice.WaitDM(t, contains("bob zette J7-J6."))
				wrong := h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A5"), discordtest.Opt("to", "C5")).Reply(t)
				if !strings.HasPrefix(wrong.Content, "Die zet mag niet: ") {
					t.Errorf("a refused move in Dutch: %q", wrong.Content)
				}
				h.waitMoves(1, 2)
				bobSaw[k], publicSaw[k] = transcript(h, h.bob, false), transcript(h, h.carol, false)
			})
		}
	})
	if t.Failed() {
		return
	}
	sameSight(t, "Bob", bobSaw)
	sameSight(t, "the channel", publicSaw)
}
