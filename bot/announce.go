package bot

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/ai"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/internal/nametext"
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
		return n.p.Sprintf("Both set-ups are in, and the match is over at once.")
	}
	if side, ok := n.viewer.IsPlayer(); ok {
		return n.p.Sprintf("Both set-ups are in: the match begins! You play %[1]s.", render.SideName(n.p, side))
	}
	return n.p.Sprintf("Both set-ups are in: the match begins!")
}

// awardHeadline announces a moderator's award, with who and why.
func awardHeadline(note string) headline {
	return func(n narrator, _ *game.View) string {
		return n.p.Sprintf("A moderator ended the match (%[1]s).", note)
	}
}

// noHeadline announces an event the status line says all of (a resignation,
// a draw, a loss on time).
func noHeadline(narrator, *game.View) string { return "" }

// afterChange is the one path after every change of a match, whatever made
// it: a move, a set-up, the start, every ending at any ply (a capture,
// resignation, draw, time, a moderator's cancel or award, the bot removed
// from the server), an action on the clock, or a note the bot keeps (its
// thread, its message). The change has recorded what it owes both players
// and the channel in the outbox, in its own transaction. afterChange keeps
// the match as the change left it, for the outbox to compose those notices
// from (snapshot.go); the loops learn the new deadline and the notices; a
// match that has just begun stops the clock of a player on vacation; and
// the computer answers when it is to move. g is the match's game after the
// change, nil when the change did not replay it; known are settings the
// change read already (the mover's).
func (b *Bot) afterChange(ctx context.Context, m *storage.Match, g *game.Game, known ...*storage.PlayerSettings) {
	// Kept with the clock starts the cache knows of: its board may have
	// arrived while the change was being stored.
	snap := b.snapshots.put(newSnapshot(m, g, known...))
	b.webChanged(snap)
	b.nudgeTimers()
	b.tournamentGameOver(ctx, m)
	b.carryVacations(ctx, snap)
	b.vacationsOverWith(ctx, m)
	if !b.computerToMove(m) {
		return
	}
	g, err := snap.gameAt(len(m.Log), b.countReplay)
	if err != nil {
		b.log.Error("rebuilding a practice game failed", "match", m.ID, "error", err)
		return
	}
	b.letComputerMove(ctx, m, g)
}

// boardMessage is what a viewer is told after an event: the match, the
// event's headline, where the game stands, and the viewer's own picture; a
// player gets the move menus when it is the match's current state (current).
// numbering is the viewer's; deadline is the side to move's deadline to
// show (zero: none).
func (b *Bot) boardMessage(p lang.Printer, m *storage.Match, g *game.Game, viewer game.Viewer, numbering game.Numbering, what headline, deadline time.Time, current bool) *discordgo.MessageSend {
	side, isPlayer := viewer.IsPlayer()
	v := g.View(viewer)
	n := narrator{viewer: viewer, names: b.names(p, m), numbering: numbering, p: p}
	msg := &discordgo.MessageSend{
		Content:         joinLines(b.matchTitle(p, m), what(n, &v), statusLine(g, n, deadline, false), b.timeLines(p, m, g, viewer)),
		AllowedMentions: &discordgo.MessageAllowedMentions{},
	}
	var buf bytes.Buffer
	opts := b.pictureOptions(p, m, numbering)
	drawn := time.Now()
	err := b.pics.Board(&buf, v, opts)
	b.metrics.rendered(drawn)
	if err != nil {
		b.log.Error("drawing a board failed", "match", m.ID, "viewer", viewer, "error", err)
	} else {
		msg.Files = []*discordgo.File{pngFile("board.png", buf.Bytes(), boardAlt(v, opts))}
	}
	if isPlayer && current {
		msg.Components = pickerComponents(p, m, g, side, numbering, game.NoSquare)
	}
	return msg
}

// clockLine shows each side's time left on a game clock now (clocksLeft);
// "" without a clock or once the game is over.
func (b *Bot) clockLine(p lang.Printer, m *storage.Match, g *game.Game) string {
	if !m.Clock.On() || g.Result().Over() {
		return ""
	}
	left := b.clocksLeft(m)
	return p.Sprintf("Clocks: %[1]s %[2]s · %[3]s %[4]s (%[5]s)", b.playerName(p, m, game.Red), clockTime(left[game.Red]),
		b.playerName(p, m, game.Blue), clockTime(left[game.Blue]), m.Clock.String())
}

// clocksLeft is each side's time left on m's game clock now: the side to
// move's, while its clock runs, is what its deadline leaves it (a gift of
// time or time given back since its turn began included), to the second
// above as the web board counts it down; the other side's, and one whose
// board is still on its way, as stored.
func (b *Bot) clocksLeft(m *storage.Match) [2]time.Duration {
	left := m.Left
	if m.Phase == storage.PhasePlaying && m.ClockRunning() {
		left[m.ToMove()] = max(0, m.Deadline.Sub(b.now())+time.Second-1).Truncate(time.Second)
	}
	return left
}

// timeLines are what a board says of the match's time besides the
// deadline: the clocks, gifts of time, a pause, vacations, as viewer reads them.
func (b *Bot) timeLines(p lang.Printer, m *storage.Match, g *game.Game, viewer game.Viewer) string {
	return joinLines(b.clockLine(p, m, g), b.giftLine(p, m, g), pausedLine(p, m), b.vacationLines(p, m, viewer))
}

// giftLine says how often each player gave the other more time, once one
// has: the board shows it as it shows the clocks.
func (b *Bot) giftLine(p lang.Printer, m *storage.Match, g *game.Game) string {
	red, blue := m.GiftsBy(game.Red), m.GiftsBy(game.Blue)
	if red+blue == 0 || g.Result().Over() {
		return ""
	}
	return p.Sprintf(txtGiftsLeft, b.playerName(p, m, game.Red), red, b.playerName(p, m, game.Blue), blue, giftText(p, m))
}

// clockTime writes time left as m:ss, or h:mm:ss.
func clockTime(d time.Duration) string {
	s := int(d / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
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
func (b *Bot) matchTitle(p lang.Printer, m *storage.Match) string {
	return p.Sprintf("**Match #%[1]s** · %[2]s (%[3]s) vs %[4]s (%[5]s)", m.ID.String(), b.playerName(p, m, game.Red), render.SideName(p, game.Red),
		b.playerName(p, m, game.Blue), render.SideName(p, game.Blue))
}

// deadlineToShow is the deadline of the side to move as a board shows it:
// the one that holds, or, while the clock waits for the board that tells the
// side to move, the one it gets if that board arrives now. Zero once the
// game is over.
func deadlineToShow(m *storage.Match, g *game.Game, now time.Time) time.Time {
	if g.Result().Over() || m.Phase != storage.PhasePlaying {
		return time.Time{}
	}
	return m.DeadlineToShow(now)
}

// txtYourMoveHere is the turn's line of a board shown privately in a
// server channel (/stratego board there): an answer only its reader sees
// cannot be replied to, so it names what plays from it.
const txtYourMoveHere = "Move %[1]d: **your move**%[2]s. Choose it in the menu below, or use `/stratego move`.%[3]s"

// statusLine says whose turn it is and until when, or how the game ended.
// inChannel is a board shown privately in a server channel, which its
// reader cannot reply to with a move as to a board DM.
func statusLine(g *game.Game, n narrator, deadline time.Time, inChannel bool) string {
	if r := g.Result(); r.Over() {
		return "**" + n.describeResult(r) + "**"
	}
	mover := g.ToMove()
	due := ""
	if !deadline.IsZero() {
		due = n.p.Sprintf(" (deadline <t:%[1]s:R>)", unix(deadline))
	}
	// A draw offer standing: how to answer it is said to the one who can;
	// the channel and spectators, who cannot, read that it stands.
	offer := ""
	if by, ok := g.DrawOffer(); ok {
		switch {
		case n.isViewer(by):
			offer = n.p.Sprintf(" You offered a draw.")
		case n.isViewer(by.Opponent()):
			offer = n.p.Sprintf(" %[1]s offered a draw: `/stratego draw action:accept` or `decline`.", n.names[by])
		default:
			offer = n.p.Sprintf(" %[1]s offered a draw.", n.names[by])
		}
	}
	if n.isViewer(mover) && inChannel {
		return n.p.Sprintf(txtYourMoveHere, g.Ply()+1, due, offer)
	}
	if n.isViewer(mover) {
		return n.p.Sprintf("Move %[1]d: **your move**%[2]s. Reply with a move like `%[4]s`, use `/stratego move`, or the menu below.%[3]s", g.Ply()+1, due, offer, exampleMove(mover))
	}
	return n.p.Sprintf("Move %[1]d: %[2]s to move%[3]s.%[4]s", g.Ply()+1, n.names[mover], due, offer)
}

// exampleMove is the example of how a move reads on the board of side's
// turn: a step forward from that side's front row (`B4-B5` misleads Blue,
// whose pieces stand on rows 7 to 10).
func exampleMove(side game.Side) string {
	if side == game.Blue {
		return "B7-B6"
	}
	return "B4-B5"
}

// finaleMessage shows everyone the whole truth once the game is over: the
// final reveal and the replay of the game, for the channel.
func (b *Bot) finaleMessage(p lang.Printer, m *storage.Match, g *game.Game) *discordgo.MessageSend {
	o := render.Options{Names: b.plainNames(p, m), Lang: p}
	reveal, ok := g.Reveal()
	if !ok {
		return nil
	}
	var files []*discordgo.File
	var pic bytes.Buffer
	if err := b.pics.Reveal(&pic, reveal, o); err == nil {
		files = append(files, pngFile("final.png", pic.Bytes(), boardAlt(reveal, o)))
	} else {
		b.log.Error("drawing the final reveal failed", "match", m.ID, "error", err)
	}
	var gif bytes.Buffer
	if err := b.pics.Replay(&gif, g, render.ReplayOptions{Options: o}); err == nil && gif.Len() < maxReplayGIF {
		files = append(files, &discordgo.File{Name: "replay.gif", ContentType: "image/gif", Reader: describedReader{bytes.NewReader(gif.Bytes()),
			p.Sprintf("An animation of the whole game, %[1]d moves, every piece shown; `/stratego history` lists the moves as text.", g.Ply())}})
	} else if err != nil {
		b.log.Error("drawing the replay failed", "match", m.ID, "error", err)
	}
	msg := &discordgo.MessageSend{
		Content:         b.matchTitle(p, m) + "\n" + p.Sprintf("The final position with every piece shown, and the whole game."),
		Files:           files,
		AllowedMentions: &discordgo.MessageAllowedMentions{},
	}
	if !m.Practice() && m.GuildID != "" {
		msg.Components = rematchButton(p, m)
	}
	return msg
}

// pictureOptions are the options of a board picture of m: the players'
// names, the viewer's numbering, the match's picture secret and, on a game
// clock, both clocks as they stand now (clocksLeft).
func (b *Bot) pictureOptions(p lang.Printer, m *storage.Match, n game.Numbering) render.Options {
	o := render.Options{Names: b.plainNames(p, m), Numbering: n, Lang: p, Secret: pictureSecret(m)}
	if m.Clock.On() {
		left := b.clocksLeft(m)
		o.Clocks = [2]string{clockTime(left[game.Red]), clockTime(left[game.Blue])}
		o.LowClocks = [2]bool{lowOnTime(m.Clock, left[game.Red]), lowOnTime(m.Clock, left[game.Blue])}
	}
	return o
}

// lowOnTime reports whether a clock of tc with left on it is low enough for
// the pictures to warn of it. Lichess turns a clock red below an eighth of
// its base time, kept between 10 s and 60 s; here the bounds are 30 s and 2
// minutes, because a move on Discord takes longer than a click (a message or
// two menus, and the bot's answer) and the picture is seen once a turn.
func lowOnTime(tc storage.TimeControl, left time.Duration) bool {
	return left < min(max(tc.Base/8, 30*time.Second), 2*time.Minute)
}

// pictureSecret keys the rows of m's pictures that show a player's own
// hidden ranks (render.Options.Secret): the renderer reuses them only in m's
// own pictures, so that no picture drawn for another match or a guessed
// set-up can tell whether it matched them.
func pictureSecret(m *storage.Match) uint64 { return m.Secret.Seed(seedPictures) }

// names are both players' names for a message's content (playerName).
func (b *Bot) names(p lang.Printer, m *storage.Match) [2]string {
	return [2]string{b.playerName(p, m, game.Red), b.playerName(p, m, game.Blue)}
}

// plainNames are both players' names as written (plainName), for a picture,
// its alt text or the text board (render writes them by package nametext's rule).
func (b *Bot) plainNames(p lang.Printer, m *storage.Match) [2]string {
	return [2]string{b.plainName(p, m, game.Red), b.plainName(p, m, game.Blue)}
}

// computerName is the name a practice match stores for the computer.
func computerName(l ai.Level) string { return fmt.Sprintf("Computer (%s)", l) }

// playerName is a player's name for a message's content, which reads
// markdown: plainName, escaped (mdEscape).
func (b *Bot) playerName(p lang.Printer, m *storage.Match, side game.Side) string {
	return mdEscape(b.plainName(p, m, side))
}

// plainName is a player's name as p's reader sees it: the computer's in
// their language, anyone else's as they chose it, on one line
// (nametext.Plain). Whose seat is the computer's is isComputer's one rule
// (the bot's own user sits there), not the name: a member may call
// themselves "Computer (hard)". It is for what shows text as it is (a
// picture, an alt text, a menu); a message's content takes playerName.
func (b *Bot) plainName(p lang.Printer, m *storage.Match, side game.Side) string {
	if b.isComputer(m, side) {
		return p.Sprintf("Computer (%[1]s)", levelName(p, computerLevel(m)))
	}
	return nametext.Plain(m.Players[side].Name)
}
