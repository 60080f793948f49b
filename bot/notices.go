package bot

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/web"
)

// txtLateBoard tells a player whose board arrived late when their time
// started, and when their move is due (txtLateBoardStopped, of a board that
// arrived while a pause or their vacation stopped their clock: it starts
// when that ends); txtLateInvite, whose set-up invite
// arrived late, that the set-up time waited for it, and when their set-up
// is due; txtLateInviteOpponent, whose invite came before the opponent's
// late one, when the set-up time started, and when their set-up is due
// (the Stopped ones, of an invite that arrived while a vacation of either
// player stopped the set-up clock: it starts when that ends).
const (
	txtLateBoard                 = "Your board arrived late, at <t:%[1]s:t>: your time started then, not when it was sent. Your move is due <t:%[2]s:R> (<t:%[2]s:f>)."
	txtLateBoardStopped          = "Your board arrived late, at <t:%[1]s:t>, while your clock was stopped: your time starts when it runs again. Your move is due <t:%[2]s:R> (<t:%[2]s:f>)."
	txtLateInvite                = "Your set-up invite arrived late, at <t:%[1]s:t>: the set-up time started once both players' invites had arrived, not when the match was made. Your set-up is due <t:%[2]s:R> (<t:%[2]s:f>)."
	txtLateInviteOpponent        = "Your opponent's set-up invite arrived late: the set-up time started at <t:%[1]s:t> and your set-up is due <t:%[2]s:R> (<t:%[2]s:f>)."
	txtLateInviteStopped         = "Your set-up invite arrived late, at <t:%[1]s:t>, while a vacation stopped the set-up clock: the set-up time starts when it runs again. Your set-up is due <t:%[2]s:R> (<t:%[2]s:f>)."
	txtLateInviteOpponentStopped = "Your opponent's set-up invite arrived late, at <t:%[1]s:t>, while a vacation stopped the set-up clock: the set-up time starts when it runs again. Your set-up is due <t:%[2]s:R> (<t:%[2]s:f>)."
)

// lateInviteNote is the one rule of who is told that the set-up time
// started late, and how: n is a note that a late set-up invite's delivery
// owes side (lateBoard), about side's own invite (Reason lateInvite) or the
// opponent's (lateInviteOpponent). A note is said only once the set-up time
// runs (the other invite may still be on its way), to a player still
// placing pieces, and only of the invite that started the set-up time, the
// later of the two (m.InviteArrived): its player is told their invite was
// late, and the other, whose invite came earlier and showed the earliest
// the set-ups could be due, when the time started. Of two invites that
// arrived in the same second each player hears of their own. An invite
// that arrived while a vacation of either player stopped the set-up clock
// started nothing then: the note says it starts when that ends. It
// returns the text's format, or "" for nothing to say.
func lateInviteNote(m *storage.Match, n storage.Notice, side game.Side) string {
	if m.Phase != storage.PhaseSetup || !m.ClockRunning() || !m.Owes(side) {
		return ""
	}
	stopped := m.StoppedAt(game.Red, n.At) || m.StoppedAt(game.Blue, n.At)
	own, other := m.InviteArrived[side], m.InviteArrived[side.Opponent()]
	switch n.Reason {
	case lateInvite:
		// Matches whose set-up clock started before arrivals were kept
		// know neither: the note is said, as it was then.
		if !other.After(own) && stopped {
			return txtLateInviteStopped
		}
		if !other.After(own) {
			return txtLateInvite
		}
	case lateInviteOpponent:
		if !own.IsZero() && other.After(own) && stopped {
			return txtLateInviteOpponentStopped
		}
		if !own.IsZero() && other.After(own) {
			return txtLateInviteOpponent
		}
	}
	return ""
}

// compose renders a notice into the messages it stands for, from the match
// as it stood when the notice was recorded. None at all is a valid answer:
// the computer reads no DMs, a practice match in the DM has no channel, a
// player may have turned reminders off. now is when it is being sent: the
// side to move whose turn this notice tells has until now + the move time.
func (b *Bot) compose(ctx context.Context, n storage.Notice, tour *storage.Tournament, now time.Time) ([]outgoing, error) {
	if n.Tournament != 0 {
		return b.composeTournament(ctx, n, tour)
	}
	if n.Event == storage.EventChallengeExpired {
		return challengeExpired(b.publicPrinter(challengeGuild(n.Challenge)), n.Challenge), nil
	}
	snap, err := b.snapshotFor(ctx, n)
	if err != nil {
		return nil, err
	}
	// A channel out of reach for a while is tried again: it comes back
	// with the board as it stands, and n, which it shows, is not posted.
	b.tryLostChannel(ctx, n, snap.m, now)
	parts, err := b.composeMatch(ctx, n, snap, now)
	if err == nil && n.To == storage.AudiencePublic {
		withText(b.publicPrinter(snap.m.GuildID), parts)
	}
	return parts, err
}

// composeMatch is compose for a notice of a match, from snap: it works out
// who reads the notice and in which language (a matchNotice), then words
// its event.
func (b *Bot) composeMatch(ctx context.Context, n storage.Notice, snap *snapshot, now time.Time) ([]outgoing, error) {
	m := snap.m
	to, ok := b.recipient(m, n)
	if !ok {
		return nil, nil
	}
	if to.user != "" && b.mustWaitForDM(ctx, to.user) {
		return nil, waitingFor{to.user}
	}
	c := &matchNotice{b: b, ctx: ctx, n: n, snap: snap, m: m, to: to, aud: n.To, now: now}
	// A follower is sent what the channel sees, in their own language, with
	// how to stop following.
	switch n.To {
	case storage.AudienceFollower:
		if b.unfollowUnseen(ctx, m, n.Follower) {
			return nil, nil
		}
		c.aud, c.p = storage.AudiencePublic, b.printerFor(ctx, n.Follower)
		c.footer = "\n-# " + c.p.Sprintf(txtFollowing, m.ID.String())
	case storage.AudiencePublic:
		c.p = b.publicPrinter(m.GuildID)
	default:
		c.p = lang.For(c.settings(game.Side(n.To)).Locale)
	}
	c.side = game.Side(c.aud)
	c.current = n.Log == len(m.Log) && m.Phase.Active()
	p, side := c.p, c.side
	switch n.Event {
	case storage.EventCreated:
		if c.aud == storage.AudiencePublic {
			return c.seekAnnouncement(), nil
		}
		return c.setupInvite()
	case storage.EventChannelBack:
		msg, err := b.channelBackMessage(p, snap, n)
		if err != nil {
			return nil, err
		}
		return c.one(msg), nil
	case storage.EventStarted, storage.EventMove, storage.EventEnded:
		return c.board()
	case storage.EventFinale:
		g, err := snap.gameAt(n.Log, b.countReplay)
		if err != nil {
			return nil, err
		}
		return c.one(b.finaleMessage(p, m, g)), nil
	case storage.EventDrawOffered:
		if !c.current && !b.drawOfferStands(snap, n.Log, side) {
			return nil, nil // answered, or lapsed, before it could be asked
		}
		return c.one(b.drawOfferMessage(p, m, side)), nil
	case storage.EventDrawDeclined:
		return c.text(p.Sprintf("%[1]s declined the draw; the game goes on.", b.playerName(p, m, side.Opponent()))), nil
	case storage.EventReminder:
		return c.reminder(), nil
	case storage.EventTimeGiven:
		return c.timeGiven(), nil
	case storage.EventPauseOffered:
		// A gift of time or a vacation since leaves the proposal standing.
		by, days, ok := m.PauseOffer()
		if m.Phase != storage.PhasePlaying || n.Log > len(m.Log) || !ok || by == side || newer(m.Log[n.Log:], storage.ActOfferPause) {
			return nil, nil // answered, or lapsed, before it could be asked
		}
		return c.one(b.pauseOfferMessage(p, m, side, days, now)), nil // "if you agree now": from when it is asked
	case storage.EventOfferSettled:
		return c.offerSettled(), nil
	case storage.EventPauseDeclined:
		return c.text(p.Sprintf(txtPauseDeclineNote, b.playerName(p, m, side.Opponent()))), nil
	case storage.EventPaused, storage.EventResumed:
		paused := n.Event == storage.EventPaused
		if paused && m.PausedUntil().IsZero() {
			return nil, nil // over already: its end tells the rest
		}
		return c.one(b.pauseNotice(p, m, c.aud, paused)), nil
	case storage.EventVacation, storage.EventVacationOver:
		return c.vacation(), nil
	case storage.EventLateBoard:
		return c.lateBoard(), nil
	case storage.EventAway:
		return c.away(), nil
	case storage.EventAbandoned:
		return c.abandoned(), nil
	case storage.EventFallback:
		return c.one(b.fallbackMessage(p, m, n)), nil
	}
	return nil, fmt.Errorf("no message for %s notices", n.Event)
}

// matchNotice is one notice of a match being worded: for whom (to, aud,
// side), in which language (p), from which state of the match (snap, m).
type matchNotice struct {
	b       *Bot
	ctx     context.Context
	n       storage.Notice
	snap    *snapshot
	m       *storage.Match
	to      audienceOf
	aud     storage.Audience // whose view: a follower reads the public one
	side    game.Side        // game.Side(aud), for the players' audiences
	p       lang.Printer
	footer  string // under a follower's copy: how to stop following
	current bool   // the notice is of the match as it stands, still on
	now     time.Time
}

// settings are side's player settings, read once for the change and known
// to the rest of this delivery (whether DMs reach them, their DM channel).
func (c *matchNotice) settings(side game.Side) *storage.PlayerSettings {
	p := c.snap.player(side, func(user string) *storage.PlayerSettings { return c.b.settingsOf(c.ctx, user) })
	rememberSettings(c.ctx, p)
	return p
}

// one is msg, with the follower's footer, as the notice's one message;
// none for nil.
func (c *matchNotice) one(msg *discordgo.MessageSend) []outgoing {
	if msg == nil {
		return nil
	}
	msg.Content += c.footer
	return []outgoing{{to: c.to, send: msg}}
}

// text is one message of text under the match's title.
func (c *matchNotice) text(text string) []outgoing {
	return c.one(&discordgo.MessageSend{Content: c.b.matchTitle(c.p, c.m) + "\n" + text})
}

// setupInvite asks a player for their set-up, while the set-ups are on.
func (c *matchNotice) setupInvite() ([]outgoing, error) {
	b, m, p, side := c.b, c.m, c.p, c.side
	if m.Phase != storage.PhaseSetup {
		return nil, nil // the invite is moot: the match has moved on
	}
	label, over, err := b.startingGame(c.ctx, p, m)
	if err != nil || over {
		return nil, err // over: the invite is moot, its tournament over or cancelled
	}
	msg := b.setupInvite(p, m, side, c.settings(side), label, c.now)
	msg.Components = b.withBoardLink(p, msg.Components, m, game.ViewerOf(side), c.settings(side).LinkGen)
	return c.one(msg), nil
}

// board is the board after the game's start, a move or its end, as the
// audience sees it.
func (c *matchNotice) board() ([]outgoing, error) {
	b, n, m, p, aud, side := c.b, c.n, c.m, c.p, c.aud, c.side
	numbering := game.NumberingModern
	if aud != storage.AudiencePublic {
		numbering = c.settings(side).Numbering
		if n.Event == storage.EventMove && m.Log[n.Log-1].Side == side && c.settings(side).NoOwnMoves {
			return nil, nil // the player's own move, and they asked for no board after it
		}
	}
	g, err := c.snap.gameAt(n.Log, b.countReplay)
	if err != nil {
		return nil, err
	}
	// The turn the board tells is on still when nothing but actions
	// within it (a gift of time, a pause, a vacation, a draw offer) came
	// since, as when the move's board is sent again after a failure: the
	// side to move is told its deadline as it holds now, and gets the
	// menus, which stay valid through those actions.
	turnOn := c.current || m.SameTurn(n.Log)
	// Only the side to move is told its deadline: the clock starts as its
	// notice is sent. What others are sent does not depend on when.
	deadline := time.Time{}
	if turnOn && aud == storage.Audience(g.ToMove()) {
		deadline = deadlineToShow(m, g, c.now)
	}
	what := headlineOf(n.Event, g)
	if n.Log > 0 && m.Log[n.Log-1].Kind == storage.ActAward {
		what = awardHeadline(m.ModeratorNote)
	}
	msg := b.boardMessage(p, m, g, viewerOf(aud), numbering, what, deadline, turnOn)
	if n.Event == storage.EventStarted {
		// The first board says which tournament game it is; the
		// later ones are answers to it.
		label, over, err := b.startingGame(c.ctx, p, m)
		if err != nil || over {
			return nil, err // over: the game does not start, its tournament over or cancelled
		}
		msg.Content = withLabel(msg.Content, label)
	}
	switch {
	case aud != storage.AudiencePublic:
		// A player's own link, in their DM only.
		msg.Components = b.withBoardLink(p, msg.Components, m, game.ViewerOf(side), c.settings(side).LinkGen)
	case n.To == storage.AudienceFollower:
		// A follower's DM: the public view, as /stratego watch links it.
		msg.Components = b.withBoardLink(p, msg.Components, m, game.PublicViewer, 0)
	}
	if n.To == storage.AudiencePublic && m.LiveMessage != "" && m.ThreadID == "" && boardFor(c.snap.server(b.readServer(c.ctx)), b.cfg) == storage.BoardLive {
		return []outgoing{{to: c.to, edit: liveEdit(m, msg)}}, nil
	}
	return c.one(msg), nil
}

// reminder says that a player's time runs short. It is said while the turn
// it is for is on: a gift of time or a draw offer since leave it on (the
// text gives the deadline as it is now), and the reminder is not planned
// again. A pause or a vacation begun since stops the clock: time no longer
// runs short. Which vacation stops it is the store's rule (StoppedUntil):
// in play the player's own, in set-up either player's, the deadline being
// the one both share.
func (c *matchNotice) reminder() []outgoing {
	m, p, side := c.m, c.p, c.side
	stillOn := m.SameTurn(c.n.Log) || (m.Phase == storage.PhaseSetup && c.n.Log <= len(m.Log))
	stopped := !m.StoppedUntil().IsZero()
	// A deadline that passed meanwhile (the bot was down past it) is
	// not to come: the time-out due with it says the rest.
	gone := !c.now.Before(m.Deadline)
	if !stillOn || stopped || gone || !m.Owes(side) || c.settings(side).NoReminders {
		return nil
	}
	due := unix(m.Deadline)
	text := p.Sprintf("Reminder: your move is due <t:%[1]s:R>, or you lose this match.", due)
	switch {
	case m.Phase == storage.PhaseSetup && m.ForTournament():
		// A tournament scores a late set-up as its player's forfeit.
		text = p.Sprintf(txtSetupReminderTournament, due)
	case m.Phase == storage.PhaseSetup:
		// The rules call a match off, with no result, when a set-up is late.
		text = p.Sprintf("Reminder: your set-up is due <t:%[1]s:R>; if it is not in by then, the match is called off with no result.", due)
	}
	return c.text(text)
}

// timeGiven tells a player of the time their opponent gave them.
func (c *matchNotice) timeGiven() []outgoing {
	b, n, m, p, side := c.b, c.n, c.m, c.p, c.side
	if !m.Phase.Active() || n.Log > len(m.Log) {
		return nil
	}
	giver := b.playerName(p, m, side.Opponent())
	text := p.Sprintf(txtTimeGiven, giver, giftText(p, m))
	spent := slices.ContainsFunc(m.Log[n.Log:], func(a storage.Action) bool { return a.Kind == storage.ActMove && a.Side == side })
	switch {
	case spent:
		// Told once its receiver has moved since: the turn it went
		// to is played, and what it gave is all there is to say.
	case m.Phase == storage.PhasePlaying && m.Owes(side) && m.ClockRunning():
		text = p.Sprintf(txtTimeGivenDue, giver, giftText(p, m), unix(dueAfterGift(m, n.Log)))
	case !m.Clock.On():
		text = p.Sprintf(txtTimeGivenNext, giver, giftText(p, m))
	}
	return c.text(text)
}

// vacation tells of a vacation's start or end: the player away is told
// when their move is due once back, the other one how long they wait.
func (c *matchNotice) vacation() []outgoing {
	b, n, m, p, side := c.b, c.n, c.m, c.p, c.side
	if !m.Phase.Active() || n.Log > len(m.Log) {
		return nil
	}
	a := m.Log[n.Log-1]
	if a.Side == side {
		return c.one(b.backDueNotice(p, m, side, c.now))
	}
	return c.one(b.vacationNotice(p, m, side.Opponent(), n.Event == storage.EventVacation, a.Until(), c.now))
}

// lateBoard tells a player that their board, or a set-up invite, arrived
// late, and from when their time counts.
func (c *matchNotice) lateBoard() []outgoing {
	n, m, p, side := c.n, c.m, c.p, c.side
	started, due := unix(n.At), unix(m.Deadline)
	if n.Reason == lateInvite || n.Reason == lateInviteOpponent {
		format := lateInviteNote(m, n, side)
		if format == "" {
			return nil
		}
		return c.text(p.Sprintf(format, started, due))
	}
	// Said only while the turn it started is still on (a gift of time
	// or a draw offer since leave it on): after a move or the end, when
	// the time started no longer matters.
	if !m.SameTurn(n.Log) || m.ClockPending || !m.Owes(side) {
		return nil
	}
	format := txtLateBoard
	if m.StoppedAt(side, n.At) {
		format = txtLateBoardStopped
	}
	return c.text(p.Sprintf(format, started, due))
}

// txtSetupReminderTournament reminds a tournament game's player of their
// set-up: its tournament scores a late one (see tournamentResult), so the
// game does not end with no result.
const txtSetupReminderTournament = "Reminder: your set-up is due <t:%[1]s:R>; if it is not in by then, the tournament counts this game as lost by forfeit."

// abandoned says why the match was called off: with no result, or, in a
// tournament, with the result its tournament gives it (web.CalledOffText,
// which the web board says too).
func (c *matchNotice) abandoned() []outgoing {
	m, p := c.m, c.p
	if m.CalledOff == storage.CallOffBotRemoved && c.aud == storage.AudiencePublic {
		return nil // the bot is no longer there
	}
	return c.one(&discordgo.MessageSend{
		Content:         c.b.matchTitle(p, m) + "\n" + web.CalledOffText(p, m),
		AllowedMentions: &discordgo.MessageAllowedMentions{},
	})
}

// What the DM that asked about an offer says once it is settled, in
// place of its buttons (offerSettled).
const (
	txtOfferAccepted  = "Accepted."
	txtOfferDeclined  = "Declined."
	txtOfferWithdrawn = "Withdrawn."
	txtOfferLapsed    = "No longer stands: the game went on."
	txtOfferOver      = "The match is over."
)

// offerSettled edits the DM that asked the player about a draw offer or a
// proposal to pause, now settled: it says what it said, and what became
// of the offer, without its buttons. An edit is the same however often it
// is made. Nothing is sent when no DM was recorded as asking (it was
// never asked, its offer settled before it could be).
func (c *matchNotice) offerSettled() []outgoing {
	b, n, m, p, side := c.b, c.n, c.m, c.p, c.side
	d, ok := m.AskedDM(n.Offer)
	if !ok || n.Offer > len(m.Log) || c.aud > storage.AudienceBlue {
		return nil
	}
	offer := m.Log[n.Offer-1]
	if offer.Side != side.Opponent() {
		return nil
	}
	var asked string
	switch offer.Kind {
	case storage.ActOfferDraw:
		asked = b.drawOfferMessage(p, m, side).Content
	case storage.ActOfferPause:
		asked = b.pauseOfferMessage(p, m, side, offer.Days, d.At).Content
	default:
		return nil
	}
	var what string
	switch n.Reason {
	case storage.OfferAccepted:
		what = p.Sprintf(txtOfferAccepted)
	case storage.OfferDeclined:
		what = p.Sprintf(txtOfferDeclined)
	case storage.OfferWithdrawn:
		what = p.Sprintf(txtOfferWithdrawn)
	case storage.OfferOver:
		what = p.Sprintf(txtOfferOver)
	default:
		what = p.Sprintf(txtOfferLapsed)
	}
	content := asked + "\n" + what
	return []outgoing{{to: c.to, edit: &discordgo.MessageEdit{
		ID: d.Message, Content: &content,
		Components:      &[]discordgo.MessageComponent{},
		AllowedMentions: &discordgo.MessageAllowedMentions{},
	}}}
}

// drawOfferStands reports whether the opponent's draw offer that a notice
// asks side about, the log's action log-1, still stands though more was done
// since (a gift of time, a pause, a move that leaves it standing): then side
// is still to be asked.
func (b *Bot) drawOfferStands(snap *snapshot, log int, side game.Side) bool {
	m := snap.m
	if m.Phase != storage.PhasePlaying || log > len(m.Log) || newer(m.Log[log:], storage.ActOfferDraw, storage.ActAcceptDraw, storage.ActDeclineDraw) {
		return false
	}
	g, err := snap.gameAt(len(m.Log), b.countReplay)
	if err != nil {
		return false
	}
	by, ok := g.DrawOffer()
	return ok && by == side.Opponent()
}

// newer reports whether actions holds one of the kinds.
func newer(actions []storage.Action, kinds ...storage.ActionKind) bool {
	for _, a := range actions {
		if slices.Contains(kinds, a.Kind) {
			return true
		}
	}
	return false
}

// liveEdit turns a public board into the edit of the match's live message:
// its text and its one picture replaced, so that the message always shows the
// board as it stands, with the last move written above it. An edit is the
// same however often it is made, so the outbox may repeat it safely.
func liveEdit(m *storage.Match, msg *discordgo.MessageSend) *discordgo.MessageEdit {
	content := msg.Content
	return &discordgo.MessageEdit{
		ID: m.LiveMessage, Content: &content, Files: msg.Files,
		Components:      &[]discordgo.MessageComponent{},
		Attachments:     &[]*discordgo.MessageAttachment{}, // the old picture goes
		AllowedMentions: msg.AllowedMentions,
	}
}

// recipient returns where the messages of a notice about m go, and false when
// it has nobody to read them (the computer, or the channel of a practice match
// played in the DM).
func (b *Bot) recipient(m *storage.Match, n storage.Notice) (audienceOf, bool) {
	a := n.To
	if a == storage.AudienceFollower {
		return audienceOf{user: n.Follower}, true
	}
	if a == storage.AudiencePublic {
		// Not what was recorded while the channel was out of reach: it came
		// back with the board as it stands (EventChannelBack).
		return audienceOf{channel: m.Where()}, m.GuildID != "" && !m.PublicGone && (n.Version == 0 || n.Version > m.PublicBack)
	}
	side := game.Side(a)
	if b.isComputer(m, side) {
		return audienceOf{}, false
	}
	return audienceOf{user: m.Players[side].UserID}, true
}

func viewerOf(a storage.Audience) game.Viewer {
	if a == storage.AudiencePublic {
		return game.PublicViewer
	}
	return game.ViewerOf(game.Side(a))
}

// headlineOf words the event of a board notice; g is the game as of it.
func headlineOf(e storage.Event, g *game.Game) headline {
	switch e {
	case storage.EventStarted:
		return startHeadline
	case storage.EventMove:
		rec, _ := g.LastMove()
		return moveHeadline(rec)
	}
	return noHeadline
}

// challengeExpired edits the challenge message to say it expired.
func challengeExpired(p lang.Printer, c *storage.Challenge) []outgoing {
	if c == nil || c.MessageID == "" {
		return nil
	}
	text := p.Sprintf(txtExpired, mdEscape(c.Challenger.Name), opponentLabel(p, c), rulesSummary(p, c.Rules, c.MoveTime, c.Clock))
	empty := []discordgo.MessageComponent{}
	return []outgoing{{to: audienceOf{channel: c.ChannelID}, edit: &discordgo.MessageEdit{ID: c.MessageID, Content: &text, Components: &empty}}}
}

// challengeGuild is the server of a challenge, "" for none.
func challengeGuild(c *storage.Challenge) string {
	if c == nil {
		return ""
	}
	return c.GuildID
}

// dueAfterGift is the deadline of the side to move as the gift of time at
// log (the count of actions up to it) left it: the deadline now, less the
// gifts given to that side since in the same turn. Gifts in a row, told
// once the outbox catches up, each say the deadline they made, not the
// last one's.
func dueAfterGift(m *storage.Match, log int) time.Time {
	due := m.Deadline
	if !m.SameTurn(log) {
		return due
	}
	for _, a := range m.Log[log:] {
		if a.Kind == storage.ActGiveTime && a.Side != m.ToMove() {
			due = due.Add(-m.GiftTime())
		}
	}
	return due
}
