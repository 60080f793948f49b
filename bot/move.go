package bot

import (
	"context"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// play is the one path of every move, whatever way it came in (the slash
// command, a move typed in the DM, the menus, the computer): storage checks
// the turn and the version and lets the rules engine apply the move in one
// transaction, the only replay of the match, which also records what the
// move owes everyone (the outbox tells them). side is the mover's, as the
// caller found it; settings are the mover's when the caller read them
// already (nil: not read), so that the notices need not read them again.
func (b *Bot) play(ctx context.Context, m *storage.Match, side game.Side, version uint64, mv game.Move, settings *storage.PlayerSettings) (*storage.Match, *game.Game, error) {
	m, g, err := b.store.ApplyMove(ctx, m.ID, version, side, mv, b.now())
	if err != nil {
		return nil, nil, err
	}
	b.metrics.moved()
	b.afterChange(ctx, m, g, settings)
	b.endVacationByMove(ctx, m, side)
	return m, g, nil
}

// onMoveCommand handles /stratego move (with a guess: an infiltration), and
// tells the mover privately what their move did.
func (b *Bot) onMoveCommand(ctx context.Context, i *discordgo.Interaction, opts options) {
	from, err1 := game.ParseSquare(opts.str(optFrom))
	to, err2 := game.ParseSquare(opts.str(optTo))
	if err1 != nil || err2 != nil {
		b.say(i, "Name two squares, like `from: B4` and `to: B5` (columns A–J, rows 1–10).")
		return
	}
	mv := game.Move{From: from, To: to}
	if guess := opts.str(optGuess); guess != "" {
		r, err := game.ParseRank(guess, game.NumberingModern)
		if err != nil {
			b.say(i, "Name the piece you guess with the `guess` option.")
			return
		}
		mv.Guess = r
	}
	user := userOf(i).ID
	m, side, err := b.matchMeant(ctx, user, lookup{named: opts.str(optMatch), fits: yourTurn, none: txtNoMoveWaiting})
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "move"))
		return
	}
	if !b.deferPrivate(i) {
		return
	}
	settings := b.settingsOf(ctx, user)
	m, g, err := b.play(ctx, m, side, 0, mv, settings)
	if err != nil {
		b.finish(i, b.explain(printerOf(i), err, "move"))
		return
	}
	rec, _ := g.LastMove()
	v := g.View(game.ViewerOf(side))
	text := narrator{viewer: game.ViewerOf(side), names: b.names(printerOf(i), m), numbering: settings.Numbering, p: printerOf(i)}.describeMove(rec, &v)
	if !settings.DMsReach() {
		// The DM with the board did not arrive last time: show it here, privately.
		b.finish(i, text, b.boardFile(printerOf(i), m, &v, settings.Numbering)...)
		return
	}
	b.finish(i, text)
}
