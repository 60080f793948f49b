package storage

import (
	"fmt"
	"strings"
	"time"

	"github.com/strategobot/strategobot/game"
)

// setupChars are the letters of a stored set-up, indexed by rank: digits for
// Scout (2) to General (9), X for the Marshal (10), S, I, B, F, and "." for an
// empty square. One letter a square keeps a set-up at 40 readable characters.
const setupChars = ".S23456789XIBF"

// encodeSetup writes s as 40 characters: front row first, each row from the player's left.
func encodeSetup(s *game.Setup) string {
	var b [game.SetupRows * 10]byte
	for r := range s {
		for c, k := range s[r] {
			if int(k) < len(setupChars) {
				b[r*10+c] = setupChars[k]
			} else {
				b[r*10+c] = '?'
			}
		}
	}
	return string(b[:])
}

// decodeSetup reads what encodeSetup wrote; "" is the empty set-up.
func decodeSetup(text string) (game.Setup, error) {
	var s game.Setup
	if text == "" {
		return s, nil
	}
	if len(text) != game.SetupRows*10 {
		return s, fmt.Errorf("a stored set-up has %d characters, not 40", len(text))
	}
	for i := range len(text) {
		k := strings.IndexByte(setupChars, text[i])
		if k < 0 {
			return s, fmt.Errorf("a stored set-up holds an unknown letter at position %d", i+1)
		}
		s[i/10][i%10] = game.Rank(k)
	}
	return s, nil
}

// rulesRecord is game.Rules as stored. Options added later must be named so
// that their zero value is the behaviour of matches stored before them.
type rulesRecord struct {
	Variant     game.Variant `json:"variant"`
	Army        string       `json:"army,omitempty"` // Custom only, modern labels
	ScoutRange  bool         `json:"scout_range"`
	TwoSquares  int          `json:"two_squares"`
	MoreSquares bool         `json:"more_squares"`
	MaxMoves    int          `json:"max_moves,omitempty"`
}

func encodeRules(r game.Rules) rulesRecord {
	rec := rulesRecord{Variant: r.Variant, ScoutRange: r.ScoutStrikesAtRange, TwoSquares: r.TwoSquares, MoreSquares: r.MoreSquares, MaxMoves: r.MaxMoves}
	if r.Variant == game.VariantCustom {
		rec.Army = r.Army.Format(game.NumberingModern)
	}
	return rec
}

func decodeRules(rec rulesRecord) (game.Rules, error) {
	r := game.Rules{Variant: rec.Variant, Army: rec.Variant.Army(), ScoutStrikesAtRange: rec.ScoutRange, TwoSquares: rec.TwoSquares, MoreSquares: rec.MoreSquares, MaxMoves: rec.MaxMoves}
	if rec.Variant == game.VariantCustom {
		a, err := game.ParseArmy(rec.Army, game.NumberingModern)
		if err != nil {
			return r, fmt.Errorf("custom army: %w", err)
		}
		r.Army = a
	}
	return r, nil
}

var outcomeWords = [...]string{game.Ongoing: "", game.RedWon: "red", game.BlueWon: "blue", game.Drawn: "draw"}

var methodWords = [...]string{
	game.NotEnded: "", game.FlagCaptured: "flag", game.NoMovablePieces: "no-movable", game.NoLegalMoves: "no-legal",
	game.Resignation: "resign", game.DrawAgreed: "agreed", game.TimeForfeit: "time", game.MoveLimit: "move-limit", game.Awarded: "awarded",
}

// encodeResult writes "red:flag", "draw:agreed", or "" while the game is on.
func encodeResult(r game.Result) string {
	if !r.Over() || int(r.Outcome) >= len(outcomeWords) || int(r.Method) >= len(methodWords) {
		return ""
	}
	return outcomeWords[r.Outcome] + ":" + methodWords[r.Method]
}

func decodeResult(text string) (game.Result, error) {
	if text == "" {
		return game.Result{}, nil
	}
	o, m, _ := strings.Cut(text, ":")
	var r game.Result
	for i, w := range outcomeWords {
		if w != "" && w == o {
			r.Outcome = game.Outcome(i)
		}
	}
	for i, w := range methodWords {
		if w != "" && w == m {
			r.Method = game.Method(i)
		}
	}
	if r.Outcome == game.Ongoing || r.Method == game.NotEnded {
		return r, fmt.Errorf("%q is not a result", text)
	}
	return r, nil
}

// unixTime stores a time as whole seconds, 0 for the zero time.
func unixTime(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.Unix()
}

// fromUnix reads what unixTime wrote, in UTC.
func fromUnix(s int64) time.Time {
	if s == 0 {
		return time.Time{}
	}
	return time.Unix(s, 0).UTC()
}

// second rounds a caller's time down to what is stored: whole seconds, UTC.
func second(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	return time.Unix(t.Unix(), 0).UTC()
}
