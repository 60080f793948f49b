package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/internal/nametext"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/tournament"
	"github.com/strategobot/strategobot/web"
)

// txtTournamentName refuses a tournament's name that is too long or shows
// nothing.
const txtTournamentName = "Give the tournament a name of 1 to %[1]d characters that shows something: not only spaces or invisible characters."

func (b *Bot) onTournamentCreate(ctx context.Context, i *discordgo.Interaction, opts options) {
	p := printerOf(i)
	me := userOf(i).ID
	server := b.serverOf(ctx, i.GuildID)
	if !mayOrganise(i, server) {
		b.say(i, "Only members with the Manage Server permission, or the organiser role a moderator names with `/stratego server organiser_role:`, can create tournaments.")
		return
	}
	// The starter role is for starting matches one by one: an organiser
	// without it still creates tournaments, in a channel for matches.
	if why := b.whyNotThisChannel(ctx, i, server); why != "" {
		b.tell(i, why)
		return
	}
	if why := b.whyNotPlayHere(ctx, i, false); why != "" {
		b.tell(i, why) // the tournament's boards and standings are posted here
		return
	}
	name := strings.TrimSpace(opts.str(optName))
	if nametext.Blank(name) || len([]rune(name)) > storage.MaxTournamentName {
		// A name that shows nothing (spaces, characters that take no
		// room) would leave the tournament nameless wherever it is told.
		b.say(i, txtTournamentName, storage.MaxTournamentName)
		return
	}
	var rules tournament.Rules
	rounds, hasRounds := opts.integer(optRounds)
	switch opts.str(optFormat) {
	case formatSwiss:
		if !hasRounds {
			b.say(i, "A Swiss tournament needs a number of rounds: add the `rounds` option.")
			return
		}
		rules = tournament.DefaultRules(tournament.Swiss, int(rounds))
	case formatRoundRobin, formatDouble:
		if hasRounds {
			b.say(i, "A round robin has as many rounds as it needs for everyone to meet: leave out the `rounds` option.")
			return
		}
		rules = tournament.DefaultRules(tournament.RoundRobin, 0)
		rules.Double = opts.str(optFormat) == formatDouble
		rules.AllAtOnce = true // every game starts at the start, as in correspondence round robins
	default:
		b.say(i, "Choose a format: round robin, double round robin or Swiss.")
		return
	}
	switch opts.str(optUnfinished) {
	case "", unfinishedBothLose:
		rules.Unfinished = tournament.BothLose
	case unfinishedDraw:
		rules.Unfinished = tournament.ScoredAsDraw
	default:
		b.say(i, "Choose how games unfinished at a round's deadline count: both lose, or a draw.")
		return
	}
	gameRules, moveTime, _, err := b.challengeTerms(opts, server, b.settingsOf(ctx, me).Numbering)
	if err != nil {
		b.tell(i, b.explain(p, err, "tournament"))
		return
	}
	clock, moveTime, err := clockOption(opts, moveTime)
	if err != nil {
		b.tell(i, b.explain(p, err, "tournament"))
		return
	}
	hours := func(name string, def int64) int64 {
		if v, ok := opts.integer(name); ok {
			return v
		}
		return def
	}
	now := b.now()
	startsIn := hours(optStartsIn, 24)
	joinFor := hours(optJoinFor, startsIn)
	if joinFor > startsIn {
		b.say(i, "Joining must close by the start: choose `join_hours` no larger than `starts_in_hours`.")
		return
	}
	maxPlayers := int(hours(optMaxPlayers, 16))
	if maxPlayers < 2 || maxPlayers > maxTournamentPlayer {
		b.say(i, "A tournament takes 2 to %[1]d players.", maxTournamentPlayer)
		return
	}
	if rules.Format == tournament.RoundRobin && maxPlayers > maxRoundRobinPlayers {
		// Every game of a round robin starts at once: each player would
		// have one game against every other going at the same time.
		b.say(i, "A round robin takes at most %[1]d players, since each plays all their games at once. Lower `max_players`, or choose a Swiss event.", maxRoundRobinPlayers)
		return
	}
	if most := tournament.SwissRoundsAtMost(maxPlayers); rules.Format == tournament.Swiss && rules.Rounds > most {
		// Fewer players at the start cap the rounds then; this many never fit.
		b.say(i, "With at most %[1]d players no round after round %[2]d can be paired without two players meeting twice: lower `rounds` or raise `max_players`.", maxPlayers, most)
		return
	}
	roundTime := time.Duration(hours(optRoundDays, 7)) * 24 * time.Hour
	if moveTime > roundTime {
		// A set-up may take a move time: it must fit in a round.
		b.say(i, "Each round lasts %[1]s, less than the move time of %[2]s: a set-up alone could outlast the round. Choose a shorter `move_time` or more `round_days`.",
			render.Duration(p, roundTime), render.Duration(p, moveTime))
		return
	}
	t, err := b.store.CreateTournament(ctx, &storage.Tournament{
		GuildID: i.GuildID, ChannelID: i.ChannelID, Name: name, CreatorID: me, Created: now,
		Rules: rules, Game: gameRules, MoveTime: moveTime, Clock: clock, RoundTime: roundTime,
		StartAt: now.Add(time.Duration(startsIn) * time.Hour), JoinBy: now.Add(time.Duration(joinFor) * time.Hour), MaxPlayers: maxPlayers,
	}, storage.TournamentLimits{PerCreator: maxOpenPerCreator, PerServer: maxOpenPerServer}) // counted in the store's transaction: several processes may share it
	var over *storage.TournamentLimitError
	switch {
	case errors.As(err, &over) && over.Creator:
		b.say(i, "You already run %[1]d tournaments that are not over. Finish or cancel one first.", over.Open)
		return
	case errors.As(err, &over):
		b.say(i, "This server already has %[1]d tournaments under way, the most it can run at once. Wait for one to end.", over.Open)
		return
	case err != nil:
		b.tell(i, b.explain(p, err, "tournament"))
		return
	}
	b.log.Info("tournament created", "tournament", t.ID, "guild", t.GuildID, "by", me)
	b.nudgeTimers()
	pub := b.publicPrinter(i.GuildID)
	b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
		Content:         createdText(pub, t),
		AllowedMentions: &discordgo.MessageAllowedMentions{},
	})
}

// createdText announces a new tournament: its terms, its start and its
// deadlines.
func createdText(p lang.Printer, t *storage.Tournament) string {
	if t.Rules.AllAtOnce {
		return p.Sprintf("**Tournament #%[1]s: %[2]s** — %[3]s, %[4]s.\nEvery game starts <t:%[5]s:f>; join until <t:%[6]s:f> with `/stratego tournament join` (at most %[7]d players). All games must end by one deadline: %[8]s for each round of the schedule, counted from the start.",
			t.ID, mdEscape(t.Name), formatText(p, t.Rules), rulesSummary(p, t.Game, t.MoveTime, t.Clock), unix(t.StartAt), unix(t.JoinBy), t.MaxPlayers, render.Duration(p, t.RoundTime)) +
			" " + p.Sprintf("Games unfinished at the deadline count as %[1]s.", adjudicationText(p, t.Rules.Unfinished))
	}
	return p.Sprintf("**Tournament #%[1]s: %[2]s** — %[3]s, %[4]s.\nRound 1 starts <t:%[5]s:f>; join until <t:%[6]s:f> with `/stratego tournament join` (at most %[7]d players). Each round lasts up to %[8]s.",
		t.ID, mdEscape(t.Name), formatText(p, t.Rules), rulesSummary(p, t.Game, t.MoveTime, t.Clock), unix(t.StartAt), unix(t.JoinBy), t.MaxPlayers, render.Duration(p, t.RoundTime)) +
		" " + p.Sprintf("Games unfinished at a round's deadline count as %[1]s.", adjudicationText(p, t.Rules.Unfinished))
}

// formatText words a tournament's format.
func formatText(p lang.Printer, r tournament.Rules) string {
	switch {
	case r.Format == tournament.Swiss:
		return p.Sprintf("Swiss, rounds: %[1]d", r.Rounds)
	case r.Double:
		return p.Sprintf("double round robin")
	}
	return p.Sprintf("round robin")
}

// Refusals of remove: the tournament's name and the player fill them.
const (
	txtRemoveModeratorsOnly = "Only members with the Manage Server permission can take a player out of a tournament."
	txtRemoveNotIn          = "%[2]s is not in **%[1]s**."
)

// onTournamentRemove takes a player out for a moderator: as a withdrawal,
// whose games still to play are forfeited (before the start, they are
// simply no longer in it); the channel is told.
func (b *Bot) onTournamentRemove(ctx context.Context, i *discordgo.Interaction, t *storage.Tournament, player string) {
	if !isModerator(i) {
		b.say(i, txtRemoveModeratorsOnly)
		return
	}
	if player == "" {
		b.say(i, "Name the player to take out with the `player` option.")
		return
	}
	label := playerLabel(t, player)
	name := mdEscape(label)
	if label == player {
		name = "<@" + player + ">"
	}
	b.beforeWithdrawal(ctx, t, player) // a game decided on the board, or by the deadline, is not forfeited
	started := false
	var refusal string
	removed, err := b.updateTournament(ctx, t.ID, func(x *storage.Tournament) error {
		refusal = ""
		s, err := x.State()
		if err != nil {
			return err
		}
		pl, in := s.Player(player)
		switch {
		case x.Done || s.Status() == tournament.Finished || s.Status() == tournament.CancelledStatus:
			refusal = txtTournamentOver
		case !in || pl.Withdrawn:
			refusal = txtRemoveNotIn
		}
		if refusal != "" {
			return errRefused
		}
		started = s.Status() == tournament.Running
		x.Log = append(x.Log, tournament.Withdraw(player, tournament.Removed))
		if after, err := x.State(); err == nil && started && after.AllPairedComplete() {
			x.RoundDeadline = b.now() // the next round, or the end, is due
		}
		return nil
	})
	if errors.Is(err, errRefused) {
		b.say(i, refusal, mdEscape(t.Name), name)
		return
	}
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "tournament"))
		return
	}
	b.log.Info("tournament player removed", "tournament", t.ID, "by", userOf(i).ID)
	if started {
		b.callOffRound(ctx, removed, 0, web.TournamentNote(web.OffRemoved, mdEscape(removed.Name), mdEscape(playerLabel(removed, player))), player)
		b.nudgeTimers()
	}
	if !started {
		b.say(i, txtRemovedBefore, mdEscape(t.Name), name)
		return
	}
	b.say(i, "You took %[2]s out of **%[1]s**; their games still to play are forfeited.", mdEscape(t.Name), name)
}

// txtRemovedBefore answers a moderator who took a player out before the
// start: it cannot be undone (removedBefore).
const txtRemovedBefore = "You took %[2]s out of **%[1]s**; they cannot join it again, and no command lets them back in."

func (b *Bot) onTournamentCancel(ctx context.Context, i *discordgo.Interaction, t *storage.Tournament) {
	me := userOf(i).ID
	if me != t.CreatorID && !isModerator(i) {
		b.say(i, "Only the member who created **%[1]s** or a member with Manage Server can cancel it.", mdEscape(t.Name))
		return
	}
	err := b.cancelTournament(ctx, t.ID, me)
	if errors.Is(err, errRefused) {
		b.say(i, "**%[1]s** is over.", mdEscape(t.Name))
		return
	}
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "tournament"))
		return
	}
	b.say(i, "**%[1]s** is cancelled.", mdEscape(t.Name))
}

// cancelTournament cancels tournament id for member by, and calls off its
// games still on; errRefused when it is over already, or its last game
// ended. The games that ended unrecorded are recorded first, for the
// standings as they were. Once the cancel is stored none of its games
// starts: a match being started meanwhile is called off by the process
// starting it (startRound), and its invites, should they come first, are
// dropped (startingGame). A call-off lost here (the process stopped, the
// database away) is made by the timers' pass cancelCheckAfter later
// (CallingOff, callOffCancelled).
func (b *Bot) cancelTournament(ctx context.Context, id storage.TournamentID, by string) error {
	if t, err := b.store.Tournament(ctx, id); err == nil && !t.Done {
		b.recordEndedGamesOf(ctx, t, "") // the standings as they were count the games that ended
	}
	cancelled, err := b.updateTournament(ctx, id, func(x *storage.Tournament) error {
		if s, err := x.State(); x.Done || err == nil && s.Status() == tournament.Finished {
			return errRefused // over, or its last game ended and the timers have yet to say so
		}
		cancel := tournament.Cancel()
		cancel.Player = by // named in the announcement
		x.Log = append(x.Log, cancel)
		x.Done = true
		x.RoundDeadline = time.Time{}
		if len(x.Games) > 0 {
			x.CallingOff, x.MembersDue = true, b.now().Add(cancelCheckAfter)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("cancelling tournament %d: %w", id, err)
	}
	if s, err := cancelled.State(); err == nil && len(s.Rounds()) > 0 {
		b.callOffRound(ctx, cancelled, 0, web.TournamentNote(web.OffCancelled, mdEscape(cancelled.Name)))
	}
	b.log.Info("tournament cancelled", "tournament", id, "by", by)
	return nil
}

// cancelCheckAfter is how long after a tournament's cancel the timers'
// pass makes sure its games are called off (callOffCancelled): after the
// cancel's own call-off, well within the hour its announcement waits for
// them (storage.WaitCap).
const cancelCheckAfter = 10 * time.Minute

// callOffCancelled calls off the games of cancelled tournament t still
// on (of the rounds not known over, OffThrough), whose call-off by the
// cancel was lost, and then clears CallingOff: the timers' pass does it
// when it is due. The next check is recorded first (a retry in
// memberCheckEvery, should a game not be called off now), so that of
// several processes, or passes, one does it.
func (b *Bot) callOffCancelled(ctx context.Context, t *storage.Tournament) {
	now := b.now()
	claimed := b.claimCheck(ctx, t.ID, now, func(x *storage.Tournament) bool { return x.CallingOff },
		"recording a cancelled tournament's call-offs failed")
	if claimed == nil {
		return
	}
	off := true
	for _, g := range claimed.Games {
		if g.Round <= claimed.OffThrough {
			continue // known over
		}
		m, err := b.store.Match(ctx, g.Match)
		if err != nil {
			b.log.Warn("reading a cancelled tournament's match failed", "tournament", t.ID, "match", g.Match, "error", err)
			off = false
			continue
		}
		if !m.Phase.Active() {
			continue
		}
		why, _ := b.notToPlay(claimed, g)
		if err := b.callOff(ctx, m, why); err != nil {
			b.log.Warn("calling off a cancelled tournament's match failed", "match", m.ID, "error", err)
			off = false
		}
	}
	if !off {
		return
	}
	if _, err := b.updateTournament(ctx, t.ID, func(x *storage.Tournament) error {
		x.CallingOff = false
		return nil
	}); err != nil {
		b.log.Warn("recording a cancelled tournament's call-offs failed", "tournament", t.ID, "error", err)
	}
}
