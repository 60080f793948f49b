package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// botName is the name of the bot's binary.
const botName = "strategobot"

// findBot finds the bot to run when -bot names none: the strategobot
// beside this program, else the one on PATH.
func findBot() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		exe = ""
	}
	return lookForBot(exe, exec.LookPath)
}

// lookForBot looks for strategobot in the folder of exe (this program;
// "" when unknown), then with lookPath.
func lookForBot(exe string, lookPath func(string) (string, error)) (string, error) {
	var beside string
	if exe != "" {
		beside = filepath.Join(filepath.Dir(exe), botName)
		if fi, err := os.Stat(beside); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return beside, nil
		}
	}
	if path, err := lookPath(botName); err == nil {
		return path, nil
	} else if !errors.Is(err, exec.ErrNotFound) {
		return "", fmt.Errorf("looking for %s on PATH: %w", botName, err)
	}
	where := "on PATH"
	if beside != "" {
		where = "at " + beside + " or on PATH"
	}
	return "", fmt.Errorf("no %s binary %s to run as the bot: build it with go build ./cmd/strategobot (beside strategoload, or anywhere and name it with -bot PATH)", botName, where)
}

// absoluteBot makes a -bot path that names a folder ("./strategobot",
// "bin/strategobot") absolute: the bot runs in a folder of its own, where a
// relative path names nothing. A bare name is looked up on PATH, as is.
func absoluteBot(bot string) (string, error) {
	if !strings.ContainsRune(bot, filepath.Separator) || filepath.IsAbs(bot) {
		return bot, nil
	}
	abs, err := filepath.Abs(bot)
	if err != nil {
		return "", fmt.Errorf("the bot's binary %s: %w", bot, err)
	}
	return abs, nil
}
