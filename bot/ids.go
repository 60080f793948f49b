package bot

import (
	"fmt"
	"strconv"
	"strings"
)

// Custom ids of buttons, menus and modals: "kind:action:id[:version[:arg[:menu]]]".
// They carry the match (or challenge) and the version the control was drawn
// for, so a click on an old message is refused as stale instead of acting on
// a board that has changed; the move menus carry the number of moves their
// board showed instead, so that a reminder or a gift of time leaves them
// live. menu tells apart the menus of one message, whose custom ids must
// differ. Discord allows 100 characters; ours stay far below. An id is
// taken only from the message that shows it (fromItsMessage), so what it
// carries, like the challenger's colour, is the bot's and not the presser's.
const (
	kindChallenge = "ch"
	kindSetup     = "su"
	kindMove      = "mv" // move menus drawn before kindMoveAt: their version is the match's
	kindMoveAt    = "mt" // move menus whose version is the number of moves their board showed
	kindResign    = "rs"
	kindDraw      = "dr"
	kindPause     = "pa"
)

// Actions within the kinds.
const (
	actAccept  = "acc"
	actDecline = "dec"
	actCancel  = "can"
	actEdit    = "edit"
	actRandom  = "rand"
	actSaved   = "saved"
	actConfirm = "conf"
	actModal   = "modal"
	actPiece   = "piece"
	actTarget  = "to"
	actBack    = "back"
	actYes     = "yes"
	actNo      = "no"
)

// customID is a decoded custom id. A member's client reads the ids of every
// button it shows, so an id carries nothing the member may not know: never
// the match's Version, whose count includes the opponent's set-up drafts;
// the number of moves, or a mark keyed by the match's secret (draftMark).
type customID struct {
	kind, action string
	id           uint64
	version      uint64 // the moves played, or a draft's mark; 0 with neither
	arg          string
	menu         int // which of a message's menus, when it has several
}

func (c customID) String() string {
	s := c.kind + ":" + c.action + ":" + strconv.FormatUint(c.id, 10)
	if c.version != 0 || c.arg != "" || c.menu != 0 {
		s += ":" + strconv.FormatUint(c.version, 10)
	}
	if c.arg != "" || c.menu != 0 {
		s += ":" + c.arg
	}
	if c.menu != 0 {
		s += ":" + strconv.Itoa(c.menu)
	}
	return s
}

func parseCustomID(s string) (customID, error) {
	parts := strings.SplitN(s, ":", 6)
	if len(parts) < 3 {
		return customID{}, fmt.Errorf("custom id %q has too few parts", s)
	}
	c := customID{kind: parts[0], action: parts[1]}
	var err error
	if c.id, err = strconv.ParseUint(parts[2], 10, 64); err != nil {
		return customID{}, fmt.Errorf("custom id %q: bad id", s)
	}
	if len(parts) > 3 {
		if c.version, err = strconv.ParseUint(parts[3], 10, 64); err != nil {
			return customID{}, fmt.Errorf("custom id %q: bad version", s)
		}
	}
	if len(parts) > 4 {
		c.arg = parts[4]
	}
	if len(parts) > 5 {
		if c.menu, err = strconv.Atoi(parts[5]); err != nil || c.menu < 0 {
			return customID{}, fmt.Errorf("custom id %q: bad menu", s)
		}
	}
	return c, nil
}
