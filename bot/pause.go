package bot

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage"
)

// Pauses by agreement: in a correspondence match either player proposes to
// stop the clocks for up to storage.MaxPauseDays days; the other accepts or
// declines with buttons (or /stratego pause action:…). A proposal never
// replaces the opponent's standing one: one of the same days accepts it,
// one of other days is refused until it is answered (the store's rule,
// checkPause). The clock of the side to move stops for the pause, and both
// players and the channel are told when it starts and when it ends.

// The texts of pauses.
const (
	txtPauseDaysNeeded   = "Say how many days to pause, from 1 to %[1]d: `/stratego pause days:3`."
	txtPauseOffered      = "You proposed to pause the match for %[1]s. Your opponent accepts or declines."
	txtPauseAccepted     = "You agreed to pause the match."
	txtPauseDeclined     = "You declined the pause."
	txtPauseWithdrawn    = "The proposal to pause is withdrawn."
	txtPauseAsk          = "%[1]s proposes to pause the match for %[2]s: both clocks stop until <t:%[3]s:f> if you agree now."
	txtPauseAcceptButton = "Pause"
	txtPauseDeclineNote  = "%[1]s declined the pause; the game goes on."
	txtPausedUntil       = "The match is paused by agreement until <t:%[1]s:f> (<t:%[1]s:R>)."
	txtPausedYourMove    = "Your move is then due <t:%[1]s:R> (<t:%[1]s:f>)."
	txtResumed           = "The pause is over: the match goes on."
	txtResumedYourMove   = "The pause is over: your move is due <t:%[1]s:R> (<t:%[1]s:f>)."
	txtPausedLine        = "Paused until <t:%[1]s:f>"
	txtHistoryPause      = "%[1]s and %[2]s paused the match for %[3]s."
	txtComputerNoPause   = "The computer never needs a pause: it moves at once."
	txtTournamentNoPause = "Tournament games do not pause: their round has a deadline, and a game unfinished by then counts against both players."
	txtPauseOfferChanged = "That proposal was withdrawn: %[1]s now proposes to pause for %[2]s. Answer the newest proposal, or use `/stratego pause action:accept` or `action:decline`."
	// txtPauseDeclinedAlready and txtPauseWithdrawnBy answer an answer to
	// a proposal declined, or withdrawn, since the game was last played on;
	// txtPauseDeclinedBy its proposer's withdrawal of one the opponent
	// declined; txtPauseDeclinedByMove an answer to a proposal the
	// answerer's move declined.
	txtPauseDeclinedAlready = "You declined that proposal already: the game goes on."
	txtPauseWithdrawnBy     = "%[1]s withdrew that proposal: the game goes on."
	txtPauseDeclinedBy      = "%[1]s declined your proposal already: the game goes on."
	txtPauseDeclinedByMove  = "Your move declined that proposal: playing on says no to it. The game goes on."
	// txtPauseOfferedAlready answers a proposal made again as it stands (a
	// second press or command of the same moment): it is made and asked once.
	txtPauseOfferedAlready = "You have proposed this pause already: your opponent is asked to accept or decline it."
	// txtPauseOfferRenewed answers an answer to a proposal made again for
	// other days meanwhile, when the one standing cannot be read to name it.
	txtPauseOfferRenewed = "That proposal was withdrawn and made again for other days: answer the newest proposal."
	// txtPauseOfferStands answers a proposal for other days made while the
	// opponent's stands (the store's ErrPauseOfferStands), which is
	// answered first; txtPauseOfferStandsPlain when it cannot be read to
	// name it; the Page ones on the web board, which has buttons of its
	// own to answer it (web's txtPauseButton, txtDeclinePause).
	// txtPauseSameAccepted answers one for the same days, which accepted it.
	txtPauseOfferStands          = "%[1]s has proposed to pause the match for %[2]s: accept or decline that proposal first (the buttons of its message, or `/stratego pause action:accept` or `action:decline`). Proposing the same days accepts it."
	txtPauseOfferStandsPlain     = "Your opponent has proposed a pause: accept or decline that proposal first (the buttons of its message, or `/stratego pause action:accept` or `action:decline`). Proposing the same days accepts it."
	txtPauseOfferStandsPage      = "%[1]s has proposed to pause the match for %[2]s: accept or decline that proposal first, with the buttons Accept pause and Decline pause on this page. Proposing the same days accepts it."
	txtPauseOfferStandsPagePlain = "Your opponent has proposed a pause: accept or decline that proposal first, with the buttons Accept pause and Decline pause on this page. Proposing the same days accepts it."
	txtPauseSameAccepted         = "%[1]s had proposed the same pause: you agreed to it."
	// txtPauseOwnOfferStands answers a withdrawal, or an old button's
	// answer, naming a proposal that is gone, when the one standing now is
	// the presser's own, for other days: nothing was withdrawn.
	txtPauseOwnOfferStands = "That proposal was withdrawn: your own proposal to pause for %[1]s stands now, and was not withdrawn. To withdraw it, use `/stratego pause action:decline`."
)

// onPause proposes a pause, or answers the opponent's proposal.
func (b *Bot) onPause(ctx context.Context, i *discordgo.Interaction, opts options) {
	p := printerOf(i)
	m, side, err := b.matchMeant(ctx, userOf(i).ID, lookup{named: opts.str(optMatch), fits: playing})
	if err != nil {
		b.tell(i, b.explain(p, err, "pause"))
		return
	}
	if err := b.pauseAllowed(ctx, m); err != nil {
		b.tell(i, b.explain(p, err, "pause"))
		return
	}
	a := storage.Action{Kind: storage.ActOfferPause, Side: side}
	switch opts.str(optAction) {
	case "accept":
		a.Kind = storage.ActAcceptPause
	case "decline":
		a.Kind = storage.ActDeclinePause
	default:
		days, ok := opts.integer(optDays)
		if !ok {
			b.tell(i, p.Sprintf(txtPauseDaysNeeded, storage.MaxPauseDays))
			return
		}
		a.Days = int(days)
	}
	b.actOnPause(ctx, i, m, a)
}

// onPauseButton answers a proposal with the buttons of its DM.
func (b *Bot) onPauseButton(ctx context.Context, i *discordgo.Interaction, id customID) {
	m, side, err := b.playerMatch(ctx, i, id.id)
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "pause"))
		return
	}
	// The buttons answer the proposal they were drawn for, which their id
	// names by its days: one withdrawn and made again for other days is
	// answered only by its own message. Buttons drawn before they named it
	// answer the standing proposal.
	if id.arg != "" {
		if changed := b.pauseOfferChanged(printerOf(i), m, side, id.arg); changed != "" {
			b.tell(i, changed)
			return
		}
	}
	// They answer the opponent's proposal, never the presser's own: once
	// that stands (the old one answered otherwise, and a new one made),
	// Decline would take it back.
	if by, _, ok := m.PauseOffer(); ok && by == side && m.Phase == storage.PhasePlaying {
		b.tell(i, b.explain(printerOf(i), storage.ErrNoPauseOffer, "pause"))
		return
	}
	a := storage.Action{Kind: storage.ActAcceptPause, Side: side}
	if id.action == actDecline {
		a.Kind = storage.ActDeclinePause
	}
	// The store checks the days again as it records the answer: a proposal
	// made again for other days since this press read it is refused too.
	a.Days, _ = strconv.Atoi(id.arg)
	b.actOnPause(ctx, i, m, a)
}

// actOnPause records a pause action and answers its player privately.
func (b *Bot) actOnPause(ctx context.Context, i *discordgo.Interaction, m *storage.Match, a storage.Action) {
	p := printerOf(i)
	if !b.deferPrivate(i) {
		return
	}
	offerBy, _, _ := m.PauseOffer()
	m, err := b.recordPause(ctx, m.ID, a)
	var agreed agreedAlready
	if errors.As(err, &agreed) {
		b.finish(i, p.Sprintf(txtPausedUntil, unix(agreed.until)))
		return
	}
	if text := b.pauseChangedText(p, err, a); text != "" {
		b.finish(i, text)
		return
	}
	if text := b.pauseStandsText(p, err, false); text != "" {
		b.finish(i, text)
		return
	}
	if err != nil {
		b.finish(i, b.explain(p, err, "pause"))
		return
	}
	var done string
	switch {
	case acceptedByProposing(m, a):
		done = p.Sprintf(txtPauseSameAccepted, b.playerName(p, m, a.Side.Opponent())) + " " + p.Sprintf(txtPausedUntil, unix(m.PausedUntil()))
	case a.Kind == storage.ActOfferPause:
		done = p.Sprintf(txtPauseOffered, p.Sprintf(txtDays, a.Days))
	case a.Kind == storage.ActAcceptPause:
		done = p.Sprintf(txtPauseAccepted) + " " + p.Sprintf(txtPausedUntil, unix(m.PausedUntil()))
	case a.Kind == storage.ActDeclinePause:
		done = p.Sprintf(txtPauseDeclined)
		if offerBy == a.Side {
			done = p.Sprintf(txtPauseWithdrawn)
		}
	}
	b.finish(i, done)
	b.afterChange(ctx, m, nil)
}

// pauseAllowed refuses a pause in a match that never pauses: against the
// computer, or a tournament game.
func (b *Bot) pauseAllowed(ctx context.Context, m *storage.Match) error {
	if m.Practice() {
		return friendly(txtComputerNoPause)
	}
	if b.inTournament(ctx, m) {
		return friendly(txtTournamentNoPause)
	}
	return nil
}

// pauseOfferChanged is what side reads, in p, when the proposal it answers,
// named by its days as its buttons or page showed it, was withdrawn and made
// again for other days; "" when it stands as shown, or the match is no
// longer played (it is answered that it is over, not asked to answer a
// proposal that ended with it).
func (b *Bot) pauseOfferChanged(p lang.Printer, m *storage.Match, side game.Side, shown string) string {
	by, days, ok := m.PauseOffer()
	if !ok || by == side || shown == strconv.Itoa(days) || m.Phase != storage.PhasePlaying {
		return ""
	}
	return p.Sprintf(txtPauseOfferChanged, b.playerName(p, m, by), p.Sprintf(txtDays, days))
}

// agreedAlready answers a proposal that was agreed to meanwhile, maybe by a
// press of the same moment: the player is told until when the match is
// paused rather than how to propose a pause.
type agreedAlready struct{ until time.Time }

func (e agreedAlready) Error() string {
	return "the proposal to pause was agreed to already: paused until " + e.until.Format(time.RFC3339)
}

// changedMeanwhile refuses an answer to a proposal that was withdrawn and
// made again for other days after the answer read it (the store's
// ErrPauseOfferChanged): now is the match as it is, to name the proposal
// that stands.
type changedMeanwhile struct {
	now *storage.Match
	err error
}

func (e changedMeanwhile) Error() string { return e.err.Error() }
func (e changedMeanwhile) Unwrap() error { return e.err }

// pauseChangedText is what a's player reads, in p, when err refused a's
// answer to a proposal made again for other days meanwhile, or a's
// withdrawal of a proposal of its own made again so; "" for any other err.
func (b *Bot) pauseChangedText(p lang.Printer, err error, a storage.Action) string {
	var changed changedMeanwhile
	if !errors.As(err, &changed) {
		return ""
	}
	if by, days, ok := changed.now.PauseOffer(); ok && by == a.Side && changed.now.Phase == storage.PhasePlaying {
		return p.Sprintf(txtPauseOwnOfferStands, p.Sprintf(txtDays, days))
	}
	return b.pauseOfferChanged(p, changed.now, a.Side, strconv.Itoa(a.Days))
}

// acceptedByProposing reports whether a, a proposal to pause, was recorded
// in m as the acceptance of the opponent's standing proposal of the same
// days (the store's rule: both want the same pause).
func acceptedByProposing(m *storage.Match, a storage.Action) bool {
	if a.Kind != storage.ActOfferPause || len(m.Log) == 0 {
		return false
	}
	last := m.Log[len(m.Log)-1]
	return last.Kind == storage.ActAcceptPause && last.Side == a.Side
}

// offerStands refuses a proposal for other days made while the opponent's
// stands (the store's ErrPauseOfferStands): now is the match as it is, to
// name the proposal that stands.
type offerStands struct {
	now *storage.Match
	err error
}

func (e offerStands) Error() string { return e.err.Error() }
func (e offerStands) Unwrap() error { return e.err }

// pauseStandsText is what a proposer reads, in p, when err refused their
// proposal because the opponent's stands: whose, for how many days, and
// to answer it first, with the controls where they proposed (onPage: the
// web board's buttons, else the message's or the command); "" for any
// other err.
func (b *Bot) pauseStandsText(p lang.Printer, err error, onPage bool) string {
	if !errors.Is(err, storage.ErrPauseOfferStands) {
		return ""
	}
	named, plain := txtPauseOfferStands, txtPauseOfferStandsPlain
	if onPage {
		named, plain = txtPauseOfferStandsPage, txtPauseOfferStandsPagePlain
	}
	var stands offerStands
	if !errors.As(err, &stands) {
		return p.Sprintf(plain)
	}
	by, days, ok := stands.now.PauseOffer()
	if !ok {
		return p.Sprintf(plain)
	}
	return p.Sprintf(named, b.playerName(p, stands.now, by), p.Sprintf(txtDays, days))
}

// recordPause records a pause action on match id, now: the one path of
// /stratego pause, its buttons and the web board. An answer to a proposal
// agreed to meanwhile is refused with agreedAlready, one to a proposal
// made again for other days meanwhile (a.Days names those it answers) with
// changedMeanwhile, a proposal for other days than the opponent's standing
// one with offerStands. A proposal for the same days is recorded as the
// acceptance of the opponent's (acceptedByProposing).
func (b *Bot) recordPause(ctx context.Context, id storage.MatchID, a storage.Action) (*storage.Match, error) {
	a.At = b.now()
	m, err := b.store.Act(ctx, id, 0, a)
	if errors.Is(err, storage.ErrNoPauseOffer) && a.Kind != storage.ActOfferPause {
		if now, err2 := b.store.Match(ctx, id); err2 == nil && !now.PausedUntil().IsZero() {
			return nil, agreedAlready{until: now.PausedUntil()}
		} else if err2 == nil {
			if answered := b.declinedAlready(now, a.Side); answered != nil {
				return nil, answered
			}
		}
	}
	if errors.Is(err, storage.ErrPauseOfferChanged) {
		if now, err2 := b.store.Match(ctx, id); err2 == nil {
			return nil, changedMeanwhile{now: now, err: err}
		}
	}
	if errors.Is(err, storage.ErrPauseOfferStands) {
		if now, err2 := b.store.Match(ctx, id); err2 == nil {
			return nil, offerStands{now: now, err: err}
		}
	}
	if err != nil {
		return nil, fmt.Errorf("record a pause action on match %d: %w", id, err)
	}
	return m, nil
}

// declinedAlready refuses side's answer to a proposal that was declined
// or withdrawn since the match was last played on, or that side's own move
// declined by playing on, maybe by a press of the same moment (Pause and
// Decline pressed at once, the proposer withdrawing as the other accepts,
// a move made as Pause is pressed): side is told what ended the proposal
// rather than how to make one. Nil when the log ended none so.
func (b *Bot) declinedAlready(m *storage.Match, side game.Side) error {
	movedSince, sideMoved := false, false // a move came after the actions read so far; one of side's
	for i := len(m.Log) - 1; i >= 0; i-- {
		d := m.Log[i]
		switch d.Kind {
		case storage.ActMove:
			movedSince = true
			sideMoved = sideMoved || d.Side == side
		case storage.ActAcceptPause, storage.ActResume:
			return nil
		case storage.ActOfferPause:
			if d.Side != side && sideMoved {
				return friendly(txtPauseDeclinedByMove)
			}
			return nil
		case storage.ActDeclinePause:
			if movedSince {
				return nil
			}
			for j := i - 1; j >= 0; j-- {
				if o := m.Log[j]; o.Kind == storage.ActOfferPause {
					switch {
					case d.Side != side && o.Side == side:
						return friendlyf(txtPauseDeclinedBy, b.playerName(lang.For("en"), m, d.Side))
					case d.Side != side:
						return friendlyf(txtPauseWithdrawnBy, b.playerName(lang.For("en"), m, d.Side))
					case o.Side == side:
						return friendly(txtPauseWithdrawn)
					}
					return friendly(txtPauseDeclinedAlready)
				}
			}
			return nil
		}
	}
	return nil
}

// pauseOfferMessage asks side, by DM, to accept or decline the opponent's
// proposal to pause, which would end its days after at if agreed to then.
func (b *Bot) pauseOfferMessage(p lang.Printer, m *storage.Match, side game.Side, days int, at time.Time) *discordgo.MessageSend {
	id := func(action string) string {
		return customID{kind: kindPause, action: action, id: uint64(m.ID), version: uint64(m.Moves()), arg: strconv.Itoa(days)}.String()
	}
	until := unix(at.Add(time.Duration(days) * 24 * time.Hour))
	return &discordgo.MessageSend{
		Content: b.matchTitle(p, m) + "\n" + p.Sprintf(txtPauseAsk, b.playerName(p, m, side.Opponent()), p.Sprintf(txtDays, days), until),
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: p.Sprintf(txtPauseAcceptButton), Style: discordgo.SuccessButton, CustomID: id(actAccept)},
			discordgo.Button{Label: p.Sprintf("Decline"), Style: discordgo.SecondaryButton, CustomID: id(actDecline)},
		}}},
	}
}

// pauseNotice tells a player or the channel that the match paused or
// resumed; the side to move also learns its deadline. A pause that ends
// while a player is still on vacation says so: that player's clock stays
// stopped though the match "goes on".
func (b *Bot) pauseNotice(p lang.Printer, m *storage.Match, aud storage.Audience, paused bool) *discordgo.MessageSend {
	var text string
	yourMove := aud != storage.AudiencePublic && m.Phase == storage.PhasePlaying && m.Owes(game.Side(aud)) && m.ClockRunning()
	due := unix(m.Deadline)
	switch {
	case paused:
		text = p.Sprintf(txtPausedUntil, unix(m.PausedUntil()))
		if yourMove {
			text += " " + p.Sprintf(txtPausedYourMove, due)
		}
	case yourMove:
		text = p.Sprintf(txtResumedYourMove, due)
	default:
		text = p.Sprintf(txtResumed)
	}
	if !paused {
		text = joinLines(text, b.vacationLines(p, m, viewerOf(aud)))
	}
	return &discordgo.MessageSend{Content: b.matchTitle(p, m) + "\n" + text}
}

// pausedLine says on a board that the match is paused, and until when.
func pausedLine(p lang.Printer, m *storage.Match) string {
	until := m.PausedUntil()
	if until.IsZero() {
		return ""
	}
	return p.Sprintf(txtPausedLine, unix(until))
}
