package web

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// browser starts a headless Chromium for a test. Without one the test is
// skipped, unless STRATEGOBOT_TEST_BROWSER_REQUIRED is set (CI), where it fails.
func browser(t *testing.T) context.Context {
	t.Helper()
	var path string
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		if os.Getenv("STRATEGOBOT_TEST_BROWSER_REQUIRED") != "" {
			t.Fatal("no Chromium found, and STRATEGOBOT_TEST_BROWSER_REQUIRED is set")
		}
		t.Skip("no Chromium found")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.Flag("disable-dev-shm-usage", true))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	ctx, cancel3 := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(cancel3)
	if err := chromedp.Run(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	return ctx
}

func TestBrowserRefusesBadLinks(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	old := f.token(m.ID, game.BlueViewer)
	f.links.revoke("1002")
	for name, tok := range map[string]string{
		"forged":  testSigner(t, 1).Sign(Capability{Match: m.ID, Viewer: game.RedViewer, Expires: f.now.Add(time.Hour)}),
		"expired": f.signer.Sign(Capability{Match: m.ID, Viewer: game.RedViewer, Expires: f.now.Add(-time.Second)}),
		"revoked": old,
	} {
		var status string
		if err := chromedp.Run(ctx,
			chromedp.Navigate(f.ts.URL+"/board#"+tok),
			chromedp.WaitVisible(`body[data-refused="1"]`, chromedp.ByQuery),
			chromedp.Text("#status", &status, chromedp.ByQuery),
		); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !strings.Contains(status, "not valid") {
			t.Fatalf("%s: status %q", name, status)
		}
	}
}

// TestBrowserSetupAndMove: Red sets up in the browser (Random, confirm), Blue
// on "Discord" (straight through the store), then Red moves by clicks, and
// Blue's move made elsewhere appears on Red's open page.
func TestBrowserSetupAndMove(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	bg := context.Background()
	m, err := f.store.CreateMatch(bg, storagetest.NewMatch(game.VariantBarrage))
	if err != nil {
		t.Fatal(err)
	}
	if m, err = f.store.SetSetup(bg, m.ID, 0, game.Blue, game.RandomSetup(m.Rules, 5), storage.SetupConfirmed, storagetest.T0); err != nil {
		t.Fatal(err)
	}
	var refusal string
	if err := chromedp.Run(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(`#random`, chromedp.ByQuery),
		chromedp.Click(`#random`, chromedp.ByQuery),
		chromedp.WaitVisible(`.sq.red`, chromedp.ByQuery),
		chromedp.Sleep(300*time.Millisecond),
		chromedp.Text(`#refusal`, &refusal, chromedp.ByQuery),
	); err != nil {
		t.Fatal(err)
	}
	if refusal != "" {
		t.Fatalf("a random set-up was refused: %q", refusal)
	}
	var status string
	if err := chromedp.Run(ctx,
		chromedp.Click(`#confirm`, chromedp.ByQuery),
		chromedp.WaitVisible(`#resign`, chromedp.ByQuery),
		chromedp.Text(`#status`, &status, chromedp.ByQuery),
	); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(status, "Your move") {
		t.Fatalf("status after both set-ups: %q", status)
	}
	// Blue's pieces show no rank on Red's page.
	var blueText string
	if err := chromedp.Run(ctx, chromedp.Evaluate(`Array.from(document.querySelectorAll(".sq.blue")).map(b => b.textContent + b.getAttribute("aria-label")).join("|")`, &blueText)); err != nil {
		t.Fatal(err)
	}
	for _, rank := range []string{"Marshal", "Flag", "Bomb", "Scout", "Spy"} {
		if strings.Contains(blueText, rank) {
			t.Fatalf("Blue's %s shows on Red's page: %s", rank, blueText)
		}
	}
	m, _ = f.store.Match(bg, m.ID)
	g, _ := m.Game()
	mv := g.LegalMoves()[0]
	sel := func(s game.Square) string { return `.sq[data-sq="` + itoa(int(s)) + `"]` }
	var n int
	if err := chromedp.Run(ctx,
		chromedp.Click(sel(mv.From), chromedp.ByQuery),
		chromedp.WaitVisible(sel(mv.To)+`.target`, chromedp.ByQuery),
		chromedp.Click(sel(mv.To), chromedp.ByQuery),
		chromedp.WaitVisible(`#history li`, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelectorAll("#history li").length`, &n),
	); err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Fatalf("%d moves in the history", n)
	}
	// Blue moves "on Discord": the store, then the bot tells the server.
	m, _ = f.store.Match(bg, m.ID)
	g, _ = m.Game()
	m2, g2, err := f.store.ApplyMove(bg, m.ID, m.Version, game.Blue, g.LegalMoves()[0], storagetest.T0)
	if err != nil {
		t.Fatal(err)
	}
	f.srv.MatchChanged(m2, g2)
	if err := chromedp.Run(ctx, chromedp.WaitVisible(`#history li:nth-child(2)`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
}

func itoa(i int) string {
	return strconv.Itoa(i)
}
