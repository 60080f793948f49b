package game

import ()

// SetupRows is the depth of a set-up zone.
const SetupRows = 4

// Setup is one side's starting formation as its player sees it: row 0 is the
// front row (next to the lakes), row 3 the back row, and column 0 the player's
// left. Red's left is column A; Blue sits across the board, so Blue's left is
// column J. The same Setup therefore looks the same to whichever side plays it.
// NoRank marks an empty square.
type Setup [SetupRows][10]Rank

// SetupSquare returns the board square of row and col of side's Setup.
func SetupSquare(side Side, row, col int) Square {
	if side == Red {
		return SquareAt(col, SetupRows-1-row)
	}
	return SquareAt(9-col, 6+row)
}

// SetupCell returns the row and column of square s in side's Setup, and false
// when s is outside side's zone.
func SetupCell(side Side, s Square) (row, col int, ok bool) {
	if !InZone(side, s) {
		return 0, 0, false
	}
	if side == Red {
		return SetupRows - 1 - s.Row(), s.Col(), true
	}
	return s.Row() - 6, 9 - s.Col(), true
}

// Counts returns how many pieces of each rank the set-up places.
func (s *Setup) Counts() Army {
	var a Army
	for _, row := range s {
		for _, r := range row {
			if r != NoRank {
				a[r]++
			}
		}
	}
	return a
}

// Mirror returns the set-up flipped left to right.
func (s Setup) Mirror() Setup {
	var m Setup
	for r := range s {
		for c := range s[r] {
			m[r][9-c] = s[r][c]
		}
	}
	return m
}

// SetupError is a set-up that breaks the rules, with a reason a player can act on.
type SetupError struct {
	Reason string // in English
	Text   Text   // the reason, for its translations
}

func (e *SetupError) Error() string { return e.Reason }

// setupError refuses a set-up for the reason key says, a txt constant.
func setupError(key string, args ...any) *SetupError {
	t := text(key, args...)
	return &SetupError{Reason: t.String(), Text: t}
}

// The reasons Validate gives. A set-up with the wrong pieces is told as a
// short list, what is missing and what is extra, rather than one clause per
// rank, so that a player sees at a glance what to change.
const (
	txtProblems        = "%[1]s"
	txtMissing         = "Missing: %[1]s."
	txtExtra           = "Extra: %[1]s."
	txtUnknownPiece    = "the set-up holds an unknown piece"
	txtSquaresAreEmpty = "%[1]d squares are empty; %[2]s fills all 40 squares of the zone"
)

// Validate checks a set-up against the rules: the right number of each piece
// and, for Classic and Infiltrator, a full zone.
func (s *Setup) Validate(rules Rules) error {
	// Values that are no piece first: Counts indexes by rank.
	for _, r := range s {
		for _, k := range r {
			if int(k) >= NumRanks {
				return setupError(txtUnknownPiece)
			}
		}
	}
	got := s.Counts()
	want := rules.Army
	var missing, extra Counts
	for _, r := range Ranks {
		switch {
		case got[r] < want[r]:
			missing = append(missing, Count{int(want[r] - got[r]), r})
		case got[r] > want[r]:
			extra = append(extra, Count{int(got[r] - want[r]), r})
		}
	}
	var problems Lines
	if len(missing) > 0 {
		problems = append(problems, text(txtMissing, missing))
	}
	if len(extra) > 0 {
		problems = append(problems, text(txtExtra, extra))
	}
	if len(problems) > 0 {
		return setupError(txtProblems, problems)
	}
	if rules.Variant.FillsZone() {
		if empty := SetupRows*10 - got.Total(); empty > 0 {
			return setupError(txtSquaresAreEmpty, empty, rules.Variant)
		}
	}
	return nil
}

// CanMove reports whether some piece of a valid set-up can move at the start.
// One that cannot loses the moment the game starts (no movable pieces). The
// two zones are two rows apart, so the answer does not depend on the
// opponent's set-up: the set-up is tried against itself.
func (s Setup) CanMove(rules Rules) bool {
	g, err := NewGame(rules, s, s)
	return err == nil && !g.Result().Over()
}
