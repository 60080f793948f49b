package bot

import (
	"fmt"
	"strconv"
	"strings"
)

// Custom ids of buttons, menus and modals: "kind:action:id[:version[:arg]]".
// They carry the match (or challenge) and the version the control was drawn
// for, so a click on an old message is refused as stale instead of acting on
// a board that has changed. Discord allows 100 characters; ours stay far below.
const (
	kindChallenge = "ch"
	kindSetup     = "su"
	kindMove      = "mv"
	kindResign    = "rs"
	kindDraw      = "dr"
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

// customID is a decoded custom id.
type customID struct {
	kind, action string
	id           uint64
	version      uint64
	arg          string
}

func (c customID) String() string {
	s := c.kind + ":" + c.action + ":" + strconv.FormatUint(c.id, 10)
	if c.version != 0 || c.arg != "" {
		s += ":" + strconv.FormatUint(c.version, 10)
	}
	if c.arg != "" {
		s += ":" + c.arg
	}
	return s
}

func parseCustomID(s string) (customID, error) {
	parts := strings.SplitN(s, ":", 5)
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
	return c, nil
}
