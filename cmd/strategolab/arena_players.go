package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/ai"
	"github.com/strategobot/strategobot/game/ucc"
)

// extPrefix marks an arena player that is an outside program.
const extPrefix = "ext:"

// arenaSpec is one player of the arena as the command line names it: a
// level of the computer, or an outside program speaking the UCC protocol.
type arenaSpec struct {
	level   ai.Level
	command []string // the program and its arguments; empty for the computer
	text    string   // as given
}

func parseArenaSpec(text string) (arenaSpec, error) {
	if cmd, ok := strings.CutPrefix(text, extPrefix); ok {
		args, err := splitCommand(cmd)
		if err != nil {
			return arenaSpec{}, fmt.Errorf("%s: %w", text, err)
		}
		if len(args) == 0 {
			return arenaSpec{}, fmt.Errorf("%q names no program: write ext:COMMAND, such as \"ext:strategolab agent -level hard\"", text)
		}
		return arenaSpec{command: args, text: text}, nil
	}
	l, err := ai.ParseLevel(text)
	if err != nil {
		return arenaSpec{}, fmt.Errorf("%w, or ext:COMMAND for an outside program", err)
	}
	return arenaSpec{level: l, text: l.String()}, nil
}

// String is the player as the report names it.
func (s arenaSpec) String() string { return s.text }

// external reports whether the player is an outside program.
func (s arenaSpec) external() bool { return len(s.command) > 0 }

// splitCommand splits a command line into words as a POSIX shell would,
// without expanding anything: words are separated by blanks, and single
// quotes, double quotes and backslashes quote.
func splitCommand(s string) ([]string, error) {
	var (
		words   []string
		word    strings.Builder
		inWord  bool
		quote   rune // 0, '\'' or '"'
		escaped bool
	)
	for _, c := range s {
		switch {
		case escaped:
			if quote == '"' && !strings.ContainsRune("$`\"\\\n", c) {
				word.WriteRune('\\')
			}
			if c != '\n' {
				word.WriteRune(c)
			}
			escaped = false
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				word.WriteRune(c)
			}
		case c == '\\':
			escaped, inWord = true, true
		case quote == '"':
			if c == '"' {
				quote = 0
			} else {
				word.WriteRune(c)
			}
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, word.String())
				word.Reset()
				inWord = false
			}
		default:
			word.WriteRune(c)
			inWord = true
		}
	}
	switch {
	case escaped && quote == 0:
		return nil, errors.New("the command ends with a lone backslash")
	case quote != 0 || escaped:
		return nil, fmt.Errorf("the command has an unclosed %c quote", quote)
	}
	if inWord {
		words = append(words, word.String())
	}
	return words, nil
}

// arenaPlayer is one side of one arena game.
type arenaPlayer interface {
	// setup returns the player's set-up for side; opponent names the other player.
	setup(ctx context.Context, side game.Side, opponent string) (game.Setup, error)
	// move returns the player's move in v, its view of the game.
	move(ctx context.Context, v game.View) (game.Move, error)
	// tell shows the player a move, its own or the opponent's, and how it went.
	tell(rec game.MoveRecord) error
	// finish ends the game for the player; result is what the UCC protocol
	// sends after QUIT. It releases everything the player holds.
	finish(result string)
}

// arenaFault is how an outside program lost a game: a bad set-up, an
// illegal move, a timeout or a crash.
type arenaFault struct {
	kind   string // one of the fault kinds below
	detail string
}

// The kinds of faults, in the order the report lists them.
const (
	faultSetup     = "bad set-up"
	faultIllegal   = "illegal move"
	faultTimeout   = "timeout"
	faultCrash     = "crash"
	faultSurrender = "surrender"
)

var faultKinds = [...]string{faultSetup, faultIllegal, faultTimeout, faultCrash, faultSurrender}

func (f *arenaFault) Error() string { return f.kind + ": " + f.detail }

// computerPlayer is the project's computer at one level.
type computerPlayer struct {
	rules     game.Rules
	setupSeed uint64
	p         *ai.Player
}

func (c *computerPlayer) setup(context.Context, game.Side, string) (game.Setup, error) {
	return ai.Setup(c.rules, c.setupSeed), nil
}

func (c *computerPlayer) move(_ context.Context, v game.View) (game.Move, error) {
	return c.p.Choose(v)
}

func (c *computerPlayer) tell(game.MoveRecord) error { return nil }
func (c *computerPlayer) finish(string)              {}

// extPlayer is an outside program that speaks the UCC protocol on its
// standard input and output. It sees the game only through the protocol:
// its own pieces, and the ranks battles showed in the reports.
type extPlayer struct {
	rules   game.Rules
	timeout time.Duration // for each move
	// startTimeout bounds the set-up, the first answer: it includes the
	// program's own start (a JVM, a race-enabled test binary on a busy machine).
	startTimeout time.Duration
	cmd          *exec.Cmd
	stdin        io.WriteCloser
	w            *ucc.Writer
	lines        chan lineOrError
	stderr       *tailBuffer
	exited       chan struct{} // closed when the program has exited
	done         chan struct{} // closed by finish: nobody reads lines any more
	waitErr      error         // how it exited, once exited is closed
	started      bool          // START was sent
}

type lineOrError struct {
	line string
	err  error
}

// startExtPlayer starts the program. The program runs in the working directory
// of the arena and is killed when ctx ends.
func startExtPlayer(ctx context.Context, spec arenaSpec, rules game.Rules, timeout, startTimeout time.Duration) (*extPlayer, error) {
	cmd := exec.CommandContext(ctx, spec.command[0], spec.command[1:]...)
	cmd.WaitDelay = time.Second
	e := &extPlayer{rules: rules, timeout: timeout, startTimeout: startTimeout, cmd: cmd, lines: make(chan lineOrError, 16),
		stderr: &tailBuffer{max: 2048}, exited: make(chan struct{}), done: make(chan struct{})}
	cmd.Stderr = e.stderr
	var err error
	if e.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", spec, err)
	}
	e.w = ucc.NewWriter(e.stdin)
	go func() {
		r := ucc.NewReader(stdout)
		for {
			line, err := r.Line()
			select {
			case e.lines <- lineOrError{line, err}:
			case <-e.done: // the game is over: drop what it still says
			}
			if err != nil && !errors.Is(err, ucc.ErrProtocol) {
				break
			}
		}
		// Wait only after the output is read to its end, as os/exec asks.
		e.waitErr = cmd.Wait()
		close(e.exited)
	}()
	return e, nil
}

// read returns the program's next line, or a fault when it does not answer
// in time or stops.
func (e *extPlayer) read(ctx context.Context, what string, limit time.Duration, deadline <-chan time.Time) (string, error) {
	select {
	case l := <-e.lines:
		if l.err == nil {
			return l.line, nil
		}
		if errors.Is(l.err, ucc.ErrProtocol) {
			return "", &arenaFault{faultIllegal, fmt.Sprintf("%v while asked for %s", l.err, what)}
		}
		return "", e.crashed(what)
	case <-deadline:
		return "", &arenaFault{faultTimeout, fmt.Sprintf("no answer within %s while asked for %s", limit, what)}
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// crashed is the fault of a program that stopped talking.
func (e *extPlayer) crashed(what string) error {
	how := "closed its output"
	select {
	case <-e.exited:
		how = "exited"
		if e.waitErr != nil {
			how = e.waitErr.Error()
		}
	case <-time.After(time.Second):
	}
	detail := fmt.Sprintf("%s while asked for %s", how, what)
	if tail := e.stderr.lastLine(); tail != "" {
		detail += "; its last words: " + tail
	}
	return &arenaFault{faultCrash, detail}
}

// writeFault turns a failed write into the fault of a program that is gone.
func (e *extPlayer) writeFault(err error, what string) error {
	if err == nil {
		return nil
	}
	return e.crashed(what)
}

func (e *extPlayer) setup(ctx context.Context, side game.Side, opponent string) (game.Setup, error) {
	if err := e.w.Hello(ucc.NewHello(side, opponent)); err != nil {
		return game.Setup{}, e.writeFault(err, "its set-up")
	}
	deadline := time.After(e.startTimeout)
	var rows [game.SetupRows]string
	for i := range rows {
		var err error
		if rows[i], err = e.read(ctx, "its set-up", e.startTimeout, deadline); err != nil {
			return game.Setup{}, err
		}
	}
	s, err := ucc.ParseSetup(side, rows)
	if err == nil {
		err = s.Validate(e.rules)
	}
	if err != nil {
		return game.Setup{}, &arenaFault{faultSetup, fmt.Sprintf("%q: %v", strings.Join(rows[:], "/"), err)}
	}
	return s, nil
}

func (e *extPlayer) move(ctx context.Context, v game.View) (game.Move, error) {
	if !e.started && v.Ply() == 0 {
		if err := e.w.Start(); err != nil {
			return game.Move{}, e.writeFault(err, "a move")
		}
	}
	e.started = true
	if err := e.w.Board(&v); err != nil {
		return game.Move{}, e.writeFault(err, "a move")
	}
	line, err := e.read(ctx, "a move", e.timeout, time.After(e.timeout))
	if err != nil {
		return game.Move{}, err
	}
	if line == ucc.Surrender {
		return game.Move{}, &arenaFault{faultSurrender, "it surrendered"}
	}
	m, err := ucc.ParseMove(line)
	if err != nil {
		return game.Move{}, &arenaFault{faultIllegal, err.Error()}
	}
	return m, nil
}

func (e *extPlayer) tell(rec game.MoveRecord) error {
	r, err := ucc.ReportOf(rec)
	if err != nil {
		return err
	}
	e.started = true
	return e.writeFault(e.w.Report(r), "a report")
}

// finish sends QUIT, closes the program's input and gives it a second to
// exit before it is killed.
func (e *extPlayer) finish(result string) {
	close(e.done)
	e.w.Quit(result)
	e.stdin.Close()
	select {
	case <-e.exited:
	case <-time.After(time.Second):
		e.cmd.Process.Kill()
		<-e.exited
	}
}

// tailBuffer keeps the last bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

// lastLine returns the last line that is neither blank nor a line of a
// stack trace ("at …"), shortened to 200 bytes.
func (t *tailBuffer) lastLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(string(t.b), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if l == "" || strings.HasPrefix(l, "at ") {
			continue
		}
		if len(l) > 200 {
			l = l[:200] + "…"
		}
		return l
	}
	return ""
}
