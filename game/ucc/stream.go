package ucc

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/strategobot/strategobot/game"
)

// Writer writes the manager's messages to a program. Every message is
// flushed whole, so a program never waits for half a board.
type Writer struct {
	w *bufio.Writer
}

// NewWriter returns a Writer to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: bufio.NewWriter(w)} }

func (w *Writer) lines(lines ...string) error {
	for _, l := range lines {
		w.w.WriteString(l)
		w.w.WriteByte('\n')
	}
	return w.w.Flush()
}

// Hello asks for the program's set-up.
func (w *Writer) Hello(h Hello) error { return w.lines(h.String()) }

// Start opens Red's first turn; the board follows.
func (w *Writer) Start() error { return w.lines(Start) }

// Report tells a program how a move went.
func (w *Writer) Report(r Report) error { return w.lines(r.String()) }

// Board sends the board as v's viewer sees it, which asks that player for a move.
func (w *Writer) Board(v *game.View) error {
	b, err := FormatBoard(v)
	if err != nil {
		return err
	}
	return w.lines(b[:]...)
}

// Quit ends the game with the result after QUIT, if any.
func (w *Writer) Quit(result string) error { return w.lines(QuitLine(result)) }

// Reader reads lines, without their line ends.
type Reader struct {
	r *bufio.Reader
}

// NewReader returns a Reader of r.
func NewReader(r io.Reader) *Reader { return &Reader{r: bufio.NewReader(r)} }

// maxLine bounds a line, so that a runaway program cannot fill the memory.
const maxLine = 4096

// Line returns the next line without "\n" or "\r\n". A last line without a
// line end counts; after it Line returns io.EOF.
func (r *Reader) Line() (string, error) {
	var b []byte
	for {
		chunk, err := r.r.ReadSlice('\n')
		b = append(b, chunk...)
		if len(b) > maxLine {
			return "", protocolError("a line longer than %d bytes", maxLine)
		}
		switch {
		case err == nil:
			return strings.TrimRight(string(b), "\r\n"), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(b) > 0:
			return strings.TrimRight(string(b), "\r"), nil
		}
		return "", err
	}
}

// A Player is the engine behind a program: it sets up and chooses moves.
type Player interface {
	// Setup returns the set-up for the game the hello opens.
	Setup(h Hello) (game.Setup, error)
	// Move returns the move to play in v, the view of the side to move.
	// An error wrapping game.ErrGameOver makes the program surrender.
	Move(v game.View) (game.Move, error)
}

// Play is a program: it speaks for p, reading the manager's lines from r and
// writing p's answers to w, until QUIT, whose result it returns. The game is
// played by rules (which must fill the zones, as Classic does); p sees the
// game through a view that Follow keeps from the reports, and Play checks
// every board the manager sends against that view. Play fails when the input
// ends before QUIT, when the manager breaks the protocol, and when p fails.
func Play(r io.Reader, w io.Writer, rules game.Rules, p Player) (string, error) {
	in, out := NewReader(r), bufio.NewWriter(w)
	send := func(lines ...string) error {
		for _, l := range lines {
			out.WriteString(l)
			out.WriteByte('\n')
		}
		return out.Flush()
	}
	read := func(what string) (string, error) {
		line, err := in.Line()
		if errors.Is(err, io.EOF) {
			return "", fmt.Errorf("the input ended while waiting for %s: %w", what, io.ErrUnexpectedEOF)
		}
		return line, err
	}

	line, err := read("the first line")
	if err != nil {
		return "", err
	}
	if result, ok := IsQuit(line); ok {
		return result, nil
	}
	h, err := ParseHello(line)
	if err != nil {
		return "", err
	}
	if h.Width != Size || h.Height != Size {
		return "", fmt.Errorf("the board is %d by %d; only the 10 by 10 board of Classic is played", h.Width, h.Height)
	}
	setup, err := p.Setup(h)
	if err != nil {
		return "", fmt.Errorf("setting up: %w", err)
	}
	view, err := NewView(rules, h.Side, setup)
	if err != nil {
		return "", err
	}
	rows, err := FormatSetup(h.Side, setup)
	if err != nil {
		return "", err
	}
	if err := send(rows[:]...); err != nil {
		return "", err
	}
	var sent string // our last move, until its report comes
	for {
		line, err := read("a report or QUIT")
		if err != nil {
			return "", err
		}
		if result, ok := IsQuit(line); ok {
			return result, nil
		}
		if strings.TrimSpace(line) == Start {
			if view.Ply() != 0 || h.Side != game.Red {
				return "", protocolError("START after the first move or to Blue")
			}
		} else {
			rep, err := ParseReport(line)
			if err != nil {
				return "", err
			}
			switch {
			case sent == "" && view.ToMove == h.Side:
				return "", protocolError("the report %q is of a move we did not make", line)
			case sent != "":
				if own, _ := FormatMove(rep.Move); view.ToMove != h.Side || own != sent {
					return "", protocolError("the report %q is not of our move %q", line, sent)
				}
				sent = ""
			}
			if err := Follow(&view, rep); err != nil {
				return "", err
			}
		}
		if view.ToMove != h.Side {
			continue
		}
		want, err := FormatBoard(&view)
		if err != nil {
			return "", err
		}
		for y := range want {
			got, err := read("the board")
			if err != nil {
				return "", err
			}
			if got != want[y] {
				return "", protocolError("board line %d is %q, but the moves so far give %q", y+1, got, want[y])
			}
		}
		m, err := p.Move(view)
		switch {
		case errors.Is(err, game.ErrGameOver):
			if err := send(Surrender); err != nil {
				return "", err
			}
			continue
		case err != nil:
			return "", fmt.Errorf("choosing move %d: %w", view.Ply()+1, err)
		}
		if sent, err = FormatMove(m); err != nil {
			return "", err
		}
		if err := send(sent); err != nil {
			return "", err
		}
	}
}
