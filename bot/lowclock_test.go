package bot

import (
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage"
)

// TestLowClockPictures: a board's picture warns of a clock below an eighth
// of its base time, kept between 30 s and 2 minutes (lowOnTime), each side's
// on its own; a match without a clock warns of nothing.
func TestLowClockPictures(t *testing.T) {
	t.Parallel()
	st := discordgo.NewState()
	session := &discordgo.Session{State: st, StateEnabled: true}
	if err := st.OnInterface(session, &discordgo.Ready{User: &discordgo.User{ID: "9"}}); err != nil {
		t.Fatal(err)
	}
	b := &Bot{s: session}
	clock := func(base, inc time.Duration) storage.TimeControl {
		return storage.TimeControl{Base: base, Increment: inc}
	}
	for _, tc := range []struct {
		name      string
		clock     storage.TimeControl
		red, blue time.Duration
		want      [2]bool
	}{
		{"no clock", storage.TimeControl{}, 5 * time.Second, 0, [2]bool{}},
		{"1+0: 30 s is the floor", clock(time.Minute, 0), 29 * time.Second, 30 * time.Second, [2]bool{true, false}},
		{"10+5: an eighth is 75 s", clock(10*time.Minute, 5*time.Second), 76 * time.Second, 74 * time.Second, [2]bool{false, true}},
		{"3 h: 2 min is the ceiling", clock(3*time.Hour, 0), 119 * time.Second, 20 * time.Minute, [2]bool{true, false}},
		{"both low", clock(5*time.Minute, 0), 0, 10 * time.Second, [2]bool{true, true}},
		{"neither", clock(5*time.Minute, 0), 5 * time.Minute, 38 * time.Second, [2]bool{false, false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &storage.Match{Clock: tc.clock}
			m.Left[game.Red], m.Left[game.Blue] = tc.red, tc.blue
			o := b.pictureOptions(lang.For("en"), m, game.NumberingModern)
			if o.LowClocks != tc.want {
				t.Errorf("clocks %v and %v on %s: low %v, want %v", tc.red, tc.blue, tc.clock, o.LowClocks, tc.want)
			}
		})
	}
}
