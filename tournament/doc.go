// Package tournament runs tournaments of correspondence Stratego that a
// server plays over weeks: round robins (single or double) and Swiss events,
// their pairings, results, withdrawals and standings. It opens no files or
// connections, keeps no clock and knows nothing of Discord.
//
// # The log
//
// A Tournament is rebuilt from its Rules and its log of Events — players
// joined, a player withdrew, a round was paired, a result was recorded, a
// round's deadline passed, a moderator cancelled — the way a game is rebuilt
// from its moves: Replay(rules, log) always gives the same state, so storage
// need keep only the rules and the log. Apply refuses an event that does not
// fit (with a reason a player or moderator can read) and changes nothing; a
// log that Replay refuses names its first bad event (LogError).
//
// Pairing is not an event the package invents: NextRound computes the next
// round's Paired event (PairAll every round's, for a round robin played all
// at once), and the caller applies and stores it. So the log
// keeps the pairings as they were made, and a later change of the pairing
// algorithm cannot change a tournament already under way.
//
// The clock is the caller's: a round starts when the previous one is
// complete — every game has a result — or when the caller, at the round's
// deadline, applies CloseRound, which scores the games still on as
// Rules.Unfinished says (by default both lose; such games are never rated).
// The caller names the games that had not begun: each is a forfeit win
// for the side whose set-up was in, or, neither's being in, NotBegun,
// scored as Rules.Unfinished says but, never played, counted for no colour
// and as an unplayed round in the tie-breaks.
//
// A round robin with Rules.AllAtOnce (correspondence style, as ICCF plays
// them) has every round of its schedule paired at the start, one Paired
// event per round, applied together; results of any round come in any
// order, and the event is finished when the last game has one. It has one
// deadline, the caller's, and CloseAll scores what is still on in every
// round as CloseRound does in one. Round robins stored before the flag
// existed read it as false and are played a round at a time.
//
// # Withdrawals
//
// A player who withdraws before the first round is simply no longer in the
// tournament. Later, whether they asked, left the server or were removed,
// their game of the current round, if still on, is forfeited (the opponent
// scores Rules.ForfeitWin, they score Rules.ForfeitLoss) and they are paired
// no more: a Swiss event leaves them out; a round robin keeps its schedule,
// records their scheduled games as forfeits as their rounds come, and leaves
// out their bye. In a round robin played all at once every game of theirs
// still on, in every round, is forfeited at once; their results and their
// byes, all given at the start, stand. A cancelled tournament accepts nothing more; its standings
// are those of the results recorded.
//
// # Round robin
//
// The schedule is the circle method of Berger tables (BergerRound), fixed
// when the first round is paired from the seeds: every pair meets once (twice
// in a double round robin, colours swapped), one player sits out each round
// when the number is odd, and every player has as many Reds as Blues or one
// more of either (exactly as many in a double round robin), never the same
// colour three times in a row.
//
// # Swiss: what of FIDE's Dutch system is implemented
//
// PairSwiss follows the Dutch system (FIDE Handbook C.04.3) in what it
// decides, but finds the pairing as one maximum-weight matching of the whole
// field, as pairing programs such as bbpPairings do, rather than bracket by
// bracket with transpositions and exchanges. The matching (Edmonds' blossom
// algorithm, O(n³)) guarantees that a pairing is found whenever one exists
// that keeps the absolute rules, and pairs 200 players in a few tens of
// milliseconds.
//
// Kept, as in the Dutch system:
//
//   - players are ranked by score, then pairing number (the seed: rating,
//     then order of joining), and grouped by score;
//   - absolute criteria: no two players meet twice; no player gets a colour
//     that would make three games in a row with one colour or a colour
//     difference beyond ±2 (two players owed the same colour absolutely do
//     not meet), unless no pairing can keep the colour rules (below);
//   - the bye goes to a player who had no bye and won no game by forfeit
//     when anyone can have it, from the lowest score group possible, the
//     lowest-ranked in it; it scores Rules.Bye (a win by default);
//   - players of equal score meet where possible: the fewest pairs across
//     score groups, then the smallest score differences (floaters);
//   - then the fewest unmet colour preferences, then the fewest unmet strong
//     ones;
//   - then the S1–S2 order: the top half of a score group meets the bottom
//     half in order, a floater is the lowest of its group and meets the top
//     of the next;
//   - colours of each pair by the allocation rules E.1–E.5 (see
//     PreferenceOf), the top seed having Red on board 1 of round 1.
//
// Simplified or left out:
//
//   - score groups are optimised over the whole field at once, not top-down
//     bracket by bracket, and the number of pairs across score groups counts
//     before the size of their score differences: to save a second floater
//     it will float one player a point or more (a leader meeting a player
//     far below) where the Dutch system floats two by half a point. Against
//     bbpPairings' Dutch system the pairs of 80% of the rounds of 6-player
//     events agree, and 20% at 30 players (docs/TOURNAMENTS.md, "How close
//     to FIDE's Dutch system");
//   - the Dutch order of transpositions and exchanges is approximated by the
//     least total distance from each player's ideal S2 partner, not
//     reproduced exactly;
//   - the colour rules give way in any round, for any player, when keeping
//     them would leave the round (or a later one) without a pairing, and
//     then for as few pairs as possible. FIDE relaxes them only for the
//     topscorers of the last round (C.3, C.8, C.9) and otherwise lets the
//     pairing fail; a server's league would rather play a game with a
//     colour too many than stop;
//   - looking ahead, which the Dutch system does only through its
//     completion criterion (C.4, one round ahead): every round is paired so
//     that the pairs not yet met still hold the rounds left (PairSwissAhead),
//     searched exactly for up to 64 players within a budget;
//   - an event has at most as many rounds as a round robin of the players
//     who start it (SwissRoundsAtMost: n-1, or n when n is odd); the
//     rounds asked for are capped when the first round is paired. With
//     nobody withdrawing, every round up to that cap can then be paired;
//   - the float criteria (C.12–C.19: no repeated up- or down-floats) are
//     left out;
//   - a bye to a player who had one is a last resort rather than forbidden;
//   - a forfeited game counts as a meeting: the two are not paired again;
//   - colour histories count only games played on the board (as FIDE's do)
//     and, to break a tie in E.3, are compared from their last games back
//     rather than round by round.
//
// # Standings
//
// Standings ranks by points, then Sonneborn-Berger, then (Swiss only)
// Buchholz, then seed. In a Swiss event an unplayed round — a bye, a
// forfeit either way, a game not begun — counts for both tie-breaks as a
// game against a virtual opponent with the player's own score. In a round
// robin an unplayed game counts against the real opponent with the score
// they have, as FIDE's Sonneborn-Berger for round robins does, so a forfeit
// win over a withdrawn player weighs what that player scored; a withdrawn
// opponent always counts with the score they have.
//
// A bye scores Rules.Bye: by default a win in a Swiss event (FIDE) and
// nothing in a round robin, where each of an odd number of players sits out
// once (Berger tables) and a point for it would only lift whoever has had
// theirs while the event lasts.
package tournament
