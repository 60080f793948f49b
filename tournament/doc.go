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
// PairSwissRound follows the Dutch system (FIDE Handbook C.04.3): it pairs the
// score brackets from the top down, each bracket by its own criteria
// before the next is looked at, as the Dutch system does, but each bracket
// is one maximum-weight matching (Edmonds' blossom algorithm, O(n³)) of all
// the players not yet paired, as pairing programs such as bbpPairings do,
// rather than a search of candidate pairings; the Dutch order of
// transpositions and exchanges is then followed by matchings with a pair
// forced. Matching the players left whole guarantees that a pairing is
// found whenever one exists that keeps the absolute rules; 200 players pair
// in tens of milliseconds.
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
//     lowest-ranked in it (by the criteria below); it scores Rules.Bye (a
//     win by default);
//   - brackets from the top: a bracket is a score group and the players
//     floated down into it; the players it does not pair float down to
//     the next. Each bracket pairs as many as it can (C.5), leaves over the
//     lowest scores it can (C.6), and chooses them so that the next bracket
//     pairs as many, of scores as high, as it can (C.7); a higher bracket's
//     criteria come before every criterion of the lower ones;
//   - in the final round the topscorers (A.7: more than half the most
//     anyone could have scored) may meet a player owed the same colour
//     absolutely (C.3); then, in the bracket, the fewest of them and their
//     opponents with a colour difference beyond ±2, then with the same
//     colour three times in a row (C.8, C.9), and of two players owed the
//     same colour absolutely the wider colour difference has it (E.2);
//   - then, in the bracket, the fewest unmet colour preferences, then the
//     fewest unmet strong ones (C.10, C.11);
//   - then the float criteria (C.12–C.15): the fewest players floating down
//     again after floating down in the last round, up again after floating
//     up, then the same for two rounds back; then the same weighed by score
//     (C.16–C.19), the highest first: the scores of those who float down
//     again (a player moved down into the bracket too, as bbpPairings
//     counts it), and of the opponents of those who float up again; a bye
//     and a forfeit win count as floating down (SwissPlayer.Floats);
//   - then the Dutch order: the players floated down, from the top, meet
//     the highest-ranked player of the group they can; the rest of the
//     group is split into S1 and S2, players of each exchanged if the
//     criteria need it (the exchanges in the Dutch order, D.2: the fewest
//     players, then the smallest difference of their places, then the
//     highest of S1 and the lowest of S2), and each of S1 from the top
//     meets the first of S2 it can (transpositions);
//   - colours of each pair by the allocation rules E.1–E.5 (see
//     PreferenceOf), the top seed having Red on board 1 of round 1.
//
// Against bbpPairings' Dutch system every round of random events of 9 to
// 50 players pairs the same; 92% of those of 6 players (the look-ahead,
// below) and 85% of those of 120 (the approximation over 64 players)
// (docs/TOURNAMENTS.md, "How close to FIDE's Dutch system").
//
// Simplified or left out:
//
//   - the exchanges are listed up to 4,096 of each size (in a bracket of
//     12 all of them, of 16 those of up to three players each side) and
//     tried, a matching each, up to 64 that could pair S1 with S2; when
//     none of those will do the pairs are chosen player by player from the
//     top of S1, and a bracket whose matching holds more than 64 players
//     (in a large field) uses a distance from each player's ideal partner
//     in their stead;
//   - in a field of more than 64 players each bracket's matching holds the
//     bracket, the score group below it and a few players more, and their
//     partners in a pairing of the whole field found first; the rest of that
//     pairing stands, so a floater can meet only those;
//   - the colour rules give way in any round, for any player, when keeping
//     them would leave the round (or a later one) without a pairing, and
//     then for as few pairs as possible. FIDE relaxes them only for the
//     topscorers of the last round (C.3, C.8, C.9) and otherwise lets the
//     pairing fail; a server's league would rather play a game with a
//     colour too many than stop;
//   - looking ahead, which the Dutch system does only through its
//     completion criterion (C.4, one round ahead): every round is paired so
//     that the pairs not yet met still hold the rounds left (SwissRound.Later),
//     searched exactly for up to 64 players within a budget; it comes before
//     every bracket's criteria, so in small fields (6 players, 5 rounds) it
//     changes the pairing of some rounds;
//   - an event has at most as many rounds as a round robin of the players
//     who start it (SwissRoundsAtMost: n-1, or n when n is odd); the
//     rounds asked for are capped when the first round is paired. With
//     nobody withdrawing, every round up to that cap can then be paired;
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
