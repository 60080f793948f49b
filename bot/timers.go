package bot

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// runTimers sleeps until the next deadline in storage, handles every timer
// due, and sleeps again. Deadlines live in storage, so a restart resumes them,
// and any that passed while the bot was down are handled at once.
func (b *Bot) runTimers(ctx context.Context) {
	for {
		b.settleNotices(ctx)
		var wait <-chan time.Time
		next, ok, err := b.store.NextDeadline(ctx)
		switch {
		case err != nil:
			if ctx.Err() != nil {
				return
			}
			b.log.Error("reading the next deadline failed", "error", err)
			wait = time.After(time.Minute)
		case ok:
			wait = time.After(max(0, next.At.Sub(b.now())))
		}
		select {
		case <-ctx.Done():
			return
		case <-b.wake:
			continue
		case <-wait:
		}
		b.handleDue(ctx)
	}
}

// handleDue handles the timers due now, earliest first. One pass runs at a
// time, so that when a pass returns every timer due when it started has been
// handled (tests run one to know the timers have acted). Passes of two
// processes may overlap: storage's versions let one of them act on a timer.
func (b *Bot) handleDue(ctx context.Context) {
	b.timerPass.Lock()
	defer b.timerPass.Unlock()
	due, err := b.store.DueDeadlines(ctx, b.now(), 50)
	if err != nil {
		b.log.Error("reading due deadlines failed", "error", err)
		return
	}
	for _, d := range due {
		b.guard(ctx, "timer", func(ctx context.Context) { b.onDeadline(ctx, d) })
	}
}

// onDeadline handles one timer.
func (b *Bot) onDeadline(ctx context.Context, d storage.Deadline) {
	now := b.now()
	switch d.Kind {
	case storage.DeadlineChallenge:
		c, err := b.store.DeleteChallenge(ctx, storage.ChallengeID(d.ID))
		if err != nil {
			if !errors.Is(err, storage.ErrNotFound) {
				b.log.Warn("expiring a challenge failed", "challenge", d.ID, "error", err)
			}
			return
		}
		if c.MessageID != "" {
			text := fmt.Sprintf("~~%s challenged %s: %s.~~\nThis challenge expired without an answer.", c.Challenger.Name, c.Opponent.Name, rulesSummary(c.Rules, c.MoveTime))
			empty := []discordgo.MessageComponent{}
			if _, err := b.s.ChannelMessageEditComplex(&discordgo.MessageEdit{ID: c.MessageID, Channel: c.ChannelID, Content: &text, Components: &empty}); err != nil {
				b.log.Warn("marking a challenge expired failed", "challenge", d.ID, "error", err)
			}
		}
	case storage.DeadlineReminder:
		m, err := b.store.Match(ctx, storage.MatchID(d.ID))
		if err != nil {
			return
		}
		m, err = b.store.MarkReminded(ctx, m.ID, m.Version, now)
		if err != nil {
			return
		}
		if m.Phase == storage.PhasePlaying && b.isComputer(m, m.ToMove()) {
			b.computerTurn(ctx, m) // the computer's turn was missed, by a restart say
			return
		}
		for _, side := range []game.Side{game.Red, game.Blue} {
			if !b.owes(m, side) {
				continue
			}
			if b.settingsOf(ctx, m.Players[side].UserID).NoReminders {
				continue
			}
			text := fmt.Sprintf("Reminder: your move is due <t:%d:R>, or you lose this match.", m.Deadline.Unix())
			if m.Phase == storage.PhaseSetup {
				// The rules call a match off, with no result, when a set-up is late.
				text = fmt.Sprintf("Reminder: your set-up is due <t:%d:R>; if it is not in by then, the match is called off with no result.", m.Deadline.Unix())
			}
			b.sendDM(ctx, m, side, &discordgo.MessageSend{Content: matchTitle(m) + "\n" + text})
		}
	case storage.DeadlineMatch:
		m, err := b.store.Match(ctx, storage.MatchID(d.ID))
		if err != nil {
			return
		}
		switch m.Phase {
		case storage.PhasePlaying:
			if b.isComputer(m, m.ToMove()) {
				b.computerTurn(ctx, m) // never lose on time for the computer
				return
			}
			m, err = b.store.Act(ctx, m.ID, m.Version, storage.Action{Kind: storage.ActTimeOut, Side: m.ToMove(), At: now})
			if err != nil {
				if !errors.Is(err, storage.ErrStale) && !errors.Is(err, storage.ErrNotDue) {
					b.log.Warn("ending a match on time failed", "match", d.ID, "error", err)
				}
				return
			}
			b.afterChange(ctx, m, nil, timeUpHeadline)
		case storage.PhaseSetup:
			m, err = b.store.Abandon(ctx, m.ID, m.Version, now)
			if err != nil {
				return
			}
			text := fmt.Sprintf("%s\nThe match is called off: not both set-ups arrived in time. No result is recorded.", matchTitle(m))
			for _, side := range []game.Side{game.Red, game.Blue} {
				b.sendDM(ctx, m, side, &discordgo.MessageSend{Content: text})
			}
			if _, err := b.s.ChannelMessageSendComplex(m.Where(), &discordgo.MessageSend{Content: text, AllowedMentions: &discordgo.MessageAllowedMentions{}}); err != nil {
				b.log.Warn("announcing an abandoned match failed", "match", m.ID, "error", err)
			}
		}
	}
}

// owes reports whether side must act for the match to go on.
func (b *Bot) owes(m *storage.Match, side game.Side) bool {
	switch m.Phase {
	case storage.PhaseSetup:
		return m.Setups[side].Status != storage.SetupConfirmed
	case storage.PhasePlaying:
		return m.ToMove() == side
	}
	return false
}

// settleNotices marks every notice in the outbox as delivered: the bot still
// sends its messages at the moment of each change (announce), so what the
// outbox records is already said. Marking them done starts the clock of the
// side to move. The delivery loop that sends from the outbox replaces this.
func (b *Bot) settleNotices(ctx context.Context) {
	now := b.now()
	for {
		due, err := b.store.DueNotices(ctx, now, 100)
		if err != nil || len(due) == 0 {
			if err != nil && ctx.Err() == nil {
				b.log.Error("reading the outbox failed", "error", err)
			}
			return
		}
		for _, n := range due {
			if err := b.store.NoticeDone(ctx, n.ID, now); err != nil {
				if ctx.Err() == nil {
					b.log.Error("settling a notice failed", "notice", n.ID, "error", err)
				}
				return
			}
		}
	}
}
