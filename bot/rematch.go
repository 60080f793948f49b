package bot

import (
	"context"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage"
)

// A rematch: the button under a match's finale offers the other player the
// same terms with the colours swapped, as a challenge like any other (the
// limits and the server's rules for starting a match apply, and they
// accept or decline with its buttons).

const kindRematch = "rm"

const txtRematchUnderWay = "Your rematch is under way already: match #%[1]s. `/stratego challenge` starts another match beside it."

// rematchButton is the button under the finale of a match between people.
func rematchButton(p lang.Printer, m *storage.Match) []discordgo.MessageComponent {
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: p.Sprintf("Rematch"), Style: discordgo.PrimaryButton,
			CustomID: customID{kind: kindRematch, action: actYes, id: uint64(m.ID)}.String()},
	}}}
}

// onRematch challenges the other player of a finished match to the same
// terms with the colours swapped.
func (b *Bot) onRematch(ctx context.Context, i *discordgo.Interaction, id customID) {
	m, err := b.store.Match(ctx, storage.MatchID(id.id))
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "rematch"))
		return
	}
	me, ok := m.SideOf(userOf(i).ID)
	switch {
	case !ok:
		b.say(i, "Only the players of match #%[1]s can ask for a rematch. `/stratego challenge` starts a match of your own.", m.ID.String())
		return
	case m.Phase.Active():
		b.say(i, "Match #%[1]s is still being played.", m.ID.String())
		return
	case m.Practice():
		b.say(i, "`/stratego practice` starts another game against the computer.")
		return
	}
	// A rematch starts a match: the server's role and channels for that
	// hold as for /stratego challenge.
	if why := b.whyNotMatchHere(ctx, i, b.serverOf(ctx, i.GuildID)); why != "" {
		b.tell(i, why)
		return
	}
	if next := b.rematchUnderWay(ctx, m, me); next != nil {
		b.say(i, txtRematchUnderWay, next.ID.String())
		return
	}
	side := "blue" // the colours swap
	if me == game.Blue {
		side = "red"
	}
	me2 := m.Players[me]
	me2.Name = displayName(i)
	b.postChallenge(ctx, i, &storage.Challenge{Challenger: me2, Opponent: m.Players[me.Opponent()], Rules: m.Rules, MoveTime: m.MoveTime, Clock: m.Clock}, side)
}

// rematchUnderWay is the match, if any, that is m's rematch and still on: one
// between the same two members on the same terms, begun after m ended. A
// Rematch button pressed again once its rematch began (an old finale, a
// second tap) then points at it rather than challenging to a third match.
func (b *Bot) rematchUnderWay(ctx context.Context, m *storage.Match, me game.Side) *storage.Match {
	active, err := b.readableMatches(b.store.PlayerMatches(ctx, m.Players[me].UserID, true, 0))
	if err != nil {
		return nil // the challenge's own checks still apply
	}
	for _, next := range active {
		if _, ok := next.SideOf(m.Players[me.Opponent()].UserID); ok && next.GuildID == m.GuildID && !next.Created.Before(m.Ended) &&
			next.Tournament == 0 && next.Rules == m.Rules && next.MoveTime == m.MoveTime && next.Clock == m.Clock {
			return next
		}
	}
	return nil
}
