package tournament

import "sort"

// Standing is a player's line in the standings.
type Standing struct {
	Rank   int // place from 1; every player has their own
	Player string
	Seed   int
	Points Points
	// SonnebornBerger sums, over the rounds, the opponent's score times the
	// points the player scored against them, in Points×Points: with the
	// default points (a win is 2) divide by 4 for the chess figure.
	SonnebornBerger int
	// Buchholz sums the opponents' scores. It breaks ties in Swiss events only.
	Buchholz Points
	// Played counts the games played on the board; Won, Drawn and Lost those
	// finished there (an adjudicated game is in Played only).
	Played, Won, Drawn, Lost int
	Withdrawn                bool
}

// Standings ranks the players: by points, then Sonneborn-Berger, then (in a
// Swiss event) Buchholz, then seed; before the first round, with no seeds
// yet, in the order they joined. Withdrawn players keep their line.
//
// Opponents' scores are their scores now, whoever they are: a withdrawn
// player counts with the points they have (their unplayed games were scored
// as forfeits). In a Swiss event a round the player did not play on the
// board — a bye, a forfeit won or lost, a double forfeit, a game not begun
// — counts for both tie-breaks as a game against a virtual opponent whose
// score is the player's own: the simple form of FIDE's rule for unplayed
// games, not the 2009 "virtual opponent" formula. In a round robin, where
// every pair is scheduled, an unplayed game counts against the real
// opponent and their score, as FIDE's Sonneborn-Berger for round robins
// does (a forfeit win over a withdrawn player weighs what that player
// scored); a bye there counts as a game against a virtual opponent, which
// with the default rules (a round-robin bye scores nothing) adds nothing.
// Rounds after a player withdrew, in which they were not paired, count for
// nothing. A pending game counts as nothing yet.
func (t *Tournament) Standings() []Standing {
	points := t.points()
	roundRobin := t.rules.Format == RoundRobin
	out := make([]Standing, 0, len(t.players))
	for _, p := range t.players {
		s := Standing{Player: p.ID, Seed: p.Seed, Points: points[p.ID], Withdrawn: p.Withdrawn}
		own := points[p.ID]
		for _, r := range t.rounds {
			for _, g := range r.Games {
				c, ok := g.ColourOf(p.ID)
				if !ok || !g.Result.Done() {
					continue
				}
				red, blue := g.Result.Points(t.rules)
				mine := red
				if c == Blue {
					mine = blue
				}
				opp := own
				if g.Result.Played() || roundRobin && !g.IsBye() {
					opp = points[g.Opponent(p.ID)]
				}
				if g.Result.Played() {
					s.Played++
					switch {
					case g.Result == Drawn:
						s.Drawn++
					case g.Result == RedWon && c == Red, g.Result == BlueWon && c == Blue:
						s.Won++
					case g.Result != Adjudicated:
						s.Lost++
					}
				}
				s.Buchholz += opp
				s.SonnebornBerger += int(opp) * int(mine)
			}
		}
		out = append(out, s)
	}
	swiss := t.rules.Format == Swiss
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		switch {
		case a.Points != b.Points:
			return a.Points > b.Points
		case a.SonnebornBerger != b.SonnebornBerger:
			return a.SonnebornBerger > b.SonnebornBerger
		case swiss && a.Buchholz != b.Buchholz:
			return a.Buchholz > b.Buchholz
		}
		// Once begun every player has a seed of their own; before, none
		// has one, and the players stay as they joined.
		return a.Seed < b.Seed
	})
	for i := range out {
		out[i].Rank = i + 1
	}
	return out
}
