package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/bot"
	"github.com/strategobot/strategobot/internal/cli"
	"github.com/strategobot/strategobot/render"
)

const checkUsage = `usage: strategobot check [-config PATH] [-guild SERVER_ID] [-channel CHANNEL_ID] [-user USER_ID]

What to run after inviting the bot: it connects as the bot would and says,
line by line, what works and what to fix: the token, the intents, the
application and its invite link; with -guild, that the bot is in the server;
with -channel, the bot's permissions there and a test picture posted and
deleted; with -user, a test picture by DM. SIGINT or SIGTERM stop it at
once. Exit code: 0 all well, 1 some check failed or it was stopped before
the end, 2 a bad command line or configuration, or no token.

Environment:
  DISCORD_TOKEN             the bot's token (required; never read from a file)
  STRATEGOBOT_CONFIG        the configuration file, as -config
  STRATEGOBOT_API_BASE_URL  Discord's REST API base (api_base_url), e.g. a proxy
  STRATEGOBOT_THREADS       matches in threads (threads): the threads' permissions
                            then count as needed, else they are only listed
  STRATEGOBOT_GUILD_ID      the server of the command (guild_id): the bot must be in it
The other STRATEGOBOT_* variables are read and checked as run reads them
(strategobot run -h lists them).

Flags:
`

// checkOptions are check's flags.
type checkOptions struct {
	configPath, guildID, channelID, userID string
}

// checkFlags declares check's flags into o.
func checkFlags(o *checkOptions, w io.Writer) *flag.FlagSet {
	fs := configFlags("check", checkUsage, &o.configPath, w)
	fs.StringVar(&o.guildID, "guild", "", "a server's id: check that the bot is in it")
	fs.StringVar(&o.channelID, "channel", "", "a channel's id: check the bot's permissions there, and post and delete a test picture")
	fs.StringVar(&o.userID, "user", "", "a member's id: send them a test picture by DM")
	return fs
}

// checkIDs refuses an id flag that is no id (a name, a link or a mention)
// before check asks Discord about it.
func (o checkOptions) checkIDs() error {
	for _, f := range []struct{ flag, value, what string }{
		{"-guild", o.guildID, "the server → Copy Server ID"},
		{"-channel", o.channelID, "the channel → Copy Channel ID"},
		{"-user", o.userID, "the member → Copy User ID"},
	} {
		if f.value != "" && !isID(f.value) {
			return fmt.Errorf("%s %q is not an id: ids are numbers; in Discord turn on Developer Mode (User Settings → Advanced), then right-click %s", f.flag, f.value, f.what)
		}
	}
	return nil
}

// runCheck is `strategobot check`: what an admin runs after inviting the
// bot. It connects as the bot would and says, line by line, what works and
// what to fix. It exits 1 when anything fails.
func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var o checkOptions
	if err := cli.ParseFlags(checkFlags(&o, stdout), args); err != nil {
		return cli.UsageFailed(stderr, "strategobot check", checkUsage, tokenFlag(err))
	}
	if err := o.checkIDs(); err != nil {
		return cli.UsageFailed(stderr, "strategobot check", checkUsage, err)
	}
	cfg, err := loadProcessConfig(o.configPath)
	if err != nil {
		fmt.Fprintf(stderr, "strategobot check: %v\n", err)
		return 2
	}
	if cfg.Token == "" {
		fmt.Fprintln(stderr, "strategobot check: "+noTokenAdvice(cfg.TokenBlank, commandLine(self(os.Args[0])+" check", args), true, misnamedToken(os.Environ())))
		return 2
	}
	if problem := tokenProblem(cfg.Token); problem != "" {
		fmt.Fprintln(stderr, "strategobot check: "+problem)
		return 2
	}
	// check's lines say what failed and what to do; discordgo's own log
	// lines would come between them, and say it again, less well.
	logLibrariesTo(slog.New(slog.DiscardHandler))
	c := &checker{out: stdout, threads: cfg.Threads, apiBase: cfg.APIBaseURL}
	c.run(ctx, cfg, o.guildID, o.channelID, o.userID)
	if ctx.Err() != nil {
		fmt.Fprintln(stdout, "\nStopped before the checks were done.")
		return 1
	}
	if c.failed > 0 {
		fmt.Fprintf(stdout, "\n%s failed: fix what is marked ✗ and run this again.\n", plural(c.failed, "check", "checks"))
		return 1
	}
	fmt.Fprintln(stdout, "\nAll checks passed.")
	return 0
}

// checker prints the checks as they pass or fail.
type checker struct {
	out     io.Writer
	threads bool
	apiBase string // the configured api_base_url, which errors name
	failed  int
}

// describe words a failed request: Discord's refusal, or what kept the
// request from the configured API base.
func (c *checker) describe(err error) string {
	return describeRESTError(nameBase(err, c.apiBase))
}

func (c *checker) pass(format string, args ...any) {
	fmt.Fprintf(c.out, "✓ "+format+"\n", args...)
}

func (c *checker) fail(format string, args ...any) {
	c.failed++
	fmt.Fprintf(c.out, "✗ "+format+"\n", args...)
}

// unreachable fails the check of a request to the API at apiBase that got
// no answer, with what to check.
func (c *checker) unreachable(apiBase string, err error) {
	c.fail("Discord cannot be reached at %s: %v. Check this machine's network, DNS and firewall, or api_base_url.", shownBase(apiBase), nameBase(err, apiBase))
}

func (c *checker) note(format string, args ...any) {
	fmt.Fprintf(c.out, "  "+format+"\n", args...)
}

func (c *checker) run(ctx context.Context, cfg config, guildID, channelID, userID string) {
	s, err := newSession(cfg.Token, cfg.APIBaseURL)
	if err != nil {
		c.fail("%v", err)
		return
	}
	s.Identify.Intents = bot.Intents
	s.ShouldReconnectOnError = false
	s.MaxRestRetries = 1
	me, err := s.User("@me", discordgo.WithContext(ctx))
	if err != nil {
		switch {
		case ctx.Err() != nil:
		case restCode(err) == 401:
			c.fail("Discord refuses the token. Copy it again from the Developer Portal (your application → Bot → Reset Token) into DISCORD_TOKEN.")
			if advice := tokenShapeAdvice(cfg.Token); advice != "" {
				c.note("%s.", advice)
			}
		case bot.Unreachable(err):
			c.unreachable(cfg.APIBaseURL, err)
		default:
			if not, ok := bot.NotDiscordAPI(err); ok {
				c.fail("%v.", nameBase(not, cfg.APIBaseURL))
				break
			}
			c.fail("Discord answered with an error at %s: %v. Discord may be having trouble (https://discordstatus.com): run this again later.", shownBase(cfg.APIBaseURL), nameBase(bot.WithoutPage(err), cfg.APIBaseURL))
		}
		return
	}
	c.pass("the token belongs to the bot %s (user id %s)", me.Username, me.ID)

	guildSeen := make(chan string, 64)
	s.AddHandler(func(_ *discordgo.Session, g *discordgo.GuildCreate) {
		select {
		case guildSeen <- g.ID:
		default:
		}
	})
	if err := bot.OpenGateway(ctx, s); err != nil {
		switch {
		case ctx.Err() != nil:
		case bot.Unreachable(err): // the request for the gateway's address
			c.unreachable(cfg.APIBaseURL, err)
		case bot.GatewayUnreachable(err):
			advice := bot.GatewayUnreachableAdvice
			c.fail("the gateway cannot be reached: %v. %s%s.", err, strings.ToUpper(advice[:1]), advice[1:])
		default:
			c.fail("the gateway refused the connection: %v", nameBase(bot.ExplainGatewayError(err), cfg.APIBaseURL))
		}
		return
	}
	defer bot.CloseGateway(s)
	c.pass("connected to the gateway with the intents the bot needs (Guilds, Direct Messages; none privileged)")
	appID := me.ID
	if s.State.Application != nil && s.State.Application.ID != "" {
		appID = s.State.Application.ID
	}
	s.State.RLock() // GUILD_CREATEs are being added as READY's servers arrive
	servers := len(s.State.Guilds)
	s.State.RUnlock()
	c.pass("application id %s; the bot is in %s", appID, plural(servers, "server", "servers"))
	c.note("invite link: %s", bot.InviteLink(appID))
	if cfg.WebAddr != "" {
		c.note("board in the browser: served on %s, reached at %s (through your HTTPS reverse proxy)", cfg.WebAddr, cfg.PublicURL)
	} else {
		c.note("board in the browser: off (set web_addr and public_url to turn it on)")
	}

	if channelID != "" && guildID == "" && c.notAChannel(ctx, s, channelID) {
		channelID = ""
	}
	if channelID != "" && guildID == "" {
		ch, err := s.Channel(channelID, discordgo.WithContext(ctx))
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			c.fail("the bot cannot see channel %s: %v. %s", channelID, c.describe(err), channelAdvice(err))
			channelID = ""
		} else {
			guildID = ch.GuildID
		}
	}
	if guildID != "" {
		name, ok := c.waitGuild(ctx, s, guildSeen, guildID)
		if ctx.Err() != nil {
			return
		}
		if ok {
			c.pass("the bot is in the server %q", name)
		} else if _, _, listed := guildInState(s.State, guildID); listed {
			c.fail(unavailableGuild, guildID)
		} else if name, isChannel := c.channelName(ctx, s, guildID); ctx.Err() != nil {
			return
		} else if isChannel {
			c.fail("%s is the id of channel #%s, not of a server: give -guild the server's id (in Discord, Developer Mode, then right-click the server → Copy Server ID).", guildID, name)
		} else {
			// The channel and the DM are checked all the same: the channel
			// may be in another server, and a DM needs only a server the
			// member and the bot share.
			c.fail("the bot is not in server %s: invite it with the link above (you need Manage Server there).", guildID)
		}
	}
	if cfg.GuildID != "" && cfg.GuildID != guildID {
		// Where run registers the command: Discord refuses it in a server
		// the bot is not in, and run stops.
		name, ok := c.waitGuild(ctx, s, guildSeen, cfg.GuildID)
		if ctx.Err() != nil {
			return
		}
		if ok {
			c.pass("the bot is in the server %q, where guild_id registers the command", name)
		} else if _, _, listed := guildInState(s.State, cfg.GuildID); listed {
			c.fail(unavailableGuild, cfg.GuildID)
		} else {
			c.fail("the bot is not in server %s, where guild_id registers the command: invite it there with the link above, or leave guild_id empty to register the command in every server.", cfg.GuildID)
		}
	}
	if channelID != "" && ctx.Err() == nil {
		c.checkChannel(ctx, s, me.ID, channelID)
	}
	if userID != "" && ctx.Err() == nil {
		c.checkDM(ctx, s, userID)
	}
}

// unavailableGuild fails the check of a server READY lists as the bot's but
// unavailable, which did not come while check waited for it.
const unavailableGuild = "the bot is in server %s, but Discord does not serve it now (an outage of that server, https://discordstatus.com): run this again later."

// waitGuild waits briefly for the GUILD_CREATE of guildID after READY,
// and returns the server's name.
func (c *checker) waitGuild(ctx context.Context, s *discordgo.Session, seen <-chan string, guildID string) (string, bool) {
	if _, _, listed := guildInState(s.State, guildID); !listed {
		return "", false // READY lists every server the bot is in, if only as unavailable
	}
	deadline := time.After(5 * time.Second)
	for {
		if name, available, _ := guildInState(s.State, guildID); available {
			return name, true
		}
		select {
		case <-seen:
		case <-deadline:
			return "", false
		case <-ctx.Done():
			return "", false
		}
	}
}

// checkChannel lists the bot's permissions in the channel and posts and
// deletes a test picture there.
func (c *checker) checkChannel(ctx context.Context, s *discordgo.Session, botID, channelID string) {
	ch, err := s.State.Channel(channelID)
	if err != nil {
		if c.notAChannel(ctx, s, channelID) {
			return
		}
		ch, err = s.Channel(channelID, discordgo.WithContext(ctx))
	}
	if ctx.Err() != nil {
		return
	}
	if err != nil {
		c.fail("the bot cannot see channel %s: %v. %s", channelID, c.describe(err), channelAdvice(err))
		return
	}
	// A match played in a thread needs what posting there needs (Send
	// Messages in Threads, not Send Messages), and no thread of its own;
	// a thread follows its channel's permissions, granted there.
	//
	// A forum (or a media channel) takes no message of its own: matches
	// are played in its posts, each a thread of it, whose permissions are
	// the forum's; no test picture is posted in it.
	where, needs, place, grantIn := channelID, bot.MatchPermissions(c.threads), "#"+ch.Name, "#"+ch.Name
	thread := ch.IsThread() && ch.ParentID != ""
	forum := ch.Type == discordgo.ChannelTypeGuildForum || ch.Type == discordgo.ChannelTypeGuildMedia
	switch {
	case thread:
		where, needs, place = ch.ParentID, bot.PostPermissions(true), "the thread #"+ch.Name
		grantIn = c.parentName(ctx, s, ch.ParentID)
	case forum:
		needs, place = bot.PostPermissions(true), "the posts of the forum #"+ch.Name
	}
	perms, err := s.State.UserChannelPermissions(botID, where)
	known := err == nil
	if err != nil {
		c.fail("the bot's permissions in %s cannot be worked out: %v", place, err)
	} else {
		missing := 0
		for _, p := range needs {
			if perms&discordgo.PermissionAdministrator != 0 || perms&p.Bit != 0 {
				c.note("has   %s (%s)", p.Name, p.Why)
				continue
			}
			missing++
			c.note("lacks %s (%s)", p.Name, p.Why)
		}
		if missing > 0 {
			them := "them"
			if missing == 1 {
				them = "it"
			}
			settings := "the channel's settings"
			switch {
			case thread:
				settings = "the settings of " + grantIn + ", the thread's channel"
			case forum:
				settings = "the settings of " + grantIn
			}
			c.fail("the bot lacks %s a match needs in %s: grant %s to its role in %s (Edit Channel → Permissions).", plural(missing, "permission", "permissions"), place, them, settings)
		} else {
			c.pass("the bot has every permission a match needs in %s", place)
		}
		if !c.threads && !thread && !forum {
			c.threadsByChoice(perms, ch.Name)
		}
	}
	if forum {
		c.note("#%s is a forum, which takes no message of its own: to post a test picture, give -channel the id of one of its posts.", ch.Name)
		return
	}
	picture, err := testPicture()
	if err != nil {
		c.fail("drawing the test picture failed: %v", err)
		return
	}
	msg, err := s.ChannelMessageSendComplex(channelID, &discordgo.MessageSend{
		Content: "strategobot check: a test picture; it is deleted at once.",
		Files:   []*discordgo.File{{Name: "check.png", ContentType: "image/png", Reader: bytes.NewReader(picture)}},
	}, discordgo.WithContext(ctx))
	if ctx.Err() != nil {
		return
	}
	if err != nil {
		c.fail("posting a test picture in #%s failed: %v. %s", ch.Name, c.describe(err), postAdvice(err, thread, grantIn, perms, known))
		return
	}
	c.pass("posted a test picture in #%s", ch.Name)
	if err := s.ChannelMessageDelete(channelID, msg.ID, discordgo.WithContext(ctx)); err != nil {
		if ctx.Err() != nil {
			c.note("stopped before the test picture was deleted: delete it by hand")
			return
		}
		c.fail("deleting the test picture failed: %v (delete it by hand)", c.describe(err))
		return
	}
	c.pass("deleted it")
}

// checkDM sends the member a test picture by DM.
func (c *checker) checkDM(ctx context.Context, s *discordgo.Session, userID string) {
	if _, _, server := guildInState(s.State, userID); server {
		c.channelName(ctx, s, userID) // the server's name comes with its channels
		if ctx.Err() != nil {
			return
		}
		name, _, _ := guildInState(s.State, userID)
		c.fail("%s is the id of the server %q, not of a member: give -user a member's id (in Discord, Developer Mode, then right-click the member → Copy User ID).", userID, name)
		return
	}
	// The channels come with GUILD_CREATE, after READY: waited for, as a
	// channel's id would else be asked for as a member's.
	if name, isChannel := c.channelName(ctx, s, userID); ctx.Err() != nil {
		return
	} else if isChannel {
		c.fail("%s is the id of channel #%s, not of a member: give -user a member's id (in Discord, Developer Mode, then right-click the member → Copy User ID).", userID, name)
		return
	}
	picture, err := testPicture()
	if err != nil {
		c.fail("drawing the test picture failed: %v", err)
		return
	}
	dm, err := s.UserChannelCreate(userID, discordgo.WithContext(ctx))
	if err == nil {
		_, err = s.ChannelMessageSendComplex(dm.ID, &discordgo.MessageSend{
			Content: "strategobot check: this is how your boards will reach you during a match.",
			Files:   []*discordgo.File{{Name: "check.png", ContentType: "image/png", Reader: bytes.NewReader(picture)}},
		}, discordgo.WithContext(ctx))
	}
	switch {
	case ctx.Err() != nil:
	case err == nil:
		c.pass("sent user %s a test picture by DM", userID)
	case discordCode(err) == discordgo.ErrCodeCannotSendMessagesToThisUser:
		c.fail("user %s does not take DMs from the bot: they share no server with it, or they turned off DMs from server members (server menu → Privacy Settings). Players need DMs for their set-ups and boards.", userID)
	case discordCode(err) == discordgo.ErrCodeUnknownUser:
		c.fail("sending user %s a DM failed: %v. No user has that id: check it (in Discord, Developer Mode, then right-click the member → Copy User ID).", userID, c.describe(err))
	default:
		c.fail("sending user %s a DM failed: %v. %s", userID, c.describe(err), retryAdvice)
	}
}

// notAChannel fails the check of channelID when it is the id of a server
// the bot is in (Copy Server ID sits beside Copy Channel ID), without
// asking Discord for a channel of that id.
func (c *checker) notAChannel(ctx context.Context, s *discordgo.Session, channelID string) bool {
	if _, _, server := guildInState(s.State, channelID); !server {
		return false
	}
	if _, ok := c.channelName(ctx, s, channelID); ok || ctx.Err() != nil {
		return false // an old server's first channel has the server's id
	}
	name, _, _ := guildInState(s.State, channelID) // come with its channels, or not in 5 seconds
	c.fail("%s is the id of the server %q, not of a channel: give -channel a channel's id (in Discord, Developer Mode, then right-click the channel → Copy Channel ID).", channelID, name)
	return true
}

// channelName is the name of the channel id among those of the servers the
// bot is in, once their channels have come (GUILD_CREATE follows READY),
// waiting for them at most 5 seconds.
func (c *checker) channelName(ctx context.Context, s *discordgo.Session, id string) (string, bool) {
	deadline := time.Now().Add(5 * time.Second)
	for {
		if ch, err := s.State.Channel(id); err == nil {
			s.State.RLock()
			defer s.State.RUnlock()
			return ch.Name, true
		}
		if allAvailable(s.State) || time.Now().After(deadline) {
			return "", false
		}
		select {
		case <-ctx.Done():
			return "", false
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// allAvailable reports whether every server the bot is in has come with
// its channels.
func allAvailable(st *discordgo.State) bool {
	st.RLock()
	defer st.RUnlock()
	for _, g := range st.Guilds {
		if g.Unavailable {
			return false
		}
	}
	return true
}

// retryAdvice is what to do about a failure that names no cause the admin
// can mend: Discord's trouble, or the network's.
const retryAdvice = "Discord or the network may be having trouble (https://discordstatus.com): run this again later."

// channelAdvice says what to do when the bot cannot see a channel: a wrong
// id (Unknown Channel), or a channel its role may not view or in a server
// it is not in (Missing Access).
func channelAdvice(err error) string {
	switch discordCode(err) {
	case discordgo.ErrCodeUnknownChannel:
		return "No channel has that id: check it (in Discord, Developer Mode, then right-click the channel → Copy Channel ID)."
	case discordgo.ErrCodeMissingAccess:
		return "Invite the bot to the channel's server (the link above), and let its role View Channel there (Edit Channel → Permissions)."
	case 0:
		if restCode(err) == 0 {
			return retryAdvice
		}
	}
	return "Check the id (in Discord, Developer Mode, then right-click the channel → Copy Channel ID), and that the bot's role may View Channel there (Edit Channel → Permissions)."
}

// postAdvice says what to do when posting the test picture in a channel,
// or a thread, failed: with Discord's Missing Permissions, which of the
// permissions posting needs the bot lacks there (perms, when known) or all
// of them, to be granted in grantIn (the channel, or the thread's channel).
func postAdvice(err error, thread bool, grantIn string, perms int64, known bool) string {
	const locked = "only members who may Manage Threads post in it, so a match made there goes on by DM, its board posted there again once the thread is unlocked " +
		"(a match the bot opened the thread for moves to %[1]s). Unlock it, or play in %[1]s."
	switch discordCode(err) {
	case discordgo.ErrCodeMissingPermissions, discordgo.ErrCodeMissingAccess:
	case discordgo.ErrCodeThreadIsLocked:
		return fmt.Sprintf("The thread is locked: "+locked, grantIn)
	case discordgo.ErrCodePerformedOperationOnArchivedThread:
		// A message unarchives a thread, unless it is locked too.
		return fmt.Sprintf("The thread is archived and locked: "+locked, grantIn)
	default:
		return retryAdvice
	}
	var lacks []string
	for _, p := range bot.PostPermissions(thread) {
		if !known || perms&discordgo.PermissionAdministrator == 0 && perms&p.Bit == 0 {
			lacks = append(lacks, p.Name)
		}
	}
	if len(lacks) == 0 {
		return fmt.Sprintf("The bot's roles seem to allow posting there: check the permissions of %s for its role and @everyone (Edit Channel → Permissions), and that the bot is not timed out.", grantIn)
	}
	return fmt.Sprintf("Give the bot's role %s in %s (Edit Channel → Permissions → the bot's role).", list(lacks), grantIn)
}

// parentName is how check names a thread's channel, where the thread's
// permissions are granted: #name, or its id when Discord does not say.
func (c *checker) parentName(ctx context.Context, s *discordgo.Session, parentID string) string {
	if ch, err := s.State.Channel(parentID); err == nil {
		s.State.RLock()
		defer s.State.RUnlock()
		return "#" + ch.Name
	}
	if ch, err := s.Channel(parentID, discordgo.WithContext(ctx)); err == nil {
		return "#" + ch.Name
	}
	return "the channel " + parentID
}

// list joins names as a sentence does: "A", "A and B", "A, B and C".
func list(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// testPicture is the key to the board's symbols, as a sample picture.
func testPicture() ([]byte, error) {
	pics, err := render.New()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := pics.Key(&buf, render.Options{}); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// restCode is the HTTP status of a REST error, or 0.
func restCode(err error) int {
	var rest *discordgo.RESTError
	if errors.As(err, &rest) && rest.Response != nil {
		return rest.Response.StatusCode
	}
	return 0
}

// discordCode is Discord's JSON error code of a REST error, or 0.
func discordCode(err error) int {
	var rest *discordgo.RESTError
	if errors.As(err, &rest) && rest.Message != nil {
		return rest.Message.Code
	}
	return 0
}

// describeRESTError words Discord's refusal: its code and message.
func describeRESTError(err error) string {
	var rest *discordgo.RESTError
	if errors.As(err, &rest) && rest.Message != nil {
		return fmt.Sprintf("Discord answered %d: %s", rest.Message.Code, rest.Message.Message)
	}
	return err.Error()
}

// guildInState reads a server's name and availability from the state under
// its lock: the gateway's goroutine updates the guild in place.
func guildInState(st *discordgo.State, guildID string) (name string, available, listed bool) {
	g, err := st.Guild(guildID)
	if err != nil {
		return "", false, false
	}
	st.RLock()
	defer st.RUnlock()
	return g.Name, !g.Unavailable, true
}

// plural is n with the noun's singular or plural: "1 check", "2 checks".
func plural(n int, one, other string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, other)
}

// threadsByChoice notes the permissions of threads, which a match needs
// only where the server's moderators chose a thread per match (the bot's
// threads setting being off): a lack of them is no failure here.
func (c *checker) threadsByChoice(perms int64, channel string) {
	base := bot.MatchPermissions(false)
	for _, p := range bot.MatchPermissions(true) {
		if slices.ContainsFunc(base, func(b bot.Permission) bool { return b.Bit == p.Bit }) {
			continue
		}
		if perms&discordgo.PermissionAdministrator != 0 || perms&p.Bit != 0 {
			c.note("has   %s (%s, where a server chooses a thread per match)", p.Name, p.Why)
			continue
		}
		c.note("lacks %s (%s): needed only if this server's moderators choose `/stratego server boards: thread`; grant it in #%s then", p.Name, p.Why, channel)
	}
}
