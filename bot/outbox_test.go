package bot

import (
	"errors"
	"net"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/storage"
)

func TestNonceOf(t *testing.T) {
	seen := map[string]bool{}
	for _, id := range []uint64{1, 35, 36, 1 << 40, ^uint64(0)} {
		for part := range 3 {
			n := nonceOf(id, part)
			if len(n) > 25 {
				t.Errorf("nonce %q is longer than Discord's 25 characters", n)
			}
			if seen[n] {
				t.Errorf("nonce %q made twice", n)
			}
			seen[n] = true
			if n != nonceOf(id, part) {
				t.Errorf("nonce of %d/%d changes between attempts", id, part)
			}
		}
	}
}

func TestClassifyDeliveryErrors(t *testing.T) {
	rest := func(status, code int, body string) error {
		e := &discordgo.RESTError{Response: &http.Response{StatusCode: status}, ResponseBody: []byte(body)}
		if code != 0 {
			e.Message = &discordgo.APIErrorMessage{Code: code}
		}
		return e
	}
	tests := []struct {
		name  string
		err   error
		want  deliveryFailure
		asked time.Duration
	}{
		{"500", rest(500, 0, ""), retryLater, 0},
		{"503", rest(503, 0, ""), retryLater, 0},
		{"504", rest(504, 0, ""), retryLater, 0},
		{"408", rest(408, 0, ""), retryLater, 0},
		{"429 with retry_after", rest(429, 0, `{"message":"You are being rate limited.","retry_after":1.5,"global":false}`), retryLater, 1500 * time.Millisecond},
		{"a rate limit discordgo gave up on", &discordgo.RateLimitError{RateLimit: &discordgo.RateLimit{TooManyRequests: &discordgo.TooManyRequests{RetryAfter: 3 * time.Second}}}, retryLater, 3 * time.Second},
		{"502s beyond discordgo's retries", errors.New("Exceeded Max retries HTTP 502 Bad Gateway, "), retryLater, 0},
		{"a timeout", &net.OpError{Op: "dial", Err: errors.New("i/o timeout")}, retryLater, 0},
		{"closed DMs", rest(403, discordgo.ErrCodeCannotSendMessagesToThisUser, ""), recipientUnreachable, 0},
		{"missing permissions", rest(403, discordgo.ErrCodeMissingPermissions, ""), recipientUnreachable, 0},
		{"missing access", rest(403, discordgo.ErrCodeMissingAccess, ""), recipientUnreachable, 0},
		{"unknown channel", rest(404, discordgo.ErrCodeUnknownChannel, ""), recipientUnreachable, 0},
		{"a locked thread", rest(403, discordgo.ErrCodeThreadIsLocked, ""), recipientUnreachable, 0},
		{"invalid form body", rest(400, 50035, ""), refused, 0},
		{"request entity too large", rest(413, 40005, ""), refused, 0},
		{"an empty message", rest(400, 50006, ""), refused, 0},
		// The token was reset: the bot stops (the gateway closes with
		// 4004), and the message goes out once it runs with the new one.
		{"401: the token was reset", rest(401, 0, `{"message": "401: Unauthorized", "code": 0}`), retryLater, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, asked := classify(tc.err)
			if got != tc.want || asked != tc.asked {
				t.Errorf("classify = %d, %v; want %d, %v", got, asked, tc.want, tc.asked)
			}
		})
	}
}

func TestBackoff(t *testing.T) {
	tests := []struct {
		attempts int
		asked    time.Duration
		want     time.Duration
	}{
		{1, 0, 2 * time.Second},
		{2, 0, 4 * time.Second},
		{5, 0, 32 * time.Second},
		{9, 0, 512 * time.Second},
		{10, 0, 10 * time.Minute},
		{1000, 0, 10 * time.Minute},
		{1, 30 * time.Second, 30 * time.Second}, // Discord asked for longer
	}
	for _, tc := range tests {
		if got := backoff(tc.attempts, tc.asked); got != tc.want {
			t.Errorf("backoff(%d, %v) = %v, want %v", tc.attempts, tc.asked, got, tc.want)
		}
	}
}

// TestSendOnce: a message sent again with the same nonce (after a timeout, or
// a crash before it was recorded as sent) is the message Discord already
// made, not a second one; another nonce makes another message.
func TestSendOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	msg := func() *discordgo.MessageSend {
		return &discordgo.MessageSend{Content: "Match #7 · the board after move 12"}
	}
	first, err := sendOnce(h.bot.s, h.channel.ID, nonceOf(7, 0), msg())
	if err != nil {
		t.Fatal(err)
	}
	again, err := sendOnce(h.bot.s, h.channel.ID, nonceOf(7, 0), msg())
	if err != nil {
		t.Fatal(err)
	}
	if first == "" || again != first {
		t.Errorf("the resend made message %q, the first was %q", again, first)
	}
	if _, err := sendOnce(h.bot.s, h.channel.ID, nonceOf(7, 1), msg()); err != nil {
		t.Fatal(err)
	}
	if n := h.channelCount("after move 12"); n != 2 {
		t.Errorf("%d messages in the channel, want 2 (one per nonce)", n)
	}
}

// TestPeopleBeforePractice: due notices of matches between people go out
// before practice matches', and practice never takes the last workers.
func TestPeopleBeforePractice(t *testing.T) {
	due := []storage.Notice{{ID: 1, Practice: true}, {ID: 2}, {ID: 3, Practice: true}, {ID: 4}}
	slices.SortStableFunc(due, peopleFirst)
	var order []uint64
	for _, n := range due {
		order = append(order, n.ID)
	}
	if !slices.Equal(order, []uint64{2, 4, 1, 3}) {
		t.Errorf("delivery order %v, want people's (2, 4) first, each kind in the store's order", order)
	}
	tests := []struct {
		busy     lanes
		practice bool
		want     bool
	}{
		{lanes{0, 0}, true, true},
		{lanes{practiceWorkers, practiceWorkers}, true, false}, // practice's share is taken
		{lanes{practiceWorkers, practiceWorkers}, false, true}, // people still get a worker
		{lanes{outboxWorkers - 1, practiceWorkers}, false, true},
		{lanes{outboxWorkers, 0}, false, false}, // every worker is busy
		{lanes{outboxWorkers - 1, 0}, true, true},
	}
	for _, tc := range tests {
		if got := tc.busy.admits(storage.Notice{Practice: tc.practice}); got != tc.want {
			t.Errorf("%+v admits a practice=%v notice: %v, want %v", tc.busy, tc.practice, got, tc.want)
		}
	}
}

// TestMadeDMs: only the creates being watched for are kept once the
// gateway says they were made, and a notice done forgets all its parts
// (not another notice's whose id starts alike).
func TestMadeDMs(t *testing.T) {
	var m madeDMs
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	m.saw(nonceOf(7, 0), "1001", at)
	if _, ok := m.madeAt(nonceOf(7, 0)); ok || len(m.watched) != 0 {
		t.Fatal("a create nobody watched for is kept")
	}
	m.expect(nonceOf(7, 0))
	m.expect(nonceOf(7, 1))
	m.expect(nonceOf(253, 0))
	if _, ok := m.madeAt(nonceOf(7, 0)); ok {
		t.Fatal("a create is made before the gateway says so")
	}
	m.saw(nonceOf(7, 0), "1001", at)
	m.saw(nonceOf(7, 0), "1001", at.Add(time.Minute)) // the same event again: the first time holds
	if got, ok := m.madeAt(nonceOf(7, 0)); !ok || !got.at.Equal(at) || got.id != "1001" {
		t.Fatalf("madeAt = %+v, %v; want message 1001 at %v", got, ok, at)
	}
	m.expect(nonceOf(7, 0)) // a retry watches again: what is known stays
	if _, ok := m.madeAt(nonceOf(7, 0)); !ok {
		t.Fatal("watching again forgot that the create was made")
	}
	m.forgetNotice(7)
	if _, ok := m.watched[nonceOf(253, 0)]; !ok || len(m.watched) != 1 {
		t.Fatalf("after notice 7 is done, watched: %v; want notice 253's part only (sb71.0)", m.watched)
	}
	m.forget(nonceOf(253, 0))
	if len(m.watched) != 0 {
		t.Fatalf("watched: %v", m.watched)
	}
}
