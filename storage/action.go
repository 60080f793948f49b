package storage

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/strategobot/strategobot/game"
)

// ActionKind is what a player (or the clock) did after the start of a game.
type ActionKind uint8

// The actions of a match's log.
const (
	ActMove         ActionKind = iota // a move, attack or infiltration
	ActOfferDraw                      // Side offers a draw
	ActAcceptDraw                     // Side accepts the opponent's offer
	ActDeclineDraw                    // Side declines the offer (or takes back its own)
	ActResign                         // Side resigns
	ActTimeOut                        // Side, to move, ran out of time
	ActAward                          // a moderator gave the game to Side
	ActGiveTime                       // Side gave its opponent more time (Match.GiftTime)
	ActOfferPause                     // Side proposes to pause the match for Days days
	ActAcceptPause                    // Side accepts the opponent's proposal: the match pauses for Days days
	ActDeclinePause                   // Side declines the proposal (or takes back its own)
	ActResume                         // the pause agreed ran out (Side: the side to move)
	ActVacation                       // Side went on vacation for Days days
	ActVacationEnd                    // Side's vacation ended: on time, or early
	ActAway                           // nobody ran the timers for Away until At: the clock of Side (in set-up, the set-ups') is given back what of it ran
)

// actionWords are the log tokens of the actions other than moves.
var actionWords = [...]string{ActOfferDraw: "offer", ActAcceptDraw: "accept", ActDeclineDraw: "decline", ActResign: "resign", ActTimeOut: "timeout", ActAward: "award", ActGiveTime: "give",
	ActOfferPause: "pause", ActAcceptPause: "pause-accept", ActDeclinePause: "pause-decline", ActResume: "resume",
	ActVacation: "vacation", ActVacationEnd: "back", ActAway: "away"}

// Action is one entry of a match's log.
type Action struct {
	Kind ActionKind
	Side game.Side
	Move game.Move // for ActMove
	Days int       // for ActOfferPause, ActAcceptPause and ActVacation: how long
	// Away is, for ActAway, how long nobody ran the timers before At, in
	// whole seconds.
	Away time.Duration
	At   time.Time // kept to the second
	// Gift is, for ActGiveTime as asked, which of Side's gifts it is: the
	// gifts of Side its request saw, plus one (0: any). A gift whose number
	// was given already is refused (ErrGiftGiven), so that the presses of
	// what one page or command saw give once however far apart they
	// come. It is not kept in the log.
	Gift int
}

// Until is when a pause or vacation action runs out: At plus Days whole days.
func (a Action) Until() time.Time {
	return a.At.Add(time.Duration(a.Days) * 24 * time.Hour)
}

// AwayFrom is when the time nobody ran the timers began, for ActAway: At
// minus Away.
func (a Action) AwayFrom() time.Time { return a.At.Add(-a.Away) }

// String writes the action as its log token: "B4B5", "E8~E10=F", "offer:R",
// "resign:B", "pause:R:3", "away:B:3600" (seconds).
func (a Action) String() string {
	if a.Kind == ActMove {
		return moveToken(a.Move)
	}
	if int(a.Kind) >= len(actionWords) {
		return fmt.Sprintf("action(%d)", a.Kind)
	}
	tok := actionWords[a.Kind] + ":" + a.Side.String()[:1]
	if a.Days > 0 {
		tok += ":" + strconv.Itoa(a.Days)
	}
	if a.Kind == ActAway {
		tok += ":" + strconv.FormatInt(int64(a.Away/time.Second), 10)
	}
	return tok
}

// moveToken writes a move without the dash ("B4B5"), which game.ParseMove reads back.
func moveToken(m game.Move) string {
	if m.IsInfiltration() {
		return m.String()
	}
	return m.From.String() + m.To.String()
}

// apply plays the action on g, checking that it is Side's to make.
func (a Action) apply(g *game.Game) (game.MoveRecord, error) { return a.play(g, false) }

// replay plays an action of the log on g: as apply, but a move is not judged
// again by the repetition rules, which judged it when it was made and may
// have grown stricter since (game.Game.ApplyRecorded): a stored match must go
// on loading.
func (a Action) replay(g *game.Game) (game.MoveRecord, error) { return a.play(g, true) }

func (a Action) play(g *game.Game, recorded bool) (game.MoveRecord, error) {
	if recorded {
		g.ResumeRecorded() // an action recorded after an end shows it was not one then
	}
	switch a.Kind {
	case ActMove:
		if g.Result().Over() {
			return game.MoveRecord{}, game.ErrGameOver
		}
		if g.ToMove() != a.Side {
			return game.MoveRecord{}, fmt.Errorf("it is %s's turn, not %s's: %w", g.ToMove(), a.Side, ErrNotYourTurn)
		}
		if recorded {
			return g.ApplyRecorded(a.Move)
		}
		return g.Apply(a.Move)
	case ActOfferDraw:
		return game.MoveRecord{}, g.OfferDraw(a.Side)
	case ActAcceptDraw:
		return game.MoveRecord{}, g.AcceptDraw(a.Side)
	case ActDeclineDraw:
		return game.MoveRecord{}, g.DeclineDraw(a.Side)
	case ActResign:
		return game.MoveRecord{}, g.Resign(a.Side)
	case ActTimeOut:
		return game.MoveRecord{}, g.TimeOut(a.Side)
	case ActAward:
		return game.MoveRecord{}, g.Award(a.Side)
	case ActGiveTime, ActOfferPause, ActAcceptPause, ActDeclinePause, ActResume, ActVacation, ActVacationEnd, ActAway:
		// Time is the match's, not the game's: the game does not change.
		if g.Result().Over() {
			return game.MoveRecord{}, game.ErrGameOver
		}
		return game.MoveRecord{}, nil
	}
	return game.MoveRecord{}, fmt.Errorf("unknown action kind %d: %w", a.Kind, ErrInvalid)
}

// encodeLog writes the log as space-separated tokens "ACTION+SECONDS", SECONDS
// being the time since the previous action (since base for the first):
// "B4B5+40 G7G6+3600 offer:R+12". Moves carry no side: Red moves first and the
// sides alternate, so the side follows from the number of moves before.
func encodeLog(base time.Time, log []Action) string {
	if len(log) == 0 {
		return ""
	}
	var b strings.Builder
	b.Grow(len(log) * 10)
	prev := base.Unix()
	for i, a := range log {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(a.String())
		b.WriteByte('+')
		t := a.At.Unix()
		b.WriteString(strconv.FormatInt(t-prev, 10))
		prev = t
	}
	return b.String()
}

// decodeLog reads what encodeLog wrote.
func decodeLog(base time.Time, text string) ([]Action, error) {
	if text == "" {
		return nil, nil
	}
	log := make([]Action, 0, strings.Count(text, " ")+1)
	prev := base.Unix()
	moves := 0
	for tok := range strings.FieldsSeq(text) {
		i := strings.LastIndexByte(tok, '+')
		if i < 0 {
			return nil, fmt.Errorf("log entry %d %q has no time", len(log)+1, tok)
		}
		delta, err := strconv.ParseInt(tok[i+1:], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("log entry %d %q: bad time: %w", len(log)+1, tok, err)
		}
		prev += delta
		a, err := parseActionToken(tok[:i])
		if err != nil {
			return nil, fmt.Errorf("log entry %d: %w", len(log)+1, err)
		}
		if a.Kind == ActMove {
			a.Side = game.Side(moves % 2)
			moves++
		}
		a.At = time.Unix(prev, 0).UTC()
		log = append(log, a)
	}
	return log, nil
}

func parseActionToken(tok string) (Action, error) {
	if word, side, ok := strings.Cut(tok, ":"); ok {
		side, days, hasDays := strings.Cut(side, ":")
		for k, w := range actionWords {
			if w != "" && w == word {
				s, err := game.ParseSide(side)
				if err != nil {
					return Action{}, fmt.Errorf("%q: %w", tok, err)
				}
				a := Action{Kind: ActionKind(k), Side: s}
				if a.Kind == ActAway {
					secs, err := strconv.ParseInt(days, 10, 64)
					if !hasDays || err != nil || secs <= 0 {
						return Action{}, fmt.Errorf("%q: bad number of seconds", tok)
					}
					a.Away = time.Duration(secs) * time.Second
					return a, nil
				}
				if hasDays {
					if a.Days, err = strconv.Atoi(days); err != nil || a.Days <= 0 {
						return Action{}, fmt.Errorf("%q: bad number of days", tok)
					}
				}
				return a, nil
			}
		}
		return Action{}, fmt.Errorf("%q is not an action", tok)
	}
	if from, i, ok := scanSquare(tok, 0); ok {
		if to, j, ok := scanSquare(tok, i); ok && j == len(tok) {
			return Action{Kind: ActMove, Move: game.Move{From: from, To: to}}, nil
		}
	}
	m, err := game.ParseMove(tok, game.NumberingModern) // infiltrations, and anything unusual
	if err != nil {
		return Action{}, err
	}
	return Action{Kind: ActMove, Move: m}, nil
}

// scanSquare reads an upper-case square ("B4", "J10") at tok[i:]: the fast
// path for the log's own tokens, which a replay reads by the hundred.
func scanSquare(tok string, i int) (game.Square, int, bool) {
	if i+2 > len(tok) || tok[i] < 'A' || tok[i] > 'J' || tok[i+1] < '1' || tok[i+1] > '9' {
		return game.NoSquare, i, false
	}
	col, row, j := int(tok[i]-'A'), int(tok[i+1]-'0'), i+2
	if row == 1 && j < len(tok) && tok[j] == '0' {
		row, j = 10, j+1
	}
	return game.SquareAt(col, row-1), j, true
}
