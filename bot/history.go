package bot

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/web"
)

// onHistory lists the moves of a match as the member knows them: every move
// is public, with the ranks its battles revealed.
func (b *Bot) onHistory(ctx context.Context, i *discordgo.Interaction, opts options) {
	m, side, err := b.matchMeant(ctx, userOf(i).ID, lookup{named: opts.str(optMatch), fits: playing, orFinished: true})
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "history"))
		return
	}
	n := b.settingsOf(ctx, userOf(i).ID).Numbering
	nar := narrator{viewer: game.ViewerOf(side), names: b.names(printerOf(i), m), numbering: n, p: printerOf(i)}
	if m.Phase == storage.PhaseAbandoned && !started(m) {
		// Called off in its set-up: no move was made, and no set-up can
		// start it any more (its game, not started, is no refusal to word).
		b.tell(i, b.historyText(m, &game.View{}, nar))
		return
	}
	g, err := m.Game()
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "history"))
		return
	}
	v := g.View(game.ViewerOf(side))
	text := b.historyText(m, &v, nar)
	link := b.replayLink(ctx, i, m, side)
	if len(text) <= 1900 {
		b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
			Content: text, Flags: discordgo.MessageFlagsEphemeral, Components: link,
		})
		return
	}
	b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
		Content:    b.matchTitle(printerOf(i), m) + "\n" + printerOf(i).Sprintf("%[1]d moves: the list is attached.", v.Ply()),
		Flags:      discordgo.MessageFlagsEphemeral,
		Files:      []*discordgo.File{{Name: fmt.Sprintf("match-%d-moves.txt", m.ID), ContentType: "text/plain", Reader: strings.NewReader(mdUnescape(plainTimes(text)))}},
		Components: link,
	})
}

// discordTime is Discord's timestamp markup, <t:UNIX:STYLE>.
var discordTime = regexp.MustCompile(`<t:(-?\d+)(?::[tTdDfFR])?>`)

// plainTimes writes the times of text's timestamp markup out in UTC: a file
// is shown as it is, and "<t:1772366400:f>" says nothing to its reader.
func plainTimes(text string) string {
	return discordTime.ReplaceAllStringFunc(text, func(mark string) string {
		sec, err := strconv.ParseInt(discordTime.FindStringSubmatch(mark)[1], 10, 64)
		if err != nil {
			return mark
		}
		return time.Unix(sec, 0).UTC().Format("2006-01-02 15:04 UTC")
	})
}

// The history's notes of time, under the move they followed.
const (
	txtHistoryGift    = "%[1]s gave %[2]s %[3]s more."
	txtHistoryBack    = "%[1]s came back from vacation."
	txtHistoryBackBy  = "%[1]s came back from vacation early, <t:%[2]s:f>."
	txtHistoryResumed = "The pause ended."
	// A draw offered, and declined or taken back: one accepted ends the
	// game, which the result says.
	txtHistoryDrawOffer     = "%[1]s offered a draw."
	txtHistoryDrawDeclined  = "%[1]s declined the draw."
	txtHistoryDrawWithdrawn = "%[1]s took back the draw offer."
)

// timeNotes writes the log's gifts of time, vacations, pauses and draw
// offers, by the number of moves made before each: they are the match's, or
// leave no trace in the game's history, which holds its moves alone.
func timeNotes(m *storage.Match, nar narrator) map[int][]string {
	p := nar.p
	out := map[int][]string{}
	moves := 0
	var away [2]time.Time // each side's vacation under way: when it was to end
	offeredBy := game.Red // who made the latest draw offer
	back := func(side game.Side, at time.Time) string {
		until := away[side]
		away[side] = time.Time{}
		if at.Before(until) {
			// Early: when matters, as the days not taken came back.
			return p.Sprintf(txtHistoryBackBy, nar.names[side], unix(at))
		}
		return p.Sprintf(txtHistoryBack, nar.names[side])
	}
	for _, a := range m.Log {
		switch a.Kind {
		case storage.ActMove:
			// A move of a player on vacation ends it (or one that ran out
			// before its end was logged): the log holds no end of it in
			// this match (Match.VacationUntil).
			if !away[a.Side].IsZero() {
				out[moves] = append(out[moves], back(a.Side, a.At))
			}
			moves++
		case storage.ActOfferDraw:
			offeredBy = a.Side
			out[moves] = append(out[moves], p.Sprintf(txtHistoryDrawOffer, nar.names[a.Side]))
		case storage.ActDeclineDraw:
			// An offer is declined by the one it was made to, or taken
			// back by the one who made it (the offer standing is the latest).
			format := txtHistoryDrawDeclined
			if a.Side == offeredBy {
				format = txtHistoryDrawWithdrawn
			}
			out[moves] = append(out[moves], p.Sprintf(format, nar.names[a.Side]))
		case storage.ActGiveTime:
			out[moves] = append(out[moves], p.Sprintf(txtHistoryGift, nar.names[a.Side], nar.names[a.Side.Opponent()], giftText(p, m)))
		case storage.ActVacation:
			away[a.Side] = a.Until()
			out[moves] = append(out[moves], p.Sprintf(txtHistoryVacation, nar.names[a.Side], p.Sprintf(txtDays, a.Days)))
		case storage.ActVacationEnd:
			out[moves] = append(out[moves], back(a.Side, a.At))
		case storage.ActAcceptPause:
			out[moves] = append(out[moves], p.Sprintf(txtHistoryPause, nar.names[a.Side.Opponent()], nar.names[a.Side], p.Sprintf(txtDays, a.Days)))
		case storage.ActResume:
			out[moves] = append(out[moves], p.Sprintf(txtHistoryResumed))
		case storage.ActAway:
			note := p.Sprintf(txtHistoryAway, unix(a.AwayFrom()), unix(a.At), nar.names[a.Side])
			if moves == 0 && (m.Started.IsZero() || a.At.Before(m.Started)) {
				note = p.Sprintf(txtHistoryAwaySetup, unix(a.AwayFrom()), unix(a.At))
			}
			out[moves] = append(out[moves], note)
		}
	}
	return out
}

// txtHistoryCaptures is a Flag's capture in the history: "Scout (2)
// captures the Flag", as the pictures and the DMs word it.
const txtHistoryCaptures = " %[1]s captures the Flag"

// historyText writes one line per move: "12. Blue E7xE6 Captain (6) beats Lieutenant (5)".
func (b *Bot) historyText(m *storage.Match, v *game.View, nar narrator) string {
	n, p := nar.numbering, nar.p
	var sb strings.Builder
	sb.WriteString(b.matchTitle(p, m) + "\n")
	switch {
	case len(v.History) > 0:
	case m.Phase.Active():
		sb.WriteString(p.Sprintf("No moves yet.") + "\n")
	default:
		sb.WriteString(p.Sprintf("No move was made.") + "\n")
	}
	notes := timeNotes(m, nar)
	writeNotes := func(moves int) {
		for _, note := range notes[moves] {
			sb.WriteString("   " + note + "\n")
		}
	}
	writeNotes(0)
	for k, rec := range v.History {
		fmt.Fprintf(&sb, "%d. %s %s", k+1, render.SideName(p, rec.Side), rec.Notation(n))
		a, d := nar.piece(rec.Attacker), nar.piece(rec.Defender)
		switch rec.Outcome {
		case game.AttackerWon:
			if rec.Defender == game.Flag {
				// As the board's caption and the DMs say it.
				sb.WriteString(p.Sprintf(txtHistoryCaptures, a))
				break
			}
			sb.WriteString(p.Sprintf(" %[1]s beats %[2]s", a, d))
		case game.DefenderWon:
			sb.WriteString(p.Sprintf(" %[1]s loses to %[2]s", a, d))
		case game.BothRemoved:
			sb.WriteString(p.Sprintf(" %[1]s and %[2]s both removed", a, d))
		case game.GuessedRight:
			sb.WriteString(p.Sprintf(" right guess"))
		case game.GuessedWrong:
			sb.WriteString(p.Sprintf(" wrong guess"))
		}
		sb.WriteByte('\n')
		writeNotes(k + 1)
	}
	sb.WriteString(nar.describeEnd(m, v.Result))
	if m.Phase == storage.PhaseAbandoned {
		// No result to word: why it ended, as its players and the
		// channel were told (a moderator's call-off, its tournament's).
		sb.WriteString(web.CalledOffText(p, m))
	}
	return strings.TrimSpace(sb.String())
}
