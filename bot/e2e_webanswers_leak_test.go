package bot

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/web"
)

// webClients numbers the clients of webAnswer's requests: each comes from
// an address of its own, so that no rate limit answers one of them, which
// would depend on how fast the run went and not on what it shows.
var webClients atomic.Uint32

// webAnswer is everything a client reads of one answer of the web board to
// the request of link's viewer: its status, the headers that say anything
// of it, and its body.
func webAnswer(t *testing.T, base, link, method, path, body string) string {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, base+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	_, token, _ := strings.Cut(link, "#")
	req.Header.Set(web.CapabilityHeader, token)
	n := webClients.Add(1)
	req.Header.Set("X-Forwarded-For", fmt.Sprintf("10.%d.%d.%d", n>>16&255, n>>8&255, n&255))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var headers []string
	for k, v := range resp.Header {
		if k != "Date" {
			headers = append(headers, k+": "+strings.Join(v, ", "))
		}
	}
	slices.Sort(headers)
	return fmt.Sprintf("%s %s → %d %d bytes %v %s", method, path, resp.StatusCode, resp.ContentLength, headers, b)
}

// ownRandom is the set-up of a Random answer.
var ownRandom = regexp.MustCompile(`\{"setup":\[[][0-9,]*\]\}`)

// basisField reads a state's Basis.
var basisField = regexp.MustCompile(`"basis":"([^"]*)"`)

// TestWebAnswersLeakNothing is the leak comparison of the web board's
// answers over the bot's real path, the Actor's refusals included: a day
// match played twice with Red's hidden pieces shuffled, in which Bob's link
// and the public's ask, at each step, for the state, the texts, every
// replay frame, the reveal and the record before the end, and Bob's link
// tries what a curious player would (a move of Red's piece, a move too far,
// one onto Red's hidden pieces' squares, one on an old board, a set-up, a
// random one, its check, his saved set-ups). Every answer, status, headers
// and body, is byte for byte the same in both runs.
func TestWebAnswersLeakNothing(t *testing.T) {
	t.Parallel()
	red := leakRed(t)
	var saw [2][]string
	bothWays(t, red, marshalAndBombSwapped(red), func(t *testing.T, k int, setup game.Setup) {
		h := newHarness(t)
		base := webOn(t, h)
		h.challenge("Classic", discordtest.Opt("move_time", "24h"))
		h.outboxEmpty()
		ctx := context.Background()
		m := h.match(1)
		bob := h.bot.boardLink(m, game.BlueViewer, h.bot.settingsOf(ctx, h.bob.ID).LinkGen)
		public := h.bot.boardLink(m, game.PublicViewer, 0)
		var answers []string
		ask := func(link, method, path, body string) string {
			a := webAnswer(t, base, link, method, path, body)
			answers = append(answers, a)
			return a
		}
		basis := func() string {
			st := ask(bob, "GET", "/api/state", "")
			b := basisField.FindStringSubmatch(st)
			if b == nil {
				t.Fatalf("no basis in %s", st)
			}
			return b[1]
		}
		look := func(plies int) {
			t.Helper()
			for _, link := range []string{bob, public} {
				ask(link, "GET", "/api/state", "")
				ask(link, "GET", "/api/texts?lang=fr", "")
				for ply := 0; ply <= plies; ply++ {
					ask(link, "GET", fmt.Sprintf("/api/replay?ply=%d", ply), "")
				}
				ask(link, "GET", "/api/reveal", "")
				ask(link, "GET", "/api/record", "")
			}
			ask(bob, "GET", "/api/setups", "")
			ask(bob, "POST", "/api/check", `{"setup":[[0,0,0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0,0,0]]}`)
			// Bob's moves that break the rules, and moves of Red's pieces:
			// its back row's hidden ones, its front row, one that moved.
			b := basis()
			for _, mv := range []string{"A7-B7", "J7-J5", "J7-I6", "A6-A5", "A1-A2", "B1-B2", "C1-C2", "B1-C1", "B2-B1", "A5-A6", "E4-E7", "A4-A5", "B4-B5"} {
				ask(bob, "POST", "/api/move", fmt.Sprintf(`{"basis":%q,"from":%d,"to":%d}`, b, sq(t, mv[:2]), sq(t, mv[3:])))
			}
			ask(bob, "POST", "/api/move", fmt.Sprintf(`{"basis":"old","from":%d,"to":%d}`, sq(t, "J7"), sq(t, "J6")))
			// Last, as it leaves Bob's draft: drawn from the match's secret,
			// which each run draws anew, it is Bob's own.
			answers = append(answers, ownRandom.ReplaceAllString(webAnswer(t, base, bob, "POST", "/api/random", "{}"), `{"setup":<Bob's own>}`))
		}
		// In the set-up phase, Red's set-up in and Bob's not yet.
		h.alice.WaitDM(t, contains("Send me your secret set-up"))
		h.alice.SendDM(t, game.FormatSetup(setup, game.NumberingModern))
		preview := h.alice.WaitDM(t, contains("Your set-up for match"))
		h.alice.ClickButton(t, preview, button(t, preview, "Confirm")).Reply(t)
		h.outboxEmpty()
		look(0)
		blue := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant, {0, 5}: game.Flag})
		rows := make([]string, 0, 4)
		for _, row := range blue {
			var cells []string
			for _, r := range row {
				cells = append(cells, fmt.Sprint(int(r)))
			}
			rows = append(rows, "["+strings.Join(cells, ",")+"]")
		}
		ask(bob, "POST", "/api/setup", `{"setup":[`+strings.Join(rows, ",")+`],"confirm":true}`)
		h.waitMoves(1, 0)
		h.outboxEmpty()
		look(0)
		// Red moves; Bob looks and tries, then moves by the web board.
		h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
		h.waitMoves(1, 1)
		h.outboxEmpty()
		look(1)
		if a := ask(bob, "POST", "/api/move", fmt.Sprintf(`{"basis":%q,"from":%d,"to":%d}`, basis(), sq(t, "J7"), sq(t, "J6"))); !strings.Contains(a, `"ok":true`) {
			t.Fatalf("bob's move by the web board: %s", a)
		}
		h.waitMoves(1, 2)
		h.outboxEmpty()
		h.advance(time.Hour)
		look(2)
		joined := strings.Join(answers, "\n")
		for _, want := range []string{`"board":[`, "the piece on B1 is Red's", "→ 403", `"ok":true`, `{"setup":<Bob's own>}`} {
			if !strings.Contains(joined, want) {
				t.Fatalf("no answer says %q: the comparison proves little:\n%s", want, joined)
			}
		}
		saw[k] = answers
	})
	if t.Failed() {
		return
	}
	sameSight(t, "Bob's and the public's links", saw)
}

// sq is the square named.
func sq(t *testing.T, name string) game.Square {
	t.Helper()
	s, err := game.ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
