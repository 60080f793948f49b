package ai

import (
	"math"
	"testing"

	"github.com/strategobot/strategobot/game"
)

// TestBehaviourFeatures checks the features of the hidden pieces after a
// few hand-made moves: a piece that stepped out and back, one that never
// moved though it could, and one whose neighbours all moved.
func TestBehaviourFeatures(t *testing.T) {
	g := frontScoutsGame(t)
	// Blue's front row is row 7. Blue steps the Scout on A7 to A6, back
	// and forth, while Red shuffles its front pieces.
	steps := []struct{ from, to string }{
		{"A4", "A5"}, {"A7", "A6"},
		{"A5", "A4"}, {"A6", "A7"},
		{"B4", "B5"}, {"A7", "A6"},
	}
	for _, s := range steps {
		from, err1 := game.ParseSquare(s.from)
		to, err2 := game.ParseSquare(s.to)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if _, err := g.Apply(game.Move{From: from, To: to}); err != nil {
			t.Fatalf("%s-%s: %v", s.from, s.to, err)
		}
	}
	v := g.View(game.ViewerOf(game.Red))
	k, err := newKnowledgeWith(&v, setupsAndBehaviour, fittedBehaviour)
	if err != nil {
		t.Fatal(err)
	}
	a7, _ := game.ParseSquare("A7")
	j7, _ := game.ParseSquare("J7")
	mover, still := k.startAt[a7], k.startAt[j7]
	ply := len(k.hashes) - 1
	x := k.features(mover, ply, k.oppMoves)
	tests := []struct {
		name string
		got  float64
		want float64
	}{
		{"moved", x[featMoved], 1},
		{"moves", x[featMoves], math.Log1p(3)},
		{"move share", x[featMoveShare], 10},
		{"early", x[featEarly], 1},
		{"recent", x[featRecent], 1},
		{"streak", x[featStreak], math.Log1p(2)},
		{"advance", x[featAdvance], 1.0 / 3},
		{"still late", x[featStillLate], 0},
	}
	for _, tc := range tests {
		if math.Abs(tc.got-tc.want) > 1e-9 {
			t.Errorf("A7's %s = %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	y := k.features(still, ply, k.oppMoves)
	if y[featMoved] != 0 || y[featStillLate] != float64(ply)/200 {
		t.Errorf("J7: moved %v, still late %v; want 0 and %v", y[featMoved], y[featStillLate], float64(ply)/200)
	}
	if y[featIdle] != math.Log1p(3) {
		t.Errorf("J7's idle = %v, want log(1+3): it could have stepped forward on each of Blue's 3 turns", y[featIdle])
	}
}

// TestStoodHidden: a piece that stays where it is when a hidden piece of
// the viewer's has just come next to it counts the time, as a Bomb never
// answers; a piece nothing came next to does not.
func TestStoodHidden(t *testing.T) {
	g := frontScoutsGame(t)
	// A hidden Scout of Red's steps next to Blue's front row twice; Blue
	// moves other pieces each time.
	for _, s := range []string{"A4-A5", "I7-I6", "A5-A6", "I6-I5", "B4-B5", "J7-J6", "B5-B6", "E7-E6"} {
		m, err := game.ParseMove(s, game.NumberingModern)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Apply(m); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	v := g.View(game.ViewerOf(game.Red))
	k, err := newKnowledgeWith(&v, setupsAndBehaviour, fittedBehaviour)
	if err != nil {
		t.Fatal(err)
	}
	ply := len(k.hashes) - 1
	tests := []struct {
		start string
		want  float64
		why   string
	}{
		{"A7", math.Log1p(1), "stayed when A6 came next to it"},
		{"B7", math.Log1p(1), "stayed when B6 came next to it"},
		{"C7", 0, "nothing came next to it"},
		{"E7", 0, "moved, and nothing came next to it"},
		{"I7", 0, "moved on its own"},
	}
	for _, tc := range tests {
		sq, err := game.ParseSquare(tc.start)
		if err != nil {
			t.Fatal(err)
		}
		x := k.features(k.startAt[sq], ply, k.oppMoves)
		if math.Abs(x[featStoodHidden]-tc.want) > 1e-9 {
			t.Errorf("%s: stood hidden = %v, want %v (%s)", tc.start, x[featStoodHidden], tc.want, tc.why)
		}
	}
}

// TestFittedLikelihoodNeutral: a piece with no behaviour features is
// weighed by nothing.
func TestFittedLikelihoodNeutral(t *testing.T) {
	var x [numBehaviourFeatures]float64
	for r, l := range fittedLikelihood(&x) {
		if l != 1 {
			t.Errorf("rank %d weighed %v, want 1", r, l)
		}
	}
}

// BenchmarkBeliefs times reading a mid-game view into beliefs, as hard does
// before each search.
func BenchmarkBeliefs(b *testing.B) {
	var views []game.View
	for seed := uint64(0); len(views) < 8; seed++ {
		g := newGame(b, game.DefaultRules(game.VariantClassic), seed)
		playOut(b, g, [2]*Player{New(Normal, seed), New(Normal, seed+1)}, 40+int(seed)*20)
		if !g.Result().Over() {
			views = append(views, g.View(game.ViewerOf(g.ToMove())))
		}
	}
	indexFor(views[0].Rules)
	for _, m := range []struct {
		name  string
		model behaviourModel
	}{{"hand", handBehaviour}, {"fitted", fittedBehaviour}} {
		b.Run(m.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := newKnowledgeWith(&views[i%len(views)], recognition, m.model); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// frontScoutsGame starts a Classic game in which both sides set up alike:
// Scouts in the front row (Miners on I and J), the Bombs and the Flag in the
// back row.
func frontScoutsGame(t *testing.T) *game.Game {
	t.Helper()
	S, M, L, C, P, N, G := game.Scout, game.Miner, game.Lieutenant, game.Captain, game.Major, game.Colonel, game.Sergeant
	B, F := game.Bomb, game.Flag
	setup := game.Setup{
		{S, S, S, S, S, S, S, S, M, M},
		{M, M, M, G, G, G, G, L, L, L},
		{L, C, C, C, C, P, P, P, N, N},
		{B, B, B, F, B, B, B, game.Marshal, game.General, game.Spy},
	}
	g, err := game.NewGame(game.DefaultRules(game.VariantClassic), setup, setup)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
