package bot

import (
	"bytes"
	"context"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/web"
)

// onBoard shows the member their own board, privately.
func (b *Bot) onBoard(ctx context.Context, i *discordgo.Interaction, opts options) {
	user := userOf(i).ID
	m, side, err := b.matchMeant(ctx, user, lookup{named: opts.str(optMatch), fits: playing})
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "board"))
		return
	}
	if m.Phase == storage.PhaseAbandoned && !started(m) {
		// Called off in its set-up: there is no board, and no set-up to
		// confirm any more.
		b.tell(i, joinLines(b.matchTitle(printerOf(i), m), web.CalledOffText(printerOf(i), m)))
		return
	}
	if !b.deferPrivate(i) {
		return
	}
	g, err := m.Game()
	if err != nil {
		b.finish(i, b.explain(printerOf(i), err, "board"))
		return
	}
	settings := b.settingsOf(ctx, user)
	n := settings.Numbering
	if asText, _ := opts.boolean(optText); asText {
		// The diagram says who moves and the last move itself: only the
		// match's title goes before it.
		v := g.View(game.ViewerOf(side))
		diagram, err := render.TextBoard(v, render.Options{Names: b.plainNames(printerOf(i), m), Numbering: n, Lang: printerOf(i), CalledOff: m.Phase == storage.PhaseAbandoned})
		if err != nil {
			b.finish(i, b.explain(printerOf(i), err, "board"))
			return
		}
		b.finish(i, codeBlock(diagram))
		return
	}
	text, files := b.privateBoard(printerOf(i), m, g, side, n, i.GuildID != "")
	// On their turn the menus the text speaks of, as under a board DM; and
	// the player's own link, as there: the answer is theirs alone.
	rows := pickerComponents(printerOf(i), m, g, side, n, game.NoSquare)
	if rows = b.withBoardLink(printerOf(i), rows, m, game.ViewerOf(side), settings.LinkGen); rows != nil {
		b.finishWith(i, text, rows, files...)
		return
	}
	b.finish(i, text, files...)
}

// showNow answers a click on the menus of an old board with the board as it
// stands now, privately: its picture, where the match stands, and fresh menus
// when it is the player's move.
func (b *Bot) showNow(ctx context.Context, i *discordgo.Interaction, m *storage.Match, side game.Side) {
	g, err := m.Game()
	if err != nil {
		b.followUp(i, &discordgo.WebhookParams{Content: b.explain(printerOf(i), err, "picker")})
		return
	}
	n := b.settingsOf(ctx, userOf(i).ID).Numbering
	text, files := b.privateBoard(printerOf(i), m, g, side, n, i.GuildID != "")
	b.followUp(i, &discordgo.WebhookParams{Content: b.explain(printerOf(i), storage.ErrStale, "picker") + "\n" + text,
		Files: files, Components: pickerComponents(printerOf(i), m, g, side, n, game.NoSquare)})
}

// privateBoard is a player's board for a private answer: the match's title,
// where it stands, and the player's picture. inChannel is an answer in a
// server channel, which cannot be replied to with a move.
func (b *Bot) privateBoard(p lang.Printer, m *storage.Match, g *game.Game, side game.Side, n game.Numbering, inChannel bool) (string, []*discordgo.File) {
	v := g.View(game.ViewerOf(side))
	if m.Phase == storage.PhaseAbandoned {
		// Called off: the game stopped where the picture shows it, nobody
		// moves and no time runs; the board says why, as the channel was told.
		return joinLines(b.matchTitle(p, m), web.CalledOffText(p, m)), b.boardFile(p, m, &v, n)
	}
	nar := narrator{viewer: game.ViewerOf(side), names: b.names(p, m), numbering: n, p: p}
	status := statusLine(g, nar, deadlineToShow(m, g, b.now()), inChannel)
	if r := g.Result(); r.Over() {
		status = "**" + nar.describeEnd(m, r) + "**"
	}
	return joinLines(b.matchTitle(p, m), status, b.timeLines(p, m, g, nar.viewer)), b.boardFile(p, m, &v, n)
}

// boardFile draws a player's board for a private answer.
func (b *Bot) boardFile(p lang.Printer, m *storage.Match, v *game.View, n game.Numbering) []*discordgo.File {
	var buf bytes.Buffer
	opts := b.pictureOptions(p, m, n)
	opts.CalledOff = m.Phase == storage.PhaseAbandoned
	drawn := time.Now()
	err := b.pics.Board(&buf, *v, opts)
	b.metrics.rendered(drawn)
	if err != nil {
		b.log.Error("drawing a board failed", "match", m.ID, "error", err)
		return nil
	}
	return []*discordgo.File{pngFile("board.png", buf.Bytes(), boardAlt(*v, opts))}
}
