package game

import (
	"fmt"
	"strconv"
	"strings"
)

// Side is one of the two armies. Red moves first.
type Side uint8

// The two sides.
const (
	Red Side = iota
	Blue
)

// Opponent returns the other side.
func (s Side) Opponent() Side { return s ^ 1 }

// String returns "Red" or "Blue".
func (s Side) String() string {
	switch s {
	case Red:
		return "Red"
	case Blue:
		return "Blue"
	}
	return fmt.Sprintf("Side(%d)", uint8(s))
}

// ParseSide reads "red" or "blue", case-insensitive.
func ParseSide(text string) (Side, error) {
	switch strings.ToLower(strings.TrimSpace(text)) {
	case "red", "r":
		return Red, nil
	case "blue", "b":
		return Blue, nil
	}
	return Red, fmt.Errorf("%q is not a side: use red or blue", text)
}

// Rank is a kind of piece. The numeric values of Spy through Marshal are
// their modern ranks, so a higher value beats a lower one among them.
type Rank uint8

// The ranks. NoRank marks an empty square, or a piece whose rank the viewer does not know.
const (
	NoRank Rank = iota
	Spy
	Scout
	Miner
	Sergeant
	Lieutenant
	Captain
	Major
	Colonel
	General
	Marshal
	Infiltrator
	Bomb
	Flag
)

// NumRanks is one more than the largest Rank value, for arrays indexed by rank.
const NumRanks = int(Flag) + 1

// Ranks lists every rank from strongest to weakest, then Bomb and Flag:
// the order of a piece table or a tray.
var Ranks = [...]Rank{Marshal, General, Colonel, Major, Captain, Lieutenant, Sergeant, Miner, Scout, Spy, Infiltrator, Bomb, Flag}

var rankNames = [NumRanks]string{"", "Spy", "Scout", "Miner", "Sergeant", "Lieutenant", "Captain", "Major", "Colonel", "General", "Marshal", "Infiltrator", "Bomb", "Flag"}

// Numbering chooses how ranks are labelled: modern (Marshal 10 … Scout 2) or
// classic (Marshal 1 … Scout 9). Letters S, I, B and F are the same in both.
type Numbering uint8

// The two numbering schemes.
const (
	NumberingModern Numbering = iota
	NumberingClassic
)

// String returns "modern" or "classic".
func (n Numbering) String() string {
	if n == NumberingClassic {
		return "classic"
	}
	return "modern"
}

// ParseNumbering reads "modern" or "classic".
func ParseNumbering(text string) (Numbering, error) {
	switch strings.ToLower(strings.TrimSpace(text)) {
	case "modern", "new", "10":
		return NumberingModern, nil
	case "classic", "old", "1":
		return NumberingClassic, nil
	}
	return NumberingModern, fmt.Errorf("%q is not a numbering: use modern (Marshal = 10) or classic (Marshal = 1)", text)
}

// Valid reports whether r is a real piece (not NoRank).
func (r Rank) Valid() bool { return r >= Spy && r <= Flag }

// Movable reports whether a piece of this rank can move: everything but Bomb and Flag.
func (r Rank) Movable() bool { return r >= Spy && r <= Infiltrator }

// strength is the number used in battle: the modern rank, 1 for the Infiltrator.
func (r Rank) strength() int {
	if r == Infiltrator {
		return 1
	}
	return int(r)
}

// Name returns the piece's name, such as "Marshal", or "" for NoRank.
func (r Rank) Name() string {
	if int(r) < NumRanks {
		return rankNames[r]
	}
	return ""
}

// Plural returns the name for more than one piece ("Bombs", "Spies").
func (r Rank) Plural() string {
	switch r {
	case Spy:
		return "Spies"
	case NoRank:
		return ""
	}
	return r.Name() + "s"
}

// String returns the name, or "?" for NoRank.
func (r Rank) String() string {
	if r == NoRank {
		return "?"
	}
	if n := r.Name(); n != "" {
		return n
	}
	return fmt.Sprintf("Rank(%d)", uint8(r))
}

// Label returns the short label in the given numbering: "10" or "1" for the
// Marshal, "S", "I", "B", "F" for the others, "?" for NoRank.
func (r Rank) Label(n Numbering) string {
	switch r {
	case NoRank:
		return "?"
	case Spy:
		return "S"
	case Infiltrator:
		return "I"
	case Bomb:
		return "B"
	case Flag:
		return "F"
	}
	if n == NumberingClassic {
		return strconv.Itoa(11 - int(r))
	}
	return strconv.Itoa(int(r))
}

// Describe returns "Captain (6)" in the given numbering, or "Bomb" for pieces without a number.
func (r Rank) Describe(n Numbering) string {
	switch r {
	case Spy, Infiltrator, Bomb, Flag:
		return r.Name()
	case NoRank:
		return "unknown piece"
	}
	return r.Name() + " (" + r.Label(n) + ")"
}

// rankAliases maps lower-case names and abbreviations to ranks.
var rankAliases = func() map[string]Rank {
	m := map[string]Rank{}
	for r := Spy; r <= Flag; r++ {
		m[strings.ToLower(r.Name())] = r
		m[strings.ToLower(r.Plural())] = r
	}
	for k, v := range map[string]Rank{
		"s": Spy, "i": Infiltrator, "b": Bomb, "f": Flag,
		"field marshal": Marshal, "fieldmarshal": Marshal, "marshall": Marshal, "mar": Marshal,
		"gen": General, "col": Colonel, "maj": Major, "capt": Captain, "cpt": Captain,
		"lt": Lieutenant, "lieut": Lieutenant, "sgt": Sergeant, "sarge": Sergeant,
		"min": Miner, "sct": Scout, "inf": Infiltrator, "bmb": Bomb, "flg": Flag,
	} {
		m[k] = v
	}
	return m
}()

// ParseRank reads one piece token: a label in the given numbering ("10", "S", "B"),
// a name ("Marshal", "bombs") or a common abbreviation ("Lt", "Sgt"). Case does not matter.
func ParseRank(token string, n Numbering) (Rank, error) {
	t := strings.ToLower(strings.TrimSpace(token))
	if r, ok := rankAliases[t]; ok {
		return r, nil
	}
	if v, err := strconv.Atoi(t); err == nil {
		if n == NumberingClassic {
			if v >= 1 && v <= 9 {
				return Rank(11 - v), nil
			}
			return NoRank, textError(txtNotClassic, token)
		}
		if v >= 2 && v <= 10 {
			return Rank(v), nil
		}
		return NoRank, textError(txtNotModern, token)
	}
	return NoRank, textError(txtNotAPiece, token)
}

// The reasons ParseRank gives, in a *TextError.
const (
	txtNotClassic = "%[1]q is not a piece in classic numbering: use 1 (Marshal) to 9 (Scout), S, I, B or F"
	txtNotModern  = "%[1]q is not a piece in modern numbering: use 10 (Marshal) to 2 (Scout), S, I, B or F"
	txtNotAPiece  = "%[1]q is not a piece: use a rank number, S (Spy), I (Infiltrator), B (Bomb), F (Flag) or a name like Marshal"
)
