package storage

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
)

// TestSettledOffers plays random games of a day a move with draw offers,
// proposals to pause and their answers, and checks after every change
// that the log reads the standing draw offer as the game does, and that
// the change owes the player asked an EventOfferSettled for each offer
// that stood before it and no longer does, and for no other, saying what
// became of it.
func TestSettledOffers(t *testing.T) {
	base := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	c := Changes{}
	kinds := []ActionKind{ActOfferDraw, ActAcceptDraw, ActDeclineDraw, ActOfferPause, ActAcceptPause, ActDeclinePause, ActResign}
	seen := map[string]bool{}
	for seed := range uint64(300) {
		r := rand.New(rand.NewPCG(seed, 11))
		m := setupMatch(base)
		now := base
		for side := range 2 {
			if _, err := c.SetSetup(m, game.Side(side), game.RandomSetup(m.Rules, seed*2+uint64(side)), SetupConfirmed, now); err != nil {
				t.Fatal(err)
			}
		}
		for step := 0; step < 60 && m.Phase == PhasePlaying; step++ {
			now = now.Add(time.Minute)
			old := m.Clone()
			var err error
			var a Action
			if r.IntN(3) == 0 {
				g, _ := m.Game()
				moves := g.LegalMoves()
				_, err = c.ApplyMove(m, g.ToMove(), moves[r.IntN(len(moves))], now)
				a = Action{Kind: ActMove}
			} else {
				a = Action{Kind: kinds[r.IntN(len(kinds))], Side: game.Side(r.IntN(2)), Days: 1 + r.IntN(2), At: now}
				if a.Kind == ActResign && r.IntN(4) != 0 {
					continue
				}
				_, err = c.Act(m, a)
			}
			if err != nil {
				m = old
				continue
			}
			g, err := m.Game()
			if err != nil {
				t.Fatal(err)
			}
			by, ok := g.DrawOffer()
			if at := m.drawOfferAt(); (at != 0) != ok || (ok && m.Log[at-1].Side != by) {
				t.Fatalf("seed %d step %d: the log reads the draw offer at %d, the game's is %v's (%v)", seed, step, at, by, ok)
			}
			var want []string
			for _, at := range []int{old.drawOfferAt(), old.pauseOfferAt()} {
				if at == 0 || (m.Phase == PhasePlaying && slices.Contains([]int{m.drawOfferAt(), m.pauseOfferAt()}, at)) {
					continue
				}
				offer := m.Log[at-1]
				how := OfferLapsed
				last := m.Log[len(m.Log)-1]
				accept, decline := ActAcceptDraw, ActDeclineDraw
				if offer.Kind == ActOfferPause {
					accept, decline = ActAcceptPause, ActDeclinePause
				}
				switch {
				case last.Kind == accept:
					how = OfferAccepted
				case last.Kind == decline && last.Side == offer.Side, last.Kind == offer.Kind:
					how = OfferWithdrawn
				case last.Kind == decline:
					how = OfferDeclined
				case m.Phase != PhasePlaying:
					how = OfferOver
				}
				want = append(want, offer.Side.Opponent().String()+" "+actionWords[offer.Kind]+" "+how)
			}
			var got []string
			for _, n := range Notices(old, m, now) {
				if n.Event == EventOfferSettled {
					if err := validNotice(&n); err != nil {
						t.Fatal(err)
					}
					got = append(got, game.Side(n.To).String()+" "+actionWords[m.Log[n.Offer-1].Kind]+" "+n.Reason)
					seen[actionWords[m.Log[n.Offer-1].Kind]+" "+n.Reason] = true
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("seed %d step %d (%v): settled %q, want %q", seed, step, m.Log[len(m.Log)-1], got, want)
			}
		}
	}
	for _, kind := range []string{actionWords[ActOfferDraw], actionWords[ActOfferPause]} {
		for _, how := range []string{OfferAccepted, OfferDeclined, OfferWithdrawn, OfferLapsed, OfferOver} {
			if !seen[kind+" "+how] {
				t.Errorf("no %s was %s in the games played", kind, how)
			}
		}
	}
}

// TestOfferDMsRecord: the DMs that asked about offers are kept in the
// record and read back; RecordAsked keeps the last offer of each kind to
// each player, and a match that asked nothing records nothing.
func TestOfferDMsRecord(t *testing.T) {
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	m := setupMatch(base)
	m.Phase = PhasePlaying
	m.Log = []Action{
		{Kind: ActOfferDraw, Side: game.Red, At: base},    // 1: asks Blue
		{Kind: ActDeclineDraw, Side: game.Blue, At: base}, // 2
		{Kind: ActOfferPause, Side: game.Red, At: base},   // 3: asks Blue
		{Kind: ActOfferDraw, Side: game.Blue, At: base},   // 4: asks Red
		{Kind: ActDeclineDraw, Side: game.Red, At: base},  // 5
		{Kind: ActOfferDraw, Side: game.Red, At: base},    // 6: asks Blue, in place of 1
	}
	data, err := encodeMatch(m)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := decodeMatch(data); err != nil || got.OfferDMs != nil {
		t.Fatalf("a match that asked nothing reads back %v (%v)", got.OfferDMs, err)
	}
	for _, d := range []OfferDM{{1, "m1", base}, {3, "m3", base.Add(time.Minute)}, {4, "m4", base}, {6, "m6", base}} {
		if !m.RecordAsked(d) {
			t.Errorf("RecordAsked(%v) changed nothing", d)
		}
	}
	if m.RecordAsked(OfferDM{6, "m6", base}) {
		t.Error("RecordAsked of the same DM again changed something")
	}
	want := []OfferDM{{3, "m3", base.Add(time.Minute)}, {4, "m4", base}, {6, "m6", base}}
	if !slices.Equal(m.OfferDMs, want) {
		t.Fatalf("kept %v, want %v", m.OfferDMs, want)
	}
	if data, err = encodeMatch(m); err != nil {
		t.Fatal(err)
	}
	got, err := decodeMatch(data)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.OfferDMs, want) {
		t.Errorf("read back %v, want %v", got.OfferDMs, want)
	}
	if d, ok := got.AskedDM(1); ok {
		t.Errorf("the DM of the draw offer replaced is still kept: %v", d)
	}
}

// TestRecordAskedKeepsTheReplaced: a proposal to pause made again for other
// days replaces the one standing, whose DM is edited after the new one's
// is delivered: its record is kept until then, and no longer once a later
// proposal was asked about.
func TestRecordAskedKeepsTheReplaced(t *testing.T) {
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		log  []Action
		want []int // the offers whose DMs are kept after each is recorded in turn
	}{
		{"made again", []Action{
			{Kind: ActOfferPause, Side: game.Red, Days: 3}, // 1
			{Kind: ActOfferPause, Side: game.Red, Days: 5}, // 2: replaces 1
		}, []int{1, 2}},
		{"made again twice", []Action{
			{Kind: ActOfferPause, Side: game.Red, Days: 3}, // 1
			{Kind: ActOfferPause, Side: game.Red, Days: 5}, // 2: replaces 1
			{Kind: ActOfferPause, Side: game.Red, Days: 7}, // 3: replaces 2
		}, []int{2, 3}},
		{"declined, then made again", []Action{
			{Kind: ActOfferPause, Side: game.Red, Days: 3}, // 1
			{Kind: ActDeclinePause, Side: game.Blue},       // 2
			{Kind: ActOfferPause, Side: game.Red, Days: 5}, // 3
		}, []int{3}},
		{"lapsed by a move, then made again", []Action{
			{Kind: ActOfferPause, Side: game.Red, Days: 3}, // 1
			{Kind: ActMove, Side: game.Blue},               // 2
			{Kind: ActOfferPause, Side: game.Red, Days: 5}, // 3
		}, []int{3}},
		{"draw offers are never made again as they stand", []Action{
			{Kind: ActOfferDraw, Side: game.Red},    // 1
			{Kind: ActDeclineDraw, Side: game.Blue}, // 2
			{Kind: ActOfferDraw, Side: game.Red},    // 3
		}, []int{3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := setupMatch(base)
			m.Phase = PhasePlaying
			m.Log = tc.log
			for i, a := range tc.log {
				if a.Kind == ActOfferPause || a.Kind == ActOfferDraw {
					m.RecordAsked(OfferDM{Offer: i + 1, Message: fmt.Sprint("m", i+1), At: base})
				}
			}
			var got []int
			for _, d := range m.OfferDMs {
				got = append(got, d.Offer)
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("kept the DMs of offers %v, want %v", got, tc.want)
			}
		})
	}
}
