package discordtest

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// sink is an owner of a server that is not a test, as a command running
// the stand-in has: it keeps what it is told and runs its clean-ups when
// asked.
type sink struct {
	mu       sync.Mutex
	errors   []string
	cleanups []func()
}

func (s *sink) Helper() {}

func (s *sink) Errorf(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.errors = append(s.errors, fmt.Sprintf(format, args...))
}

func (s *sink) Fatalf(format string, args ...any) { s.Errorf(format, args...) }

func (s *sink) Cleanup(f func()) { s.cleanups = append(s.cleanups, f) }

func (s *sink) close() {
	for i := len(s.cleanups) - 1; i >= 0; i-- {
		s.cleanups[i]()
	}
}

// TestOwnerOutsideTests runs a server owned by something that is not a
// testing.TB, with the request log off and a hook instead: the hook sees
// every answered request, Requests stays empty, and what Discord would
// refuse still reaches the owner.
func TestOwnerOutsideTests(t *testing.T) {
	t.Parallel()
	owner := &sink{}
	// The server goes after the session, whose clean-up (registered later,
	// so run first) switches its reconnecting off: gone first, it would
	// cut the gateway, and discordgo would read that switch while
	// reconnecting as the clean-up wrote it.
	t.Cleanup(owner.close)
	var mu sync.Mutex
	var seen []string
	srv := New(owner, WithoutRequestLog(), WithRequestHook(func(r Request) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, fmt.Sprintf("%s %d", r.Route, r.Status))
	}))
	club := srv.AddGuild("Stratego Club")
	sess := srv.OpenSession(t)
	if _, err := sess.ChannelMessageSend(club.General().ID, "hello"); err != nil {
		t.Fatalf("send: %v", err)
	}
	_, err := sess.ChannelMessageSend(club.General().ID, strings.Repeat("x", 2001))
	if restCode(err) != discordgo.ErrCodeInvalidFormBody {
		t.Errorf("a 2,001-character message: %v; want 50035", err)
	}
	mu.Lock()
	got := strings.Join(seen, ", ")
	mu.Unlock()
	if want := "POST /channels/{channel_id}/messages 200, POST /channels/{channel_id}/messages 400"; !strings.HasSuffix(got, want) {
		t.Errorf("the hook saw %q; want it to end with %q", got, want)
	}
	if r := srv.Requests(""); len(r) != 0 {
		t.Errorf("Requests returned %d requests without a log", len(r))
	}
	owner.mu.Lock()
	errs := owner.errors
	owner.mu.Unlock()
	if len(errs) != 1 || !strings.Contains(errs[0], "2000") {
		t.Errorf("the owner was told %q; want one failure about the 2,000-character limit", errs)
	}
}
