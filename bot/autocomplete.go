package bot

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
)

// onAutocomplete offers matches, pieces that can move and their targets.
// Answers come from the player's own legal moves, which depend only on their
// own pieces and what both players see.
func (b *Bot) onAutocomplete(ctx context.Context, i *discordgo.Interaction) {
	data := i.ApplicationCommandData()
	var choices []*discordgo.ApplicationCommandOptionChoice
	defer func() {
		if len(choices) > maxChoices {
			choices = choices[:maxChoices]
		}
		b.respond(i, discordgo.InteractionApplicationCommandAutocompleteResult, &discordgo.InteractionResponseData{Choices: choices})
	}()
	if len(data.Options) == 0 {
		return
	}
	sub := data.Options[0]
	opts := optionMap(sub.Options)
	var focused *discordgo.ApplicationCommandInteractionDataOption
	for _, o := range sub.Options {
		if o.Focused {
			focused = o
		}
	}
	if focused == nil {
		return
	}
	typed := strings.ToUpper(strings.TrimSpace(fmt.Sprint(focused.Value)))
	user, p := userOf(i).ID, printerOf(i)
	if focused.Name == optDelete || focused.Name == optDefault {
		choices = b.savedSetupChoices(ctx, p, user, typed)
		return
	}
	if focused.Name == optMatch && (sub.Name == cmdWatch || sub.Name == cmdCancel || sub.Name == cmdAward) {
		if i.GuildID != "" {
			// A moderator calls off or awards matches they cannot see too.
			choices = b.serverMatchChoices(ctx, i, typed, sub.Name != cmdWatch && isModerator(i))
		}
		return
	}
	if focused.Name == optMatch {
		list, err := b.matchChoices(ctx, user, sub.Name)
		if err != nil {
			return
		}
		for _, m := range list {
			side, _ := m.SideOf(user)
			label := p.Sprintf("#%[1]s vs %[2]s (%[3]s) — %[4]s", m.ID.String(), b.plainName(p, m, side.Opponent()), render.VariantName(p, m.Rules.Variant), stateWord(p, m, side))
			if typed == "" || strings.Contains(strings.ToUpper(label), typed) {
				choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: truncate(label, maxChoiceName), Value: m.ID.String()})
			}
		}
		return
	}
	m, side, err := b.matchMeant(ctx, user, lookup{named: opts.str(optMatch), fits: yourTurn})
	if err != nil || !yourTurn(m, side) {
		return
	}
	g, err := m.Game()
	if err != nil {
		return
	}
	choices = moveChoices(p, g, b.settingsOf(ctx, user).Numbering, focused.Name, opts.str(optFrom), typed, opts.str(optGuess) != "")
}

// matchChoices are the member's matches the match option of command
// offers, newest first: those under way; for the commands that look back at
// a match (history, board), then their latest ended ones that have a game
// to show (finished, or called off in play); for /stratego record, which
// gives only a finished match's, their latest finished ones alone.
func (b *Bot) matchChoices(ctx context.Context, user, command string) ([]*storage.Match, error) {
	var list []*storage.Match
	if command != cmdRecord {
		active, err := b.readableMatches(b.store.PlayerMatches(ctx, user, true, 0))
		if err != nil {
			return nil, err
		}
		list = active
	}
	if command != cmdRecord && command != cmdHistory && command != cmdBoard {
		return list, nil
	}
	ended, err := b.readableMatches(b.store.PlayerMatches(ctx, user, false, maxChoices))
	if err != nil {
		return list, nil // the matches under way still
	}
	for _, m := range ended {
		if m.Phase == storage.PhaseFinished || (command != cmdRecord && started(m)) {
			list = append(list, m)
		}
	}
	return list, nil
}

// started reports whether both set-ups of m were confirmed: it has a game
// to show, though it was called off.
func started(m *storage.Match) bool {
	return m.Setups[game.Red].Status == storage.SetupConfirmed && m.Setups[game.Blue].Status == storage.SetupConfirmed
}

// moveChoices are the choices offered for the option focused (from or to)
// of a move in g by the side to move, who numbers the pieces in n: the
// squares of their legal moves starting with typed, and, for to, those of
// the piece on from. With guessing, only infiltrations are meant; without,
// both. They are made of the mover's legal moves, their own ranks and
// which squares are occupied: nothing of the opponent's hidden ranks.
func moveChoices(p lang.Printer, g *game.Game, n game.Numbering, focused, fromOpt, typed string, guessing bool) []*discordgo.ApplicationCommandOptionChoice {
	var choices []*discordgo.ApplicationCommandOptionChoice
	seen := map[string]bool{}
	for _, mv := range g.LegalMoves() {
		if guessing && !mv.IsInfiltration() {
			continue
		}
		var value, label string
		switch focused {
		case optFrom:
			_, r, _ := g.PieceAt(mv.From) // the player's own piece
			value, label = mv.From.String(), p.Sprintf("%[1]s %[2]s", mv.From.String(), render.PieceName(p, r, n))
		case optTo:
			from, err := game.ParseSquare(fromOpt)
			if err != nil || mv.From != from {
				continue
			}
			value, label = mv.To.String(), mv.To.String()
			if _, _, occupied := g.PieceAt(mv.To); occupied {
				label = p.Sprintf(txtAttackSquare, mv.To.String())
				if mv.IsInfiltration() {
					label = p.Sprintf("%[1]s (infiltrate)", mv.To.String())
				}
			}
		default:
			return nil
		}
		if seen[value] || !strings.HasPrefix(value, typed) {
			continue
		}
		seen[value] = true
		choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: label, Value: value})
	}
	sort.Slice(choices, func(a, c int) bool { return squareOrder(choices[a].Value) < squareOrder(choices[c].Value) })
	return choices
}

func squareOrder(v any) int {
	s, err := game.ParseSquare(fmt.Sprint(v))
	if err != nil {
		return 1000
	}
	return s.Col()*10 + s.Row()
}
