package web

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestBrowserCalledOffSaysWhy: a match called off while its page is open
// says so there as Discord says it, why and that no result is recorded
// (in the reader's language), instead of only that it was abandoned.
func TestBrowserCalledOffSaysWhy(t *testing.T) {
	f := newFixture(t)
	f.setPrefs("1001", Preferences{Language: "nl"})
	ctx := browser(t)
	bg := context.Background()
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#resign`)),
	); err != nil {
		t.Fatal(err)
	}
	const note = "Cleo: a dispute over the rules"
	m, err := f.store.UpdateMatch(bg, m.ID, 0, func(x *storage.Match) error { x.ModeratorNote = note; return nil })
	if err != nil {
		t.Fatal(err)
	}
	if m, err = f.store.Abandon(bg, m.ID, m.Version, storagetest.T0, storage.CallOffModerator); err != nil {
		t.Fatal(err)
	}
	f.srv.MatchChanged(m, nil)
	want := lang.For("nl").Sprintf(txtCalledOffModerator, note)
	browsertest.Wait(t, ctx, "the match called off", `document.getElementById("resign").hidden`)
	browsertest.Wait(t, ctx, "why it was called off", `document.getElementById("status").textContent === `+jsString(want))
}

// TestCalledOffTexts: the texts of a called-off match say why, as the
// notice Discord sends says it (its Markdown aside): a tournament game's
// call-off is scored by its tournament, so it says how, not that no result
// is recorded.
func TestCalledOffTexts(t *testing.T) {
	p := lang.For("de")
	for _, tt := range []struct {
		name string
		why  storage.CallOff
		cup  storage.TournamentID
		note string
		want string
	}{
		{"set-ups late", storage.CallOffLateSetup, 0, "", p.Sprintf(txtCalledOffLate)},
		{"the bot removed", storage.CallOffBotRemoved, 0, "", p.Sprintf(txtCalledOffRemoved)},
		{"a moderator", storage.CallOffModerator, 0, "Cleo: rules", p.Sprintf(txtCalledOffModerator, "Cleo: rules")},
		{"the tournament", storage.CallOffTournament, 1, "the round closed", "Die Partie wurde abgesagt (the round closed). Für die Wertung zählt sie nicht; /stratego tournament standings zeigt, wie das Turnier sie wertet."},
		{"set-ups late in a tournament, each late player's forfeit", storage.CallOffLateSetup, 1, "",
			"Die Partie wurde abgesagt: Nicht beide Aufstellungen kamen rechtzeitig an. Für die Wertung zählt sie nicht; das Turnier wertet sie für jeden Spieler, dessen Aufstellung nicht ankam, als kampflos verloren."},
		{"a moderator in a tournament, both players' forfeit", storage.CallOffModerator, 1, "Cleo: rules",
			"Die Partie wurde abgesagt: Ein Moderator hat es so entschieden (Cleo: rules). Für die Wertung zählt sie nicht; das Turnier wertet sie für beide Spieler als kampflos verloren."},
		// The note is Discord's Markdown: a name's escapes are not shown,
		// as Discord does not show them.
		{"a moderator whose name has Markdown's marks", storage.CallOffModerator, 0, `cleo\_the\*mod: rules`, p.Sprintf(txtCalledOffModerator, "cleo_the*mod: rules")},
		{"a tournament whose name has Markdown's marks", storage.CallOffTournament, 1, `\#1 \[Cup\] was cancelled`,
			"Die Partie wurde abgesagt (#1 [Cup] was cancelled). Für die Wertung zählt sie nicht; /stratego tournament standings zeigt, wie das Turnier sie wertet."},
		// A tournament's own reasons are read in the reader's language, with
		// the names they take; one with none takes none.
		{"a tournament's withdrawal", storage.CallOffTournament, 1, TournamentNote(OffWithdrew, `\#1 Cup`, "bob"),
			"Die Partie wurde abgesagt (#1 Cup: bob hat sich zurückgezogen). Für die Wertung zählt sie nicht; /stratego tournament standings zeigt, wie das Turnier sie wertet."},
		{"a tournament's duplicate", storage.CallOffTournament, 1, TournamentNote(OffDuplicate),
			"Die Partie wurde abgesagt (versehentlich doppelt angelegt; die andere Partie dieser Paarung zählt). Für die Wertung zählt sie nicht; /stratego tournament standings zeigt, wie das Turnier sie wertet."},
		// A reason a newer build wrote, read by an older one, says the
		// tournament called it off; a name with the note's separators
		// keeps to its place.
		{"a tournament's reason this build does not know", storage.CallOffTournament, 1, TournamentNote(OffReason(99), "Cup"),
			"Die Partie wurde von ihrem Turnier abgesagt. Für die Wertung zählt sie nicht; /stratego tournament standings zeigt, wie das Turnier sie wertet."},
		{"a tournament whose name holds the note's separators", storage.CallOffTournament, 1, TournamentNote(OffWithdrew, "Cup\x1f\x1e9", "bob"),
			"Die Partie wurde abgesagt (Cup9: bob hat sich zurückgezogen). Für die Wertung zählt sie nicht; /stratego tournament standings zeigt, wie das Turnier sie wertet."},
	} {
		m := &storage.Match{Phase: storage.PhaseAbandoned, CalledOff: tt.why, ModeratorNote: tt.note, Tournament: tt.cup}
		if got := calledOffText(p, m); got != tt.want || got == "" {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestAwardedTextsSayWhy: a match a moderator awarded says which moderator
// and why, as the final board Discord sends says it, besides who won.
func TestAwardedTextsSayWhy(t *testing.T) {
	f := newFixture(t)
	bg := context.Background()
	f.setPrefs("1001", Preferences{Language: "fr"})
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	const note, shown = `Cleo\_M: Bob left`, "Cleo_M: Bob left" // the note is Markdown, the page text
	m, err := f.store.UpdateMatch(bg, m.ID, 0, func(x *storage.Match) error { x.ModeratorNote = note; return nil })
	if err != nil {
		t.Fatal(err)
	}
	if _, err = f.store.Act(bg, m.ID, m.Version, storage.Action{Kind: storage.ActAward, Side: game.Red, At: storagetest.T0}); err != nil {
		t.Fatal(err)
	}
	code, resp, _ := f.do(t, "GET", "/api/texts", f.token(m.ID, game.RedViewer), "")
	var texts Texts
	if code != 200 || json.Unmarshal([]byte(resp), &texts) != nil {
		t.Fatalf("texts: %d %s", code, resp)
	}
	if want := lang.For("fr").Sprintf(txtAwardedBy, shown); !strings.Contains(texts.Result, want) || !strings.Contains(texts.Result, "Vous avez gagné") {
		t.Fatalf("the texts say %q, want who won and %q", texts.Result, want)
	}
}
