package storage

import "time"

// What became of a draw offer or a proposal to pause that no longer stands
// (the Reason of its EventOfferSettled notice).
const (
	OfferAccepted  = "accepted"  // the player asked accepted it
	OfferDeclined  = "declined"  // the player asked declined it
	OfferWithdrawn = "withdrawn" // its maker took it back, or made another in its place
	OfferLapsed    = "lapsed"    // the game went on without an answer
	OfferOver      = "over"      // the match ended
)

// OfferDM is the DM that asked a player to answer an offer: a draw offer or
// a proposal to pause, whose buttons it carries until the offer is settled
// (EventOfferSettled), when it is edited to say what became of it.
type OfferDM struct {
	// Offer is the offer asked about: the count of the match's actions up
	// to it. Its kind and its maker are the log's; the player asked is the
	// other one.
	Offer int
	// Message is the DM's message id.
	Message string
	// At is the time the DM was worded at (a proposal to pause says until
	// when, if accepted then).
	At time.Time
}

// AskedDM returns the DM recorded as asking about the offer at offer (the
// count of actions up to it), and false when none is.
func (m *Match) AskedDM(offer int) (OfferDM, bool) {
	for _, d := range m.OfferDMs {
		if d.Offer == offer {
			return d, true
		}
	}
	return OfferDM{}, false
}

// RecordAsked records d as the DM asking about its offer, in place of the
// one kept of an earlier offer of the same kind to the same player, unless
// d's offer replaced that one (a proposal to pause made again for other
// days): the earlier one's edit is then owed after d's DM, in the same
// queue. A match keeps six at most: the last draw offer and proposal to
// pause asked of each player, and a proposal each replaced. It reports
// whether it changed anything.
func (m *Match) RecordAsked(d OfferDM) bool {
	if d.Offer < 1 || d.Offer > len(m.Log) {
		return false
	}
	if old, ok := m.AskedDM(d.Offer); ok && old == d {
		return false
	}
	kind, side := m.Log[d.Offer-1].Kind, m.Log[d.Offer-1].Side
	kept := m.OfferDMs[:0:0]
	for _, o := range m.OfferDMs {
		if o.Offer > len(m.Log) || o.Offer == d.Offer {
			continue
		}
		if a := m.Log[o.Offer-1]; a.Kind == kind && a.Side == side && !m.replaced(o.Offer, d.Offer) {
			continue
		}
		kept = append(kept, o)
	}
	m.OfferDMs = append(kept, d)
	return true
}

// replaced reports whether the proposal to pause at offer (the count of
// actions up to it) was standing when its maker made the one at by, which
// replaced it: nothing between them answered it, and no move lapsed it.
func (m *Match) replaced(offer, by int) bool {
	if offer >= by || m.Log[offer-1].Kind != ActOfferPause {
		return false
	}
	for _, a := range m.Log[offer : by-1] {
		switch a.Kind {
		case ActAcceptPause, ActDeclinePause, ActMove, ActOfferPause:
			return false
		}
	}
	return true
}

// drawOfferAt returns the draw offer standing in m, as its place in the
// log (the count of actions up to it), 0 for none. It reads the log as the
// game does (game.Game.DrawOffer): an offer stands until it is accepted or
// declined, the game ends, or its maker moves again after a move since it.
func (m *Match) drawOfferAt() int {
	if m.Phase != PhasePlaying {
		return 0
	}
	for i := len(m.Log) - 1; i >= 0; i-- {
		switch a := m.Log[i]; a.Kind {
		case ActAcceptDraw, ActDeclineDraw:
			return 0
		case ActOfferDraw:
			moved := false
			for _, b := range m.Log[i+1:] {
				if b.Kind != ActMove {
					continue
				}
				if b.Side == a.Side && moved {
					return 0
				}
				moved = true
			}
			return i + 1
		}
	}
	return 0
}

// settled is an offer that no longer stands, and what became of it.
type settled struct {
	offer int    // the count of actions up to it
	how   string // OfferAccepted …
}

// settledOffers returns the draw offer and the proposal to pause that
// stood in old, a match being played, and no longer stand in m, with what
// became of each: answered or withdrawn by the actions m added, else over
// with the match, else lapsed as the game went on (the maker of a draw
// offer moved twice, the player asked to pause moved).
func settledOffers(old, m *Match) []settled {
	if old == nil || old.Phase != PhasePlaying {
		return nil
	}
	var out []settled
	for _, at := range []int{old.drawOfferAt(), old.pauseOfferAt()} {
		if at == 0 || (m.Phase == PhasePlaying && (m.drawOfferAt() == at || m.pauseOfferAt() == at)) {
			continue
		}
		offer := m.Log[at-1]
		accept, decline := ActAcceptDraw, ActDeclineDraw
		if offer.Kind == ActOfferPause {
			accept, decline = ActAcceptPause, ActDeclinePause
		}
		how := ""
		for _, a := range m.Log[len(old.Log):] {
			switch {
			case a.Kind == accept:
				how = OfferAccepted
			case a.Kind == decline && a.Side == offer.Side, a.Kind == offer.Kind && a.Side == offer.Side:
				how = OfferWithdrawn
			case a.Kind == decline:
				how = OfferDeclined
			default:
				continue
			}
			break
		}
		switch {
		case how != "":
		case m.Phase != PhasePlaying:
			how = OfferOver
		default:
			how = OfferLapsed
		}
		out = append(out, settled{offer: at, how: how})
	}
	return out
}
