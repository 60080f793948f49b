package web

import (
	"context"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage"
)

// The contract with the bot: what the server reads (Matches, Links) and
// the Actor that applies a player's actions on the bot's one path.

// Matches reads matches; storage.Store has this method.
type Matches interface {
	Match(ctx context.Context, id storage.MatchID) (*storage.Match, error)
}

// Links gives a player's current link generation. Revoking a player's links
// bumps it (the bot keeps it in its database); every link signed with an
// older generation is refused from then on.
type Links interface {
	LinkGeneration(ctx context.Context, userID string) (uint32, error)
}

// DrawAnswer is what a player does about a draw.
type DrawAnswer uint8

// The draw actions.
const (
	DrawOffer DrawAnswer = iota
	DrawAccept
	DrawDecline
)

// PauseAnswer is what a player does about a pause by agreement.
type PauseAnswer uint8

// The pause actions.
const (
	PausePropose PauseAnswer = iota // propose to pause for Days days
	PauseAccept                     // accept the opponent's proposal of Days days
	PauseDecline                    // decline the opponent's proposal of Days days (or take back one's own)
)

// Actor applies a player's action through the bot's one path for it: the
// same store call, versions and notices as the same action on Discord. An
// error whose text is safe to show the player (the engine's refusal, "not
// your turn") is returned as a *Refusal; any other error is logged by the
// bot and shown as a plain failure.
//
// Each method is given the match as the request read it (to authenticate
// it, see MatchAuthenticator) and need not read it again: an action costs
// one load of its match outside the store's own transaction, as a Discord
// menu does. A move, resignation or draw answer is made on the board the
// player saw: the Actor checks its Basis on the match and game it acts on,
// and acts at that match's version. Overtaken there by a change that left
// the board as the player saw it (a gift of time, a reminder), it checks
// the Basis on the match as it is then and acts once more, as a Discord
// menu's move does: the player's page would show them the same board.
type Actor interface {
	Move(ctx context.Context, m *storage.Match, at Basis, side game.Side, mv game.Move) error
	// Setup stores side's draft, or confirms it as a DM set-up is confirmed;
	// it has no basis: a set-up is the player's own whatever else changed.
	Setup(ctx context.Context, m *storage.Match, side game.Side, s game.Setup, confirm bool) error
	// CheckSetup returns, as a *Refusal, the refusal s would meet as side's
	// draft or confirmed set-up (the one check both take, in one order), and
	// nil when s would be accepted. It stores nothing.
	CheckSetup(ctx context.Context, m *storage.Match, side game.Side, s game.Setup) error
	// RandomSetup draws a set-up for side with the bot's secret generator
	// (keyed with the match's secret, as the Random button on Discord draws
	// it), and may store it as side's draft as that button does; refused
	// once side's set-up is confirmed.
	RandomSetup(ctx context.Context, m *storage.Match, side game.Side) (game.Setup, error)
	Resign(ctx context.Context, m *storage.Match, at Basis, side game.Side) error
	Draw(ctx context.Context, m *storage.Match, at Basis, side game.Side, a DrawAnswer) error
	// GiveTime gives side's opponent more time, as /stratego give_time does
	// (the same store action, refusals and notices). It has no basis: a
	// gift does not depend on the board. It is made for given, side's gifts
	// as the page showed them: once one was given since, it is refused
	// (the time was given already), so that a double click, or a page
	// behind another tab's gift, gives once.
	GiveTime(ctx context.Context, m *storage.Match, side game.Side, given int) error
	// Pause proposes a pause of days days, or answers the proposal the
	// page showed (days names it, as a Discord button names the proposal
	// it was drawn for), as /stratego pause and its buttons do (the same
	// store action, refusals and notices). It has no basis: a pause does
	// not depend on the board, and a proposal changed meanwhile is refused.
	Pause(ctx context.Context, m *storage.Match, side game.Side, a PauseAnswer, days int) error
	// SavedSetups lists side's saved set-ups that fit the match's army, the
	// first choice first; refused once side's set-up is confirmed.
	SavedSetups(ctx context.Context, m *storage.Match, side game.Side) ([]SavedSetup, error)
	// SaveSetup keeps s, a set-up the rules accept, under name among side's
	// saved set-ups, replacing one of the same name.
	SaveSetup(ctx context.Context, m *storage.Match, side game.Side, name string, s game.Setup) error
}

// A Basis is what a player's action was made on: the board their page
// showed (State.Basis), as a Discord menu carries the version of its board.
// Called with the match the action is about to be made on and its game
// (nil before both set-ups are confirmed), it returns nil when the player's
// viewer still sees that board, and otherwise the refusal, in the viewer's
// language, that the board changed since they looked.
type Basis func(m *storage.Match, g *game.Game) error

// Refusal is an action refused with a reason the player may read.
type Refusal struct{ Reason string }

func (r *Refusal) Error() string { return r.Reason }

// StaleRefusal refuses, in language, an action made on a board that has
// changed since the player looked: whether the page's basis or the store's
// version found it out, the player reads the same words.
func StaleRefusal(language string) *Refusal {
	return &Refusal{Reason: lang.For(language).Sprintf(txtStale)}
}
