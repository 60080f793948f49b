package bot

import (
	"context"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/gametest"
	"github.com/strategobot/strategobot/storage"
)

// TestComputerWithNoMoveResigns: a practice match stored as under way
// whose replay leaves the computer no legal move (its record older than
// the repetition rules' stricter reading) ends with the computer's
// resignation: it waited for a move it could never choose, logging an
// error at every try, and held one of the member's practice places.
func TestComputerWithNoMoveResigns(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := context.Background()
	// Red, the computer, has a Captain between Bombs: A2-A1 and back are
	// its only moves, and the Two-Squares rule now forbids the next one.
	start := gametest.Scripted(t, gametest.CustomRules(t, "6 B B B F"),
		map[string]game.Rank{"A1": game.Captain, "B1": game.Bomb, "B2": game.Bomb, "A3": game.Bomb, "J1": game.Flag},
		map[string]game.Rank{"A7": game.Captain, "E10": game.Bomb, "F10": game.Bomb, "G10": game.Bomb, "J10": game.Flag})
	m := &storage.Match{GuildID: h.guild.ID, ChannelID: h.channel.ID, Rules: start.Rules(), MoveTime: 24 * time.Hour,
		Casual: true, Computer: "easy", Phase: storage.PhaseSetup, Created: h.clock.Now()}
	m.Players[game.Red] = storage.Player{UserID: h.bot.botUserID(), Name: "the computer"}
	m.Players[game.Blue] = storage.Player{UserID: h.alice.ID, Name: h.alice.Name}
	var c storage.Changes
	for side := game.Red; side <= game.Blue; side++ {
		if _, err := c.SetSetup(m, side, start.Setup(side), storage.SetupConfirmed, h.clock.Now()); err != nil {
			t.Fatal(err)
		}
	}
	at := h.clock.Now()
	for i, text := range []string{"A1-A2", "A7-A6", "A2-A1", "A6-A5", "A1-A2", "A5-A4"} {
		mv, err := game.ParseMove(text, game.NumberingModern)
		if err != nil {
			t.Fatal(err)
		}
		m.Log = append(m.Log, storage.Action{Kind: storage.ActMove, Side: game.Side(i % 2), Move: mv, At: at})
	}
	stored, err := h.db.CreateMatch(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	if stored.Phase != storage.PhasePlaying {
		t.Fatalf("stored as %s, want under way", stored.Phase)
	}
	h.advance(stored.Deadline.Sub(h.clock.Now())) // its turn's timer, which asks the computer
	h.srv.WaitFor(t, "the computer to resign", func() bool { return h.match(stored.ID).Phase == storage.PhaseFinished })
	if got := h.match(stored.ID).Result; got.Outcome != game.BlueWon || got.Method != game.Resignation {
		t.Errorf("the match ended %v, want Blue's win by the computer's resignation", got)
	}
}
