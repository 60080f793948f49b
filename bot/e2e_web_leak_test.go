package bot

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
)

// pageRecorder records every state the web board sends a player's page
// (bob's) and the public's, from the moment the match exists: the set-up
// phase included.
type pageRecorder struct {
	mu  sync.Mutex
	saw [2][]string // bob's, the public's
}

// prepare turns the web board on in h and opens the two pages once the
// challenge is accepted.
func (r *pageRecorder) prepare(t *testing.T) func(h *harness) {
	return func(h *harness) {
		base := webOn(t, h)
		h.challenged = append(h.challenged, func() {
			h.outboxEmpty() // the invites (and a thread) are out
			r.open(t, h, base, h.bob, game.Blue)
		})
	}
}

// open opens the pages of match 1 of member, who plays side, and of the
// public on the web board served at base, and records what they receive.
func (r *pageRecorder) open(t *testing.T, h *harness, base string, member *discordtest.Member, side game.Side) {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	m := h.match(1)
	links := [2]string{
		h.bot.boardLink(m, game.ViewerOf(side), h.bot.settingsOf(ctx, member.ID).LinkGen),
		h.bot.boardLink(m, game.PublicViewer, 0),
	}
	for k, link := range links {
		events := webEvents(t, ctx, base, link)
		go func() {
			for e := range events {
				r.mu.Lock()
				r.saw[k] = append(r.saw[k], e)
				r.mu.Unlock()
			}
		}()
	}
}

// waitFor waits until the player's page has received a state that holds
// want: a state that lasts a moment (an offer, a pause, a vacation) may
// otherwise be overtaken, on a busy machine, before the page reads it.
func (r *pageRecorder) waitFor(t *testing.T, want string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		r.mu.Lock()
		got := slices.ContainsFunc(r.saw[0], func(e string) bool { return strings.Contains(e, want) })
		r.mu.Unlock()
		if got {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the player's page never got %s", want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// final waits until both pages have the finished match's state, and returns
// every state each received.
func (r *pageRecorder) final(t *testing.T) [2][]string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		r.mu.Lock()
		done := true
		for _, saw := range r.saw {
			done = done && len(saw) > 0 && strings.Contains(saw[len(saw)-1], `"result":`)
		}
		out := [2][]string{slices.Clone(r.saw[0]), slices.Clone(r.saw[1])}
		r.mu.Unlock()
		if done {
			return out
		}
		if time.Now().After(deadline) {
			t.Fatalf("the pages never got the final state: %d and %d states", len(out[0]), len(out[1]))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

var (
	basisRE    = regexp.MustCompile(`"basis":"[^"]*"`)
	deadlineRE = regexp.MustCompile(`"deadline":\d+,`)
	runningRE  = regexp.MustCompile(`"running":(true|false)`)
)

// samePages compares what one page received in two runs. A clock's start
// races with the next move (a player may move before the delivery of their
// board is recorded, and then their clock never starts) and with the move's
// own state, so a page gets a position's state with its deadline, without,
// or both, whatever is hidden: the states are compared in order with their
// clocks left out, and each position's state with its clock running wherever
// both runs have one.
func samePages(t *testing.T, who string, a, b []string) {
	t.Helper()
	sameSight(t, who, [2][]string{untimed(a), untimed(b)})
	ta, tb := timed(a), timed(b)
	for basis, sa := range ta {
		if sb, ok := tb[basis]; ok && sa != sb {
			t.Errorf("%s saw something of Red's hidden pieces in a running clock:\n  %s\n  %s", who, sa, sb)
		}
	}
	if len(ta) < 3 || len(tb) < 3 {
		t.Errorf("%s: only %d and %d states with a running clock: the comparison proves little", who, len(ta), len(tb))
	}
}

// untimed returns states without their clocks, a state that repeats the
// one before it left out.
func untimed(states []string) []string {
	var out []string
	for _, s := range states {
		s = runningRE.ReplaceAllString(deadlineRE.ReplaceAllString(s, ""), `"running":_`)
		if len(out) == 0 || out[len(out)-1] != s {
			out = append(out, s)
		}
	}
	return out
}

// timed maps each position (its basis) to its last state with a deadline.
func timed(states []string) map[string]string {
	out := map[string]string{}
	for _, s := range states {
		if deadlineRE.MatchString(s) {
			out[basisRE.FindString(s)] = s
		}
	}
	return out
}

// TestWebPagesLeakNothing is the leak comparison over the bot's real path
// with the web board on: the scripted Classic match, played twice with Red's
// hidden pieces shuffled, in each board mode. Every state Bob's page and the
// public page receive, from the set-up phase to the end, is byte for byte
// the same (samePages: the clocks' start races with the moves).
func TestWebPagesLeakNothing(t *testing.T) {
	t.Parallel()
	red := leakRed(t)
	for _, mode := range []string{"", "thread", "live"} {
		t.Run("mode "+mode, func(t *testing.T) {
			t.Parallel()
			var saw [2][2][]string // run, then bob's and the public's
			bothWays(t, red, marshalAndBombSwapped(red), func(t *testing.T, k int, setup game.Setup) {
				rec := &pageRecorder{}
				prepare := []func(*harness){rec.prepare(t)}
				if mode != "" {
					prepare = append(prepare, boardMode(t, mode))
				}
				playClassic(t, setup, prepare...)
				saw[k] = rec.final(t)
				if len(saw[k][0]) < 8 || len(saw[k][1]) < 8 {
					t.Fatalf("too little to compare: bob's page got %d states, the public's %d", len(saw[k][0]), len(saw[k][1]))
				}
			})
			if t.Failed() {
				return
			}
			samePages(t, "Bob's page", saw[0][0], saw[1][0])
			samePages(t, "the public page", saw[0][1], saw[1][1])
		})
	}
}
