package bot

import (
	"context"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// onGames lists the member's active matches.
func (b *Bot) onGames(ctx context.Context, i *discordgo.Interaction) {
	user := userOf(i).ID
	list, err := b.store.PlayerMatches(ctx, user, true, 25)
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "games"))
		return
	}
	if len(list) == 0 {
		b.tell(i, "You have no match going. Start one with `/stratego challenge`.")
		return
	}
	var lines []string
	for _, m := range list {
		side, _ := m.SideOf(user)
		line := fmt.Sprintf("**#%d** vs %s — %s, you are %s — %s", m.ID, m.Players[side.Opponent()].Name, m.Rules.Variant, side, turnWord(m, side))
		if !m.Deadline.IsZero() {
			line += fmt.Sprintf(" (deadline <t:%d:R>)", m.Deadline.Unix())
		}
		if m.GuildID != "" {
			line += fmt.Sprintf(" · <#%s>", m.Where())
		}
		lines = append(lines, line)
	}
	b.tell(i, truncate(strings.Join(lines, "\n"), 2000))
}

// turnWord says whose turn it is from side's point of view.
func turnWord(m *storage.Match, side game.Side) string {
	switch {
	case m.Phase == storage.PhaseSetup && m.Setups[side].Status != storage.SetupConfirmed:
		return "send your set-up"
	case m.Phase == storage.PhaseSetup:
		return "waiting for their set-up"
	case m.ToMove() == side:
		return "your move"
	}
	return "their move"
}
