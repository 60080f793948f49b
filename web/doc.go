// Package web is the board in the browser: a second face of the same
// matches, acting on the same path of a move as Discord.
//
// A link is a capability (Capability, signed by Signer) for one viewer of
// one match: one player's side, or the public view. Its token travels in
// the URL's fragment (/board#TOKEN), which browsers never send to a server,
// and from the page in the CapabilityHeader of every API request; it never
// appears in a URL a server or proxy logs. Links expire, and a player's
// links die together when the bot bumps the player's link generation
// (Links). Sign-in sits behind Authenticator, so that another way in (a
// Discord Activity's OAuth2) can replace the link.
//
// Everything a page receives is built by BuildState from the game's view
// for its viewer, the same view the pictures are drawn from; the leak
// comparison tests check that shuffling one side's hidden pieces changes
// no byte the opponent's or the public's pages receive: states, events on
// open streams, texts and replay frames. A replay frame of a running match
// is the viewer's own view after that move; once the match is over every
// frame shows both armies.
//
// An open stream is pinged every PingEvery, an interval the page is told
// (PingHeader): a page that hears nothing, pings included, for two and a
// half times as long takes its stream for dead (a laptop slept, a phone
// changed networks, and a browser that only reads is never told) and opens
// another, whose first state is the board as it is now. A stream lost is
// tried again after a backoff of up to half a minute, or at once when the
// browser says the network is back (its online event). A page in the
// background (its tab hidden) holds no stream, and opens one when it is
// shown again: a browser opens at most six HTTP/1.1 connections to a host,
// and six boards open in tabs left none for a move.
//
// The page's links to its script and style name the build they are of (a
// digest of static/), under which a browser keeps them for good (its
// pictures it asks for again, answered "not modified" while the build is
// the same), and every API answer names the build served now
// (BuildHeader): a page open across an upgrade of the bot, its stream back
// from the restart, loads itself again, once for that build, rather than
// run its old script against the new bot; still not of it after that, it
// says to reload it and stops.
//
// Nor does anyone learn from how long a state is (the size of an
// encrypted answer, the size column of a proxy's log): the side to move's
// legal moves, which its hidden pieces decide, come padded to a fixed
// length (State.Pad), so that shuffling its own hidden pieces changes no
// state's length either.
//
// A page learns nothing from when it is told: an open stream is sent a
// change only when its viewer's state changes (State.Sent's key), so the
// other side's drafts reach it not at all (nor does their time, when a
// stream fell behind and lost the change it could see: it sends that as it
// was); and no page is sent the match's version, which counts changes it
// cannot see. A player's action carries the state's Basis instead (what
// the board showed, clocks aside), which the Actor checks on the match it
// acts on, and acts at its version.
//
// What stops or adds to a match's time (a pause by agreement, vacations,
// gifts of time, a proposal to pause) comes in State.Time from the storage
// facts the Discord board reads, and the page words it with the catalogue
// entries Discord uses, its time markup written in the reader's own time
// zone.
//
// The page (static/, plain JavaScript, no build step) writes no text of its
// own: it asks for its texts (BuildTexts, from the catalogues of
// internal/lang) in its viewer's language and piece numbering, a player's
// from Options.Preferences, the public's from the browser's language. They
// word how the match ended, or why it was called off (CalledOffText, with
// which the bot's notice says it too), as Discord's messages do. The
// board is a grid of buttons whose labels say what the viewer knows of
// each square; set-up and moves work by drag, by tap-tap and by keyboard.
// Its squares look as the pictures of package render draw them (the same
// colours, pieces, symbols and marks, as SVG files in static/), made from
// nothing but what the state says of each square: side, rank when known,
// moved, known Scout, revealed. Its marks (the last move's frames and a
// Scout's trail in the pictures' colours, a selection, a move's targets)
// each stand out at 3:1 from what they lie on. The page follows the
// reader's system, light or dark (style sheet only); the board keeps its
// colours in both, its light land being what its pieces and marks stand
// out from.
//
// No client makes the server work without end. Its API requests are
// limited for each link (Options.Rate a second for one viewer of one
// match) and over all its links together (ClientLinks times as many:
// spectator links are had for the asking, and each request replays a
// game); its requests whose link is refused before anything is looked up
// (none, malformed, forged) have one link's limit of their own, so that a
// flood of them is answered 429 without holding back its valid links or
// another client. It holds at most MaxStreamsPerClient event streams open
// over all its links, as each link does MaxStreamsPerLink over all
// clients, and the server MaxStreams in all. A client is its address (its
// port aside) as the admin's reverse proxy appends it to X-Forwarded-For
// (an IPv6 client is its /64). A throttled request is
// answered with the same words whoever asks, and the security headers of
// every answer.
//
// Wiring (the bot's side):
//
//   - Actor: apply a player's move, set-up, resignation, draw answer,
//     gift of time or pause proposal or answer through the bot's one
//     function for each (the same store call, versions and notices as on
//     Discord); return *Refusal for a reason the
//     player may read. It also lists and keeps the player's saved set-ups,
//     only while that player is setting up: they are the secrets of their
//     next matches too.
//   - Server.MatchChanged(m, g): call after every committed change of a
//     match, with the snapshot the change produced, and when the clock of
//     the side to move starts, or the set-up clock (same version,
//     ClockPending cleared); open pages get the new state within
//     milliseconds (BenchmarkMoveToEvent). Until the set-up clock starts,
//     the pages show the provisional deadline the set-up invites show.
//   - Signer.Sign: make the "Open board" link, public_url + "/board#" + token.
//   - Options.Preferences: a player's language (their Discord locale) and
//     piece numbering, from their settings.
package web
