package ucc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
)

// scripted sets up with the manual's set-up and plays the moves it is given.
type scripted struct {
	moves []game.Move
	views []game.View
}

func (p *scripted) Setup(h Hello) (game.Setup, error) { return ParseSetup(h.Side, manualRows) }

func (p *scripted) Move(v game.View) (game.Move, error) {
	p.views = append(p.views, v)
	if len(p.moves) == 0 {
		return game.Move{}, fmt.Errorf("no move left: %w", game.ErrGameOver)
	}
	m := p.moves[0]
	p.moves = p.moves[1:]
	return m, nil
}

var blueFirstBoard = []string{
	"##########", "##########", "##########", ".#########",
	"#.++..++..", "..++..++..",
	"FB8sB479B8", "BB31555583", "6724898974", "967B669999",
}

var redFirstBoard = []string{
	"FB8sB479B8", "BB31555583", "6724898974", "967B669999",
	"..++..++..", "..++..++..",
	"##########", "##########", "##########", "##########",
}

func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

func TestPlayScripted(t *testing.T) {
	setupOut := lines(manualRows[:]...)
	blueMove := game.Move{From: game.SquareAt(9, 6), To: game.SquareAt(9, 5)}
	redMove := game.Move{From: game.SquareAt(0, 3), To: game.SquareAt(0, 4)}
	tests := []struct {
		name       string
		in         string
		moves      []game.Move
		wantOut    string
		wantResult string
		wantErr    string
	}{
		{
			name:       "Blue answers Red's first move and ends on QUIT",
			in:         lines("BLUE vixen 10 10", "0 3 DOWN OK") + lines(blueFirstBoard...) + lines("9 6 UP OK", "QUIT vixen RED VICTORY 2 148 148"),
			moves:      []game.Move{blueMove},
			wantOut:    setupOut + "9 6 UP\n",
			wantResult: "vixen RED VICTORY 2 148 148",
		},
		{
			name:    "a board that contradicts the moves",
			in:      lines("BLUE vixen 10 10", "0 3 DOWN OK") + lines(append(blueFirstBoard[:3:3], "##########")...),
			wantOut: setupOut,
			wantErr: `board line 4 is "##########", but the moves so far give ".#########"`,
		},
		{
			name:    "the input ends in a board",
			in:      lines("RED vixen 10 10", "START") + lines(redFirstBoard[:5]...),
			wantOut: setupOut,
			wantErr: "the input ended while waiting for the board",
		},
		{
			name:    "the input ends without QUIT",
			in:      lines("RED vixen 10 10", "START") + lines(redFirstBoard...) + lines("0 3 DOWN OK"),
			moves:   []game.Move{redMove},
			wantOut: setupOut + "0 3 DOWN\n",
			wantErr: "the input ended while waiting for a report or QUIT",
		},
		{
			name:    "another board size",
			in:      lines("RED vixen 8 8"),
			wantErr: "only the 10 by 10 board",
		},
		{
			name:    "a report of a move never made",
			in:      lines("RED vixen 10 10", "0 3 DOWN OK"),
			wantOut: setupOut,
			wantErr: "a move we did not make",
		},
		{
			name:    "a report of another move than ours",
			in:      lines("RED vixen 10 10", "START") + lines(redFirstBoard...) + lines("9 3 DOWN OK"),
			moves:   []game.Move{redMove},
			wantOut: setupOut + "0 3 DOWN\n",
			wantErr: `not of our move "0 3 DOWN"`,
		},
		{
			name:    "START to Blue",
			in:      lines("BLUE vixen 10 10", "START"),
			wantOut: setupOut,
			wantErr: "START after the first move or to Blue",
		},
		{
			name:       "a player without a move surrenders",
			in:         lines("RED vixen 10 10", "START") + lines(redFirstBoard...) + lines("QUIT vixen BLUE SURRENDER 1 148 148"),
			wantOut:    setupOut + "SURRENDER\n",
			wantResult: "vixen BLUE SURRENDER 1 148 148",
		},
		{
			name:       "QUIT before the game",
			in:         lines("QUIT"),
			wantResult: "",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			p := &scripted{moves: tc.moves}
			result, err := Play(strings.NewReader(tc.in), &out, game.DefaultRules(game.VariantClassic), p)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("error %v, want one with %q", err, tc.wantErr)
				}
			} else if err != nil || result != tc.wantResult {
				t.Errorf("Play = %q, %v; want %q", result, err, tc.wantResult)
			}
			if out.String() != tc.wantOut {
				t.Errorf("wrote %q, want %q", out.String(), tc.wantOut)
			}
		})
	}
}

// randomPlayer sets up like a person and moves at random.
type randomPlayer struct {
	rng   *rand.Rand
	seed  uint64
	rules game.Rules
}

func (p *randomPlayer) Setup(Hello) (game.Setup, error) {
	return game.RandomSetup(p.rules, p.seed), nil
}

func (p *randomPlayer) Move(v game.View) (game.Move, error) {
	legal, err := v.LegalMoves()
	if err != nil {
		return game.Move{}, err
	}
	return legal[p.rng.IntN(len(legal))], nil
}

// TestPlayAgainstAManager plays whole games between two programs run by Play
// and a manager written with Writer and Reader, refereed by the game: every
// move the programs choose from the views Play keeps must be legal.
func TestPlayAgainstAManager(t *testing.T) {
	rules := game.DefaultRules(game.VariantClassic)
	rules.MaxMoves = 500
	for seed := uint64(1); seed <= 4; seed++ {
		var (
			w    [2]*Writer
			r    [2]*Reader
			done [2]chan error
		)
		results := [2]string{}
		for side := range w {
			toProg, fromMgr := io.Pipe()
			toMgr, fromProg := io.Pipe()
			w[side], r[side] = NewWriter(fromMgr), NewReader(toMgr)
			done[side] = make(chan error, 1)
			p := &randomPlayer{rng: rand.New(rand.NewPCG(seed, uint64(side))), seed: 10*seed + uint64(side), rules: rules}
			go func() {
				res, err := Play(toProg, fromProg, rules, p)
				results[side] = res
				fromProg.Close()
				done[side] <- err
			}()
		}
		var setups [2]game.Setup
		for side := range w {
			if err := w[side].Hello(NewHello(game.Side(side), "random")); err != nil {
				t.Fatal(err)
			}
			var rows [4]string
			for i := range rows {
				var err error
				if rows[i], err = r[side].Line(); err != nil {
					t.Fatal(err)
				}
			}
			var err error
			if setups[side], err = ParseSetup(game.Side(side), rows); err != nil {
				t.Fatal(err)
			}
		}
		g, err := game.NewGame(rules, setups[game.Red], setups[game.Blue])
		if err != nil {
			t.Fatal(err)
		}
		if err := w[game.Red].Start(); err != nil {
			t.Fatal(err)
		}
		for !g.Result().Over() {
			side := g.ToMove()
			v := g.View(game.ViewerOf(side))
			if err := w[side].Board(&v); err != nil {
				t.Fatal(err)
			}
			line, err := r[side].Line()
			if err != nil {
				t.Fatalf("seed %d, ply %d: %v", seed, g.Ply()+1, err)
			}
			m, err := ParseMove(line)
			if err != nil {
				t.Fatal(err)
			}
			rec, err := g.Apply(m)
			if err != nil {
				t.Fatalf("seed %d, ply %d: %s played %q: %v", seed, g.Ply()+1, side, line, err)
			}
			if g.Result().Over() {
				break
			}
			rep, err := ReportOf(rec)
			if err != nil {
				t.Fatal(err)
			}
			for s := range w {
				if err := w[s].Report(rep); err != nil {
					t.Fatal(err)
				}
			}
		}
		result := Result{Name: "random", Side: g.ToMove(), Outcome: DrawDefault, Turn: TurnOf(g.Ply())}.String()
		for side := range w {
			if err := w[side].Quit(result); err != nil {
				t.Fatal(err)
			}
			if err := <-done[side]; err != nil {
				t.Errorf("seed %d: %s's program: %v", seed, game.Side(side), err)
			}
			if results[side] != result {
				t.Errorf("seed %d: %s's program got result %q, want %q", seed, game.Side(side), results[side], result)
			}
		}
		if g.Ply() < 10 {
			t.Errorf("seed %d: only %d plies", seed, g.Ply())
		}
	}
}

func TestReaderLines(t *testing.T) {
	r := NewReader(strings.NewReader("a\r\nb\n\nlast"))
	for _, want := range []string{"a", "b", "", "last"} {
		if got, err := r.Line(); err != nil || got != want {
			t.Errorf("Line() = %q, %v; want %q", got, err, want)
		}
	}
	if _, err := r.Line(); !errors.Is(err, io.EOF) {
		t.Errorf("after the last line: %v", err)
	}
	long := NewReader(strings.NewReader(strings.Repeat("x", 5000) + "\n"))
	if _, err := long.Line(); !errors.Is(err, ErrProtocol) {
		t.Errorf("a 5000-byte line: %v", err)
	}
}
