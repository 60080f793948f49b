package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage"
)

// badInput is one odd thing a member can send: a slash command with values
// Discord lets through, or a DM.
type badInput struct {
	name string
	who  string // "alice" (default), "bob", "carol" (a moderator)
	dm   bool   // sent in the member's DM with the bot instead of the server's channel
	cmd  string // the slash command, "" for a typed DM
	args []discordtest.Arg
	text string // a typed DM
	// form is a set-up typed in the form of match #2's Edit button (the
	// set-up of /stratego setup match:2), in the server's channel.
	form string
	// want is what the English answer must say: what to do instead, or
	// why not.
	want string
}

// goish are traces of Go's own error texts that a member must never read.
var goish = regexp.MustCompile(`%!|strconv\.|parsing |\bnil\b|<nil>|error:|invalid syntax|goroutine |\.go:\d|panic|unexpected EOF|Something went wrong|\\u[0-9a-f]{4}|\\"|\\\\`)

// englishTells are words that give away an English text.
var englishTells = regexp.MustCompile(`\b(the|your|You|is not|with|match|cannot)\b`)

// TestBadInput sends every subcommand, and DMs, with bad or odd values a
// member could send, in English, Dutch, German and French. Each answer
// exists, is the member's own (private), reads in their language without a
// trace of Go, says what to do, pings nobody, and leaves every match as it
// was.
func TestBadInput(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	moderator(h) // carol
	h.dayMatch() // #1: alice (Red, to move) against bob, a day a move
	frank := h.guild.AddMember("frank")
	ctx := context.Background()
	other := h.srv.AddGuild("Another Club")
	dave, erin := other.AddMember("dave"), other.AddMember("erin")
	newMatch := func(guild, channel string, red, blue *discordtest.Member) *storage.Match {
		m := &storage.Match{GuildID: guild, ChannelID: channel, Rules: game.DefaultRules(game.VariantClassic),
			MoveTime: 24 * time.Hour, Phase: storage.PhaseSetup, Created: T0}
		m.Players[game.Red] = storage.Player{UserID: red.ID, Name: red.Name}
		m.Players[game.Blue] = storage.Player{UserID: blue.ID, Name: blue.Name}
		m, err := h.db.CreateMatch(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	h.fixtures(func() {
		newMatch(h.guild.ID, h.channel.ID, h.alice, h.carol)      // #2: alice's, in set-up
		newMatch(h.guild.ID, h.channel.ID, h.bob, h.carol)        // #3: not alice's
		m := newMatch(h.guild.ID, h.channel.ID, h.alice, h.carol) // #4: over
		if _, err := h.db.Abandon(ctx, m.ID, m.Version, T0, storage.CallOffModerator); err != nil {
			t.Fatal(err)
		}
		newMatch(other.ID, other.General().ID, dave, erin) // #5: of another server
		infiltratorMatch(t, h, frank, h.carol)             // #6: frank's Infiltrator in carol's zone
	})
	versions := func() []uint64 {
		var out []uint64
		for id := storage.MatchID(1); id <= 6; id++ {
			out = append(out, h.match(id).Version)
		}
		return out
	}
	before := versions()

	opt := discordtest.Opt
	members := map[string]*discordtest.Member{"alice": h.alice, "bob": h.bob, "carol": h.carol, "frank": frank}
	tests := []badInput{
		// Match numbers.
		{name: "move in no such match", cmd: "stratego move", args: []discordtest.Arg{opt("from", "A4"), opt("to", "A5"), opt("match", "99")}, want: "`/stratego games`"},
		{name: "move in match \"7\" in quotes", cmd: "stratego move", args: []discordtest.Arg{opt("from", "A4"), opt("to", "A5"), opt("match", `"7"`)}},
		{name: "move in match 7\" with a quote", cmd: "stratego move", args: []discordtest.Arg{opt("from", "A4"), opt("to", "A5"), opt("match", `7"x`)}, want: "pick one"},
		{name: "delete a set-up named with a backslash", cmd: "stratego settings", args: []discordtest.Arg{opt("delete_setup", `my\setup "best"`)}},
		{name: "move in match zero", cmd: "stratego move", args: []discordtest.Arg{opt("from", "A4"), opt("to", "A5"), opt("match", "0")}, want: "pick one from the list"},
		{name: "move in match -1", cmd: "stratego move", args: []discordtest.Arg{opt("from", "A4"), opt("to", "A5"), opt("match", "-1")}, want: "pick one from the list"},
		{name: "move in match #1 typed with a hash and spaces", cmd: "stratego move", args: []discordtest.Arg{opt("from", "A4"), opt("to", "C5"), opt("match", " #1 ")}},
		{name: "move in match @everyone", cmd: "stratego move", args: []discordtest.Arg{opt("from", "A4"), opt("to", "A5"), opt("match", "@everyone")}, want: "pick one"},
		{name: "move in match <@123>", cmd: "stratego move", args: []discordtest.Arg{opt("from", "A4"), opt("to", "A5"), opt("match", "<@123>")}, want: "pick one"},
		{name: "move in another's match", cmd: "stratego move", args: []discordtest.Arg{opt("from", "A4"), opt("to", "A5"), opt("match", "3")}, want: "only its two players"},
		{name: "move in another server's match", cmd: "stratego move", args: []discordtest.Arg{opt("from", "A4"), opt("to", "A5"), opt("match", "5")}, want: "only its two players"},
		{name: "move in a match over", cmd: "stratego move", args: []discordtest.Arg{opt("from", "A4"), opt("to", "A5"), opt("match", "4")}, want: "`/stratego games`"},
		{name: "move in a match in set-up", cmd: "stratego move", args: []discordtest.Arg{opt("from", "A4"), opt("to", "A5"), opt("match", "2")}, want: "`/stratego setup`"},
		{name: "board of no such match", cmd: "stratego board", args: []discordtest.Arg{opt("match", "99")}, want: "`/stratego games`"},
		{name: "board of another's match", cmd: "stratego board", args: []discordtest.Arg{opt("match", "3")}},
		{name: "board of a match in set-up", cmd: "stratego board", args: []discordtest.Arg{opt("match", "2")}, want: "`/stratego setup`"},
		{name: "setup of a running match", cmd: "stratego setup", args: []discordtest.Arg{opt("match", "1")}, want: "set-up phase of this match is over: the game is being played. `/stratego board match:1`"},
		{name: "setup of a match over", cmd: "stratego setup", args: []discordtest.Arg{opt("match", "4")}, want: "`/stratego games`"},
		{name: "setup of another's match", cmd: "stratego setup", args: []discordtest.Arg{opt("match", "3")}},
		{name: "resign a match over", cmd: "stratego resign", args: []discordtest.Arg{opt("match", "4")}, want: "over"},
		{name: "resign a match in set-up", cmd: "stratego resign", args: []discordtest.Arg{opt("match", "2")}, want: "`/stratego setup`"},
		{name: "resign no such match", cmd: "stratego resign", args: []discordtest.Arg{opt("match", "abc")}, want: "pick one"},
		{name: "resign another's match", cmd: "stratego resign", args: []discordtest.Arg{opt("match", "3")}},
		{name: "draw in a match in set-up", cmd: "stratego draw", args: []discordtest.Arg{opt("match", "2")}},
		{name: "accept a draw nobody offered", cmd: "stratego draw", args: []discordtest.Arg{opt("action", "accept"), opt("match", "1")}, want: "`/stratego draw`"},
		{name: "draw in a match over", cmd: "stratego draw", args: []discordtest.Arg{opt("match", "4")}, want: "`/stratego games`"},
		{name: "give time in a match in set-up", cmd: "stratego give_time", args: []discordtest.Arg{opt("match", "2")}, want: "`/stratego setup`"},
		{name: "give time in a match over", cmd: "stratego give_time", args: []discordtest.Arg{opt("match", "4")}, want: "`/stratego games`"},
		{name: "pause a match in set-up", cmd: "stratego pause", args: []discordtest.Arg{opt("days", 3), opt("match", "2")}, want: "`/stratego setup`"},
		{name: "accept a pause nobody proposed", cmd: "stratego pause", args: []discordtest.Arg{opt("action", "accept"), opt("match", "1")}, want: "`/stratego pause"},
		{name: "pause a match over", cmd: "stratego pause", args: []discordtest.Arg{opt("days", 3), opt("match", "4")}, want: "`/stratego games`"},
		{name: "history of no such match", cmd: "stratego history", args: []discordtest.Arg{opt("match", "99")}, want: "`/stratego games`"},
		{name: "history of another's match", cmd: "stratego history", args: []discordtest.Arg{opt("match", "3")}},
		{name: "record of a running match", cmd: "stratego record", args: []discordtest.Arg{opt("match", "1")}, want: "once the match is over"},
		{name: "record of a match in set-up", cmd: "stratego record", args: []discordtest.Arg{opt("match", "2")}},
		{name: "record of no such match", cmd: "stratego record", args: []discordtest.Arg{opt("match", "x")}, want: "pick one"},
		{name: "watch no such match", cmd: "stratego watch", args: []discordtest.Arg{opt("match", "99")}, want: "`match` option"},
		{name: "watch another server's match", cmd: "stratego watch", args: []discordtest.Arg{opt("match", "5")}, want: "`match` option"},
		{name: "watch a match over", cmd: "stratego watch", args: []discordtest.Arg{opt("match", "4")}, want: "`/stratego record`"},
		{name: "watch a match in set-up", cmd: "stratego watch", args: []discordtest.Arg{opt("match", "2")}, want: "setting up"},
		{name: "history of a match in set-up", cmd: "stratego history", args: []discordtest.Arg{opt("match", "2")}, want: "`/stratego setup`"},
		{name: "watch @here", cmd: "stratego watch", args: []discordtest.Arg{opt("match", "@here")}, want: "for example `12`"},
		{name: "cancel by a member", cmd: "stratego cancel", args: []discordtest.Arg{opt("match", "3"), opt("reason", "no")}, want: "`/stratego resign`"},
		{name: "cancel another server's match", who: "carol", cmd: "stratego cancel", args: []discordtest.Arg{opt("match", "5"), opt("reason", "no")}, want: "`match` option"},
		{name: "cancel a match over", who: "carol", cmd: "stratego cancel", args: []discordtest.Arg{opt("match", "4"), opt("reason", "no")}, want: "`/stratego record`"},
		{name: "cancel no such match", who: "carol", cmd: "stratego cancel", args: []discordtest.Arg{opt("match", "99"), opt("reason", "@everyone")}},
		{name: "award by a member", cmd: "stratego award", args: []discordtest.Arg{opt("match", "3"), opt("winner", h.alice), opt("reason", "no")}},
		{name: "award to one who does not play", who: "carol", cmd: "stratego award", args: []discordtest.Arg{opt("match", "1"), opt("winner", h.carol), opt("reason", "no")}, want: "must be one of the players"},
		{name: "award a match in set-up", who: "carol", cmd: "stratego award", args: []discordtest.Arg{opt("match", "2"), opt("winner", h.alice), opt("reason", "no")}, want: "`/stratego cancel`"},
		{name: "award another server's match", who: "carol", cmd: "stratego award", args: []discordtest.Arg{opt("match", "5"), opt("winner", h.alice), opt("reason", "no")}},

		// Squares and moves.
		{name: "square Z9", cmd: "stratego move", args: []discordtest.Arg{opt("from", "Z9"), opt("to", "A5")}, want: "B4"},
		{name: "square A0", cmd: "stratego move", args: []discordtest.Arg{opt("from", "A4"), opt("to", "A0")}, want: "B4"},
		{name: "square A11", cmd: "stratego move", args: []discordtest.Arg{opt("from", "A4"), opt("to", "A11")}, want: "B4"},
		{name: "square 4A", cmd: "stratego move", args: []discordtest.Arg{opt("from", "4A"), opt("to", "A5")}, want: "B4"},
		{name: "squares in lower case with spaces", cmd: "stratego move", args: []discordtest.Arg{opt("from", "a4 "), opt("to", " c5")}, want: "lake"},
		{name: "square @@@", cmd: "stratego move", args: []discordtest.Arg{opt("from", "@@@"), opt("to", "A5")}, want: "B4"},
		{name: "onto a lake", cmd: "stratego move", args: []discordtest.Arg{opt("from", "C4"), opt("to", "C5")}, want: "lake"},
		{name: "onto an own piece", cmd: "stratego move", args: []discordtest.Arg{opt("from", "A4"), opt("to", "A3")}, want: "own pieces"},
		{name: "from an empty square", cmd: "stratego move", args: []discordtest.Arg{opt("from", "A5"), opt("to", "A6")}, want: "no piece on A5"},
		{name: "the opponent's piece", cmd: "stratego move", args: []discordtest.Arg{opt("from", "A7"), opt("to", "A6")}},
		{name: "a Bomb or the Flag", cmd: "stratego move", args: []discordtest.Arg{opt("from", "J1"), opt("to", "J2")}},
		{name: "to the same square", cmd: "stratego move", args: []discordtest.Arg{opt("from", "A4"), opt("to", "A4")}, want: "another square"},
		{name: "a guess in Classic", cmd: "stratego move", args: []discordtest.Arg{opt("from", "A4"), opt("to", "A5"), opt("guess", "Marshal")}, want: "no Infiltrator"},
		{name: "out of turn", who: "bob", cmd: "stratego move", args: []discordtest.Arg{opt("from", "A7"), opt("to", "A6"), opt("match", "1")}},
		{name: "out of turn unnamed", who: "bob", cmd: "stratego move", args: []discordtest.Arg{opt("from", "A7"), opt("to", "A6")}, want: "`/stratego games`"},

		// Infiltrations: frank's Infiltrator on A7, in carol's zone, his
		// Marshal on A6 (infiltratorMatch). Discord lets only the guesses of
		// the option's list through; by DM a member may type anything.
		{name: "a guess three squares away", who: "frank", cmd: "stratego move", args: []discordtest.Arg{opt("from", "A7"), opt("to", "D7"), opt("guess", "General"), opt("match", "6")}, want: "one or two squares away"},
		{name: "a guess past a piece", who: "frank", cmd: "stratego move", args: []discordtest.Arg{opt("from", "A7"), opt("to", "A9"), opt("guess", "General"), opt("match", "6")}, want: "A8 to be empty"},
		{name: "a guess on a diagonal", who: "frank", cmd: "stratego move", args: []discordtest.Arg{opt("from", "A7"), opt("to", "B8"), opt("guess", "General"), opt("match", "6")}, want: "one or two squares away"},
		{name: "a guess at an own piece", who: "frank", cmd: "stratego move", args: []discordtest.Arg{opt("from", "A7"), opt("to", "A6"), opt("guess", "General"), opt("match", "6")}, want: "own pieces"},
		{name: "a guess by the Marshal", who: "frank", cmd: "stratego move", args: []discordtest.Arg{opt("from", "A6"), opt("to", "A7"), opt("guess", "General"), opt("match", "6")}, want: "only the Infiltrator"},
		{name: "a guess in a match in set-up", cmd: "stratego move", args: []discordtest.Arg{opt("from", "A4"), opt("to", "A5"), opt("guess", "General"), opt("match", "2")}, want: "`/stratego setup`"},
		{name: "a guess in Classic by DM", text: "A4~A5=F", want: "no Infiltrator"},
		{name: "a guess by DM of no piece", who: "frank", text: "A7~A8=Q", want: "not a piece"},
		{name: "a guess by DM of rank 1", who: "frank", text: "A7~A8=1", want: "10 (Marshal)"},
		{name: "a guess by DM left out", who: "frank", text: "A7~A8", want: "after `=`"},
		{name: "a guess by DM left blank", who: "frank", text: "A7~A8=", want: "after `=`"},
		{name: "a guess by DM past a piece", who: "frank", text: "A7~A9=Marshal", want: "A8 to be empty"},
		{name: "a guess by DM at an own piece", who: "frank", text: "a7 ~ a6 = spy", want: "own pieces"},

		// Challenges, practice, seeks.
		{name: "challenge oneself", cmd: "stratego challenge", args: []discordtest.Arg{opt("opponent", h.alice)}, want: "Pick another member"},
		{name: "challenge with an army outside Custom", cmd: "stratego challenge", args: []discordtest.Arg{opt("opponent", h.bob), opt("army", "10 9 S F")}, want: "`variant: Custom`"},
		{name: "custom army of unknown ranks", cmd: "stratego challenge", args: []discordtest.Arg{opt("opponent", h.bob), opt("variant", "Custom"), opt("army", "X Y Z F")}, want: "use a rank number"},
		{name: "custom army without a Flag", cmd: "stratego challenge", args: []discordtest.Arg{opt("opponent", h.bob), opt("variant", "Custom"), opt("army", "10 9 8")}, want: "one Flag"},
		{name: "custom army of 50 Marshals", cmd: "stratego challenge", args: []discordtest.Arg{opt("opponent", h.bob), opt("variant", "Custom"), opt("army", strings.Repeat("10 ", 50)+"F")}, want: "at most 40"},
		{name: "custom army @everyone", cmd: "stratego challenge", args: []discordtest.Arg{opt("opponent", h.bob), opt("variant", "Custom"), opt("army", "@everyone F")}},
		{name: "custom without an army", cmd: "stratego challenge", args: []discordtest.Arg{opt("opponent", h.bob), opt("variant", "Custom")}, want: "`army` option"},
		{name: "open challenge with an empty rating range", cmd: "stratego challenge", args: []discordtest.Arg{opt("rating_min", 1800), opt("rating_max", 1200)}, want: "must not be above"},
		{name: "named challenge with a rating range", cmd: "stratego challenge", args: []discordtest.Arg{opt("opponent", h.bob), opt("rating_min", 1200)}, want: "leave out `opponent`"},
		{name: "challenge in the DM", dm: true, cmd: "stratego challenge", args: []discordtest.Arg{opt("opponent", h.bob)}, want: "server channel"},
		{name: "practice with a bad army", cmd: "stratego practice", args: []discordtest.Arg{opt("variant", "Custom"), opt("army", "1 2 3")}, want: "use 10 (Marshal)"},
		{name: "seek with an empty rating range", cmd: "stratego seek", args: []discordtest.Arg{opt("time", seekTimes[0]), opt("rating_min", 2000), opt("rating_max", 100)}},
		{name: "seek custom", cmd: "stratego seek", args: []discordtest.Arg{opt("time", seekTimes[0]), opt("variant", "Custom")}, want: "challenge a member"},
		{name: "seek in the DM", dm: true, cmd: "stratego seek", args: []discordtest.Arg{opt("time", seekTimes[0])}, want: "server channel"},
		{name: "seeks in the DM", dm: true, cmd: "stratego seeks", want: "server channel"},

		// Settings and vacations.
		{name: "delete a set-up never saved", cmd: "stratego settings", args: []discordtest.Arg{opt("delete_setup", "nothing")}, want: "no saved set-up called \"nothing\""},
		{name: "default a set-up never saved", cmd: "stratego settings", args: []discordtest.Arg{opt("default_setup", "<@123>")}},
		{name: "save a set-up under a blank name", cmd: "stratego settings", args: []discordtest.Arg{opt("save_setup", "  ")}},
		{name: "end a vacation never begun", cmd: "stratego vacation", args: []discordtest.Arg{opt("end", true)}},
		{name: "vacation without days", cmd: "stratego vacation", want: "`/stratego vacation days:7`"},
		{name: "vacation of days and an end", cmd: "stratego vacation", args: []discordtest.Arg{opt("days", 3), opt("end", true)}, want: "either `days` or `end:true`"},

		// Server settings.
		{name: "server by a member", cmd: "stratego server", args: []discordtest.Arg{opt("boards", "thread")}, want: "Manage Server"},
		{name: "server in the DM", dm: true, cmd: "stratego server", want: "in one of its channels"},
		{name: "remove a channel never listed", who: "carol", cmd: "stratego server", args: []discordtest.Arg{opt("remove_channel", h.channel)}, want: "`/stratego server` shows the list"},
		{name: "any channel and one channel at once", who: "carol", cmd: "stratego server", args: []discordtest.Arg{opt("allow_channel", h.channel), opt("any_channel", true)}, want: "Choose either"},
		{name: "a starter role and anyone at once", who: "carol", cmd: "stratego server", args: []discordtest.Arg{opt("starter_role", "123"), opt("anyone_starts", true)}, want: "Choose either"},
		{name: "a default move limit below a challenge's least", who: "carol", cmd: "stratego server", args: []discordtest.Arg{opt("max_moves", 5)}, want: "0 (no limit) or from 10 to 100,000 moves"},
		{name: "stats in the DM", dm: true, cmd: "stratego stats", want: "server channel"},
		{name: "leaderboard in the DM", dm: true, cmd: "stratego leaderboard", want: "server channel"},
		{name: "watch in the DM", dm: true, cmd: "stratego watch", args: []discordtest.Arg{opt("match", "1")}, want: "in one of its channels"},
		{name: "cancel in the DM", dm: true, who: "carol", cmd: "stratego cancel", args: []discordtest.Arg{opt("match", "1"), opt("reason", "no")}, want: "run `/stratego cancel` in one of its channels"},
		{name: "award in the DM", dm: true, who: "carol", cmd: "stratego award", args: []discordtest.Arg{opt("match", "1"), opt("winner", h.alice), opt("reason", "no")}, want: "run `/stratego award` in one of its channels"},

		// Tournaments.
		{name: "tournament in the DM", dm: true, cmd: "stratego tournament list", want: "in one of its channels"},
		{name: "tournament of a blank name", who: "carol", cmd: "stratego tournament create", args: []discordtest.Arg{opt("name", "   "), opt("format", "swiss"), opt("rounds", 3)}, want: "1 to 80 characters"},
		{name: "tournament created by a member", cmd: "stratego tournament create", args: []discordtest.Arg{opt("name", "@everyone"), opt("format", "swiss"), opt("rounds", 3)}},
		{name: "round robin with rounds", who: "carol", cmd: "stratego tournament create", args: []discordtest.Arg{opt("name", "Cup"), opt("format", "round-robin"), opt("rounds", 3)}, want: "leave out the `rounds` option"},
		{name: "join no tournament", cmd: "stratego tournament join", want: "`/stratego tournament create`"},
		{name: "join no such tournament", cmd: "stratego tournament join", args: []discordtest.Arg{opt("tournament", 99)}, want: "`/stratego tournament list`"},
		{name: "leave no tournament", cmd: "stratego tournament leave"},
		{name: "standings of no such tournament", cmd: "stratego tournament standings", args: []discordtest.Arg{opt("tournament", 99)}, want: "`/stratego tournament list`"},
		{name: "remove from no tournament", who: "carol", cmd: "stratego tournament remove", args: []discordtest.Arg{opt("player", h.bob)}},

		// DMs.
		{name: "a set-up too short", text: "10 9 8 7\nB B B\nF", want: "Fix it and send it again"},
		{name: "a set-up of unknown ranks", text: "X X X X X X X X X X\nY Y Y Y Y Y Y Y Y Y\nZ Z Z Z Z Z Z Z Z Z\nQ Q Q Q Q Q Q Q Q Q", want: "Fix it and send it again"},
		{name: "a set-up of too many Marshals", text: strings.Repeat("10 10 10 10 10 10 10 10 10 10\n", 4), want: "Extra: 39 Marshals"},
		{name: "a set-up of @everyone", text: "@everyone\n@here\n<@123>\n<@&456>", want: "Fix it and send it again"},
		{name: "a move off the board", text: "Z9-A1", want: "`Z9` is not a square"},
		{name: "a move off the board, the second square", text: "a4 to a11", want: "`A11` is not a square"},
		{name: "an infiltration off the board", text: "E8~K10=F", want: "`K10` is not a square"},
		{name: "one row of a set-up", text: "10 9 8 8 7 7 6 6 6 S", want: "4 lines"},
		{name: "one compact row of a set-up", text: "B8S7F6B5B4", want: "4 lines"},
		{name: "a move onto an own piece by DM", text: "A4-A3", want: "own pieces"},
		{name: "a move of two squares in one", text: "A4A5A6", want: "`B4-B5`"},
		{name: "a move onto a lake by DM", text: "C4-C5", want: "lake"},
		{name: "a greeting", text: "hello @everyone", want: "4 lines"},
		{name: "a move out of turn by DM", who: "bob", text: "A7-A6", want: "`/stratego games`"},

		// The set-up form.
		{name: "a set-up too short in the form", form: "10 9 8 7\nB B B\nF", want: "Press **Edit** to try again"},
		{name: "a set-up of blanks in the form", form: " \n \n ", want: "Press **Edit**"},
		{name: "a move in the form", form: "A4-A5", want: "Press **Edit**"},
		{name: "a set-up of unknown ranks in the form", form: "X X X X X X X X X X\nY Y Y Y Y Y Y Y Y Y\nZ Z Z Z Z Z Z Z Z Z\nQ Q Q Q Q Q Q Q Q Q", want: "\"X\" is not a piece"},
		{name: "a set-up of a word that names no piece in the form", form: "Q Q Q Q Q Q Q Q Q Q\nY Y Y Y Y Y Y Y Y Y\nZ Z Z Z Z Z Z Z Z Z\nQ Q Q Q Q Q Q Q Q Q",
			want: "\"Q\" is not a piece; write one of 10 (Marshal), 9 (General), 8 (Colonel), 7 (Major), 6 (Captain), 5 (Lieutenant), 4 (Sergeant), 3 (Miner), 2 (Scout), S (Spy), B (Bomb), F (Flag)"},
		{name: "a set-up of too many Marshals in the form", form: strings.Repeat("10 10 10 10 10 10 10 10 10 10\n", 4), want: "Extra: 39 Marshals"},
		{name: "a set-up of @everyone in the form", form: "@everyone\n@here\n<@123>\n<@&456>", want: "Press **Edit**"},
		{name: "a set-up with an Infiltrator in Classic in the form", form: game.FormatSetup(infiltratorSetup(t), game.NumberingModern), want: "Infiltrator"},
		{name: "a set-up of five rows in the form", form: strings.Repeat("10 9 8 8 7 7 7 6 6 6\n", 5), want: "Press **Edit**"},
		{name: "a set-up as one long line in the form", form: strings.Repeat("B", 40), want: "Press **Edit**"},
		{name: "a set-up of classic numbering declared twice in the form", form: "classic\nmodern\n" + game.FormatSetup(placed(t, nil), game.NumberingModern), want: "Press **Edit**"},
	}

	english := map[string]string{}
	ranks, carolsRanks := rankNames(), ranksNamed(game.Colonel, game.Major, game.Captain, game.Lieutenant, game.Sergeant)
	for _, locale := range []string{"en", "nl", "de", "fr"} {
		for _, m := range members {
			m.SetLocale(locale)
			// The locale of DMs is the one the member's client last reported.
			m.SlashCommand(t, h.channel, "stratego rules").Reply(t)
		}
		for _, tc := range tests {
			who := members[tc.who]
			if who == nil {
				who = h.alice
			}
			answer, pings := sendBadInput(t, h, who, tc)
			where := fmt.Sprintf("%s (%s)", tc.name, locale)
			switch {
			case answer == "":
				t.Errorf("%s: no answer", where)
				continue
			case goish.MatchString(mdUnescape(answer)): // as Discord shows it: a name's markdown escaped is no Go
				t.Errorf("%s: a Go-ish answer %q", where, answer)
			case pings != "":
				t.Errorf("%s: the answer %q may ping: %s", where, answer, pings)
			case (who == h.bob || who == h.carol) && ranks.MatchString(answer):
				// Bob and carol see none of alice's pieces.
				t.Errorf("%s: %q names a piece", where, answer)
			case who == frank && carolsRanks.MatchString(answer):
				// Frank names his guesses and his own pieces, never carol's.
				t.Errorf("%s: %q names one of carol's pieces", where, answer)
			}
			if locale == "en" {
				english[tc.name] = answer
				if testing.Verbose() {
					t.Logf("%s: %q", tc.name, answer)
				}
				if tc.want != "" && !strings.Contains(answer, tc.want) {
					t.Errorf("%s: %q does not say %q", where, answer, tc.want)
				}
			} else {
				plain := regexp.MustCompile("`[^`]*`|\\*\\*[^*]*\\*\\*").ReplaceAllString(answer, "")
				if answer == english[tc.name] || englishTells.MatchString(plain) {
					t.Errorf("%s: %q is English", where, answer)
				}
			}
			if now := versions(); fmt.Sprint(now) != fmt.Sprint(before) {
				t.Fatalf("%s changed a match: versions %v, were %v", where, now, before)
			}
		}
	}
}

// infiltratorMatch imports match #6 of the Infiltrator variant, red (to
// move) against blue, after twelve moves: red's Infiltrator went up the B
// file and into blue's zone on A7, past blue's Scout, which red's Marshal
// took on A5 before going on to A6. Blue's pieces next to A7 are a
// Colonel (A8), a Major (B7) and a Captain (A9), and blue's Sergeants moved
// to I5 and J5.
func infiltratorMatch(t *testing.T, h *harness, red, blue *discordtest.Member) *storage.Match {
	t.Helper()
	rules := game.DefaultRules(game.VariantInfiltrator)
	fill := func(fixed map[[2]int]game.Rank) game.Setup { return placedIn(t, rules, fixed) }
	// Red's left is A; blue's is J.
	redSetup := fill(map[[2]int]game.Rank{{0, 0}: game.Marshal, {0, 1}: game.Infiltrator})
	blueSetup := fill(map[[2]int]game.Rank{{0, 9}: game.Scout, {0, 8}: game.Major, {1, 9}: game.Colonel, {2, 9}: game.Captain,
		{0, 0}: game.Sergeant, {0, 1}: game.Sergeant})
	m := &storage.Match{GuildID: h.guild.ID, ChannelID: h.channel.ID, Rules: rules, MoveTime: 24 * time.Hour,
		Phase: storage.PhasePlaying, Created: T0, Deadline: T0.Add(7 * 24 * time.Hour)}
	m.Players[game.Red] = storage.Player{UserID: red.ID, Name: red.Name}
	m.Players[game.Blue] = storage.Player{UserID: blue.ID, Name: blue.Name}
	m.Setups[game.Red] = storage.SideSetup{Status: storage.SetupConfirmed, Setup: redSetup, At: T0}
	m.Setups[game.Blue] = storage.SideSetup{Status: storage.SetupConfirmed, Setup: blueSetup, At: T0}
	for k, mv := range []string{"B4-B5", "A7-A6", "B5-B6", "A6-A5", "B6-A6", "J7-J6", "A6-A7", "J6-J5", "A4-A5", "I7-I6", "A5-A6", "I6-I5"} {
		parsed, err := game.ParseMove(mv, game.NumberingModern)
		if err != nil {
			t.Fatal(err)
		}
		m.Log = append(m.Log, storage.Action{Kind: storage.ActMove, Side: game.Side(k % 2), Move: parsed, At: T0})
	}
	m, err := h.db.CreateMatch(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	g, err := m.Game()
	if err != nil {
		t.Fatal(err)
	}
	for sq, want := range map[string]game.Rank{"A7": game.Infiltrator, "A6": game.Marshal} {
		square, _ := game.ParseSquare(sq)
		if side, r, ok := g.PieceAt(square); !ok || side != game.Red || r != want {
			t.Fatalf("the Infiltrator match has %v %v on %s", side, r, sq)
		}
	}
	if g.ToMove() != game.Red || m.Phase != storage.PhasePlaying {
		t.Fatalf("the Infiltrator match: %v to move, %v", g.ToMove(), m.Phase)
	}
	return m
}

// infiltratorSetup is a Classic set-up with an Infiltrator instead of a
// Scout: one piece too many of one rank, one too few of another.
func infiltratorSetup(t *testing.T) game.Setup {
	s := placed(t, nil)
	for col := range s[0] {
		if s[0][col] == game.Scout {
			s[0][col] = game.Infiltrator
			return s
		}
	}
	t.Fatal("no Scout in the front row")
	return s
}

// ranksNamed matches the names of these ranks, in any language.
func ranksNamed(ranks ...game.Rank) *regexp.Regexp {
	var names []string
	for _, code := range []string{"en", "nl", "de", "fr"} {
		p := lang.For(code)
		for _, r := range ranks {
			names = append(names, regexp.QuoteMeta(p.Sprintf(r.Name())))
		}
	}
	return regexp.MustCompile(`(?:^|[^\p{L}])(?:` + strings.Join(names, "|") + `)(?:s|es|e|en|n|men|nen)?(?:$|[^\p{L}])`)
}

// sendBadInput sends one bad input and returns the answer, and why it
// could ping anybody ("" when it cannot).
func sendBadInput(t *testing.T, h *harness, who *discordtest.Member, tc badInput) (string, string) {
	t.Helper()
	if tc.form != "" {
		in := who.SlashCommand(t, h.channel, "stratego setup", discordtest.Opt("match", "2"))
		invite := in.Reply(t)
		edit := who.ClickButton(t, invite, customID{kind: kindSetup, action: actEdit, id: 2}.String())
		if r := edit.Wait(t); r.Modal == nil {
			t.Fatalf("%s: Edit shows no form (%v)", tc.name, r.Type)
		}
		submitted := who.SubmitModal(t, edit, map[string]string{setupField: tc.form})
		reply := submitted.Reply(t)
		if !reply.Ephemeral {
			t.Errorf("%s: the answer %q is public", tc.name, reply.Content)
		}
		return reply.Content, pingsIn(h, "", submitted.Token)
	}
	if tc.cmd == "" {
		sent := who.SendDM(t, tc.text)
		reply := who.WaitDM(t, func(m *discordtest.Message) bool {
			return m.MessageReference != nil && m.MessageReference.MessageID == sent.ID
		})
		return reply.Content, pingsIn(h, reply.Content, "")
	}
	ch := h.channel
	if tc.dm {
		ch = who.DM()
	}
	in := who.SlashCommand(t, ch, tc.cmd, tc.args...)
	r := in.Wait(t)
	if r.Modal != nil {
		return "(a form: " + r.Modal.Title + ")", ""
	}
	reply := in.Reply(t)
	if !tc.dm && !reply.Ephemeral {
		t.Errorf("%s: the answer %q is public", tc.name, reply.Content)
	}
	return reply.Content, pingsIn(h, "", in.Token)
}

// pingsIn says why a message the bot sent (by its text, or by its
// interaction's token) could ping: a mention in content that
// allowed_mentions does not rule out.
func pingsIn(h *harness, text, token string) string {
	for _, r := range h.srv.Requests("") {
		if r.Method == "GET" || len(r.Body) == 0 {
			continue
		}
		if token != "" && !strings.Contains(r.Path, token) {
			continue
		}
		var body struct {
			Content         *string         `json:"content"`
			AllowedMentions json.RawMessage `json:"allowed_mentions"`
			Data            *struct {
				Content         *string         `json:"content"`
				AllowedMentions json.RawMessage `json:"allowed_mentions"`
			} `json:"data"`
		}
		if json.Unmarshal(r.Body, &body) != nil {
			continue
		}
		content, allowed := body.Content, body.AllowedMentions
		if body.Data != nil {
			content, allowed = body.Data.Content, body.Data.AllowedMentions
		}
		if content == nil || text != "" && *content != text {
			continue
		}
		if !regexp.MustCompile(`@everyone|@here|<@[!&]?\d+>`).MatchString(*content) {
			continue
		}
		var am struct {
			Parse []string `json:"parse"`
			Users []string `json:"users"`
			Roles []string `json:"roles"`
		}
		if len(allowed) == 0 || json.Unmarshal(allowed, &am) != nil || len(am.Parse) > 0 || len(am.Roles) > 0 {
			return fmt.Sprintf("%s %s sends allowed_mentions %s", r.Method, r.Route, allowed)
		}
	}
	return ""
}

// TestOddInputEchoed: what members type that the bot takes and shows
// again, to others too — a tournament's name, a moderator's reason, a
// saved set-up's name — pings nobody, however full of mentions it is.
func TestOddInputEchoed(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	moderator(h) // carol
	h.dayMatch()
	mentions := "@everyone @here <@" + h.bob.ID + "> <@&123> **x**"
	long := strings.Repeat("@everyone ", storage.MaxTournamentName/10)[:storage.MaxTournamentName]
	for _, name := range []string{mentions, long} {
		created := h.carol.SlashCommand(t, h.channel, "stratego tournament create", discordtest.Opt("name", name),
			discordtest.Opt("format", "swiss"), discordtest.Opt("rounds", 2)).Reply(t)
		if created.Ephemeral || !strings.Contains(created.Content, "Tournament #") {
			t.Fatalf("the tournament %q: %q", name, created.Content)
		}
	}
	for _, m := range []*discordtest.Member{h.alice, h.bob} {
		m.SlashCommand(t, h.channel, "stratego tournament join", discordtest.Opt("tournament", 1)).Reply(t)
	}
	h.carol.SlashCommand(t, h.channel, "stratego tournament list").Reply(t)
	h.alice.SlashCommand(t, h.channel, "stratego tournament standings", discordtest.Opt("tournament", 1)).Reply(t)
	h.alice.SlashCommand(t, h.channel, "stratego settings", discordtest.Opt("save_setup", "@everyone <@&1>")).Reply(t)
	h.carol.SlashCommand(t, h.channel, "stratego tournament cancel", discordtest.Opt("tournament", 2)).Reply(t)
	cancelled := h.carol.SlashCommand(t, h.channel, "stratego cancel", discordtest.Opt("match", "1"), discordtest.Opt("reason", mentions)).Reply(t)
	if h.match(1).Phase != storage.PhaseAbandoned {
		t.Fatalf("the match was not called off: %q", cancelled.Content)
	}
	h.alice.WaitDM(t, contains("called off"))
	h.outboxEmpty()
	if why := pingsIn(h, "", ""); why != "" {
		t.Error(why)
	}
	// The names and the reason were shown: in the channel, and by DM.
	shown := map[string]int{}
	for _, r := range h.srv.Requests("") {
		if r.Method != "GET" && strings.Contains(string(r.Body), "@everyone") {
			shown[r.Route]++
		}
	}
	if shown["POST /channels/{channel_id}/messages"] == 0 || shown["POST /interactions/{interaction_id}/{interaction_token}/callback"] == 0 {
		t.Errorf("the odd texts were shown by %v", shown)
	}
}

// TestSetupButtonsAfterTheStart: the Edit and Random buttons of a set-up
// invite pressed once the match is being played, and the form sent then,
// say so and where the board is; once it is over, that it is over.
func TestSetupButtonsAfterTheStart(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.challenge("Classic", discordtest.Opt("move_time", "24h"))
	invite := h.alice.WaitDM(t, func(m *discordtest.Message) bool {
		return strings.Contains(m.Content, "**Match #1**") && hasButton(m, "Edit")
	})
	edit := h.alice.ClickButton(t, invite, button(t, invite, "Edit"))
	if r := edit.Wait(t); r.Modal == nil {
		t.Fatalf("Edit in set-up shows no form (%v)", r.Type)
	}
	sergeant := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant})
	h.sendSetups(sergeant, sergeant)

	const playing = "the game is being played. `/stratego board match:1`"
	for _, label := range []string{"Edit", "Random"} {
		if got := h.alice.ClickButton(t, invite, button(t, invite, label)).Reply(t); !strings.Contains(got.Content, playing) {
			t.Errorf("%s while the match is played: %q", label, got.Content)
		}
	}
	form := game.FormatSetup(sergeant, game.NumberingModern)
	if got := h.alice.SubmitModal(t, edit, map[string]string{setupField: form}).Reply(t); !strings.Contains(got.Content, playing) {
		t.Errorf("the form sent while the match is played: %q", got.Content)
	}

	ask := h.alice.SlashCommand(t, h.channel, "stratego resign", discordtest.Opt("match", "1")).Reply(t)
	resigned := h.alice.ClickButton(t, ask, button(t, ask, "Resign")).Updated(t)
	if h.match(1).Phase.Active() {
		t.Fatalf("the match is not over: %q", resigned.Content)
	}
	if got := h.alice.ClickButton(t, invite, button(t, invite, "Edit")).Reply(t); !strings.Contains(got.Content, "This match is over") {
		t.Errorf("Edit once the match is over: %q", got.Content)
	}
}
