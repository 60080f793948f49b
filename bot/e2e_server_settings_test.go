package bot

import (
	"bytes"
	"cmp"
	"context"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// TestServerSettings: members with Manage Server choose where matches are
// played, who starts them, their defaults, practice and threads; everyone
// else may not, and every choice is respected, with a refusal that says
// what to do instead.
func TestServerSettings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// set is what carol, a moderator, sets; then alice tries the command.
		set     func(h *harness) []discordtest.Arg
		try     func(h *harness) *discordtest.Interaction
		refusal string // in alice's private answer; "" when it goes through
		check   func(t *testing.T, h *harness, answer *discordtest.Message)
	}{
		{
			name: "matches only in a listed channel",
			set: func(h *harness) []discordtest.Arg {
				return []discordtest.Arg{discordtest.Opt(optAllowChannel, h.guild.AddChannel("stratego"))}
			},
			try: func(h *harness) *discordtest.Interaction {
				return h.alice.SlashCommand(h.t, h.channel, "stratego challenge", discordtest.Opt("opponent", h.bob))
			},
			refusal: "Matches on this server are played in <#",
		},
		{
			name: "a listed channel works",
			set: func(h *harness) []discordtest.Arg {
				return []discordtest.Arg{discordtest.Opt(optAllowChannel, h.channel)}
			},
			try: func(h *harness) *discordtest.Interaction {
				return h.alice.SlashCommand(h.t, h.channel, "stratego challenge", discordtest.Opt("opponent", h.bob))
			},
		},
		{
			name: "a role to start matches",
			set: func(h *harness) []discordtest.Arg {
				return []discordtest.Arg{discordtest.Opt(optStarterRole, h.guild.AddRole("players", 0).ID)}
			},
			try: func(h *harness) *discordtest.Interaction {
				return h.alice.SlashCommand(h.t, h.channel, "stratego challenge", discordtest.Opt("opponent", h.bob))
			},
			refusal: "starting a match needs the <@&",
		},
		{
			// Discord's role picker offers @everyone, the role every member
			// has though no member lists it: it lets everyone start.
			name: "@everyone as the role to start matches",
			set: func(h *harness) []discordtest.Arg {
				return []discordtest.Arg{discordtest.Opt(optStarterRole, h.guild.Everyone().ID)}
			},
			try: func(h *harness) *discordtest.Interaction {
				return h.alice.SlashCommand(h.t, h.channel, "stratego challenge", discordtest.Opt("opponent", h.bob))
			},
		},
		{
			name: "@everyone as the organiser role",
			set: func(h *harness) []discordtest.Arg {
				return []discordtest.Arg{discordtest.Opt(optOrganiserRole, h.guild.Everyone().ID)}
			},
			try: func(h *harness) *discordtest.Interaction {
				return h.alice.SlashCommand(h.t, h.channel, "stratego tournament create",
					discordtest.Opt(optName, "Cup"), discordtest.Opt(optFormat, formatSwiss), discordtest.Opt(optRounds, 3))
			},
			check: func(t *testing.T, h *harness, answer *discordtest.Message) {
				if !strings.Contains(answer.Content, "Tournament #1: Cup") {
					t.Errorf("the tournament is announced as %q", answer.Content)
				}
			},
		},
		{
			name: "practice off",
			set: func(h *harness) []discordtest.Arg {
				return []discordtest.Arg{discordtest.Opt(optPracticeAllowed, false)}
			},
			try: func(h *harness) *discordtest.Interaction {
				return h.alice.SlashCommand(h.t, h.channel, "stratego practice")
			},
			refusal: "Practice games against the computer are turned off on this server",
		},
		{
			name: "default variant and move time",
			set: func(h *harness) []discordtest.Arg {
				return []discordtest.Arg{discordtest.Opt(optVariant, "Barrage"), discordtest.Opt(optMoveTime, "1h")}
			},
			try: func(h *harness) *discordtest.Interaction {
				return h.alice.SlashCommand(h.t, h.channel, "stratego challenge", discordtest.Opt("opponent", h.bob))
			},
			check: func(t *testing.T, h *harness, answer *discordtest.Message) {
				if !strings.Contains(answer.Content, "Barrage · 1 hour per move") {
					t.Errorf("the challenge says %q", answer.Content)
				}
			},
		},
		{
			name: "default rule options, overridden by a challenge's own",
			set: func(h *harness) []discordtest.Arg {
				return []discordtest.Arg{discordtest.Opt(optTwoSquares, 5), discordtest.Opt(optMoreSquares, false), discordtest.Opt(optMaxMoves, 500)}
			},
			try: func(h *harness) *discordtest.Interaction {
				return h.alice.SlashCommand(h.t, h.channel, "stratego challenge", discordtest.Opt("opponent", h.bob), discordtest.Opt(optMaxMoves, 800))
			},
			check: func(t *testing.T, h *harness, answer *discordtest.Message) {
				for _, want := range []string{"Two-Squares 5", "More-Squares off", "draw after 800 moves"} {
					if !strings.Contains(answer.Content, want) {
						t.Errorf("the challenge says %q; want %q", answer.Content, want)
					}
				}
				shown := h.carol.SlashCommand(t, h.channel, "stratego server").Reply(t)
				if !strings.Contains(shown.Content, "rule options of new matches: Two-Squares 5 · More-Squares off · draw after 500 moves") {
					t.Errorf("the settings show %q", shown.Content)
				}
				h.bob.ClickButton(t, answer, button(t, answer, "Accept")).Reply(t)
				if r := h.match(1).Rules; r.TwoSquares != 5 || r.MoreSquares || !r.ScoutStrikesAtRange || r.MaxMoves != 800 {
					t.Errorf("the match's rules: %+v", r)
				}
			},
		},
		{
			name: "a thread per match",
			set: func(h *harness) []discordtest.Arg {
				return []discordtest.Arg{discordtest.Opt(optBoardMode, "thread")}
			},
			try: func(h *harness) *discordtest.Interaction {
				return h.alice.SlashCommand(h.t, h.channel, "stratego challenge", discordtest.Opt("opponent", h.bob))
			},
			check: func(t *testing.T, h *harness, answer *discordtest.Message) {
				h.bob.ClickButton(t, answer, button(t, answer, "Accept")).Reply(t)
				h.srv.WaitFor(t, "the match's thread", func() bool { return len(h.channel.Threads()) == 1 })
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			args := tc.set(h)
			before, err := h.db.Server(context.Background(), h.guild.ID)
			if err != nil {
				t.Fatal(err)
			}
			// Not a moderator yet: refused, nothing stored.
			refused := h.carol.SlashCommand(t, h.channel, "stratego server", args...).Reply(t)
			if !refused.Ephemeral || !strings.Contains(refused.Content, "Only members with the Manage Server permission") {
				t.Fatalf("a member without Manage Server got %q", refused.Content)
			}
			if s, err := h.db.Server(context.Background(), h.guild.ID); err != nil || !reflect.DeepEqual(s, before) {
				t.Fatalf("settings after the refusal: %+v, %v; want them as before, %+v", s, err, before)
			}
			moderator(h)
			set := h.carol.SlashCommand(t, h.channel, "stratego server", args...).Reply(t)
			if !set.Ephemeral || !strings.Contains(set.Content, "Changed: ") {
				t.Fatalf("the moderator's change answered %q", set.Content)
			}
			answer := tc.try(h).Reply(t)
			if tc.refusal != "" {
				if !answer.Ephemeral || !strings.Contains(answer.Content, tc.refusal) {
					t.Fatalf("alice got %q; want a private refusal with %q", answer.Content, tc.refusal)
				}
				return
			}
			if answer.Ephemeral {
				t.Fatalf("alice was refused: %q", answer.Content)
			}
			if tc.check != nil {
				tc.check(t, h, answer)
			}
		})
	}
}

// TestThreadsSettingIsADefault: with the bot's threads setting on, a server
// whose moderators have not chosen how boards are shown plays each match in
// its own thread, and /stratego server says that this is the bot's default;
// a server's own choice wins over the setting, until its moderators choose
// the bot's default again.
func TestThreadsSettingIsADefault(t *testing.T) {
	t.Parallel()
	tests := []struct {
		mode  string // the server's choice; "" for none
		shown string // in /stratego server's answer
	}{
		{"", "- boards: a thread per match (the bot's default)\n"},
		{"thread", "- boards: a thread per match\n"},
		{"per-move", "- boards: a new picture per move in the channel\n"},
		{"live", "- boards: one live message per match, edited after every move\n"},
		{"default", "- boards: a thread per match (the bot's default)\n"}, // after per-move
	}
	for _, tc := range tests {
		t.Run(cmp.Or(tc.mode, "not chosen"), func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, func(c *Config) { c.Threads = true })
			moderator(h)
			var args []discordtest.Arg
			if tc.mode != "" {
				args = append(args, discordtest.Opt(optBoardMode, tc.mode))
			}
			if tc.mode == boardDefault {
				if got := h.carol.SlashCommand(t, h.channel, "stratego server", discordtest.Opt(optBoardMode, "per-move")).Reply(t).Content; !strings.Contains(got, "boards: a new picture per move") {
					t.Fatalf("choosing per-move answered %q", got)
				}
			}
			if shown := h.carol.SlashCommand(t, h.channel, "stratego server", args...).Reply(t); !strings.Contains(shown.Content, tc.shown) {
				t.Fatalf("the settings show %q; want %q", shown.Content, tc.shown)
			}
			h.startClassic()
			h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
			m := h.waitMoves(1, 1)
			// The public board after the move: where it is says the mode.
			var board *discordtest.Message
			where := ""
			h.srv.WaitFor(t, "the public board after the move", func() bool {
				for _, ch := range append([]*discordtest.Channel{h.channel}, h.channel.Threads()...) {
					for _, msg := range h.srv.ChannelMessages(ch) {
						if strings.Contains(msg.Content, "alice moved A4-A5") && len(msg.Files) == 1 {
							board, where = msg, ch.ID
							return true
						}
					}
				}
				return false
			})
			threads := h.channel.Threads()
			switch tc.mode {
			case "", "thread", boardDefault:
				if len(threads) != 1 || where != threads[0].ID || m.ThreadID != threads[0].ID {
					t.Errorf("%d threads, the match in %q, its board in %q: want the match and its board in its thread", len(threads), m.ThreadID, where)
				}
			case "per-move":
				if len(threads) != 0 || where != h.channel.ID || board.Edits != 0 {
					t.Errorf("%d threads, the board in %q after %d edits: want a new picture in the channel", len(threads), where, board.Edits)
				}
			case "live":
				if len(threads) != 0 || where != h.channel.ID || board.ID != m.LiveMessage || board.Edits == 0 {
					t.Errorf("%d threads, the board in %q, message %s after %d edits: want the match's live message %s, edited", len(threads), where, board.ID, board.Edits, m.LiveMessage)
				}
			}
		})
	}
}

// TestWatchAndCancel: any member watches a running match of the server,
// privately and from the public view only; a moderator calls it off with a
// reason the players are told; members without Manage Server cannot.
func TestWatchAndCancel(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startClassic()
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.waitMoves(1, 1)

	choices := h.carol.Autocomplete(t, h.channel, "stratego watch", discordtest.Focused(optMatch, ""))
	if len(choices) != 1 || !strings.Contains(choices[0].Name, "#1 alice vs bob") {
		t.Fatalf("watch offers %+v", choices)
	}
	watched := h.carol.SlashCommand(t, h.channel, "stratego watch", discordtest.Opt(optMatch, "1")).Reply(t)
	if !watched.Ephemeral || !strings.Contains(watched.Content, "Red A4-A5") || len(watched.Files) != 1 {
		t.Fatalf("carol watching sees %q with %d files", watched.Content, len(watched.Files))
	}
	// What carol sees is the channel's view: the same picture as the public board.
	public := lastPublicBoard(t, h)
	if !bytes.Equal(watched.Files[0].Data, public.Files[0].Data) {
		t.Error("the watched picture differs from the channel's public board of the same position")
	}
	for _, bad := range []struct{ match, want string }{{"7", "no match #7"}, {"x", "Name the match by its number"}} {
		if got := h.carol.SlashCommand(t, h.channel, "stratego watch", discordtest.Opt(optMatch, bad.match)).Reply(t); !strings.Contains(got.Content, bad.want) {
			t.Errorf("watch %q answered %q", bad.match, got.Content)
		}
	}

	if got := h.carol.SlashCommand(t, h.channel, "stratego cancel", discordtest.Opt(optMatch, "1"), discordtest.Opt(optReason, "abuse")).Reply(t); !strings.Contains(got.Content, "Only members with the Manage Server permission") {
		t.Fatalf("cancel by a member answered %q", got.Content)
	}
	moderator(h)
	got := h.carol.SlashCommand(t, h.channel, "stratego cancel", discordtest.Opt(optMatch, "1"), discordtest.Opt(optReason, "played from one account")).Reply(t)
	if !got.Ephemeral || !strings.Contains(got.Content, "called off with no result") {
		t.Fatalf("cancel answered %q", got.Content)
	}
	h.bot.deliverDue(context.Background())
	for _, p := range []*discordtest.Member{h.alice, h.bob} {
		p.WaitDM(t, contains("a moderator decided so (carol: played from one account)"))
	}
	h.channelSays("a moderator decided so")
	if m := h.match(1); m.Phase != storage.PhaseAbandoned || m.CalledOff != storage.CallOffModerator || m.Result.Outcome != game.Ongoing {
		t.Errorf("after the cancel: %v, %v, %+v", m.Phase, m.CalledOff, m.Result)
	}
}

// TestAward: a moderator ends a running match as won by one player; the
// players and the channel are told who decided and why, and the result
// counts in the standings like any other.
func TestAward(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startClassic()
	h.waitMoves(1, 0)
	args := []discordtest.Arg{discordtest.Opt(optMatch, "1"), discordtest.Opt(optWinner, h.bob), discordtest.Opt(optReason, "alice left for good")}
	if got := h.carol.SlashCommand(t, h.channel, "stratego award", args...).Reply(t); !strings.Contains(got.Content, "Only members with the Manage Server permission") {
		t.Fatalf("award by a member answered %q", got.Content)
	}
	moderator(h)
	if got := h.carol.SlashCommand(t, h.channel, "stratego award", discordtest.Opt(optMatch, "1"), discordtest.Opt(optWinner, h.carol), discordtest.Opt(optReason, "x")).Reply(t); !strings.Contains(got.Content, "must be one of the players") {
		t.Fatalf("award to a non-player answered %q", got.Content)
	}
	got := h.carol.SlashCommand(t, h.channel, "stratego award", args...).Reply(t)
	if !got.Ephemeral || !strings.Contains(got.Content, "is awarded to bob") {
		t.Fatalf("award answered %q", got.Content)
	}
	h.bot.deliverDue(context.Background())
	h.alice.WaitDM(t, contains("A moderator ended the match (carol: alice left for good)"))
	h.bob.WaitDM(t, contains("You won: a moderator awarded the match"))
	h.channelSays("bob won: a moderator awarded the match")
	m := h.match(1)
	if m.Result != (game.Result{Outcome: game.BlueWon, Method: game.Awarded}) || !m.RatingApplied {
		t.Errorf("after the award: %+v, rated %v", m.Result, m.RatingApplied)
	}
	if s, err := h.db.Standing(context.Background(), h.guild.ID, game.VariantClassic, h.bob.ID); err != nil || s.Wins != 1 {
		t.Errorf("bob's standing: %+v, %v", s, err)
	}
}

// TestServerSettingsDeletedChannel: a channel listed for matches, then
// deleted, is no place to send members to. A refusal names only the listed
// channels that still exist, and once none does, says to ask a moderator;
// the moderator's next change of the list drops the deleted ones, which no
// channel picker offers to remove_channel.
func TestServerSettingsDeletedChannel(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	moderator(h)
	stratego, arena := h.guild.AddChannel("stratego"), h.guild.AddChannel("arena")
	for _, ch := range []*discordtest.Channel{stratego, arena} {
		if got := h.carol.SlashCommand(t, h.channel, "stratego server", discordtest.Opt(optAllowChannel, ch)).Reply(t); !strings.Contains(got.Content, "Changed: ") {
			t.Fatalf("allowing #%s answered %q", ch.Name, got.Content)
		}
	}
	deleted := func(ch *discordtest.Channel) {
		t.Helper()
		ch.Delete()
		h.srv.WaitFor(t, "the bot to see #"+ch.Name+" deleted", func() bool {
			return !slices.Contains(h.bot.guildChannelIDs(h.guild.ID), ch.ID)
		})
	}
	challenge := func() string {
		t.Helper()
		got := h.alice.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("opponent", h.bob)).Reply(t)
		if !got.Ephemeral {
			t.Fatalf("alice's challenge went through: %q", got.Content)
		}
		return got.Content
	}

	deleted(stratego)
	if got := challenge(); !strings.Contains(got, "Matches on this server are played in <#"+arena.ID+">.") || strings.Contains(got, stratego.ID) {
		t.Errorf("with #stratego deleted alice is told %q; want #arena alone", got)
	}
	deleted(arena)
	if got := challenge(); !strings.Contains(got, "allow_channel") || strings.Contains(got, stratego.ID) || strings.Contains(got, arena.ID) {
		t.Errorf("with every listed channel deleted alice is told %q; want a moderator's allow_channel", got)
	}

	got := h.carol.SlashCommand(t, h.channel, "stratego server", discordtest.Opt(optAllowChannel, h.channel)).Reply(t)
	for _, want := range []string{"<#" + stratego.ID + "> removed from the list", "<#" + arena.ID + "> removed from the list", "- matches in: <#" + h.channel.ID + ">\n"} {
		if !strings.Contains(got.Content, want) {
			t.Errorf("allowing #general answered %q; want %q", got.Content, want)
		}
	}
	if s, err := h.db.Server(context.Background(), h.guild.ID); err != nil || !slices.Equal(s.Channels, []string{h.channel.ID}) {
		t.Errorf("the server's channels: %v, %v; want #general alone", s.Channels, err)
	}
}

// TestModeratorDecisionRacesAMove: a move lands between the moderator's note
// and the decision itself. A cancel or an award does not depend on the
// board, so it still goes through, under the moderator's own note, instead
// of answering the moderator as a player whose move came too late.
func TestModeratorDecisionRacesAMove(t *testing.T) {
	t.Parallel()
	tests := []struct {
		cmd    string
		args   func(h *harness) []discordtest.Arg
		answer string
		phase  storage.Phase
	}{
		{"stratego cancel", func(h *harness) []discordtest.Arg { return nil }, "called off with no result", storage.PhaseAbandoned},
		{"stratego award", func(h *harness) []discordtest.Arg { return []discordtest.Arg{discordtest.Opt(optWinner, h.bob)} }, "is awarded to bob", storage.PhaseFinished},
	}
	for _, tc := range tests {
		t.Run(tc.cmd, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.startClassic()
			h.waitMoves(1, 0)
			moderator(h)
			var once sync.Once
			move := func() {
				once.Do(func() {
					mv, err := game.ParseMove("A4-A5", game.NumberingModern)
					if err != nil {
						t.Error(err)
						return
					}
					if _, _, err := h.db.ApplyMove(context.Background(), 1, 0, game.Red, mv, T0); err != nil {
						t.Errorf("alice's move: %v", err)
					}
				})
			}
			abandon, act := move, func(storage.MatchID, storage.Action) { move() }
			h.reads.beforeAbandon.Store(&abandon)
			h.reads.beforeAct.Store(&act)
			args := append(tc.args(h), discordtest.Opt(optMatch, "1"), discordtest.Opt(optReason, "played from one account"))
			got := h.carol.SlashCommand(t, h.channel, tc.cmd, args...).Reply(t)
			if !got.Ephemeral || !strings.Contains(got.Content, tc.answer) {
				t.Fatalf("%s answered %q; want %q", tc.cmd, got.Content, tc.answer)
			}
			if m := h.match(1); m.Phase != tc.phase || len(m.Log) < 1 || m.ModeratorNote != "carol: played from one account" {
				t.Errorf("after the %s: phase %v, %d actions, note %q", tc.cmd, m.Phase, len(m.Log), m.ModeratorNote)
			}
		})
	}
}

// TestServerSettingsDeletedStarterRole: the role a server named for starting
// matches is deleted. Nobody can be given it any more, so a member is not
// sent to a moderator to ask for it, but told what a moderator does instead.
func TestServerSettingsDeletedStarterRole(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	moderator(h)
	players := h.guild.AddRole("players", 0)
	if got := h.carol.SlashCommand(t, h.channel, "stratego server", discordtest.Opt(optStarterRole, players.ID)).Reply(t); !strings.Contains(got.Content, "Changed: ") {
		t.Fatalf("naming the starter role answered %q", got.Content)
	}
	players.Delete()
	h.srv.WaitFor(t, "the bot to see the role deleted", func() bool { return h.bot.roleDeleted(h.guild.ID, players.ID) })
	got := h.alice.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("opponent", h.bob)).Reply(t)
	if !got.Ephemeral || !strings.Contains(got.Content, "was deleted") || !strings.Contains(got.Content, "starter_role:") || !strings.Contains(got.Content, "anyone_starts:true") || strings.Contains(got.Content, players.ID) {
		t.Errorf("alice is told %q; want the role deleted and what a moderator does", got.Content)
	}
}
