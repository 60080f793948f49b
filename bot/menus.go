package bot

import (
	"context"
	"errors"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
)

// txtAttackSquare marks a target square that holds an enemy piece.
const txtAttackSquare = "%[1]s (attack)"

// pickerComponents are the menus under a player's board DM: first the pieces
// that can move; after a choice, that piece's targets.
func pickerComponents(p lang.Printer, m *storage.Match, g *game.Game, side game.Side, n game.Numbering, from game.Square) []discordgo.MessageComponent {
	if !yourTurn(m, side) {
		return nil
	}
	var options []discordgo.SelectMenuOption
	seen := map[game.Square]bool{}
	for _, mv := range g.LegalMoves() {
		if mv.IsInfiltration() {
			continue
		}
		if from == game.NoSquare {
			if seen[mv.From] {
				continue
			}
			seen[mv.From] = true
			_, r, _ := g.PieceAt(mv.From)
			options = append(options, discordgo.SelectMenuOption{Label: p.Sprintf("%[1]s %[2]s", mv.From.String(), render.PieceName(p, r, n)), Value: mv.From.String()})
			continue
		}
		if mv.From != from || seen[mv.To] {
			continue
		}
		seen[mv.To] = true
		label := mv.To.String()
		if _, _, occupied := g.PieceAt(mv.To); occupied {
			label = p.Sprintf(txtAttackSquare, label)
		}
		options = append(options, discordgo.SelectMenuOption{Label: label, Value: mv.To.String()})
	}
	if len(options) == 0 {
		return nil
	}
	var rows []discordgo.MessageComponent
	action, placeholder, arg := actPiece, p.Sprintf("Move a piece…"), ""
	if from != game.NoSquare {
		action, placeholder, arg = actTarget, p.Sprintf("Move %[1]s to…", from.String()), from.String()
	}
	// Up to four menus of 25 (a fifth row holds Back): room for any army.
	for start := 0; start < len(options) && len(rows) < 4; start += maxChoices {
		end := min(start+maxChoices, len(options))
		id := customID{kind: kindMoveAt, action: action, id: uint64(m.ID), version: uint64(m.Moves()), arg: arg, menu: start / maxChoices}.String()
		ph := placeholder
		if len(options) > maxChoices {
			ph = fmt.Sprintf("%s (%s–%s)", placeholder, options[start].Value, options[end-1].Value)
		}
		rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.SelectMenu{CustomID: id, Placeholder: ph, Options: options[start:end]},
		}})
	}
	if from != game.NoSquare {
		rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: p.Sprintf("Back"), Style: discordgo.SecondaryButton,
				CustomID: customID{kind: kindMoveAt, action: actBack, id: uint64(m.ID), version: uint64(m.Moves())}.String()},
		}})
	}
	return rows
}

// onMovePicker handles the menus under a board DM: a piece chosen shows its
// targets, Back the pieces again, a target plays the move. Every answer keeps
// the board's text; a click on the menus of an old board shows the board as
// it stands now.
func (b *Bot) onMovePicker(ctx context.Context, i *discordgo.Interaction, id customID) {
	m, side, err := b.playerMatch(ctx, i, id.id)
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "picker"))
		return
	}
	// The menus are the position's: a reminder, a gift of time, a pause or
	// a vacation changes the match's version, not the turn they were drawn for.
	stale := uint64(m.Moves()) != id.version
	if id.kind == kindMove {
		stale = m.Version != id.version // drawn before menus named their position
	}
	if stale || !yourTurn(m, side) {
		b.updateComponents(i, nil)
		b.showNow(ctx, i, m, side)
		return
	}
	switch id.action {
	case actPiece, actBack:
		from := game.NoSquare
		if id.action == actPiece {
			values := i.MessageComponentData().Values
			if len(values) == 0 {
				b.say(i, "Pick a piece from the menu.")
				return
			}
			if from, err = game.ParseSquare(values[0]); err != nil {
				b.say(i, "Pick a piece from the menu.")
				return
			}
		}
		g, err := m.Game()
		if err != nil {
			b.tell(i, b.explain(printerOf(i), err, "picker"))
			return
		}
		b.updateComponents(i, pickerComponents(printerOf(i), m, g, side, b.settingsOf(ctx, userOf(i).ID).Numbering, from))
	case actTarget:
		values := i.MessageComponentData().Values
		from, err1 := game.ParseSquare(id.arg)
		if len(values) == 0 || err1 != nil {
			b.say(i, "Pick a square from the menu.")
			return
		}
		to, err := game.ParseSquare(values[0])
		if err != nil {
			b.say(i, "Pick a square from the menu.")
			return
		}
		if !b.deferUpdate(i) {
			return
		}
		// The menus go at once; the board's text stays (an edit without
		// content keeps it). Once: the move is not held back while Discord
		// fails the edit, the mover's clock running.
		empty := keptLinks(i.Message, []discordgo.MessageComponent{})
		if err := b.editOriginalOnce(i, &discordgo.WebhookEdit{Components: &empty}, b.untilStop()); err != nil {
			b.log.Warn("clearing the picker failed", "error", err)
		}
		// At the version just read: a move made meanwhile by other means is
		// not played over (ErrStale shows the board as it is then). A
		// reminder or a gift of time that came meanwhile leaves the position
		// as the menus showed it, so the move is tried once more.
		mv, settings := game.Move{From: from, To: to}, b.settingsOf(ctx, userOf(i).ID)
		_, _, err = b.play(ctx, m, side, m.Version, mv, settings)
		if errors.Is(err, storage.ErrStale) {
			if now, side, err2 := b.playerMatch(ctx, i, id.id); err2 == nil && now.Moves() == m.Moves() && yourTurn(now, side) {
				_, _, err = b.play(ctx, now, side, now.Version, mv, settings)
			}
		}
		switch {
		case errors.Is(err, storage.ErrStale):
			if m, side, err := b.playerMatch(ctx, i, id.id); err == nil {
				b.showNow(ctx, i, m, side)
			}
		case err != nil:
			b.followUp(i, &discordgo.WebhookParams{Content: b.explain(printerOf(i), err, "picker")})
		}
	default:
		b.say(i, txtStaleComponent)
	}
}
