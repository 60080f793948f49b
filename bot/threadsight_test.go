package bot

import (
	"testing"
	"time"
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
