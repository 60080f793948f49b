package discordtest

import (
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

const messagesRoute = "POST /channels/{channel_id}/messages"

// statuses lists the statuses of the requests to a route.
func statuses(srv *Server, route string) []int {
	var out []int
	for _, r := range srv.Requests(route) {
		out = append(out, r.Status)
	}
	return out
}

// TestInjectedFaults checks 429s, 5xx answers and how discordgo copes.
func TestInjectedFaults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		inject  func(tb testing.TB, srv *Server)
		ok      bool  // the send succeeds in the end
		want    []int // statuses seen
		atLeast time.Duration
	}{
		{"one 429", func(tb testing.TB, srv *Server) { srv.RateLimitNext(tb, messagesRoute, 1, 50*time.Millisecond) },
			true, []int{429, 200}, 50 * time.Millisecond},
		{"two 502s, retried", func(tb testing.TB, srv *Server) { srv.FailNext(tb, messagesRoute, 2, http.StatusBadGateway) },
			true, []int{502, 502, 200}, 0},
		{"a 500 on any route", func(tb testing.TB, srv *Server) { srv.FailNext(tb, AnyRoute, 1, http.StatusInternalServerError) },
			false, []int{500}, 0},
		{"a slow answer", func(tb testing.TB, srv *Server) { srv.DelayNext(tb, messagesRoute, 1, 100*time.Millisecond) },
			true, []int{200}, 100 * time.Millisecond},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t, nil)
			tc.inject(t, w.srv)
			start := time.Now()
			_, err := w.sess.ChannelMessageSend(w.guild.General().ID, "hello")
			if (err == nil) != tc.ok {
				t.Errorf("send: %v", err)
			}
			if took := time.Since(start); took < tc.atLeast {
				t.Errorf("took %v, want at least %v", took, tc.atLeast)
			}
			if got := statuses(w.srv, messagesRoute); !slices.Equal(got, tc.want) {
				t.Errorf("statuses %v, want %v", got, tc.want)
			}
		})
	}
}

// TestLoseAnswerNextIn: the request is carried out (the message made, in
// the channel's history) but answered with the status injected, as a
// Discord whose answer was lost; the channel's next request is answered.
func TestLoseAnswerNextIn(t *testing.T) {
	t.Parallel()
	w := newWorld(t, nil)
	ch := w.guild.General()
	w.srv.LoseAnswerNextIn(t, messagesRoute, ch, 1, http.StatusServiceUnavailable)
	var re *discordgo.RESTError
	if _, err := w.sess.ChannelMessageSend(ch.ID, "hello"); !errors.As(err, &re) || re.Response.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("the lost answer: %v, want a 503", err)
	}
	if msgs := w.srv.ChannelMessages(ch); len(msgs) != 1 || msgs[0].Content != "hello" {
		t.Fatalf("the channel holds %d messages, want the one made", len(msgs))
	}
	if _, err := w.sess.ChannelMessageSend(ch.ID, "again"); err != nil {
		t.Fatalf("the next send: %v", err)
	}
	if got := statuses(w.srv, messagesRoute); !slices.Equal(got, []int{503, 200}) {
		t.Errorf("statuses %v, want [503 200]", got)
	}
	if got := fatal(t, func(tb testing.TB) { w.srv.LoseAnswerNextIn(tb, messagesRoute, ch, 1, http.StatusBadGateway) }); len(got) != 1 {
		t.Errorf("a lost answer as a 502, which discordgo retries: failures %q", got)
	}
}

// TestRateLimitBuckets checks the headers and that a full bucket answers
// 429 to a client that ignores them, while discordgo waits instead.
func TestRateLimitBuckets(t *testing.T) {
	t.Parallel()
	// A window long enough that three requests land in it on a busy machine.
	srv := newServer(t, WithRateLimit(2, 2*time.Second))
	ch := srv.AddGuild("g").General()
	path := "/api/v9/channels/" + ch.ID + "/messages"

	// A client that ignores the headers: the third request is refused.
	for i, want := range []int{200, 200, 429} {
		status, body := call(t, srv, "POST", path, "application/json", []byte(`{"content":"x"}`))
		if status != want {
			t.Fatalf("request %d: %d, want %d", i, status, want)
		}
		if want == 429 {
			if ra, ok := body["retry_after"].(float64); !ok || ra <= 0 || ra > 2 || body["global"] != false {
				t.Errorf("429 body %v", body)
			}
		}
	}
	// Every answer tells the bucket's state.
	req, _ := http.NewRequest("GET", "https://discord.com/api/v9/channels/"+ch.ID, nil)
	req.Header.Set("Authorization", "Bot "+srv.Token())
	req.Header.Set("User-Agent", "DiscordBot (https://example.com, 1)")
	resp, err := srv.HTTPClient().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	for _, h := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-RateLimit-Reset-After", "X-RateLimit-Bucket"} {
		if resp.Header.Get(h) == "" {
			t.Errorf("no %s header", h)
		}
	}
	if got := resp.Header.Get("X-RateLimit-Limit"); got != "2" {
		t.Errorf("X-RateLimit-Limit %q", got)
	}

	last := srv.Requests(messagesRoute)
	if len(last) != 3 || last[2].Status != 429 {
		t.Fatalf("requests %+v", last)
	}

	// discordgo reads the headers and waits for the bucket to refill. (A
	// fresh channel: buckets are per channel, and that one is empty.)
	other := srv.AddGuild("h").General()
	sess := srv.OpenSession(t)
	before := len(srv.Requests(messagesRoute))
	for range 3 {
		if _, err := sess.ChannelMessageSend(other.ID, "y"); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range srv.Requests(messagesRoute)[before:] {
		if r.Status != 200 {
			t.Errorf("discordgo hit a %d", r.Status)
		}
	}
}

// TestSlowCallbackIsLate checks that a callback delayed on its way counts
// by the time Discord gets it.
func TestSlowCallbackIsLate(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	errc := make(chan error, 1)
	w := newWorld(rec, func(s *discordgo.Session) {
		s.AddHandler(func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
			errc <- s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{Type: 4, Data: content("hi")})
		})
	}, WithResponseDeadline(100*time.Millisecond))
	w.srv.DelayNext(t, "POST /interactions/{interaction_id}/{interaction_token}/callback", 1, 250*time.Millisecond)
	in := w.alice.SlashCommand(t, w.guild.General(), "stratego board")
	if err := <-errc; restCode(err) != 10062 {
		t.Errorf("late callback: %v", err)
	}
	if r := in.Wait(t); !r.Failed || r.Error != DidNotRespond {
		t.Errorf("member sees %+v", r)
	}
	rec.wantFailure(t, "no first response within 100ms")
	rec.wantFailure(t, "Unknown interaction")
}

// TestFaultArguments checks that a route not in Discord's description is
// refused at once.
func TestFaultArguments(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	got := fatal(t, func(tb testing.TB) { srv.FailNext(tb, "POST /channels/{id}/messages", 1, 500) })
	if len(got) != 1 || !strings.Contains(got[0], "no route") {
		t.Errorf("failures %q", got)
	}
}

// TestHoldNext: a held request waits unanswered, counted as waiting, until
// the hold is released; then it is answered as usual.
func TestHoldNext(t *testing.T) {
	t.Parallel()
	w := newWorld(t, nil)
	hold := w.srv.HoldNext(t, messagesRoute, 1)
	sent := make(chan error, 1)
	go func() {
		_, err := w.sess.ChannelMessageSend(w.guild.General().ID, "hello")
		sent <- err
	}()
	w.srv.WaitFor(t, "the request to be held", func() bool { return hold.Waiting() == 1 })
	select {
	case err := <-sent:
		t.Fatalf("the held request was answered (%v)", err)
	default:
	}
	if got := len(w.srv.Requests(messagesRoute)); got != 0 {
		t.Errorf("%d requests answered while held", got)
	}
	hold.Release()
	hold.Release() // twice is harmless
	if err := <-sent; err != nil {
		t.Fatalf("after the release: %v", err)
	}
	if got := statuses(w.srv, messagesRoute); !slices.Equal(got, []int{200}) {
		t.Errorf("statuses %v, want [200]", got)
	}
	if hold.Waiting() != 0 {
		t.Errorf("%d still waiting", hold.Waiting())
	}
}

// TestRefuseNext: an injected refusal answers with Discord's status and JSON
// error body, makes nothing, and passes once its count is spent; Always
// refuses every request.
func TestRefuseNext(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		refusal Refusal
		n       int
		status  int
		code    int
		message string
		field   string // in the body's errors object
		then    bool   // the third send goes through
	}{
		{"invalid form body, twice", InvalidFormBody("content", "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length."), 2,
			400, 50035, "Invalid Form Body", `"content":{"_errors":[{"code":"BASE_TYPE_MAX_LENGTH","message":"Must be 2000 or fewer in length."}]}`, true},
		{"request entity too large, always", EntityTooLarge(), Always, 413, 40005, "Request entity too large", "", false},
		{"empty message, once", EmptyMessage(), 1, 400, 50006, "Cannot send an empty message", "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t, nil)
			w.srv.RefuseNextIn(t, messagesRoute, w.guild.General(), tc.n, tc.refusal)
			for k := range 3 {
				_, err := w.sess.ChannelMessageSend(w.guild.General().ID, "hello")
				want := k < tc.n || tc.n == Always
				var rest *discordgo.RESTError
				switch {
				case !want && err != nil:
					t.Fatalf("send %d: %v", k+1, err)
				case !want:
				case !errors.As(err, &rest) || rest.Response.StatusCode != tc.status || rest.Message == nil ||
					rest.Message.Code != tc.code || rest.Message.Message != tc.message:
					t.Fatalf("send %d: %v; want %d with code %d, %q", k+1, err, tc.status, tc.code, tc.message)
				case !strings.Contains(string(rest.ResponseBody), tc.field):
					t.Errorf("send %d: body %s lacks %s", k+1, rest.ResponseBody, tc.field)
				}
			}
			made := 0
			if tc.then {
				made = 3 - tc.n
			}
			if got := len(w.srv.ChannelMessages(w.guild.General())); got != made {
				t.Errorf("%d messages made, want %d", got, made)
			}
		})
	}
}
