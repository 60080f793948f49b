package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/ai"
	"github.com/strategobot/strategobot/game/ucc"
	"github.com/strategobot/strategobot/internal/cli"
)

const agentUsage = `usage: strategolab agent [-level LEVEL] [-seed S] [-variant classic]

Plays one game of Classic Stratego as a program of the 2012 UCC Stratego
programming competition: it reads the manager's lines on standard input and
answers on standard output (the protocol is described in the documentation of
the package game/ucc), so that other tools can play the computer. It sees only
what its side may know, and keeps to the Two-Squares (3) and More-Squares
rules even when the manager does not ask it to. It exits when the manager
sends QUIT.

Flags:
`

type agentConfig struct {
	level ai.Level
	seed  uint64

	levelName, variantName string // as given on the command line
}

// agentFlags declares agent's flags into c.
func agentFlags(c *agentConfig, w io.Writer) *flag.FlagSet {
	fs := cli.NewFlagSet("agent", agentUsage, w)
	fs.StringVar(&c.levelName, "level", "hard", "random, easy, normal or hard")
	fs.Uint64Var(&c.seed, "seed", 0, "seed of the set-up and the moves (0: a new one every game)")
	fs.StringVar(&c.variantName, "variant", "classic", "the variant: the protocol knows only classic")
	return fs
}

func parseAgentArgs(args []string, help io.Writer) (agentConfig, error) {
	var c agentConfig
	if err := cli.ParseFlags(agentFlags(&c, help), args); err != nil {
		return c, err
	}
	var err error
	if c.level, err = ai.ParseLevel(c.levelName); err != nil {
		return c, fmt.Errorf("-level: %w", err)
	}
	v, err := game.ParseVariant(c.variantName)
	if err != nil {
		return c, err
	}
	if v != game.VariantClassic {
		return c, fmt.Errorf("the UCC protocol plays Classic only (a 10 by 10 board, 40 pieces a side), not %s", v)
	}
	if c.seed == 0 {
		c.seed = rand.Uint64()
	}
	return c, nil
}

// runAgent is `strategolab agent`: the computer as a UCC protocol program.
func runAgent(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c, err := parseAgentArgs(args, stdout)
	if err != nil {
		return cli.UsageFailed(stderr, "strategolab agent", agentUsage, err)
	}
	done := make(chan int, 1)
	go func() { done <- playAgent(c, os.Stdin, stdout, stderr) }()
	select {
	case code := <-done:
		return code
	case <-ctx.Done():
		fmt.Fprintln(stderr, "strategolab agent: stopped")
		return 1
	}
}

func playAgent(c agentConfig, in io.Reader, out, stderr io.Writer) int {
	rules := game.DefaultRules(game.VariantClassic)
	if _, err := ucc.Play(in, out, rules, &agentPlayer{rules: rules, c: c}); err != nil {
		fmt.Fprintf(stderr, "strategolab agent: %v\n", err)
		return 1
	}
	return 0
}

// agentPlayer is the computer behind the program.
type agentPlayer struct {
	rules game.Rules
	c     agentConfig
}

func (p *agentPlayer) Setup(ucc.Hello) (game.Setup, error) {
	return ai.Setup(p.rules, p.c.seed), nil
}

func (p *agentPlayer) Move(v game.View) (game.Move, error) {
	return ai.New(p.c.level, p.c.seed).Choose(v)
}
