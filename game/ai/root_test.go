package ai

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/strategobot/strategobot/game"
)

// TestSpyRisk: hard's root counts what its Marshal stands to lose where a
// move leaves it known to the enemy next to hidden pieces that may be the
// Spy, at least the level's guard chance per piece and twice that next to a
// General it just took (the bait of the textbook), and nothing while the
// Marshal stays hidden.
func TestSpyRisk(t *testing.T) {
	// Blue's General takes a Miner on F6, next to Blue's hidden Spy on F7;
	// Red's hidden Marshal comes next to it on E6.
	g := scripted(t, "10 9 3 3 S F",
		map[string]game.Rank{"E4": game.Marshal, "F4": game.Miner, "A1": game.Flag, "J1": game.Miner, "B1": game.Spy, "C1": game.General},
		map[string]game.Rank{"E7": game.General, "F7": game.Spy, "F10": game.Miner, "J10": game.Miner, "A10": game.Flag, "B10": game.Marshal},
		"F4-F5", "E7-E6", "F5-F6", "E6xF6", "E4-E5", "J10-J9", "E5-E6", "J9-J8")
	tests := []struct {
		name    string
		move    string
		guard   float64
		atLeast float64
		atMost  float64
	}{
		{"take the bait General", "E6xF6", 0.2, 0.4 * 400, 400},
		{"take the bait General, no guard", "E6xF6", 0, 0, 0},
		{"step away, still hidden", "E6-D6", 0.2, 0, 0},
		{"another piece moves", "J1-J2", 0.2, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := redRoot(t, g, 2, 2_000, func(c *config) { c.spyGuard = tc.guard })
			if got := s.spyRisk(rootMove(t, tc.move)); got < tc.atLeast || got > tc.atMost {
				t.Errorf("risk %.1f, want %.1f to %.1f", got, tc.atLeast, tc.atMost)
			}
		})
	}
}

// TestFlagCap: at the root a possible Flag is worth at most the level's
// cap, and only a quarter of it to a piece worth more than a Miner trying a
// piece that never moved, while the player has a Miner.
func TestFlagCap(t *testing.T) {
	// Red's Marshal on E6 and Miner on F6 face Blue's unmoved E7 and F7;
	// Blue's Marshal has walked from J10 to J6.
	g := scripted(t, "10 3 B F",
		map[string]game.Rank{"E4": game.Marshal, "F4": game.Miner, "A1": game.Flag, "B1": game.Bomb},
		map[string]game.Rank{"E7": game.Bomb, "F7": game.Flag, "J10": game.Marshal, "A10": game.Miner},
		"E4-E5", "J10-J9", "E5-E6", "J9-J8", "F4-F5", "J8-J7", "F5-F6", "J7-J6")
	tests := []struct {
		name      string
		move      string
		cheapFlag bool
		want      int32
	}{
		{"Marshal tries an unmoved piece", "E6-E7", true, 250},
		{"Miner tries an unmoved piece", "F6-F7", true, 1000},
		{"Marshal attacks a piece that moved", "E6-J6", true, 1000},
		{"Marshal tries an unmoved piece, level without cheapFlag", "E6-E7", false, 1000},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := redRoot(t, g, 1, 2_000, func(c *config) { c.cheapFlag = tc.cheapFlag })
			if got := s.flagCap(oneGuess(s), rootMove(t, tc.move)); got != tc.want {
				t.Errorf("flag worth at most %d, want %d", got, tc.want)
			}
		})
	}
}

// TestTakeBackRisk: hard's root counts what a Major, Colonel or General the
// enemy knows (or will know after the move's battle) stands to lose next to
// hidden pieces that may beat it, and nothing for pieces still hidden.
func TestTakeBackRisk(t *testing.T) {
	// Red's hidden Colonel on E5 faces two of Blue's hidden pieces that
	// moved: E6 and, beside it, F6 (Blue's Marshal).
	army := "10 8 4 4 4 F"
	red := map[string]game.Rank{"E4": game.Colonel, "A4": game.Sergeant, "A1": game.Flag, "J1": game.Marshal, "B1": game.Sergeant, "C1": game.Sergeant}
	blue := map[string]game.Rank{"E7": game.Sergeant, "F7": game.Marshal, "A10": game.Flag, "J10": game.Sergeant, "B10": game.Colonel, "C10": game.Sergeant}
	hidden := scripted(t, army, red, blue, "E4-E5", "F7-F6", "A4-A5", "E7-E6")
	// Then the Colonel takes E6 (and shows its rank); Blue waits.
	known := scripted(t, army, red, blue, "E4-E5", "F7-F6", "A4-A5", "E7-E6", "E5xE6", "J10-J9")
	// Red's General takes E7 and stands beside Blue's two pieces that never
	// moved; Blue's General has moved, so they can only be its Bomb and Flag.
	besideBombs := scripted(t, "9 4 B F",
		map[string]game.Rank{"E4": game.General, "J1": game.Sergeant, "A1": game.Flag, "B1": game.Bomb},
		map[string]game.Rank{"E7": game.Sergeant, "E8": game.Bomb, "D7": game.Flag, "J10": game.General},
		"E4-E5", "J10-J9", "E5-E6", "J9-J8", "E6xE7", "J8-J7")
	tests := []struct {
		name           string
		g              *game.Game
		move           string
		takeBack       float64
		atLeast, below float64
	}{
		{"hidden Colonel takes a hidden piece beside another", hidden, "E5xE6", 1, 5, 140},
		{"the same, no guard", hidden, "E5xE6", 0, 0, 0},
		{"hidden Colonel steps, still hidden", hidden, "E5-D5", 1, 0, 0},
		{"another piece moves, the Colonel stays hidden", hidden, "A5-A6", 1, 0, 0},
		{"known Colonel stays beside a hidden piece", known, "A5-A6", 1, 5, 140},
		{"known Colonel steps away", known, "E6-D6", 1, 0, 0},
		{"known General beside pieces that can only be a Bomb or the Flag", besideBombs, "J1-J2", 1, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := redRoot(t, tc.g, 2, 2_000, func(c *config) { c.takeBack = tc.takeBack })
			if got := s.takeBackRisk(rootMove(t, tc.move)); got < tc.atLeast || got > tc.below || got == tc.below && got > 0 {
				t.Errorf("risk %.1f, want %.1f up to %.1f", got, tc.atLeast, tc.below)
			}
		})
	}
}

// TestSealedFlag: while the player's Flag is walled in by its own Bombs, a
// known enemy piece near it that cannot get through them (not a Miner) is a
// fifth of the danger; a known Miner, a hidden piece, or any piece near a
// Flag with an open side is the whole danger.
func TestSealedFlag(t *testing.T) {
	army := "10 9 3 S B B F"
	blue := map[string]game.Rank{"A10": game.Flag, "B10": game.Bomb, "A9": game.Bomb, "E7": game.General, "F7": game.Miner, "J10": game.Marshal, "C10": game.Spy}
	// Blue's General takes Red's Miner on E5 and Blue's Miner takes Red's Spy
	// on F4: both are known; Red's Marshal walks up the J file meanwhile.
	moves := []string{"E4-E5", "E7-E6", "J4-J5", "E6xE5", "J5-J6", "F7-F6", "J6-J7", "F6-F5", "J7-J8", "F5xF4"}
	walled := scripted(t, army, map[string]game.Rank{"A1": game.Flag, "B1": game.Bomb, "A2": game.Bomb,
		"E4": game.Miner, "F4": game.Spy, "J4": game.Marshal, "J1": game.General}, blue, moves...)
	open := scripted(t, army, map[string]game.Rank{"A1": game.Flag, "B1": game.Bomb, "C1": game.Bomb,
		"E4": game.Miner, "F4": game.Spy, "J4": game.Marshal, "J1": game.General}, blue, moves...)
	b3, a1 := uint8(21), uint8(0) // B3 is three steps from the Flag on A1
	whole := -int16(flagDanger[distances[b3][a1]])
	tests := []struct {
		name   string
		g      *game.Game
		piece  string // the Blue piece's square now
		sealed float64
		want   int16
	}{
		{"known General, Flag walled in", walled, "E5", 0.2, whole / 5},
		{"known General, Flag walled in, level without it", walled, "E5", 0, whole},
		{"known Miner, Flag walled in", walled, "F4", 0.2, whole},
		{"hidden piece, Flag walled in", walled, "J10", 0.2, whole},
		{"known General, Flag with an open side", open, "E5", 0.2, whole},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := tc.g.View(game.ViewerOf(game.Red))
			k, err := newKnowledge(&v, recognition)
			if err != nil {
				t.Fatal(err)
			}
			cfg := configs[Hard]
			cfg.sealedFlag = tc.sealed
			e := newEvaluator(k, &v, cfg)
			sq, err := game.ParseSquare(tc.piece)
			if err != nil {
				t.Fatal(err)
			}
			id := k.board[sq]
			if id < 0 || sideOf(id) != game.Blue {
				t.Fatalf("no Blue piece on %s", tc.piece)
			}
			if e.field[id] == nil {
				t.Fatalf("the piece on %s has no field", tc.piece)
			}
			if got := e.field[id][b3]; got != tc.want {
				t.Errorf("danger on B3 %d, want %d", got, tc.want)
			}
		})
	}
}

// TestGuard: an enemy piece a few steps from the player's Flag pulls the
// player's pieces that beat it harder than it would elsewhere, if it can get
// to the Flag: a Miner when the Flag is walled in by Bombs, any piece that
// moves when the Flag has an open side. At a level without the guard it
// pulls as anywhere.
func TestGuard(t *testing.T) {
	army := "10 9 3 S B B F"
	blue := map[string]game.Rank{"A10": game.Flag, "B10": game.Bomb, "A9": game.Bomb, "E7": game.General, "A7": game.Miner, "J10": game.Marshal, "C10": game.Spy}
	walledRed := map[string]game.Rank{"A1": game.Flag, "B1": game.Bomb, "A2": game.Bomb,
		"A3": game.Spy, "E4": game.General, "J4": game.Marshal, "J1": game.Miner}
	openRed := map[string]game.Rank{"A1": game.Flag, "B1": game.Bomb, "C1": game.Bomb,
		"A3": game.Spy, "E4": game.General, "J4": game.Marshal, "J1": game.Miner}
	// Blue's Miner walks down the A file and takes Red's Spy on A3, two
	// steps from Red's Flag on A1; Red's Marshal walks up the J file.
	miner := []string{"J4-J5", "A7-A6", "J5-J6", "A6-A5", "J6-J7", "A5-A4", "J7-J8", "A4xA3"}
	// Blue's General walks down and takes Red's Spy on A3, two steps from
	// Red's Flag; Red's Miner walks along the third row.
	general := []string{"J1-J2", "E7-D7", "J2-J3", "D7-C7", "J3-I3", "C7-B7", "I3-H3", "B7-B6",
		"H3-G3", "B6-B5", "G3-F3", "B5-B4", "F3-F4", "B4-A4", "F4-F5", "A4xA3"}
	pull := func(t *testing.T, g *game.Game, guard float64, piece, on string) int16 {
		t.Helper()
		v := g.View(game.ViewerOf(game.Red))
		k, err := newKnowledge(&v, recognition)
		if err != nil {
			t.Fatal(err)
		}
		cfg := configs[Hard]
		cfg.guard = guard
		e := newEvaluator(k, &v, cfg)
		from, err := game.ParseSquare(piece)
		if err != nil {
			t.Fatal(err)
		}
		id := k.board[from]
		if id < 0 || e.field[id] == nil {
			t.Fatalf("Red's piece on %s has no pull", piece)
		}
		sq, err := game.ParseSquare(on)
		if err != nil {
			t.Fatal(err)
		}
		return e.field[id][sq]
	}
	tests := []struct {
		name   string
		red    map[string]game.Rank
		moves  []string
		piece  string // Red's piece whose pull is read
		on     string // the square next to the Blue piece
		guard  float64
		harder bool
	}{
		{"Miner near a Flag walled in", walledRed, miner, "E4", "A4", 300, true},
		{"Miner near a Flag with an open side", openRed, miner, "E4", "A4", 300, true},
		{"Miner near a Flag walled in, a level without the guard", walledRed, miner, "E4", "A4", 0, false},
		{"General near a Flag walled in", walledRed, general, "J4", "A4", 300, false},
		{"General near a Flag with an open side", openRed, general, "J4", "A4", 300, true},
		{"General near a Flag with an open side, a level without the guard", openRed, general, "J4", "A4", 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := scripted(t, army, tc.red, blue, tc.moves...)
			without := pull(t, g, 0, tc.piece, tc.on)
			got := pull(t, g, tc.guard, tc.piece, tc.on)
			if tc.harder && got <= without || !tc.harder && got != without {
				t.Errorf("pull on %s %d, without the guard %d (harder: %v)", tc.on, got, without, tc.harder)
			}
		})
	}
}

// TestFlagInDanger: an enemy piece next to the Flag that nothing can stop
// is no lost game. Where the enemy cannot tell the Flag from the other
// pieces that never moved, it takes it only at the Flag's odds, so hard
// weighs the danger and saves its Colonel from Blue's General; where the
// Flag is the last of them, every move loses to an enemy that can tell, and
// hard plays on as if it could not, saving the Colonel all the same.
func TestFlagInDanger(t *testing.T) {
	blue := map[string]game.Rank{"J10": game.Flag, "A7": game.Marshal, "E7": game.General, "B10": game.Colonel, "C10": game.Miner}
	tests := []struct {
		name  string
		red   map[string]game.Rank
		moves []string
		odds  float64 // the most the Flag's odds may be
	}{
		{
			name:  "among pieces that never moved",
			red:   map[string]game.Rank{"A4": game.Flag, "E4": game.Colonel, "J1": game.Marshal, "I1": game.General, "H1": game.Miner},
			moves: []string{"I1-I2", "A7-A6", "I2-I3", "A6-A5", "I3-I4", "E7-E6", "H1-H2", "E6-E5"},
			odds:  0.5,
		},
		{
			name:  "the last piece that never moved",
			red:   map[string]game.Rank{"A4": game.Flag, "E3": game.Colonel, "J1": game.Marshal, "I1": game.General, "H1": game.Miner},
			moves: []string{"E3-E4", "A7-A6", "J1-J2", "A6-A5", "I1-I2", "E7-E6", "H1-H2", "E6-E5"},
			odds:  1,
		},
	}
	e4, _ := game.ParseSquare("E4")
	e5, _ := game.ParseSquare("E5")
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := scripted(t, "10 9 8 3 F", tc.red, blue, tc.moves...)
			for seed := range uint64(4) {
				m, s, err := New(Hard, seed).WithTimeCap(0).choose(g.View(game.ViewerOf(game.Red)))
				if err != nil {
					t.Fatal(err)
				}
				if s.flagOdds > tc.odds {
					t.Errorf("seed %d: the Flag's odds are %.2f, want at most %.2f", seed, s.flagOdds, tc.odds)
				}
				if m.From != e4 || m.To == e5 || game.Adjacent(m.To, e5) {
					t.Errorf("seed %d: played %v, want the Colonel on E4 away from the General on E5", seed, m)
				}
				if s.flagOdds == 0 {
					t.Errorf("seed %d: the searcher stays blind to the Flag after the move", seed)
				}
			}
		})
	}
}

// TestFlagOdds: the chance the enemy gives the player's Flag is the per-square
// prior of its start square among the player's pieces the enemy has neither
// seen move nor fight; the more of them move, the likelier the Flag is the
// piece they leave, and the last one is surely it.
func TestFlagOdds(t *testing.T) {
	red := map[string]game.Rank{"A1": game.Flag, "B1": game.Marshal, "C1": game.General, "D1": game.Colonel, "E1": game.Miner}
	blue := map[string]game.Rank{"J10": game.Flag, "A7": game.Marshal, "E7": game.General, "B10": game.Colonel, "C10": game.Miner}
	tests := []struct {
		name  string
		moves []string
		still []string // Red's pieces the enemy has not seen move or fight
	}{
		{"before a move", nil, []string{"A1", "B1", "C1", "D1", "E1"}},
		{"two moved", []string{"C1-C2", "A7-A6", "E1-E2", "A6-A5"}, []string{"A1", "B1", "D1"}},
		{"the Flag alone", []string{"C1-C2", "A7-A6", "E1-E2", "A6-A5", "B1-B2", "A5-A4", "D1-D2", "A4-A3"}, []string{"A1"}},
	}
	prev := 0.0
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := scripted(t, "10 9 8 3 F", red, blue, tc.moves...)
			v := g.View(game.ViewerOf(game.Red))
			k, err := newKnowledgeWith(&v, recognition, fittedBehaviour)
			if err != nil {
				t.Fatal(err)
			}
			flag := k.flag()
			odds := k.flagOdds(flag)
			if flag < 0 || k.rank[flag] != game.Flag {
				t.Fatalf("found piece %d as the Flag", flag)
			}
			prior := priorFor(v.Rules)
			var mine, total float64
			for _, name := range tc.still {
				sq, _ := game.ParseSquare(name)
				row, col, _ := game.SetupCell(game.Red, sq)
				p := prior[row][col][game.Flag] + 0.001
				total += p
				if name == "A1" {
					mine = p
				}
			}
			if want := mine / total; math.Abs(odds-want) > 1e-9 {
				t.Errorf("odds %.4f, want %.4f", odds, want)
			}
			if odds <= prev {
				t.Errorf("odds %.4f, not above %.4f with more pieces left", odds, prev)
			}
			prev = odds
		})
	}
	if prev != 1 {
		t.Errorf("the last piece is the Flag with odds %v, want 1", prev)
	}
}

// redRoot is hard's searcher after choosing Red's move in g, with a small
// budget, samples guesses and the level's settings changed by tune.
func redRoot(t *testing.T, g *game.Game, samples, budget int, tune func(*config)) *searcher {
	t.Helper()
	p := New(Hard, 1)
	p.cfg.timeCap, p.cfg.nodeBudget, p.cfg.samples = 0, budget, samples
	tune(&p.cfg)
	_, s, err := p.choose(g.View(game.ViewerOf(game.Red)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// oneGuess is a guess of the hidden pieces drawn from s's beliefs, the same
// in every run, ready to search.
func oneGuess(s *searcher) *world {
	return s.guessWorld(rand.New(rand.NewPCG(1, 1)))
}

// rootMove is the move text names, in modern numbering.
func rootMove(t *testing.T, text string) move {
	t.Helper()
	m, err := game.ParseMove(text, game.NumberingModern)
	if err != nil {
		t.Fatal(err)
	}
	return fromGame(m)
}
