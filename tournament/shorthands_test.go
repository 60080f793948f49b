package tournament

// The tests' shorthands for the package's functions.

// coloursAllowed reports whether a player with this history may take colour c
// next: never a third game in a row with one colour, never a colour
// difference beyond ±2.
func coloursAllowed(played []Colour, c Colour) bool {
	p := PreferenceOf(played)
	return p.Strength != Absolute || p.Colour == c
}

// bergerSchedule returns every round of the round robin of n players (see
// BergerRound).
func bergerSchedule(n int, double bool) [][]Board {
	out := make([][]Board, RoundRobinRounds(n, double))
	for r := range out {
		out[r] = BergerRound(n, double, r)
	}
	return out
}

// roundRobinSchedule returns the whole schedule for the players given in seed
// order, as pairings by ID; round r of it is RoundRobinRound(ids, double, r).
func roundRobinSchedule(ids []string, double bool) [][]Pairing {
	out := make([][]Pairing, RoundRobinRounds(len(ids), double))
	for r := range out {
		out[r] = RoundRobinRound(ids, double, r)
	}
	return out
}

// pairSwiss pairs the next round of a Swiss event, with no round after it to
// look ahead to and not the event's final round: PairSwissRound(players,
// SwissRound{}).
func pairSwiss(players []SwissPlayer) ([]Pairing, error) {
	return PairSwissRound(players, SwissRound{})
}
