package bot

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage"
)

// TestWebPause: the web board's Pause, Decline and Propose a pause take the
// path of /stratego pause and its DM's buttons: the same stored actions, the
// same DMs to both players and notice in the channel, and the same refusals
// (a proposal withdrawn or changed since the page showed it, a match paused
// already, a game on the clock, the proposer accepting their own).
func TestWebPause(t *testing.T) {
	t.Parallel()
	day := 24 * time.Hour
	nl := lang.For("nl")
	tests := []struct {
		name  string
		clock discordtest.Arg
		// What alice does on Discord first: propose these days, then, with
		// again, withdraw it and propose again for those days.
		offer, again int
		bobAccepts   bool // on Discord, before bob's request
		// The request, by bob's link (alice's with byAlice).
		byAlice bool
		locale  string // bob's language
		body    string
		code    int
		reply   string // in the refusal
		without string // not in the refusal
		paused  time.Duration
		// What each is told after, by DM (alice, bob) and in the channel.
		alice, bob, channel string
	}{
		{
			name: "accept", clock: discordtest.Opt("move_time", "24h"), offer: 3,
			body: `{"answer":"accept","days":3}`, code: 200, paused: 3 * day,
			alice: "paused by agreement until <t:UNTIL:f>", bob: "paused by agreement until <t:UNTIL:f>", channel: "paused by agreement until <t:UNTIL:f>",
		},
		{
			name: "decline", clock: discordtest.Opt("move_time", "24h"), offer: 3,
			body: `{"answer":"decline","days":3}`, code: 200, alice: "bob declined the pause; the game goes on.",
		},
		{
			// As /stratego pause action:decline by the proposer: no one is
			// told (the opponent's page shows the proposal gone).
			name: "the proposer withdraws", clock: discordtest.Opt("move_time", "24h"), offer: 3, byAlice: true,
			body: `{"answer":"decline","days":3}`, code: 200,
		},
		{
			name: "propose", clock: discordtest.Opt("move_time", "24h"),
			body: `{"answer":"propose","days":5}`, code: 200, alice: "bob proposes to pause the match for 5 days",
		},
		{
			// Bob proposes other days while alice's proposal stands: hers
			// is answered first, not replaced.
			name: "a proposal for other days while alice's stands", clock: discordtest.Opt("move_time", "24h"), offer: 3,
			body: `{"answer":"propose","days":5}`, code: 409,
			reply: "alice has proposed to pause the match for 3 days: accept or decline that proposal first, with the buttons Accept pause and Decline pause on this page.",
			// The page has buttons of its own: not Discord's message's, nor a command.
			without: "/stratego",
		},
		{
			name: "a proposal for other days while alice's stands, in Dutch", clock: discordtest.Opt("move_time", "24h"), offer: 3, locale: "nl",
			body: `{"answer":"propose","days":5}`, code: 409,
			reply: nl.Sprintf(txtPauseOfferStandsPage, "alice", nl.Sprintf(txtDays, 3)), without: "/stratego",
		},
		{
			// The same days: both want that pause, which is agreed.
			name: "a proposal for the days alice proposed", clock: discordtest.Opt("move_time", "24h"), offer: 3,
			body: `{"answer":"propose","days":3}`, code: 200, paused: 3 * day,
			alice: "paused by agreement until <t:UNTIL:f>", bob: "paused by agreement until <t:UNTIL:f>", channel: "paused by agreement until <t:UNTIL:f>",
		},
		{
			name: "the proposal changed", clock: discordtest.Opt("move_time", "24h"), offer: 3, again: 5,
			body: `{"answer":"accept","days":3}`, code: 409,
			reply: "That proposal was withdrawn: alice now proposes to pause for 5 days.",
		},
		{
			name: "the proposal changed, in Dutch", clock: discordtest.Opt("move_time", "24h"), offer: 3, again: 5, locale: "nl",
			body: `{"answer":"decline","days":3}`, code: 409,
			reply: nl.Sprintf(txtPauseOfferChanged, "alice", nl.Sprintf(txtDays, 5)),
		},
		{
			// Her old page withdraws her proposal of 3 days, withdrawn
			// and made again for 5 in another: the one bob was asked
			// about last stands.
			name: "the proposer's old page withdraws", clock: discordtest.Opt("move_time", "24h"), offer: 3, again: 5, byAlice: true,
			body: `{"answer":"decline","days":3}`, code: 409,
			reply: "That proposal was withdrawn: your own proposal to pause for 5 days stands now, and was not withdrawn.",
		},
		{
			name: "paused already", clock: discordtest.Opt("move_time", "24h"), offer: 3, bobAccepts: true,
			body: `{"answer":"accept","days":3}`, code: 409, paused: 3 * day,
			reply: "The match is paused by agreement until <t:UNTILMS:f>",
		},
		{
			name: "the proposer accepts", clock: discordtest.Opt("move_time", "24h"), offer: 3, byAlice: true,
			body: `{"answer":"accept","days":3}`, code: 403, reply: "Your opponent accepts or declines.",
		},
		{
			name: "a game on the clock", clock: discordtest.Opt("clock", "5+3"),
			body: `{"answer":"propose","days":3}`, code: 409, reply: "Only matches of a day or more a move can pause",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			base := webOn(t, h)
			h.challenge("Classic", tc.clock)
			sergeant := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant})
			h.sendSetups(sergeant, sergeant)
			h.waitMoves(1, 0)
			link := openBoardLink(t, h.bob.WaitDM(t, contains("Send me your secret set-up")))
			if tc.byAlice {
				link = openBoardLink(t, h.alice.WaitDM(t, contains("Send me your secret set-up")))
			}
			if tc.offer > 0 {
				h.alice.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("days", tc.offer)).Reply(t)
			}
			if tc.again > 0 {
				h.alice.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("action", "decline")).Reply(t)
				h.alice.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("days", tc.again)).Reply(t)
			}
			if tc.bobAccepts {
				h.bob.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("action", "accept")).Reply(t)
			}
			if tc.locale != "" {
				if _, err := h.db.UpdatePlayer(t.Context(), h.bob.ID, func(p *storage.PlayerSettings) error { p.Locale = tc.locale; return nil }); err != nil {
					t.Fatal(err)
				}
			}
			h.bot.deliverDue(t.Context())
			before := h.match(1)
			dms := [2]int{len(h.alice.DMs()), len(h.bob.DMs())}

			code, body := apiStatus(t, base, link, "POST", "/api/pause", tc.body)
			var refused struct{ Error string }
			if code != http.StatusOK {
				if err := json.Unmarshal([]byte(body), &refused); err != nil {
					t.Fatalf("the refusal %q: %v", body, err)
				}
			}
			h.bot.deliverDue(t.Context())
			m := h.match(1)
			var paused time.Duration
			if until := m.PausedUntil(); !until.IsZero() {
				paused = until.Sub(h.clock.Now())
			}
			marks := strings.NewReplacer("UNTILMS", strconv.FormatInt(m.PausedUntil().UnixMilli(), 10), "UNTIL", strconv.FormatInt(m.PausedUntil().Unix(), 10))
			if code != tc.code || !strings.Contains(refused.Error, marks.Replace(tc.reply)) {
				t.Fatalf("the page's request answered %d %s, want %d with %q", code, body, tc.code, marks.Replace(tc.reply))
			}
			if tc.without != "" && strings.Contains(refused.Error, tc.without) {
				t.Errorf("the page's refusal %q says %q", refused.Error, tc.without)
			}
			if code != http.StatusOK && m.Version != before.Version {
				t.Errorf("the refused request changed the match: version %d, was %d", m.Version, before.Version)
			}
			if paused != tc.paused {
				t.Errorf("paused for %v from now, want %v", paused, tc.paused)
			}
			if by, days, ok := m.PauseOffer(); ok && code == http.StatusOK && strings.Contains(tc.body, "decline") {
				t.Errorf("a proposal stands after the page's decline: %v's of %d days", by, days)
			}
			if tc.name == "the proposer withdraws" {
				if now := [2]int{len(h.alice.DMs()), len(h.bob.DMs())}; now != dms {
					t.Errorf("DMs (alice, bob) %v after the withdrawal, were %v: no one is told, as on Discord", now, dms)
				}
			}
			if tc.alice != "" {
				h.alice.WaitDM(t, contains(marks.Replace(tc.alice)))
			}
			if tc.bob != "" {
				h.bob.WaitDM(t, contains(marks.Replace(tc.bob)))
			}
			if tc.channel != "" {
				h.channelSays(marks.Replace(tc.channel))
			}
			if tc.name == "propose" {
				// Alice answers the page's proposal with her DM's button, as one made on Discord.
				ask := h.alice.WaitDM(t, contains("bob proposes to pause"))
				h.alice.ClickButton(t, ask, button(t, ask, "Pause")).Reply(t)
				h.bot.deliverDue(t.Context())
				h.bob.WaitDM(t, contains("paused by agreement until"))
				h.channelSays("paused by agreement until")
				if got := h.match(1).PausedUntil().Sub(h.clock.Now()); got != 5*day {
					t.Errorf("alice's acceptance paused the match for %v, want 5 days", got)
				}
			}
		})
	}
}
