// Package logsafe keeps a match's secrets out of log lines. Hidden
// information is the product's security model, and the operator who reads
// the logs may be a player (or play against the computer, whose pieces are
// its own secret): a hidden rank, a set-up, or a square that tells which
// piece moved must never reach a log, not even on a path taken only by a
// bug.
//
// Err turns an error that may carry such secrets into one whose text keeps
// only its kind; Panic describes a recovered panic by what the source code
// says, not by what the program computed; Handler applies Err to every error
// a logger is given, so that a call site that forgets stays safe.
package logsafe

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"runtime"
	"strings"

	"github.com/strategobot/strategobot/game"
)

// secretKinds are the errors whose texts are written from a game's
// contents: the rules engine's reasons name the mover's own pieces and the
// squares they stand on, set-up reasons count ranks and quote what a player
// typed, a view's inconsistency names ranks, and the pictures' input errors
// name the rank on a square. Any error whose chain holds one of them keeps
// none of its text, its wrappers' included, since a wrapper may quote the
// same data ("more Marshals than the army holds: the view is inconsistent").
var secretKinds = []struct {
	is   func(error) bool
	kind error
}{
	{func(err error) bool { return errors.Is(err, game.ErrIllegalMove) }, game.ErrIllegalMove}, // every *game.MoveError
	{func(err error) bool { var e *game.SetupError; return errors.As(err, &e) }, errSetup},
	{func(err error) bool { var e *game.TextError; return errors.As(err, &e) }, errText},
	{func(err error) bool { return errors.Is(err, game.ErrInconsistentView) }, game.ErrInconsistentView},
	{func(err error) bool { var e writtenFromGame; return errors.As(err, &e) }, errGameData},
}

// writtenFromGame is an error of a package logsafe does not import (the
// pictures' render.ErrInvalidInput, so that storage's use of Panic does not
// link the fonts) that says its text is written from a game's contents.
type writtenFromGame interface {
	error
	WrittenFromGame()
}

// The kinds of secret-bearing errors that have no sentinel of their own.
var (
	errSetup    = errors.New("invalid set-up")
	errText     = errors.New("refused text (a piece, an army or rules a player gave)")
	errGameData = errors.New("invalid input written from a game's contents")
)

// Withheld is an error whose details were withheld from the log: its text is
// its kind alone. It unwraps to the kind, so that errors.Is still tells an
// illegal move from an invalid set-up.
type Withheld struct{ Kind error }

func (w *Withheld) Error() string {
	return w.Kind.Error() + " (details withheld: they may show hidden pieces)"
}

func (w *Withheld) Unwrap() error { return w.Kind }

// Err returns err as it may be logged: err itself when nothing in its chain
// is written from a game's contents (storage, Discord and network errors,
// whose texts name ids, versions and public moves), else a *Withheld with its
// kind; an error that quotes a URL holding an interaction's token, with the
// token masked. Storage's own errors about a record that does not replay are safe by
// storage's contract: they say which public action failed, never why.
func Err(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := err.(*Withheld); ok {
		return err
	}
	for _, k := range secretKinds {
		if k.is(err) {
			return &Withheld{Kind: k.kind}
		}
	}
	if _, ok := err.(*masked); !ok && tokenInURL.MatchString(err.Error()) {
		return &masked{text: tokenInURL.ReplaceAllString(err.Error(), "${1}xxxxx"), err: err}
	}
	return err
}

// tokenInURL matches the token in the path of an interaction's callback or
// of its webhook (/interactions/ID/TOKEN/callback, /webhooks/APP/TOKEN/…),
// which an error of the network quotes with the request's URL (a request
// cut when the bot stops, or timed out). For 15 minutes the token lets
// whoever holds it read and edit the bot's answers to that member, a
// private board and its ranks among them.
var tokenInURL = regexp.MustCompile(`(/(?:interactions|webhooks)/[0-9]+/)[^/?#"\s]+`)

// masked is an error whose text is its own with the tokens of its URLs
// masked (xxxxx); it unwraps to the error.
type masked struct {
	text string
	err  error
}

func (m *masked) Error() string { return m.text }
func (m *masked) Unwrap() error { return m.err }

// Report is a recovered panic as it may be logged. Its LogValue is a group:
// kind, at (the function and file:line that panicked) and stack (the
// goroutine's frames, a function and file:line each).
type Report struct {
	Kind  string
	At    string
	Stack []string
}

// LogValue lets a Report be one attribute: "panic", logsafe.Panic(r).
func (r Report) LogValue() slog.Value {
	return slog.GroupValue(slog.String("kind", r.Kind), slog.String("at", r.At), slog.String("stack", strings.Join(r.Stack, "\n")))
}

// Panic describes r, recovered by the deferred function that calls Panic.
//
// A panic's value and a stack trace's argument words are whatever the
// program held when it failed: a rank, a square, a set-up row, a pointer to
// a game. What the source code says is safe, since anyone may read it. So
// the report keeps the panic's kind (its type, and for a runtime error its
// message with every number masked), the function and file:line that
// panicked, and each frame's function and file:line, built from the program
// counters rather than from runtime/debug.Stack's text, so that no argument
// is ever written. A string or a custom value is known by its type alone:
// file:line points at the panic call, whose message is in the source.
//
// A Report that is itself panicked (to carry a panic from the goroutine it
// happened on to the one that recovers it) is returned as it is: it tells
// where the first panic happened.
func Panic(r any) Report {
	if rep, ok := r.(Report); ok {
		return rep
	}
	pcs := make([]uintptr, 64)
	n := runtime.Callers(2, pcs) // from Panic's caller, the deferred function
	frames := runtime.CallersFrames(pcs[:n])
	var all []runtime.Frame
	for {
		f, more := frames.Next()
		all = append(all, f)
		if !more {
			break
		}
	}
	// The panicking function is the first one outside the runtime after
	// runtime.gopanic (a runtime error passes through runtime.panicIndex and
	// the like on its way). Called without a panic, the stack is the caller's.
	start := 0
	for i, f := range all {
		if f.Function == "runtime.gopanic" {
			start = i + 1
			for start < len(all) && strings.HasPrefix(all[start].Function, "runtime.") {
				start++
			}
			break
		}
	}
	rep := Report{Kind: panicKind(r)}
	for _, f := range all[start:] {
		rep.Stack = append(rep.Stack, fmt.Sprintf("%s (%s:%d)", f.Function, f.File, f.Line))
	}
	if len(rep.Stack) > 0 {
		rep.At = rep.Stack[0]
	}
	return rep
}

// numbers are masked in a runtime error's message: an index or a length
// ("index out of range [57] with length 40") may be a square or a count of
// pieces.
var numbers = regexp.MustCompile(`[0-9]+`)

// panicKind words a panic's value by what the code says of it.
func panicKind(r any) string {
	switch v := r.(type) {
	case runtime.Error:
		return "runtime error: " + numbers.ReplaceAllString(strings.TrimPrefix(v.Error(), "runtime error: "), "N")
	case *Withheld:
		return v.Error()
	case error:
		if w, ok := Err(v).(*Withheld); ok {
			return w.Error()
		}
	}
	return fmt.Sprintf("a value of type %T", r)
}

// Handler wraps h so that every error attribute, in groups and in
// attributes added with With too, passes through Err before h sees it. It
// remains an error, so that h's own ReplaceAttr still finds it.
func Handler(h slog.Handler) slog.Handler {
	if _, ok := h.(handler); ok {
		return h
	}
	return handler{h}
}

type handler struct{ inner slog.Handler }

func (h handler) Enabled(ctx context.Context, l slog.Level) bool { return h.inner.Enabled(ctx, l) }

func (h handler) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, r.Message, r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(safeAttr(a))
		return true
	})
	return h.inner.Handle(ctx, out)
}

func (h handler) WithAttrs(as []slog.Attr) slog.Handler {
	safe := make([]slog.Attr, len(as))
	for i, a := range as {
		safe[i] = safeAttr(a)
	}
	return handler{h.inner.WithAttrs(safe)}
}

func (h handler) WithGroup(name string) slog.Handler { return handler{h.inner.WithGroup(name)} }

// safeAttr is a with its errors, at any depth of groups, passed through Err.
// A LogValuer is resolved first: it may yield an error or a group.
func safeAttr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindAny:
		if err, ok := v.Any().(error); ok {
			return slog.Any(a.Key, Err(err))
		}
	case slog.KindGroup:
		group := v.Group()
		safe := make([]slog.Attr, len(group))
		for i, g := range group {
			safe[i] = safeAttr(g)
		}
		return slog.Attr{Key: a.Key, Value: slog.GroupValue(safe...)}
	}
	return slog.Attr{Key: a.Key, Value: v}
}
