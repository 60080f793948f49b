// Package bot is the Discord front end: slash commands, buttons, DMs and
// timers. It talks to game, render and storage and holds no state of its own.
// It is built in a later issue; this file keeps the package in the layout.
package bot
