package bot

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/web"
)

// TestWebGiveTime: the web board's Give time takes the path of
// /stratego give_time: the same stored gift, the opponent's DM, the board's
// "Time given" line on every page, and, after three, the same refusal, in
// the player's language.
func TestWebGiveTime(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	base := webOn(t, h)
	h.challenge("Classic", discordtest.Opt("move_time", "24h"))
	h.sendSetups(placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant}), placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant}))
	before := h.waitMoves(1, 0)
	bobLink := openBoardLink(t, h.bob.WaitDM(t, contains("Send me your secret set-up")))

	for n := 1; n <= storage.MaxGifts; n++ {
		if status, body := apiStatus(t, base, bobLink, "POST", "/api/givetime", "{}"); status != http.StatusOK {
			t.Fatalf("bob's gift %d on the web: %d %s", n, status, body)
		}
	}
	h.bot.deliverDue(t.Context())
	m := h.match(before.ID)
	if got := m.GiftsBy(game.Blue); got != storage.MaxGifts {
		t.Fatalf("bob's gifts stored: %d, want %d", got, storage.MaxGifts)
	}
	if got, want := m.Deadline.Sub(before.Deadline), storage.MaxGifts*m.GiftTime(); got != want {
		t.Errorf("alice's deadline moved %v, want %v", got, want)
	}
	h.alice.WaitDM(t, contains("bob gave you 1 day more: your move is now due"))

	status, body := apiStatus(t, base, bobLink, "GET", "/api/state", "")
	var st web.State
	if err := json.Unmarshal([]byte(body), &st); status != http.StatusOK || err != nil {
		t.Fatalf("bob's state: %d %s", status, body)
	}
	if st.Time == nil || st.Time.Gifts == nil || *st.Time.Gifts != [2]int{0, 3} || st.Time.GiftsLeft != 0 || !st.Time.CanGive {
		t.Errorf("bob's state tells of the gifts: %+v", st.Time)
	}

	// The fourth is refused as on Discord, in bob's language.
	if _, err := h.db.UpdatePlayer(context.Background(), h.bob.ID, func(p *storage.PlayerSettings) error { p.Locale = "nl"; return nil }); err != nil {
		t.Fatal(err)
	}
	status, body = apiStatus(t, base, bobLink, "POST", "/api/givetime", "{}")
	if status != http.StatusConflict || !strings.Contains(body, "Je hebt je tegenstander al 3 keer meer tijd gegeven") {
		t.Errorf("bob's fourth gift on the web: %d %s", status, body)
	}
	if got := h.match(before.ID).Version; got != m.Version {
		t.Errorf("the refused gift changed the match: version %d, was %d", got, m.Version)
	}
}

// TestWebTimeTextsAreTheBoards: what the web board says of a match's time
// is what the Discord board and notices say, word for word, in every
// language: the page fills the same catalogue entries. (Its buttons to
// answer a proposal to pause say "Accept pause" and "Decline pause" where
// the DM's, about the pause alone, say "Pause" and "Decline": on the page
// they stand beside the draw's.)
func TestWebTimeTextsAreTheBoards(t *testing.T) {
	t.Parallel()
	for _, l := range lang.Languages() {
		p := lang.For(l.Code)
		page := web.BuildTexts(p, game.NumberingModern, game.VariantClassic, game.Result{}, [2]string{"Ann", "Bob"}, game.RedViewer).T
		fill := func(name string, args ...string) string {
			s := page[name]
			for i, a := range args {
				s = strings.ReplaceAll(s, "{"+strconv.Itoa(i+1)+"}", a)
			}
			return s
		}
		for _, tc := range []struct{ page, board string }{
			{fill("paused", "1800000000"), p.Sprintf(txtPausedUntil, "1800000000")},
			{fill("away", "Ann", "1800000000"), p.Sprintf(txtVacationLine, "Ann", "1800000000")},
			{fill("awayYou", "1800000000"), p.Sprintf(txtVacationLineYou, "1800000000")},
			{fill("gifts", "Ann", "1", "Bob", "3", "1 day"), p.Sprintf(txtGiftsLeft, "Ann", 1, "Bob", 3, "1 day")},
			{fill("pauseAsk", "Ann", "3 days", "1800000000"), p.Sprintf(txtPauseAsk, "Ann", "3 days", "1800000000")},
			{fill("pauseOffered", "3 days"), p.Sprintf(txtPauseOffered, "3 days")},
			{fill("gaveTime", "Bob", "1 day", "2"), p.Sprintf(txtGaveTime, "Bob", "1 day", 2)},
		} {
			if tc.page != tc.board {
				t.Errorf("%s: the web board says %q, Discord %q", l.Code, tc.page, tc.board)
			}
		}
	}
}
