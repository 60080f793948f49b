package bot

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
)

// The queue: /stratego seek puts a member in the server's queue, where
// storage's PlaceSeek matches two compatible seeks at once (same variant,
// same time, each inside the other's rating range). The match is played in
// the channel of the second seek: its member is there now, and the first
// is pinged there; when the first cannot see that channel, in the first
// seek's channel, if the second can see it (the outbox posts it there:
// seekAnnouncement); else the two are not paired (seekPartners).
// /stratego seeks shows the queue, with a button to leave it.

const (
	cmdSeek  = "seek"
	cmdSeeks = "seeks"

	optTime      = "time"
	optSeekHours = "seek_hours"

	kindSeek  = "sk"
	actLeave  = "leave"
	maxListed = 25 // seeks shown by /stratego seeks
)

// seekTimes are the times a seek may ask for, each its own time class:
// clocks (minutes+seconds) and times per move.
var seekTimes = []string{"5+3", "10+5", "15+10", "30+0", "1h", "12h", "24h", "72h"}

const (
	txtSeekDesc        = "Join this server's queue: you are paired with the next member who wants the same game"
	txtSeeksDesc       = "See this server's queue, and leave it"
	txtSeekTimeOpt     = "A clock (minutes+seconds) or a time per move"
	txtSeekVarOpt      = "Which game (default: this server's, else Classic)"
	txtSeekMinOpt      = "The lowest rating you want to meet"
	txtSeekMaxOpt      = "The highest rating you want to meet"
	txtSeekHoursOpt    = "How many hours a seek waits (0: 1 for clocks, 24 for a time per move)"
	txtSeekHours       = "seeks wait %[1]s"
	txtSeekHoursDflt   = "seeks wait 1 hour on a clock, 1 day for a time per move"
	txtSeekWaiting     = "You are in the queue for %[1]s.%[2]s Your seek waits until <t:%[3]s:R>; you are paired as soon as someone wants the same game, and I ping you where they asked. `/stratego seeks` shows the queue."
	txtSeekReplaced    = "Your earlier seek (%[1]s) is replaced. "
	txtSeekPaired      = "<@%[1]s> and <@%[2]s>: the queue paired you."
	txtSeekPairedThere = "The queue paired you with %[1]s: Match #%[2]s is played in <#%[3]s>, where you both can see it. Your set-up invitation comes by DM."
	txtSeekFull        = "The queue of this server is full (%[1]d seeks). Try again later, or post an open challenge with `/stratego challenge`."
	txtSeekBadTime     = "Choose a time from the list: a clock like 10+5, or a time per move like 24h."
	txtSeekNoCustom    = "The queue has no Custom games: challenge a member with your army instead."
	txtSeekOnTheClock  = "You are playing a game on the clock: seek another once it is over, or seek a time per move (like 24h) now."
	txtSeekOutOfDM     = "The queue is kept per server: use `/stratego seek` in a server channel."
	txtSeeksEmpty      = "Nobody is in the queue of this server. Join it with `/stratego seek`."
	txtSeeksTitle      = "**The queue of this server** (%[1]d):"
	txtSeekLine        = "- %[1]s (%[2]s): %[3]s.%[4]s Expires <t:%[5]s:R>."
	txtSeeksMore       = "… and %[1]d more: `/stratego seek` pairs you with any of them who wants the same game."
	txtSeekLeave       = "Leave the queue"
	txtSeekLeft        = "You left the queue."
	txtSeekNotIn       = "You are not in the queue of this server (any more): your seek was paired, or it expired."
)

// seekCommand declares /stratego seek.
func seekCommand(variants []*discordgo.ApplicationCommandOptionChoice) *discordgo.ApplicationCommandOption {
	var times []*discordgo.ApplicationCommandOptionChoice
	for _, t := range seekTimes {
		times = append(times, &discordgo.ApplicationCommandOptionChoice{Name: t, Value: t})
	}
	return &discordgo.ApplicationCommandOption{
		Type: discordgo.ApplicationCommandOptionSubCommand, Name: cmdSeek, Description: txtSeekDesc,
		Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: optTime, Description: txtSeekTimeOpt, Required: true, Choices: times},
			{Type: discordgo.ApplicationCommandOptionString, Name: optVariant, Description: txtSeekVarOpt, Choices: variants},
			ratingOpt(optRatingMin, txtSeekMinOpt),
			ratingOpt(optRatingMax, txtSeekMaxOpt),
		},
	}
}

// seeksCommand declares /stratego seeks.
func seeksCommand() *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: cmdSeeks, Description: txtSeeksDesc}
}

// seekHoursOpt declares the server's seek_hours setting.
func seekHoursOpt() *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: optSeekHours, Description: txtSeekHoursOpt,
		MinValue: floatPtr(0), MaxValue: storage.MaxSeekHours}
}

// seekHoursText words how long a server's seeks wait.
func seekHoursText(p lang.Printer, s *storage.ServerSettings) string {
	if s.SeekHours == 0 {
		return p.Sprintf(txtSeekHoursDflt)
	}
	return p.Sprintf(txtSeekHours, render.Duration(p, time.Duration(s.SeekHours)*time.Hour))
}

// seekTime reads a seek's time: a clock, or a time per move.
func seekTime(v string) (time.Duration, storage.TimeControl, bool) {
	if strings.Contains(v, "+") {
		clock, err := storage.ParseTimeControl(v)
		return setupTimeOnClock, clock, err == nil
	}
	d, err := time.ParseDuration(v)
	return d, storage.TimeControl{}, err == nil && d >= storage.MinMoveTime && d <= storage.MaxMoveTime
}

// onSeek puts the member in the server's queue, or pairs them at once.
func (b *Bot) onSeek(ctx context.Context, i *discordgo.Interaction, opts options) {
	if i.GuildID == "" {
		b.say(i, txtSeekOutOfDM)
		return
	}
	server := b.serverOf(ctx, i.GuildID)
	if why := b.whyNotMatchHere(ctx, i, server); why != "" {
		b.tell(i, why)
		return
	}
	class := opts.str(optTime)
	moveTime, clock, ok := seekTime(class)
	if !ok || !slices.Contains(seekTimes, class) {
		b.say(i, txtSeekBadTime)
		return
	}
	variant := server.DefaultVariant() // as a challenge's
	if v := opts.str(optVariant); v != "" {
		p, err := game.ParseVariant(v)
		if err != nil {
			b.say(i, txtUnknownVariant, render.Typed(mdEscape(v)))
			return
		}
		if p == game.VariantCustom {
			b.say(i, txtSeekNoCustom)
			return
		}
		variant = p
	}
	lo, hi, _ := ratingRange(opts)
	if hi != 0 && lo > hi {
		b.say(i, txtRangeEmpty)
		return
	}
	me := userOf(i)
	if clock.On() && b.playsOnTheClock(ctx, me.ID) {
		// Paired at once, their new opponent would wait out the set-up
		// time for a set-up they have no time to send.
		b.say(i, txtSeekOnTheClock)
		return
	}
	standing, err := b.store.Standing(ctx, i.GuildID, variant, me.ID)
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "seek"))
		return
	}
	rules := game.DefaultRules(variant)
	server.Rules.Apply(&rules)
	now := b.now()
	seek := &storage.Seek{
		GuildID: i.GuildID, ChannelID: i.ChannelID, Player: storage.Player{UserID: me.ID, Name: displayName(i)},
		TimeClass: class, Rules: rules, MoveTime: moveTime, Clock: clock,
		Rating: roundedRating(standing.Rating), RatingMin: lo, RatingMax: hi,
		Created: now, Expires: now.Add(server.SeekExpiry(clock.On())),
	}
	b.seekPartners(ctx, i, seek)
	out, err := b.store.PlaceSeek(ctx, seek, game.Side(rand.IntN(2)))
	p := printerOf(i)
	switch {
	case errors.Is(err, storage.ErrQueueFull):
		b.say(i, txtSeekFull, storage.MaxSeeks)
		return
	case err != nil:
		b.tell(i, b.explain(p, err, "seek"))
		return
	case out.Match != nil:
		b.announceSeekMatch(ctx, i, out)
		return
	}
	text := p.Sprintf(txtSeekWaiting, seekTerms(p, out.Seek), rangeText(p, lo, hi), unix(out.Seek.Expires))
	if r := out.Replaced; r != nil {
		text = p.Sprintf(txtSeekReplaced, seekTerms(p, r)) + text
	}
	b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
		Content: text, Flags: discordgo.MessageFlagsEphemeral, Components: leaveButton(p),
	})
}

// maxPartnerAsks bounds the waiting seekers seekPartners asks about for
// one seek.
const maxPartnerAsks = 3

// seekPartners sets s.Meets, for the seek the member behind i places: the
// waiting seek PlaceSeek may pair it with, oldest first as PlaceSeek
// pairs, and the channel of their match, one both members can see. That is
// the channel of s, where its member is now, when the waiting seeker can
// see it (they sought there too, or their roles let them); else the
// waiting seek's, when the member behind i can see it; else the two are
// not paired, and both wait for others. The bot gets no event when a
// member leaves or their roles change, so it asks Discord about the
// seeker s would meet, and about the next when that one is not to be met,
// at most maxPartnerAsks within memberAskTimeout. A seeker who left the
// server is taken out of the queue: nobody would come to the match, and
// its other player would wait for a set-up until the set-up time ran out.
// When Discord does not say in time, the waiting seek's channel serves, if
// the member behind i can see it. A seek placed in this channel after the
// queue was read here pairs here all the same (storage.Seek.Meets); one
// read and not judged (a partner found before it) does not. A
// seek on a clock is not paired with a waiting seeker who plays a game on
// the clock now (one they took after they sought, say): their seek waits
// for the next, once that game is over, and nobody waits the set-up time
// for a set-up they have no time to send. Nor is any seek paired with a
// waiting seeker who went on vacation after they sought, while it lasts:
// their new match would stand still for its days.
func (b *Bot) seekPartners(ctx context.Context, i *discordgo.Interaction, s *storage.Seek) {
	s.Meets = map[string]string{}
	queue, err := b.seeks(ctx, s.GuildID, s.Created)
	if err != nil {
		return // PlaceSeek reads the queue again, and says what went wrong
	}
	// Every seek read and not judged (the loop ended first) is named as
	// not to be paired: only a seek placed after this read pairs unnamed.
	defer func() {
		for _, q := range queue {
			if _, judged := s.Meets[q.Player.UserID]; !judged {
				s.Meets[q.Player.UserID] = ""
			}
		}
	}()
	ask, cancel := context.WithTimeout(ctx, memberAskTimeout)
	defer cancel()
	asked := 0
	for _, q := range queue {
		if !q.Compatible(s) || !s.Created.Before(q.Expires) {
			continue
		}
		if b.awayAfterSeeking(ctx, q, s.Created) || s.Clock.On() && b.playsOnTheClock(ctx, q.Player.UserID) {
			s.Meets[q.Player.UserID] = "" // not now, even in this channel
			continue
		}
		if asked == maxPartnerAsks {
			return
		}
		asked++
		channel, left := b.seekMeeting(ask, i, q)
		switch {
		case channel != "":
			s.Meets[q.Player.UserID] = channel
			return
		case !left:
			b.log.Info("a seek is not paired with a waiting one: neither member can see the other's channel", "guild", s.GuildID)
			continue
		}
		if _, err := b.store.DeleteSeek(ctx, s.GuildID, q.Player.UserID); err != nil && !errors.Is(err, storage.ErrNotFound) {
			b.log.Warn("dropping the seek of a member who left failed", "guild", s.GuildID, "error", err)
			return
		}
		b.log.Info("dropped the seek of a member who left the server", "guild", s.GuildID)
	}
}

// awayAfterSeeking reports whether the member of the waiting seek q is on
// a vacation at time at that began once they had sought.
func (b *Bot) awayAfterSeeking(ctx context.Context, q *storage.Seek, at time.Time) bool {
	v, on := b.settingsOf(ctx, q.Player.UserID).OnVacation(at)
	return on && !v.Start.Before(q.Created)
}

// playsOnTheClock reports whether the member plays a match on a game
// clock now, in set-up or under way; false when their matches cannot be
// read (those that can are looked at).
func (b *Bot) playsOnTheClock(ctx context.Context, user string) bool {
	matches, err := b.store.PlayerMatches(ctx, user, true, 0)
	if matches, _, err = passOver(b, "matches", matches, err); err != nil {
		b.log.Warn("reading a seeker's matches failed", "error", err)
		return false
	}
	return slices.ContainsFunc(matches, func(m *storage.Match) bool { return m.Clock.On() && m.Phase.Active() })
}

// seekMeeting returns the channel where the member behind i and the
// waiting seeker of q would play (see seekPartners): "" when none, and left
// when Discord says the waiting seeker left the server.
func (b *Bot) seekMeeting(ctx context.Context, i *discordgo.Interaction, q *storage.Seek) (channel string, left bool) {
	here := i.ChannelID
	member, err := b.askMember(ctx, q.GuildID, q.Player.UserID, false)
	switch {
	case leftServer(err):
		return "", true
	case q.ChannelID == here:
		return here, false
	case err == nil && member != nil:
		if sees, _ := b.channelSeen(ctx, q.GuildID, here, q.Player.UserID, member.Roles, ""); sees {
			return here, false
		}
	}
	if b.memberSurelySees(ctx, i, q.ChannelID) {
		return q.ChannelID, false
	}
	return "", false
}

// announceSeekMatch posts the match two seeks made in this channel,
// pinging both, as the answer to the seek that made it; a match made in the
// first seek's channel (seekPartners), which the first seeker can see and
// this one not, is announced there by the outbox (seekAnnouncement), and
// the member behind i is told privately where it is. The member's earlier
// seek, which the new one replaced (one a member and server), is gone:
// they are told so privately, as a seek that waits says it.
func (b *Bot) announceSeekMatch(ctx context.Context, i *discordgo.Interaction, out storage.SeekOutcome) {
	m := out.Match
	b.afterChange(ctx, m, nil) // the set-up invites are in the outbox, recorded with the match
	replaced := ""
	if r := out.Replaced; r != nil {
		replaced = printerOf(i).Sprintf(txtSeekReplaced, seekTerms(printerOf(i), r))
	}
	if m.ChannelID != i.ChannelID {
		b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
			Content: replaced + printerOf(i).Sprintf(txtSeekPairedThere, mdEscape(out.Partner.Player.Name), m.ID.String(), m.ChannelID),
			Flags:   discordgo.MessageFlagsEphemeral, AllowedMentions: &discordgo.MessageAllowedMentions{},
		})
		return
	}
	p := b.publicPrinter(m.GuildID)
	me := userOf(i).ID
	text := p.Sprintf(txtSeekPaired, out.Partner.Player.UserID, me) + "\n" + b.acceptedText(p, m, b.now())
	b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
		Content:         text,
		AllowedMentions: &discordgo.MessageAllowedMentions{Users: []string{out.Partner.Player.UserID}},
	})
	if replaced != "" {
		b.followUp(i, &discordgo.WebhookParams{Content: strings.TrimSpace(replaced), AllowedMentions: &discordgo.MessageAllowedMentions{}})
	}
	msg, err := b.answerMessage(i)
	if err != nil {
		b.log.Warn("reading the match's message failed", "match", m.ID, "error", err)
		return
	}
	named, ok := b.recordLiveMessage(ctx, m, msg.ID)
	if !ok {
		return
	}
	if b.threadsFor(b.serverOf(ctx, m.GuildID)) {
		from := *i // the thread starts from the announcement
		from.Message = msg
		b.openThread(ctx, &from, named)
	}
}

// seekAnnouncement is the post that announces, in its channel, a match the
// queue made there for a waiting seeker and one who sought elsewhere
// (storage.Match.Announce), pinging both: the channel's notice of the new
// match (EventCreated), which the outbox sends once. Once it is out, it is
// the match's live message, and its thread starts from it (seekAnnounced).
func (c *matchNotice) seekAnnouncement() []outgoing {
	b, m, p := c.b, c.m, c.p
	if m.Phase != storage.PhaseSetup {
		return nil // moot: the game began, or the match was called off, and the channel is told so
	}
	red, blue := m.Players[game.Red].UserID, m.Players[game.Blue].UserID
	return c.one(&discordgo.MessageSend{
		Content:         p.Sprintf(txtSeekPaired, red, blue) + "\n" + b.acceptedText(p, m, c.now),
		AllowedMentions: &discordgo.MessageAllowedMentions{Users: []string{red, blue}},
	})
}

// seekAnnounced makes id, the post of seekAnnouncement, the live message
// of the match, and starts the match's thread from it where the server
// plays in threads, as the answer to a seek made in the match's channel
// is. When either fails, the match is played in the channel as it is.
func (b *Bot) seekAnnounced(ctx context.Context, match storage.MatchID, id string) {
	m, err := b.store.Match(ctx, match)
	if err != nil {
		b.log.Warn("reading the match the queue made failed", "match", match, "error", err)
		return
	}
	if m.LiveMessage != "" || m.ThreadID != "" || !m.Phase.Active() {
		return
	}
	named, ok := b.recordLiveMessage(ctx, m, id)
	if ok && b.threadsFor(b.serverOf(ctx, m.GuildID)) {
		b.playInThread(ctx, named, m.ChannelID, func(start *discordgo.ThreadStart) (*discordgo.Channel, error) {
			return b.s.MessageThreadStartComplex(m.ChannelID, id, start, b.untilStop())
		})
	}
}

// seekTerms words what a seek asks for.
func seekTerms(p lang.Printer, s *storage.Seek) string {
	return rulesSummary(p, s.Rules, s.MoveTime, s.Clock)
}

// leaveButton lets the member who sees it leave the queue.
func leaveButton(p lang.Printer) []discordgo.MessageComponent {
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: p.Sprintf(txtSeekLeave), Style: discordgo.SecondaryButton, CustomID: customID{kind: kindSeek, action: actLeave}.String()},
	}}}
}

// seeksText lists the queue q: its first maxListed seeks, as many of them
// as one message holds (a line's terms and the seeker's name, escaped, may
// be long), and how many more there are.
func seeksText(p lang.Printer, q []*storage.Seek) string {
	var lines []string
	for _, s := range q[:min(len(q), maxListed)] {
		lines = append(lines, p.Sprintf(txtSeekLine, mdEscape(s.Player.Name), strconv.Itoa(s.Rating), seekTerms(p, s), rangeText(p, s.RatingMin, s.RatingMax), unix(s.Expires)))
	}
	return listText(p.Sprintf(txtSeeksTitle, len(q)), lines, len(q), func(n int) string { return p.Sprintf(txtSeeksMore, n) })
}

// seeks reads the queue of guild waiting at now: the seeks that can be
// read, each other logged by its member's id, without what it says (one
// damaged, or written by a newer strategobot, hides no other: PlaceSeek
// passes over it too, and its member's next seek replaces it). err is the
// read's own failure.
func (b *Bot) seeks(ctx context.Context, guild string, now time.Time) ([]*storage.Seek, error) {
	q, err := b.store.Seeks(ctx, guild, now)
	var bad *storage.UnreadableError
	if errors.As(err, &bad) {
		b.log.Error("seeks that cannot be read are passed over", "guild", guild, "members", bad.Keys, "error", bad)
		return q, nil
	}
	return q, err
}

// onSeeks shows the server's queue to the member, with a button to leave
// it when they are in it. A seek shows only what its member chose.
func (b *Bot) onSeeks(ctx context.Context, i *discordgo.Interaction) {
	if i.GuildID == "" {
		b.say(i, txtSeekOutOfDM)
		return
	}
	p := printerOf(i)
	q, err := b.seeks(ctx, i.GuildID, b.now())
	if err != nil {
		b.tell(i, b.explain(p, err, "seeks"))
		return
	}
	if len(q) == 0 {
		b.say(i, txtSeeksEmpty)
		return
	}
	in := slices.ContainsFunc(q, func(s *storage.Seek) bool { return s.Player.UserID == userOf(i).ID })
	data := &discordgo.InteractionResponseData{Content: seeksText(p, q), Flags: discordgo.MessageFlagsEphemeral,
		AllowedMentions: &discordgo.MessageAllowedMentions{}}
	if in {
		data.Components = leaveButton(p)
	}
	b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, data)
}

// onSeekButton takes the member who clicked out of the server's queue.
func (b *Bot) onSeekButton(ctx context.Context, i *discordgo.Interaction, id customID) {
	if id.action != actLeave || i.GuildID == "" {
		b.say(i, txtStaleComponent)
		return
	}
	p := printerOf(i)
	_, err := b.store.DeleteSeek(ctx, i.GuildID, userOf(i).ID)
	text := p.Sprintf(txtSeekLeft)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		text = p.Sprintf(txtSeekNotIn)
	case goneForGood(err):
		// Its record could not be read: it is out of the queue all the same.
		b.log.Error("a seek that cannot be read was left", "guild", i.GuildID, "error", err)
	case err != nil:
		b.tell(i, b.explain(p, err, "leave the queue"))
		return
	}
	b.respond(i, discordgo.InteractionResponseUpdateMessage, &discordgo.InteractionResponseData{
		Content: text, Components: []discordgo.MessageComponent{},
	})
}
