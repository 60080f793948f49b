package bot

import (
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestCommandsInSetUp: a command of a match under way, given without the
// match option while the member's only match is still in its set-up,
// says the match has not started, as it does with the match named (or,
// their set-up confirmed, that it waits for the opponent's): it said they
// had no match and should start one (history), or that none waited for
// that from them. /stratego setup with the match named, their set-up
// confirmed, says so too: it showed the invite again, whose Edit and
// Random could no longer change anything.
func TestCommandsInSetUp(t *testing.T) {
	t.Parallel()
	const (
		notStarted = "The match has not started yet: both players must confirm a set-up first (`/stratego setup`)."
		confirmed  = "Your set-up is already confirmed; the match starts when your opponent has confirmed theirs."
	)
	commands := []struct {
		name string
		args []discordtest.Arg
	}{
		{"stratego history", nil}, {"stratego board", nil}, {"stratego draw", nil}, {"stratego resign", nil},
		{"stratego give_time", nil}, {"stratego pause", []discordtest.Arg{discordtest.Opt("days", 2)}},
		{"stratego move", []discordtest.Arg{discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")}},
	}
	h := newHarness(t)
	h.challenge("Classic", discordtest.Opt("move_time", "24h"))
	h.alice.WaitDM(t, contains("Send me your secret set-up"))
	// ask runs each command without the match option, and with it.
	ask := func(want, wantNamed string) {
		t.Helper()
		for _, c := range commands {
			for _, named := range []bool{false, true} {
				args, w := c.args, want
				if named {
					args = append(args[:len(args):len(args)], discordtest.Opt("match", "1"))
					if c.name != "stratego setup" { // whose refusal is the unnamed one's
						w = wantNamed
					}
				}
				if got := h.alice.SlashCommand(t, h.channel, c.name, args...).Reply(t).Content; got != w {
					t.Errorf("/%s (match named: %v) answered %q, want %q", c.name, named, got, w)
				}
			}
		}
	}
	ask(notStarted, notStarted)

	h.alice.SendDM(t, game.FormatSetup(placed(t, nil), game.NumberingModern))
	preview := h.alice.WaitDM(t, contains("Your set-up for match"))
	h.alice.ClickButton(t, preview, button(t, preview, "Confirm")).Reply(t)
	commands = append(commands, struct {
		name string
		args []discordtest.Arg
	}{"stratego setup", nil})
	ask(confirmed, notStarted)

	// In German, the language of bob's client.
	h.bob.SetLocale("de")
	if got, want := h.bob.SlashCommand(t, h.channel, "stratego history").Reply(t).Content,
		"Die Partie hat noch nicht begonnen: Beide Spieler müssen erst eine Aufstellung bestätigen (`/stratego setup`)."; got != want {
		t.Errorf("bob's history in set-up answered %q, want %q", got, want)
	}
}

// TestRecordBeforeAnyEnds: /stratego record without the match option,
// from a member whose matches are all under way (in their set-up or
// played), says the record comes once a match is over, as it does with
// the match named; it said they had no match and should start one. Once
// one is over, that one's record comes, though another goes on.
func TestRecordBeforeAnyEnds(t *testing.T) {
	t.Parallel()
	const notOver = "The record is ready once the match is over: it shows both set-ups."
	h := newHarness(t)
	h.challenge("Classic", discordtest.Opt("move_time", "24h"))
	h.alice.WaitDM(t, contains("Send me your secret set-up"))
	record := func(want string) {
		t.Helper()
		for _, named := range []bool{false, true} {
			var args []discordtest.Arg
			if named {
				args = append(args, discordtest.Opt("match", "1"))
			}
			if got := h.alice.SlashCommand(t, h.channel, "stratego record", args...).Reply(t).Content; got != want {
				t.Errorf("/stratego record (match named: %v) answered %q, want %q", named, got, want)
			}
		}
	}
	record(notOver)
	sergeant := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant})
	h.sendSetups(sergeant, sergeant)
	record(notOver)

	// Match #1 resigned, #2 under way: the record is #1's.
	ask := h.bob.SlashCommand(t, h.channel, "stratego resign").Reply(t)
	h.bob.ClickButton(t, ask, button(t, ask, "Resign")).Updated(t)
	h.alice.WaitDM(t, contains("You won: bob resigned."))
	h.challenge("Classic", discordtest.Opt("move_time", "24h"))
	if got := h.alice.SlashCommand(t, h.channel, "stratego record").Reply(t); !strings.HasPrefix(got.Content, "**Match #1**") || len(got.Files) != 1 {
		t.Errorf("the record with #1 over and #2 under way: %q, %d files", got.Content, len(got.Files))
	}
}

// TestRecordSaysWhatItHolds: the record's answer says what its file holds
// in a player's words, in their language; it named `strategobot replay`,
// the program's own check of its rules engine, which no player can run.
func TestRecordSaysWhatItHolds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ locale, want string }{
		{"", "**Match #1** · alice (Red) vs bob (Blue)\nThe game record, as a Gravon XML file: both set-ups and every move."},
		{"fr", "**Partie #1** · alice (Rouge) contre bob (Bleu)\nLe relevé de la partie, en fichier XML Gravon : les deux placements et chaque coup."},
	} {
		t.Run(tc.locale, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			resignedFinale(t, h)
			if tc.locale != "" {
				h.alice.SetLocale(tc.locale)
			}
			got := h.alice.SlashCommand(t, h.channel, "stratego record").Reply(t)
			if got.Content != tc.want || len(got.Files) != 1 || got.Files[0].Name != "stratego-match-1.xml" {
				t.Errorf("the record's answer: %q with %d files; want %q and the file", got.Content, len(got.Files), tc.want)
			}
		})
	}
}

// TestDMsInSetUp: a move typed in the DM while the member's match is in
// its set-up says the match has not started, and a move or a set-up typed
// once their set-up is confirmed says it is, and that the opponent's is
// awaited: they were told that none of their matches waited for a move or
// a set-up.
func TestDMsInSetUp(t *testing.T) {
	t.Parallel()
	const (
		notStarted = "The match has not started yet: both players must confirm a set-up first (`/stratego setup`)."
		confirmed  = "Your set-up is already confirmed; the match starts when your opponent has confirmed theirs."
	)
	h := newHarness(t)
	h.challenge("Classic", discordtest.Opt("move_time", "24h"))
	h.alice.WaitDM(t, contains("Send me your secret set-up"))
	dm := func(text, want string) {
		t.Helper()
		sent := h.alice.SendDM(t, text)
		if got := h.alice.WaitDM(t, func(m *discordtest.Message) bool {
			return m.MessageReference != nil && m.MessageReference.MessageID == sent.ID
		}).Content; got != want {
			t.Errorf("alice's DM %q answered %q, want %q", text, got, want)
		}
	}
	dm("A4-A5", notStarted)
	setup := game.FormatSetup(placed(t, nil), game.NumberingModern)
	h.alice.SendDM(t, setup)
	preview := h.alice.WaitDM(t, contains("Your set-up for match"))
	h.alice.ClickButton(t, preview, button(t, preview, "Confirm")).Reply(t)
	dm("A4-A5", confirmed)
	dm(setup, confirmed)
}
