package storage

import (
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
)

// TestPlanSeekMeets: a seek whose Meets is set pairs only with a waiting
// seek it names, the oldest such, and its match is played in the channel
// named; without Meets it pairs with the oldest, in its own channel. A
// match played elsewhere than the new seek's channel is announced there by
// a notice (Announce): no answer to the new seek shows it. A waiting seek
// Meets does not name, made in the new seek's own channel (placed after the
// bot looked at the queue, by a member who sought at the same moment),
// pairs there, where both sought; before, the two waited side by side,
// each compatible with the other, until a third came.
func TestPlanSeekMeets(t *testing.T) {
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	seek := func(user, channel string, created time.Time) *Seek {
		return &Seek{GuildID: "g", ChannelID: channel, Player: Player{UserID: user, Name: user},
			TimeClass: "24h", Rules: game.DefaultRules(game.VariantClassic), MoveTime: 24 * time.Hour,
			Rating: 1500, Created: created, Expires: created.Add(time.Hour)}
	}
	queue := []*Seek{seek("a", "x", base), seek("b", "z", base.Add(time.Second))}
	// d sought in c's channel y after the bot looked at the queue for c.
	sameChannel := append(queue[:len(queue):len(queue)], seek("d", "y", base.Add(2*time.Second)))
	for _, tc := range []struct {
		name             string
		queue            []*Seek // nil: queue
		meets            map[string]string
		partner, channel string // "" partner: the new seek waits
	}{
		{"no Meets: the oldest, here", nil, nil, "a", "y"},
		{"the oldest, in its channel", nil, map[string]string{"a": "x"}, "a", "x"},
		{"the oldest not named: the next", nil, map[string]string{"b": "y"}, "b", "y"},
		{"none named: it waits", nil, map[string]string{}, "", ""},
		{"none named, one made here: it pairs here", sameChannel, map[string]string{}, "d", "y"},
		{"one named first", sameChannel, map[string]string{"b": "z"}, "b", "z"},
		{"one made here, named not to meet: it waits", sameChannel, map[string]string{"d": ""}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := seek("c", "y", base.Add(time.Minute))
			s.Meets = tc.meets
			q := queue
			if tc.queue != nil {
				q = tc.queue
			}
			plan, err := Changes{}.PlanSeek(q, s, game.Red)
			if err != nil {
				t.Fatal(err)
			}
			out := plan.Outcome
			switch {
			case tc.partner == "" && (out.Match != nil || out.Seek == nil):
				t.Fatalf("the seek was paired with %+v, want it waiting", out.Partner)
			case tc.partner == "":
				return
			case out.Match == nil || out.Partner.Player.UserID != tc.partner:
				t.Fatalf("the seek was paired with %+v, want %s", out.Partner, tc.partner)
			case out.Match.ChannelID != tc.channel:
				t.Errorf("the match is in %q, want %q", out.Match.ChannelID, tc.channel)
			}
			elsewhere := tc.channel != s.ChannelID
			if out.Match.Announce != elsewhere {
				t.Errorf("the match in %q, the seek in %q: Announce %v", out.Match.ChannelID, s.ChannelID, out.Match.Announce)
			}
			public := 0
			for _, n := range Notices(nil, out.Match, s.Created) {
				if n.To == AudiencePublic {
					public++
					if n.Event != EventCreated || n.StartsClock {
						t.Errorf("the channel's notice of the new match: %s, starts the clock %v", n.Event, n.StartsClock)
					}
				}
			}
			if want := map[bool]int{true: 1}[elsewhere]; public != want {
				t.Errorf("the new match owes the channel %d notices, want %d", public, want)
			}
		})
	}
}
