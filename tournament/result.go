package tournament

import "fmt"

// Colour is the side a player has in a game: Red moves first.
type Colour uint8

// The colours.
const (
	Red Colour = iota
	Blue
)

// String returns "Red" or "Blue".
func (c Colour) String() string {
	if c == Red {
		return "Red"
	}
	return "Blue"
}

// Other returns the opposite colour.
func (c Colour) Other() Colour { return 1 - c }

// Result is how a pairing ended.
type Result uint8

// The results.
const (
	// Pending: the game has not ended yet.
	Pending Result = iota
	RedWon
	BlueWon
	Drawn
	// RedForfeited: Red did not play (or withdrew); Blue wins by forfeit.
	RedForfeited
	// BlueForfeited: Blue did not play (or withdrew); Red wins by forfeit.
	BlueForfeited
	// DoubleForfeit: neither played; both score a forfeit loss.
	DoubleForfeit
	// Adjudicated: the game was unfinished when its round closed and is scored
	// as Rules.Unfinished says.
	Adjudicated
	// ByeResult: the pairing is a bye; the player scores Rules.Bye.
	ByeResult
	// NotBegun: the round closed before either side's set-up was in. It is
	// scored as Rules.Unfinished says, like Adjudicated, but the game was
	// never played: it counts for no colour, and for the tie-breaks as an
	// unplayed round.
	NotBegun
)

var resultNames = [...]string{"pending", "Red won", "Blue won", "draw", "Red forfeited", "Blue forfeited", "double forfeit", "adjudicated unfinished", "bye", "not begun by the deadline"}

// String describes the result, such as "Red won".
func (r Result) String() string {
	if int(r) < len(resultNames) {
		return resultNames[r]
	}
	return fmt.Sprintf("Result(%d)", uint8(r))
}

// Valid reports whether r is one of the results above.
func (r Result) Valid() bool { return r <= NotBegun }

// Done reports whether the pairing has a final result.
func (r Result) Done() bool { return r != Pending && r.Valid() }

// Played reports whether the game took place on the board: won, drawn, or
// adjudicated after the round closed on it. Only played games count for
// colours and for Sonneborn-Berger against a real opponent.
func (r Result) Played() bool {
	return r == RedWon || r == BlueWon || r == Drawn || r == Adjudicated
}

// Rated reports whether the game should change ratings: only games played
// to a finish do.
func (r Result) Rated() bool { return r == RedWon || r == BlueWon || r == Drawn }

// Points returns what Red and Blue score for the result under the rules. For
// a bye, red is the bye's score and blue is 0.
func (r Result) Points(rules Rules) (red, blue Points) {
	switch r {
	case RedWon:
		return rules.Win, rules.Loss
	case BlueWon:
		return rules.Loss, rules.Win
	case Drawn:
		return rules.Draw, rules.Draw
	case RedForfeited:
		return rules.ForfeitLoss, rules.ForfeitWin
	case BlueForfeited:
		return rules.ForfeitWin, rules.ForfeitLoss
	case DoubleForfeit:
		return rules.ForfeitLoss, rules.ForfeitLoss
	case Adjudicated, NotBegun:
		if rules.Unfinished == ScoredAsDraw {
			return rules.Draw, rules.Draw
		}
		return rules.Loss, rules.Loss
	case ByeResult:
		return rules.Bye, 0
	}
	return 0, 0
}

// Pairing is one game of a round, or a bye when Blue is empty: Red then
// names the player who has the bye.
type Pairing struct {
	Red    string `json:"red"`
	Blue   string `json:"blue,omitempty"`
	Result Result `json:"result,omitempty"`
}

// IsBye reports whether the pairing is a bye.
func (p Pairing) IsBye() bool { return p.Blue == "" }

// Has reports whether the player is in the pairing.
func (p Pairing) Has(id string) bool { return id != "" && (p.Red == id || p.Blue == id) }

// ColourOf returns the player's colour in the pairing; false when the player
// is not in it.
func (p Pairing) ColourOf(id string) (Colour, bool) {
	switch {
	case id == "":
		return Red, false
	case p.Red == id:
		return Red, true
	case p.Blue == id:
		return Blue, true
	}
	return Red, false
}

// Opponent returns the other player of the pairing ("" for a bye).
func (p Pairing) Opponent(id string) string {
	if p.Red == id {
		return p.Blue
	}
	return p.Red
}

// String writes the pairing: "alice (Red) – bob (Blue): Red won" or "carol: bye".
func (p Pairing) String() string {
	if p.IsBye() {
		return p.Red + ": bye"
	}
	return fmt.Sprintf("%s (Red) – %s (Blue): %s", p.Red, p.Blue, p.Result)
}

// Round is a round's pairings, boards first, any bye last.
type Round struct {
	Number int       `json:"number"` // from 1
	Games  []Pairing `json:"games"`
	Closed bool      `json:"closed,omitempty"` // its deadline passed: nothing stays pending
}

// Complete reports whether every pairing of the round has a result.
func (r Round) Complete() bool {
	for _, g := range r.Games {
		if !g.Result.Done() {
			return false
		}
	}
	return true
}

// Pending returns the boards (indices into Games) still without a result.
func (r Round) Pending() []int {
	var out []int
	for i, g := range r.Games {
		if !g.Result.Done() {
			out = append(out, i)
		}
	}
	return out
}
