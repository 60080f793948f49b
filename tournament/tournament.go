package tournament

import (
	"errors"
	"fmt"
	"slices"
	"sort"
)

// Status is where a tournament stands.
type Status uint8

// The statuses of a tournament.
const (
	Registering     Status = iota // players join; no round paired yet
	Running                       // rounds are being played
	Finished                      // every round is paired and complete
	CancelledStatus               // a moderator cancelled it
)

// String describes the status.
func (s Status) String() string {
	switch s {
	case Registering:
		return "registering"
	case Running:
		return "running"
	case Finished:
		return "finished"
	case CancelledStatus:
		return "cancelled"
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// Player is an entrant as the tournament knows them.
type Player struct {
	ID     string
	Rating int
	// Seed is the pairing number from 1, fixed by rating (then by order of
	// joining) when the first round is paired; 0 before.
	Seed      int
	Withdrawn bool
	Reason    WithdrawReason // why they withdrew
	// WithdrewIn is the round that was current when they withdrew (0: before
	// any round was paired, which can only show for a player still listed).
	WithdrewIn int
}

// Refusals callers can test with errors.Is; every refusal reads as a reason.
var (
	ErrStarted       = errors.New("the tournament has already begun")
	ErrNotStarted    = errors.New("the tournament has not begun")
	ErrOver          = errors.New("the tournament is over")
	ErrUnknownPlayer = errors.New("no such player in this tournament")
	ErrRoundOpen     = errors.New("the current round still has games to finish")
)

// Tournament is a tournament's state, built from its rules and the log of
// its events, the way a game is built from its moves: the same log always
// gives the same state. Apply adds an event; Log returns them all.
type Tournament struct {
	rules   Rules
	players []Player // join order while registering, seed order once begun
	index   map[string]int
	rounds  []Round
	total   int // rounds in all, known once begun
	over    bool
	log     []Event
}

// New returns a tournament with no players, or the rules' first fault.
func New(rules Rules) (*Tournament, error) {
	if err := rules.Validate(); err != nil {
		return nil, err
	}
	return &Tournament{rules: rules, index: map[string]int{}}, nil
}

// Replay rebuilds a tournament from its rules and log. It refuses a log any
// of whose events Apply would refuse, with a *LogError naming the first.
func Replay(rules Rules, log []Event) (*Tournament, error) {
	t, err := New(rules)
	if err != nil {
		return nil, err
	}
	for i, e := range log {
		if err := t.Apply(e); err != nil {
			return nil, &LogError{Index: i, Event: e, Err: err}
		}
	}
	return t, nil
}

// Version returns the number of events applied: storage can keep it beside
// the log to refuse a write made from an older state.
func (t *Tournament) Version() int { return len(t.log) }

// Rules returns the tournament's rules.
func (t *Tournament) Rules() Rules { return t.rules }

// Log returns a copy of the events applied so far.
func (t *Tournament) Log() []Event {
	out := make([]Event, len(t.log))
	for i, e := range t.log {
		e.Games = append([]Pairing(nil), e.Games...)
		out[i] = e
	}
	return out
}

// Players returns the players, withdrawn ones included, in join order while
// registering and in seed order once begun.
func (t *Tournament) Players() []Player { return append([]Player(nil), t.players...) }

// Player returns the player with the given ID.
func (t *Tournament) Player(id string) (Player, bool) {
	i, ok := t.index[id]
	if !ok {
		return Player{}, false
	}
	return t.players[i], true
}

// Rounds returns the rounds paired so far.
func (t *Tournament) Rounds() []Round {
	out := make([]Round, len(t.rounds))
	for i, r := range t.rounds {
		r.Games = append([]Pairing(nil), r.Games...)
		out[i] = r
	}
	return out
}

// TotalRounds returns how many rounds the tournament has: for Swiss the
// rules' number, capped once begun by SwissRoundsAtMost; for a round robin
// the schedule's length (0 before it begins).
func (t *Tournament) TotalRounds() int {
	if t.rules.Format == Swiss && len(t.rounds) == 0 {
		return t.rules.Rounds
	}
	return t.total
}

// SwissRoundsAtMost is the most rounds a Swiss event of n players can have
// with no two players meeting twice: as many as a round robin of them, n-1
// when n is even, n when it is odd (each then has one bye).
func SwissRoundsAtMost(n int) int { return RoundRobinRounds(n, false) }

// Status returns where the tournament stands.
func (t *Tournament) Status() Status {
	switch {
	case t.over:
		return CancelledStatus
	case len(t.rounds) == 0:
		return Registering
	case len(t.rounds) == t.total && t.AllPairedComplete():
		return Finished
	}
	return Running
}

// AllPairedComplete reports whether every game of the rounds paired so far
// has a result: when a round is played at a time, the next round is due;
// when a round robin is played all at once, it is over.
func (t *Tournament) AllPairedComplete() bool {
	for _, r := range t.rounds {
		if !r.Complete() {
			return false
		}
	}
	return true
}

// allAtOnce reports whether every round is paired at the start and played
// together (Rules.AllAtOnce).
func (t *Tournament) allAtOnce() bool { return t.rules.Format == RoundRobin && t.rules.AllAtOnce }

// Active returns the IDs of the players still in, in seed order once begun.
func (t *Tournament) Active() []string {
	var out []string
	for _, p := range t.players {
		if !p.Withdrawn {
			out = append(out, p.ID)
		}
	}
	return out
}

// Apply adds an event, or refuses it with a reason and changes nothing.
func (t *Tournament) Apply(e Event) error {
	var err error
	switch e.Kind {
	case Joined:
		err = t.join(e)
	case Withdrew:
		err = t.withdraw(e)
	case Paired:
		err = t.pair(e)
	case Recorded:
		err = t.record(e)
	case Closed:
		err = t.close(e)
	case Cancelled:
		err = t.cancel()
	default:
		err = fmt.Errorf("unknown kind of event %d", e.Kind)
	}
	if err != nil {
		return err
	}
	e.Games = append([]Pairing(nil), e.Games...)
	t.log = append(t.log, e)
	return nil
}

// MaxIDLength is the longest player ID accepted.
const MaxIDLength = 100

func (t *Tournament) join(e Event) error {
	switch {
	case t.Status() != Registering:
		if t.over {
			return ErrOver
		}
		return fmt.Errorf("%s cannot join: %w", e.Player, ErrStarted)
	case e.Player == "" || len(e.Player) > MaxIDLength:
		return fmt.Errorf("a player ID has 1 to %d characters", MaxIDLength)
	case len(t.players) >= MaxPlayers:
		return fmt.Errorf("the tournament is full (%d players)", MaxPlayers)
	}
	if _, ok := t.index[e.Player]; ok {
		return fmt.Errorf("%s has already joined", e.Player)
	}
	t.index[e.Player] = len(t.players)
	t.players = append(t.players, Player{ID: e.Player, Rating: e.Rating})
	return nil
}

func (t *Tournament) withdraw(e Event) error {
	i, ok := t.index[e.Player]
	switch {
	case t.over || t.Status() == Finished:
		return ErrOver
	case !ok:
		return fmt.Errorf("%s: %w", e.Player, ErrUnknownPlayer)
	case t.players[i].Withdrawn:
		return fmt.Errorf("%s has already withdrawn", e.Player)
	case e.Reason > Removed:
		return fmt.Errorf("unknown reason for withdrawing %d", e.Reason)
	}
	if len(t.rounds) == 0 {
		t.players = append(t.players[:i], t.players[i+1:]...)
		t.reindex()
		return nil
	}
	p := &t.players[i]
	p.Withdrawn, p.Reason, p.WithdrewIn = true, e.Reason, len(t.rounds)
	// Every round, not only the latest: played all at once, the player
	// has games on in all of them (played a round at a time, the earlier
	// rounds are complete).
	for r := range t.rounds {
		games := t.rounds[r].Games
		for b, g := range games {
			if g.Result == Pending && g.Has(p.ID) {
				games[b].Result = t.forfeit(g)
			}
		}
	}
	return nil
}

// forfeit returns the result of a game one or both of whose players withdrew.
func (t *Tournament) forfeit(g Pairing) Result {
	red, blue := t.withdrawn(g.Red), t.withdrawn(g.Blue)
	switch {
	case red && blue:
		return DoubleForfeit
	case red:
		return RedForfeited
	case blue:
		return BlueForfeited
	}
	return g.Result
}

func (t *Tournament) withdrawn(id string) bool {
	i, ok := t.index[id]
	return ok && t.players[i].Withdrawn
}

func (t *Tournament) reindex() {
	clear(t.index)
	for i, p := range t.players {
		t.index[p.ID] = i
	}
}

func (t *Tournament) pair(e Event) error {
	if err := t.canPair(); err != nil {
		return err
	}
	number := len(t.rounds) + 1
	if e.Round != number {
		return fmt.Errorf("the next round is round %d, not %d", number, e.Round)
	}
	starting := len(t.rounds) == 0
	if starting && len(t.players) < 2 {
		return errors.New("a tournament needs at least two players")
	}
	if len(e.Games) == 0 {
		return errors.New("a round needs at least one pairing")
	}
	seen := map[string]bool{}
	byes := 0
	for _, g := range e.Games {
		if g.Result != Pending && !(g.IsBye() && g.Result == ByeResult) {
			return fmt.Errorf("a new pairing cannot already have a result (%s)", g)
		}
		for _, id := range []string{g.Red, g.Blue} {
			if id == "" {
				continue
			}
			i, ok := t.index[id]
			if !ok {
				return fmt.Errorf("%s: %w", id, ErrUnknownPlayer)
			}
			if seen[id] {
				return fmt.Errorf("%s is paired twice in round %d", id, number)
			}
			seen[id] = true
			if t.players[i].Withdrawn && (t.rules.Format == Swiss || g.IsBye()) {
				return fmt.Errorf("%s has withdrawn and cannot be paired", id)
			}
		}
		switch {
		case g.Red == "":
			return errors.New("a pairing without a Red player")
		case g.IsBye():
			byes++
		}
	}
	if byes > 1 {
		return fmt.Errorf("round %d has %d byes; at most one player sits out", number, byes)
	}
	for _, p := range t.players {
		if !p.Withdrawn && !seen[p.ID] {
			return fmt.Errorf("%s is not paired in round %d", p.ID, number)
		}
	}
	if starting {
		t.seed()
	}
	r := Round{Number: number, Games: append([]Pairing(nil), e.Games...)}
	for i, g := range r.Games {
		if g.IsBye() {
			r.Games[i].Result = ByeResult
		} else {
			r.Games[i].Result = t.forfeit(g)
		}
	}
	t.rounds = append(t.rounds, r)
	return nil
}

// canPair says why the next round cannot be paired yet.
func (t *Tournament) canPair() error {
	switch t.Status() {
	case CancelledStatus, Finished:
		return ErrOver
	}
	if n := len(t.rounds); n > 0 {
		if !t.rounds[n-1].Complete() && !t.allAtOnce() {
			return fmt.Errorf("round %d cannot be paired: %w", n+1, ErrRoundOpen)
		}
		if n >= t.total {
			return ErrOver
		}
	}
	return nil
}

// seed fixes the pairing numbers: rating, then order of joining.
func (t *Tournament) seed() {
	sort.SliceStable(t.players, func(i, j int) bool { return t.players[i].Rating > t.players[j].Rating })
	for i := range t.players {
		t.players[i].Seed = i + 1
	}
	t.reindex()
	t.total = min(t.rules.Rounds, SwissRoundsAtMost(len(t.players)))
	if t.rules.Format == RoundRobin {
		t.total = RoundRobinRounds(len(t.players), t.rules.Double)
	}
}

func (t *Tournament) record(e Event) error {
	if t.over {
		return ErrOver
	}
	if len(t.rounds) == 0 {
		return ErrNotStarted
	}
	if e.Round < 1 || e.Round > len(t.rounds) {
		return fmt.Errorf("there is no round %d", e.Round)
	}
	if e.Round != len(t.rounds) && !t.allAtOnce() {
		return fmt.Errorf("round %d is over; only results of round %d can be recorded or corrected", e.Round, len(t.rounds))
	}
	r := &t.rounds[e.Round-1]
	if e.Board < 1 || e.Board > len(r.Games) {
		return fmt.Errorf("round %d has no board %d", e.Round, e.Board)
	}
	g := &r.Games[e.Board-1]
	switch {
	case g.IsBye():
		return fmt.Errorf("board %d of round %d is a bye, not a game", e.Board, e.Round)
	case e.Result == Pending || e.Result == ByeResult || !e.Result.Valid():
		return fmt.Errorf("%s is not the result of a game", e.Result)
	}
	g.Result = e.Result
	return nil
}

func (t *Tournament) close(e Event) error {
	switch {
	case t.over:
		return ErrOver
	case len(t.rounds) == 0:
		return ErrNotStarted
	case e.Round == 0:
		return t.closeAll(e)
	case t.allAtOnce():
		return errors.New("a round robin played all at once closes every round together, at its one deadline")
	case e.Round != len(t.rounds):
		return fmt.Errorf("only the current round, %d, can be closed, not %d", len(t.rounds), e.Round)
	}
	r := t.rounds[e.Round-1 : e.Round]
	if r[0].Closed {
		return fmt.Errorf("round %d is already closed", e.Round)
	}
	notBegun, err := notBegunBoards(r, e.Games)
	if err != nil {
		return fmt.Errorf("closing round %d: %w", e.Round, err)
	}
	scoreAtDeadline(r, notBegun)
	return nil
}

// closeAll closes every round of a round robin played all at once, at its
// one deadline; all its rounds are paired by then.
func (t *Tournament) closeAll(e Event) error {
	switch {
	case !t.allAtOnce():
		return errors.New("only a round robin played all at once closes every round together")
	case len(t.rounds) != t.total:
		return fmt.Errorf("%d of %d rounds are paired; every round must be before the deadline", len(t.rounds), t.total)
	case t.rounds[0].Closed:
		return errors.New("the rounds are already closed")
	}
	notBegun, err := notBegunBoards(t.rounds, e.Games)
	if err != nil {
		return fmt.Errorf("closing the rounds: %w", err)
	}
	scoreAtDeadline(t.rounds, notBegun)
	return nil
}

// board names a board of a tournament: rounds[Round].Games[Board], from 0.
type board struct{ Round, Board int }

// scoreAtDeadline closes the rounds: each game still pending is
// Adjudicated, or takes its result from notBegun.
func scoreAtDeadline(rounds []Round, notBegun map[board]Result) {
	for r := range rounds {
		games := rounds[r].Games
		for b, g := range games {
			if g.Result != Pending {
				continue
			}
			games[b].Result = Adjudicated
			if res, ok := notBegun[board{r, b}]; ok {
				games[b].Result = res
			}
		}
		rounds[r].Closed = true
	}
}

// notBegunBoards finds the boards of the rounds' games that a Closed event
// says had not begun, with their results; it refuses a game that is not a
// pending game of the rounds, or a result a game not begun cannot have.
func notBegunBoards(rounds []Round, games []Pairing) (map[board]Result, error) {
	out := make(map[board]Result, len(games))
	for _, g := range games {
		switch g.Result {
		case RedForfeited, BlueForfeited, DoubleForfeit, NotBegun:
		default:
			return nil, fmt.Errorf("a game not begun cannot be %s", g.Result)
		}
		at, ok := findGame(rounds, g.Red, g.Blue)
		switch _, seen := out[at]; {
		case !ok:
			return nil, fmt.Errorf("%s – %s is no game of the round", g.Red, g.Blue)
		case rounds[at.Round].Games[at.Board].Result != Pending:
			return nil, fmt.Errorf("%s – %s already has a result", g.Red, g.Blue)
		case seen:
			return nil, fmt.Errorf("%s – %s is listed twice", g.Red, g.Blue)
		}
		out[at] = g.Result
	}
	return out, nil
}

// findGame finds the game red plays against blue with those colours.
func findGame(rounds []Round, red, blue string) (board, bool) {
	for r, round := range rounds {
		b := slices.IndexFunc(round.Games, func(x Pairing) bool { return x.Red == red && x.Blue == blue && !x.IsBye() })
		if b >= 0 {
			return board{r, b}, true
		}
	}
	return board{}, false
}

func (t *Tournament) cancel() error {
	switch t.Status() {
	case CancelledStatus:
		return errors.New("the tournament is already cancelled")
	case Finished:
		return ErrOver
	}
	t.over = true
	return nil
}

// NextRound returns the Paired event for the next round, which the caller
// applies (and stores): the round robin's next round of the schedule made
// from the seeds, a withdrawn player's bye left out; or the Swiss pairing of
// the players still in (PairSwissRound). It refuses while the current round has
// games to finish (unless a round robin is played all at once), once the
// tournament is over, and when no legal pairing exists (ErrNoPairing).
func (t *Tournament) NextRound() (Event, error) {
	if err := t.canPair(); err != nil {
		return Event{}, err
	}
	number := len(t.rounds) + 1
	active := t.Active()
	if len(t.rounds) == 0 && len(active) < 2 {
		return Event{}, errors.New("a tournament needs at least two players")
	}
	var games []Pairing
	switch t.rules.Format {
	case RoundRobin:
		ids := make([]string, len(t.players))
		order := t.players
		if len(t.rounds) == 0 {
			order = append([]Player(nil), t.players...)
			sort.SliceStable(order, func(i, j int) bool { return order[i].Rating > order[j].Rating })
		}
		for i, p := range order {
			ids[i] = p.ID
		}
		for _, g := range RoundRobinRound(ids, t.rules.Double, number-1) {
			if g.IsBye() && t.withdrawn(g.Red) {
				continue
			}
			games = append(games, g)
		}
		if len(games) == 0 {
			// Only a withdrawn player's bye: an empty round cannot be
			// stored, so the round is a bye nobody takes.
			return Event{}, errors.New("everyone left in this round has withdrawn")
		}
	case Swiss:
		if len(active) < 2 {
			return Event{}, errors.New("fewer than two players are left to pair")
		}
		var err error
		games, err = PairSwissRound(t.SwissPlayers(), t.NextSwissRound())
		if err != nil {
			return Event{}, fmt.Errorf("round %d: %w", number, err)
		}
	}
	return Event{Kind: Paired, Round: number, Games: games}, nil
}

// NextSwissRound returns what the pairing of a Swiss event's next round
// needs to know beyond its players (NextRound pairs with it): how many
// rounds come after it, whether it is the final one, and the most a player
// could have scored so far.
func (t *Tournament) NextSwissRound() SwissRound {
	number := len(t.rounds) + 1
	total := t.TotalRounds()
	if len(t.rounds) == 0 {
		total = min(total, SwissRoundsAtMost(len(t.Active()))) // as seed will cap it
	}
	return SwissRound{Later: total - number, Final: number >= total, MaxScore: Points(number-1) * max(t.rules.Win, t.rules.Draw)}
}

// PairAll returns the Paired events of every round not yet paired, in
// order, for a round robin played all at once (Rules.AllAtOnce): the caller
// applies and stores them together, at the start.
func (t *Tournament) PairAll() ([]Event, error) {
	if !t.allAtOnce() {
		return nil, errors.New("only a round robin played all at once pairs every round at the start")
	}
	if err := t.canPair(); err != nil {
		return nil, err
	}
	ahead, err := Replay(t.rules, t.log)
	if err != nil {
		return nil, err
	}
	var out []Event
	for len(ahead.rounds) == 0 || len(ahead.rounds) < ahead.total {
		e, err := ahead.NextRound()
		if err != nil {
			return nil, err
		}
		if err := ahead.Apply(e); err != nil {
			return nil, fmt.Errorf("round %d: %w", e.Round, err)
		}
		out = append(out, e)
	}
	return out, nil
}

// SwissPlayers returns what PairSwissRound needs to know of each player still in.
func (t *Tournament) SwissPlayers() []SwissPlayer {
	points := t.points()
	floats := t.floats()
	var out []SwissPlayer
	for _, p := range t.players {
		if p.Withdrawn {
			continue
		}
		sp := SwissPlayer{ID: p.ID, Seed: p.Seed, Score: points[p.ID], Floats: floats[p.ID]}
		for _, r := range t.rounds {
			for _, g := range r.Games {
				c, ok := g.ColourOf(p.ID)
				if !ok {
					continue
				}
				switch {
				case g.IsBye():
					sp.HadBye = true
				default:
					sp.Opponents = append(sp.Opponents, g.Opponent(p.ID))
					if g.Result.Played() {
						sp.Colours = append(sp.Colours, c)
					}
					if c == Red && g.Result == BlueForfeited || c == Blue && g.Result == RedForfeited {
						sp.ForfeitWin = true
					}
				}
			}
		}
		out = append(out, sp)
	}
	if len(t.rounds) == 0 {
		sort.SliceStable(out, func(i, j int) bool {
			return t.players[t.index[out[i].ID]].Rating > t.players[t.index[out[j].ID]].Rating
		})
		for i := range out {
			out[i].Seed = i + 1
		}
	}
	return out
}

// floats returns every player's float in each round so far, oldest first,
// as FIDE's Dutch system counts them: down for meeting a lower score (the
// scores before the round) or scoring without playing, up for meeting a
// higher one.
func (t *Tournament) floats() map[string][]Float {
	out := make(map[string][]Float, len(t.players))
	for _, p := range t.players {
		out[p.ID] = make([]Float, len(t.rounds))
	}
	pts := make(map[string]Points, len(t.players))
	for k, r := range t.rounds {
		for _, g := range r.Games {
			red, blue := g.Result.Points(t.rules)
			switch {
			case g.IsBye():
				if red > 0 {
					out[g.Red][k] = FloatedDown
				}
			case !g.Result.Played():
				if red > 0 {
					out[g.Red][k] = FloatedDown
				}
				if blue > 0 {
					out[g.Blue][k] = FloatedDown
				}
			case pts[g.Red] > pts[g.Blue]:
				out[g.Red][k], out[g.Blue][k] = FloatedDown, FloatedUp
			case pts[g.Red] < pts[g.Blue]:
				out[g.Red][k], out[g.Blue][k] = FloatedUp, FloatedDown
			}
		}
		t.addPoints(pts, r)
	}
	return out
}

// points returns every player's score so far.
func (t *Tournament) points() map[string]Points {
	pts := make(map[string]Points, len(t.players))
	for _, r := range t.rounds {
		t.addPoints(pts, r)
	}
	return pts
}

// addPoints adds what each player scored in round r to pts.
func (t *Tournament) addPoints(pts map[string]Points, r Round) {
	for _, g := range r.Games {
		red, blue := g.Result.Points(t.rules)
		pts[g.Red] += red
		if !g.IsBye() {
			pts[g.Blue] += blue
		}
	}
}
