package web

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"strings"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// State is everything a page is sent about a match, for one viewer. It is
// built only from that viewer's game.View (the same view the pictures are
// drawn from), the match's public facts (names, phase, clocks) and, for a
// player, their own set-up and their own legal moves: nothing the viewer's
// picture does not show.
type State struct {
	Match uint64 `json:"match"`
	// Basis names what the state shows, its clocks aside (basisOf); a
	// player's page sends it back with an action. The match's version is
	// never sent: it counts changes the viewer cannot see, such as the
	// other side's drafts, so its jumps would tell how often they came.
	Basis   string    `json:"basis"`
	Viewer  string    `json:"viewer"` // "red", "blue" or "public"
	Variant string    `json:"variant"`
	Phase   string    `json:"phase"` // "setup", "playing", "over", "abandoned"
	Players [2]string `json:"players"`
	// Ready says, per side, whether its set-up is confirmed.
	Ready [2]bool `json:"ready"`
	// Setup is the viewer's own draft or confirmed set-up (rows from the
	// viewer's back row, ranks as numbers), during the set-up phase only.
	Setup *[game.SetupRows][10]int `json:"setup,omitempty"`
	Army  []int                    `json:"army"` // count per rank, indexed by rank number

	Board      []CellJSON `json:"board,omitempty"` // 100 squares, a1 = index 0
	ToMove     string     `json:"toMove,omitempty"`
	History    []MoveJSON `json:"history,omitempty"`
	Captured   [2][]int   `json:"captured"`
	Legal      [][2]int   `json:"legal,omitempty"`      // the viewer's legal moves (from, to) when it is their turn
	Infiltrate [][2]int   `json:"infiltrate,omitempty"` // the viewer's legal infiltrations (from, to), each open to any guess
	// Pad is spaces that bring Legal and Infiltrate, with their keys, to
	// a length that tells nothing (padLegal).
	Pad    string     `json:"pad,omitempty"`
	Result string     `json:"result,omitempty"`
	Draw   string     `json:"drawOfferBy,omitempty"`
	Clock  *ClockJSON `json:"clock,omitempty"`
	// Deadline is when whoever must act runs out of time (Unix
	// milliseconds) while a clock counts (ClockRunning); in set-up while
	// the invites are on their way, the earliest the set-ups can be due, as
	// the invites show it (Match.DeadlineToShow); else 0.
	Deadline int64 `json:"deadline,omitempty"`
	// Stopped is, with Deadline, when a pause agreed or a vacation that
	// stops that clock ends (Match.StoppedUntil; Unix milliseconds): till
	// then the time left stands still. 0, or a time past: nothing stops it.
	Stopped int64 `json:"stopped,omitempty"`
	// Now is the server's time (Unix milliseconds) when the state was sent:
	// the page counts down to Deadline on its own clock, corrected by the
	// difference. It is the same for every viewer and says nothing of the match.
	Now int64 `json:"now,omitempty"`
	// Time is what the Discord board says of the match's time besides the
	// clocks (the bot's timeLines): a pause by agreement, vacations, gifts
	// of time; to a player also a standing proposal to pause and the gifts
	// they have left. Nil when there is nothing to say.
	Time *TimeJSON `json:"time,omitempty"`

	// provisionalFrom, when not zero, marks a Deadline counted from the
	// time the state was built (a set-up waiting for its invites): the
	// set-up time after that time, or after the end of a vacation that
	// stops the set-up clock, whichever is later. It is that time: of the
	// deadline the viewer learns only how far from it it is (Sent).
	provisionalFrom time.Time
}

// TimeJSON is what stops or adds to a match's time, as the Discord board
// and its notices say it. Instants are Unix milliseconds, which the page
// shows in its reader's own time zone. A spectator is sent what the
// channel's board says (the pause, the vacations, the gifts); a proposal to
// pause and the gifts left, only the players.
type TimeJSON struct {
	// Paused is when the pause the players agreed to ends; 0: none.
	Paused int64 `json:"paused,omitempty"`
	// Away is when each side's vacation ends, by side; 0: not away.
	Away [2]int64 `json:"away"`
	// Gifts counts the times each side gave the other more time, once one
	// has and while the match is on (the board's "Time given" line).
	Gifts *[2]int `json:"gifts,omitempty"`
	// Offer is a standing proposal to pause, told the players only.
	Offer *PauseOfferJSON `json:"offer,omitempty"`
	// GiftsLeft is how often the viewer, a player, may still give the
	// opponent more time; with CanGive, whether they may now (the match
	// in play, and not against the computer). The page offers its Give
	// time button only when both allow.
	GiftsLeft int  `json:"giftsLeft,omitempty"`
	CanGive   bool `json:"canGive,omitempty"`
	// CanPause says the viewer, a player, may propose a pause now: a
	// correspondence match in play, neither against the computer nor of a
	// tournament, neither paused nor with a proposal standing, and the
	// viewer has proposals left (storage.MaxPauseOffers).
	CanPause bool `json:"canPause,omitempty"`
}

// PauseOfferJSON is a proposal to pause: who made it, for how many days.
type PauseOfferJSON struct {
	By   string `json:"by"`
	Days int    `json:"days"`
}

// timeOf builds what viewer is told of m's time besides the clocks (State.Time),
// from the storage facts the Discord board reads; nil when there is nothing
// to say. over says the game has ended (a result, though the phase may lag).
func timeOf(m *storage.Match, viewer game.Viewer, over bool) *TimeJSON {
	if !m.Phase.Active() || over {
		return nil
	}
	t := &TimeJSON{}
	if until := m.PausedUntil(); !until.IsZero() {
		t.Paused = until.UnixMilli()
	}
	said := t.Paused != 0
	for s := range t.Away {
		if back := m.VacationUntil(game.Side(s)); !back.IsZero() {
			t.Away[s], said = back.UnixMilli(), true
		}
	}
	if red, blue := m.GiftsBy(game.Red), m.GiftsBy(game.Blue); red+blue > 0 {
		t.Gifts, said = &[2]int{red, blue}, true
	}
	if side, ok := viewer.IsPlayer(); ok && m.Phase == storage.PhasePlaying {
		by, days, offered := m.PauseOffer()
		if offered {
			t.Offer = &PauseOfferJSON{By: sideName(by), Days: days}
		}
		// A tournament's game goes on to its round's deadline: no pause.
		t.CanPause = !offered && t.Paused == 0 && m.Correspondence() && !m.Practice() && !m.ForTournament() &&
			m.PauseOffersBy(side) < storage.MaxPauseOffers
		t.GiftsLeft = storage.MaxGifts - m.GiftsBy(side)
		t.CanGive = !m.Practice()
		said = true
	}
	if !said {
		return nil
	}
	return t
}

// CellJSON is one square as the viewer knows it; an empty square is {}.
type CellJSON struct {
	Side     string `json:"s,omitempty"`
	Rank     uint8  `json:"r,omitempty"` // 0: not known to the viewer
	Moved    bool   `json:"m,omitempty"`
	Scout    bool   `json:"k,omitempty"`
	Revealed bool   `json:"v,omitempty"`
}

// MoveJSON is one played move, with what it revealed to everyone.
type MoveJSON struct {
	Side     string `json:"s"`
	From     uint8  `json:"f"`
	To       uint8  `json:"t"`
	Guess    uint8  `json:"g,omitempty"`
	Outcome  uint8  `json:"o,omitempty"`
	Attacker uint8  `json:"a,omitempty"`
	Defender uint8  `json:"d,omitempty"`
}

// ClockJSON is a match clock: each side's time left, in milliseconds, at the
// match's last change, and whether it runs for the side to move.
type ClockJSON struct {
	Left    [2]int64 `json:"left"`
	Running bool     `json:"running"`
}

func sideName(s game.Side) string {
	if s == game.Blue {
		return "blue"
	}
	return "red"
}

func viewerName(v game.Viewer) string {
	if s, ok := v.IsPlayer(); ok {
		return sideName(s)
	}
	return "public"
}

func phaseName(p storage.Phase) string {
	switch p {
	case storage.PhaseSetup:
		return "setup"
	case storage.PhasePlaying:
		return "playing"
	case storage.PhaseAbandoned:
		return "abandoned"
	}
	return "over"
}

func armyJSON(a game.Army) []int {
	out := make([]int, len(a))
	for i, n := range a {
		out[i] = int(n)
	}
	return out
}

// BuildState builds viewer's state of m at now. g is m's game (nil before
// both set-ups are confirmed): the one snapshot of the change, replayed once
// by the caller. Only g.View(viewer) and, for the player to move, g's legal
// moves (which depend on nothing the player cannot see) are read from it.
// now matters only to a set-up whose clock waits for the invites: its
// deadline is provisional, the earliest it can be from now.
func BuildState(m *storage.Match, g *game.Game, viewer game.Viewer, now time.Time) *State {
	st := &State{
		Match:   uint64(m.ID),
		Viewer:  viewerName(viewer),
		Variant: m.Rules.Variant.String(),
		Phase:   phaseName(m.Phase),
		Players: [2]string{m.Players[game.Red].Name, m.Players[game.Blue].Name},
		Army:    armyJSON(m.Rules.Army),
	}
	for s := range st.Ready {
		st.Ready[s] = m.Setups[s].Status == storage.SetupConfirmed
	}
	if m.ClockRunning() {
		st.Deadline = m.Deadline.UnixMilli()
		if until := m.StoppedUntil(); !until.IsZero() {
			st.Stopped = until.UnixMilli()
		}
	} else if m.Phase == storage.PhaseSetup && m.ClockPending {
		// The set-up invites are on their way: the deadline each shows.
		// (In play, the board of the side to move is on its way, and it
		// shows the deadline itself.)
		st.Deadline, st.provisionalFrom = m.DeadlineToShow(now).UnixMilli(), now
		if until := m.StoppedUntil(); until.After(now) {
			st.provisionalFrom = until
		}
	}
	side, isPlayer := viewer.IsPlayer()
	if m.Phase == storage.PhaseSetup && isPlayer && m.Setups[side].Status != storage.SetupNone {
		var rows [game.SetupRows][10]int
		for r, row := range m.Setups[side].Setup {
			for c, rank := range row {
				rows[r][c] = int(rank)
			}
		}
		st.Setup = &rows
	}
	if m.Clock.Base > 0 {
		st.Clock = &ClockJSON{Left: [2]int64{m.Left[0].Milliseconds(), m.Left[1].Milliseconds()}, Running: m.Phase == storage.PhasePlaying && m.ClockRunning()}
	}
	if g == nil {
		st.Time = timeOf(m, viewer, false)
		st.Basis = basisOf(st)
		return st
	}
	v := g.View(viewer)
	st.ToMove = sideName(v.ToMove)
	st.Board = make([]CellJSON, game.NumSquares)
	for i, c := range v.Board {
		if !c.Occupied {
			continue
		}
		st.Board[i] = CellJSON{Side: sideName(c.Side), Rank: uint8(c.Rank), Moved: c.Moved, Scout: c.KnownScout, Revealed: c.Revealed}
	}
	for _, r := range v.History {
		st.History = append(st.History, MoveJSON{
			Side: sideName(r.Side), From: uint8(r.Move.From), To: uint8(r.Move.To), Guess: uint8(r.Move.Guess),
			Outcome: uint8(r.Outcome), Attacker: uint8(r.Attacker), Defender: uint8(r.Defender),
		})
	}
	for s := range st.Captured {
		st.Captured[s] = armyJSON(v.Captured[s])
	}
	if v.Result.Over() {
		st.Result = v.Result.String()
	}
	if v.DrawOffered {
		st.Draw = sideName(v.DrawOfferBy)
	}
	if isPlayer && side == v.ToMove && !v.Result.Over() && m.Phase == storage.PhasePlaying {
		seen := map[[2]int]bool{}
		for _, mv := range g.LegalMoves() {
			if mv.IsInfiltration() {
				if ft := [2]int{int(mv.From), int(mv.To)}; !seen[ft] {
					seen[ft] = true
					st.Infiltrate = append(st.Infiltrate, ft)
				}
				continue
			}
			st.Legal = append(st.Legal, [2]int{int(mv.From), int(mv.To)})
		}
		padLegal(st)
	}
	st.Time = timeOf(m, viewer, v.Result.Over())
	st.Basis = basisOf(st)
	return st
}

// legalBudget is how many bytes of a state's JSON its legal moves and
// infiltrations, with their keys and Pad, fill together: more than any
// position's moves take, so that every state of the side to move is as long
// as its moves aside. How many moves a player has depends on their hidden
// pieces (which can move at all, which are Scouts, where the Infiltrator
// stands), and the length of a state is seen by whoever sees the page's
// traffic but not its bytes: the network's TLS records, the size column of
// the reverse proxy's access log.
const legalBudget = 4096

// padLegal sets st.Pad so that st's legal moves and infiltrations, with
// their keys and the pad, take legalBudget bytes of its JSON, or the next
// multiple of it in a position of more moves than any game gives.
func padLegal(st *State) {
	used := len(`,"pad":""`) + fieldLength(`legal`, st.Legal) + fieldLength(`infiltrate`, st.Infiltrate)
	budget := legalBudget
	for budget <= used { // an empty pad would drop its key
		budget += legalBudget
	}
	st.Pad = strings.Repeat(" ", budget-used)
}

// fieldLength is how many bytes moves, a field of State under key that
// its JSON leaves out when empty, take there, with its key.
func fieldLength(key string, moves [][2]int) int {
	if len(moves) == 0 {
		return 0
	}
	b, err := json.Marshal(moves)
	if err != nil {
		panic(err) // pairs of ints: cannot fail
	}
	return len(`,"":`) + len(key) + len(b)
}

// basisOf names what st shows of the match, its clocks aside: a player acts
// on the board as they saw it, and a clock's start or a pause does not
// change the board (Basis), nor does a gift of time, a vacation or a
// proposal to pause (Time).
func basisOf(st *State) string {
	c := *st
	c.Clock, c.Deadline, c.Stopped, c.Now, c.Basis, c.Time = nil, 0, 0, 0, "", nil
	sum := sha256.Sum256(c.Encode())
	return base64.RawURLEncoding.EncodeToString(sum[:12])
}

// Sent returns the state's JSON as sent at now, and its key: a digest of
// what the viewer learns from it, the time aside, so that a stream can skip
// a change that tells its viewer nothing new (a change of the other side's
// draft, say, whose timing alone would be a side channel). A provisional
// deadline enters the key as its distance from the time it is counted
// from (provisionalFrom: now, or a vacation's end), which stays the same
// as the time passes, the vacation's end included: its moving with the
// time tells nothing, and neither does the moment a change came, however
// the deadline moved since the last state sent. now must be the time the
// state was built at.
func (st *State) Sent(now time.Time) (data []byte, key [sha256.Size]byte) {
	deadline := st.Deadline
	if !st.provisionalFrom.IsZero() {
		st.Deadline -= st.provisionalFrom.UnixMilli()
	}
	st.Now = 0
	key = sha256.Sum256(st.Encode())
	st.Deadline, st.Now = deadline, now.UnixMilli()
	return st.Encode(), key
}

// Encode returns the state as the JSON the page receives.
func (st *State) Encode() []byte {
	b, err := json.Marshal(st)
	if err != nil {
		panic(err) // only plain fields: cannot fail
	}
	return b
}
