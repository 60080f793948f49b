package bot

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
)

// headline words the event being announced for one viewer; v is that viewer's view.
type headline func(n narrator, v *game.View) string

// moveHeadline words a played move.
func moveHeadline(rec game.MoveRecord) headline {
	return func(n narrator, v *game.View) string { return n.describeMove(rec, v) }
}

// startHeadline announces the first position.
func startHeadline(n narrator, v *game.View) string {
	if v.Result.Over() {
		return "Both set-ups are in, and the match is over at once."
	}
	if side, ok := n.viewer.IsPlayer(); ok {
		return fmt.Sprintf("Both set-ups are in: the match begins! You play %s.", side)
	}
	return "Both set-ups are in: the match begins!"
}

// timeUpHeadline announces a loss on time.
func timeUpHeadline(narrator, *game.View) string { return "Time is up." }

// noHeadline announces an event the status line says all of (a resignation, a draw).
func noHeadline(narrator, *game.View) string { return "" }

// afterChange is the one path after every change of a match in play: a
// move, the start, and every ending, at any ply (a capture, no movable piece
// at the start, resignation, draw, time). The timers learn the new deadline,
// both players and the channel are told, and the computer answers when it is
// to move. g is the match's game after the change; nil replays it.
func (b *Bot) afterChange(ctx context.Context, m *storage.Match, g *game.Game, what headline) {
	b.nudgeTimers()
	if g == nil {
		var err error
		if g, err = m.Game(); err != nil {
			b.log.Error("rebuilding the game for an announcement failed", "match", m.ID, "error", err)
			return
		}
	}
	b.announce(ctx, m, g, what)
	b.letComputerMove(ctx, m, g)
}

// announce tells both players (by DM, each with their own picture) and the
// channel (with the public picture) where a match stands after an event. When
// the match is over the channel also gets the final reveal and the replay.
// The match is already safely stored: a failed send is logged, not retried
// forever.
func (b *Bot) announce(ctx context.Context, m *storage.Match, g *game.Game, what headline) {
	var numbering [2]game.Numbering
	for _, s := range []game.Side{game.Red, game.Blue} {
		numbering[s] = b.settingsOf(ctx, m.Players[s].UserID).Numbering
	}
	viewers := [3]game.Viewer{game.RedViewer, game.BlueViewer, game.PublicViewer}
	var views [3]game.View
	var pictures [3][]byte
	var wg sync.WaitGroup
	for k, viewer := range viewers {
		views[k] = g.View(viewer)
		n := game.NumberingModern
		if side, ok := viewer.IsPlayer(); ok {
			n = numbering[side]
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf bytes.Buffer
			if err := b.pics.Board(&buf, views[k], render.Options{Names: names(m), Numbering: n}); err != nil {
				b.log.Error("drawing a board failed", "match", m.ID, "viewer", viewer, "error", err)
				return
			}
			pictures[k] = buf.Bytes()
		}()
	}
	wg.Wait()

	var sent sync.WaitGroup
	for _, side := range []game.Side{game.Red, game.Blue} {
		n := narrator{viewer: game.ViewerOf(side), names: names(m), numbering: numbering[side]}
		text := joinLines(matchTitle(m), what(n, &views[side]), statusLine(m, g, n))
		msg := &discordgo.MessageSend{Content: text, Components: pickerComponents(m, g, side, numbering[side], game.NoSquare)}
		if pictures[side] != nil {
			msg.Files = []*discordgo.File{pngFile("board.png", pictures[side])}
		}
		sent.Add(1)
		go func() {
			defer sent.Done()
			b.sendDM(ctx, m, side, msg)
		}()
	}
	public := narrator{viewer: game.PublicViewer, names: names(m)}
	text := joinLines(matchTitle(m), what(public, &views[2]), statusLine(m, g, public))
	msg := &discordgo.MessageSend{Content: text, AllowedMentions: &discordgo.MessageAllowedMentions{}}
	if pictures[2] != nil {
		msg.Files = []*discordgo.File{pngFile("board.png", pictures[2])}
	}
	if m.GuildID != "" { // a practice match in the DM has no public
		if _, err := b.s.ChannelMessageSendComplex(m.Where(), msg); err != nil {
			b.log.Warn("posting the public board failed", "match", m.ID, "error", err)
		}
	}
	sent.Wait()
	if g.Result().Over() {
		b.postFinale(m, g)
	}
}

// joinLines joins the non-empty lines.
func joinLines(lines ...string) string {
	out := lines[:0:0]
	for _, l := range lines {
		if l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// matchTitle heads every message about a match; a DM reply is matched to its
// match by this title.
func matchTitle(m *storage.Match) string {
	return fmt.Sprintf("**Match #%d** · %s (Red) vs %s (Blue)", m.ID, m.Players[game.Red].Name, m.Players[game.Blue].Name)
}

// statusLine says whose turn it is and until when, or how the game ended.
func statusLine(m *storage.Match, g *game.Game, n narrator) string {
	if r := g.Result(); r.Over() {
		return "**" + n.describeResult(r) + "**"
	}
	mover := g.ToMove()
	deadline := ""
	if !m.Deadline.IsZero() {
		deadline = fmt.Sprintf(" (deadline <t:%d:R>)", m.Deadline.Unix())
	}
	offer := ""
	if by, ok := g.DrawOffer(); ok {
		offer = fmt.Sprintf(" %s offered a draw: `/stratego draw action:accept` or `decline`.", n.subject(by))
	}
	if n.isViewer(mover) {
		return fmt.Sprintf("Move %d: **your move**%s. Reply with a move like `B4-B5`, use `/stratego move`, or the menu below.%s", g.Ply()+1, deadline, offer)
	}
	return fmt.Sprintf("Move %d: %s to move%s.%s", g.Ply()+1, n.names[mover], deadline, offer)
}

// postFinale shows everyone the whole truth once the game is over: the final
// reveal and the replay of the game in the channel.
func (b *Bot) postFinale(m *storage.Match, g *game.Game) {
	reveal, ok := g.Reveal()
	if !ok {
		return
	}
	var files []*discordgo.File
	var pic bytes.Buffer
	if err := b.pics.Reveal(&pic, reveal, render.Options{Names: names(m)}); err == nil {
		files = append(files, pngFile("final.png", pic.Bytes()))
	} else {
		b.log.Error("drawing the final reveal failed", "match", m.ID, "error", err)
	}
	var gif bytes.Buffer
	if err := b.pics.Replay(&gif, g, render.ReplayOptions{Options: render.Options{Names: names(m)}}); err == nil && gif.Len() < 9<<20 {
		files = append(files, &discordgo.File{Name: "replay.gif", ContentType: "image/gif", Reader: bytes.NewReader(gif.Bytes())})
	} else if err != nil {
		b.log.Error("drawing the replay failed", "match", m.ID, "error", err)
	}
	msg := &discordgo.MessageSend{
		Content:         fmt.Sprintf("%s\nThe final position with every piece shown, and the whole game.", matchTitle(m)),
		Files:           files,
		AllowedMentions: &discordgo.MessageAllowedMentions{},
	}
	if _, err := b.s.ChannelMessageSendComplex(m.Where(), msg); err != nil {
		b.log.Warn("posting the finale failed", "match", m.ID, "error", err)
	}
}

func names(m *storage.Match) [2]string {
	return [2]string{m.Players[game.Red].Name, m.Players[game.Blue].Name}
}
