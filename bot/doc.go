// Package bot is the Discord front end of strategobot: the /stratego command,
// its buttons, menus and modals, the DMs with each player and the timers. It
// keeps no game state of its own: every match lives in storage, every picture
// comes from render, and everything a person is shown is built from a
// game.View of what that person may know.
//
// # One path per job
//
// Every job is done in one place, whichever way a member asks for it:
//   - the match a member means: matchMeant (find.go), for slash commands,
//     buttons and DMs alike, with the refusals that say how to name one; a
//     match of the server named to watch, cancel or award it: serverMatch
//     (moderation.go); a match number, either way: storage.ParseMatchID;
//   - whether a side must act (a set-up, or the move): storage's Match.Owes;
//   - a move: play (move.go), for the slash command, a move typed in the DM,
//     the menus under a board, the web board and the computer. storage.ApplyMove loads and
//     replays the match once and returns the game after the move;
//   - what follows any change of a match, whatever made it (a move, a
//     set-up, an ending of any kind, a timer, a moderator): afterChange
//     (announce.go), which keeps the match as the change left it for the
//     outbox, wakes the loops and lets the computer answer;
//   - the notices a change owes: composed from that one snapshot
//     (snapshot.go), so that the match is loaded and replayed once per
//     change, however many people are told;
//   - whether the computer is to move: computerToMove (practice.go);
//   - the deadline a board shows: deadlineToShow (announce.go);
//   - a set-up draft: draft (setup.go), for a set-up typed in the DM or the
//     form, drawn at random or saved;
//   - a member's settings: settingsOf (settings.go), read once per request;
//   - the words for a game's result: render.ResultText, shared with the pictures;
//   - how a list answer fits in one message: listText (listtext.go), whole
//     lines and a last one that counts those left out, for the games,
//     settings, seeks, leaderboard, tournaments and standings alike.
//
// # Files
//
// bot.go runs the bot; commands.go declares /stratego; route.go routes
// interactions, a click or a choice only from a control its message shows
// (fromItsMessage), and an option only within what the command declares
// (optionbounds.go); respond.go answers them; errors.go explains refusals; ids.go
// reads and writes custom ids; find.go finds matches; challenge.go, setup.go,
// move.go, menus.go, autocomplete.go, board.go and actions.go (resignation,
// draws, gifts of time), pause.go and vacation.go serve a match's life;
// announce.go tells players and channels, dmchannels.go opens their DMs;
// dm.go reads what players type to the bot; games.go, history.go,
// settings.go, stats.go, rules.go and record.go answer the commands between
// moves; describe.go words moves; practice.go plays the computer; timers.go
// handles deadlines (timerholds.go holds back, with a growing wait, one whose
// handling keeps failing, and the outbox a notice whose outcome cannot be
// recorded); outbox.go and notices.go deliver what changes owe, from snapshot.go,
// and send.go sends each message once and reads Discord's failures (made.go
// learns from the gateway which DMs Discord made though its answer was lost,
// and their ids;
// refused.go sends a message Discord refused as plain text, or says where to see it);
// permissions.go checks what the bot may do in a channel before a match;
// serverchanges.go handles threads and channels gone, players who left and the bot
// removed from a server (removeddown.go finds, at READY, a removal missed
// while it was down), channelback.go a match's channel back within reach
// and one without Attach Files; gateway.go connects, reconnects and registers the
// command (register.go: only when Discord's differs), and stops when Discord
// refuses the bot for good; discordstate.go reads
// discordgo's state under its lock; invite.go builds the invite link;
// serversettings.go holds a server's settings,
// moderation.go a moderator's cancel and award, watch.go /stratego watch;
// follow.go following a match by DM (memberroles.go keeps followers' roles
// for a few minutes, so that a board costs no question to Discord);
// threadsight.go whether a member may see a channel or thread, for watch,
// following, the queue and tournaments alike (an archived thread asked of
// Discord once);
// rematch.go the Rematch button;
// tournament.go runs tournaments (each round paired by the timers' pass:
// tournamentrounds.go, tournamentdeadline.go, tournamentstart.go; each
// result recorded when its match ends), tournamentcmd.go answers /stratego
// tournament (tournamentorganise.go, tournamentplayers.go,
// tournamentstandings.go), tournamentnotices.go words the announcements
// its changes owe, which the outbox posts, and tournamenttext.go the
// pairings and results they show; tournamentleavers.go handles players who
// withdraw or leave the server; tournamentcache.go keeps the tournaments
// this process changed, so that a round's invites read none;
// open.go open challenges (anyone may accept, within a rating range);
// seek.go the server's queue (/stratego seek and seeks);
// limits.go the fair limits and the computer's bounded thinking, at the
// lowest priority (priority_*.go); lease.go which of several processes runs
// the timers and the outbox; away.go gives the clocks back the time nobody
// ran the timers (the bot down, or no process leading, or the one leading
// cut off from Discord's gateway: gatewayaway.go holds its timers then,
// and gives the time back once connected, before the DMs and commands
// the resume replays; the outbox and the board in the browser go on
// meanwhile, and everyone is given the time back all the same, web
// players too): the one that runs
// them records every 30 s that it is alive, and, as it starts (once
// connected to Discord, the DMs and commands that came meanwhile held
// until it is done, and before the board in the browser answers:
// afterAway) or takes the lease,
// before its first timer, moves each running deadline on by what of
// that time its clock ran, and tells the player who must act, and before
// them each tournament's deadlines its players race against (a round's,
// announced in its channel; a join deadline, with the start); web.go the board in the browser (package
// web): its actions on the one path of each, its links and live updates;
// attach.go the pictures' alt texts; markup.go Discord's timestamp and code
// block markup, and names chosen by members escaped for it (mdEscape in
// messages' content; package internal/nametext holds the whole rule: Code
// in code blocks, the text board's too, Plain, as written on one line, in
// alt texts, menus and thread names); listtext.go how a list answer fits in
// a message; unreadable.go passes over the records a list cannot read; discordlimits.go the lengths and sizes Discord takes; metrics.go
// what operators watch; lang.go which language each member and channel is
// written in (internal/lang holds the catalogues).
//
// # The path of one move
//
//  1. Discord sends the interaction (or the DM); route.go routes it with a
//     request in which each member's settings are read once (settings.go).
//  2. matchMeant (find.go) finds the match from the member's list, or the
//     match named by the menu.
//  3. play (move.go) calls storage's ApplyMove: one transaction loads the
//     match, checks its version, replays it, lets the game package apply
//     the move, and records the three notices the move owes (each player's
//     board, the channel's), naming the version it made. The mover is
//     answered.
//  4. afterChange (announce.go) keeps the match and game the move returned
//     as the snapshot of that version (snapshot.go), with the mover's
//     settings, and wakes the timers and the outbox.
//  5. The outbox (outbox.go) takes the due notices, one worker each. compose
//     (notices.go) builds each from the snapshot: no load, no replay, each
//     player's settings read once; render draws the viewer's picture from
//     game.View.
//  6. The messages go out once each (a nonce per part). When Discord has
//     answered the last part of the board of the side to move (or, a DM
//     whose answer was lost, when the gateway said it arrived: made.go),
//     noticeDone starts its clock in storage and in the snapshot alike.
package bot
