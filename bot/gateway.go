package bot

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"

	"github.com/strategobot/strategobot/storage"
)

// The gateway connection. discordgo v0.29.0 reconnects by itself, forever,
// whatever Discord's close code says: with a revoked token it would retry
// every ten minutes for ever, quietly. The bot turns that off and
// reconnects itself, stopping on the close codes Discord documents as
// final.
//
// On resume_gateway_url: READY names a URL at which Discord asks clients to
// resume. discordgo v0.29.0 resumes at the URL it first connected to
// (gateway.discord.gg), has no way to set another, and newer discordgo is
// not published as a module. Discord still accepts such a resume, replaying
// what was missed (discord-api-docs pull 5282: "the resume will still
// succeed" but the session is disconnected sooner). A sooner disconnect is
// one more resume, with nothing lost: every event is replayed, moves and
// their messages live in storage and the outbox, and an interaction that
// Discord dispatched during the gap is answered late at worst, which the
// member sees as "did not respond" and retries. So the bot keeps
// discordgo's resume rather than redirecting its connections by hand
// (a dialer that swaps hosts behind discordgo's back would surprise more
// than a few extra resumes). TestGatewayDropMidGame shows a DM move sent
// during a drop played once after the resume.

// Gateway close codes after which Discord will refuse every reconnect.
var finalCloses = map[int]string{
	4004: "the token is not valid (mistyped, or reset in the Developer Portal): copy the current one from your application → Bot → Reset Token into DISCORD_TOKEN",
	4010: "the shard settings are invalid: set shard_count to the number of shards you run and each process's shard_id below it, or leave both out",
	4011: "Discord requires sharding for this many servers: set shard_count",
	4012: "this build asks for a gateway version Discord no longer serves: upgrade strategobot",
	4013: "the intents it asked for are invalid: this build was changed, or a proxy between it and Discord changes what it sends: run an unmodified strategobot",
	// The bot asks for no privileged intent (Intents), so none needs
	// enabling: a 4014 means something else asked for one.
	4014: "it asked for privileged intents, yet this bot asks for none (Guilds and Direct Messages only): this build was changed, " +
		"or a proxy between it and Discord changes what it sends: run an unmodified strategobot, connected to Discord directly " +
		"or through a proxy that passes the gateway unchanged, and run strategobot check to see that it connects",
}

// ErrRefused marks the errors after which Discord will refuse the bot
// whatever it tries (a revoked token, intents refused, its command
// refused): restarting it unchanged does not help.
var ErrRefused = errors.New("refused by Discord")

// ExplainGatewayError adds what to do to the error of opening the gateway
// when Discord means it for good: a close of finalCloses, or a 401 to the
// request for the gateway's address, which a token Discord does not know
// gets before any close.
func ExplainGatewayError(err error) error {
	var ce *websocket.CloseError
	if errors.As(err, &ce) {
		if why, final := finalCloses[ce.Code]; final {
			return refusal{fmt.Sprintf("%v: it closed the connection with %d (%s): %s", ErrRefused, ce.Code, ce.Text, why), err}
		}
	}
	if status, ok := unauthorized(err); ok {
		return refusal{fmt.Sprintf("%v: it answered %s: %s", ErrRefused, status, finalCloses[4004]), err}
	}
	if errors.Is(err, websocket.ErrBadHandshake) {
		return fmt.Errorf("%w: %s", err, badHandshakeAdvice)
	}
	if not, ok := NotDiscordAPI(err); ok {
		return not
	}
	return WithoutPage(err)
}

// TokenRefused reports whether err is Discord refusing the bot's token: the
// gateway's close 4004, or a 401 to a request.
func TokenRefused(err error) bool {
	var ce *websocket.CloseError
	if errors.As(err, &ce) && ce.Code == 4004 {
		return true
	}
	_, ok := unauthorized(err)
	return ok
}

// WithoutPage words a REST answer that is not Discord's JSON (a proxy's or
// a load balancer's error page, most often a 502 or 503) by its status
// alone: the page itself, a screenful of HTML, says nothing an admin can
// use. discordgo gives up on a 502 with an error of its own that quotes
// the page (maxRetries); any other error comes back unchanged.
func WithoutPage(err error) error {
	var rest *discordgo.RESTError
	if errors.As(err, &rest) && rest.Message == nil && rest.Response != nil && rest.Request != nil && len(rest.ResponseBody) > 0 {
		return notDiscord{fmt.Sprintf("%s %s answered %s%s",
			rest.Request.Method, rest.Request.URL.Redacted(), rest.Response.Status, pageLeftOut), err}
	}
	if rest, ok := strings.CutPrefix(err.Error(), maxRetries); ok {
		status, _, _ := strings.Cut(rest, ", ")
		return notDiscord{fmt.Sprintf("Discord's API answered %s to every try%s", status, pageLeftOut), err}
	}
	return err
}

// maxRetries begins discordgo's error for a request answered 502 on every
// try: "Exceeded Max retries HTTP <status>, <the answer's body>".
const maxRetries = "Exceeded Max retries HTTP "

// pageLeftOut ends the text of WithoutPage.
const pageLeftOut = " with a page that is not Discord's (left out)"

// NotDiscordAPI reports whether err is an answer that did not come from
// Discord's API, and says so with what to fix: a 404 to a request of a
// route Discord always has (the gateway's address, the bot's own user),
// which a web server or proxy at a wrong api_base_url gives (most often
// one without its /api/v9/ path). The answer's body, a web page as often
// as not, is left out; the address asked is named, without a password.
func NotDiscordAPI(err error) (error, bool) {
	var rest *discordgo.RESTError
	if !errors.As(err, &rest) || rest.Response == nil || rest.Response.StatusCode != http.StatusNotFound || rest.Request == nil {
		return nil, false
	}
	return notDiscord{fmt.Sprintf("%s %s answered %s, which is not Discord's API: check api_base_url: leave it out "+
		"for Discord's own, or give your REST proxy's address of Discord's API (such as http://127.0.0.1:8080/api/v9/)",
		rest.Request.Method, rest.Request.URL.Redacted(), rest.Response.Status), err}, true
}

// notDiscord is the error of NotDiscordAPI and WithoutPage: said once, still
// wrapping the REST error it words.
type notDiscord struct {
	text string
	err  error
}

func (e notDiscord) Error() string { return e.text }
func (e notDiscord) Unwrap() error { return e.err }

// badHandshakeAdvice is what to check when the gateway's address answered,
// but not with a WebSocket connection: most often a proxy at api_base_url
// that passes plain requests alone.
const badHandshakeAdvice = "the gateway answered without taking the WebSocket connection: a proxy at api_base_url must pass " +
	"WebSocket upgrades through (or GET /gateway must name Discord's own gateway), or Discord may be having trouble " +
	"(https://discordstatus.com)"

// unauthorized reports whether err is a REST request answered 401, and
// the answer's status line.
func unauthorized(err error) (string, bool) {
	var rest *discordgo.RESTError
	if errors.As(err, &rest) && rest.Response != nil && rest.Response.StatusCode == http.StatusUnauthorized {
		return rest.Response.Status, true
	}
	return "", false
}

// refusal is ErrRefused with what to do, said once: it wraps the close
// without repeating it.
type refusal struct {
	text string
	err  error
}

func (r refusal) Error() string   { return r.text }
func (r refusal) Unwrap() []error { return []error{ErrRefused, r.err} }

// Unreachable reports whether err is a request that never got Discord's
// answer (no route, DNS, a refused connection, a timeout), as opposed to an
// answer that refuses.
func Unreachable(err error) bool {
	var ue *url.Error
	return errors.As(err, &ue)
}

// unreachableAdvice is what to check when Discord cannot be reached.
const unreachableAdvice = "it cannot be reached; check this machine's network, DNS and firewall, or api_base_url"

// GatewayUnreachable reports whether err is a WebSocket connection to the
// gateway that never got Discord's answer (DNS, a refused connection, a
// timeout), the API having answered: a firewall that lets requests to the
// API through, and not the gateway, does this.
func GatewayUnreachable(err error) bool {
	var op *net.OpError
	return !Unreachable(err) && errors.As(err, &op)
}

// GatewayUnreachableAdvice is what to check when the gateway cannot be
// reached (GatewayUnreachable).
const GatewayUnreachableAdvice = "check this machine's network, DNS and firewall, which must let WebSocket connections to the gateway through (wss://, port 443) as well as requests to the API"

// isFinalClose reports whether err is a close, or a 401, after which
// reconnecting is futile.
func isFinalClose(err error) bool {
	return errors.Is(ExplainGatewayError(err), ErrRefused)
}

// Backoff between tries of what Discord failed for a while (connecting,
// registering the command): 1 s, doubling, at most 10 minutes.
const (
	firstReconnect = time.Second
	lastReconnect  = 10 * time.Minute
)

// retrier is the wait before the next try: firstReconnect, doubling on every
// try, at most lastReconnect.
type retrier struct{ next time.Duration }

// wait waits before the next try, at least asked (what Discord asked for,
// or 0), and reports false if ctx ended first.
func (w *retrier) wait(ctx context.Context, asked time.Duration) bool {
	d := w.peek(asked)
	w.next = min(2*d, lastReconnect)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// peek is how long the next wait will be, at least asked.
func (w *retrier) peek(asked time.Duration) time.Duration {
	return max(w.next, firstReconnect, asked)
}

// reconnect opens the gateway again after a disconnect, until it works, ctx
// ends, or Discord refuses the bot for good (sent to refused). discordgo
// resumes the session when it can, replaying the events missed. The timers
// wait meanwhile, and the time away is given back once connected
// (gatewayaway.go). A connection lost again as it came back, whose own
// call found this one still running, is reconnected here too: the
// Disconnect handler counts it (drops) before calling.
func (b *Bot) reconnect(ctx context.Context, refused chan<- error) {
	if ctx.Err() != nil || !b.reconnecting.CompareAndSwap(false, true) {
		return
	}
	b.gatewayLost(ctx)
	for {
		seen := b.drops.Load()
		ok := b.reopen(ctx, refused)
		if ok {
			b.gatewayBack(ctx, seen)
		}
		b.reconnecting.Store(false)
		if !ok || ctx.Err() != nil || b.drops.Load() == seen {
			return
		}
		if !b.reconnecting.CompareAndSwap(false, true) {
			return // the new drop's own call runs
		}
		b.gatewayLost(ctx)
	}
}

// reopen tries to open the gateway until it works (true), ctx ends, or
// Discord refuses the bot for good (sent to refused).
func (b *Bot) reopen(ctx context.Context, refused chan<- error) bool {
	var again retrier
	for ctx.Err() == nil {
		err := b.open(ctx)
		if ctx.Err() != nil {
			return false
		}
		if err == nil || errors.Is(err, discordgo.ErrWSAlreadyOpen) {
			b.log.Info("reconnected to Discord")
			return true
		}
		if isFinalClose(err) {
			select {
			case refused <- ExplainGatewayError(err):
			default:
			}
			return false
		}
		b.log.Warn("reconnecting to Discord failed; trying again", "in", again.peek(0), "error", ExplainGatewayError(err))
		if !again.wait(ctx, 0) {
			return false
		}
	}
	return false
}

// open connects the bot's session to the gateway, or gives up as soon as
// ctx ends (see OpenGateway).
func (b *Bot) open(ctx context.Context) error { return OpenGateway(ctx, b.s) }

// OpenGateway connects s to the gateway, or gives up as soon as ctx ends.
// discordgo's Open cannot be cancelled: it holds the session's lock while
// it waits for Discord (GET /gateway, the websocket, HELLO, READY), up to
// the HTTP client's timeout. An Open given up on runs to its end in the
// background, and the connection it may still make is closed.
func OpenGateway(ctx context.Context, s *discordgo.Session) error {
	done := make(chan error, 1)
	go func() { done <- s.Open() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		go func() {
			if err := <-done; err == nil {
				_ = s.Close()
			}
		}()
		return ctx.Err()
	}
}

// closeWait bounds the wait for the session to close on the way out.
// discordgo's Close sends the close frame at once, then sleeps a second for
// Discord to answer; it also waits for an Open in progress to end.
const closeWait = 200 * time.Millisecond

// closeSession closes the bot's gateway connection (see CloseGateway).
func (b *Bot) closeSession() { CloseGateway(b.s) }

// CloseGateway closes s's gateway connection, waiting at most closeWait:
// the close frame is sent at once, and a process on its way out need not
// wait for Discord's answer.
func CloseGateway(s *discordgo.Session) {
	closed := make(chan struct{})
	go func() {
		defer close(closed)
		_ = s.Close()
	}()
	select {
	case <-closed:
	case <-time.After(closeWait):
	}
}

// registerCommands registers the bot's commands, globally or in the server
// guild_id names, trying again while Discord fails for a while (a
// time-out, a 5xx, a 429): a slow answer at start-up is no reason to stop
// the bot. A refusal (another 4xx) is returned at once, since asking again
// would be refused the same way. It lists the commands Discord has first,
// and writes them only when they differ (sameCommands): most starts change
// nothing, and need write nothing.
//
// With guild_id set, the server's note that it has no copy of the command
// (CommandChecked) is cleared first, and nothing is registered until that
// is recorded: a copy registered while the note stood would never be
// looked for once the command is global again (dropGuildCopy), and members
// would see /stratego twice. A failure to record it is logged, and tried
// again as Discord's failures are. What this cannot see is a copy
// registered by a start with another database (a staging bot with the
// same token, a backup restored from before the start with guild_id): this
// database's note may then say checked wrongly. One start with guild_id
// naming that server, then one without, removes such a copy.
func (b *Bot) registerCommands(ctx context.Context, appID string) error {
	var again retrier
	want := CommandsFor(b.cfg.DefaultMoveTime)
	noted := b.cfg.GuildID == ""
	for {
		if !noted {
			err := b.noteCommandChecked(ctx, b.cfg.GuildID, false)
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if err != nil {
				b.log.Warn("noting that the server's own copy of the command is to be removed once global failed; not registering it there until noted: trying again",
					"guild", b.cfg.GuildID, "in", again.peek(0), "error", err)
				if !again.wait(ctx, 0) {
					return ctx.Err()
				}
				continue
			}
			noted = true
		}
		have, err := b.s.ApplicationCommands(appID, b.cfg.GuildID, discordgo.WithContext(ctx))
		if err == nil && !sameCommands(have, want) {
			_, err = b.s.ApplicationCommandBulkOverwrite(appID, b.cfg.GuildID, want, discordgo.WithContext(ctx))
		}
		if err == nil || ctx.Err() != nil {
			return err
		}
		failure, asked := classify(err)
		if failure != retryLater {
			return err
		}
		b.log.Warn("registering the command failed; trying again", "in", again.peek(asked), "error", err)
		if !again.wait(ctx, asked) {
			return ctx.Err()
		}
	}
}

// dropGuildCopies calls dropGuildCopy for every server the bot is in, once
// the command is registered globally: a start with guild_id set registered
// it in that server alone, and its copy there would show members
// /stratego twice once the global one is in too. A server whose
// GUILD_CREATE comes later is looked at then.
func (b *Bot) dropGuildCopies(ctx context.Context) {
	b.s.State.RLock()
	ids := make([]string, 0, len(b.s.State.Guilds))
	for _, g := range b.s.State.Guilds {
		ids = append(ids, g.ID)
	}
	b.s.State.RUnlock()
	for _, id := range ids {
		b.dropGuildCopy(ctx, id)
	}
}

// dropGuildCopy removes this application's commands registered in the
// server alone, when they include /stratego: the copy an earlier start with
// guild_id left, the command being global now. Once per server: a list of
// the server's commands (one request), and nothing more where there is no
// copy; the server's settings then note that it was looked at
// (CommandChecked), and later starts ask Discord nothing, until a start
// with guild_id naming the server clears the note. With many servers, a
// list of each at every start was that many requests, and Discord's global
// rate limit met, as the bot started. A failure is logged, and the next
// GUILD_CREATE of the server or the next start tries again.
func (b *Bot) dropGuildCopy(ctx context.Context, guildID string) {
	if _, done := b.guildsSwept.LoadOrStore(guildID, true); done {
		return
	}
	if s, err := b.store.Server(ctx, guildID); err == nil && s.CommandChecked {
		return
	}
	appID := b.applicationID()
	cmds, err := b.s.ApplicationCommands(appID, guildID, b.untilStop())
	copied := slices.ContainsFunc(cmds, func(c *discordgo.ApplicationCommand) bool { return c.Name == commandName })
	if err == nil && copied {
		_, err = b.s.ApplicationCommandBulkOverwrite(appID, guildID, []*discordgo.ApplicationCommand{}, b.untilStop())
	}
	if err != nil {
		b.guildsSwept.Delete(guildID)
		b.log.Warn("removing the server's own copy of the command failed", "guild", guildID, "error", err)
		return
	}
	if err := b.noteCommandChecked(ctx, guildID, true); err != nil {
		b.log.Warn("noting that the server has no copy of the command failed; the next start looks again", "guild", guildID, "error", err)
	}
	if !copied {
		return
	}
	names := make([]string, len(cmds))
	for k, c := range cmds {
		names[k] = c.Name
	}
	b.log.Info("removed the server's own copy of the command, which is global now", "guild", guildID, "commands", strings.Join(names, ", "))
}

// noteCommandChecked records in the server's settings whether the server
// was looked at for a copy of the command of its own (dropGuildCopy),
// writing only a change. A failure to note checked costs a list of the
// server's commands at the next start; one to note unchecked would leave a
// copy for good, which registerCommands does not allow.
func (b *Bot) noteCommandChecked(ctx context.Context, guildID string, checked bool) error {
	_, err := b.store.UpdateServer(ctx, guildID, func(s *storage.ServerSettings) error {
		if s.CommandChecked == checked {
			return errNothingToRecord
		}
		s.CommandChecked = checked
		return nil
	})
	if errors.Is(err, errNothingToRecord) {
		return nil
	}
	return err
}
