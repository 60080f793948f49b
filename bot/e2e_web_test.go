package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/web"
)

// apiStatus sends one API request with the token of link and returns its
// status and body. It comes from another client than the test's browser
// (its address as a reverse proxy would append it): a page that has just
// made a burst of requests with the same link (a set-up dragged in half a
// second) does not use up the limit of the test's own checks, which would
// then be answered 429 on a fast machine.
func apiStatus(t *testing.T, base, link, method, path, body string) (int, string) {
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
	req.Header.Set("X-Forwarded-For", "192.0.2.7")
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// basisOf returns what link's viewer sees now (web.State.Basis): what an
// action of theirs is made on.
func basisOf(t *testing.T, base, link string) string {
	t.Helper()
	status, body := apiStatus(t, base, link, "GET", "/api/state", "")
	var st web.State
	if err := json.Unmarshal([]byte(body), &st); status != http.StatusOK || err != nil {
		t.Fatalf("the state: %d %s", status, body)
	}
	return st.Basis
}

// pageWait polls the page until js, an expression, is true.
func pageWait(t *testing.T, ctx context.Context, what, js string) {
	t.Helper()
	browsertest.Wait(t, ctx, what, js)
}

func sqSel(s game.Square) string { return fmt.Sprintf(`.sq[data-sq="%d"]`, s) }

// clickMove moves by two clicks, the piece on from and then to, which must
// light up as its target. (A live update redraws the squares in place, so a
// click under way when it comes still lands.)
func clickMove(t *testing.T, ctx context.Context, from, to game.Square) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sqSel(from)))); err != nil {
		t.Fatalf("clicking %s: %v", from, err)
	}
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(sqSel(to)+`.target`))); err != nil {
		t.Fatalf("%s as a target of %s: %v", to, from, err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sqSel(to)))); err != nil {
		t.Fatalf("clicking %s: %v", to, err)
	}
}

// drag drags with the mouse, from the tray's rank or from a square onto a square.
func drag(t *testing.T, ctx context.Context, from, to string) {
	t.Helper()
	if err := browsertest.Drag(ctx, from, to); err != nil {
		t.Fatalf("drag %s to %s: %v", from, to, err)
	}
}

// TestWebBoardMatch: a whole Barrage match in which alice plays only on the
// web page her DMs link to, and bob only on Discord. Alice drags her set-up
// into place and moves by clicking; bob's moves arrive live on her page; she
// offers a draw, which bob declines on Discord; she captures bob's Flag, and
// the page shows the final reveal and steps back through the replay.
// Forged, expired, wrong-side and revoked links are refused.
func TestWebBoardMatch(t *testing.T) {
	ctx := browsertest.Start(t, 90*time.Second)
	h := newHarness(t)
	base := webOn(t, h)
	bg := context.Background()

	h.challenge("Barrage")
	invite := h.alice.WaitDM(t, contains("Send me your secret set-up"))
	link := openBoardLink(t, invite)
	if !strings.HasPrefix(link, base+"/board#") {
		t.Fatalf("alice's link %q is not under %s", link, base)
	}
	bobLink := openBoardLink(t, h.bob.WaitDM(t, contains("Send me your secret set-up")))
	list, err := h.db.PlayerMatches(bg, h.alice.ID, true, 0)
	if err != nil || len(list) != 1 {
		t.Fatalf("alice's matches: %d, %v", len(list), err)
	}
	id := list[0].ID

	// Bob sets up on Discord: Flag on A7, his front row's far left seen
	// from Red, so that Red's Scout on A4 can strike it down the open file.
	rules := game.DefaultRules(game.VariantBarrage)
	blue := setupOf(t, rules, map[[2]int]game.Rank{
		{0, 9}: game.Flag, {0, 0}: game.Scout, {0, 4}: game.Scout, {1, 1}: game.Marshal,
		{1, 2}: game.General, {1, 3}: game.Miner, {2, 0}: game.Spy, {3, 5}: game.Bomb,
	})
	h.bob.SendDM(t, game.FormatSetup(blue, game.NumberingModern))
	preview := h.bob.WaitDM(t, contains("Your set-up for match"))
	h.bob.ClickButton(t, preview, button(t, preview, "Confirm")).Reply(t)

	// Alice sets up on the page by dragging from the tray, then swaps two
	// pieces on the board by dragging one onto the other.
	red := map[game.Square]game.Rank{30: game.Scout, 31: game.Scout, 0: game.Flag, 1: game.Bomb, 2: game.Spy, 3: game.Marshal, 4: game.General, 5: game.Miner}
	if err := chromedp.Do(ctx, chromedp.Navigate(link), chromedp.WaitVisible(chromedp.CSS(`#tray button`))); err != nil {
		t.Fatal(err)
	}
	for _, sq := range []game.Square{30, 31, 0, 1, 2, 3, 4, 5} {
		drag(t, ctx, fmt.Sprintf(`#tray button[data-rank="%d"]`, red[sq]), sqSel(sq))
	}
	drag(t, ctx, sqSel(3), sqSel(4)) // Marshal and General trade places
	pageWait(t, ctx, "the set-up complete", `Array.from(document.querySelectorAll("#tray button")).every(b => b.getAttribute("aria-disabled") === "true")`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#confirm`))); err != nil {
		t.Fatal(err)
	}
	h.alice.WaitDM(t, contains("the match begins"))
	m := h.match(id)
	want := game.Setup{}
	want[0][0], want[0][1], want[3][0], want[3][1], want[3][2], want[3][3], want[3][4], want[3][5] =
		game.Scout, game.Scout, game.Flag, game.Bomb, game.Spy, game.General, game.Marshal, game.Miner
	if m.Setups[game.Red].Setup != want || m.Phase != storage.PhasePlaying {
		t.Fatalf("alice's stored set-up %v (phase %s), want %v", m.Setups[game.Red].Setup, m.Phase, want)
	}
	pageWait(t, ctx, "red to move", `document.getElementById("status").textContent.toLowerCase().includes("your move")`)
	blueText, err := chromedp.Run(ctx, chromedp.Evaluate[string](`Array.from(document.querySelectorAll(".sq.blue")).map(b => b.textContent + b.getAttribute("aria-label")).join("|")`))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(blueText, "unknown") != 8 || strings.Contains(blueText, "Flag") || strings.Contains(blueText, "Marshal") {
		t.Fatalf("bob's pieces on alice's page: %s", blueText)
	}

	// A move by clicks: B4 to B5.
	clickMove(t, ctx, 31, 41)
	h.waitMoves(id, 1)
	board := h.alice.WaitDM(t, contains("B4"))
	if l := openBoardLink(t, board); !strings.HasPrefix(l, base+"/board#") {
		t.Fatalf("the board DM's link %q", l)
	}

	// Wrong side: alice's Red link cannot move bob's piece, nor read his view.
	if status, body := apiStatus(t, base, link, "POST", "/api/move", fmt.Sprintf(`{"basis":%q,"from":69,"to":59}`, basisOf(t, base, link))); status != http.StatusConflict {
		t.Fatalf("a Red link moving Blue's piece: %d %s", status, body)
	}
	if status, body := apiStatus(t, base, link, "GET", "/api/state", ""); status != http.StatusOK || !strings.Contains(body, `"viewer":"red"`) {
		t.Fatalf("alice's state: %d %s", status, body)
	}

	// Bob moves on Discord; it arrives on alice's open page.
	h.bob.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "J7"), discordtest.Opt("to", "J6")).Reply(t)
	pageWait(t, ctx, "bob's move", `document.querySelectorAll("#history li").length === 2`)
	h.waitMoves(id, 2)

	// Alice offers a draw on the page; bob declines it on Discord.
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`#draw`)),
		chromedp.WaitVisible(chromedp.CSS(`#ask[open]`)),
		chromedp.Click(chromedp.CSS(`#ask-choices button`)), // "Offer a draw?" Yes
	); err != nil {
		t.Fatal(err)
	}
	// The offer is told below the board, next to its buttons, as the
	// Discord board tells its maker.
	pageWait(t, ctx, "the draw offer", `document.getElementById("time").textContent.includes("You offered a draw.")`)
	offer := h.bob.WaitDM(t, contains("offers a draw"))
	h.bob.ClickButton(t, offer, button(t, offer, "Decline")).Reply(t)
	pageWait(t, ctx, "the offer declined", `!document.getElementById("time").textContent.includes("offered a draw")`)

	// Alice's Scout strikes bob's Flag from A4 down the open file.
	clickMove(t, ctx, 30, 60)
	m = h.waitStored(id, 3)
	if winner, won := m.Result.Winner(); m.Phase.Active() || !won || winner != game.Red {
		t.Fatalf("after the capture: phase %s, result %+v", m.Phase, m.Result)
	}
	h.bob.WaitDM(t, contains("captured"))
	// The final reveal shows bob's army, then the replay steps back to the start.
	pageWait(t, ctx, "the reveal", `Array.from(document.querySelectorAll(".sq.blue")).some(b => b.textContent === "10")`)
	pageWait(t, ctx, "the lost pieces", `document.getElementById("lost").textContent === "Red has lost nothing yetBlue has lost: Flag"`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#first`))); err != nil {
		t.Fatal(err)
	}
	pageWait(t, ctx, "the replay's first move", `document.getElementById("ply").textContent === "Move 0 of 3"`)
	pageWait(t, ctx, "nothing lost at the start", `document.getElementById("lost").textContent === "Red has lost nothing yetBlue has lost nothing yet"`)
	// A move in the list opens the board after it.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#history li:nth-child(2) button`))); err != nil {
		t.Fatal(err)
	}
	pageWait(t, ctx, "the board after the second move", `document.getElementById("ply").textContent === "Move 2 of 3" && document.querySelector('#history li:nth-child(2) button').getAttribute("aria-current") === "step"`)

	// /stratego record and history in the server (ephemeral answers) link to
	// the member's own side's board, which shows the finished match's full reveal.
	for _, command := range []string{"stratego record", "stratego history"} {
		answer := h.bob.SlashCommand(t, h.channel, command).Reply(t)
		l := openBoardLink(t, answer)
		if status, body := apiStatus(t, base, l, "GET", "/api/state", ""); status != http.StatusOK || !strings.Contains(body, `"viewer":"blue"`) {
			t.Fatalf("the link of %s: %d %s", command, status, body)
		}
		if status, body := apiStatus(t, base, l, "GET", "/api/reveal", ""); status != http.StatusOK {
			t.Fatalf("the reveal by the link of %s: %d %s", command, status, body)
		}
	}

	// No player's link ever went to the channel.
	for _, msg := range h.srv.ChannelMessages(h.channel) {
		for _, b := range msg.Buttons() {
			if b.URL != "" {
				t.Fatalf("a link in the channel: %q on %q", b.URL, msg.Content)
			}
		}
	}

	// Forged and expired links are refused; so are alice's once she revokes them.
	w := h.bot.web.Load()
	other, err := web.NewSigner([]byte(strings.Repeat("k", 32)))
	if err != nil {
		t.Fatal(err)
	}
	good := web.Capability{Match: id, Viewer: game.RedViewer, Expires: h.clock.Now().Add(time.Hour)}
	expired := good
	expired.Expires = h.clock.Now().Add(-time.Second)
	for name, tc := range map[string]struct {
		link   string
		status int
	}{
		"forged":   {other.Link(base, good), http.StatusForbidden},
		"expired":  {w.signer.Link(base, expired), http.StatusGone},
		"tampered": {link[:len(link)-2] + "AA", http.StatusForbidden},
	} {
		if status, body := apiStatus(t, base, tc.link, "GET", "/api/state", ""); status != tc.status {
			t.Errorf("%s link: %d %s, want %d", name, status, body, tc.status)
		}
	}
	if revoked := h.alice.SlashCommand(t, h.channel, "stratego settings", discordtest.Opt("revoke_links", true)).Reply(t); !revoked.Ephemeral || !strings.Contains(revoked.Content, "stops working now") {
		t.Fatalf("the answer to revoke_links: %q", revoked.Content)
	}
	if status, body := apiStatus(t, base, link, "GET", "/api/state", ""); status != http.StatusGone {
		t.Errorf("a revoked link: %d %s", status, body)
	}
	if status, _ := apiStatus(t, base, bobLink, "GET", "/api/state", ""); status != http.StatusOK {
		t.Errorf("bob's link after alice revoked hers: %d", status)
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate("about:blank"), // a new load, not a jump within the open page
		chromedp.Navigate(link),
		chromedp.WaitVisible(chromedp.CSS(`body[data-refused="1"]`)),
	); err != nil {
		t.Fatalf("the revoked link in the browser: %v", err)
	}
	refusedStatus, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#status")))
	if err != nil {
		t.Fatalf("the revoked link in the browser: %v", err)
	}
	if !strings.Contains(refusedStatus, "not valid") {
		t.Errorf("the revoked link's page says %q", refusedStatus)
	}
	var state map[string]any
	if _, body := apiStatus(t, base, bobLink, "GET", "/api/state", ""); json.Unmarshal([]byte(body), &state) != nil || state["viewer"] != "blue" {
		t.Errorf("bob's state: %s", body)
	}
}

// TestWebSavedSetups: a player's link offers their saved set-ups for the
// match's army, the first choice first, keeps a new one, and offers none once
// the player's set-up is confirmed; the opponent's link never shows them.
func TestWebSavedSetups(t *testing.T) {
	h := newHarness(t)
	base := webOn(t, h)
	bg := context.Background()
	barrage, classic := game.DefaultRules(game.VariantBarrage), game.DefaultRules(game.VariantClassic)
	if _, err := h.db.UpdatePlayer(bg, h.bob.ID, func(p *storage.PlayerSettings) error {
		for _, s := range []struct {
			name  string
			rules game.Rules
			seed  uint64
		}{{"Old", classic, 1}, {"Fort", barrage, 2}, {"Rush", barrage, 3}} {
			if err := p.SaveSetup(storage.SavedSetup{Name: s.name, Variant: s.rules.Variant, Army: s.rules.Army, Setup: game.RandomSetup(s.rules, s.seed), Saved: T0}); err != nil {
				return err
			}
		}
		p.Defaults = map[game.Variant]string{game.VariantBarrage: "Rush"}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	h.challenge("Barrage")
	aliceLink := openBoardLink(t, h.alice.WaitDM(t, contains("Send me your secret set-up")))
	bobLink := openBoardLink(t, h.bob.WaitDM(t, contains("Send me your secret set-up")))

	if code, body := apiStatus(t, base, aliceLink, "GET", "/api/setups", ""); code != 200 || body != "{\"setups\":[]}\n" {
		t.Fatalf("alice's link lists %d %s", code, body)
	}
	var listed struct {
		Setups []struct {
			Name  string
			First bool
		}
	}
	code, body := apiStatus(t, base, bobLink, "GET", "/api/setups", "")
	if err := json.Unmarshal([]byte(body), &listed); code != 200 || err != nil {
		t.Fatalf("bob's link lists %d %s", code, body)
	}
	if got := fmt.Sprint(listed.Setups); got != "[{Rush true} {Fort false}]" {
		t.Fatalf("bob's Barrage set-ups: %s", got)
	}
	save, _ := json.Marshal(map[string]any{"name": "Mine", "setup": game.RandomSetup(barrage, 9)})
	if code, body := apiStatus(t, base, bobLink, "POST", "/api/setups", string(save)); code != 200 {
		t.Fatalf("keeping a set-up: %d %s", code, body)
	}
	if p, _ := h.db.Player(bg, h.bob.ID); len(p.Setups) != 4 {
		t.Fatalf("bob keeps %d set-ups", len(p.Setups))
	}

	h.bob.SendDM(t, game.FormatSetup(game.RandomSetup(barrage, 9), game.NumberingModern))
	preview := h.bob.WaitDM(t, contains("Your set-up for match"))
	h.bob.ClickButton(t, preview, button(t, preview, "Confirm")).Reply(t)
	if code, body := apiStatus(t, base, bobLink, "GET", "/api/setups", ""); code != 409 || strings.Contains(body, "Rush") {
		t.Fatalf("after bob's set-up: %d %s", code, body)
	}
}
