package bot

import (
	"context"
	"errors"
	"strings"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/tournament"
)

// pairingMention writes a pairing with its players mentioned.
func pairingMention(p lang.Printer, g tournament.Pairing) string {
	if g.IsBye() {
		return p.Sprintf("<@%[1]s> has a bye.", g.Red)
	}
	if g.Result.Done() {
		return p.Sprintf("<@%[1]s> (Red) – <@%[2]s> (Blue): %[3]s", g.Red, g.Blue, resultText(p, g.Result))
	}
	return p.Sprintf("<@%[1]s> (Red) – <@%[2]s> (Blue)", g.Red, g.Blue)
}

// pairingText writes a pairing with its players' names and result.
func pairingText(p lang.Printer, t *storage.Tournament, g tournament.Pairing) string {
	if g.IsBye() {
		return p.Sprintf("%[1]s has a bye.", mdEscape(playerLabel(t, g.Red)))
	}
	return p.Sprintf("%[1]s (Red) – %[2]s (Blue): %[3]s", mdEscape(playerLabel(t, g.Red)), mdEscape(playerLabel(t, g.Blue)), resultText(p, g.Result))
}

// resultText words a tournament result: only what the channel's boards show.
func resultText(p lang.Printer, r tournament.Result) string {
	switch r {
	case tournament.RedWon:
		return p.Sprintf("Red won")
	case tournament.BlueWon:
		return p.Sprintf("Blue won")
	case tournament.Drawn:
		return p.Sprintf("draw")
	case tournament.RedForfeited:
		return p.Sprintf("Blue wins by forfeit")
	case tournament.BlueForfeited:
		return p.Sprintf("Red wins by forfeit")
	case tournament.DoubleForfeit:
		return p.Sprintf("double forfeit")
	case tournament.Adjudicated:
		return p.Sprintf("unfinished at the deadline")
	case tournament.ByeResult:
		return p.Sprintf("bye")
	case tournament.NotBegun:
		return p.Sprintf("not begun by the deadline")
	}
	return p.Sprintf("still being played")
}

// adjudicationText words Rules.Unfinished.
func adjudicationText(p lang.Printer, a tournament.Adjudication) string {
	if a == tournament.ScoredAsDraw {
		return p.Sprintf("a draw")
	}
	return p.Sprintf("a loss for both")
}

// playerLabel is a player's name as they joined.
func playerLabel(t *storage.Tournament, id string) string {
	if name := t.Names[id]; name != "" {
		return name
	}
	return id
}

// The line that names a tournament game: its tournament and its round, or,
// in a round robin whose rounds are played at once, its game among all.
const (
	txtTourneyGameRound = "%[1]s, round %[2]d of %[3]d"
	txtTourneyGameOf    = "%[1]s, game %[2]d of %[3]d"
)

// tournamentLabel names the tournament game m is, for a player with several
// games to tell them apart: "Weekly League, round 2 of 5"; "" for any other
// match, and when the tournament cannot be read (logged). tournaments
// memoises the tournaments read, by id (nil: none). Like the pairings the
// channel is told, it says nothing of results.
func (b *Bot) tournamentLabel(ctx context.Context, p lang.Printer, m *storage.Match, tournaments map[storage.TournamentID]*storage.Tournament) string {
	id := m.Tournament
	if id == 0 {
		// Made before matches kept their tournament: the index knows.
		link, ok := b.tournamentGameOf(ctx, m)
		if !ok {
			return ""
		}
		id = link.Tournament
	}
	t := tournaments[id]
	if t == nil {
		var err error
		if t, err = b.store.Tournament(ctx, id); err != nil {
			b.log.Warn("reading a match's tournament failed; the match is shown without it", "match", m.ID, "tournament", id, "error", err)
			return ""
		}
		if tournaments != nil {
			tournaments[id] = t
		}
	}
	return b.labelIn(p, t, m)
}

// labelIn names the game of t that m is (tournamentLabel), "" when it is
// none of t's boards.
func (b *Bot) labelIn(p lang.Printer, t *storage.Tournament, m *storage.Match) string {
	state, err := t.State()
	if err != nil {
		b.log.Warn("replaying a match's tournament failed; the match is shown without it", "match", m.ID, "tournament", t.ID, "error", err)
		return ""
	}
	round, board, ok := boardOf(t, state, m)
	if !ok {
		return ""
	}
	return gameLabel(p, t, state, round, board)
}

// startingGame reads, for a notice that starts match m (its set-up invite,
// its first board), the tournament m is a game of, as it stands now
// (currentTournament: kept, alone on the database, read sharing it): the
// game's label, and over when the tournament is over or cancelled. Then
// none of its games starts, and the notice is moot: the process that made m
// may not have called it off yet (a cancel stored by another process while
// it started the round: tournamentstart.go), and a cancel calls off only
// the matches linked to their boards, after it is stored. label is "" for
// any other match. An error is the database not answering: the notice is
// tried again rather than sent unchecked.
func (b *Bot) startingGame(ctx context.Context, p lang.Printer, m *storage.Match) (label string, over bool, err error) {
	id := m.Tournament
	if id == 0 {
		// Made before matches kept their tournament: the index knows.
		link, ok := b.tournamentGameOf(ctx, m)
		if !ok {
			return "", false, nil
		}
		id = link.Tournament
	}
	t, err := b.currentTournament(ctx, id)
	switch {
	case errors.Is(err, storage.ErrNotFound) || errors.Is(err, storage.ErrCorrupt) || errors.Is(err, storage.ErrNewerSchema):
		b.log.Warn("reading a match's tournament failed; the match is shown without it", "match", m.ID, "tournament", id, "error", err)
		return "", false, nil
	case err != nil:
		return "", false, unread(err)
	case t.Done:
		return "", true, nil
	}
	return b.labelIn(p, t, m), false, nil
}

// boardOf finds the board m plays in t: by its link, or, for a match whose
// invites may go out before it is linked (tournamentstart.go), by its
// players, who meet at most once with these colours.
func boardOf(t *storage.Tournament, state *tournament.Tournament, m *storage.Match) (round, board int, ok bool) {
	for _, g := range t.Games {
		if g.Match == m.ID {
			return g.Round, g.Board, true
		}
	}
	at, ok := pairedBoard(state, m)
	return at.round, at.board, ok
}

// pairedBoard finds the board of state's pairings whose players m has, with
// the same colours: a pair meets with the same colours once only.
func pairedBoard(state *tournament.Tournament, m *storage.Match) (boardRef, bool) {
	red, blue := m.Players[game.Red].UserID, m.Players[game.Blue].UserID
	for _, r := range state.Rounds() {
		for k, g := range r.Games {
			if !g.IsBye() && g.Red == red && g.Blue == blue {
				return boardRef{r.Number, k + 1}, true
			}
		}
	}
	return boardRef{}, false
}

// gameLabel words where board board of round round of t's state is played.
func gameLabel(p lang.Printer, t *storage.Tournament, state *tournament.Tournament, round, board int) string {
	if !t.Rules.AllAtOnce {
		return p.Sprintf(txtTourneyGameRound, mdEscape(t.Name), round, state.TotalRounds())
	}
	// Every round at once: its games are numbered in the order the
	// channel lists them, byes left out.
	number, total := 0, 0
	for _, r := range state.Rounds() {
		for k, g := range r.Games {
			if g.IsBye() {
				continue
			}
			total++
			if r.Number == round && k+1 == board {
				number = total
			}
		}
	}
	return p.Sprintf(txtTourneyGameOf, mdEscape(t.Name), number, total)
}

// withLabel puts label under the first line (the match's title) of content.
func withLabel(content, label string) string {
	title, rest, _ := strings.Cut(content, "\n")
	return joinLines(title, label, rest)
}
