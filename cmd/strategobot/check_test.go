package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/internal/buildtest"
	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestCheckCommand runs the built `strategobot check` against the local
// Discord, in servers set up the ways an admin's may be: it says what works
// and what to fix, posts and deletes its test picture, DMs the member, and
// exits 1 when anything fails.
func TestCheckCommand(t *testing.T) {
	bin := buildtest.Binary(t, "./cmd/strategobot")
	type world struct {
		t     *testing.T
		srv   *discordtest.Server
		club  *discordtest.Guild
		alice *discordtest.Member
		// unknown is an id of nothing, as an admin may mistype one: UNKNOWN
		// in the output wanted.
		unknown string
	}
	tests := []struct {
		name     string
		change   func(w world)
		args     func(w world) []string
		wantCode int
		want     []string
	}{
		{"all well", nil, func(w world) []string {
			return []string{"-guild", w.club.ID, "-channel", w.club.General().ID, "-user", w.alice.ID}
		}, 0, []string{"✓ the token belongs to the bot", "invite link: https://discord.com/oauth2/authorize?client_id=", "scope=bot+applications.commands",
			"has   Attach Files", "✓ the bot has every permission a match needs in #general", "✓ posted a test picture", "✓ deleted it", "✓ sent user", "All checks passed."}},
		{"a revoked token", func(w world) { w.srv.RevokeToken() }, func(world) []string { return nil }, 1, []string{"✗ Discord refuses the token", "Reset Token"}},
		{"no Attach Files in the channel", func(w world) {
			w.club.General().SetOverwrite(w.srv.Bot(), 0, discordgo.PermissionAttachFiles)
		}, func(w world) []string { return []string{"-channel", w.club.General().ID} }, 1,
			[]string{"lacks Attach Files (to post the board pictures)", "✗ the bot lacks 1 permission a match needs in #general: grant it to its role", "\n2 checks failed: fix what is marked ✗",
				"✗ posting a test picture in #general failed: Discord answered 50013: Missing Permissions. Give the bot's role Attach Files in #general (Edit Channel → Permissions → the bot's role).\n"}},
		{"no thread permissions, which the threads setting off leaves to the server's choice", func(w world) {
			w.club.General().SetOverwrite(w.srv.Bot(), 0, discordgo.PermissionCreatePublicThreads)
		}, func(w world) []string { return []string{"-channel", w.club.General().ID, "-user", w.alice.ID} }, 0,
			[]string{"lacks Create Public Threads (to open a thread for each match): needed only if this server's moderators choose `/stratego server boards: thread`",
				"has   Send Messages in Threads (to post in the match's thread, where a server chooses a thread per match)",
				"✓ the bot has every permission a match needs in #general", "All checks passed."}},
		{"an unknown channel", nil, func(w world) []string { return []string{"-channel", w.unknown} }, 1,
			[]string{"✗ the bot cannot see channel UNKNOWN: Discord answered 10003: Unknown Channel. No channel has that id: check it (in Discord, Developer Mode, then right-click the channel → Copy Channel ID).\n"}},
		{"an unknown channel in a server", nil, func(w world) []string { return []string{"-guild", w.club.ID, "-channel", w.unknown} }, 1,
			[]string{"✓ the bot is in the server", "✗ the bot cannot see channel UNKNOWN: Discord answered 10003: Unknown Channel. No channel has that id: check it (in Discord, Developer Mode, then right-click the channel → Copy Channel ID).\n"}},
		{"an unknown user", nil, func(w world) []string { return []string{"-user", w.unknown} }, 1,
			[]string{"✗ sending user UNKNOWN a DM failed: Discord answered 10013: Unknown User. No user has that id: check it (in Discord, Developer Mode, then right-click the member → Copy User ID).\n"}},
		{"the bot not in the server, whose channel and member are checked all the same", func(w world) { w.club.KickBot() },
			func(w world) []string {
				return []string{"-guild", w.club.ID, "-channel", w.club.General().ID, "-user", w.alice.ID}
			}, 1,
			[]string{"✗ the bot is not in server", "✗ the bot cannot see channel ", "Discord answered 50001: Missing Access. Invite the bot to the channel's server (the link above)", "does not take DMs from the bot", "\n3 checks failed"}},
		{"Discord failing", func(w world) { w.srv.FailNext(w.t, "GET /users/@me", 1, 500) }, func(world) []string { return nil }, 1,
			[]string{"✗ Discord answered with an error at ", "Discord may be having trouble (https://discordstatus.com): run this again later."}},
		{"closed DMs", func(w world) { w.alice.CloseDMs() }, func(w world) []string { return []string{"-user", w.alice.ID} }, 1,
			[]string{"does not take DMs from the bot"}},
		{"the bot not in the server", func(w world) { w.club.KickBot() }, func(w world) []string { return []string{"-guild", w.club.ID} }, 1,
			[]string{"✗ the bot is not in server", "invite it with the link above"}},
		// Copy Server ID, Copy Channel ID and Copy User ID sit side by side: an id given for another is named.
		{"the server's id for the channel", nil, func(w world) []string { return []string{"-channel", w.club.ID} }, 1,
			[]string{"✗ " + "CLUB is the id of the server \"Stratego Club\", not of a channel: give -channel a channel's id (in Discord, Developer Mode, then right-click the channel → Copy Channel ID).\n"}},
		{"a channel's id for the server", nil, func(w world) []string { return []string{"-guild", w.club.General().ID} }, 1,
			[]string{"✗ GENERAL is the id of channel #general, not of a server: give -guild the server's id (in Discord, Developer Mode, then right-click the server → Copy Server ID).\n"}},
		{"the server's id for the member", nil, func(w world) []string { return []string{"-user", w.club.ID} }, 1,
			[]string{"✗ CLUB is the id of the server \"Stratego Club\", not of a member: give -user a member's id"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := discordtest.New(t)
			club := srv.AddGuild("Stratego Club")
			w := world{t: t, srv: srv, club: club, alice: club.AddMember("alice"), unknown: srv.UnknownID()}
			if tc.change != nil {
				tc.change(w)
			}
			cmd := exec.Command(bin, append([]string{"check"}, tc.args(w)...)...)
			cmd.Dir = t.TempDir()
			cmd.Env = botEnv(srv)
			out, err := cmd.Output()
			code := 0
			if exit, ok := err.(*exec.ExitError); ok {
				code = exit.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.wantCode {
				t.Errorf("exit code %d, want %d", code, tc.wantCode)
			}
			for _, want := range tc.want {
				want = strings.NewReplacer("UNKNOWN", w.unknown, "CLUB", w.club.ID, "GENERAL", w.club.General().ID).Replace(want)
				if !strings.Contains(string(out), want) {
					t.Errorf("the output lacks %q:\n%s", want, out)
				}
			}
			if tc.wantCode == 0 {
				if msgs := srv.ChannelMessages(club.General()); len(msgs) != 0 {
					t.Errorf("%d messages left in the channel", len(msgs))
				}
				if dms := w.alice.DMs(); len(dms) != 1 || len(dms[0].Files) != 1 {
					t.Errorf("alice got %d DMs", len(dms))
				}
			}
		})
	}
}

// TestCheckStopsAtOnce cancels check while the local Discord leaves one of
// its steps unanswered: it returns at once with exit code 1, saying it was
// stopped, and fails no check for it.
func TestCheckStopsAtOnce(t *testing.T) {
	tests := []struct {
		name string
		hold func(t *testing.T, srv *discordtest.Server) *discordtest.Hold
	}{
		{"asking whose token it is", func(t *testing.T, srv *discordtest.Server) *discordtest.Hold {
			return srv.HoldNext(t, "GET /users/@me", 1)
		}},
		{"asking the gateway's address", func(t *testing.T, srv *discordtest.Server) *discordtest.Hold {
			return srv.HoldNext(t, "GET /gateway", 1)
		}},
		{"waiting for READY", func(t *testing.T, srv *discordtest.Server) *discordtest.Hold {
			return srv.HoldReady()
		}},
		{"posting the test picture", func(t *testing.T, srv *discordtest.Server) *discordtest.Hold {
			return srv.HoldNext(t, "POST /channels/{channel_id}/messages", 1)
		}},
		{"opening the DM", func(t *testing.T, srv *discordtest.Server) *discordtest.Hold {
			return srv.HoldNext(t, "POST /users/@me/channels", 1)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// The wait is for check to get to the step, however slow a loaded
			// machine makes it; the bound that matters is stopBound, below.
			srv := discordtest.New(t, discordtest.WithWaitTimeout(time.Minute))
			club := srv.AddGuild("Stratego Club")
			alice := club.AddMember("alice")
			hold := tc.hold(t, srv)
			t.Setenv("DISCORD_TOKEN", srv.Token())
			t.Setenv("STRATEGOBOT_API_BASE_URL", srv.APIBase())
			t.Setenv("STRATEGOBOT_CONFIG", "")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var out syncBuffer
			code := make(chan int, 1)
			go func() {
				code <- runCheck(ctx, []string{"-channel", club.General().ID, "-user", alice.ID}, &out, io.Discard)
			}()
			srv.WaitFor(t, "check at that step", func() bool { return hold.Waiting() > 0 })
			start := time.Now()
			cancel()
			select {
			case got := <-code:
				if got != 1 {
					t.Errorf("exit code %d, want 1", got)
				}
			case <-time.After(stopBound):
				t.Fatalf("check still runs %v after it was stopped; its output:\n%s", stopBound, out.String())
			}
			t.Logf("stopped after %v", time.Since(start).Round(time.Millisecond))
			if !strings.Contains(out.String(), "Stopped before the checks were done.") || strings.Contains(out.String(), "✗") {
				t.Errorf("output %q, want it stopped and no check failed", out.String())
			}
		})
	}
}

// TestCheckUserIsAChannel: a channel's id given to -user is named as a
// channel's, not asked for as a member's, though check gets to the DM
// before the server's channels have come (GUILD_CREATE follows READY; here
// it comes once the server's outage ends, after check has connected): it
// asked Discord for a DM with a member of that id, which answered Unknown
// User.
func TestCheckUserIsAChannel(t *testing.T) {
	srv := discordtest.New(t)
	club := srv.AddGuild("Stratego Club")
	club.Outage() // READY lists the server as unavailable, and no GUILD_CREATE follows yet
	t.Setenv("DISCORD_TOKEN", srv.Token())
	t.Setenv("STRATEGOBOT_API_BASE_URL", srv.APIBase())
	t.Setenv("STRATEGOBOT_CONFIG", "")
	var out syncBuffer
	code := make(chan int, 1)
	go func() {
		code <- runCheck(context.Background(), []string{"-user", club.General().ID}, &out, io.Discard)
	}()
	// The last line before the DM's check.
	srv.WaitFor(t, "check connected", func() bool { return strings.Contains(out.String(), "board in the browser") })
	club.EndOutage()
	if got := <-code; got != 1 {
		t.Errorf("exit code %d, want 1", got)
	}
	want := "✗ " + club.General().ID + " is the id of channel #general, not of a member: give -user a member's id (in Discord, Developer Mode, then right-click the member → Copy User ID).\n"
	if !strings.Contains(out.String(), want) {
		t.Errorf("the output lacks %q:\n%s", want, out.String())
	}
	if n := len(srv.Requests("POST /users/@me/channels")); n != 0 {
		t.Errorf("%d DMs opened with a channel's id", n)
	}
}

// TestCheckerDescribe: check's failures name the configured API base, not
// Discord's address, and word Discord's refusals by their code.
func TestCheckerDescribe(t *testing.T) {
	c := &checker{apiBase: "http://127.0.0.1:8080/api/v9/"}
	refusal := &discordgo.RESTError{Message: &discordgo.APIErrorMessage{Code: 50013, Message: "Missing Permissions"}}
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"unreachable", &url.Error{Op: "Get", URL: discordgo.EndpointChannel("42"), Err: errors.New("connection refused")},
			`Get "http://127.0.0.1:8080/api/v9/channels/42": connection refused`},
		{"refused", fmt.Errorf("post: %w", refusal), "Discord answered 50013: Missing Permissions"},
	}
	for _, tc := range tests {
		if got := c.describe(tc.err); got != tc.want {
			t.Errorf("%s: describe = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestCheckIDs: an id flag that is no number (a name, a mention) is a usage
// error, saying where the id is found, before anything asks Discord.
func TestCheckIDs(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-guild", "My Server"}, `-guild "My Server" is not an id: ids are numbers; in Discord turn on Developer Mode (User Settings → Advanced), then right-click the server → Copy Server ID`},
		{[]string{"-channel", "#general"}, `-channel "#general" is not an id: ids are numbers; in Discord turn on Developer Mode (User Settings → Advanced), then right-click the channel → Copy Channel ID`},
		{[]string{"-guild", "1", "-user", "<@123>"}, `-user "<@123>" is not an id: ids are numbers; in Discord turn on Developer Mode (User Settings → Advanced), then right-click the member → Copy User ID`},
		{[]string{"-guild", "123456789012345678", "-channel", "2", "-user", "3"}, ""},
	}
	for _, tc := range tests {
		var o checkOptions
		if err := checkFlags(&o, io.Discard).Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		err := o.checkIDs()
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || err.Error() != tc.want) {
			t.Errorf("%q: %v, want %q", tc.args, err, tc.want)
		}
	}
}

// TestCheckConfiguredGuild: with guild_id set, check says whether the bot
// is in that server, where run registers the command, without -guild: run
// would stop at once, Discord refusing the command there.
func TestCheckConfiguredGuild(t *testing.T) {
	bin := buildtest.Binary(t, "./cmd/strategobot")
	tests := []struct {
		name     string
		guild    func(srv *discordtest.Server, club *discordtest.Guild) string // guild_id
		wantCode int
		want     string
	}{
		{"the bot in it", func(_ *discordtest.Server, club *discordtest.Guild) string { return club.ID }, 0,
			"✓ the bot is in the server \"Stratego Club\", where guild_id registers the command\n"},
		{"the bot removed from it", func(_ *discordtest.Server, club *discordtest.Guild) string { club.KickBot(); return club.ID }, 1,
			"✗ the bot is not in server GUILD, where guild_id registers the command: invite it there with the link above, or leave guild_id empty to register the command in every server.\n"},
		{"no such server", func(srv *discordtest.Server, _ *discordtest.Guild) string { return srv.UnknownID() }, 1,
			"✗ the bot is not in server GUILD, where guild_id registers the command"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := discordtest.New(t)
			club := srv.AddGuild("Stratego Club")
			guild := tc.guild(srv, club)
			cmd := exec.Command(bin, "check")
			cmd.Dir = t.TempDir()
			cmd.Env = botEnv(srv, "STRATEGOBOT_GUILD_ID="+guild)
			out, err := cmd.Output()
			code := 0
			if exit, ok := err.(*exec.ExitError); ok {
				code = exit.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.wantCode {
				t.Errorf("exit code %d, want %d:\n%s", code, tc.wantCode, out)
			}
			if want := strings.ReplaceAll(tc.want, "GUILD", guild); !strings.Contains(string(out), want) {
				t.Errorf("the output lacks %q:\n%s", want, out)
			}
		})
	}
}

// TestCheckThread: a thread's id given to -channel is checked for what a
// match played in that thread needs, as the bot asks of a thread before it
// accepts a challenge there: Send Messages in Threads rather than Send
// Messages, and no thread of its own. A thread has no permissions of its
// own, so what is lacking is granted in its channel, which check names. It
// checked the thread as a channel, passed it lacking Send Messages in
// Threads, and then failed to post there.
func TestCheckThread(t *testing.T) {
	tests := []struct {
		name     string
		deny     int64 // the bot's overwrite in the thread's channel
		change   func(thread *discordtest.Channel)
		wantCode int
		want     []string
		wantNot  []string
	}{
		{"every permission", 0, nil, 0,
			[]string{"has   Send Messages in Threads (to post the boards)", "✓ the bot has every permission a match needs in the thread #league", "✓ posted a test picture in #league", "All checks passed."},
			[]string{"has   Send Messages (", "Create Public Threads", "✗"}},
		{"no Send Messages in Threads", discordgo.PermissionSendMessagesInThreads, nil, 1,
			[]string{"lacks Send Messages in Threads (to post the boards)",
				"✗ the bot lacks 1 permission a match needs in the thread #league: grant it to its role in the settings of #general, the thread's channel (Edit Channel → Permissions).",
				"✗ posting a test picture in #league failed: Discord answered 50013: Missing Permissions. Give the bot's role Send Messages in Threads in #general (Edit Channel → Permissions → the bot's role).\n"},
			[]string{"✓ the bot has every permission", "Create Public Threads"}},
		{"no Send Messages, which a thread does not need", discordgo.PermissionSendMessages, nil, 0,
			[]string{"✓ the bot has every permission a match needs in the thread #league", "✓ posted a test picture in #league"},
			[]string{"lacks", "✗"}},
		// A thread archived after a quiet spell takes posts, which unarchive it.
		{"archived", 0, func(th *discordtest.Channel) { th.Archive() }, 0,
			[]string{"✓ the bot has every permission a match needs in the thread #league", "✓ posted a test picture in #league", "✓ deleted it", "All checks passed."},
			[]string{"✗"}},
		// A locked thread takes posts only from those who may manage threads:
		// a match made in it goes on by DM until it is unlocked (the bot
		// moves only a match in a thread it opened for it to the thread's
		// channel).
		{"locked", 0, func(th *discordtest.Channel) { th.Lock() }, 1,
			[]string{"✗ posting a test picture in #league failed: Discord answered 160005: Thread is locked. The thread is locked: only members who may Manage Threads post in it, so a match made there goes on by DM, its board posted there again once the thread is unlocked (a match the bot opened the thread for moves to #general). Unlock it, or play in #general.\n"},
			[]string{"run this again later", "boards go to #general"}},
		{"locked and archived", 0, func(th *discordtest.Channel) { th.Lock(); th.Archive() }, 1,
			[]string{"✗ posting a test picture in #league failed: Discord answered 50083: Thread is archived. The thread is archived and locked: only members who may Manage Threads post in it, so a match made there goes on by DM, its board posted there again once the thread is unlocked (a match the bot opened the thread for moves to #general). Unlock it, or play in #general.\n"},
			[]string{"run this again later", "boards go to #general"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := discordtest.New(t)
			club := srv.AddGuild("Stratego Club")
			general := club.General()
			sess := srv.NewSession(t)
			msg, err := sess.ChannelMessageSend(general.ID, "The league")
			if err != nil {
				t.Fatal(err)
			}
			thread, err := sess.MessageThreadStartComplex(general.ID, msg.ID, &discordgo.ThreadStart{Name: "league", AutoArchiveDuration: 1440})
			if err != nil {
				t.Fatal(err)
			}
			if tc.deny != 0 {
				general.SetOverwrite(srv.Bot(), 0, tc.deny)
			}
			if tc.change != nil {
				tc.change(general.Threads()[0])
			}
			t.Setenv("DISCORD_TOKEN", srv.Token())
			t.Setenv("STRATEGOBOT_API_BASE_URL", srv.APIBase())
			t.Setenv("STRATEGOBOT_CONFIG", "")
			var out syncBuffer
			if code := runCheck(context.Background(), []string{"-channel", thread.ID}, &out, io.Discard); code != tc.wantCode {
				t.Errorf("exit code %d, want %d", code, tc.wantCode)
			}
			for _, want := range tc.want {
				if !strings.Contains(out.String(), want) {
					t.Errorf("the output lacks %q:\n%s", want, out.String())
				}
			}
			for _, not := range tc.wantNot {
				if strings.Contains(out.String(), not) {
					t.Errorf("the output has %q:\n%s", not, out.String())
				}
			}
		})
	}
}

// TestCheckGuildUnavailable: a server that READY lists as unavailable (an
// outage at Discord), and that does not come while check waits, is named
// as one the bot is in that Discord does not serve now, not as one the
// bot must be invited to.
func TestCheckGuildUnavailable(t *testing.T) {
	srv := discordtest.New(t)
	club := srv.AddGuild("Stratego Club")
	club.Outage()
	t.Setenv("DISCORD_TOKEN", srv.Token())
	t.Setenv("STRATEGOBOT_API_BASE_URL", srv.APIBase())
	t.Setenv("STRATEGOBOT_CONFIG", "")
	var out syncBuffer
	if code := runCheck(context.Background(), []string{"-guild", club.ID}, &out, io.Discard); code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
	want := "✗ the bot is in server " + club.ID + ", but Discord does not serve it now (an outage of that server, https://discordstatus.com): run this again later.\n"
	if !strings.Contains(out.String(), want) {
		t.Errorf("the output lacks %q:\n%s", want, out.String())
	}
	if strings.Contains(out.String(), "invite it") {
		t.Errorf("the output asks to invite the bot to a server it is in:\n%s", out.String())
	}
}

// TestCheckForum: a forum's id given to -channel is checked for what a
// match played in one of its posts needs (each post is a thread of the
// forum, whose permissions are the forum's), and check posts no test
// picture in the forum, which takes no message of its own, but says to
// give it a post's id for that. It checked the forum as a text channel,
// and then failed to post there, advising to try again later. A post's id
// is checked as a thread's, granted in the forum.
func TestCheckForum(t *testing.T) {
	tests := []struct {
		name     string
		deny     int64 // the bot's overwrite in the forum
		post     bool  // -channel is the post's id, not the forum's
		wantCode int
		want     []string
		wantNot  []string
	}{
		{"every permission", 0, false, 0,
			[]string{"has   Send Messages in Threads (to post the boards)", "✓ the bot has every permission a match needs in the posts of the forum #matches",
				"#matches is a forum, which takes no message of its own: to post a test picture, give -channel the id of one of its posts.", "All checks passed."},
			[]string{"Send Messages (", "Create Public Threads", "✗", "run this again later"}},
		{"no Send Messages in Threads", discordgo.PermissionSendMessagesInThreads, false, 1,
			[]string{"lacks Send Messages in Threads (to post the boards)",
				"✗ the bot lacks 1 permission a match needs in the posts of the forum #matches: grant it to its role in the settings of #matches (Edit Channel → Permissions)."},
			[]string{"✓ the bot has every permission", "run this again later"}},
		{"a post", 0, true, 0,
			[]string{"✓ the bot has every permission a match needs in the thread #alice vs bob", "✓ posted a test picture in #alice vs bob", "All checks passed."},
			[]string{"✗"}},
		{"a post without Attach Files in its forum", discordgo.PermissionAttachFiles, true, 1,
			[]string{"lacks Attach Files", "grant it to its role in the settings of #matches, the thread's channel"},
			[]string{"run this again later"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := discordtest.New(t)
			club := srv.AddGuild("Stratego Club")
			alice := club.AddMember("alice")
			forum := club.AddForum("matches")
			post := alice.OpenPost(t, forum, "alice vs bob", "who plays?")
			if tc.deny != 0 {
				forum.SetOverwrite(srv.Bot(), 0, tc.deny)
			}
			t.Setenv("DISCORD_TOKEN", srv.Token())
			t.Setenv("STRATEGOBOT_API_BASE_URL", srv.APIBase())
			t.Setenv("STRATEGOBOT_CONFIG", "")
			id := forum.ID
			if tc.post {
				id = post.ID
			}
			var out syncBuffer
			if code := runCheck(context.Background(), []string{"-channel", id}, &out, io.Discard); code != tc.wantCode {
				t.Errorf("exit code %d, want %d", code, tc.wantCode)
			}
			for _, want := range tc.want {
				if !strings.Contains(out.String(), want) {
					t.Errorf("the output lacks %q:\n%s", want, out.String())
				}
			}
			for _, not := range tc.wantNot {
				if strings.Contains(out.String(), not) {
					t.Errorf("the output has %q:\n%s", not, out.String())
				}
			}
		})
	}
}
