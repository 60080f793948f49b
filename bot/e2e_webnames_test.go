package bot

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/web"
)

// TestWebNamesTheComputer: the web board of a practice match names the
// computer in its reader's language, as Discord's messages and pictures do,
// not by the English name its seat stores ("Computer (hard)"): a French
// player's page says "Ordinateur (difficile)", in its texts and its title.
func TestWebNamesTheComputer(t *testing.T) {
	ctx := browsertest.Start(t, time.Minute)
	h := newHarness(t)
	base := webOn(t, h)
	h.alice.SetLocale("fr")
	h.alice.SlashCommand(t, h.channel, "stratego practice", discordtest.Opt("level", "hard"), discordtest.Opt("side", "red")).Reply(t)
	invite := h.alice.WaitDM(t, contains("Envoyez-moi votre placement secret"))
	var link string
	for _, b := range invite.Buttons() {
		if b.Style == discordgo.LinkButton {
			link = b.URL
		}
	}
	if link == "" {
		t.Fatalf("no link to the web board on %q", invite.Content)
	}

	status, body := apiStatus(t, base, link, "GET", "/api/texts", "")
	var texts web.Texts
	if err := json.Unmarshal([]byte(body), &texts); status != http.StatusOK || err != nil {
		t.Fatalf("the texts: %d %s", status, body)
	}
	if want := [2]string{"alice", "Ordinateur (difficile)"}; texts.Lang != "fr" || texts.Names != want {
		t.Errorf("alice's page (%s) names the players %q, want %q", texts.Lang, texts.Names, want)
	}

	if err := chromedp.Do(ctx, chromedp.Navigate(link)); err != nil {
		t.Fatal(err)
	}
	pageWait(t, ctx, "the title naming the computer in French", `document.getElementById("title").textContent.includes("Ordinateur (difficile)")`)
	title, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("title").textContent`))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(title, "Computer") {
		t.Errorf("the page's title still says %q", title)
	}
}

// TestWebNamesTheComputerBeforeReady: the web server is up before the
// gateway's READY brings the bot's own user, and a page may load its texts
// then (one that reloads itself after an upgrade). The computer's seat is
// known by the bot's id all the same, which its token begins with: the
// page names it in its reader's language, not by its stored English name.
func TestWebNamesTheComputerBeforeReady(t *testing.T) {
	h := newHarness(t)
	base := webOn(t, h)
	h.alice.SetLocale("fr")
	h.alice.SlashCommand(t, h.channel, "stratego practice", discordtest.Opt("level", "hard"), discordtest.Opt("side", "red")).Reply(t)
	invite := h.alice.WaitDM(t, contains("Envoyez-moi votre placement secret"))
	var link string
	for _, b := range invite.Buttons() {
		if b.Style == discordgo.LinkButton {
			link = b.URL
		}
	}
	// As before READY: the session's state has no user yet.
	st := h.bot.s.State
	st.Lock()
	saved := st.User
	st.User = nil
	st.Unlock()
	defer func() { st.Lock(); st.User = saved; st.Unlock() }()

	status, body := apiStatus(t, base, link, "GET", "/api/texts", "")
	var texts web.Texts
	if err := json.Unmarshal([]byte(body), &texts); status != http.StatusOK || err != nil {
		t.Fatalf("the texts: %d %s", status, body)
	}
	if want := [2]string{"alice", "Ordinateur (difficile)"}; texts.Names != want {
		t.Errorf("before READY, alice's page names the players %q, want %q", texts.Names, want)
	}
}
