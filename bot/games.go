package bot

import (
	"context"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
)

// onGames lists the member's active matches, newest first: as many as a
// message holds, and how many more there are.
func (b *Bot) onGames(ctx context.Context, i *discordgo.Interaction) {
	user := userOf(i).ID
	list, err := b.readableMatches(b.store.PlayerMatches(ctx, user, true, 0))
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "games"))
		return
	}
	if len(list) == 0 {
		b.say(i, "You have no match going. Start one with `/stratego challenge`.")
		return
	}
	p, now := printerOf(i), b.now()
	tournaments := map[storage.TournamentID]*storage.Tournament{}
	var lines []string
	for _, m := range list[:min(len(list), maxListed)] { // no more than a message holds
		side, _ := m.SideOf(user)
		line := p.Sprintf("**#%[1]s** vs %[2]s — %[3]s, you are %[4]s — %[5]s", m.ID.String(), b.playerName(p, m, side.Opponent()),
			render.VariantName(p, m.Rules.Variant), render.SideName(p, side), turnWord(p, m, side))
		if due := m.DeadlineToShow(now); !due.IsZero() {
			line += p.Sprintf(" (deadline <t:%[1]s:R>)", unix(due))
		}
		// What holds the clocks: the deadline alone would look far off for no reason.
		for _, held := range append([]string{pausedLine(p, m)}, b.vacationParts(p, m, game.ViewerOf(side))...) {
			if held != "" {
				line += " · " + held
			}
		}
		if label := b.tournamentLabel(ctx, p, m, tournaments); label != "" {
			line += " · " + label
		}
		if m.GuildID != "" {
			line += fmt.Sprintf(" · <#%s>", m.Where())
		}
		lines = append(lines, line)
	}
	b.tell(i, listText("", lines, len(list), func(n int) string { return p.Sprintf(txtGamesMore, n) }))
}

// stateWord says where m stands for side's player: whose turn it is while
// it goes on, how it ended once over.
func stateWord(p lang.Printer, m *storage.Match, side game.Side) string {
	switch m.Phase {
	case storage.PhaseSetup, storage.PhasePlaying:
		return turnWord(p, m, side)
	case storage.PhaseAbandoned:
		return p.Sprintf("called off")
	}
	switch winner, won := m.Result.Winner(); {
	case !won:
		return p.Sprintf("drawn")
	case winner == side:
		return p.Sprintf("you won")
	}
	return p.Sprintf("you lost")
}

// turnWord says whose turn it is from side's point of view.
func turnWord(p lang.Printer, m *storage.Match, side game.Side) string {
	switch {
	case m.Phase == storage.PhaseSetup && m.Owes(side):
		return p.Sprintf("send your set-up")
	case m.Phase == storage.PhaseSetup:
		return p.Sprintf("waiting for their set-up")
	case m.Owes(side):
		return p.Sprintf("your move")
	}
	return p.Sprintf("their move")
}
