package bot

import (
	"bytes"
	"context"
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/bwmarrin/discordgo"
	"golang.org/x/text/width"

	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/internal/nametext"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/tournament"
)

func (b *Bot) onTournamentStandings(ctx context.Context, i *discordgo.Interaction, t *storage.Tournament) {
	p := printerOf(i)
	table, text, err := standingsOf(p, t)
	if err != nil {
		b.tell(i, b.explain(p, err, "tournament"))
		return
	}
	head := p.Sprintf("**%[1]s** — %[2]s", mdEscape(t.Name), statusText(p, t))
	files := b.standingsPicture(table)
	b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
		Content: standingsReply(p, head, text), Files: files, Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: &discordgo.MessageAllowedMentions{},
	})
}

// standingsReply is the answer to /stratego tournament standings: head,
// then the standings' text table, a code block, which, too long for the
// message, lists the rows that fit and, in the block, how many more the
// picture has.
func standingsReply(p lang.Printer, head, table string) string {
	const fence = "\n```"
	headings, rows := tableRows(table)
	return fitList(maxMessage-chars(fence), head+"\n```\n"+headings, rows, len(rows), func(n int) string { return p.Sprintf(txtStandingsMore, n) }) + fence
}

// txtStandingsMore ends standings too long for the answer, in its code block.
const txtStandingsMore = "… and %[1]d more: the picture shows them all."

// statusText says where a tournament stands.
func statusText(p lang.Printer, t *storage.Tournament) string {
	s, err := t.State()
	if err != nil {
		return ""
	}
	switch {
	case s.Status() == tournament.CancelledStatus:
		return p.Sprintf("cancelled")
	case t.Done:
		return p.Sprintf("over") // finished, or ended early
	}
	switch s.Status() {
	case tournament.Registering:
		return p.Sprintf("players: %[1]d; round 1 starts <t:%[2]s:f>", len(s.Players()), unix(t.StartAt))
	case tournament.Running:
		if t.Rules.AllAtOnce {
			over, games := gamesOver(s)
			return p.Sprintf("every round under way, %[1]d of %[2]d games over, deadline <t:%[3]s:f>", over, games, unix(t.RoundDeadline))
		}
		return p.Sprintf("round %[1]d of %[2]d, deadline <t:%[3]s:f>", len(s.Rounds()), s.TotalRounds(), unix(t.RoundDeadline))
	}
	return p.Sprintf("over")
}

// playedRules are t's rules with the rounds a Swiss event plays: once
// begun, as many as its players allow, when fewer than its creator asked
// for (tournament.SwissRoundsAtMost), as its status and round 1's
// announcement say.
func playedRules(t *storage.Tournament) tournament.Rules {
	r := t.Rules
	if s, err := t.State(); err == nil && r.Format == tournament.Swiss && len(s.Rounds()) > 0 {
		r.Rounds = s.TotalRounds()
	}
	return r
}

// gamesOver counts the games (not byes) of the rounds paired, and those of
// them with a result.
func gamesOver(s *tournament.Tournament) (over, games int) {
	for _, r := range s.Rounds() {
		for _, g := range r.Games {
			if g.IsBye() {
				continue
			}
			games++
			if g.Result.Done() {
				over++
			}
		}
	}
	return over, games
}

func (b *Bot) onTournamentList(ctx context.Context, i *discordgo.Interaction) {
	p := printerOf(i)
	ask, cancel := context.WithTimeout(ctx, memberAskTimeout)
	defer cancel()
	all, _, _, err := b.knownTournaments(ctx, ask, i, true)
	if err != nil {
		b.tell(i, b.explain(p, err, "tournament"))
		return
	}
	if len(all) == 0 {
		b.say(i, "This server has no tournaments yet. A moderator can start one with `/stratego tournament create`.")
		return
	}
	// The latest first: the oldest are those left out.
	var lines []string
	for _, t := range slices.Backward(all) {
		lines = append(lines, fmt.Sprintf("#%s **%s** — %s; %s", t.ID, mdEscape(t.Name), formatText(p, playedRules(t)), statusText(p, t)))
		if len(lines) == maxListed {
			break
		}
	}
	b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
		Content: listText(p.Sprintf("Tournaments of this server:"), lines, len(all), func(n int) string { return p.Sprintf(txtTournamentsMore, n) }),
		Flags:   discordgo.MessageFlagsEphemeral, AllowedMentions: &discordgo.MessageAllowedMentions{},
	})
}

// standingsOf builds the standings: the table the picture draws and the
// same as text. They hold points, tie-breaks and games: results only.
func standingsOf(p lang.Printer, t *storage.Tournament) (render.Table, string, error) {
	s, err := t.State()
	if err != nil {
		return render.Table{}, "", err
	}
	swiss := t.Rules.Format == tournament.Swiss
	cols := []string{"#", p.Sprintf("Player"), p.Sprintf("Points"), "SB"}
	if swiss {
		cols = append(cols, "Buchholz")
	}
	cols = append(cols, p.Sprintf("W-D-L"))
	table := render.Table{Title: t.Name, Columns: cols}
	for _, st := range s.Standings() {
		name, note := playerLabel(t, st.Player), ""
		if st.Withdrawn {
			full := p.Sprintf("%[1]s (withdrew)", name)
			// The picture shortens a long name before this note, not the note.
			if rest, ok := strings.CutPrefix(full, name); ok {
				note = rest
			}
			name = full
		}
		table.Notes = append(table.Notes, note)
		row := []string{strconv.Itoa(st.Rank), name, st.Points.String(), tournament.FormatSonnebornBerger(st.SonnebornBerger)}
		if swiss {
			row = append(row, st.Buchholz.String())
		}
		row = append(row, fmt.Sprintf("%d-%d-%d", st.Won, st.Drawn, st.Lost))
		table.Rows = append(table.Rows, row)
	}
	var text strings.Builder
	text.WriteString("```\n")
	// The cells as shown: a long name cut to the column, before the note
	// of a player who withdrew, which stays whole, as in the picture.
	rows := make([][]string, len(table.Rows))
	for k, row := range table.Rows {
		rows[k] = make([]string, len(row))
		for c, cell := range row {
			rows[k][c] = fitCell(nametext.Code(cell), table.Notes[k], c == 1)
		}
	}
	widths := make([]int, len(cols))
	for c := range cols {
		widths[c] = monoWidth(cols[c])
		for _, row := range rows {
			widths[c] = max(widths[c], monoWidth(row[c]))
		}
	}
	line := func(cells []string) {
		for c, cell := range cells {
			pad := strings.Repeat(" ", max(0, widths[c]-monoWidth(cell)))
			if c >= 2 {
				text.WriteString(pad + cell)
			} else {
				text.WriteString(cell + pad)
			}
			if c < len(cells)-1 {
				text.WriteString("  ")
			}
		}
		text.WriteString("\n")
	}
	line(cols)
	for _, row := range rows {
		line(row)
	}
	text.WriteString("```")
	return table, text.String(), nil
}

// maxCellColumns is the most columns a cell of the text table takes.
const maxCellColumns = 24

// fitCell cuts a cell of the text table to maxCellColumns, marking the
// cut with "…"; a name (name true) whose row has a note keeps it whole,
// its name cut before it.
func fitCell(cell, note string, name bool) string {
	if monoWidth(cell) <= maxCellColumns {
		return cell
	}
	cut := func(s string, cols int) string {
		return strings.TrimRightFunc(fitColumns(s, cols), unicode.IsSpace) + "…"
	}
	if base, ok := strings.CutSuffix(cell, note); name && ok && note != "" && monoWidth(note) < maxCellColumns/2 {
		return cut(base, maxCellColumns-1-monoWidth(note)) + note
	}
	return cut(cell, maxCellColumns-1)
}

// monoWidth is how many columns s takes in a monospace font, as the text
// table lines up its names: two for a wide letter (Chinese, Japanese,
// Korean, full-width forms, most emoji), none for what joins the letter
// before it (a combining accent, a zero-width or format character, a skin
// tone, the parts of an emoji joined by U+200D), one for any other.
func monoWidth(s string) int {
	n := 0
	for _, w := range columns(s) {
		n += w
	}
	return n
}

// fitColumns is the longest start of s that takes at most cols columns
// (monoWidth), with what joins its last letter.
func fitColumns(s string, cols int) string {
	n := 0
	for k, w := range columns(s) {
		if n+w > cols {
			return s[:k]
		}
		n += w
	}
	return s
}

// columns yields the byte offset of each code point of s and the columns
// it takes there (monoWidth): runeColumns, none for an emoji joined to the
// one before.
func columns(s string) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		joined := false
		for k, r := range s {
			w := runeColumns(r)
			if joined {
				w = 0 // an emoji joined to the one before: one picture
			}
			joined = r == zeroWidthJoiner
			if !yield(k, w) {
				return
			}
		}
	}
}

const zeroWidthJoiner = '\u200d'

// runeColumns is the columns a code point takes by itself (monoWidth).
func runeColumns(r rune) int {
	switch {
	case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Cc), r >= 0x1F3FB && r <= 0x1F3FF: // marks, format and control characters, skin tones
		return 0
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}

// standingsPicture draws the table, with its alt text; none when it cannot.
func (b *Bot) standingsPicture(table render.Table) []*discordgo.File {
	if b.pics == nil || len(table.Rows) == 0 {
		return nil
	}
	var buf bytes.Buffer
	if err := b.pics.Standings(&buf, table); err != nil {
		b.log.Warn("drawing the standings failed", "error", err)
		return nil
	}
	return []*discordgo.File{pngFile("standings.png", buf.Bytes(), render.TableAlt(table))}
}
