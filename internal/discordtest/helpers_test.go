package discordtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// recorder is a testing.TB that keeps failures instead of failing, so that
// tests can check that the stand-in fails a test where it must.
type recorder struct {
	testing.TB
	mu    sync.Mutex
	fails []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.fails = append(r.fails, fmt.Sprintf(format, args...))
}

func (r *recorder) Error(args ...any) { r.Errorf("%s", fmt.Sprint(args...)) }

func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}

func (r *recorder) Fatal(args ...any) { r.Fatalf("%s", fmt.Sprint(args...)) }

func (r *recorder) Helper() {}

// failures returns what was recorded so far.
func (r *recorder) failures() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.fails...)
}

// wantFailure checks that some recorded failure contains every part.
func (r *recorder) wantFailure(t *testing.T, parts ...string) {
	t.Helper()
	for _, f := range r.failures() {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(f, p)
		}
		if all {
			return
		}
	}
	t.Errorf("no failure containing %q; got %q", parts, r.failures())
}

// fatal runs f in its own goroutine, as t.Fatal must end it, and returns
// what f recorded.
func fatal(t *testing.T, f func(tb testing.TB)) []string {
	t.Helper()
	rec := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(rec)
	}()
	<-done
	return rec.failures()
}

// newServer starts a server that also checks its own answers against the
// document's response schemas.
func newServer(t testing.TB, opts ...Option) *Server {
	return New(t, append([]Option{withResponseChecks()}, opts...)...)
}

// world is a server with a guild, two members and a connected bot session.
type world struct {
	srv        *Server
	guild      *Guild
	alice, bob *Member
	sess       *discordgo.Session
}

// newWorld builds a world; setup runs on the session before it opens, to
// add handlers. The bot's commands are registered before it returns.
func newWorld(t testing.TB, setup func(*discordgo.Session), opts ...Option) *world {
	t.Helper()
	srv := newServer(t, opts...)
	w := &world{srv: srv, guild: srv.AddGuild("Stratego Club")}
	w.alice = w.guild.AddMember("alice")
	w.bob = w.guild.AddMember("bob")
	w.sess = srv.NewSession(t)
	if setup != nil {
		setup(w.sess)
	}
	if err := w.sess.Open(); err != nil {
		t.Fatalf("open: %v", err)
	}
	srv.WaitReady(t)
	if _, err := w.sess.ApplicationCommandBulkOverwrite(srv.AppID(), "", testCommands()); err != nil {
		t.Fatalf("register commands: %v", err)
	}
	return w
}

// testCommands is a /stratego command shaped like the bot's.
func testCommands() []*discordgo.ApplicationCommand {
	one := 1.0
	return []*discordgo.ApplicationCommand{{
		Name:        "stratego",
		Description: "Play Stratego",
		Contexts:    &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM},
		Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "challenge", Description: "Challenge a member", Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionUser, Name: "opponent", Description: "Who", Required: true},
				{Type: discordgo.ApplicationCommandOptionString, Name: "variant", Description: "Rules", Choices: []*discordgo.ApplicationCommandOptionChoice{
					{Name: "Classic", Value: "classic"}, {Name: "Barrage", Value: "barrage"},
				}},
				{Type: discordgo.ApplicationCommandOptionInteger, Name: "days", Description: "Days per move", MinValue: &one, MaxValue: 7},
			}},
			{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "move", Description: "Move a piece", Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionString, Name: "from", Description: "From square", Required: true, Autocomplete: true},
				{Type: discordgo.ApplicationCommandOptionString, Name: "to", Description: "To square", Required: true, Autocomplete: true},
			}},
			{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "board", Description: "Show your board"},
		},
	}}
}

// respond answers every interaction with f, reporting errors on t. The
// test waits at its end for answers under way: the member may see an
// answer before the bot's request has returned, and an error reported
// after the test ended would panic.
func respond(t testing.TB, f func(*discordgo.Interaction) *discordgo.InteractionResponse) func(*discordgo.Session, *discordgo.InteractionCreate) {
	var mu sync.Mutex
	var busy sync.WaitGroup
	ended := false
	t.Cleanup(func() {
		mu.Lock()
		ended = true
		mu.Unlock()
		busy.Wait()
	})
	return func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		mu.Lock()
		if ended {
			mu.Unlock()
			return
		}
		busy.Add(1)
		mu.Unlock()
		defer busy.Done()
		r := f(ic.Interaction)
		if r == nil {
			return
		}
		if err := s.InteractionRespond(ic.Interaction, r); err != nil {
			t.Errorf("respond: %v", err)
		}
	}
}

// restCode returns the Discord error code of a discordgo error, or 0.
func restCode(err error) int {
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Message != nil {
		return re.Message.Code
	}
	return 0
}

// pngOf encodes a small image of one colour.
func pngOf(t testing.TB, w, h int, c color.Color) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// content is a message body with just text.
func content(s string) *discordgo.InteractionResponseData {
	return &discordgo.InteractionResponseData{Content: s}
}

// eventLog records every gateway event a session gets, raw, for tests of
// what the bot is told.
type eventLog struct {
	mu     sync.Mutex
	events []*discordgo.Event
}

// attach makes the log record the session's events; call before Open. The
// handlers run in the order the events came (discordgo otherwise starts a
// goroutine per event), so the log is in the gateway's order.
func (l *eventLog) attach(s *discordgo.Session) {
	s.SyncEvents = true
	s.AddHandler(func(_ *discordgo.Session, e *discordgo.Event) {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.events = append(l.events, e)
	})
}

// find returns the data of the recorded events of a type that match
// accepts (nil accepts all), oldest first.
func (l *eventLog) find(name string, match func(map[string]any) bool) []map[string]any {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []map[string]any
	for _, e := range l.events {
		if e.Type != name {
			continue
		}
		var data map[string]any
		_ = json.Unmarshal(e.RawData, &data)
		if match == nil || match(data) {
			out = append(out, data)
		}
	}
	return out
}

// waitCount waits until n events of a type that match accepts have arrived.
func (l *eventLog) waitCount(t testing.TB, srv *Server, name string, n int, match func(map[string]any) bool) {
	t.Helper()
	srv.WaitFor(t, fmt.Sprintf("%d %s events", n, name), func() bool { return len(l.find(name, match)) >= n })
}

// wait waits until an event of a type that match accepts has arrived and
// returns its data.
func (l *eventLog) wait(t testing.TB, srv *Server, name string, match func(map[string]any) bool) map[string]any {
	t.Helper()
	var got map[string]any
	srv.WaitFor(t, "a "+name+" event", func() bool {
		found := l.find(name, match)
		if len(found) > 0 {
			got = found[len(found)-1]
		}
		return got != nil
	})
	return got
}
