package ucc

import (
	"fmt"

	"github.com/strategobot/strategobot/game"
)

// battleOutcomes are the game's outcomes of the battle reports.
var battleOutcomes = [...]game.BattleOutcome{Kills: game.AttackerWon, Dies: game.DefenderWon, BothDie: game.BothRemoved}

// NewView returns what side knows when a game starts in which it set up own:
// its own pieces by rank, and an enemy piece of unknown rank on every square
// of the opponent's zone (the protocol's army fills the zone, as Classic's
// does). The view's rules are rules, which must be of such a variant.
func NewView(rules game.Rules, side game.Side, own game.Setup) (game.View, error) {
	if err := rules.Validate(); err != nil {
		return game.View{}, err
	}
	if !rules.Variant.FillsZone() || rules.Army.Total() != game.SetupRows*Size {
		return game.View{}, fmt.Errorf("the UCC protocol plays Classic, with 40 pieces that fill each zone, not %s", rules.Variant)
	}
	if err := own.Validate(rules); err != nil {
		return game.View{}, fmt.Errorf("own set-up: %w", err)
	}
	v := game.View{Viewer: game.ViewerOf(side), Rules: rules, ToMove: game.Red}
	v.Remaining = [2]game.Army{rules.Army, rules.Army}
	for s := game.Square(0); s < game.NumSquares; s++ {
		for _, zone := range [2]game.Side{side, side.Opponent()} {
			row, col, ok := game.SetupCell(zone, s)
			if !ok {
				continue
			}
			c := game.Cell{Occupied: true, Side: zone}
			if zone == side {
				c.Rank = own[row][col]
			}
			v.Board[s] = c
		}
	}
	return v, nil
}

// Follow records in v the report of a move of the side to move: the board,
// the history, the counts and whose turn it is change as the move changed
// them in the game. It refuses, changing nothing, a report that cannot be
// true in v (no piece of that side on the start square, a battle on an empty
// square, ranks that contradict what v knows or each other).
func Follow(v *game.View, r Report) error {
	if v.Result.Over() {
		return fmt.Errorf("report %q after the end of the game: %w", r, game.ErrGameOver)
	}
	mover := v.ToMove
	m := r.Move
	from, to := v.Board[m.From], v.Board[m.To]
	bad := func(format string, args ...any) error {
		return fmt.Errorf("report %q: %s: %w", r, fmt.Sprintf(format, args...), ErrProtocol)
	}
	switch {
	case !from.Occupied || from.Side != mover:
		return bad("%s has no piece of %s, who is to move", m.From, mover)
	case from.Rank != game.NoRank && !from.Rank.Movable():
		return bad("the %s on %s cannot move", from.Rank, m.From)
	case m.To.IsLake():
		return bad("%s is a lake", m.To)
	case to.Occupied && to.Side == mover:
		return bad("%s moves onto its own piece on %s", mover, m.To)
	case r.Outcome == OK && to.Occupied:
		return bad("%s holds a piece, so the move is a battle", m.To)
	case r.Outcome != OK && !r.Outcome.battle():
		return bad("%s ends the game; the manager sends QUIT instead", r.Outcome)
	case r.Outcome.battle() && !to.Occupied:
		return bad("a battle on the empty square %s", m.To)
	}
	rec := game.MoveRecord{Side: mover, Move: m}
	if r.Outcome.battle() {
		rec.Attacker, rec.Defender = r.Attacker, r.Defender
		rec.Outcome = battleOutcomes[r.Outcome]
		switch {
		case !r.Attacker.Movable():
			return bad("the attacker cannot be a %s", r.Attacker)
		case from.Rank != game.NoRank && from.Rank != r.Attacker:
			return bad("the piece on %s is a %s, not a %s", m.From, from.Rank, r.Attacker)
		case to.Rank != game.NoRank && to.Rank != r.Defender:
			return bad("the piece on %s is a %s, not a %s", m.To, to.Rank, r.Defender)
		case to.Moved && !r.Defender.Movable():
			return bad("the piece on %s has moved, so it is no %s", m.To, r.Defender)
		case game.Fight(r.Attacker, r.Defender) != rec.Outcome:
			return bad("a %s attacking a %s does not give %s", r.Attacker, r.Defender, r.Outcome)
		case v.Remaining[mover][r.Attacker] == 0 || v.Remaining[mover.Opponent()][r.Defender] == 0:
			return bad("no %s or %s is left", r.Attacker, r.Defender)
		}
	}
	mine := from
	mine.Moved = true
	if d := max(m.From.Col()-m.To.Col(), m.To.Col()-m.From.Col(), m.From.Row()-m.To.Row(), m.To.Row()-m.From.Row()); d > 1 {
		if from.Rank != game.NoRank && from.Rank != game.Scout {
			return bad("only a Scout moves more than one square, not the %s on %s", from.Rank, m.From)
		}
		mine.KnownScout = true
	}
	if rec.Outcome != game.NoBattle {
		mine.Rank, mine.Revealed = rec.Attacker, true
	}
	lose := func(side game.Side, rank game.Rank) {
		v.Captured[side][rank]++
		v.Remaining[side][rank]--
	}
	switch rec.Outcome {
	case game.NoBattle:
		v.Board[m.From], v.Board[m.To] = game.Cell{}, mine
	case game.AttackerWon:
		lose(mover.Opponent(), rec.Defender)
		v.Board[m.From], v.Board[m.To] = game.Cell{}, mine
		if rec.Defender == game.Flag {
			v.Result = game.Result{Outcome: game.WinFor(mover), Method: game.FlagCaptured}
		}
	case game.DefenderWon:
		lose(mover, rec.Attacker)
		v.Board[m.From] = game.Cell{}
		v.Board[m.To].Rank, v.Board[m.To].Revealed = rec.Defender, true
	case game.BothRemoved:
		lose(mover, rec.Attacker)
		lose(mover.Opponent(), rec.Defender)
		v.Board[m.From], v.Board[m.To] = game.Cell{}, game.Cell{}
	}
	v.History = append(v.History, rec)
	v.ToMove = mover.Opponent()
	return nil
}
