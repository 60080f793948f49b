package bot

import (
	"context"
	"errors"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
)

// lookup says which match a member means.
type lookup struct {
	// named is a match number the member gave: the match option, or the
	// match of the bot's message a DM replies to. It wins over the rest.
	named string
	// fits picks among the member's active matches when none is named; nil
	// looks at none of them.
	fits func(m *storage.Match, side game.Side) bool
	// orFinished falls back to the member's latest finished match when no
	// active match fits.
	orFinished bool
	// notOver, with orFinished, refuses a member who has no finished match
	// but active ones, none of them fitting: what they asked for comes once
	// a match is over.
	notOver friendly
	// none refuses a member whose active matches (not all in their set-up)
	// none fits, saying what none waits for; zero: txtErrNoneWaiting.
	none friendly
	// inDM is set for what a member types in the DM: there a named match
	// (the one replied to) must fit too, and the refusals say how to name one
	// in a DM.
	inDM dmWording
}

// dmWording is what a member is told when a DM does not single out one
// match; zero for a slash command, which has the match option instead.
type dmWording struct {
	none, notThatOne, several friendly
}

// The wordings of DMs: a set-up, and a move (txtNoMoveWaiting answers
// `/stratego move` too).
const (
	txtDMNoSetupWaiting  friendly = "That looks like a set-up, but none of your matches is waiting for one. `/stratego games` lists your matches."
	txtDMSeveralSetups   friendly = "You have several matches waiting for a set-up: reply to the message of the match you mean."
	txtNoMoveWaiting     friendly = "None of your matches is waiting for your move right now. `/stratego games` lists them."
	txtDMNotYourTurnThen friendly = "It is not your turn in that match, or it is over."
	txtDMSeveralMoves    friendly = "It is your move in several matches: reply to the board message of the one you mean, or use `/stratego move` with the `match` option."
)

var (
	setupByDM = dmWording{none: txtDMNoSetupWaiting, notThatOne: txtDMNoSetupWaiting, several: txtDMSeveralSetups}
	moveByDM  = dmWording{none: txtNoMoveWaiting, notThatOne: txtDMNotYourTurnThen, several: txtDMSeveralMoves}
)

// The refusals to guess the match meant while one of the member's cannot
// be read (damaged, or written by a newer strategobot): it may be that one.
const (
	txtErrUnreadableMeant friendly = "One of your matches cannot be read right now, so I cannot tell which one you mean: name it with the `match` option."
	txtDMUnreadableMeant  friendly = "One of your matches cannot be read right now, so I cannot tell which one you mean: reply to the message of the match you mean."
)

// txtNoSuchMatch answers a match number that no match has.
const txtNoSuchMatch = "There is no match #%[1]s. `/stratego games` lists your matches."

// seat is a match and the side a member plays in it.
type seat struct {
	m    *storage.Match
	side game.Side
}

// The fits of lookups.
func yourTurn(m *storage.Match, side game.Side) bool {
	return m.Phase == storage.PhasePlaying && m.Owes(side)
}

func playing(m *storage.Match, _ game.Side) bool { return m.Phase == storage.PhasePlaying }

// noActive fits no active match: a lookup of finished matches alone that
// still counts the active ones (lookup.notOver).
func noActive(*storage.Match, game.Side) bool { return false }

func needsSetup(m *storage.Match, side game.Side) bool {
	return m.Phase == storage.PhaseSetup && m.Owes(side)
}

// finishedLookback is how many of a member's latest ended matches are read
// for their latest finished one: not a limit of Discord's but a bound on the
// read, past the few abandoned matches (no result) that may come after it.
const finishedLookback = 10

// matchesMeant is the one way to find the matches a member may mean by q: the
// named one, whatever its phase; else their active matches that fit; else,
// with orFinished, their latest finished one. active is their active
// matches, fitting or not, when none is named and q.fits is set. A match
// whose record cannot be read is passed over (passOver), but it may be the
// one meant: the others come back with txtErrUnreadableMeant, so that no
// move goes to a match other than the one meant, and the member is told
// how to name it rather than that something went wrong.
func (b *Bot) matchesMeant(ctx context.Context, user string, q lookup) (found, active []seat, err error) {
	if q.named != "" {
		id, err := storage.ParseMatchID(q.named)
		if err != nil {
			return nil, nil, friendlyf("%[1]q is not a match number: pick one from the list.", render.Typed(mdEscape(q.named)))
		}
		m, err := b.store.Match(ctx, id)
		if errors.Is(err, storage.ErrNotFound) {
			return nil, nil, friendlyf(txtNoSuchMatch, id.String())
		}
		if err != nil {
			return nil, nil, fmt.Errorf("the match a member named: %w", err)
		}
		side, ok := m.SideOf(user)
		if !ok {
			return nil, nil, txtErrNotYourMatch
		}
		return []seat{{m, side}}, nil, nil
	}
	unread := 0
	unsure := func() error {
		if unread > 0 {
			return txtErrUnreadableMeant
		}
		return nil
	}
	if q.fits != nil {
		list, err := b.store.PlayerMatches(ctx, user, true, 0)
		list, n, err := passOver(b, "matches", list, err)
		if err != nil {
			return nil, nil, fmt.Errorf("listing a member's active matches: %w", err)
		}
		unread += n
		for _, m := range list {
			side, ok := m.SideOf(user)
			if !ok {
				continue
			}
			active = append(active, seat{m, side})
			if q.fits(m, side) {
				found = append(found, seat{m, side})
			}
		}
		if len(found) > 0 || !q.orFinished {
			return found, active, unsure()
		}
	}
	if q.orFinished {
		ended, err := b.store.PlayerMatches(ctx, user, false, finishedLookback)
		ended, n, err := passOver(b, "matches", ended, err)
		if err != nil {
			return nil, nil, fmt.Errorf("listing a member's finished matches: %w", err)
		}
		unread += n
		for _, m := range ended {
			if side, ok := m.SideOf(user); ok && m.Phase == storage.PhaseFinished {
				return []seat{{m, side}}, active, unsure()
			}
		}
	}
	return nil, active, unsure()
}

// matchMeant returns the one match a member means by q, or a refusal that
// tells them how to name it, in a slash command or in a DM.
func (b *Bot) matchMeant(ctx context.Context, user string, q lookup) (*storage.Match, game.Side, error) {
	found, active, err := b.matchesMeant(ctx, user, q)
	if errors.Is(err, txtErrUnreadableMeant) && q.inDM != (dmWording{}) {
		return nil, game.Red, txtDMUnreadableMeant
	}
	if err != nil {
		return nil, game.Red, err
	}
	if dm := q.inDM; dm != (dmWording{}) {
		switch found = fitting(found, q.fits); {
		case len(found) == 1:
			return found[0].m, found[0].side, nil
		case len(found) > 1:
			return nil, game.Red, dm.several
		case q.named != "":
			return nil, game.Red, dm.notThatOne
		case len(active) > 0 && inSetUp(active):
			return nil, game.Red, notStarted(active)
		}
		return nil, game.Red, dm.none
	}
	switch {
	case len(found) == 1:
		return found[0].m, found[0].side, nil
	case len(found) > 1:
		return nil, game.Red, txtErrWhichMatch
	case len(active) > 0 && q.notOver != "":
		return nil, game.Red, q.notOver
	case len(active) > 0 && inSetUp(active):
		return nil, game.Red, notStarted(active)
	case len(active) > 0 && !q.orFinished && q.none != "":
		return nil, game.Red, q.none
	case len(active) > 0 && !q.orFinished:
		return nil, game.Red, txtErrNoneWaiting
	}
	return nil, game.Red, txtErrNoMatch
}

// notStarted refuses what none of a member's matches, all in their set-up
// (seats), fits: they have not begun, and saying that none waits for this,
// or that they have none, would send the member looking. A set-up still
// owed comes first; else theirs are confirmed, and the opponents' awaited.
func notStarted(seats []seat) error {
	for _, s := range seats {
		if s.m.Owes(s.side) {
			return storage.ErrNotStarted
		}
	}
	return storage.ErrSetupConfirmed
}

// inSetUp reports whether every match of seats is in its set-up.
func inSetUp(seats []seat) bool {
	for _, s := range seats {
		if s.m.Phase != storage.PhaseSetup {
			return false
		}
	}
	return true
}

// fitting keeps the seats for which fits holds: a named match must fit too
// where a DM's wording depends on it.
func fitting(seats []seat, fits func(*storage.Match, game.Side) bool) []seat {
	var out []seat
	for _, s := range seats {
		if fits(s.m, s.side) {
			out = append(out, s)
		}
	}
	return out
}

// playerMatch loads the match a button, menu or form names and checks that
// the member plays in it.
func (b *Bot) playerMatch(ctx context.Context, i *discordgo.Interaction, id uint64) (*storage.Match, game.Side, error) {
	found, _, err := b.matchesMeant(ctx, userOf(i).ID, lookup{named: storage.MatchID(id).String()})
	if err != nil {
		return nil, game.Red, err
	}
	return found[0].m, found[0].side, nil
}
