package bot

import (
	"context"
	"log/slog"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/bolt"
	"github.com/strategobot/strategobot/storage/storagetest"
	"github.com/strategobot/strategobot/tournament"
	"github.com/strategobot/strategobot/web"
)

// TestTournamentResult: how a tournament scores each way a match ends.
func TestTournamentResult(t *testing.T) {
	confirmed := storage.SideSetup{Status: storage.SetupConfirmed}
	tests := []struct {
		name   string
		match  storage.Match
		result tournament.Result
	}{
		{"Red captured the flag", storage.Match{Phase: storage.PhaseFinished, Result: game.Result{Outcome: game.RedWon, Method: game.FlagCaptured}}, tournament.RedWon},
		{"Red lost on time", storage.Match{Phase: storage.PhaseFinished, Result: game.Result{Outcome: game.BlueWon, Method: game.TimeForfeit}}, tournament.BlueWon},
		{"a draw agreed", storage.Match{Phase: storage.PhaseFinished, Result: game.Result{Outcome: game.Drawn, Method: game.DrawAgreed}}, tournament.Drawn},
		{"Blue never set up", storage.Match{Phase: storage.PhaseAbandoned, Setups: [2]storage.SideSetup{confirmed, {}}}, tournament.BlueForfeited},
		{"Red never set up", storage.Match{Phase: storage.PhaseAbandoned, Setups: [2]storage.SideSetup{{}, confirmed}}, tournament.RedForfeited},
		{"neither set up", storage.Match{Phase: storage.PhaseAbandoned}, tournament.DoubleForfeit},
		{"called off in play", storage.Match{Phase: storage.PhaseAbandoned, Setups: [2]storage.SideSetup{confirmed, confirmed}}, tournament.DoubleForfeit},
		// A moderator's call-off is nobody's forfeit alone: it gives no win
		// to whoever happened to confirm a set-up first.
		{"a moderator called it off, only Red set up", storage.Match{Phase: storage.PhaseAbandoned, CalledOff: storage.CallOffModerator, Setups: [2]storage.SideSetup{confirmed, {}}}, tournament.DoubleForfeit},
		{"a moderator called it off, only Blue set up", storage.Match{Phase: storage.PhaseAbandoned, CalledOff: storage.CallOffModerator, Setups: [2]storage.SideSetup{{}, confirmed}}, tournament.DoubleForfeit},
	}
	for _, tc := range tests {
		if got := tournamentResult(&tc.match); got != tc.result {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.result)
		}
	}
}

// TestStandingsText: the text table lines up its columns, keeps a name
// from closing its code block, and shows Buchholz only in a Swiss event.
func TestStandingsText(t *testing.T) {
	for _, format := range []tournament.Format{tournament.RoundRobin, tournament.Swiss} {
		tt := storagetest.NewTournament("g1")
		tt.Rules = tournament.DefaultRules(format, 2)
		if format == tournament.RoundRobin {
			tt.Rules = tournament.DefaultRules(format, 0)
		}
		tt.Names = map[string]string{"a": "Ann ```", "b": "Bob"}
		tt.Log = []tournament.Event{tournament.Join("a", 1500), tournament.Join("b", 1400)}
		table, text, err := standingsOf(lang.For("en"), tt)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Count(text, "```") != 2 {
			t.Errorf("%s: a name closes the code block:\n%s", format, text)
		}
		if got := strings.Contains(text, "Buchholz"); got != (format == tournament.Swiss) {
			t.Errorf("%s: Buchholz shown %v:\n%s", format, got, text)
		}
		if len(table.Rows) != 2 || table.Rows[0][1] != "Ann ```" {
			t.Errorf("%s: rows %v", format, table.Rows)
		}
	}
}

// TestStandingsTextWideNames: the text table lines up by the columns a
// name takes in a monospace font, not by its code points: a Chinese or
// full-width letter takes two, an accent written as a combining mark, a
// zero-width space or the joined parts of an emoji none; a long name is
// cut at the column limit, whatever its letters.
func TestStandingsTextWideNames(t *testing.T) {
	tt := storagetest.NewTournament("g1")
	tt.Rules = tournament.DefaultRules(tournament.RoundRobin, 0)
	tt.Names = map[string]string{"a": "李小龙", "b": "Bob", "c": "Zoe\u0301\u200b", "d": "\U0001F468\u200d\U0001F469\u200d\U0001F467 fam",
		"e": strings.Repeat("\uff21", 13)}
	tt.Log = []tournament.Event{tournament.Join("a", 1500), tournament.Join("b", 1400), tournament.Join("c", 1300), tournament.Join("d", 1200), tournament.Join("e", 1100)}
	_, text, err := standingsOf(lang.For("en"), tt)
	if err != nil {
		t.Fatal(err)
	}
	// Each name padded to the 23 columns of the longest as it shows, cut.
	row := func(place, name string, cols int) string {
		return place + "  " + name + strings.Repeat(" ", 23-cols) + "       0   0  0-0-0\n"
	}
	want := "```\n#  Player" + strings.Repeat(" ", 17) + "  Points  SB  W-D-L\n" +
		row("1", "李小龙", 6) + row("2", "Bob", 3) + row("3", "Zoe\u0301\u200b", 3) +
		row("4", "\U0001F468\u200d\U0001F469\u200d\U0001F467 fam", 6) + row("5", strings.Repeat("\uff21", 11)+"…", 23) + "```"
	if text != want {
		t.Errorf("the table:\n%s\nwant:\n%s", text, want)
	}
}

// TestStandingsWithdrawnNote: a withdrawn player's row tells the picture
// which end of the name is the note "(withdrew)", in every language, so
// that a long name is shortened before it; the others have none.
func TestStandingsWithdrawnNote(t *testing.T) {
	tests := []struct{ lang, note string }{
		{"en", " (withdrew)"}, {"nl", " (teruggetrokken)"}, {"de", " (zurückgezogen)"}, {"fr", " (retiré)"},
	}
	for _, tc := range tests {
		tt := storagetest.NewTournament("g1")
		tt.Rules = tournament.DefaultRules(tournament.Swiss, 3)
		tt.Names = map[string]string{"a": "Ann", "b": "Bob", "c": "Cy", "d": "Di"}
		tt.Log = []tournament.Event{tournament.Join("a", 1500), tournament.Join("b", 1400), tournament.Join("c", 1300), tournament.Join("d", 1200),
			{Kind: tournament.Paired, Round: 1, Games: []tournament.Pairing{{Red: "a", Blue: "b"}, {Red: "c", Blue: "d"}}}, tournament.Record(1, 1, tournament.Drawn),
			tournament.Withdraw("b", tournament.WithdrewByChoice)}
		table, _, err := standingsOf(lang.For(tc.lang), tt)
		if err != nil {
			t.Fatal(err)
		}
		if len(table.Notes) != len(table.Rows) {
			t.Fatalf("%s: %d notes for %d rows", tc.lang, len(table.Notes), len(table.Rows))
		}
		if len(table.Rows) != 4 {
			t.Fatalf("%s: rows %v, want four", tc.lang, table.Rows)
		}
		for k, row := range table.Rows {
			want := ""
			if strings.HasPrefix(row[1], "Bob") {
				want = tc.note
			}
			if table.Notes[k] != want || !strings.HasSuffix(row[1], want) {
				t.Errorf("%s: the row of %q has the note %q, want %q", tc.lang, row[1], table.Notes[k], want)
			}
		}
	}
}

// TestStandingsTextWithdrawnLongName: in the text table a long name of a
// player who withdrew is shortened before the note "(withdrew)", which
// stays whole, as in the picture.
func TestStandingsTextWithdrawnLongName(t *testing.T) {
	tt := storagetest.NewTournament("g1")
	tt.Rules = tournament.DefaultRules(tournament.Swiss, 3)
	tt.Names = map[string]string{"a": "Ann", "b": "Bartholomew Fitzgerald", "c": "Cy", "d": "Di"}
	tt.Log = []tournament.Event{tournament.Join("a", 1500), tournament.Join("b", 1400), tournament.Join("c", 1300), tournament.Join("d", 1200),
		{Kind: tournament.Paired, Round: 1, Games: []tournament.Pairing{{Red: "a", Blue: "b"}, {Red: "c", Blue: "d"}}},
		tournament.Withdraw("b", tournament.WithdrewByChoice)}
	_, text, err := standingsOf(lang.For("en"), tt)
	if err != nil {
		t.Fatal(err)
	}
	if want := "2  Bartholomew… (withdrew)  "; !strings.Contains(text, want) {
		t.Errorf("the table does not say %q:\n%s", want, text)
	}
}

// TestStandingsTextOfABigEvent: the text table of a Swiss event of 64
// players is longer than a Discord message. An announcement posts it in
// as many messages as it takes, each a whole code block with the headings,
// every player in one of them; the reply to /stratego tournament
// standings, one message, cuts it at a line with "…" and closes its code
// block (the picture has every player).
func TestStandingsTextOfABigEvent(t *testing.T) {
	tt := storagetest.NewTournament("g1")
	tt.Rules = tournament.DefaultRules(tournament.Swiss, 5)
	tt.Names = map[string]string{}
	for k := range 64 {
		id := strconv.Itoa(k + 1)
		tt.Names[id] = "Player **" + id + "** with a long name"
		tt.Log = append(tt.Log, tournament.Join(id, 2000-k))
	}
	_, text, err := standingsOf(lang.For("en"), tt)
	if err != nil {
		t.Fatal(err)
	}
	if len(text) <= maxMessage {
		t.Fatalf("the table has %d characters: not too long for a message", len(text))
	}
	wholeBlocks := func(what, msg string) {
		t.Helper()
		if len([]rune(msg)) > maxMessage || !strings.HasSuffix(msg, "\n```") || strings.Count(msg, "```")%2 != 0 {
			t.Errorf("%s is not whole code blocks within a message (%d characters):\n%s", what, len([]rune(msg)), msg)
		}
	}
	parts := appendStandings([]string{"**Cup** is over. Final standings:"}, text)
	if len(parts) < 2 {
		t.Fatalf("the announcement and its standings fit one message: %q", parts)
	}
	seen := map[string]bool{}
	for k, part := range parts[1:] {
		wholeBlocks("message "+strconv.Itoa(k+2), part)
		if head, _, _ := strings.Cut(strings.TrimPrefix(part, "```\n"), "\n"); !strings.HasPrefix(head, "#") || !strings.Contains(head, "Player") {
			t.Errorf("message %d does not begin with the headings:\n%s", k+2, part)
		}
		for id := range tt.Names {
			if strings.Contains(part, "Player **"+id+"** ") {
				seen[id] = true
			}
		}
	}
	if len(seen) != 64 {
		t.Errorf("the messages show %d players of 64", len(seen))
	}
	reply := standingsReply(lang.For("en"), "**Cup** — round 1 of 5", text)
	wholeBlocks("the reply", reply)
	rows := strings.Count(reply, "Player **")
	if !strings.HasSuffix(reply, "\n"+lang.For("en").Sprintf(txtStandingsMore, 64-rows)+"\n```") {
		t.Errorf("the reply of %d rows does not say %d more are in the picture:\n%s", rows, 64-rows, reply)
	}
}

// TestTournamentPairedOnlyByTheLeader: on a shared database a process that
// does not hold the lease of the timers leaves a due tournament alone; the
// round is paired by the process that holds it.
func TestTournamentPairedOnlyByTheLeader(t *testing.T) {
	ctx := context.Background()
	db, err := bolt.Open(bolt.Options{Path: filepath.Join(t.TempDir(), "bot.db"), NoSync: true, Reminders: Reminders})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tt, err := db.CreateTournament(ctx, storagetest.NewTournament("g1"), storage.TournamentLimits{})
	if err == nil {
		tt, err = db.UpdateTournament(ctx, tt.ID, 0, func(x *storage.Tournament) error {
			x.Log = append(x.Log, tournament.Join("1", 1500), tournament.Join("2", 1500))
			return nil
		})
	}
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := db.Lead(ctx, leaseTimers, "leader", tt.StartAt, leaseTTL); !ok || err != nil {
		t.Fatalf("the leader's lease: %v, %v", ok, err)
	}
	clock := discordtest.NewFakeClock(tt.StartAt.Add(time.Second))
	b := New(Config{Shared: true, Holder: "follower", Now: clock.Now}, nil, db, nil)
	b.renewLease(ctx)
	b.handleDue(ctx) // would need Discord if it paired
	after, err := db.Tournament(ctx, tt.ID)
	if err != nil || after.Version != tt.Version {
		t.Fatalf("a process without the lease changed the due tournament: version %d, was %d (%v)", after.Version, tt.Version, err)
	}
	if due, _ := db.DueTournaments(ctx, clock.Now()); len(due) != 1 {
		t.Fatalf("the tournament is no longer due: %v", due)
	}
}

// TestEndedEarlyText: an event cut short says why by its real cause.
func TestEndedEarlyText(t *testing.T) {
	tests := []struct {
		name     string
		withdraw []string
		want     string
	}{
		{"one player left", []string{"b", "c"}, "too few players are left"},
		{"everyone met", nil, "would have two of them meet again"},
	}
	for _, tc := range tests {
		tour, err := tournament.New(tournament.DefaultRules(tournament.Swiss, 2))
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{"a", "b", "c"} {
			if err := tour.Apply(tournament.Join(id, 1500)); err != nil {
				t.Fatal(err)
			}
		}
		if e, err := tour.NextRound(); err != nil || tour.Apply(e) != nil {
			t.Fatalf("%s: round 1: %v", tc.name, err)
		}
		for _, id := range tc.withdraw {
			if err := tour.Apply(tournament.Withdraw(id, tournament.WithdrewByChoice)); err != nil {
				t.Fatal(err)
			}
		}
		if got := endedEarlyText(lang.For("en"), tour); !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want it to say %q", tc.name, got, tc.want)
		}
	}
}

// TestStandingsSonnebornBergerExact: the Sonneborn-Berger column keeps
// quarter points: after a draw between two players each has ½ × ½ = ¼.
func TestStandingsSonnebornBergerExact(t *testing.T) {
	tt := storagetest.NewTournament("g1")
	tt.Rules = tournament.DefaultRules(tournament.Swiss, 1)
	tt.Names = map[string]string{"a": "Ann", "b": "Bob"}
	tt.Log = []tournament.Event{tournament.Join("a", 1500), tournament.Join("b", 1400),
		{Kind: tournament.Paired, Round: 1, Games: []tournament.Pairing{{Red: "a", Blue: "b"}}}, tournament.Record(1, 1, tournament.Drawn)}
	table, _, err := standingsOf(lang.For("en"), tt)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range table.Rows {
		if row[2] != "½" || row[3] != "¼" {
			t.Errorf("row %v: want ½ points and SB ¼", row)
		}
	}
}

// TestCancelledTournamentGameOverQuiet: a match of a cancelled tournament
// that ends (called off by the cancel) records nothing and warns of
// nothing.
func TestCancelledTournamentGameOverQuiet(t *testing.T) {
	ctx := context.Background()
	db, err := bolt.Open(bolt.Options{Path: filepath.Join(t.TempDir(), "bot.db"), NoSync: true, Reminders: Reminders})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var logs strings.Builder
	clock := discordtest.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	b := New(Config{Now: clock.Now, Logger: slog.New(slog.NewTextHandler(&logs, nil))}, nil, db, nil)
	tt, err := db.CreateTournament(ctx, storagetest.NewTournament("g1"), storage.TournamentLimits{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := db.CreateMatch(ctx, &storage.Match{GuildID: "g1", ChannelID: tt.ChannelID, Rules: tt.Game, MoveTime: tt.MoveTime,
		Phase: storage.PhaseSetup, Created: clock.Now(),
		Players: [2]storage.Player{{UserID: "1", Name: "one"}, {UserID: "2", Name: "two"}}})
	if err != nil {
		t.Fatal(err)
	}
	tt, err = db.UpdateTournament(ctx, tt.ID, 0, func(x *storage.Tournament) error {
		x.Log = append(x.Log, tournament.Join("1", 1500), tournament.Join("2", 1400),
			tournament.Event{Kind: tournament.Paired, Round: 1, Games: []tournament.Pairing{{Red: "1", Blue: "2"}}}, tournament.Cancel())
		x.Games = append(x.Games, storage.TournamentGame{Round: 1, Board: 1, Match: m.ID})
		x.Done = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ended := *m
	ended.Phase = storage.PhaseAbandoned
	b.tournamentGameOver(ctx, &ended)
	if strings.Contains(logs.String(), "level=WARN") {
		t.Errorf("a called-off match of a cancelled tournament warned:\n%s", logs.String())
	}
	if after, err := db.Tournament(ctx, tt.ID); err != nil || after.Version != tt.Version {
		t.Errorf("the cancelled tournament changed: version %d, was %d (%v)", after.Version, tt.Version, err)
	}
}

// TestPairingAnnouncementDeadline: a round's pairings, posted late (the
// channel had trouble, or other announcements went first), say the
// deadline the round had: the tournament's while the round is on (which
// time away may have moved), the one it was paired with once the round is
// over, though the next round is not yet paired and the tournament's
// deadline is then the moment the round ended.
func TestPairingAnnouncementDeadline(t *testing.T) {
	paired := storagetest.T0.Add(24 * time.Hour)
	for _, tc := range []struct {
		name     string
		over     bool
		deadline time.Time // the tournament's when the pairings are posted
		want     time.Time
	}{
		{"the round on", false, paired.Add(50 * time.Hour), paired.Add(50 * time.Hour)}, // moved on by two hours away
		{"the round over", true, paired.Add(time.Minute), paired.Add(48 * time.Hour)},
	} {
		var results []tournament.Event
		if tc.over {
			results = append(results, tournament.Record(1, 1, tournament.RedWon))
		}
		tt, s := firstRound(t, tournament.DefaultRules(tournament.Swiss, 2), map[string]string{"a": "Ann", "b": "Bob", "c": "Cleo"}, results...)
		tt.RoundTime = 48 * time.Hour
		tt.RoundDeadline = tc.deadline
		text, _ := pairingAnnouncement(lang.For("en"), tt, s, 1, paired)
		if want := "Deadline <t:" + unix(tc.want) + ":f>"; !strings.Contains(text, want) {
			t.Errorf("%s: %q, want it to say %q", tc.name, text, want)
		}
	}
}

// TestCallOffLeavesAnEndedMatchAlone: a tournament's call-off that comes
// after a moderator ended the match (read before the moderator's award
// landed) changes nothing: the moderator's reason stays the match's note.
func TestCallOffLeavesAnEndedMatchAlone(t *testing.T) {
	ctx := context.Background()
	db, err := bolt.Open(bolt.Options{Path: filepath.Join(t.TempDir(), "bot.db"), NoSync: true, Reminders: Reminders})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	clock := discordtest.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	b := New(Config{Now: clock.Now, Logger: slog.New(slog.DiscardHandler)}, nil, db, nil)
	m, err := db.CreateMatch(ctx, &storage.Match{GuildID: "g1", ChannelID: "c1", Rules: game.DefaultRules(game.VariantClassic), MoveTime: time.Hour,
		Phase: storage.PhaseSetup, Created: clock.Now(),
		Players: [2]storage.Player{{UserID: "1", Name: "one"}, {UserID: "2", Name: "two"}}})
	if err != nil {
		t.Fatal(err)
	}
	const reason = "alice: a mix-up"
	if _, err := db.UpdateMatch(ctx, m.ID, 0, func(x *storage.Match) error {
		x.ModeratorNote = reason
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Abandon(ctx, m.ID, 0, clock.Now(), storage.CallOffModerator); err != nil {
		t.Fatal(err)
	}
	if err := b.callOff(ctx, m, web.TournamentNote(web.OffCancelled, "Cup")); err == nil {
		t.Errorf("calling off a match already ended succeeded")
	}
	if after, err := db.Match(ctx, m.ID); err != nil || after.ModeratorNote != reason {
		t.Errorf("the ended match's note is %q (%v), want the moderator's %q", after.ModeratorNote, err, reason)
	}
}

// TestTournamentEndNamesAnOutrightWinner: the end names a winner only when
// the table shows them first (points, then the tie-breaks it shows), not
// when seed alone parts two players.
func TestTournamentEndNamesAnOutrightWinner(t *testing.T) {
	for _, tc := range []struct {
		name   string
		result tournament.Result
		winner bool
	}{
		{"a game won", tournament.RedWon, true},
		{"a game drawn", tournament.Drawn, false},
		{"a game both forfeited", tournament.DoubleForfeit, false},
	} {
		tt, s := firstRound(t, tournament.DefaultRules(tournament.RoundRobin, 1), map[string]string{"a": "Ann", "b": "Bob"}, tournament.Record(1, 1, tc.result))
		tt.Name = "Duo"
		text := overText(lang.For("en"), tt, s)
		want := "**Duo** is over. Final standings:"
		if tc.winner {
			want = "**Duo** is over: " + tt.Names[s.Standings()[0].Player] + " wins. Final standings:"
		}
		if !strings.Contains(text, want) {
			t.Errorf("%s: %q, want %q", tc.name, text, want)
		}
	}
}

// firstRound is a tournament of rules whose players (id: name, joined in
// the order of their ids, the first the highest rated) are paired for
// round 1, with results after it, and its state.
func firstRound(t *testing.T, rules tournament.Rules, names map[string]string, results ...tournament.Event) (*storage.Tournament, *tournament.Tournament) {
	t.Helper()
	tt := storagetest.NewTournament("g1")
	tt.Rules, tt.Names = rules, names
	for k, id := range slices.Sorted(maps.Keys(names)) {
		tt.Log = append(tt.Log, tournament.Join(id, 1600-100*k))
	}
	s, err := tt.State()
	if err != nil {
		t.Fatal(err)
	}
	round, err := s.NextRound()
	if err != nil {
		t.Fatal(err)
	}
	tt.Log = append(append(tt.Log, round), results...)
	if s, err = tt.State(); err != nil {
		t.Fatal(err)
	}
	return tt, s
}
