package bot

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// matchTitleRE finds the match a message of the bot is about: "**Match #2**"
// in titles and invites, "match #2" in set-up previews.
var matchTitleRE = regexp.MustCompile(`(?i)\bmatch #(\d+)`)

// onMessage reads what a player types to the bot in a DM: a set-up while one
// is due, otherwise a move. A reply to one of the bot's messages about a
// match goes to that match.
func (b *Bot) onMessage(ctx context.Context, msg *discordgo.Message) {
	if msg.Author == nil || msg.Author.Bot || msg.GuildID != "" {
		return
	}
	text := strings.TrimSpace(msg.Content)
	if text == "" {
		return
	}
	user := msg.Author.ID
	reply := func(s string, files ...*discordgo.File) {
		send := &discordgo.MessageSend{Content: s, Files: files, Reference: msg.Reference(), AllowedMentions: &discordgo.MessageAllowedMentions{}}
		if _, err := b.s.ChannelMessageSendComplex(msg.ChannelID, send); err != nil {
			b.log.Warn("answering a DM failed", "error", err)
		}
	}
	var named storage.MatchID
	if ref := msg.ReferencedMessage; ref != nil && ref.Author != nil && b.s.State != nil && b.s.State.User != nil && ref.Author.ID == b.s.State.User.ID {
		if sm := matchTitleRE.FindStringSubmatch(ref.Content); sm != nil {
			named, _ = storage.ParseMatchID(sm[1])
		}
	}
	active, err := b.store.PlayerMatches(ctx, user, true, 0)
	if err != nil {
		reply(b.explain(err, "dm"))
		return
	}
	pick := func(fits func(*storage.Match, game.Side) bool) (*storage.Match, game.Side, int) {
		var found *storage.Match
		var side game.Side
		count := 0
		for _, m := range active {
			s, ok := m.SideOf(user)
			if !ok || (named != 0 && m.ID != named) || !fits(m, s) {
				continue
			}
			found, side = m, s
			count++
		}
		return found, side, count
	}
	settings, _ := b.store.Player(ctx, user)
	n := game.NumberingModern
	if settings != nil {
		n = settings.Numbering
	}
	needsSetup := func(m *storage.Match, s game.Side) bool {
		return m.Phase == storage.PhaseSetup && m.Setups[s].Status != storage.SetupConfirmed
	}
	if strings.Count(text, "\n") >= 2 {
		m, side, count := pick(needsSetup)
		switch {
		case count == 0:
			reply("That looks like a set-up, but none of your matches is waiting for one. `/stratego games` lists your matches.")
			return
		case count > 1:
			reply("You have several matches waiting for a set-up: reply to the message of the match you mean.")
			return
		}
		setup, _, err := game.ParseSetup(text, m.Rules, n)
		if err != nil {
			reply(b.explain(err, "dm setup") + " Fix it and send it again.")
			return
		}
		if !setup.CanMove(m.Rules) {
			reply(string(errCannotMove) + " Fix it and send it again.")
			return
		}
		m, err = b.store.SetSetup(ctx, m.ID, 0, side, setup, storage.SetupDraft, b.now())
		if err != nil {
			reply(b.explain(err, "dm setup"))
			return
		}
		content, files, components := b.previewMessage(m, side, n)
		if _, err := b.s.ChannelMessageSendComplex(msg.ChannelID, &discordgo.MessageSend{Content: content, Files: files, Components: components, Reference: msg.Reference()}); err != nil {
			b.log.Warn("sending a set-up preview failed", "error", err)
		}
		return
	}
	mv, err := game.ParseMove(text, n)
	if err != nil {
		if _, _, c := pick(needsSetup); c > 0 {
			reply("Send your set-up as 4 lines, front row first (the template is in my earlier message), or press Edit or Random there.")
			return
		}
		reply(fmt.Sprintf("I read moves like `B4-B5` (from, to) or `E8~E10=F` to infiltrate. %s", strings.TrimSuffix(helpHint, ".")+"."))
		return
	}
	m, _, count := pick(yourTurn)
	switch {
	case count == 0 && named != 0:
		reply("It is not your turn in that match, or it is over.")
		return
	case count == 0:
		reply("None of your matches is waiting for your move right now.")
		return
	case count > 1:
		reply("It is your move in several matches: reply to the board message of the one you mean, or use `/stratego move` with the `match` option.")
		return
	}
	if _, _, err := b.play(ctx, user, m.ID, 0, mv); err != nil {
		reply(b.explain(err, "dm move"))
	}
}

const helpHint = "`/stratego help` explains the rest."
