//go:build ignore

// Sample writes the embedded set-up files of package game from the full
// Ataraxos files: every 32nd Classic line and every Barrage line, keeping only
// lines that hold exactly the variant's army; and every valid Classic line,
// sorted and gzipped (classic-all.dat.gz), for recognising a listed set-up.
//
//	go run sample.go /path/to/classic_human_setups.dat /path/to/barrage_human_setups.dat
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Letter counts of each army in the Ataraxos letters (A is an empty square).
var (
	classic = map[rune]int{'B': 6, 'C': 1, 'D': 8, 'E': 5, 'F': 4, 'G': 4, 'H': 4, 'I': 3, 'J': 2, 'K': 1, 'L': 1, 'M': 1}
	barrage = map[rune]int{'A': 32, 'B': 1, 'C': 1, 'D': 2, 'E': 1, 'K': 1, 'L': 1, 'M': 1}
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: go run sample.go classic_human_setups.dat barrage_human_setups.dat")
		os.Exit(2)
	}
	if err := sample(os.Args[1], "classic.dat", classic, 32); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := sample(os.Args[2], "barrage.dat", barrage, 1); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := whole(os.Args[1], "classic-all.dat.gz", classic); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// whole writes every line of in that holds exactly want, sorted (repeats kept,
// so that they sit together and compress well), gzipped, to out.
func whole(in, out string, want map[rune]int) error {
	data, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	var lines []string
	skipped := 0
	for i, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		if i == 0 && strings.HasPrefix(line, "#") {
			continue
		}
		if !valid(line, want) {
			skipped++
			continue
		}
		lines = append(lines, line)
	}
	sort.Strings(lines)
	var b bytes.Buffer
	zw, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		return err
	}
	fmt.Fprintf(zw, "# Every valid line of %s from Ataraxos (MIT licence, see LICENSE-ataraxos), sorted.\n", filepath.Base(in))
	for _, l := range lines {
		fmt.Fprintln(zw, l)
	}
	if err := zw.Close(); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%s: %d set-ups kept, %d lines skipped\n", out, len(lines), skipped)
	return os.WriteFile(out, b.Bytes(), 0o644)
}

// sample copies every step-th set-up line of in (counting the lines after the
// comment, invalid ones included) that holds exactly want, to out.
func sample(in, out string, want map[rune]int, step int) error {
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	var b strings.Builder
	sc := bufio.NewScanner(f)
	first := true
	n, kept, skipped := 0, 0, 0
	for sc.Scan() {
		line := sc.Text()
		if first && strings.HasPrefix(line, "#") {
			// Keep the source's own comment and say how this file was made.
			fmt.Fprintf(&b, "%s\n# Every %s line of %s from Ataraxos (MIT licence, see LICENSE-ataraxos), invalid lines left out.\n",
				line, nth(step), filepath.Base(in))
			first = false
			continue
		}
		first = false
		n++
		if (n-1)%step != 0 {
			continue
		}
		if !valid(line, want) {
			skipped++
			fmt.Fprintf(os.Stderr, "%s: skipped line %d %q\n", in, n, line)
			continue
		}
		b.WriteString(line + "\n")
		kept++
	}
	if err := sc.Err(); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%s: %d set-ups kept, %d lines skipped\n", out, kept, skipped)
	return os.WriteFile(out, []byte(b.String()), 0o644)
}

// nth writes 1 as "single" and 32 as "32nd", for the header comment.
func nth(step int) string {
	if step == 1 {
		return "single"
	}
	suffix := "th"
	if step%100 < 11 || step%100 > 13 {
		switch step % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return fmt.Sprintf("%d%s", step, suffix)
}

// valid reports whether line is 40 letters with exactly the counts of want.
func valid(line string, want map[rune]int) bool {
	if len(line) != 40 {
		return false
	}
	got := map[rune]int{}
	for _, c := range line {
		got[c]++
	}
	if len(got) != len(want) {
		return false
	}
	for c, n := range want {
		if got[c] != n {
			return false
		}
	}
	return true
}
