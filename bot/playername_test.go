package bot

import (
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/ai"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage"
)

// TestPlayerName: the computer's seat is told by who sits there (the bot's
// own user, isComputer), not by the name stored for it: the computer is
// named in the reader's language, and a member who calls themselves
// "Computer (hard)" is shown by their own name, in a practice match too.
// playerName, for a message's content, escapes the markdown of a name;
// plainName, for a picture, does not.
func TestPlayerName(t *testing.T) {
	t.Parallel()
	const botID = "9"
	st := discordgo.NewState()
	session := &discordgo.Session{State: st, StateEnabled: true}
	if err := st.OnInterface(session, &discordgo.Ready{User: &discordgo.User{ID: botID}}); err != nil {
		t.Fatal(err)
	}
	b := &Bot{s: session}
	practice := func(human storage.Player) *storage.Match {
		m := &storage.Match{Computer: ai.Hard.String()}
		m.Players[game.Red] = human
		m.Players[game.Blue] = storage.Player{UserID: botID, Name: computerName(ai.Hard)}
		return m
	}
	ordinary := func(red, blue storage.Player) *storage.Match {
		m := &storage.Match{}
		m.Players[game.Red], m.Players[game.Blue] = red, blue
		return m
	}
	alice := storage.Player{UserID: "1", Name: "alice"}
	namesake := storage.Player{UserID: "2", Name: "Computer (hard)"}
	tests := []struct {
		name string
		m    *storage.Match
		side game.Side
		lang string
		want string
	}{
		{"the computer, in English", practice(alice), game.Blue, "en", "Computer (hard)"},
		{"the computer, in German", practice(alice), game.Blue, "de", "Computer (schwer)"},
		{"its human opponent", practice(alice), game.Red, "de", "alice"},
		{"a member named like the computer, in an ordinary match", ordinary(namesake, alice), game.Red, "de", "Computer (hard)"},
		{"a member named like the computer, in a practice match", practice(namesake), game.Red, "de", "Computer (hard)"},
		{"a member in an ordinary match", ordinary(namesake, alice), game.Blue, "de", "alice"},
	}
	for _, tc := range tests {
		if got := b.playerName(lang.For(tc.lang), tc.m, tc.side); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	// A name in markdown: escaped for a message's content, as written for a
	// picture or a menu.
	m := ordinary(storage.Player{UserID: "3", Name: "*star* <t:0:R>"}, alice)
	if got := b.playerName(lang.For("en"), m, game.Red); got != `\*star\* \<t:0:R\>` {
		t.Errorf("playerName: %q", got)
	}
	if got := b.plainName(lang.For("en"), m, game.Red); got != "*star* <t:0:R>" {
		t.Errorf("plainName: %q", got)
	}
}
