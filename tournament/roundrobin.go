package tournament

import "sort"

// Board is a game of a schedule between two players given by their indices in
// the seed order; Blue is -1 when Red has the bye.
type Board struct {
	Red, Blue int
}

// RoundRobinRounds returns how many rounds a round robin of n players takes:
// n-1 when n is even, n when it is odd (each player sits out once), twice as
// many when double.
func RoundRobinRounds(n int, double bool) int {
	if n < 2 {
		return 0
	}
	r := n - 1
	if n%2 == 1 {
		r = n
	}
	if double {
		r *= 2
	}
	return r
}

// BergerRound returns round r (from 0) of the round robin of n players, made
// by the circle method of Berger tables: with m = n-1 (or m = n for odd n,
// where a phantom player n gives the bye) the last player stays put and meets
// player r, and players r+i and r-i (mod m) meet for i = 1 … m/2.
//
// Colours: in the pair (r+i, r-i), r+i has Red when i is odd and r-i when i
// is even; the fixed player has Red in even rounds. Each player's colour then
// alternates from round to round, apart from at most one repeat around the
// game with the fixed player, so that over one cycle every player has as many
// Reds as Blues, or one more of either. The second cycle of a double round
// robin plays the first cycle's rounds backwards with the colours swapped,
// so that no player has one colour three times in a row at the turn.
//
// Boards come in order of their better seed, the bye last.
func BergerRound(n int, double bool, r int) []Board {
	if n < 2 || r < 0 || r >= RoundRobinRounds(n, double) {
		return nil
	}
	m := n - 1
	if n%2 == 1 {
		m = n
	}
	swap := r >= m
	if swap {
		r = 2*m - 1 - r
	}
	fixed := m // index of the fixed player; == n (a phantom) when n is odd
	mod := func(x int) int { return ((x % m) + m) % m }
	var boards []Board
	add := func(red, blue int) {
		if swap {
			red, blue = blue, red
		}
		switch {
		case red >= n:
			boards = append(boards, Board{Red: blue, Blue: -1})
		case blue >= n:
			boards = append(boards, Board{Red: red, Blue: -1})
		default:
			boards = append(boards, Board{Red: red, Blue: blue})
		}
	}
	if r%2 == 0 {
		add(fixed, r)
	} else {
		add(r, fixed)
	}
	for i := 1; i <= (m-1)/2; i++ {
		a, b := mod(r+i), mod(r-i)
		if i%2 == 1 {
			add(a, b)
		} else {
			add(b, a)
		}
	}
	sort.SliceStable(boards, func(i, j int) bool {
		bi, bj := boards[i], boards[j]
		if bi.Blue < 0 || bj.Blue < 0 {
			return bj.Blue < 0 && bi.Blue >= 0
		}
		return min(bi.Red, bi.Blue) < min(bj.Red, bj.Blue)
	})
	return boards
}

// RoundRobinRound returns round r (from 0) of the round robin of the players
// given in seed order, as pairings by ID.
func RoundRobinRound(ids []string, double bool, r int) []Pairing {
	boards := BergerRound(len(ids), double, r)
	out := make([]Pairing, 0, len(boards))
	for _, b := range boards {
		p := Pairing{Red: ids[b.Red]}
		if b.Blue >= 0 {
			p.Blue = ids[b.Blue]
		}
		out = append(out, p)
	}
	return out
}
