package bot

import (
	"context"
	"errors"
	"github.com/strategobot/strategobot/internal/logsafe"
	"math/rand/v2"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/ai"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
)

// isComputer reports whether side is played by the computer: the one rule,
// by who sits there (the bot's own user, seated by onPractice), for whether
// it moves, whether it is sent a notice, whether a match may be awarded
// and how it is named (playerName).
func (b *Bot) isComputer(m *storage.Match, side game.Side) bool {
	return m.Practice() && m.Players[side].UserID == b.botUserID()
}

// computerToMove reports whether the computer is to move in m: the one rule
// for whether a change, a timer or a restart lets it think.
func (b *Bot) computerToMove(m *storage.Match) bool {
	return m.Phase == storage.PhasePlaying && b.isComputer(m, m.ToMove())
}

// computerLevel is the level the computer plays m at. A name the computer
// does not know (a damaged record) plays at Normal rather than not at all.
func computerLevel(m *storage.Match) ai.Level {
	level, err := ai.ParseLevel(m.Computer)
	if err != nil {
		return ai.Normal
	}
	return level
}

// onPractice starts a match against the computer: /stratego practice, or a
// challenge to the bot itself.
func (b *Bot) onPractice(ctx context.Context, i *discordgo.Interaction, opts options) {
	level := ai.Normal
	if s := opts.str(optLevel); s != "" {
		l, err := ai.ParseLevel(s)
		if err != nil || l == ai.Random {
			b.say(i, "Choose a level: Easy, Normal or Hard.")
			return
		}
		level = l
	}
	server := b.serverOf(ctx, i.GuildID)
	if why := b.whyNotStartHere(ctx, i, server, true); why != "" {
		b.tell(i, why)
		return
	}
	if why := b.whyNotPractice(ctx, printerOf(i), userOf(i).ID); why != "" {
		b.tell(i, why)
		return
	}
	rules, moveTime, side, err := b.challengeTerms(opts, server, b.settingsOf(ctx, userOf(i).ID).Numbering)
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "practice"))
		return
	}
	if why := b.whyNotPlayHere(ctx, i, false); why != "" {
		b.tell(i, why)
		return
	}
	human := game.Red
	switch side {
	case "blue":
		human = game.Blue
	case "random":
		if rand.IntN(2) == 1 {
			human = game.Blue
		}
	}
	now := b.now()
	m := &storage.Match{
		GuildID: i.GuildID, ChannelID: i.ChannelID, Rules: rules, MoveTime: moveTime,
		Casual: true, Computer: level.String(), Phase: storage.PhaseSetup, Created: now,
	}
	m.Players[human] = storage.Player{UserID: userOf(i).ID, Name: displayName(i)}
	m.Players[human.Opponent()] = storage.Player{UserID: b.botUserID(), Name: computerName(level)}
	// The store keeps to the limit, as postChallenge says.
	m, err = b.store.CreatePractice(ctx, m, userOf(i).ID, b.limits.memberLimits())
	if why := b.whyNotMember(printerOf(i), err, ""); why != "" {
		b.tell(i, why)
		return
	}
	if err == nil {
		m, err = b.store.SetSetup(ctx, m.ID, 0, human.Opponent(), ai.Setup(rules, m.Secret.Seed(seedComputerSetup)), storage.SetupConfirmed, now)
	}
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "practice"))
		return
	}
	b.afterChange(ctx, m, nil)
	// A post in the channel (or the DM), in the language of those who read it.
	p := printerOf(i)
	if i.GuildID != "" {
		p = b.publicPrinter(i.GuildID)
	}
	b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
		Content: p.Sprintf("Practice match #%[1]s: **%[2]s** (%[3]s) vs the computer, level %[4]s — %[5]s. Not rated.\nSend your set-up by DM (or `/stratego setup`); the computer's is ready.",
			m.ID.String(), mdEscape(m.Players[human].Name), render.SideName(p, human), levelName(p, level), rulesSummary(p, rules, moveTime, storage.TimeControl{})),
		AllowedMentions: &discordgo.MessageAllowedMentions{},
	})
	b.nudgeOutbox() // the set-up invite is in the outbox, recorded with the match
}

// levelName names the computer's level in p's language.
func levelName(p lang.Printer, l ai.Level) string {
	switch l {
	case ai.Easy:
		return p.Sprintf("easy")
	case ai.Hard:
		return p.Sprintf("hard")
	case ai.Normal:
		return p.Sprintf("normal")
	}
	return l.String()
}

// The purposes of the seeds derived from a match's secret (storage.Secret):
// nobody who sees the match can predict the choices they drive, and a match
// replays the same way from its stored secret.
const (
	seedComputerSetup = "computer-setup"
	seedComputerMove  = "computer-move" // with the ply
	seedRandomSetup   = "random-setup"  // with the side and the match's version
	seedSetupExample  = "setup-example" // with the side: the example in its template
	seedDraftMark     = "draft-mark"    // with a set-up draft and its side
	seedPictures      = "pictures"      // render.Options.Secret: the match's pictures' hidden rows
)

// letComputerMove lets the computer answer in a practice match when it is
// to move, in the background so that the person's own answer is not held up.
// It chooses from its own side's view of g, the game after the last change.
func (b *Bot) letComputerMove(ctx context.Context, m *storage.Match, g *game.Game) {
	if !b.computerToMove(m) {
		return
	}
	side := m.ToMove()
	v := g.View(game.ViewerOf(side))
	b.goComputer(func() { b.computerMoves(ctx, m, side, v) })
}

// goComputer runs f, a computer's answer, on a goroutine of its own that Run
// waits for once it stops; none starts after (a restart lets the computer
// move again: see computerTurn).
// It reports false when the bot stops, and f does not run. A panic in f
// (a record that does not replay, say) is logged, as a handler's is: left
// alone it would end the process, and its restart would run f again.
func (b *Bot) goComputer(f func()) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	select {
	case <-b.stopping:
		return false
	default:
	}
	b.computers.Add(1)
	go func() {
		defer b.computers.Done()
		defer func() {
			if r := recover(); r != nil {
				b.log.Error("the computer's answer panicked", "panic", logsafe.Panic(r))
			}
		}()
		f()
	}()
	return true
}

// answerKey names the computer's answer to a move: its match, and how many
// moves were played before it.
type answerKey struct {
	match storage.MatchID
	moves int
}

// answeringMatch reports whether the computer's answer to a move of match
// id is under way.
func (b *Bot) answeringMatch(id storage.MatchID) bool {
	found := false
	b.answering.Range(func(k, _ any) bool {
		found = k.(answerKey).match == id
		return !found
	})
	return found
}

// answeringCount is how many of the computer's answers are under way.
func (b *Bot) answeringCount() int {
	n := 0
	b.answering.Range(func(_, _ any) bool {
		n++
		return true
	})
	return n
}

// computerTurn lets the computer move in a match it finds it is to move in:
// a timer's answer when its turn was missed (by a restart, say), unless its
// answer is under way already.
func (b *Bot) computerTurn(ctx context.Context, m *storage.Match) {
	if !b.computerToMove(m) {
		return
	}
	key := answerKey{m.ID, m.Moves()}
	if !b.claimAnswer(key) {
		return
	}
	defer b.answered(key)
	b.claimedTurn(ctx, m)
}

// claimAnswer claims the answer to the move key names for its caller, who
// calls answered once it is over, and reports false when another has it:
// one answer a move.
func (b *Bot) claimAnswer(key answerKey) bool {
	_, owed := b.answering.LoadOrStore(key, true)
	return !owed
}

// answered ends the claim of the answer key names: its timer, passed over
// while it was owed (nextDeadline), may be due.
func (b *Bot) answered(key answerKey) {
	b.answering.Delete(key)
	b.nudgeTimers()
}

// claimedTurn is computerTurn for a caller that claimed its answer.
func (b *Bot) claimedTurn(ctx context.Context, m *storage.Match) {
	side := m.ToMove()
	b.countReplay()
	g, err := m.Game()
	if err != nil {
		b.log.Error("rebuilding a practice game failed", "match", m.ID, "error", err)
		return
	}
	b.answer(ctx, m, side, g.View(game.ViewerOf(side)))
}

// computerMoves chooses the computer's move from what its side may know, v,
// in a thinker's slot, and plays it through the same path as a person's when
// it is due in the thinkers' schedule (thinking.book): a pace after it was
// asked for, or after its turn in the schedule when the answers asked for
// before fill the thinkers. How long it thinks depends on its own hidden
// pieces, and its opponent sees when the move arrives; the schedule knows
// when answers were asked for and nothing else, so neither this thought
// nor any other match's (one member may play several practice matches at
// once) shows in when the move is played. It waits outside the slot, so
// that the pace costs no thinking. The version makes a move chosen for an
// old position fail as stale. Of the several that may let it answer the
// same move (the change before it, the time away given back, a reminder, its
// timer), the first books the answer and the others leave it to that one.
func (b *Bot) computerMoves(ctx context.Context, m *storage.Match, side game.Side, v game.View) {
	key := answerKey{m.ID, m.Moves()}
	if !b.claimAnswer(key) {
		return
	}
	defer b.answered(key)
	b.answer(ctx, m, side, v)
}

// answer is computerMoves for a caller that claimed its answer.
func (b *Bot) answer(ctx context.Context, m *storage.Match, side game.Side, v game.View) {
	var mv game.Move
	a := b.thinkers.book(time.Now())
	chosen, stuck := false, false
	b.thinkers.do(b.stopping, a, func() {
		b.guard(ctx, "computer", func(context.Context) {
			var err error
			player := ai.New(computerLevel(m), m.Secret.Seed(seedComputerMove, uint64(v.Ply()))).WithTimeCap(a.thoughtCap())
			if mv, err = player.Choose(v); err != nil {
				// No legal move in a game not over: a record older than
				// the repetition rules' stricter reading (ResumeRecorded).
				stuck = errors.Is(err, game.ErrGameOver) && !v.Result.Over()
				if !stuck {
					b.log.Error("the computer found no move", "match", m.ID, "error", err)
				}
				return
			}
			chosen = true
		})
	})
	// A move not chosen keeps its place in the schedule, as a move does.
	if !b.waitUntil(a.due) {
		return
	}
	if stuck {
		b.computerResigns(ctx, m, side)
		return
	}
	if !chosen {
		return
	}
	b.guard(ctx, "computer", func(ctx context.Context) {
		var err error
		for try := 0; try < 3 && m != nil; try++ {
			if _, _, err = b.play(ctx, m, side, m.Version, mv, nil); !errors.Is(err, storage.ErrStale) {
				break
			}
			m = b.sameMoveOwed(ctx, m)
		}
		if err != nil && m != nil {
			// A refusal's reason names the computer's own piece ("Bombs
			// cannot move") and its squares say which one: the bot's
			// logger (New) keeps only its kind.
			b.log.Warn("the computer's move was refused", "match", m.ID, "error", err)
		}
	})
}

// computerResigns ends m, where the computer (side) has no legal move, by
// its resignation: it cannot move, and its time never runs out.
func (b *Bot) computerResigns(ctx context.Context, m *storage.Match, side game.Side) {
	b.guard(ctx, "computer", func(ctx context.Context) {
		resigned, err := b.recordAction(ctx, m.ID, m.Version, side, storage.ActResign)
		if err != nil {
			b.log.Warn("the computer, with no legal move, could not resign", "match", m.ID, "error", err)
			return
		}
		b.log.Info("the computer had no legal move and resigned", "match", m.ID)
		b.afterChange(ctx, resigned, nil)
	})
}

// sameMoveOwed reads match m again after the computer's move in it was
// refused as stale: it returns the match as it is now when the computer is
// still to make the same move, the match changed by what moves no piece (a
// reminder, a gift of time, the time away given back), and nil when the
// move was made (by another process on the same database) or the match
// moved on, or cannot be read (its timer lets the computer move again).
func (b *Bot) sameMoveOwed(ctx context.Context, m *storage.Match) *storage.Match {
	now, err := b.store.Match(ctx, m.ID)
	if err != nil || !b.computerToMove(now) || now.Moves() != m.Moves() {
		return nil
	}
	return now
}

// waitUntil waits until t, and reports false when the bot stops first (a
// restart lets the computer move again: see computerTurn).
func (b *Bot) waitUntil(t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return true
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-b.stopping:
		return false
	}
}
