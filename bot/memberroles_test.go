package bot

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

// TestMemberRolesKept: a member's roles are taken as Discord gave them for
// memberRolesFor and no longer (nor when the clock went back past them);
// an older answer does not replace a newer one; an interaction's roles
// refresh a member kept and add none; that they left is kept as such.
func TestMemberRolesKept(t *testing.T) {
	var c memberRoles
	if _, _, ok := c.get("g", "u", T0); ok {
		t.Fatal("an empty store has roles")
	}
	c.put("g", "u", []string{"club"}, false, T0)
	if roles, left, ok := c.get("g", "u", T0.Add(memberRolesFor-time.Second)); !ok || left || !slices.Equal(roles, []string{"club"}) {
		t.Errorf("just before memberRolesFor: %v %v %v", roles, left, ok)
	}
	for _, at := range []time.Time{T0.Add(memberRolesFor), T0.Add(-time.Second)} {
		if _, _, ok := c.get("g", "u", at); ok {
			t.Errorf("roles of %v taken at %v", T0, at)
		}
	}
	if _, _, ok := c.get("other", "u", T0); ok {
		t.Error("roles kept for another server")
	}

	c.put("g", "u", nil, false, T0.Add(-time.Minute)) // a slow question's answer
	if roles, _, _ := c.get("g", "u", T0); !slices.Equal(roles, []string{"club"}) {
		t.Errorf("an older answer replaced the roles: %v", roles)
	}
	c.refresh("g", "u", nil, T0.Add(time.Minute))
	if roles, _, ok := c.get("g", "u", T0.Add(time.Minute)); !ok || len(roles) != 0 {
		t.Errorf("an interaction's roles did not replace the kept ones: %v", roles)
	}
	c.refresh("g", "v", []string{"club"}, T0)
	if _, _, ok := c.get("g", "v", T0); ok {
		t.Error("an interaction added a member who was not kept")
	}
	c.put("g", "u", []string{"club"}, true, T0.Add(2*time.Minute))
	if roles, left, ok := c.get("g", "u", T0.Add(2*time.Minute)); !ok || !left || roles != nil {
		t.Errorf("one who left: %v %v %v", roles, left, ok)
	}

	given := []string{"club"}
	c.put("g", "w", given, false, T0)
	given[0] = "changed"
	if roles, _, _ := c.get("g", "w", T0); roles[0] != "club" {
		t.Errorf("the kept roles are the caller's slice: %v", roles)
	}
}

// TestMemberRolesBounded: no more than maxMembersKept members are kept;
// those no longer fresh go first, else the oldest.
func TestMemberRolesBounded(t *testing.T) {
	var c memberRoles
	c.put("g", "stale", nil, false, T0.Add(-memberRolesFor))
	c.put("g", "oldest", nil, false, T0)
	for k := range maxMembersKept - 2 {
		c.put("g", fmt.Sprint(k), nil, false, T0.Add(time.Second))
	}
	c.put("g", "new", nil, false, T0.Add(time.Second)) // the stale one goes
	if _, _, ok := c.get("g", "oldest", T0.Add(time.Second)); !ok {
		t.Error("a fresh member was dropped while a stale one was kept")
	}
	if n := len(c.kept); n != maxMembersKept {
		t.Errorf("%d members kept, want %d", n, maxMembersKept)
	}
	c.put("g", "newer", nil, false, T0.Add(2*time.Second)) // the oldest go
	if _, _, ok := c.get("g", "oldest", T0.Add(2*time.Second)); ok {
		t.Error("the oldest member is kept beyond the bound")
	}
	if _, _, ok := c.get("g", "newer", T0.Add(2*time.Second)); !ok {
		t.Error("the member just kept was dropped")
	}
	if n, want := len(c.kept), maxMembersKept-maxMembersKept/8+1; n != want {
		t.Errorf("%d members kept after the oldest went, want %d", n, want)
	}
	for k := range 3 * maxMembersKept {
		c.put("h", fmt.Sprint(k), nil, false, T0.Add(time.Duration(k)*time.Millisecond))
	}
	if n := len(c.kept); n > maxMembersKept {
		t.Errorf("%d members kept, more than %d", n, maxMembersKept)
	}
}

// TestMemberRolesConcurrent is for the race detector: the outbox's
// workers, interactions and questions read and write at once.
func TestMemberRolesConcurrent(t *testing.T) {
	var c memberRoles
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for k := range 500 {
				user := fmt.Sprint(k % 50)
				at := T0.Add(time.Duration(k) * time.Second)
				switch w {
				case 0:
					c.put("g", user, []string{"club"}, false, at)
				case 1:
					c.refresh("g", user, nil, at)
				default:
					if roles, _, ok := c.get("g", user, at); ok {
						_ = slices.Contains(roles, "club")
					}
				}
			}
		})
	}
	wg.Wait()
}

// TestMemberAskedKeepsOnlyKeptMembers: hasLeft's question about a member
// (a tournament player's, a seeker's) does not add them to the members
// whose roles are kept, who would then be mostly members following
// nothing; of a member kept already (a follower), its answer replaces
// what is kept: that they left.
func TestMemberAskedKeepsOnlyKeptMembers(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := t.Context()
	if h.bot.hasLeft(ctx, h.guild.ID, h.carol.ID) {
		t.Fatal("carol, a member, has left")
	}
	if _, _, ok := h.bot.roles.get(h.guild.ID, h.carol.ID, h.clock.Now()); ok {
		t.Error("hasLeft's answer about carol, who follows nothing, was kept")
	}
	if sees, known := h.bot.userSees(ctx, h.guild.ID, h.channel.ID, h.bob.ID); !sees || !known {
		t.Fatalf("bob does not see the channel: %v %v", sees, known)
	}
	if _, left, ok := h.bot.roles.get(h.guild.ID, h.bob.ID, h.clock.Now()); !ok || left {
		t.Fatalf("a follower's roles were not kept: %v %v", left, ok)
	}
	h.guild.RemoveMember(h.bob)
	if !h.bot.hasLeft(ctx, h.guild.ID, h.bob.ID) {
		t.Fatal("bob, removed, has not left")
	}
	if _, left, ok := h.bot.roles.get(h.guild.ID, h.bob.ID, h.clock.Now()); !ok || !left {
		t.Errorf("hasLeft's answer did not replace the follower's roles kept: left %v, kept %v", left, ok)
	}
}
