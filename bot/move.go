package bot

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// matchFor finds the match a member means: the one named by the match option,
// or else their only active match for which fits holds.
func (b *Bot) matchFor(ctx context.Context, i *discordgo.Interaction, option string, fits func(*storage.Match, game.Side) bool) (*storage.Match, game.Side, error) {
	user := userOf(i).ID
	if option != "" {
		id, err := storage.ParseMatchID(option)
		if err != nil {
			return nil, game.Red, friendly(fmt.Sprintf("%q is not a match number: pick one from the list.", option))
		}
		m, err := b.store.Match(ctx, id)
		if err != nil {
			return nil, game.Red, err
		}
		side, ok := m.SideOf(user)
		if !ok {
			return nil, game.Red, errNotYourMatch
		}
		return m, side, nil
	}
	list, err := b.store.PlayerMatches(ctx, user, true, 0)
	if err != nil {
		return nil, game.Red, err
	}
	var found []*storage.Match
	for _, m := range list {
		if side, ok := m.SideOf(user); ok && fits(m, side) {
			found = append(found, m)
		}
	}
	switch len(found) {
	case 0:
		if len(list) > 0 {
			return nil, game.Red, friendly("None of your matches is waiting for that from you right now. `/stratego games` lists them.")
		}
		return nil, game.Red, errNoMatch
	case 1:
		side, _ := found[0].SideOf(user)
		return found[0], side, nil
	}
	return nil, game.Red, errWhichMatch
}

// playerMatch loads a match a control names and checks the member plays in it.
func (b *Bot) playerMatch(ctx context.Context, i *discordgo.Interaction, id storage.MatchID) (*storage.Match, game.Side, error) {
	m, err := b.store.Match(ctx, id)
	if err != nil {
		return nil, game.Red, err
	}
	side, ok := m.SideOf(userOf(i).ID)
	if !ok {
		return nil, game.Red, errNotYourMatch
	}
	return m, side, nil
}

// yourTurn is the fits test for moving.
func yourTurn(m *storage.Match, side game.Side) bool {
	return m.Phase == storage.PhasePlaying && m.ToMove() == side
}

// play is the one path of every move, whatever way it came in (slash command,
// DM text, menus): storage checks the player, the turn and the version and
// lets the rules engine apply the move in one transaction; then both players
// and the channel are told.
func (b *Bot) play(ctx context.Context, userID string, id storage.MatchID, version uint64, mv game.Move) (*storage.Match, game.MoveRecord, error) {
	m, err := b.store.Match(ctx, id)
	if err != nil {
		return nil, game.MoveRecord{}, err
	}
	side, ok := m.SideOf(userID)
	if !ok {
		return nil, game.MoveRecord{}, errNotYourMatch
	}
	if m.Phase == storage.PhaseSetup {
		return nil, game.MoveRecord{}, storage.ErrNotStarted
	}
	m, g, err := b.store.ApplyMove(ctx, id, version, side, mv, b.now())
	if err != nil {
		return nil, game.MoveRecord{}, err
	}
	rec, _ := g.LastMove()
	b.nudgeTimers()
	b.announce(ctx, m, moveHeadline(rec))
	b.afterMove(ctx, m)
	return m, rec, nil
}

// onMoveCommand handles /stratego move and /stratego infiltrate.
func (b *Bot) onMoveCommand(ctx context.Context, i *discordgo.Interaction, sub string, opts options) {
	from, err1 := game.ParseSquare(opts.str(optFrom))
	to, err2 := game.ParseSquare(opts.str(optTo))
	if err1 != nil || err2 != nil {
		b.tell(i, "Name two squares, like `from: B4` and `to: B5` (columns A–J, rows 1–10).")
		return
	}
	mv := game.Move{From: from, To: to}
	if sub == cmdInfiltrate {
		r, err := game.ParseRank(opts.str(optGuess), game.NumberingModern)
		if err != nil {
			b.tell(i, "Name the piece you guess with the `guess` option.")
			return
		}
		mv.Guess = r
	}
	m, _, err := b.matchFor(ctx, i, opts.str(optMatch), yourTurn)
	if err != nil {
		b.tell(i, b.explain(err, "move"))
		return
	}
	if !b.deferPrivate(i) {
		return
	}
	b.finishMove(ctx, i, m.ID, 0, mv)
}

// finishMove plays a move for a deferred interaction and reports to the mover.
func (b *Bot) finishMove(ctx context.Context, i *discordgo.Interaction, id storage.MatchID, version uint64, mv game.Move) {
	user := userOf(i).ID
	m, rec, err := b.play(ctx, user, id, version, mv)
	if err != nil {
		b.finish(i, b.explain(err, "move"))
		return
	}
	side, _ := m.SideOf(user)
	settings, _ := b.store.Player(ctx, user)
	n := game.NumberingModern
	if settings != nil {
		n = settings.Numbering
	}
	g, err := m.Game()
	if err != nil {
		b.finish(i, "Played "+rec.Notation(n)+".")
		return
	}
	v := g.View(game.ViewerOf(side))
	text := narrator{viewer: game.ViewerOf(side), names: names(m), numbering: n}.describeMove(rec, &v)
	if settings != nil && !settings.DMsReach() {
		// The DM with the board did not arrive last time: show it here, privately.
		b.finish(i, text, b.boardFile(m, &v, n)...)
		return
	}
	b.finish(i, text)
}

// onAutocomplete offers matches, pieces that can move and their targets.
// Answers come from the player's own legal moves, which depend only on their
// own pieces and what both players see.
func (b *Bot) onAutocomplete(ctx context.Context, i *discordgo.Interaction) {
	data := i.ApplicationCommandData()
	var choices []*discordgo.ApplicationCommandOptionChoice
	defer func() {
		if len(choices) > 25 {
			choices = choices[:25]
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
	user := userOf(i).ID
	if focused.Name == optDelete || focused.Name == optDefault {
		choices = b.savedSetupChoices(ctx, user, typed)
		return
	}
	if focused.Name == optMatch {
		list, err := b.store.PlayerMatches(ctx, user, true, 0)
		if err != nil {
			return
		}
		for _, m := range list {
			side, _ := m.SideOf(user)
			label := fmt.Sprintf("#%d vs %s (%s) — %s", m.ID, m.Players[side.Opponent()].Name, m.Rules.Variant, turnWord(m, side))
			if typed == "" || strings.Contains(strings.ToUpper(label), typed) {
				choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: truncate(label, 100), Value: m.ID.String()})
			}
		}
		return
	}
	m, side, err := b.matchFor(ctx, i, opts.str(optMatch), yourTurn)
	if err != nil || !yourTurn(m, side) {
		return
	}
	g, err := m.Game()
	if err != nil {
		return
	}
	settings, _ := b.store.Player(ctx, user)
	n := game.NumberingModern
	if settings != nil {
		n = settings.Numbering
	}
	infiltrating := sub.Name == cmdInfiltrate
	seen := map[string]bool{}
	for _, mv := range g.LegalMoves() {
		if mv.IsInfiltration() != infiltrating {
			continue
		}
		var value, label string
		switch focused.Name {
		case optFrom:
			_, r, _ := g.PieceAt(mv.From) // the player's own piece
			value, label = mv.From.String(), mv.From.String()+" "+r.Describe(n)
		case optTo:
			from, err := game.ParseSquare(opts.str(optFrom))
			if err != nil || mv.From != from {
				continue
			}
			value, label = mv.To.String(), mv.To.String()
			if _, _, occupied := g.PieceAt(mv.To); occupied {
				label += " (attack)"
				if infiltrating {
					label = mv.To.String() + " (infiltrate)"
				}
			}
		default:
			return
		}
		if seen[value] || !strings.HasPrefix(value, typed) {
			continue
		}
		seen[value] = true
		choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: label, Value: value})
	}
	sort.Slice(choices, func(a, c int) bool { return squareOrder(choices[a].Value) < squareOrder(choices[c].Value) })
}

func squareOrder(v any) int {
	s, err := game.ParseSquare(fmt.Sprint(v))
	if err != nil {
		return 1000
	}
	return s.Col()*10 + s.Row()
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

// pickerComponents are the menus under a player's board DM: first the pieces
// that can move; after a choice, that piece's targets.
func pickerComponents(m *storage.Match, g *game.Game, side game.Side, n game.Numbering, from game.Square) []discordgo.MessageComponent {
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
			options = append(options, discordgo.SelectMenuOption{Label: mv.From.String() + " " + r.Describe(n), Value: mv.From.String()})
			continue
		}
		if mv.From != from || seen[mv.To] {
			continue
		}
		seen[mv.To] = true
		label := mv.To.String()
		if _, _, occupied := g.PieceAt(mv.To); occupied {
			label += " (attack)"
		}
		options = append(options, discordgo.SelectMenuOption{Label: label, Value: mv.To.String()})
	}
	if len(options) == 0 {
		return nil
	}
	var rows []discordgo.MessageComponent
	action, placeholder, arg := actPiece, "Move a piece…", ""
	if from != game.NoSquare {
		action, placeholder, arg = actTarget, "Move "+from.String()+" to…", from.String()
	}
	for start := 0; start < len(options) && len(rows) < 4; start += 25 {
		end := min(start+25, len(options))
		id := customID{kind: kindMove, action: action, id: uint64(m.ID), version: m.Version, arg: arg, menu: start / 25}.String()
		ph := placeholder
		if len(options) > 25 {
			ph = fmt.Sprintf("%s (%s–%s)", placeholder, options[start].Value, options[end-1].Value)
		}
		rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.SelectMenu{CustomID: id, Placeholder: ph, Options: options[start:end]},
		}})
	}
	if from != game.NoSquare {
		rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "Back", Style: discordgo.SecondaryButton,
				CustomID: customID{kind: kindMove, action: actBack, id: uint64(m.ID), version: m.Version}.String()},
		}})
	}
	return rows
}

// onMovePicker handles the menus under a board DM.
func (b *Bot) onMovePicker(ctx context.Context, i *discordgo.Interaction, id customID) {
	m, side, err := b.playerMatch(ctx, i, storage.MatchID(id.id))
	if err != nil {
		b.tell(i, b.explain(err, "picker"))
		return
	}
	if m.Version != id.version || !yourTurn(m, side) {
		b.updateComponents(i, []discordgo.MessageComponent{})
		b.showStale(ctx, i, m.ID)
		return
	}
	g, err := m.Game()
	if err != nil {
		b.tell(i, b.explain(err, "picker"))
		return
	}
	settings, _ := b.store.Player(ctx, userOf(i).ID)
	n := game.NumberingModern
	if settings != nil {
		n = settings.Numbering
	}
	switch id.action {
	case actPiece:
		values := i.MessageComponentData().Values
		if len(values) == 0 {
			return
		}
		from, err := game.ParseSquare(values[0])
		if err != nil {
			b.tell(i, "Pick a piece from the menu.")
			return
		}
		b.updateComponents(i, pickerComponents(m, g, side, n, from))
	case actBack:
		b.updateComponents(i, pickerComponents(m, g, side, n, game.NoSquare))
	case actTarget:
		values := i.MessageComponentData().Values
		from, err1 := game.ParseSquare(id.arg)
		if len(values) == 0 || err1 != nil {
			b.tell(i, "Pick a square from the menu.")
			return
		}
		to, err := game.ParseSquare(values[0])
		if err != nil {
			b.tell(i, "Pick a square from the menu.")
			return
		}
		if !b.deferUpdate(i) {
			return
		}
		empty := []discordgo.MessageComponent{}
		if _, err := b.s.InteractionResponseEdit(i, &discordgo.WebhookEdit{Components: &empty}); err != nil {
			b.log.Warn("clearing the picker failed", "error", err)
		}
		if _, _, err := b.play(ctx, userOf(i).ID, m.ID, id.version, game.Move{From: from, To: to}); err != nil {
			if errors.Is(err, storage.ErrStale) {
				b.showStale(ctx, i, m.ID)
				return
			}
			b.followUp(i, b.explain(err, "picker"))
		}
	default:
		b.tell(i, staleComponent)
	}
}

// showStale answers a click on the menus of an old board with the board as
// it stands now, privately: its picture, whose move, and fresh menus.
func (b *Bot) showStale(ctx context.Context, i *discordgo.Interaction, id storage.MatchID) {
	m, side, err := b.playerMatch(ctx, i, id)
	if err != nil {
		b.followUp(i, b.explain(err, "picker"))
		return
	}
	g, err := m.Game()
	if err != nil {
		b.followUp(i, b.explain(err, "picker"))
		return
	}
	settings, _ := b.store.Player(ctx, userOf(i).ID)
	n := game.NumberingModern
	if settings != nil {
		n = settings.Numbering
	}
	v := g.View(game.ViewerOf(side))
	nar := narrator{viewer: game.ViewerOf(side), names: names(m), numbering: n}
	text := joinLines(b.explain(storage.ErrStale, "picker"), matchTitle(m), b.statusLine(m, g, nar))
	_, err = b.s.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: text, Flags: discordgo.MessageFlagsEphemeral,
		Files: b.boardFile(m, &v, n), Components: pickerComponents(m, g, side, n, game.NoSquare)})
	if err != nil {
		b.log.Warn("follow-up failed", "error", err)
	}
}
