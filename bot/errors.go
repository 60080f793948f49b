package bot

import (
	"errors"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// friendly is an error whose text is written for the member who caused it.
type friendly string

func (f friendly) Error() string { return string(f) }

// Errors the bot explains to members.
const (
	errNotYourMatch friendly = "This is not your match: only its two players can use its controls."
	errNoMatch      friendly = "You have no match waiting for you here. Start one with `/stratego challenge`."
	errWhichMatch   friendly = "You have more than one match: pick one with the `match` option."
	errNoneWaiting  friendly = "None of your matches is waiting for that from you right now. `/stratego games` lists them."
	errCannotMove   friendly = "That set-up cannot be played: none of its pieces can move (Bombs, the Flag, the lakes and the edge wall in the rest), " +
		"so it would lose the moment the match starts. Leave a piece that moves room to move."
)

// explain turns any error into text for the member concerned. Errors of the
// rules engine are safe to show to the player who made the attempt: they speak
// only of that player's own pieces and of what both players see. Anything
// unexpected is logged without details a player must not see, and the member
// gets an apology.
func (b *Bot) explain(err error, during string) string {
	var f friendly
	var moveErr *game.MoveError
	var setupErr *game.SetupError
	switch {
	case errors.As(err, &f):
		return string(f)
	case errors.As(err, &moveErr):
		return "That move is not allowed: " + moveErr.Reason + "."
	case errors.As(err, &setupErr):
		return "That set-up is not valid: " + setupErr.Reason + "."
	case errors.Is(err, storage.ErrStale):
		return "The board changed since you looked: that was already played, or the turn passed. Here is where things stand now:"
	case errors.Is(err, game.ErrNotYourTurn):
		return "It is not your turn yet: I'll DM you when it is."
	case errors.Is(err, game.ErrGameOver):
		return "This match is over."
	case errors.Is(err, storage.ErrNotFound):
		return "I can't find that match or challenge any more: it may have ended or expired."
	case errors.Is(err, storage.ErrExpired):
		return "This challenge has expired. Start a new one with `/stratego challenge`."
	case errors.Is(err, storage.ErrNotInvited):
		return "This challenge is for someone else."
	case errors.Is(err, storage.ErrSetupConfirmed):
		return "Your set-up is already confirmed; the match starts when your opponent has confirmed theirs."
	case errors.Is(err, game.ErrNoDrawOffer):
		return "There is no draw offer to answer."
	case errors.Is(err, storage.ErrNotStarted):
		return "The match has not started yet: both players must confirm a set-up first (`/stratego setup`)."
	}
	// Unexpected: storage or Discord trouble. Rules and set-up errors, the
	// only ones that could describe a piece, were answered above.
	b.log.Error("request failed", "during", during, "error", err)
	return "Something went wrong on my side. Please try again in a moment."
}
