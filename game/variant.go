package game

import (
	"errors"
	"fmt"
	"strings"
)

// Variant is a set of armies and set-up rules.
type Variant uint8

// The variants of RULES.md.
const (
	VariantClassic Variant = iota
	VariantBarrage
	VariantDuel
	VariantInfiltrator
	VariantCustom
)

// Variants lists every variant, in the order a menu shows them.
var Variants = [...]Variant{VariantClassic, VariantBarrage, VariantDuel, VariantInfiltrator, VariantCustom}

var variantNames = [...]string{"Classic", "Barrage", "Duel", "Infiltrator", "Custom"}

// String returns the variant's name, such as "Classic".
func (v Variant) String() string {
	if int(v) < len(variantNames) {
		return variantNames[v]
	}
	return fmt.Sprintf("Variant(%d)", uint8(v))
}

// ParseVariant reads a variant name, case-insensitive ("classic", "Barrage", "duell").
func ParseVariant(text string) (Variant, error) {
	t := strings.ToLower(strings.TrimSpace(text))
	for i, n := range variantNames {
		if t == strings.ToLower(n) {
			return Variant(i), nil
		}
	}
	switch t {
	case "duell":
		return VariantDuel, nil
	case "original", "standard":
		return VariantClassic, nil
	}
	return VariantClassic, fmt.Errorf("%q is not a variant: choose Classic, Barrage, Duel, Infiltrator or Custom", text)
}

// MarshalText implements encoding.TextMarshaler.
func (v Variant) MarshalText() ([]byte, error) { return []byte(strings.ToLower(v.String())), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (v *Variant) UnmarshalText(b []byte) error {
	p, err := ParseVariant(string(b))
	if err != nil {
		return err
	}
	*v = p
	return nil
}

// FillsZone reports whether every square of the set-up zone must hold a piece
// (Classic and Infiltrator); in the other variants pieces stand anywhere in the zone.
func (v Variant) FillsZone() bool { return v == VariantClassic || v == VariantInfiltrator }

// MaxPieces is the largest army: one full set-up zone.
const MaxPieces = 40

// Army counts the pieces of each rank one side starts with; both sides get the same army.
type Army [NumRanks]uint8

var (
	classicArmy     = Army{Marshal: 1, General: 1, Colonel: 2, Major: 3, Captain: 4, Lieutenant: 4, Sergeant: 4, Miner: 5, Scout: 8, Spy: 1, Bomb: 6, Flag: 1}
	barrageArmy     = Army{Marshal: 1, General: 1, Miner: 1, Scout: 2, Spy: 1, Bomb: 1, Flag: 1}
	duelArmy        = Army{Marshal: 1, General: 1, Miner: 2, Scout: 2, Spy: 1, Bomb: 2, Flag: 1}
	infiltratorArmy = Army{Marshal: 1, General: 1, Colonel: 2, Major: 3, Captain: 4, Lieutenant: 4, Sergeant: 4, Miner: 5, Scout: 7, Spy: 1, Infiltrator: 1, Bomb: 6, Flag: 1}
)

// Army returns the variant's army. Custom has none of its own: it returns the zero Army.
func (v Variant) Army() Army {
	switch v {
	case VariantClassic:
		return classicArmy
	case VariantBarrage:
		return barrageArmy
	case VariantDuel:
		return duelArmy
	case VariantInfiltrator:
		return infiltratorArmy
	}
	return Army{}
}

// Total returns the number of pieces in the army.
func (a Army) Total() int {
	n := 0
	for _, c := range a {
		n += int(c)
	}
	return n
}

// MovableCount returns the number of pieces that can move (all but Bombs and Flags).
func (a Army) MovableCount() int { return a.Total() - int(a[Bomb]) - int(a[Flag]) - int(a[NoRank]) }

// Why an army or rules are refused (in a *TextError).
const (
	txtArmyNoEmpty     = "an army lists pieces, not empty squares"
	txtArmyOneFlag     = "an army needs exactly one Flag, this one has %[1]d"
	txtArmyMovable     = "an army needs at least one piece that can move"
	txtArmyTooMany     = "an army has at most %[1]d pieces, this one has %[2]d"
	txtArmyEmpty       = "the army is empty: list its pieces, for example 10 9 3 2 2 S B F"
	txtArmyAtMost      = "an army has at most %[1]d pieces"
	txtRulesArmy       = "custom army: %[1]s"
	txtRulesOwnArmy    = "%[1]s is played with its own army (%[2]s); choose Custom to play another"
	txtRulesTwoSquares = "two_squares is 3, 5 or off, not %[1]d"
	txtRulesMaxMoves   = "max_moves is off (0) or between 1 and %[1]d, not %[2]d"
)

// Validate checks the rules for a Custom army: exactly one Flag, at least one
// movable piece, at most 40 pieces.
func (a Army) Validate() error {
	if a[NoRank] != 0 {
		return textError(txtArmyNoEmpty)
	}
	if a[Flag] != 1 {
		return textError(txtArmyOneFlag, int(a[Flag]))
	}
	if a.MovableCount() < 1 {
		return textError(txtArmyMovable)
	}
	if t := a.Total(); t > MaxPieces {
		return textError(txtArmyTooMany, MaxPieces, t)
	}
	return nil
}

// Format lists the army as labels in the given numbering, strongest first: "10 9 8 8 3 S B F".
func (a Army) Format(n Numbering) string {
	var b strings.Builder
	for _, r := range Ranks {
		for i := 0; i < int(a[r]); i++ {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(r.Label(n))
		}
	}
	return b.String()
}

// String lists the army in modern numbering.
func (a Army) String() string { return a.Format(NumberingModern) }

// ParseArmy reads a Custom army: piece tokens separated by spaces or commas,
// such as "10 9 8 8 3 3 2 2 2 S B B F" or "Marshal, 2 x Scout, Bomb, Flag".
// A token "3x" or "x3" before or after a piece repeats it.
func ParseArmy(text string, n Numbering) (Army, error) {
	var a Army
	fields := strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == ',' || r == ';' || r == '\t' || r == '\n' })
	if len(fields) == 0 {
		return a, textError(txtArmyEmpty)
	}
	repeat := 1
	for _, f := range fields {
		if k, ok := parseRepeat(f); ok {
			repeat = k
			continue
		}
		r, err := ParseRank(f, n)
		if err != nil {
			return a, err
		}
		if int(a[r])+repeat > MaxPieces {
			return a, textError(txtArmyAtMost, MaxPieces)
		}
		a[r] += uint8(repeat)
		repeat = 1
	}
	if err := a.Validate(); err != nil {
		return a, err
	}
	return a, nil
}

// parseRepeat reads "3x", "x3" or "3×".
func parseRepeat(f string) (int, bool) {
	f = strings.ToLower(f)
	var digits string
	switch {
	case strings.HasSuffix(f, "x"):
		digits = strings.TrimSuffix(f, "x")
	case strings.HasSuffix(f, "×"):
		digits = strings.TrimSuffix(f, "×")
	case strings.HasPrefix(f, "x"):
		digits = strings.TrimPrefix(f, "x")
	default:
		return 0, false
	}
	k := 0
	if digits == "" || len(digits) > 2 {
		return 0, false
	}
	for _, d := range digits {
		if d < '0' || d > '9' {
			return 0, false
		}
		k = k*10 + int(d-'0')
	}
	return k, k >= 1 && k <= MaxPieces
}

// Rules is everything fixed when a match is created: the variant, its army and
// the per-match options of RULES.md.
type Rules struct {
	Variant Variant
	// Army is the army of both sides; for every variant but Custom it must equal Variant.Army().
	Army Army
	// ScoutStrikesAtRange lets a Scout move over empty squares and attack in one turn.
	ScoutStrikesAtRange bool
	// TwoSquares is N of the Two-Squares rule (3 or 5), or 0 for off.
	TwoSquares int
	// MoreSquares turns the More-Squares (chasing) rule on.
	MoreSquares bool
	// MaxMoves ends the game in a draw when the total number of moves reaches it; 0 is off.
	MaxMoves int
}

// DefaultRules returns the RULES.md defaults for a variant: scouts strike at range,
// Two-Squares 3, More-Squares on, no move limit. For Custom, set Army before use.
func DefaultRules(v Variant) Rules {
	return Rules{Variant: v, Army: v.Army(), ScoutStrikesAtRange: true, TwoSquares: 3, MoreSquares: true}
}

// MaxMovesLimit is the largest max_moves accepted.
const MaxMovesLimit = 100000

// Validate checks that the rules can be played.
func (r Rules) Validate() error {
	if int(r.Variant) >= len(variantNames) {
		return fmt.Errorf("unknown variant %d", r.Variant)
	}
	if r.Variant == VariantCustom {
		if err := r.Army.Validate(); err != nil {
			var why *TextError
			if !errors.As(err, &why) {
				return fmt.Errorf("custom army: %w", err)
			}
			return textError(txtRulesArmy, why.Text)
		}
	} else if r.Army != r.Variant.Army() {
		return textError(txtRulesOwnArmy, r.Variant, r.Variant.Army().String())
	}
	switch r.TwoSquares {
	case 0, 3, 5:
	default:
		return textError(txtRulesTwoSquares, r.TwoSquares)
	}
	if r.MaxMoves < 0 || r.MaxMoves > MaxMovesLimit {
		return textError(txtRulesMaxMoves, MaxMovesLimit, r.MaxMoves)
	}
	return nil
}
