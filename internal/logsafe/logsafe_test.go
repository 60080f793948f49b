package logsafe

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
)

// secretWords are what the errors below carry of a game: rank names, the
// squares of hidden pieces, and a token a player typed in a set-up.
var secretWords = []string{"Bomb", "Marshal", "Spy", "Scout", "Q7", "A1", "B1"}

// bombMove is the rules engine's refusal of Red's Bomb on A1 (Red's back
// row, which nobody sees before it moves) moving to A2: the reason names
// the Bomb, and the squares say where it stands.
func bombMove(t *testing.T) error {
	t.Helper()
	rules := game.DefaultRules(game.VariantClassic)
	red := game.RandomSetup(rules, 1)
	put(&red, 3, 0, game.Bomb) // A1
	put(&red, 3, 1, game.Marshal)
	g, err := game.NewGame(rules, red, game.RandomSetup(rules, 2))
	if err != nil {
		t.Fatal(err)
	}
	_, err = g.Apply(game.Move{From: game.SquareAt(0, 0), To: game.SquareAt(0, 1)})
	var me *game.MoveError
	if !errors.As(err, &me) || !strings.Contains(err.Error(), "Bomb") {
		t.Fatalf("moving the Bomb: %v, want the engine's refusal naming it", err)
	}
	return err
}

// put moves a piece of rank r to row, col of s, trading places with
// what stood there, so that the army stays whole.
func put(s *game.Setup, row, col int, r game.Rank) {
	for i := range s {
		for j := range s[i] {
			if s[i][j] == r && (i != row || j != col) {
				s[i][j], s[row][col] = s[row][col], s[i][j]
				return
			}
		}
	}
}

func TestErr(t *testing.T) {
	rules := game.DefaultRules(game.VariantClassic)
	short := game.RandomSetup(rules, 3)
	short[0][0] = game.NoRank // a Scout, a Bomb or the like missing
	badSetup := short.Validate(rules)
	_, badGame := game.NewGame(rules, short, game.RandomSetup(rules, 4))
	_, badRank := game.ParseRank("Q7", game.NumberingModern)
	corrupt := (&storage.Match{ID: 7, Rules: rules, Setups: [2]storage.SideSetup{
		{Setup: short, Status: storage.SetupConfirmed}, {Setup: short, Status: storage.SetupConfirmed},
	}})
	_, corruptErr := corrupt.Game()

	cases := []struct {
		name string
		err  error
		kind error // nil: the error is safe as it is
	}{
		{"a move refused", bombMove(t), game.ErrIllegalMove},
		{"a move refused, wrapped", fmt.Errorf("the computer's move in match 3: %w", bombMove(t)), game.ErrIllegalMove},
		{"a set-up refused", badSetup, errSetup},
		{"a game's set-up refused", badGame, errSetup},
		{"a piece a player typed", badRank, errText},
		{"a view that names ranks", fmt.Errorf("more Marshals than the army holds: %w", game.ErrInconsistentView), game.ErrInconsistentView},
		{"the computer's reading of its view", fmt.Errorf("reading the view: %w", fmt.Errorf("no rank left fits the piece that started on B1: %w", game.ErrInconsistentView)), game.ErrInconsistentView},
		{"a picture's input", fmt.Errorf("drawing: %w", fmt.Errorf("%w: square B1 holds side 0 rank 10 (Marshal)", render.ErrInvalidInput)), errGameData},
		{"a stale version", fmt.Errorf("match 3: %w", storage.ErrStale), nil},
		{"a record that does not replay", corruptErr, nil},
		{"the database away", errors.New("the database is away"), nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.err == nil {
				t.Fatal("the case has no error")
			}
			got := Err(c.err)
			if c.kind == nil {
				if got != c.err {
					t.Errorf("Err(%q) = %q, want it unchanged", c.err, got)
				}
				return
			}
			var w *Withheld
			if !errors.As(got, &w) || !errors.Is(got, c.kind) {
				t.Fatalf("Err(%q) = %#v, want it withheld as %q", c.err, got, c.kind)
			}
			for _, word := range secretWords {
				if strings.Contains(got.Error(), word) {
					t.Errorf("Err(%q) = %q: still says %q", c.err, got, word)
				}
			}
			if again := Err(got); again != got {
				t.Errorf("Err of a withheld error changed it: %q", again)
			}
		})
	}
	if Err(nil) != nil {
		t.Error("Err(nil) is not nil")
	}
	// The record's own text is storage's: it names the match, never the set-ups.
	if !errors.Is(corruptErr, storage.ErrCorrupt) || strings.Contains(corruptErr.Error(), "Scout") {
		t.Errorf("a stored match that does not replay: %v", corruptErr)
	}
}

// frameLine is a stack frame as Panic writes it: a function and its
// file:line, no argument.
var frameLine = regexp.MustCompile(`^\S+ \(\S+\.(go|s):\d+\)$`)

//go:noinline
func indexBySquare(pieces []game.Rank, s game.Square, setup string) game.Rank {
	return pieces[s] // out of range: the square is a hidden piece's
}

//go:noinline
func panicWith(v any, _ game.Square, _ string) { panic(v) }

// recovered runs f and returns Panic's report of its panic.
func recovered(f func()) (rep Report) {
	defer func() { rep = Panic(recover()) }()
	f()
	return Report{}
}

func TestPanic(t *testing.T) {
	secret := game.FormatSetup(game.RandomSetup(game.DefaultRules(game.VariantClassic), 5), game.NumberingModern)
	sq := game.SquareAt(7, 8) // H9: 87, in Blue's zone
	cases := []struct {
		name   string
		f      func()
		kind   string
		inFunc string // the function At names
	}{
		{"an index from game data", func() { indexBySquare(make([]game.Rank, 40), sq, secret) },
			"runtime error: index out of range [N] with length N", "indexBySquare"},
		{"a message built from game data", func() { panicWith(fmt.Sprintf("the Marshal on %s: %s", sq, secret), sq, secret) },
			"a value of type string", "panicWith"},
		{"a refused move", func() { panicWith(fmt.Errorf("playing: %w", bombMove(t)), sq, secret) },
			"illegal move (details withheld: they may show hidden pieces)", "panicWith"},
		{"a rank", func() { panicWith(game.Spy, sq, secret) }, "a value of type game.Rank", "panicWith"},
		{"a nil pointer", func() { var g *game.Game; g.Apply(game.Move{From: sq, To: sq + 1}) },
			"runtime error: invalid memory address or nil pointer dereference", "game.(*Game)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep := recovered(c.f)
			if rep.Kind != c.kind {
				t.Errorf("kind %q, want %q", rep.Kind, c.kind)
			}
			if !strings.Contains(rep.At, c.inFunc) || !strings.Contains(rep.At, ".go:") {
				t.Errorf("at %q, want %s with its file:line", rep.At, c.inFunc)
			}
			if len(rep.Stack) < 3 || !strings.Contains(strings.Join(rep.Stack, "\n"), "TestPanic") {
				t.Errorf("the stack does not reach the test:\n%s", strings.Join(rep.Stack, "\n"))
			}
			var buf bytes.Buffer
			// Without the time, whose digits ("…39.887Z") would match "87".
			noTime := &slog.HandlerOptions{ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
				if a.Key == slog.TimeKey && len(groups) == 0 {
					return slog.Attr{}
				}
				return a
			}}
			slog.New(slog.NewTextHandler(&buf, noTime)).Error("handler panicked", "panic", rep)
			logged := buf.String()
			for _, line := range rep.Stack {
				if !frameLine.MatchString(line) {
					t.Errorf("frame %q is not a function and its file:line", line)
				}
			}
			for _, leak := range []string{"87", "H9", "Marshal", "Bomb", "0x", strings.Split(secret, "\n")[0]} {
				if strings.Contains(logged, leak) {
					t.Errorf("the log line says %q:\n%s", leak, logged)
				}
			}
		})
	}
}

// logValue is a LogValuer that yields an error, as a lazily built value may.
type logValue struct{ err error }

func (v logValue) LogValue() slog.Value { return slog.AnyValue(v.err) }

func TestHandler(t *testing.T) {
	refused := bombMove(t)
	var buf bytes.Buffer
	log := slog.New(Handler(slog.NewTextHandler(&buf, nil)))
	log.With("error", refused).Warn("with")
	log.Warn("direct", "error", refused)
	log.Warn("group", slog.Group("move", "error", refused))
	log.WithGroup("g").Warn("in a group", "error", refused)
	log.Warn("a valuer", "error", logValue{refused})
	log.Warn("safe", "error", storage.ErrStale)
	out := buf.String()
	if n := strings.Count(out, "illegal move (details withheld"); n != 5 {
		t.Errorf("%d errors withheld, want 5:\n%s", n, out)
	}
	if strings.Contains(out, "Bomb") || strings.Contains(out, "A1") {
		t.Errorf("the log shows the refusal's reason:\n%s", out)
	}
	if !strings.Contains(out, storage.ErrStale.Error()) {
		t.Errorf("a safe error was withheld:\n%s", out)
	}
	if Handler(log.Handler()) != log.Handler() {
		t.Error("Handler wraps a handler twice")
	}
	// An error stays an error, for the process's ReplaceAttr (cmd/strategobot
	// rewords the API's address in errors).
	var seen error
	replace := func(_ []string, a slog.Attr) slog.Attr {
		if err, ok := a.Value.Any().(error); ok {
			seen = err
		}
		return a
	}
	slog.New(Handler(slog.NewTextHandler(&bytes.Buffer{}, &slog.HandlerOptions{ReplaceAttr: replace}))).Error("x", "error", refused)
	if !errors.Is(seen, game.ErrIllegalMove) {
		t.Errorf("the inner handler saw %#v, want the withheld error", seen)
	}
}

// TestPanicCarried: a Report panicked again on another goroutine's behalf
// still tells where the first panic happened.
func TestPanicCarried(t *testing.T) {
	first := recovered(func() { panicWith(game.Marshal, game.SquareAt(1, 6), "") })
	again := recovered(func() { panic(first) })
	if !strings.Contains(again.At, "panicWith") || again.Kind != "a value of type game.Rank" {
		t.Errorf("carried report: %+v, want panicWith's", again)
	}
}

// TestErrMasksInteractionTokens: an error of the network quotes its
// request's URL, which for an answer to a member holds the interaction's
// token: masked, the error still what it was for errors.Is and As.
func TestErrMasksInteractionTokens(t *testing.T) {
	const token = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5OnNlY3JldA-_.x"
	tests := []struct{ url, want string }{
		{"https://discord.com/api/v9/interactions/123456/" + token + "/callback", "https://discord.com/api/v9/interactions/123456/xxxxx/callback"},
		{"https://discord.com/api/v9/webhooks/987/" + token + "/messages/@original", "https://discord.com/api/v9/webhooks/987/xxxxx/messages/@original"},
		{"http://127.0.0.1:8080/api/v9/webhooks/987/" + token + "?wait=true", "http://127.0.0.1:8080/api/v9/webhooks/987/xxxxx?wait=true"},
		{"http://127.0.0.1:8080/api/v9/webhooks/987/" + token, "http://127.0.0.1:8080/api/v9/webhooks/987/xxxxx"},
	}
	for _, tc := range tests {
		cause := &url.Error{Op: "Post", URL: tc.url, Err: context.Canceled}
		err := Err(fmt.Errorf("answering: %w", cause))
		if strings.Contains(err.Error(), token) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: logged as %q, want it to hold %q", tc.url, err, tc.want)
		}
		var ue *url.Error
		if !errors.Is(err, context.Canceled) || !errors.As(err, &ue) {
			t.Errorf("%s: %v no longer wraps its cause", tc.url, err)
		}
		if again := Err(err); again.Error() != err.Error() {
			t.Errorf("%s: masked twice: %q", tc.url, again)
		}
	}
	// A channel's messages have no token in their path.
	plain := &url.Error{Op: "Post", URL: "https://discord.com/api/v9/channels/123/messages", Err: context.Canceled}
	if err := Err(plain); err != error(plain) {
		t.Errorf("%v became %v", plain, err)
	}
}
