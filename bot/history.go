package bot

import (
	"context"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// onHistory lists the moves of a match as the member knows them: every move
// is public, with the ranks its battles revealed.
func (b *Bot) onHistory(ctx context.Context, i *discordgo.Interaction, opts options) {
	m, side, err := b.matchMeant(ctx, userOf(i).ID, lookup{named: opts.str(optMatch), fits: playing, orFinished: true})
	if err != nil {
		b.tell(i, b.explain(err, "history"))
		return
	}
	g, err := m.Game()
	if err != nil {
		b.tell(i, b.explain(err, "history"))
		return
	}
	n := b.settingsOf(ctx, userOf(i).ID).Numbering
	v := g.View(game.ViewerOf(side))
	text := historyText(m, &v, narrator{viewer: game.ViewerOf(side), names: names(m), numbering: n})
	if len(text) <= 1900 {
		b.tell(i, text)
		return
	}
	b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
		Content: fmt.Sprintf("%s\n%d moves: the list is attached.", matchTitle(m), v.Ply()),
		Flags:   discordgo.MessageFlagsEphemeral,
		Files:   []*discordgo.File{{Name: fmt.Sprintf("match-%d-moves.txt", m.ID), ContentType: "text/plain", Reader: strings.NewReader(text)}},
	})
}

// historyText writes one line per move: "12. Blue E7xE6 Captain (6) beats Lieutenant (5)".
func historyText(m *storage.Match, v *game.View, nar narrator) string {
	n := nar.numbering
	var sb strings.Builder
	sb.WriteString(matchTitle(m) + "\n")
	if len(v.History) == 0 {
		sb.WriteString("No moves yet.")
	}
	for k, rec := range v.History {
		fmt.Fprintf(&sb, "%d. %s %s", k+1, rec.Side, rec.Notation(n))
		a, d := rec.Attacker.Describe(n), rec.Defender.Describe(n)
		switch rec.Outcome {
		case game.AttackerWon:
			fmt.Fprintf(&sb, " %s beats %s", a, d)
		case game.DefenderWon:
			fmt.Fprintf(&sb, " %s loses to %s", a, d)
		case game.BothRemoved:
			fmt.Fprintf(&sb, " %s and %s both removed", a, d)
		case game.GuessedRight:
			sb.WriteString(" right guess")
		case game.GuessedWrong:
			sb.WriteString(" wrong guess")
		}
		sb.WriteByte('\n')
	}
	sb.WriteString(nar.describeResult(v.Result))
	return strings.TrimSpace(sb.String())
}
