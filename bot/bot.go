package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/internal/logsafe"
	"github.com/strategobot/strategobot/internal/ratelimit"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
)

// Config is what the bot reads from the configuration.
type Config struct {
	// GuildID registers the command in one server only (instant; for
	// development). Empty registers it globally.
	GuildID string
	// Threads plays each match in its own thread of the challenge's channel
	// on the servers that have not chosen how boards are shown.
	Threads bool
	// DefaultMoveTime is a new match's move time when the challenger names none.
	DefaultMoveTime time.Duration
	// ChallengeExpiry is how long a challenge waits for an answer.
	ChallengeExpiry time.Duration
	// Now is the clock; nil means time.Now. Tests pass a fake one.
	Now func() time.Time
	// Logger receives the bot's logs; nil discards them.
	Logger *slog.Logger
	// Limits bounds what one member may have open, and the computer's thinking.
	Limits Limits
	// Metrics counts what the bot does, for /metrics; nil counts nothing.
	Metrics *Metrics
	// Shared says the database is shared by several processes (PostgreSQL):
	// only the one holding the lease runs the timers and the outbox (see
	// lease.go). Holder names this process; empty: host name and pid.
	Shared bool
	Holder string
}

// Bot answers Discord events. It is safe for concurrent use: discordgo runs
// each handler in its own goroutine.
type Bot struct {
	cfg   Config
	s     *discordgo.Session
	store storage.Store
	pics  *render.Renderer
	log   *slog.Logger

	dmChannels    sync.Map                // user id → DM channel id, a cache of UserChannelCreate
	dmOpening     atomic.Bool             // set while an outbox worker opens a DM channel (dmchannels.go)
	dmOpenings    atomic.Uint64           // counts the DM channel openings begun
	made          madeDMs                 // the outbox's DMs Discord made though its answer was lost (made.go)
	wake          chan struct{}           // nudges the timer loop when a deadline may have moved
	timerPass     sync.Mutex              // held by a pass over the due timers
	holds         timerHolds              // the timers held back after failing (timerholds.go)
	vacationsDue  atomic.Int64            // unix time of the next look for vacations that stop no clock (vacation.go); 0: at once
	vacationsFrom atomic.Int64            // unix time from which that look takes the vacations ended (creditAway); 0: its usual reach
	outboxWake    chan struct{}           // nudges the outbox loop when a change recorded notices
	outboxPass    sync.Mutex              // held by a pass over the due notices
	outboxHolds   timerHolds              // the notices held back after their outcome could not be recorded (outbox.go)
	reconnecting  atomic.Bool             // a reconnect loop is running
	leading       atomic.Bool             // this process runs the timers and the outbox (lease.go)
	deaf          atomic.Bool             // the gateway connection is lost: no timer runs (gatewayaway.go)
	drops         atomic.Uint64           // counts the gateway connections lost
	heard         atomic.Pointer[waitCh]  // while deaf, closed once the time away is given back (awaitHeard)
	gatewayMu     sync.Mutex              // serialises gatewayLost, gatewayBack and a start's creditAway, and the writes of heard
	leaseMu       sync.Mutex              // serialises renewLease
	snapshots     *snapshotCache          // the latest state of matches changed lately (snapshot.go)
	tournaments   *tournamentCache        // the latest state of tournaments changed or read lately (tournamentcache.go)
	replays       atomic.Int64            // matches replayed by the bot itself, outside storage's changes
	web           atomic.Pointer[webFace] // the board in the browser, nil when off (web.go)
	awayGiven     chan struct{}           // closed once the time away has been given back, or need not be (afterAway)
	awayOnce      sync.Once               // closes awayGiven
	global        atomic.Bool             // the command is registered globally by this process (gateway.go)
	registered    atomic.Bool             // the command is registered, in its scope, by this process (serve)
	guildsSwept   sync.Map                // guild id → true: its own copy of the command looked for (dropGuildCopy)
	healthWrote   atomic.Int64            // unix nanoseconds of Healthy's last write that went through; 0: none, or it failed since
	firstReady    chan struct{}           // closed once the first of them was (the timers wait for it)
	firstOnce     sync.Once               // closes firstReady

	limits   Limits
	metrics  *Metrics
	roles    memberRoles   // members' roles as Discord last gave them, for a while (memberroles.go)
	channels channelKinds  // what Discord said of channels the state lost: archived threads (threadsight.go)
	thinkers *thinking     // the computer's choices, bounded
	stopping chan struct{} // closed when Run stops: computer moves still waiting give up
	// answering holds an answerKey while the computer's answer to that
	// move is under way (computerMoves): one answer a move.
	answering sync.Map
	computers sync.WaitGroup // the computer's answers under way (goComputer), which Run waits for
	// halt ends requestGrace after Run stops: every request to Discord is
	// made with it (untilStop), so that one Discord holds does not hold the
	// stop until the HTTP client's timeout.
	halt    context.Context
	haltNow context.CancelFunc

	// handlers counts running handlers so that Run can wait for them; once
	// closing is set no new one starts.
	mu       sync.Mutex
	closing  bool
	handlers sync.WaitGroup
}

// New returns a bot that will serve session with store and pics.
func New(cfg Config, session *discordgo.Session, store storage.Store, pics *render.Renderer) *Bot {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	// Every error the bot logs passes through logsafe.Err, including those
	// of a call site that forgets: a hidden rank must not reach the log of
	// an operator who may be a player.
	cfg.Logger = slog.New(logsafe.Handler(cfg.Logger.Handler()))
	if cfg.DefaultMoveTime == 0 {
		cfg.DefaultMoveTime = defaultMoveTime
	}
	if cfg.ChallengeExpiry == 0 {
		cfg.ChallengeExpiry = 24 * time.Hour
	}
	if cfg.Holder == "" {
		cfg.Holder = defaultHolder()
	}
	limits := cfg.Limits.withDefaults()
	// The bot keeps Discord's rate limits in the session's transport rather
	// than in discordgo, whose waits nothing wakes: every wait then ends
	// with the stop (untilStop).
	if session != nil {
		session.Client = ratelimit.Client(session.Client)
	}
	if cfg.Metrics != nil {
		if r, ok := store.(backupReporter); ok {
			cfg.Metrics.watchBackups(r)
		}
		store = timedStore{Store: store, m: cfg.Metrics}
		cfg.Metrics.watchOutbox(store)
		cfg.Metrics.watchRenderer(pics)
	}
	var changes storage.Changes // the store's rules, for the clocks the snapshot cache starts
	if store != nil {
		changes = store.Changes()
	}
	b := &Bot{cfg: cfg, s: session, store: store, pics: pics, log: cfg.Logger, wake: make(chan struct{}, 1), outboxWake: make(chan struct{}, 1),
		limits: limits, thinkers: newThinking(limits.ComputerThinkers, limits.ComputerPace), stopping: make(chan struct{}), metrics: cfg.Metrics,
		snapshots: newSnapshotCache(changes), tournaments: newTournamentCache(), awayGiven: make(chan struct{}), firstReady: make(chan struct{})}
	b.outboxHolds.atOnce = 2 // see outboxNext
	// A timer whose handling was overtaken (the match changed as it was
	// handled, storage.ErrStale) is still due, at the same time: it is
	// tried again at once, and held back only when it fails again.
	b.holds.atOnce = 1
	b.halt, b.haltNow = context.WithCancel(context.Background())
	b.leading.Store(!cfg.Shared) // alone on its database, the bot always leads
	if cfg.Shared {
		b.awayGivenBack() // see afterAway
	}
	return b
}

// Reminders is the bot's reminder schedule, for the Reminders option of
// bolt.Options and postgres.Options, of a turn that has the time turn (its
// move time, and the time its player was given for it): at half time, and
// one hour before the deadline when the turn is longer than two hours.
func Reminders(turn time.Duration) []time.Duration {
	r := []time.Duration{turn / 2}
	if turn > 2*time.Hour {
		r = append(r, time.Hour)
	}
	return r
}

// Intents are the gateway intents the bot needs: guild events and DMs. DMs
// sent to the bot carry their text without the privileged Message Content intent.
const Intents = discordgo.IntentsGuilds | discordgo.IntentsDirectMessages

// Run connects, registers the command, serves events and timers until ctx
// ends, then disconnects cleanly. It returns an error when Discord refuses
// the bot for good (a revoked token, intents refused): reconnecting
// would be refused forever.
func (b *Bot) Run(ctx context.Context) error {
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	b.s.Identify.Intents = Intents
	// The bot reconnects itself, so that it can tell a refusal for good from
	// a connection lost (see gateway.go).
	b.s.ShouldReconnectOnError = false
	refused := make(chan error, 1)
	crashed := make(chan error, 1)
	removeDisconnect := b.s.AddHandler(func(s *discordgo.Session, _ *discordgo.Disconnect) {
		b.drops.Add(1) // before reconnect: see there
		go b.keepGoing("reconnecting", crashed, func() { b.reconnect(ctx, refused) })
	})
	defer removeDisconnect()
	removeInteraction := b.s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		b.guard(ctx, "interaction", func(ctx context.Context) {
			if b.awaitHeard(ctx) {
				b.onInteraction(ctx, i.Interaction)
			}
		})
	})
	removeMessage := b.s.AddHandler(func(s *discordgo.Session, m *discordgo.MessageCreate) {
		b.guard(ctx, "message", func(ctx context.Context) {
			if b.awaitHeard(ctx) {
				b.onMessage(ctx, m.Message)
			}
		})
	})
	removeEvent := b.s.AddHandler(func(s *discordgo.Session, e *discordgo.Event) { b.onOwnDM(e) })
	defer removeEvent()
	removeGuild := b.s.AddHandler(func(s *discordgo.Session, g *discordgo.GuildDelete) {
		b.guard(ctx, "guild delete", func(ctx context.Context) { b.onGuildDelete(ctx, g) })
	})
	// A server missing from READY may be one the bot was removed from
	// while it was down (removeddown.go). The list is read under the
	// state's lock, which writes the same guilds as their GUILD_CREATEs come.
	removeReady := b.s.AddHandler(func(s *discordgo.Session, r *discordgo.Ready) {
		shard := [2]int{s.ShardID, s.ShardCount}
		if r.Shard != nil {
			shard = *r.Shard
		}
		ready := map[string]bool{}
		s.State.RLock()
		for _, g := range r.Guilds {
			ready[g.ID] = true
		}
		s.State.RUnlock()
		b.guard(ctx, "ready", func(ctx context.Context) { b.onReady(ctx, shard, ready) })
	})
	defer removeReady()
	// What the bot may do in a channel may have changed: a match whose
	// channel was out of its reach may come back there (channelback.go).
	removeChannel := b.s.AddHandler(func(s *discordgo.Session, e *discordgo.ChannelUpdate) {
		if e.Channel != nil && e.GuildID != "" {
			guild, channel := e.GuildID, e.ID
			b.guard(ctx, "channel update", func(ctx context.Context) { b.onPermissionsChanged(ctx, guild, channel) })
		}
	})
	// A thread deleted that the state had lost (archived) is so no longer
	// taken for what it was (threadsight.go).
	removeThread := b.s.AddHandler(func(s *discordgo.Session, e *discordgo.ThreadDelete) {
		if e.Channel != nil {
			b.channels.deleted(e.ID)
		}
	})
	// A thread unlocked is one the bot may post in again: a match made in
	// it may come back there (threadOpened). A thread the state did not
	// hold is held from now on by the very struct of the event, which a
	// later update overwrites: it is read under the state's lock.
	removeThreadUpdate := b.s.AddHandler(func(s *discordgo.Session, e *discordgo.ThreadUpdate) {
		if e.Channel == nil || s.State == nil {
			return
		}
		s.State.RLock()
		guild, thread, opened := e.GuildID, e.ID, threadOpened(e)
		s.State.RUnlock()
		if guild != "" && opened {
			b.guard(ctx, "thread update", func(ctx context.Context) { b.onPermissionsChanged(ctx, guild, thread) })
		}
	})
	removeRole := b.s.AddHandler(func(s *discordgo.Session, e *discordgo.GuildRoleUpdate) {
		if e.GuildRole != nil && e.Role != nil && b.ownRoleChanged(e.GuildID, e.Role.ID) {
			guild := e.GuildID
			b.guard(ctx, "role update", func(ctx context.Context) { b.onPermissionsChanged(ctx, guild, "") })
		}
	})
	removeMember := b.s.AddHandler(func(s *discordgo.Session, e *discordgo.GuildMemberUpdate) {
		if e.Member != nil && e.User != nil && e.User.ID == b.botUserID() {
			guild := e.GuildID
			b.guard(ctx, "own member update", func(ctx context.Context) { b.onPermissionsChanged(ctx, guild, "") })
		}
	})
	// A server the bot is in, or comes back to: once the command is
	// global, a copy of it registered there alone goes (dropGuildCopy).
	removeGuildCreate := b.s.AddHandler(func(s *discordgo.Session, g *discordgo.GuildCreate) {
		if g.Guild != nil && b.global.Load() {
			guild := g.ID
			b.guard(ctx, "guild create", func(ctx context.Context) { b.dropGuildCopy(ctx, guild) })
		}
	})
	defer removeGuildCreate()
	defer removeInteraction()
	defer removeMessage()
	defer removeGuild()
	defer removeChannel()
	defer removeThread()
	defer removeThreadUpdate()
	defer removeRole()
	defer removeMember()
	if !b.cfg.Shared {
		// The time away is given back only once connected to the gateway
		// (on a shared database, as the lease is taken: renewLease): a
		// start that cannot connect runs no timer, and must not record
		// that it is alive. A service manager restarts such a bot every
		// few seconds, and each start's record would leave the next one
		// less than storage.AwayGrace to give back: an outage of hours
		// would cost the players' clocks all of it, instead of being
		// given back at once when Discord answers. The DMs and commands
		// that come as it connects wait for it (awaitHeard).
		b.holdUntilHeard()
		defer b.heardAtStart()
	}
	if err := b.open(ctx); err != nil {
		return b.notConnected(ctx, err)
	}
	defer b.closeSession()
	user, ok := b.botUser()
	if !ok {
		return errors.New("connect to Discord: no READY with the bot's user")
	}
	appID := b.applicationID()
	b.log.Info("connected", "user", user.Username, "application", appID, "invite", InviteLink(appID))
	// The command is registered beside the rest: while Discord fails to take
	// it (registerCommands keeps trying), the command of the last start still
	// works, and moves already made must still be delivered.
	registered := make(chan error, 1)
	go b.keepGoing("registering the command", crashed, func() { registered <- b.registerCommands(ctx, appID) })
	if !b.cfg.Shared {
		// Before any timer of this process runs, and before the DMs and
		// commands held since the start; then the computer's turns that
		// the time away moved: it knows its own user now.
		b.computerAfterAway(ctx, b.creditAtStart(ctx))
	}
	b.renewLease(ctx)
	leaseDone := make(chan struct{})
	go func() {
		defer close(leaseDone)
		b.keepGoing("the lease", crashed, func() { b.runLease(ctx) })
	}()
	defer func() { stop(); <-leaseDone }()
	timersDone, outboxDone, aliveDone := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(aliveDone)
		b.keepGoing("the record of being alive", crashed, func() { b.runAlive(ctx) })
	}()
	go func() {
		defer close(timersDone)
		b.keepGoing("the timers", crashed, func() {
			b.awaitFirstReady(ctx) // a server the bot was removed from meanwhile runs no timer first
			b.runTimers(ctx)
		})
	}()
	go func() {
		defer close(outboxDone)
		b.keepGoing("the outbox", crashed, func() { b.runOutbox(ctx) })
	}()
	runErr := b.serve(ctx, refused, registered, crashed)
	stop()
	b.mu.Lock()
	close(b.stopping) // under mu: no answer starts after (goComputer)
	b.mu.Unlock()
	cut := time.AfterFunc(requestGrace, b.haltNow)
	<-timersDone
	<-outboxDone
	<-aliveDone
	b.computers.Wait() // those waiting gave up; a thought under way ends within its cap
	// The last moment the timers ran: a restart gives the clocks back the
	// time since, and no more.
	last, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	b.recordAlive(last)
	cancel()
	b.mu.Lock()
	b.closing = true
	b.mu.Unlock()
	b.handlers.Wait()
	cut.Stop()
	b.haltNow()
	b.log.Info("stopped")
	return runErr
}

// notConnected is what Run returns when connecting to Discord failed with
// err: nil when ctx ended (the bot was stopped meanwhile), else why, with
// what to check.
func (b *Bot) notConnected(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		b.log.Info("stopped before Discord answered")
		return nil
	}
	if Unreachable(err) {
		return fmt.Errorf("connect to Discord: %s: %w", unreachableAdvice, err)
	}
	if GatewayUnreachable(err) {
		return fmt.Errorf("connect to Discord: its gateway cannot be reached; %s: %w", GatewayUnreachableAdvice, err)
	}
	return fmt.Errorf("connect to Discord: %w", ExplainGatewayError(err))
}

// requestGrace is how long the requests to Discord under way when the bot
// stops may go on: most are answered within it, and one Discord holds is
// cut after it, well inside the second a stop may take. A send cut short is
// left undone in the outbox and made again after the restart (deliver).
const requestGrace = 300 * time.Millisecond

// untilStop is the option of every request to Discord: it is cut
// requestGrace after the bot stops. The handlers' own ctx outlives the stop
// (they finish their transaction), so it is not the request's.
func (b *Bot) untilStop() discordgo.RequestOption { return discordgo.WithContext(b.halt) }

// cutShort reports whether err is a request's failure once the stop cut
// the requests: whether Discord took it is unknown, and it is no failure of
// Discord's or the recipient's.
func (b *Bot) cutShort(err error) bool { return err != nil && b.halt.Err() != nil }

// serve waits until ctx ends, Discord refuses the bot for good, or refuses
// its command (a 4xx: asking again would be refused the same way), or one of
// its loops panicked, and returns why it stopped (nil when ctx ended). A
// refusal is not logged here: Run returns it, and its caller logs it once.
func (b *Bot) serve(ctx context.Context, refused, registered, crashed <-chan error) error {
	for {
		select {
		case <-ctx.Done():
			return nil
		case err := <-crashed:
			return err
		case err := <-refused:
			return err
		case err := <-registered:
			if ctx.Err() != nil {
				return nil
			}
			if err != nil {
				return fmt.Errorf("%w: register the /%s command: %w", ErrRefused, commandName, b.explainRegistration(err))
			}
			scope := "global"
			if b.cfg.GuildID != "" {
				scope = "guild " + b.cfg.GuildID
			}
			b.log.Info("registered the command", "scope", scope)
			b.registered.Store(true)
			registered = nil
			if b.cfg.GuildID == "" {
				b.global.Store(true)
				go b.guard(ctx, "guild commands", b.dropGuildCopies)
			}
		}
	}
}

// explainRegistration adds what to do to a refused registration whose
// cause lies in the configuration.
func (b *Bot) explainRegistration(err error) error {
	var rest *discordgo.RESTError
	if b.cfg.GuildID != "" && errors.As(err, &rest) && rest.Message != nil && rest.Message.Code == discordgo.ErrCodeMissingAccess {
		return fmt.Errorf("%w (is the bot in the server guild_id names, %s? invite it there, or leave guild_id empty to register the command everywhere)", err, b.cfg.GuildID)
	}
	return err
}

// leaseHealth is the lease Healthy takes to write to the database: it
// expires as it is taken, so that every process sharing the database
// writes it, and nothing waits for it.
const leaseHealth = "health"

// healthWriteEvery is how often at most Healthy writes to the database: a
// probe every few seconds (Kubernetes') would otherwise make a transaction
// synced to disk at each. A database that stops taking writes is seen
// within it; a failed write is tried again at the next check.
const healthWriteEvery = time.Minute

// Healthy says why the bot is not serving (nil when it is): the gateway is
// not connected, or the database does not answer or takes no write (a full
// disk, a read-only file or server), as every move needs one. It reads at
// each check and writes once in healthWriteEvery at most. /healthz shows
// it.
func (b *Bot) Healthy(ctx context.Context) error {
	b.s.RLock()
	ready := b.s.DataReady
	b.s.RUnlock()
	if !ready {
		return errors.New("not connected to Discord's gateway")
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if _, _, err := b.store.NextNotice(ctx); err != nil {
		return fmt.Errorf("the database does not answer: %w", err)
	}
	now := b.now()
	if last := b.healthWrote.Load(); last != 0 {
		if since := now.Sub(time.Unix(0, last)); since >= 0 && since < healthWriteEvery {
			return nil
		}
	}
	if _, err := b.store.Lead(ctx, leaseHealth, b.cfg.Holder, now, time.Nanosecond); err != nil {
		b.healthWrote.Store(0)
		return fmt.Errorf("the database takes no write: %w", err)
	}
	b.healthWrote.Store(now.UnixNano())
	return nil
}

// applicationID is the application the bot's commands belong to, from
// READY. Applications made before 2020 have an id of their own; newer ones
// share the bot user's, which is the fallback.
func (b *Bot) applicationID() string {
	b.s.State.RLock()
	defer b.s.State.RUnlock()
	if app := b.s.State.Application; app != nil && app.ID != "" {
		return app.ID
	}
	return b.s.State.User.ID
}

// guard runs one event handler: a panic is logged with its stack and does
// not stop the bot. The panic's value and the stack's argument words may be
// a match's secrets, so the log has logsafe.Panic's report: the panic's
// kind, where it happened and the frames, with no value the program held.
func (b *Bot) guard(ctx context.Context, what string, f func(ctx context.Context)) {
	b.mu.Lock()
	if b.closing {
		b.mu.Unlock()
		return // shutting down: Discord will deliver it again or the member retries
	}
	b.handlers.Add(1)
	b.mu.Unlock()
	defer b.handlers.Done()
	defer func() {
		if r := recover(); r != nil {
			b.log.Error("handler panicked", "event", what, "panic", logsafe.Panic(r))
		}
	}()
	// Handlers outlive a shutdown request just long enough to finish their
	// transaction; storage calls honour ctx. Their requests to Discord are
	// cut requestGrace after the stop (untilStop).
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), handlerBudget)
	defer cancel()
	f(ctx)
}

// handlerBudget is how long an event handler may run (guard).
const handlerBudget = 30 * time.Second

// ErrCrashed is wrapped by Run's error when one of the loops that keep the
// bot going (the timers, the outbox, the lease, reconnecting, registering
// the command) panicked: the bot stops in order, and its supervisor starts
// it again, as after a crash.
var ErrCrashed = errors.New("the bot stopped on a bug")

// keepGoing runs f, one of the loops the bot needs while it runs, and turns
// its panic into a stop: the loop cannot go on, so neither can the bot. Left
// alone, the panic would end the process with Go's own trace, whose argument
// words may be a match's secrets; logged here, it is logsafe's report, and
// the bot shuts down in order (handlers finish, the database closes).
func (b *Bot) keepGoing(what string, crashed chan<- error, f func()) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		rep := logsafe.Panic(r)
		b.log.Error("a loop of the bot panicked; stopping", "loop", what, "panic", rep)
		select {
		case crashed <- fmt.Errorf("%w: %s panicked at %s", ErrCrashed, what, rep.At):
		default: // another loop's panic stops it already
		}
	}()
	f()
}

func (b *Bot) now() time.Time { return b.cfg.Now() }

// nudgeTimers tells the timer loop that a deadline may have changed, and the
// outbox that the change may owe notices.
func (b *Bot) nudgeTimers() {
	select {
	case b.wake <- struct{}{}:
	default:
	}
	b.nudgeOutbox()
}

// nudgeOutbox tells the outbox loop that notices may be due.
func (b *Bot) nudgeOutbox() {
	select {
	case b.outboxWake <- struct{}{}:
	default:
	}
}
