package main

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/cli"
)

const replayUsage = `usage: strategobot replay [-two-squares 3|5|off] [-more-squares on|off] FILES...

Replays Gravon game records (zip archives of XML files, or XML files) with the
rules engine and prints one line per disagreement:

  FILE: move N SRC-DST: reason     the engine refuses a recorded move
  FILE: result X, recorded Y       the engine ends the game differently

then a summary, and the reasons why records were skipped, with their counts.
FILE is the zip path + "/" + the entry name, or the XML path. Records in an
archive that are not readable are reported on stderr and counted as skipped;
a file given that is no Gravon record at all (not a <stratego> XML document,
or a zip archive with no .xml file in it) is an input error.

The rules are each variant's defaults (Two-Squares 3, More-Squares on, the ISF
rules); a record written by this bot is replayed with the rules it states. The
flags override both.

Exit code: 0 no disagreement, 1 some disagreement, 2 usage or input error.
It reads no environment variable.

Flags (before, between or after the files):
`

// replayConfig is the parsed command line.
type replayConfig struct {
	twoSquares  *int  // nil: not given
	moreSquares *bool // nil: not given
	files       []string

	twoName, moreName string // as given on the command line
}

// rulesFor returns the rules to replay rec with.
func (c replayConfig) rulesFor(rec *game.Record) game.Rules {
	rules := game.DefaultRules(rec.Rules.Variant)
	if rec.RulesStated {
		rules = rec.Rules
	}
	rules.Army = rec.Rules.Army
	if c.twoSquares != nil {
		rules.TwoSquares = *c.twoSquares
	}
	if c.moreSquares != nil {
		rules.MoreSquares = *c.moreSquares
	}
	return rules
}

// replayFlags declares replay's flags into c; -h prints the usage to w.
func replayFlags(c *replayConfig, w io.Writer) *flag.FlagSet {
	fs := cli.NewFlagSet("replay", replayUsage, w)
	fs.StringVar(&c.twoName, "two-squares", "3", "Two-Squares rule: 3, 5 or off")
	fs.StringVar(&c.moreName, "more-squares", "on", "More-Squares rule: on or off")
	return fs
}

// parseReplayArgs reads the flags, which may come before, between or after the files.
// -h prints the usage to help.
func parseReplayArgs(args []string, help io.Writer) (replayConfig, error) {
	var cfg replayConfig
	fs := replayFlags(&cfg, help)
	var err error
	if cfg.files, err = cli.ParseInterleaved(fs, args); err != nil {
		return cfg, err
	}
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "two-squares":
			var n int
			switch strings.ToLower(cfg.twoName) {
			case "3":
				n = 3
			case "5":
				n = 5
			case "off", "0":
				n = 0
			default:
				err = fmt.Errorf("-two-squares is 3, 5 or off, not %q", cfg.twoName)
			}
			cfg.twoSquares = &n
		case "more-squares":
			var on bool
			switch strings.ToLower(cfg.moreName) {
			case "on", "true", "1":
				on = true
			case "off", "false", "0":
				on = false
			default:
				err = fmt.Errorf("-more-squares is on or off, not %q", cfg.moreName)
			}
			cfg.moreSquares = &on
		}
	})
	if err != nil {
		return cfg, err
	}
	if err := replayOperands(len(cfg.files)); err != nil {
		return cfg, err
	}
	return cfg, nil
}

// replayOperands checks the number of files given.
func replayOperands(n int) error {
	if n == 0 {
		return errors.New("no files given")
	}
	return nil
}

// replayJob is one record to replay: an XML file, or an entry of a zip archive.
type replayJob struct {
	name string
	open func() (io.ReadCloser, error)
}

// replayOutcome is what became of one record.
type replayOutcome struct {
	disagreement string // the line to print, without the file name
	skip         string // the skip reason
	detail       string // for an unreadable record: the error, printed on stderr
}

// runReplay replays Gravon records and reports every disagreement with the rules engine.
func runReplay(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "help" {
		args = []string{"-h"}
	}
	cfg, err := parseReplayArgs(args, stdout)
	if err != nil {
		return cli.UsageFailed(stderr, "strategobot replay", replayUsage, err)
	}
	var jobs []replayJob
	for _, path := range cfg.files {
		more, closeFn, err := listRecords(path)
		if err != nil {
			fmt.Fprintf(stderr, "strategobot replay: %v\n", err)
			return 2
		}
		defer closeFn()
		jobs = append(jobs, more...)
	}
	outcomes := make([]replayOutcome, len(jobs))
	work := make(chan int)
	var wg sync.WaitGroup
	for range max(1, runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				outcomes[i] = replayOne(cfg, jobs[i])
			}
		}()
	}
feed:
	for i := range jobs {
		select {
		case work <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(work)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		fmt.Fprintf(stderr, "strategobot replay: %v\n", err)
		return 1
	}

	var agree, disagree, skipped int
	skips := map[string]int{}
	for i, o := range outcomes {
		switch {
		case o.disagreement != "":
			disagree++
			fmt.Fprintf(stdout, "%s: %s\n", jobs[i].name, o.disagreement)
		case o.skip != "":
			skipped++
			skips[o.skip]++
			if o.detail != "" {
				fmt.Fprintf(stderr, "%s: %s\n", jobs[i].name, o.detail)
			}
		default:
			agree++
		}
	}
	fmt.Fprintf(stdout, "%d games, %d agree, %d disagree, %d skipped\n", len(jobs), agree, disagree, skipped)
	reasons := make([]string, 0, len(skips))
	for r := range skips {
		reasons = append(reasons, r)
	}
	// Most frequent first; ties by name, so the output is the same every run.
	sort.Slice(reasons, func(i, j int) bool {
		if skips[reasons[i]] != skips[reasons[j]] {
			return skips[reasons[i]] > skips[reasons[j]]
		}
		return reasons[i] < reasons[j]
	})
	for _, r := range reasons {
		fmt.Fprintf(stdout, "  skipped %d: %s\n", skips[r], r)
	}
	if disagree > 0 {
		return 1
	}
	return 0
}

// listRecords returns the records in a zip archive (every .xml entry, in
// archive order) or the XML file itself, and a function that closes the archive.
func listRecords(path string) ([]replayJob, func(), error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	if info, err := f.Stat(); err == nil && info.IsDir() {
		f.Close()
		return nil, nil, folderOperand(path)
	}
	var magic [4]byte
	n, _ := io.ReadFull(f, magic[:])
	if !bytes.Equal(magic[:n], []byte("PK\x03\x04")) && !bytes.Equal(magic[:n], []byte("PK\x05\x06")) {
		defer f.Close()
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		if err := sniffGravon(f); err != nil {
			return nil, nil, fmt.Errorf("%s is not a Gravon record (%v); give zip archives of Gravon games or their XML files", path, err)
		}
		return []replayJob{{name: path, open: func() (io.ReadCloser, error) { return os.Open(path) }}}, func() {}, nil
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	zr, err := zip.NewReader(f, info.Size())
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	var jobs []replayJob
	for _, e := range zr.File {
		if e.FileInfo().IsDir() || !strings.EqualFold(pathExt(e.Name), ".xml") {
			continue
		}
		// zip.File.Open may be called from several goroutines at once.
		jobs = append(jobs, replayJob{name: path + "/" + e.Name, open: e.Open})
	}
	if len(jobs) == 0 {
		f.Close()
		return nil, nil, fmt.Errorf("%s holds no Gravon records (no .xml file in the archive)", path)
	}
	return jobs, func() { f.Close() }, nil
}

// folderOperand is the error of a folder given to replay, which reads
// files: it says to give the folder's records instead, as a pattern the
// shell expands, for the kinds of file the folder holds.
func folderOperand(dir string) error {
	entries, _ := os.ReadDir(dir)
	var patterns []string
	for _, ext := range []string{".zip", ".xml"} {
		for _, e := range entries {
			if !e.IsDir() && strings.EqualFold(pathExt(e.Name()), ext) {
				patterns = append(patterns, filepath.Join(dir, "*"+ext))
				break
			}
		}
	}
	if len(patterns) == 0 {
		return fmt.Errorf("%s is a folder, and holds no .zip or .xml file: give zip archives of Gravon games or their XML files", dir)
	}
	return fmt.Errorf("%s is a folder: give the files in it instead, as %s", dir, strings.Join(patterns, " "))
}

// sniffGravon reports whether r starts like a Gravon record: an XML document
// whose root element is <stratego>. What follows is ParseGravon's to judge.
func sniffGravon(r io.Reader) error {
	d := xml.NewDecoder(io.LimitReader(r, 1<<16))
	for {
		tok, err := d.Token()
		if err != nil {
			return errors.New("no XML root element <stratego>")
		}
		switch tok := tok.(type) {
		case xml.CharData:
			// Text before the root: a README that quotes a record, say.
			if len(bytes.TrimSpace(tok)) > 0 {
				return errors.New("it is text, not an XML document with a <stratego> root")
			}
		case xml.StartElement:
			if tok.Name.Local != "stratego" {
				return fmt.Errorf("its root element is <%s>, not <stratego>", tok.Name.Local)
			}
			return nil
		}
	}
}

func pathExt(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i:]
	}
	return ""
}

// replayOne reads and replays one record.
func replayOne(cfg replayConfig, job replayJob) replayOutcome {
	rc, err := job.open()
	if err != nil {
		return replayOutcome{skip: "unreadable record", detail: err.Error()}
	}
	rec, err := game.ParseGravon(rc)
	rc.Close()
	if err == nil {
		_, err = game.Replay(rec, cfg.rulesFor(rec))
	}
	var (
		illegal     *game.IllegalMoveError
		mismatch    *game.ResultMismatchError
		unsupported *game.UnsupportedError
	)
	switch {
	case err == nil:
		return replayOutcome{}
	case errors.As(err, &illegal), errors.As(err, &mismatch):
		return replayOutcome{disagreement: err.Error()}
	case errors.As(err, &unsupported):
		return replayOutcome{skip: unsupported.Reason}
	case rec == nil:
		return replayOutcome{skip: "unreadable record", detail: err.Error()}
	}
	return replayOutcome{skip: "set-up does not fit the rules", detail: err.Error()}
}
