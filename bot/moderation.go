package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/storage"
)

// A server's moderators (Manage Server) decide about a running match of
// their server: call it off (/stratego cancel) or award it to one player
// (/stratego award), with a reason the players are told. Either is a change
// like any other: it goes through afterChange, and the outbox tells everyone.

// onCancel calls a match of this server off, with no result, for the reason
// a moderator gives; both players and the channel are told.
func (b *Bot) onCancel(ctx context.Context, i *discordgo.Interaction, opts options) {
	if i.GuildID == "" {
		b.say(i, "Moderators call a match off from its server: with the Manage Server permission, run `/stratego cancel` in one of its channels. A player can `/stratego resign`, or offer a draw.")
		return
	}
	if !isModerator(i) {
		b.say(i, "Only members with the Manage Server permission can call a match off, in its server. A player can `/stratego resign`, or offer a draw.")
		return
	}
	m, err := b.serverMatch(ctx, i.GuildID, opts.str(optMatch))
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "cancel"))
		return
	}
	reason := strings.TrimSpace(opts.str(optReason))
	if reason == "" {
		b.say(i, "Say why with the `reason` option: the players are told.")
		return
	}
	m, err = b.decide(ctx, i, m, reason, func(noted *storage.Match) (*storage.Match, error) {
		return b.store.Abandon(ctx, noted.ID, noted.Version, b.now(), storage.CallOffModerator)
	})
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "cancel"))
		return
	}
	b.log.Info("a moderator called a match off", "match", m.ID, "by", userOf(i).ID)
	if m.ForTournament() {
		b.say(i, "%[1]s is called off: its tournament counts it as lost by forfeit by both players. Both players and the channel are told why.", b.matchTitle(printerOf(i), m))
	} else {
		b.say(i, "%[1]s is called off with no result. Both players and the channel are told why.", b.matchTitle(printerOf(i), m))
	}
	b.afterChange(ctx, m, nil)
}

// onAward ends a running match of this server as won by one player, for
// the reason a moderator gives; everyone is told, and the result counts.
func (b *Bot) onAward(ctx context.Context, i *discordgo.Interaction, opts options) {
	if i.GuildID == "" {
		b.say(i, "Moderators award a match from its server: with the Manage Server permission, run `/stratego award` in one of its channels.")
		return
	}
	if !isModerator(i) {
		b.say(i, "Only members with the Manage Server permission can award a match, in its server.")
		return
	}
	m, err := b.serverMatch(ctx, i.GuildID, opts.str(optMatch))
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "award"))
		return
	}
	winner, plays := m.SideOf(opts.id(optWinner))
	reason := strings.TrimSpace(opts.str(optReason))
	switch {
	case !plays:
		b.say(i, "The winner must be one of the players of %[1]s.", b.matchTitle(printerOf(i), m))
		return
	case b.isComputer(m, winner) || b.isComputer(m, winner.Opponent()):
		b.say(i, "Practice matches are not rated: there is nothing to award. `/stratego cancel` ends one.")
		return
	case m.Phase != storage.PhasePlaying:
		b.say(i, "The match has not begun: nothing is on the board to award. `/stratego cancel` calls it off.")
		return
	case reason == "":
		b.say(i, "Say why with the `reason` option: the players are told.")
		return
	}
	m, err = b.decide(ctx, i, m, reason, func(noted *storage.Match) (*storage.Match, error) {
		return b.store.Act(ctx, noted.ID, noted.Version, storage.Action{Kind: storage.ActAward, Side: winner, At: b.now()})
	})
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "award"))
		return
	}
	b.log.Info("a moderator awarded a match", "match", m.ID, "by", userOf(i).ID)
	b.say(i, "%[1]s is awarded to %[2]s. Both players and the channel are told why.", b.matchTitle(printerOf(i), m), b.playerName(printerOf(i), m, winner))
	b.afterChange(ctx, m, nil)
}

// decisionTries bounds how often a moderator's decision is noted again
// after the match changed in between (decide).
const decisionTries = 3

// decide records which moderator decides about m and why, then makes the
// decision (do) at the version the note made, so that it goes out under
// this moderator's note. A change of the match in between (a move, another
// moderator's note) takes the note again: the decision does not depend on
// the board, and refusing it as stale would answer the moderator as a
// player whose move came too late.
func (b *Bot) decide(ctx context.Context, i *discordgo.Interaction, m *storage.Match, reason string, do func(noted *storage.Match) (*storage.Match, error)) (*storage.Match, error) {
	for try := 1; ; try++ {
		noted, err := b.noteModerator(ctx, i, m, reason)
		if err != nil {
			return nil, err
		}
		done, err := do(noted)
		if !errors.Is(err, storage.ErrStale) || try == decisionTries {
			return done, err
		}
	}
}

// noteModerator records which moderator decides about m and why, before
// the decision itself: the players are told both.
func (b *Bot) noteModerator(ctx context.Context, i *discordgo.Interaction, m *storage.Match, reason string) (*storage.Match, error) {
	moderator := mdEscape(displayName(i)) // the note is shown in messages only
	noted, err := b.store.UpdateMatch(ctx, m.ID, 0, func(x *storage.Match) error {
		if !x.Phase.Active() {
			return storage.ErrGameOver
		}
		x.ModeratorNote = fmt.Sprintf("%s: %s", moderator, reason)
		return nil
	})
	if err != nil {
		return nil, err
	}
	b.afterChange(ctx, noted, nil)
	return noted, nil
}

// txtNoServerMatch answers a match number that no running match of the
// server has.
const txtNoServerMatch = "This server has no match #%[1]s. The `match` option suggests its running matches."

// serverMatch finds an active match of the server by the number a member
// typed or picked ("12" or "#12 …").
func (b *Bot) serverMatch(ctx context.Context, guildID, named string) (*storage.Match, error) {
	id, err := storage.ParseMatchID(named)
	if err != nil {
		return nil, friendly("Name the match by its number, for example `12`; the `match` option suggests this server's running matches.")
	}
	m, err := b.store.Match(ctx, id)
	switch {
	case errors.Is(err, storage.ErrNotFound) || (err == nil && m.GuildID != guildID):
		return nil, friendlyf(txtNoServerMatch, id.String())
	case err != nil:
		return nil, err
	case !m.Phase.Active():
		return nil, friendlyf("Match #%[1]s is over. `/stratego record` gives its record.", id.String())
	}
	return m, nil
}
