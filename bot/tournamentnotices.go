package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/tournament"
)

// A tournament's announcements are notices like a match's: storage records
// them with the change that owes them (storage.TournamentNotices), in one
// queue per tournament, and the outbox posts them with its nonces and
// retries, in order. Each is told from the tournament as it stood right
// after its event (the first Notice.Log events of its log).

// txtTourneyHeldUp tells a tournament's channel, once a stall, that the
// bot's timers have failed for long to go on with it (markHeldUp): who
// waits for a round knows why, and the server's admins whom to tell.
const txtTourneyHeldUp = "**%[1]s** is held up: I have not been able to go on with it since <t:%[2]s:f>. I keep trying, and it goes on by itself as soon as I can. If this lasts, please tell whoever runs this bot."

// txtTourneyNoReach tells a tournament's organiser that its channel is out
// of the bot's reach.
const txtTourneyNoReach = "I could not post an announcement of **%[1]s** in <#%[2]s>: I need to see that channel and to send messages and attach files there. Until then `/stratego tournament standings` shows where it stands; the players get their games by DM."

// txtTourneyChannelGone tells a tournament's organiser that its channel was
// deleted: nothing they can grant brings it back.
const txtTourneyChannelGone = "The channel of **%[1]s** was deleted, so I can no longer post its pairings, results and standings. The tournament goes on: the players get their games, each new round's pairing and the final standings by DM, and `/stratego tournament standings` shows where it stands."

// txtTourneyNoPicture tells a tournament's organiser that its standings
// went out without their picture: the bot may not attach files there.
const txtTourneyNoPicture = "I posted an announcement of **%[1]s** in <#%[2]s> without its standings picture: I need to attach files there. The standings' text table shows the same."

// appendStandings ends an announcement's messages with the standings' text
// table: in the last message when it fits, else in as many more as it
// takes (a Swiss event of some 35 players or more), each a whole code
// block with the headings (tableBlocks).
func appendStandings(parts []string, standings string) []string {
	if last := len(parts) - 1; chars(parts[last])+1+chars(standings) <= maxMessage {
		parts[last] += "\n" + standings
		return parts
	}
	return append(parts, tableBlocks(standings, maxMessage)...)
}

// tableBlocks cuts a text table (a code block: its headings' line, then a
// line per row) into code blocks of at most limit characters each, at line
// ends (splitMessage), each beginning with the headings.
func tableBlocks(table string, limit int) []string {
	headings, rows := tableRows(table)
	head, fence := "```\n"+headings+"\n", "\n```"
	blocks := splitMessage(strings.Join(rows, "\n"), limit-chars(head)-chars(fence))
	for k, rows := range blocks {
		blocks[k] = head + rows + fence
	}
	return blocks
}

// tableRows reads the standings' text table (standingsOf), a code block:
// its headings' line, and its rows' lines.
func tableRows(table string) (headings string, rows []string) {
	lines := strings.Split(strings.TrimSuffix(strings.TrimPrefix(table, "```\n"), "\n```"), "\n")
	return lines[0], lines[1:]
}

// noticeTournament loads notice n's tournament, once for its delivery:
// whether its channel is out of reach (lostChannelOf), what it tells
// (composeTournament) and whom else to tell (instead) are read from it.
// An error that is the database not answering is storeUnread.
func (b *Bot) noticeTournament(ctx context.Context, n storage.Notice) (*storage.Tournament, error) {
	t, err := b.store.Tournament(ctx, n.Tournament)
	if err != nil {
		return nil, fmt.Errorf("loading tournament %d: %w", n.Tournament, unread(err))
	}
	return t, nil
}

// tournamentAsOf returns, of notice n's tournament t as loaded for its
// delivery (noticeTournament), the tournament as it stood when n's event
// happened: then, its log up to that event, and then's state. A notice
// tells what was so then, not what is so now.
func tournamentAsOf(n storage.Notice, t *storage.Tournament) (then *storage.Tournament, state *tournament.Tournament, err error) {
	if n.Log < 0 || n.Log > len(t.Log) {
		return nil, nil, fmt.Errorf("tournament %d has no event %d", t.ID, n.Log)
	}
	then = t.Clone()
	then.Log = then.Log[:n.Log]
	if state, err = then.State(); err != nil {
		return nil, nil, fmt.Errorf("replaying tournament %d: %w", t.ID, err)
	}
	return then, state, nil
}

// composeTournament renders a tournament's notice from t, its tournament
// as loaded for the delivery (noticeTournament).
func (b *Bot) composeTournament(ctx context.Context, n storage.Notice, t *storage.Tournament) ([]outgoing, error) {
	then, state, err := tournamentAsOf(n, t)
	if err != nil {
		return nil, err
	}
	if n.To == storage.AudienceOrganiser {
		removed, playing := b.cancelledByRemoval(t)
		switch {
		case removed && playing:
			return nil, nil // the organiser plays: they are sent the cancellation, with the standings
		case removed:
			// The cancellation's own note tells it, once, whatever notes
			// of a lost channel came today: news of a stored change, which
			// nobody else tells them. The others add nothing to it.
			if n.Log != len(t.Log) || strings.TrimPrefix(n.Reason, channelGoneReason) != storage.EventTourneyCancel.String() {
				return nil, nil
			}
		case !b.firstNoReachToday(ctx, t, n.ID):
			return nil, nil
		}
		if b.mustWaitForDM(ctx, t.CreatorID) {
			return nil, waitingFor{t.CreatorID}
		}
		p := b.printerFor(ctx, t.CreatorID)
		text := p.Sprintf(txtTourneyNoReach, mdEscape(t.Name), t.ChannelID)
		switch {
		case removed:
			// No permission of the channel would help: the bot is out of the server.
			text = p.Sprintf(txtTourneyRemoved, mdEscape(t.Name))
		case strings.HasPrefix(n.Reason, channelGoneReason):
			text = p.Sprintf(txtTourneyChannelGone, mdEscape(t.Name))
		case strings.HasPrefix(n.Reason, noPictureReason):
			text = p.Sprintf(txtTourneyNoPicture, mdEscape(t.Name), t.ChannelID)
		}
		return []outgoing{{to: audienceOf{user: t.CreatorID}, send: &discordgo.MessageSend{
			Content: text, AllowedMentions: &discordgo.MessageAllowedMentions{},
		}}}, nil
	}
	if n.To == storage.AudiencePlayer {
		if b.mustWaitForDM(ctx, n.Player) {
			return nil, waitingFor{n.Player}
		}
		return b.composeForPlayer(b.printerFor(ctx, n.Player), n, t, then, state)
	}
	p := b.publicPrinter(t.GuildID)
	var event tournament.Event
	if n.Log > 0 {
		event = then.Log[n.Log-1]
	}
	text, withStandings, mention := "", false, []string(nil)
	switch n.Event {
	case storage.EventRoundPaired:
		text, mention = pairingAnnouncement(p, t, state, event.Round, n.At)
		if t.Rules.AllAtOnce {
			text, mention = allPairingsAnnouncement(p, t, state, n.At)
		}
		withStandings = forfeitedAtPairing(state.Rounds()[event.Round-1]) // a round robin's games against withdrawn players
	case storage.EventRoundResult:
		g := state.Rounds()[event.Round-1].Games[event.Board-1]
		text, withStandings = p.Sprintf("**%[1]s**, round %[2]d: %[3]s", mdEscape(t.Name), event.Round, pairingText(p, t, g)), true
	case storage.EventRoundClosed:
		text, withStandings = closedText(p, t, state, event), true
	case storage.EventWithdrawn:
		text, withStandings = withdrawalText(p, t, event, len(state.Rounds()) > 0), len(state.Rounds()) > 0 // before the start, no standings yet
	case storage.EventTourneyCancel:
		text, withStandings = b.cancelledText(p, t, event)
	case storage.EventTourneyOver:
		text, withStandings = overText(p, t, state), true
	case storage.EventTourneyAway:
		if text = awayText(p, t); text == "" {
			return nil, nil
		}
	case storage.EventTourneyHeldUp:
		if t.HeldUp.IsZero() || t.Done {
			return nil, nil // it went on meanwhile: its own announcement tells it
		}
		text = p.Sprintf(txtTourneyHeldUp, mdEscape(t.Name), unix(t.HeldUp))
	default:
		return nil, fmt.Errorf("%s is no tournament announcement", n.Event)
	}
	parts := splitMessage(text, maxMessage)
	var files []*discordgo.File
	if withStandings {
		table, standings, err := standingsOf(p, then)
		if err != nil {
			return nil, err
		}
		parts = appendStandings(parts, standings)
		files = b.standingsPicture(table)
	}
	out := make([]outgoing, len(parts))
	for k, content := range parts {
		msg := &discordgo.MessageSend{Content: content, AllowedMentions: &discordgo.MessageAllowedMentions{Users: mentioned(mentionedIn(content, mention))}}
		if k == len(parts)-1 {
			msg.Files = files // the picture goes with the standings
		}
		out[k] = outgoing{to: audienceOf{channel: t.ChannelID}, send: msg}
	}
	return out, nil
}

// splitMessage cuts text into messages of at most limit characters, at
// line ends: an announcement too long for one (every pairing of a round
// robin played all at once, or every game its deadline scored) goes out in
// several, in order. A single line too long is cut short.
func splitMessage(text string, limit int) []string {
	var parts []string
	cur := ""
	for _, line := range strings.Split(text, "\n") {
		line = truncate(line, limit)
		switch {
		case cur == "":
			cur = line
		case chars(cur)+1+chars(line) <= limit:
			cur += "\n" + line
		default:
			parts = append(parts, cur)
			cur = line
		}
	}
	return append(parts, cur)
}

// mentionedIn is those of users that content mentions: each part of an
// announcement pings the players it names.
func mentionedIn(content string, users []string) []string {
	var out []string
	for _, u := range users {
		if strings.Contains(content, "<@"+u+">") {
			out = append(out, u)
		}
	}
	return out
}

// allPairingsAnnouncement words the start of a round robin played all at
// once: its one deadline, and every round's pairings, naming the players
// so that they are told; it returns them too.
func allPairingsAnnouncement(p lang.Printer, t *storage.Tournament, state *tournament.Tournament, at time.Time) (string, []string) {
	rounds := state.Rounds()
	deadline := allAtOnceDeadline(at, t.RoundTime, len(rounds))
	var text strings.Builder
	text.WriteString(p.Sprintf("**%[1]s** — all %[2]d rounds start now, every game at once. Deadline for every game <t:%[3]s:f>. Your set-up invitations come by DM.",
		mdEscape(t.Name), len(rounds), unix(deadline)))
	var users []string
	for _, r := range rounds {
		text.WriteString("\n" + p.Sprintf("**Round %[1]d**", r.Number))
		for k, g := range r.Games {
			text.WriteString("\n" + strconv.Itoa(k+1) + ". " + pairingMention(p, g))
			users = append(users, g.Red)
			if !g.IsBye() {
				users = append(users, g.Blue)
			}
		}
	}
	return text.String(), users
}

// closedText words a deadline: a round's, or the one deadline of a round
// robin played all at once (event.Round 0), with the games it scored.
func closedText(p lang.Printer, t *storage.Tournament, state *tournament.Tournament, event tournament.Event) string {
	if event.Round != 0 {
		text := p.Sprintf("**%[1]s**: the deadline of round %[2]d passed. Games still on are scored as %[3]s, unrated.",
			mdEscape(t.Name), event.Round, adjudicationText(p, t.Rules.Unfinished))
		return text + scoredAtDeadline(p, t, state.Rounds()[event.Round-1], event)
	}
	text := p.Sprintf("**%[1]s**: the tournament's deadline passed. Games still on are scored as %[2]s, unrated.",
		mdEscape(t.Name), adjudicationText(p, t.Rules.Unfinished))
	for _, r := range state.Rounds() {
		if lines := scoredAtDeadline(p, t, r, event); lines != "" {
			text += "\n" + p.Sprintf("**Round %[1]d**", r.Number) + lines
		}
	}
	return text
}

// The texts of a round's deadline moved on by the time nobody ran the
// timers (storage.Tournament.GiveAway): of a round, and of the one
// deadline of a round robin played all at once.
const (
	txtTourneyAwayRound = "**%[1]s**: I was away from <t:%[2]s:f> to <t:%[3]s:f>, and nobody could play. The deadline of round %[4]d moves to <t:%[5]s:f>."
	txtTourneyAwayAll   = "**%[1]s**: I was away from <t:%[2]s:f> to <t:%[3]s:f>, and nobody could play. The deadline for every game moves to <t:%[4]s:f>."
)

// awayText words the deadline of t's round under way moved on by the time
// nobody ran the timers, from t as loaded for the delivery: the latest
// time given back and the deadline now. Empty once the round is over: its
// end is told instead.
func awayText(p lang.Printer, t *storage.Tournament) string {
	now, err := t.State()
	if err != nil || t.Done || len(now.Rounds()) == 0 || now.AllPairedComplete() {
		return ""
	}
	if t.Rules.AllAtOnce {
		return p.Sprintf(txtTourneyAwayAll, mdEscape(t.Name), unix(t.AwayFrom), unix(t.AwayUntil), unix(t.RoundDeadline))
	}
	return p.Sprintf(txtTourneyAwayRound, mdEscape(t.Name), unix(t.AwayFrom), unix(t.AwayUntil), len(now.Rounds()), unix(t.RoundDeadline))
}

// pairingAnnouncement words a round's pairings, naming the players so
// that they are told; it returns them too. The round's deadline is the
// tournament's while the round is its latest and still on (time away may
// have moved it), else the one it had when paired at at: once the round is
// over, the tournament's is the moment it ended, until the next round is
// paired.
func pairingAnnouncement(p lang.Printer, t *storage.Tournament, state *tournament.Tournament, round int, at time.Time) (string, []string) {
	r := state.Rounds()[round-1]
	deadline := at.Add(t.RoundTime)
	if now, err := t.State(); err == nil && len(now.Rounds()) == round && !now.Rounds()[round-1].Complete() && !t.RoundDeadline.IsZero() {
		deadline = t.RoundDeadline
	}
	text := p.Sprintf("**%[1]s** — round %[2]d of %[3]d. Deadline <t:%[4]s:f>. Your set-up invitations come by DM.",
		mdEscape(t.Name), round, state.TotalRounds(), unix(deadline))
	if capped := roundsCappedText(p, t, state); round == 1 && capped != "" {
		text += "\n" + capped
	}
	var users []string
	for k, g := range r.Games {
		text += "\n" + strconv.Itoa(k+1) + ". " + pairingMention(p, g)
		users = append(users, g.Red)
		if !g.IsBye() {
			users = append(users, g.Blue)
		}
	}
	return text, users
}

// forfeitedAtPairing reports whether a round had games scored as it was
// paired: in a round robin, those of players who had withdrawn.
func forfeitedAtPairing(r tournament.Round) bool {
	for _, g := range r.Games {
		if !g.IsBye() && g.Result.Done() {
			return true
		}
	}
	return false
}

// scoredAtDeadline lists, a line each, the games of round r a deadline
// scored: those adjudicated in play, and those not begun (closed.Games), a
// forfeit win for the side that set up or as the unfinished rule says.
func scoredAtDeadline(p lang.Printer, t *storage.Tournament, r tournament.Round, closed tournament.Event) string {
	var lines strings.Builder
	for k, g := range r.Games {
		notBegun := slices.ContainsFunc(closed.Games, func(x tournament.Pairing) bool { return x.Red == g.Red && x.Blue == g.Blue })
		if g.Result == tournament.Adjudicated || notBegun {
			lines.WriteString("\n" + strconv.Itoa(k+1) + ". " + pairingText(p, t, g))
		}
	}
	return lines.String()
}

// overText words a tournament's end, from state as it stood then: why it
// ended early, when it did, and its winner, whose table follows.
func overText(p lang.Printer, t *storage.Tournament, state *tournament.Tournament) string {
	text := p.Sprintf("**%[1]s** is over. Final standings:", mdEscape(t.Name))
	if winner, ok := outrightFirst(state); ok {
		text = p.Sprintf("**%[1]s** is over: %[2]s wins. Final standings:", mdEscape(t.Name), mdEscape(playerLabel(t, winner)))
	}
	if state.Status() != tournament.Finished {
		text = endedEarlyText(p, state) + "\n" + text
	}
	return text
}

// outrightFirst is the first of state's standings when the table shows
// them ahead: by points or by a tie-break the table has (Sonneborn-Berger,
// Buchholz in a Swiss event), not by seed alone, which the table does not
// show. Not a withdrawn player, nor one with no points (every game
// forfeited).
func outrightFirst(state *tournament.Tournament) (string, bool) {
	all := state.Standings()
	if len(all) == 0 || all[0].Withdrawn || all[0].Points <= 0 {
		return "", false
	}
	if len(all) > 1 {
		a, b := all[0], all[1]
		tied := a.Points == b.Points && a.SonnebornBerger == b.SonnebornBerger
		if tied && (state.Rules().Format != tournament.Swiss || a.Buchholz == b.Buchholz) {
			return "", false
		}
	}
	return all[0].Player, true
}

// endedEarlyText says why a tournament ended before its last round: too
// few players left, or, after withdrawals, every pairing of those left
// would have two of them meet again.
func endedEarlyText(p lang.Printer, state *tournament.Tournament) string {
	if len(state.Active()) < 2 {
		return p.Sprintf("No further round can be paired: too few players are left.")
	}
	return p.Sprintf("No further round can be paired: every way of pairing the players left would have two of them meet again.")
}

// roundsCappedText says, with round 1, that a Swiss event plays fewer
// rounds than its creator asked for, as too few players started it; "" when
// it plays them all.
func roundsCappedText(p lang.Printer, t *storage.Tournament, state *tournament.Tournament) string {
	asked, plays := t.Rules.Rounds, state.TotalRounds()
	if t.Rules.Format != tournament.Swiss || plays >= asked {
		return ""
	}
	return p.Sprintf("Players: %[1]d. No round after round %[2]d can be paired without two players meeting twice: **%[3]s** ends there, not after round %[4]d.",
		len(state.Players()), plays, mdEscape(t.Name), asked)
}

// withdrawalText words a player's leaving, by its reason: after the
// start; or, when started is false, a moderator's taking them out before
// it, when they had no games to forfeit.
func withdrawalText(p lang.Printer, t *storage.Tournament, e tournament.Event, started bool) string {
	if !started {
		return p.Sprintf("**%[1]s**: a moderator removed %[2]s before the start.", mdEscape(t.Name), mdEscape(playerLabel(t, e.Player)))
	}
	switch e.Reason {
	case tournament.LeftServer:
		return p.Sprintf("**%[1]s**: %[2]s left the server and is withdrawn from the tournament.", mdEscape(t.Name), mdEscape(playerLabel(t, e.Player)))
	case tournament.Removed:
		return p.Sprintf("**%[1]s**: a moderator removed %[2]s; their games still to play are forfeited.", mdEscape(t.Name), mdEscape(playerLabel(t, e.Player)))
	}
	return p.Sprintf("**%[1]s**: %[2]s withdrew; their games still to play are forfeited.", mdEscape(t.Name), mdEscape(playerLabel(t, e.Player)))
}

// mentioned is the users a message may ping: each once, at most Discord's 100
// (the rest read the channel).
func mentioned(users []string) []string {
	users = slices.Clone(users)
	slices.Sort(users)
	users = slices.Compact(users)
	if len(users) > 100 {
		users = users[:100]
	}
	return users
}

// noReachQuiet is how long after telling a tournament's organiser that its
// channel is out of reach the bot tells them no more: every announcement
// of a lost channel fails, and one DM a day says all there is to say.
const noReachQuiet = 24 * time.Hour

// firstNoReachToday reports whether notice, a "cannot post" DM, is to be
// sent: the first in noReachQuiet for tournament t, or that one again (a
// retry of its delivery, also after a restart). The choice is stored with
// the tournament before the DM is sent, so a restart repeats no note of
// the day and drops none it chose; when it cannot be stored the note goes
// anyway: told twice rather than not at all.
func (b *Bot) firstNoReachToday(ctx context.Context, t *storage.Tournament, notice uint64) bool {
	now := b.now()
	quiet := func(x *storage.Tournament) bool {
		return x.NoReachNotice != notice && !x.NoReachAt.IsZero() && now.Sub(x.NoReachAt) < noReachQuiet
	}
	if t.NoReachNotice == notice {
		return true
	}
	if quiet(t) {
		return false
	}
	_, err := b.updateTournament(ctx, t.ID, func(x *storage.Tournament) error {
		if quiet(x) {
			return errRefused
		}
		x.NoReachNotice, x.NoReachAt = notice, now
		return nil
	})
	if errors.Is(err, errRefused) {
		return false // another note was chosen meanwhile
	}
	if err != nil {
		b.log.Warn("recording the organiser's note that a channel is out of reach failed; it is sent anyway", "tournament", t.ID, "error", err)
	}
	return true
}

// picturesRefused is the note to n's organiser that n's announcement went
// without its standings picture (Reason after noPictureReason).
func picturesRefused(n storage.Notice, now time.Time) storage.Notice {
	return storage.Notice{Tournament: n.Tournament, Event: storage.EventTourneyNoReach, To: storage.AudienceOrganiser,
		Log: n.Log, At: now, Reason: noPictureReason + n.Event.String()}
}

// noPictureReason starts the Reason of a note to a tournament's organiser
// that an announcement went without its picture.
const noPictureReason = "no-picture:"

// tournamentUnreachable is what follows when a tournament's channel is out
// of reach (sendErr says why): the tournament remembers it
// (rememberChannelLost), its organiser is told by DM what to do, and the
// players the announcement concerns get it by DM (playersConcerned),
// recorded with it given up, so that each is told once. The notice's
// Reason names the announcement, after channelGoneReason when the channel
// was deleted. t is the tournament as loaded for the delivery.
func (b *Bot) tournamentUnreachable(ctx context.Context, n storage.Notice, t *storage.Tournament, sendErr error, now time.Time) []storage.Notice {
	if n.To != storage.AudiencePublic {
		return nil // a DM: nobody else to tell
	}
	deleted := discordCode(sendErr) == discordgo.ErrCodeUnknownChannel
	b.rememberChannelLost(ctx, n.Tournament, deleted, now)
	return b.instead(n, t, deleted, now)
}

// instead are the notices that tell announcement n of t (as loaded for
// the delivery) elsewhere, as its channel cannot (deleted, when it was):
// the note to its organiser (sent once a day at most, firstNoReachToday)
// and its players' DMs.
func (b *Bot) instead(n storage.Notice, t *storage.Tournament, deleted bool, now time.Time) []storage.Notice {
	reason := n.Event.String()
	if deleted {
		reason = channelGoneReason + reason
	}
	follow := []storage.Notice{{Tournament: n.Tournament, Event: storage.EventTourneyNoReach, To: storage.AudienceOrganiser,
		Log: n.Log, At: now, Reason: reason}}
	players, err := playersConcerned(n, t)
	if err != nil {
		b.log.Warn("reading whom a tournament's announcement concerns failed; only its organiser is told", "tournament", n.Tournament, "event", n.Event, "error", err)
	}
	for _, p := range players {
		// At the announcement's time: the deadlines it tells count from it.
		follow = append(follow, storage.Notice{Tournament: n.Tournament, Event: n.Event, To: storage.AudiencePlayer, Player: p, Log: n.Log, At: n.At})
	}
	return follow
}

// lostChannelRetry is how long after a tournament's channel was found out
// of the bot's reach its announcements go straight to the players' DMs.
// Then the next one tries the channel again: a player expects the channel
// back once its permissions are restored, and meanwhile no announcement
// waits on a channel that refuses it. A deleted channel never comes back.
const lostChannelRetry = noReachQuiet

// rememberChannelLost records that tournament id's channel was found out of
// reach at now (deleted, when it was), so that its next announcements skip
// it (lostChannelOf).
func (b *Bot) rememberChannelLost(ctx context.Context, id storage.TournamentID, deleted bool, now time.Time) {
	_, err := b.updateTournament(ctx, id, func(t *storage.Tournament) error {
		t.ChannelLost, t.ChannelDeleted = now, t.ChannelDeleted || deleted
		return nil
	})
	if err != nil {
		b.log.Warn("recording that a tournament's channel is out of reach failed", "tournament", id, "error", err)
	}
}

// lostChannelOf reports, when n is an announcement of tournament t (as
// loaded for the delivery; nil for a match's notice) whose channel was
// found out of reach, that it was, and whether n is to skip the channel
// (see lostChannelRetry).
func lostChannelOf(n storage.Notice, t *storage.Tournament, now time.Time) (lost, skip bool) {
	if t == nil || n.To != storage.AudiencePublic || t.ChannelLost.IsZero() {
		return false, false
	}
	return true, t.ChannelDeleted || now.Sub(t.ChannelLost) < lostChannelRetry
}

// channelBack records that tournament id's channel, once out of reach, took
// an announcement again: the next ones are posted there.
func (b *Bot) channelBack(ctx context.Context, id storage.TournamentID) {
	_, err := b.updateTournament(ctx, id, func(t *storage.Tournament) error {
		t.ChannelLost, t.ChannelDeleted = time.Time{}, false
		return nil
	})
	if err != nil {
		b.log.Warn("recording that a tournament's channel is within reach again failed", "tournament", id, "error", err)
		return
	}
	b.log.Info("a tournament's channel is within reach again; its announcements are posted there", "tournament", id)
}

// playersConcerned lists the players to whom announcement n, which its
// channel could not be told, goes by DM: of a pairing, those it pairs (or
// gives a bye); of the end or a cancellation, every player still in. The
// others tell nothing a player's own DMs do not: a result, a deadline's
// scoring or a withdrawal reaches the players of the games it ends as
// those games' own notices.
func playersConcerned(n storage.Notice, t *storage.Tournament) ([]string, error) {
	switch n.Event {
	case storage.EventRoundPaired, storage.EventTourneyOver, storage.EventTourneyCancel:
	default:
		return nil, nil
	}
	if n.Log < 1 {
		return nil, fmt.Errorf("tournament %d has no event %d", n.Tournament, n.Log)
	}
	then, state, err := tournamentAsOf(n, t)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range state.Players() {
		if p.Withdrawn {
			continue
		}
		if n.Event == storage.EventRoundPaired && len(ownPairings(t, state, then.Log[n.Log-1].Round, p.ID)) == 0 {
			continue
		}
		out = append(out, p.ID)
	}
	return out, nil
}

// ownPairings is player's pairings of the round just paired (of every
// round, when a round robin is played all at once), by round.
func ownPairings(t *storage.Tournament, state *tournament.Tournament, round int, player string) map[int]tournament.Pairing {
	out := map[int]tournament.Pairing{}
	for _, r := range state.Rounds() {
		if !t.Rules.AllAtOnce && r.Number != round {
			continue
		}
		for _, g := range r.Games {
			if g.Has(player) {
				out[r.Number] = g
			}
		}
	}
	return out
}

// txtTourneyByDM ends what a player is sent of an announcement its
// channel could not be told.
const txtTourneyByDM = "I cannot post in the tournament's channel, so I send you here what it would have said of you."

// composeForPlayer words announcement n for player n.Player, in p, from
// the tournament as it stood then (state): of a pairing, the round's
// heading and their own game or bye; of the end, the final standings and
// their place; of a cancellation, what the channel would have said. Like
// the channel's, it says only what the standings show: results.
func (b *Bot) composeForPlayer(p lang.Printer, n storage.Notice, t, then *storage.Tournament, state *tournament.Tournament) ([]outgoing, error) {
	if n.Log < 1 {
		return nil, fmt.Errorf("tournament %d: a player's notice of no event", t.ID)
	}
	event := then.Log[n.Log-1]
	var text string
	withStandings := false
	switch n.Event {
	case storage.EventRoundPaired:
		own := ownPairings(t, state, event.Round, n.Player)
		if t.Rules.AllAtOnce {
			rounds := state.Rounds()
			text = p.Sprintf("**%[1]s** — all %[2]d rounds start now, every game at once. Deadline for every game <t:%[3]s:f>. Your set-up invitations come by DM.",
				mdEscape(t.Name), len(rounds), unix(allAtOnceDeadline(n.At, t.RoundTime, len(rounds))))
		} else {
			head, _ := pairingAnnouncement(p, t, state, event.Round, n.At)
			text, _, _ = strings.Cut(head, "\n") // the heading: the pairings follow, theirs only
		}
		for _, r := range state.Rounds() {
			g, ok := own[r.Number]
			if !ok {
				continue
			}
			if t.Rules.AllAtOnce {
				text += "\n" + p.Sprintf("**Round %[1]d**", r.Number)
			}
			text += "\n" + pairingMention(p, g)
		}
	case storage.EventTourneyOver:
		text, withStandings = overText(p, t, state), true
	case storage.EventTourneyCancel:
		text, withStandings = b.cancelledText(p, t, event)
	default:
		return nil, fmt.Errorf("%s is told to a tournament's players only in its channel", n.Event)
	}
	parts := splitMessage(text, maxMessage)
	tail := "-# " + p.Sprintf(txtTourneyByDM)
	if withStandings {
		_, standings, err := standingsOf(p, then)
		if err != nil {
			return nil, err
		}
		parts = appendStandings(parts, standings) // as in the channel
		if n.Event == storage.EventTourneyOver {
			all := state.Standings()
			for _, st := range all {
				if st.Player == n.Player {
					tail = p.Sprintf("Your place: %[1]d of %[2]d.", st.Rank, len(all)) + "\n" + tail
				}
			}
		}
	}
	if last := len(parts) - 1; len(parts[last])+1+len(tail) <= maxMessage {
		parts[last] += "\n" + tail
	} else {
		parts = append(parts, tail)
	}
	out := make([]outgoing, len(parts))
	for k, content := range parts {
		out[k] = outgoing{to: audienceOf{user: n.Player}, send: &discordgo.MessageSend{Content: content, AllowedMentions: &discordgo.MessageAllowedMentions{}}}
	}
	return out, nil
}

// txtTourneyRemoved tells a tournament's organiser, who does not play in
// it, that it was cancelled as the bot was removed from its server.
const txtTourneyRemoved = "**%[1]s** is cancelled: I was removed from the server it was played in."

// cancelledByRemoval reports whether t, as it is now, was cancelled as the
// bot was removed from its server (cancelServerTournaments), and whether
// its organiser then still played in it.
func (b *Bot) cancelledByRemoval(t *storage.Tournament) (removed, organiserPlays bool) {
	if !t.Done || len(t.Log) == 0 {
		return false, false
	}
	last := t.Log[len(t.Log)-1]
	if last.Kind != tournament.Cancelled || last.Player == "" || last.Player != b.botUserID() {
		return false, false
	}
	if s, err := t.State(); err == nil {
		p, in := s.Player(t.CreatorID)
		organiserPlays = in && !p.Withdrawn
	}
	return true, organiserPlays
}

// cancelledText words a tournament's cancellation (event), and says whether
// the standings as they were follow: by a member; by the bot itself, removed
// from the server (cancelServerTournaments); or, by nobody, at its start
// with fewer than two players.
func (b *Bot) cancelledText(p lang.Printer, t *storage.Tournament, event tournament.Event) (string, bool) {
	switch event.Player {
	case "":
		return p.Sprintf("**%[1]s** is cancelled: fewer than two players joined by its start.", mdEscape(t.Name)), false
	case b.botUserID():
		return p.Sprintf("**%[1]s** is cancelled: I was removed from the server it was played in. The standings as they were:", mdEscape(t.Name)), true
	}
	return p.Sprintf("**%[1]s** is cancelled by %[2]s. The standings as they were:", mdEscape(t.Name), "<@"+event.Player+">"), true
}
