package bot

import (
	"fmt"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// TestChannelKindsDeletedStays: a thread deleted is kept gone whatever
// was kept of it before, also nothing, and an answer Discord gave before
// the delete, kept after it (a question under way when the delete came),
// does not bring it back.
func TestChannelKindsDeletedStays(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	gone := func(c *channelKinds, channel string) bool {
		k, known, ok := c.get(channel, now)
		return ok && known && k.gone
	}
	var c channelKinds
	live := keptKind{kind: channelKind{thread: true, parent: "10"}}

	// A question under way: nothing kept yet, the delete comes, then the answer.
	c.deleted("1")
	if !gone(&c, "1") {
		t.Error("a thread deleted while nothing was kept of it is not marked gone")
	}
	c.keep("1", live)
	if !gone(&c, "1") {
		t.Error("an answer kept after the delete brought the thread back")
	}
	c.keep("1", keptKind{refused: now})
	if !gone(&c, "1") {
		t.Error("a refusal kept after the delete brought the thread back")
	}

	// Kept before the delete: marked gone.
	c.keep("2", live)
	c.deleted("2")
	if !gone(&c, "2") {
		t.Error("a thread kept, then deleted, is not marked gone")
	}
	c.keep("3", keptKind{refused: now})
	c.deleted("3")
	if !gone(&c, "3") {
		t.Error("a thread Discord refused to describe, then deleted, is not marked gone")
	}

	// The marks are bounded as the answers are.
	for n := range 2 * maxChannelKinds {
		c.deleted(string(rune('a'+n%26)) + time.Duration(n).String())
	}
	if len(c.kept) > maxChannelKinds {
		t.Errorf("%d channels kept; want at most %d", len(c.kept), maxChannelKinds)
	}
}

// TestChannelKindsRoomKeepsGone: making room for more channels forgets
// what Discord said of live ones and its refusals, not the marks of
// channels deleted: an answer asked before a delete and kept after it
// would otherwise bring the channel back. Only when the marks fill half
// of what is kept do the older of them go, the latest staying.
func TestChannelKindsRoomKeepsGone(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	var c channelKinds
	c.deleted("gone")
	c.keep("told-gone", keptKind{kind: channelKind{gone: true}}) // Discord said Unknown Channel
	for n := range maxChannelKinds {
		if n%2 == 0 {
			c.keep(fmt.Sprint("live", n), keptKind{kind: channelKind{thread: true, parent: "10"}})
		} else {
			c.keep(fmt.Sprint("refused", n), keptKind{refused: now})
		}
	}
	for _, channel := range []string{"gone", "told-gone"} {
		c.keep(channel, keptKind{kind: channelKind{thread: true, parent: "10"}}) // the answer of a question under way
		if k, known, ok := c.get(channel, now); !ok || !known || !k.gone {
			t.Errorf("%s, marked gone, then room made: kept %+v, known %v, kept at all %v; want gone", channel, k, known, ok)
		}
	}
	if len(c.kept) > maxChannelKinds {
		t.Errorf("%d channels kept; want at most %d", len(c.kept), maxChannelKinds)
	}

	// Marks alone fill the map: the older half goes, the latest stays.
	var d channelKinds
	for n := range maxChannelKinds + 1 {
		d.deleted(fmt.Sprint("mark", n))
	}
	if len(d.kept) > maxChannelKinds/2+1 {
		t.Errorf("%d marks kept once they filled the map; want the newer half, %d", len(d.kept), maxChannelKinds/2+1)
	}
	for _, n := range []int{maxChannelKinds - 1, maxChannelKinds} {
		if k, _, ok := d.get(fmt.Sprint("mark", n), now); !ok || !k.gone {
			t.Errorf("mark%d, among the latest, was forgotten", n)
		}
	}
}

// TestChannelDeletedOnlyWhenTheServerCame: a channel the bot's state does
// not hold is deleted only when the state holds its server as Discord sent
// it (GUILD_CREATE, with every channel). A server READY only named, still
// unavailable (seconds after a start, or through an outage), holds no
// channel yet, and who sees one of its channels cannot be told: taken for
// deleted, a follower of a match there was dropped for good, and a member
// was told that a match or tournament there is none.
func TestChannelDeletedOnlyWhenTheServerCame(t *testing.T) {
	state := discordgo.NewState()
	for _, g := range []*discordgo.Guild{{ID: "1", Unavailable: true}, {ID: "2"}} {
		if err := state.GuildAdd(g); err != nil {
			t.Fatal(err)
		}
	}
	b := &Bot{s: &discordgo.Session{State: state}}
	for _, tc := range []struct {
		name      string
		guild     string
		kind      channelKind
		wantKnown bool
	}{
		{"a channel of a server not yet come", "1", channelKind{}, false},
		{"a thread of a channel of a server not yet come", "1", channelKind{thread: true, parent: "10"}, false},
		{"a channel the server's state does not hold", "2", channelKind{}, true},
		{"a thread whose channel the server's state does not hold", "2", channelKind{thread: true, parent: "20"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sees, known := b.kindSeen(tc.guild, "30", tc.kind, "5", nil)
			if sees || known != tc.wantKnown {
				t.Errorf("seen %v, known %v; want not seen, known %v", sees, known, tc.wantKnown)
			}
		})
	}
}
