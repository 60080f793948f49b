package bot

import (
	"slices"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// TestTournamentLeaksNothing is the leak comparison of a tournament's
// game: a one-round Swiss cup whose one match is played twice, with Red's
// hidden pieces shuffled, from the pairing to the final standings. Blue's
// player, the organiser and the channel see exactly the same: the
// pairing, the boards, the result and the standings say nothing of Red's
// pieces (the final reveal aside: it shows every piece by design).
func TestTournamentLeaksNothing(t *testing.T) {
	t.Parallel()
	red := leakRed(t)
	var blueSaw, organiserSaw, publicSaw [2][]string
	bothWays(t, red, marshalAndBombSwapped(red), func(t *testing.T, k int, setup game.Setup) {
		h := newTourney(t, "dave")
		m := h.bobMeetsCarol(discordtest.Opt("move_time", "24h"))
		players := [2]*discordtest.Member{h.members[m.Players[game.Red].UserID], h.members[m.Players[game.Blue].UserID]}
		setups := [2]game.Setup{setup, placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant})}
		title := "**Match #" + m.ID.String() + "**"
		for side, p := range players {
			p.WaitDM(t, func(msg *discordtest.Message) bool {
				return strings.Contains(msg.Content, title) && hasButton(msg, "Random")
			})
			p.SendDM(t, game.FormatSetup(setups[side], game.NumberingModern))
			preview := p.WaitDM(t, contains("Your set-up for match"))
			p.ClickButton(t, preview, button(t, preview, "Confirm")).Reply(t)
		}
		h.srv.WaitFor(t, "the match to begin", func() bool { return h.match(m.ID).Phase == storage.PhasePlaying })
		match := discordtest.Opt("match", m.ID.String())
		players[game.Red].SlashCommand(t, h.channel, "stratego move", match, discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
		h.waitMoves(m.ID, 1)
		players[game.Blue].SlashCommand(t, h.channel, "stratego move", match, discordtest.Opt("from", "J7"), discordtest.Opt("to", "J6")).Reply(t)
		h.waitMoves(m.ID, 2)
		h.run(players[game.Blue], "standings")
		ask := players[game.Red].SlashCommand(t, h.channel, "stratego resign", match).Reply(t)
		players[game.Red].ClickButton(t, ask, button(t, ask, "Resign")).Updated(t)
		h.advance(0)
		h.channelSays("**Cup** is over")

		// Each harness draws its members' ids: a mention names the member.
		var dave *discordtest.Member
		var names []string
		for id, m := range h.members {
			names = append(names, id, m.Name)
			if m.Name == "dave" {
				dave = m
			}
		}
		ids := strings.NewReplacer(names...)
		saw := func(m *discordtest.Member) []string {
			lines := transcript(h.harness, m, true)
			for i, line := range lines {
				lines[i] = ids.Replace(line)
			}
			slices.Sort(lines)
			return lines
		}
		blueSaw[k], organiserSaw[k], publicSaw[k] = saw(players[game.Blue]), saw(h.alice), saw(dave)
		if joined := strings.Join(blueSaw[k], "\n"); !strings.Contains(joined, "[board.png ") || !strings.Contains(joined, "Final standings") {
			t.Fatalf("Blue's player saw too little to compare:\n%s", joined)
		}
	})
	if t.Failed() {
		return
	}
	sameSight(t, "Blue's player", blueSaw)
	sameSight(t, "the organiser", organiserSaw)
	sameSight(t, "the channel", publicSaw)
}
