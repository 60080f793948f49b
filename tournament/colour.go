package tournament

// Strength is how much a player is owed a colour, as in FIDE's Dutch system.
type Strength uint8

// The strengths of a colour preference, weakest first.
const (
	// NoPreference: the player has played no game yet.
	NoPreference Strength = iota
	// Mild: as many Reds as Blues so far; the player would alternate.
	Mild
	// Strong: one colour more than the other so far; the player should even it.
	Strong
	// Absolute: two colours more than the other, or the same colour in the
	// last two games: the player must have the other colour next.
	Absolute
)

var strengthNames = [...]string{"none", "mild", "strong", "absolute"}

// String names the strength.
func (s Strength) String() string {
	if int(s) < len(strengthNames) {
		return strengthNames[s]
	}
	return "?"
}

// Preference is the colour a player should have next and how strongly.
type Preference struct {
	Colour   Colour
	Strength Strength
}

// ColourDifference returns the number of Reds minus the number of Blues.
func ColourDifference(played []Colour) int {
	d := 0
	for _, c := range played {
		if c == Red {
			d++
		} else {
			d--
		}
	}
	return d
}

// PreferenceOf returns the colour preference of a player who had the given
// colours in the games played on the board, oldest first (FIDE's Dutch
// system, A.6): absolute when the colour difference is beyond ±1 or the last
// two games had the same colour, strong at ±1, mild at 0 (alternate), none
// before the first game.
func PreferenceOf(played []Colour) Preference {
	n := len(played)
	if n == 0 {
		return Preference{}
	}
	d := ColourDifference(played)
	last := played[n-1]
	switch {
	case d > 1:
		return Preference{Blue, Absolute}
	case d < -1:
		return Preference{Red, Absolute}
	case n >= 2 && played[n-2] == last:
		return Preference{last.Other(), Absolute}
	case d == 1:
		return Preference{Blue, Strong}
	case d == -1:
		return Preference{Red, Strong}
	}
	return Preference{last.Other(), Mild}
}

// allocate decides the colours of two players paired together, a ranked above
// b, as FIDE's Dutch system does (E.1–E.5): both preferences when they agree;
// else the stronger one; with equal strength, the colours alternate from the
// latest game in which the two had different colours; else the higher-ranked
// player's preference; and with no preference on either side, the
// higher-ranked player has Red when their pairing number is odd. It returns
// whether a has Red, and the strength of the preference left unmet.
func allocate(a, b *swissEntry) (aRed bool, unmet Strength) {
	pa, pb := a.pref, b.pref
	switch {
	case pa.Strength == NoPreference && pb.Strength == NoPreference:
		return a.Seed%2 == 1, NoPreference
	case pb.Strength == NoPreference:
		return pa.Colour == Red, NoPreference
	case pa.Strength == NoPreference:
		return pb.Colour == Blue, NoPreference
	case pa.Colour != pb.Colour:
		return pa.Colour == Red, NoPreference
	case pa.Strength > pb.Strength:
		return pa.Colour == Red, pb.Strength
	case pb.Strength > pa.Strength:
		return pb.Colour == Blue, pa.Strength
	case pa.Strength == Absolute:
		// Both owed it absolutely (a topscorer in the final round): the
		// wider colour difference has it.
		da, db := abs(ColourDifference(a.Colours)), abs(ColourDifference(b.Colours))
		if da != db {
			return (da > db) == (pa.Colour == Red), Absolute
		}
	}
	// The same colour, equally wanted.
	ca, cb := a.Colours, b.Colours
	for i, j := len(ca)-1, len(cb)-1; i >= 0 && j >= 0; i, j = i-1, j-1 {
		if ca[i] != cb[j] {
			return ca[i] == Blue, pa.Strength
		}
	}
	return pa.Colour == Red, pb.Strength
}

// topscorerColours reports what pairing a with b, both owed the same
// colour absolutely (only a topscorer in the final round meets such an
// opponent), does to the one who does not have it: a colour difference
// beyond ±2 (C.8: both are two colours or more off), or the same colour
// three times in a row (C.9: the one with the narrower colour difference,
// who gives way by E.2, had their last two games with the other colour;
// with equal differences, both had their last two with one colour).
func topscorerColours(a, b *swissEntry) (beyond2, thrice bool) {
	if !sameAbsolute(a, b) {
		return false, false
	}
	da, db := abs(ColourDifference(a.Colours)), abs(ColourDifference(b.Colours))
	beyond2 = da > 1 && db > 1
	ra, rb := repeated(a.Colours), repeated(b.Colours)
	switch {
	case da == db:
		thrice = ra != nil && rb != nil && *ra == *rb
	case da < db:
		thrice = ra != nil && *ra != a.pref.Colour
	default:
		thrice = rb != nil && *rb != b.pref.Colour
	}
	return beyond2, thrice
}

// repeated returns the colour of the last two games when they had the
// same one, else nil.
func repeated(played []Colour) *Colour {
	n := len(played)
	if n >= 2 && played[n-1] == played[n-2] {
		return &played[n-1]
	}
	return nil
}
