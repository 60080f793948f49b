// Command strategolab is the computer's lab: it measures the computer
// players of strategobot against each other and against outside programs.
//
//	strategolab arena -a L -b L -n GAMES  play computer players against each other
//	strategolab compare DIR [DIR2 ...]    score arena runs, pair two runs game by game
//	strategolab agent -level L            play one game over the UCC protocol on stdin and stdout
//	strategolab movetime RECORD...        time the computer's choice of a move on positions of games
//	strategolab habits RECORD...          how the players of game records use their pieces
//	strategolab demon-setups -o FILE RECORD...  unpublished set-ups as Demon of Ignorance's set-up file
//	strategolab swiss-reference -bbp PATH  how often Swiss pairings agree with bbpPairings (FIDE's Dutch system)
//	strategolab help [COMMAND]            list the commands, or describe one
//
// docs/COMPUTER.md tells how the computer plays and how it is measured.
package main

import (
	"errors"
	"flag"
	"io"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/cli"
	"github.com/strategobot/strategobot/internal/lab/beliefs"
	"github.com/strategobot/strategobot/internal/lab/moves"
)

// program is strategolab's command line. A new tool of the lab is one more
// entry of Commands.
func program() *cli.Program {
	return &cli.Program{
		Name:     "strategolab",
		Synopsis: []string{"strategolab COMMAND [arguments]"},
		Commands: []cli.Command{
			{Name: "arena", Summary: "play computer players against each other and report the results",
				Flags: func(w io.Writer) *flag.FlagSet { return arenaFlags(new(arenaConfig), w) }, Run: runArena},
			{Name: "compare", Summary: "score arena runs from their records, pair two runs game by game (-battles: where the material went)",
				Flags: func(w io.Writer) *flag.FlagSet { return compareFlags(new(compareOptions), w) }, Operands: compareOperands, Run: runCompare},
			{Name: "agent", Summary: "play one game as a program of the UCC Stratego protocol on stdin and stdout",
				Flags: func(w io.Writer) *flag.FlagSet { return agentFlags(new(agentConfig), w) }, Run: runAgent},
			{Name: "movetime", Summary: "time the computer's choice of a move on positions of game records",
				Flags: func(w io.Writer) *flag.FlagSet { return movetimeFlags(new(movetimeConfig), w) }, Operands: atLeastOneRecord, Run: runMovetime},
			{Name: "habits", Summary: "how the players of game records use their pieces: moved, unseen, never moved, attacks",
				Flags: func(w io.Writer) *flag.FlagSet { return habitsFlags(new(string), w) }, Operands: atLeastOneRecord, Run: runHabits},
			{Name: "beliefs", Summary: "score hard's beliefs about hidden pieces on Gravon records, with and without the behaviour model",
				Flags: beliefs.RunFlags, Operands: atLeastOneRecord, Run: beliefs.Run},
			{Name: "demon-setups", Summary: "write the unpublished Classic set-ups of Gravon records as a set-up file of Demon of Ignorance",
				Flags: func(w io.Writer) *flag.FlagSet { return demonSetupsFlags(new(string), new(bool), new(int), w) }, Operands: anyRecords, Interleaved: true, Run: runDemonSetups},
			{Name: "fit-behaviour", Summary: "refit the behaviour model's weights on Gravon records (never the held-out months)",
				Flags: beliefs.FitFlags, Operands: atLeastOneRecord, Run: beliefs.Fit},
			{Name: "fit-moves", Summary: "refit the model of people's moves on Gravon records (never the held-out months)",
				Flags: moves.Flags, Operands: atLeastOneRecord, Run: moves.Fit},
			{Name: "swiss-reference", Summary: "how often the Swiss pairings agree with bbpPairings, an implementation of FIDE's Dutch system",
				Flags: func(w io.Writer) *flag.FlagSet { return swissRefFlags(new(swissRefConfig), w) }, Run: runSwissRef},
		},
		Footer: "The computer's lab: docs/COMPUTER.md tells how the computer plays and how these\n" +
			"tools measure it.\n",
	}
}

func main() { cli.Main(program().Dispatch) }

// parseRecordArgs parses the command line of a command on Gravon records:
// its flags (into fs), one or more record files, and the variant named by
// variantName. Given -h or a bad command line it writes the usage and
// returns ok false with the command's exit code.
func parseRecordArgs(fs *flag.FlagSet, args []string, variantName *string, command, usage string, stderr io.Writer) (files []string, v game.Variant, exit int, ok bool) {
	files, err := cli.ParseInterleaved(fs, args)
	if err == nil {
		err = atLeastOneRecord(len(files))
	}
	if err == nil {
		v, err = game.ParseVariant(*variantName)
	}
	if err != nil {
		return nil, 0, cli.UsageFailed(stderr, "strategolab "+command, usage, err), false
	}
	return files, v, 0, true
}

// anyRecords takes any number of records: a command that may make its
// input itself (demon-setups -random) checks them when it runs.
func anyRecords(int) error { return nil }

// atLeastOneRecord checks that a command on Gravon records is given some.
func atLeastOneRecord(n int) error {
	if n < 1 {
		return errors.New("name one or more Gravon records: zip archives or XML files")
	}
	return nil
}
