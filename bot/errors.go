package bot

import (
	"errors"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
)

// friendly is an error whose text is written for the member who caused it.
type friendly string

func (f friendly) Error() string { return string(f) }

// friendlyText is a friendly error with arguments: its key is in the
// catalogue, and the member reads it in their language.
type friendlyText struct {
	key  string
	args []any
}

// friendlyf returns a friendlyText error.
func friendlyf(key string, args ...any) error { return &friendlyText{key: key, args: args} }

// Error returns the English text, for logs and tests.
func (f *friendlyText) Error() string {
	return lang.For("en").Sprintf(f.key, localArgs(lang.For("en"), game.NumberingModern, f.args)...)
}

// reasonText words a reason of the rules engine in p's language, for a
// member who numbers the pieces in n.
func reasonText(p lang.Printer, n game.Numbering, t game.Text) string {
	return render.Reason(p, n, t)
}

// localArgs shows the typed arguments of a text in p's language (see
// render.ReasonArgs).
func localArgs(p lang.Printer, n game.Numbering, args []any) []any {
	return render.ReasonArgs(p, n, args)
}

// reasonOf is why the rules engine refused something, as an argument of a
// text: its game.Text, which localArgs words in the reader's language, or an
// error's own text when it has none.
func reasonOf(err error) any {
	var te *game.TextError
	var se *game.SetupError
	var me *game.MoveError
	switch {
	case errors.As(err, &te):
		return te.Text
	case errors.As(err, &se):
		return se.Text
	case errors.As(err, &me):
		return me.Text
	}
	return err.Error()
}

// txtTimeRanOut answers what a player does in a match whose side to move
// ran out of time before the timers recorded it (storage.ErrTimeUp).
const txtTimeRanOut = "The time to move in this match ran out: the player to move loses on time, and the match ends now."

// txtSetupTimeRanOut answers a set-up confirmed in a match whose set-up
// time ran out before the timers called it off (storage.ErrSetupTimeUp).
const txtSetupTimeRanOut = "The time for the set-ups of this match ran out: the match ends now, as it does when a set-up is late."

// txtClocksStandStill answers an action refused as late while the bot is
// cut off from Discord's gateway: every clock stands still until it is
// back, and the time is given back then.
const txtClocksStandStill = "I cannot reach Discord just now, and every clock stands still until I can: try again in a while."

// txtRoundOver answers what a player does in a tournament match after its
// round's deadline, before the timers closed the round (storage.ErrRoundOver).
const txtRoundOver = "The deadline of this game's tournament round has passed: nothing played now counts, and the tournament scores the game as one still on at the deadline."

// Errors the bot explains to members, in their language: each is a
// catalogue key.
const (
	txtErrNotYourMatch friendly = "This is not your match: only its two players can use its controls."
	txtErrNoMatch      friendly = "You have no match waiting for you here. Start one with `/stratego challenge`."
	txtErrWhichMatch   friendly = "You have more than one match: pick one with the `match` option."
	txtErrNoneWaiting  friendly = "None of your matches is waiting for that from you right now. `/stratego games` lists them."
	txtErrCannotMove   friendly = "That set-up cannot be played: none of its pieces can move (Bombs, the Flag, the lakes and the edge wall in the rest), " +
		"so it would lose the moment the match starts. Leave a piece that moves room to move."
)

// explain turns any error into text for the member concerned, in their
// language. Errors of the rules engine are safe to show to the player who made
// the attempt: they speak only of that player's own pieces and of what both
// players see. Anything unexpected is logged without details a player must
// not see, and the member gets an apology.
func (b *Bot) explain(p lang.Printer, err error, during string) string {
	return b.explainIn(p, game.NumberingModern, err, during)
}

// explainIn is explain for a member who numbers the pieces in n: the rules
// engine's reasons name pieces with their numbers ("Captain (6)").
func (b *Bot) explainIn(p lang.Printer, n game.Numbering, err error, during string) string {
	if text, ok := b.refusalText(p, n, err); ok {
		return text
	}
	// Unexpected: storage or Discord trouble. Rules and set-up errors, the
	// only ones that could describe a piece, are refusals; anything
	// else the game wrote (a piece typed, a view) keeps only its kind.
	b.log.Error("request failed", "during", during, "error", err)
	return p.Sprintf("Something went wrong on my side. Please try again in a moment.")
}

// refusalText words an error a member may read (a refusal of the rules,
// the store's or the bot's own) in p, for a member who numbers the pieces
// in n; false for any other error, which explainIn logs. The one list of
// what a member may be told: the web board's refusals read it too.
func (b *Bot) refusalText(p lang.Printer, n game.Numbering, err error) (string, bool) {
	var f friendly
	var ft *friendlyText
	var moveErr *game.MoveError
	var setupErr *game.SetupError
	switch {
	case errors.As(err, &f):
		return p.Sprintf(string(f)), true
	case errors.As(err, &ft):
		return p.Sprintf(ft.key, localArgs(p, n, ft.args)...), true
	case errors.As(err, &moveErr):
		return p.Sprintf("That move is not allowed: %[1]s.", reasonText(p, n, moveErr.Text)), true
	case errors.As(err, &setupErr):
		if len(setupErr.Text.Args) == 1 {
			if _, list := setupErr.Text.Args[0].(game.Lines); list {
				// What is missing and what is extra, a line each.
				return p.Sprintf("That set-up is not valid:\n%[1]s", reasonText(p, n, setupErr.Text)), true
			}
		}
		return p.Sprintf("That set-up is not valid: %[1]s.", reasonText(p, n, setupErr.Text)), true
	case errors.Is(err, storage.ErrStale):
		return p.Sprintf("The board changed since you looked: that was already played, or the turn passed. Here is where things stand now:"), true
	case errors.Is(err, game.ErrNotYourTurn):
		return p.Sprintf("It is not your turn yet: I'll DM you when it is."), true
	case errors.Is(err, game.ErrGameOver):
		return p.Sprintf("This match is over. `/stratego games` lists your running matches."), true
	case errors.Is(err, storage.ErrNotFound):
		return p.Sprintf("I can't find that match or challenge any more: it may have ended or expired."), true
	case errors.Is(err, storage.ErrExpired):
		return p.Sprintf("This challenge has expired. Start a new one with `/stratego challenge`."), true
	case errors.Is(err, storage.ErrNotInvited):
		return p.Sprintf("This challenge is for someone else."), true
	case errors.Is(err, storage.ErrSetupConfirmed):
		return p.Sprintf("Your set-up is already confirmed; the match starts when your opponent has confirmed theirs."), true
	case errors.Is(err, storage.ErrNotCorrespondence):
		return p.Sprintf("Only matches of a day or more a move can pause; a faster game is played in one sitting."), true
	case errors.Is(err, storage.ErrPaused):
		return p.Sprintf("The match is paused already."), true
	case errors.Is(err, storage.ErrNoPauseOffersLeft):
		return p.Sprintf("You have already proposed a pause %[1]d times, the most a match allows. Your opponent may still propose one.", storage.MaxPauseOffers), true
	case errors.Is(err, storage.ErrPauseOffered):
		return p.Sprintf(txtPauseOfferedAlready), true
	case errors.Is(err, storage.ErrPauseOfferStands):
		return p.Sprintf(txtPauseOfferStandsPlain), true
	case errors.Is(err, storage.ErrPauseOfferChanged):
		return p.Sprintf(txtPauseOfferRenewed), true
	case errors.Is(err, storage.ErrNoPauseOffer):
		return p.Sprintf("There is no proposal to pause to answer: `/stratego pause days:3` proposes one."), true
	case b.deafNow() && !b.cfg.Shared && (errors.Is(err, storage.ErrTimeUp) || errors.Is(err, storage.ErrRoundOver)):
		// Cut off from the gateway, the bot runs no timer, and gives the
		// time back once connected (gatewayaway.go): a deadline that passed
		// meanwhile is not yet moved on, and the match is not lost.
		return p.Sprintf(txtClocksStandStill), true
	case errors.Is(err, storage.ErrSetupTimeUp):
		b.nudgeTimers() // the timers call the match off now
		return p.Sprintf(txtSetupTimeRanOut), true
	case errors.Is(err, storage.ErrTimeUp):
		b.nudgeTimers() // the timers record the loss on time now
		return p.Sprintf(txtTimeRanOut), true
	case errors.Is(err, storage.ErrRoundOver):
		b.nudgeTimers() // the timers close the round now
		return p.Sprintf(txtRoundOver), true
	case errors.Is(err, storage.ErrNoGiftsLeft):
		return p.Sprintf("You have already given your opponent more time %[1]d times, the most a match allows.", storage.MaxGifts), true
	case errors.Is(err, game.ErrNoDrawOffer):
		return p.Sprintf("There is no draw offer to answer: `/stratego draw` without `action` offers one."), true
	case errors.Is(err, game.ErrDrawOffered):
		return p.Sprintf("You have already offered a draw: your opponent accepts or declines it. `/stratego draw action:decline` takes it back."), true
	case errors.Is(err, game.ErrDrawOfferedToYou):
		return p.Sprintf("Your opponent has already offered a draw: `/stratego draw action:accept` accepts it, `action:decline` declines it."), true
	case errors.Is(err, storage.ErrNotStarted):
		return p.Sprintf("The match has not started yet: both players must confirm a set-up first (`/stratego setup`)."), true
	}
	return "", false
}
