package bot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

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

// announce tells both players (by DM, each with their own picture) and the
// channel (with the public picture) where a match stands after an event. When
// the match is over the channel also gets the final reveal and the replay.
// The match is already safely stored: a failed send is logged, not retried
// forever.
func (b *Bot) announce(ctx context.Context, m *storage.Match, what headline) {
	g, err := m.Game()
	if err != nil {
		b.log.Error("rebuilding the game for an announcement failed", "match", m.ID, "error", err)
		return
	}
	var numbering [2]game.Numbering
	var settings [2]*storage.PlayerSettings
	for _, s := range []game.Side{game.Red, game.Blue} {
		if p, err := b.store.Player(ctx, m.Players[s].UserID); err == nil {
			settings[s], numbering[s] = p, p.Numbering
		}
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
		text := joinLines(matchTitle(m), what(n, &views[side]), b.statusLine(m, g, n))
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
	text := joinLines(matchTitle(m), what(public, &views[2]), b.statusLine(m, g, public))
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
func (b *Bot) statusLine(m *storage.Match, g *game.Game, n narrator) string {
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

// sendDM sends a private message to one player of a match. When Discord says
// the member does not accept DMs from the bot (50007), the player's settings
// remember it and the match's channel asks them, once, to open DMs or use the
// private slash commands.
func (b *Bot) sendDM(ctx context.Context, m *storage.Match, side game.Side, msg *discordgo.MessageSend) bool {
	if b.isComputer(m, side) {
		return false // the computer reads no DMs
	}
	user := m.Players[side].UserID
	ch, err := b.dmChannel(user)
	if err == nil {
		_, err = b.s.ChannelMessageSendComplex(ch, msg)
	}
	var rest *discordgo.RESTError
	blocked := errors.As(err, &rest) && rest.Message != nil && rest.Message.Code == discordgo.ErrCodeCannotSendMessagesToThisUser
	switch {
	case err == nil:
		b.setDMBlocked(ctx, user, time.Time{})
		return true
	case blocked:
		if first := b.setDMBlocked(ctx, user, b.now()); first {
			text := fmt.Sprintf("<@%s>, I can't send you direct messages, so I can't show you your board privately. "+
				"Allow DMs from this server's members (server menu → Privacy Settings), or use `/stratego board` and `/stratego setup`, which only you see.", user)
			if _, err := b.s.ChannelMessageSendComplex(m.Where(), &discordgo.MessageSend{Content: text,
				AllowedMentions: &discordgo.MessageAllowedMentions{Users: []string{user}}}); err != nil {
				b.log.Warn("telling a player about closed DMs failed", "match", m.ID, "error", err)
			}
		}
	default:
		b.log.Warn("sending a DM failed", "match", m.ID, "error", err)
	}
	return false
}

// setDMBlocked records whether DMs reach a user; it returns true when this
// changed them from reaching to blocked.
func (b *Bot) setDMBlocked(ctx context.Context, user string, at time.Time) bool {
	changed := false
	p, err := b.store.Player(ctx, user)
	if err != nil || p.DMBlockedAt.IsZero() == at.IsZero() {
		return false
	}
	_, err = b.store.UpdatePlayer(ctx, user, func(p *storage.PlayerSettings) error {
		changed = p.DMBlockedAt.IsZero() && !at.IsZero()
		p.DMBlockedAt = at
		return nil
	})
	if err != nil {
		b.log.Warn("recording DM delivery failed", "error", err)
	}
	return changed
}

// dmChannel returns the DM channel with a user, created once and cached.
func (b *Bot) dmChannel(user string) (string, error) {
	if ch, ok := b.dmChannels.Load(user); ok {
		return ch.(string), nil
	}
	ch, err := b.s.UserChannelCreate(user)
	if err != nil {
		return "", fmt.Errorf("open a DM channel: %w", err)
	}
	b.dmChannels.Store(user, ch.ID)
	return ch.ID, nil
}

// boardFile draws a player's board for a private answer.
func (b *Bot) boardFile(m *storage.Match, v *game.View, n game.Numbering) []*discordgo.File {
	var buf bytes.Buffer
	if err := b.pics.Board(&buf, *v, render.Options{Names: names(m), Numbering: n}); err != nil {
		b.log.Error("drawing a board failed", "match", m.ID, "error", err)
		return nil
	}
	return []*discordgo.File{pngFile("board.png", buf.Bytes())}
}
