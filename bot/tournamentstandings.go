package bot

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/internal/lang"
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
	head := p.Sprintf("**%[1]s** — %[2]s", t.Name, statusText(p, t))
	files := b.standingsPicture(table)
	b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
		Content: truncate(head+"\n"+text, maxMessage), Files: files, Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: &discordgo.MessageAllowedMentions{},
	})
}

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
	all, err := b.store.ServerTournaments(ctx, i.GuildID, true)
	if err != nil {
		b.tell(i, b.explain(p, err, "tournament"))
		return
	}
	if len(all) == 0 {
		b.say(i, "This server has no tournaments yet. A moderator can start one with `/stratego tournament create`.")
		return
	}
	if len(all) > 15 {
		all = all[len(all)-15:] // the latest
	}
	lines := []string{p.Sprintf("Tournaments of this server:")}
	for _, t := range all {
		lines = append(lines, fmt.Sprintf("#%s **%s** — %s; %s", t.ID, t.Name, formatText(p, t.Rules), statusText(p, t)))
	}
	b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
		Content: truncate(strings.Join(lines, "\n"), maxMessage), Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: &discordgo.MessageAllowedMentions{},
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
	widths := make([]int, len(cols))
	for c := range cols {
		widths[c] = len([]rune(cols[c]))
		for _, row := range table.Rows {
			widths[c] = max(widths[c], min(len([]rune(codeSafe(row[c]))), 24))
		}
	}
	line := func(cells []string) {
		for c, cell := range cells {
			cell = codeSafe(cell)
			if r := []rune(cell); len(r) > 24 {
				cell = string(r[:23]) + "…"
			}
			pad := strings.Repeat(" ", widths[c]-len([]rune(cell)))
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
	for _, row := range table.Rows {
		line(row)
	}
	text.WriteString("```")
	return table, text.String(), nil
}

// codeSafe keeps a name from closing the code block it is shown in.
func codeSafe(s string) string { return strings.ReplaceAll(s, "`", "'") }

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
