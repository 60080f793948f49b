package main

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/buildtest"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/internal/pgtest"
)

// TestTwoProcesses runs two built bots on one PostgreSQL database, one per
// gateway shard, with a match in a server of each shard. Then the process
// that runs the timers and the outbox is killed with SIGKILL: the other
// takes its lease over once it expires, and delivers the messages of the
// next move once each.
func TestTwoProcesses(t *testing.T) {
	bin := buildtest.Binary(t, "./cmd/strategobot")
	database := pgtest.NewDatabase(t)
	srv := discordtest.New(t, discordtest.WithWaitTimeout(30*time.Second))
	// One server on each shard: Discord's shard of a server is (id >> 22) % 2.
	var clubs [2]*discordtest.Guild
	for n := 0; clubs[0] == nil || clubs[1] == nil; n++ {
		g := srv.AddGuild(fmt.Sprintf("Club %d", n))
		id, _ := strconv.ParseUint(g.ID, 10, 64)
		if shard := (id >> 22) % 2; clubs[shard] == nil {
			clubs[shard] = g
		}
	}
	// Each process lists the commands once connected, and writes them
	// only if they differ: the first, on none, writes them.
	const list = "GET /applications/{application_id}/commands"
	var procs [2]*process
	for shard := range procs {
		dir := t.TempDir()
		env := botEnv(srv,
			"STRATEGOBOT_DATABASE="+database,
			"STRATEGOBOT_SHARD_ID="+strconv.Itoa(shard),
			"STRATEGOBOT_SHARD_COUNT=2",
		)
		procs[shard] = startProcess(t, bin, dir, env)
		srv.WaitFor(t, "the process's command", func() bool { return len(srv.Requests(list)) > shard && len(srv.Commands(nil)) > 0 })
	}
	t.Cleanup(func() {
		for _, p := range procs {
			if p != nil {
				p.kill()
			}
		}
	})

	// A match in each server, each played by that server's process; set-ups
	// come by DM, which shard 0 serves.
	type table struct {
		red, blue *discordtest.Member
		channel   *discordtest.Channel
		replica   *game.Game // the same game, to choose legal moves
	}
	var tables [2]table
	rules := game.DefaultRules(game.VariantClassic)
	for k, club := range clubs {
		setups := [2]game.Setup{game.RandomSetup(rules, uint64(10*k+1)), game.RandomSetup(rules, uint64(10*k+2))}
		replica, err := game.NewGame(rules, setups[0], setups[1])
		if err != nil {
			t.Fatal(err)
		}
		tb := table{club.AddMember(fmt.Sprintf("red%d", k)), club.AddMember(fmt.Sprintf("blue%d", k)), club.General(), replica}
		tables[k] = tb
		challenge := tb.red.SlashCommand(t, tb.channel, "stratego challenge", discordtest.Opt("opponent", tb.blue), discordtest.Opt("side", "red")).Reply(t)
		tb.blue.ClickButton(t, challenge, buttonID(t, challenge, "Accept")).Reply(t)
		for i, p := range []*discordtest.Member{tb.red, tb.blue} {
			p.WaitDM(t, func(m *discordtest.Message) bool { return strings.Contains(m.Content, "Send me your secret set-up") })
			p.SendDM(t, game.FormatSetup(setups[i], game.NumberingModern))
			preview := p.WaitDM(t, func(m *discordtest.Message) bool { return strings.Contains(m.Content, "Your set-up for match") })
			p.ClickButton(t, preview, buttonID(t, preview, "Confirm")).Reply(t)
		}
		tb.red.WaitDM(t, func(m *discordtest.Message) bool { return strings.Contains(m.Content, "the match begins") })
	}
	// Red moves in each server, by slash command: its own process answers.
	next := func(tb table) (string, string) {
		mv := tb.replica.LegalMoves()[0]
		if _, err := tb.replica.Apply(mv); err != nil {
			t.Fatal(err)
		}
		return mv.From.String(), mv.To.String()
	}
	for _, tb := range tables {
		from, to := next(tb)
		reply := tb.red.SlashCommand(t, tb.channel, "stratego move", discordtest.Opt("from", from), discordtest.Opt("to", to)).Reply(t)
		if !strings.Contains(reply.Content, "You moved") {
			t.Fatalf("the move answered %q", reply.Content)
		}
		tb.blue.WaitDM(t, func(m *discordtest.Message) bool { return strings.Contains(m.Content, from+"-"+to) })
	}
	// Whichever leads dies; shard 1's server goes on with the survivor.
	procs[0].kill()
	procs[0] = nil
	survivor := tables[1]
	from, to := next(survivor)
	start := time.Now()
	reply := survivor.blue.SlashCommand(t, survivor.channel, "stratego move", discordtest.Opt("from", from), discordtest.Opt("to", to)).Reply(t)
	if !strings.Contains(reply.Content, "You moved") {
		t.Fatalf("blue's move answered %q", reply.Content)
	}
	survivor.red.WaitDM(t, func(m *discordtest.Message) bool { return strings.Contains(m.Content, from+"-"+to) })
	// Each audience is a queue of its own: blue's board and the channel's
	// may come just after red's.
	boards := func(msgs []*discordtest.Message) int {
		n := 0
		for _, m := range msgs {
			if strings.Contains(m.Content, from+"-"+to) && len(m.Files) == 1 {
				n++
			}
		}
		return n
	}
	srv.WaitFor(t, "the move's board for blue and in the channel", func() bool {
		return boards(survivor.blue.DMs()) > 0 && boards(srv.ChannelMessages(survivor.channel)) > 0
	})
	t.Logf("the move's messages arrived %v after the other process was killed", time.Since(start).Round(100*time.Millisecond))
	for who, msgs := range map[string][]*discordtest.Message{
		"red": survivor.red.DMs(), "blue": survivor.blue.DMs(), "the channel": srv.ChannelMessages(survivor.channel),
	} {
		if n := boards(msgs); n != 1 {
			t.Errorf("%s got the move's board %d times, want once", who, n)
		}
	}
}

// TestRemovedWhileShardDown runs two built bots on one PostgreSQL database,
// one per gateway shard, with a match in a server of each. Shard 1's
// process is killed, the bot removed from its server meanwhile, and the
// process started again: missing from its READY, the server is asked
// about and its match called off, its players told once by DM (by
// whichever process runs the outbox). Shard 0's process never asks about a
// server of shard 1, and its own match goes on.
func TestRemovedWhileShardDown(t *testing.T) {
	bin := buildtest.Binary(t, "./cmd/strategobot")
	database := pgtest.NewDatabase(t)
	srv := discordtest.New(t, discordtest.WithWaitTimeout(30*time.Second))
	var clubs [2]*discordtest.Guild
	for n := 0; clubs[0] == nil || clubs[1] == nil; n++ {
		g := srv.AddGuild(fmt.Sprintf("Club %d", n))
		id, _ := strconv.ParseUint(g.ID, 10, 64)
		if shard := (id >> 22) % 2; clubs[shard] == nil {
			clubs[shard] = g
		}
	}
	// Each process lists the commands once connected, and writes them
	// only if they differ: the first, on none, writes them.
	const list = "GET /applications/{application_id}/commands"
	envOf := func(shard int) []string {
		return botEnv(srv, "STRATEGOBOT_DATABASE="+database, "STRATEGOBOT_SHARD_ID="+strconv.Itoa(shard), "STRATEGOBOT_SHARD_COUNT=2")
	}
	var procs [2]*process
	for shard := range procs {
		procs[shard] = startProcess(t, bin, t.TempDir(), envOf(shard))
		srv.WaitFor(t, "the process's command", func() bool { return len(srv.Requests(list)) > shard && len(srv.Commands(nil)) > 0 })
	}
	t.Cleanup(func() {
		for _, p := range procs {
			if p != nil {
				p.kill()
			}
		}
	})
	rules := game.DefaultRules(game.VariantClassic)
	var players [2][2]*discordtest.Member
	var replicas [2]*game.Game
	for k, club := range clubs {
		setups := [2]game.Setup{game.RandomSetup(rules, uint64(10*k+1)), game.RandomSetup(rules, uint64(10*k+2))}
		replica, err := game.NewGame(rules, setups[0], setups[1])
		if err != nil {
			t.Fatal(err)
		}
		replicas[k] = replica
		red, blue := club.AddMember(fmt.Sprintf("red%d", k)), club.AddMember(fmt.Sprintf("blue%d", k))
		players[k] = [2]*discordtest.Member{red, blue}
		clubs[1-k].Join(red) // the bot can still DM them once removed from their club
		clubs[1-k].Join(blue)
		challenge := red.SlashCommand(t, club.General(), "stratego challenge", discordtest.Opt("opponent", blue), discordtest.Opt("side", "red")).Reply(t)
		blue.ClickButton(t, challenge, buttonID(t, challenge, "Accept")).Reply(t)
		for i, p := range players[k] {
			p.WaitDM(t, func(m *discordtest.Message) bool { return strings.Contains(m.Content, "Send me your secret set-up") })
			p.SendDM(t, game.FormatSetup(setups[i], game.NumberingModern))
			preview := p.WaitDM(t, func(m *discordtest.Message) bool { return strings.Contains(m.Content, "Your set-up for match") })
			p.ClickButton(t, preview, buttonID(t, preview, "Confirm")).Reply(t)
		}
		red.WaitDM(t, func(m *discordtest.Message) bool { return strings.Contains(m.Content, "the match begins") })
	}

	procs[1].kill()
	clubs[1].KickBot()
	listed := len(srv.Requests(list))
	procs[1] = startProcess(t, bin, t.TempDir(), envOf(1))
	srv.WaitFor(t, "the restarted process's command", func() bool { return len(srv.Requests(list)) > listed })
	const removed = "I was removed from the server"
	for _, p := range players[1] {
		p.WaitDM(t, func(m *discordtest.Message) bool { return strings.Contains(m.Content, removed) })
	}
	// The match of shard 0's server goes on: its red player moves.
	mv := replicas[0].LegalMoves()[0]
	reply := players[0][0].SlashCommand(t, clubs[0].General(), "stratego move", discordtest.Opt("from", mv.From.String()), discordtest.Opt("to", mv.To.String())).Reply(t)
	if !strings.Contains(reply.Content, "You moved") {
		t.Errorf("shard 0's match after shard 1's restart: the move answered %q", reply.Content)
	}
	time.Sleep(time.Second) // a DM told twice would be on its way by now
	for _, p := range players[1] {
		n := 0
		for _, m := range p.DMs() {
			if strings.Contains(m.Content, removed) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s was told %d times that the bot was removed, want once", p.Name, n)
		}
	}
	asked := srv.Requests("GET /guilds/{guild_id}")
	if len(asked) != 1 || !strings.HasSuffix(asked[0].Path, "/"+clubs[1].ID) || asked[0].Code != 50001 {
		t.Errorf("the questions about servers: %+v; want one, about shard 1's server, answered Missing Access", asked)
	}
}
