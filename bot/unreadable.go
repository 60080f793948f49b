package bot

import (
	"errors"

	"github.com/strategobot/strategobot/storage"
)

// A list of records that meets some it cannot read (damaged, or written by
// a newer strategobot sharing the database) returns the others with a
// storage.UnreadableError that names them. Every list the bot reads passes
// over those here, logged by their ids: one bad record holds up no other.
// (Where one may be what a member means, matchesMeant asks them to name
// the match rather than take another.)

// goneForGood reports whether err, a failed read of a record, says it is
// gone or cannot be read for good (damaged, or written by a newer
// strategobot): a look over many records passes over it, where a failure
// of the database stops the look, to be made again.
func goneForGood(err error) bool {
	return errors.Is(err, storage.ErrNotFound) || errors.Is(err, storage.ErrCorrupt) || errors.Is(err, storage.ErrNewerSchema)
}

// readableMatches passes over the matches a list could not read
// (storage.UnreadableError: damaged, or written by a newer strategobot),
// logged by their ids: the others are listed all the same. err is the
// list's own failure.
func (b *Bot) readableMatches(list []*storage.Match, err error) ([]*storage.Match, error) {
	list, _, err = passOver(b, "matches", list, err)
	return list, err
}

// readableChallenges is readableMatches for a list of challenges.
func (b *Bot) readableChallenges(list []*storage.Challenge, err error) ([]*storage.Challenge, error) {
	list, _, err = passOver(b, "challenges", list, err)
	return list, err
}

// passOver passes over the records of kind (plural: "matches") that a list
// could not read (storage.UnreadableError), logged by their ids, never by
// what they hold: it returns the others and how many it passed over. err
// is the list's own failure.
func passOver[T any](b *Bot, kind string, list []T, err error) ([]T, int, error) {
	var bad *storage.UnreadableError
	if errors.As(err, &bad) {
		b.log.Error(kind+" that cannot be read are passed over", kind, bad.IDs, "error", bad)
		return list, len(bad.IDs), nil
	}
	return list, 0, err
}
