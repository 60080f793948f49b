package web

import (
	"context"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/internal/logsafe"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
)

// Preferences are how one member reads the board: the language (a Discord
// locale or language code, "" for English) and the piece numbering.
type Preferences struct {
	Language  string
	Numbering game.Numbering
}

// The page's texts. The page receives them translated, with each argument
// left as a {1}, {2} placeholder that it fills in itself.
const (
	txtPageTitle        = "Stratego board"
	txtNeedsLink        = "This page needs a link from the bot."
	txtBoard            = "Board"
	txtArmy             = "Army"
	txtRandom           = "Random"
	txtSaveDraft        = "Save draft"
	txtDraftSaved       = "Draft saved. It is not confirmed yet."
	txtConfirmSetup     = "Confirm set-up"
	txtUseSaved         = "Use a saved set-up"
	txtKeepSetup        = "Keep for later…"
	txtAskSetupName     = "A name for this set-up, to use it again in later matches:"
	txtKeep             = "Keep"
	txtKept             = "Kept as “%[1]s”."
	txtOfferDraw        = "Offer draw"
	txtAcceptDraw       = "Accept draw"
	txtDeclineDraw      = "Decline draw"
	txtWithdrawDraw     = "Withdraw draw offer"
	txtResign           = "Resign"
	txtAskResign        = "Resign this match?"
	txtAskOfferDraw     = "Offer a draw?"
	txtAskAcceptDraw    = "Accept the draw?"
	txtAskDeclineDraw   = "Decline the draw?"
	txtAskWithdrawDraw  = "Withdraw your draw offer?"
	txtYes              = "Yes"
	txtCancel           = "Cancel"
	txtFirstMove        = "First move"
	txtPrevMove         = "Previous move"
	txtNextMove         = "Next move"
	txtLastMove         = "Last move"
	txtDownload         = "Download the record"
	txtMoveList         = "Moves" // the list of the match's moves, named to a screen reader
	txtSetupPhase       = "Set-up: place your army, then confirm."
	txtSetupWaiting     = "Set-up: waiting for the other player."
	txtSetupWatching    = "The players are setting up."
	txtToMove           = "%[1]s to move."
	txtYourMove         = "Your move."
	txtDrawOffered      = "%[1]s offers a draw."
	txtDrawYouOffered   = " You offered a draw." // the Discord board's words, a space before them there
	txtAbandoned        = "The match was abandoned."
	txtVersus           = "%[1]s (Red) vs %[2]s (Blue) · %[3]s"
	txtReplayAt         = "Move %[1]s of %[2]s"
	txtReplaySaid       = "Move %[1]s of %[2]s: %[3]s" // a step of the replay, said to a screen reader: the move shown
	txtReplayNote       = "The board as you knew it after move %[1]s."
	txtRevealNote       = "All pieces shown."
	txtSquareEmpty      = "%[1]s: empty"
	txtSquareLake       = "%[1]s: lake"
	txtSquareOwn        = "%[1]s: your %[2]s"
	txtSquareKnown      = "%[1]s: %[2]s %[3]s"
	txtSquareHidden     = "%[1]s: %[2]s piece, unknown"
	txtSquareMoved      = "%[1]s: %[2]s piece, unknown, has moved"
	txtSquareScout      = "%[1]s: %[2]s piece, unknown, moved like a Scout"
	txtTarget           = "%[1]s, can move here"
	txtSelected         = "%[1]s, selected"
	txtLastMoved        = "%[1]s, last move"
	txtLeft             = "%[1]s: %[2]s left"
	txtGuess            = "Guess the rank of the piece you attack:"
	txtAttackOrGuess    = "Attack this piece, or infiltrate it: guess its rank."
	txtAttack           = "Attack"
	txtKeysSetup        = "Arrow keys move around the board. On a square, type a piece's label to put it there (%[1]s) or Delete to clear it; Enter on two squares swaps them; Escape lets go of a piece picked up."
	txtOutsideZone      = "Your pieces go on the marked squares: the four rows on your side." // a square off them, in set-up
	txtKeysTen          = "0 for 10, B for a Bomb, F for the Flag"
	txtKeysNoTen        = "B for a Bomb, F for the Flag"
	txtKeysPlay         = "Arrow keys move around the board; Enter selects a piece, and Enter on a marked square moves it there; Escape lets it go."
	txtKeysWatch        = "Arrow keys move around the board; each square says what stands on it."
	txtKeysReplay       = "Elsewhere on the page, ← and → step through the moves (in their list, ↑ and ↓ too), Home and End go to the start and to now."
	txtTrail            = "%[1]s, crossed by the last move"
	txtClockOf          = "%[1]s: %[2]s"
	txtSetupClock       = "Set-up time left: %[1]s"
	txtTurnClock        = "Time left: %[1]s" // the status line above says whose move it is
	txtLost             = "%[1]s has lost: %[2]s"
	txtLostNone         = "%[1]s has lost nothing yet"
	txtConnection       = "Connection lost; trying again."
	txtNoConnection     = "No connection to the bot: try again in a moment."
	txtNumberingModern  = "Numbering: modern (%[1]s %[2]s)"
	txtNumberingClassic = "Numbering: classic (%[1]s %[2]s)"
	txtFailed           = "Something went wrong on the bot's side: try again in a moment."
	txtUpgraded         = "The bot has been updated: reload this page."
)

// The page's texts of the match's time besides the clocks. Those the Discord
// board and notices say too are the same catalogue keys (the bot's
// txtPausedUntil, txtVacationLine, txtVacationLineYou, txtGiftsLeft,
// txtPauseAsk, txtPauseOffered, txtGaveTime), Discord's time markup <t:…:f> and <t:…:R>
// included: the page writes such a time in its reader's own time zone, or
// as how long from now.
const (
	txtPausedUntil  = "The match is paused by agreement until <t:%[1]s:f> (<t:%[1]s:R>)."
	txtVacationLine = "%[1]s is on vacation until <t:%[2]s:f>"
	txtVacationYou  = "You are on vacation until <t:%[1]s:f>"
	txtGiftsLeft    = "Time given: %[1]s %[2]d×, %[3]s %[4]d× (%[5]s each)"
	txtPauseAsk     = "%[1]s proposes to pause the match for %[2]s: both clocks stop until <t:%[3]s:f> if you agree now."
	txtPauseOffered = "You proposed to pause the match for %[1]s. Your opponent accepts or declines."
	txtGaveTime     = "You gave %[1]s %[2]s more. Gifts of time you have left in this match: %[3]d."
	txtGiveTime     = "Give time"
	txtAskGiveTime  = "Give %[1]s %[2]s more? Gifts of time you have left in this match: %[3]d."
)

// The page's controls of a pause by agreement. Its buttons say what they
// answer ("Accept pause", not the Discord message's "Pause"): on the page
// they stand next to the draw's, and a lone "Decline" could be either. The
// proposer takes their proposal back with Withdraw proposal, as with
// /stratego pause action:decline on Discord (which has no button of its own
// for it).
const (
	txtPauseButton      = "Accept pause"
	txtDeclinePause     = "Decline pause"
	txtAskAcceptPause   = "Pause the match for %[1]s?"
	txtAskDeclinePause  = "Decline the pause?"
	txtProposePause     = "Propose a pause"
	txtPauseLength      = "Length of the pause"
	txtAskProposePause  = "Propose to pause the match for %[1]s?"
	txtWithdrawPause    = "Withdraw proposal"
	txtAskWithdrawPause = "Withdraw your proposal to pause?"
)

// Why a match was called off, one sentence each, as the notice Discord
// sends its players says it (the bot's matchNotice.abandoned, which words it
// with CalledOffText) and the page too. A tournament scores its games'
// call-offs (the bot's tournamentResult), so theirs say how, not that no
// result is recorded.
const (
	txtCalledOffLate                = "The match is called off: not both set-ups arrived in time. No result is recorded."
	txtCalledOffLateTournament      = "The match is called off: not both set-ups arrived in time. It is not rated; the tournament counts it as lost by forfeit by each player whose set-up did not arrive."
	txtCalledOffRemoved             = "The match is called off: I was removed from the server it was played in. No result is recorded."
	txtCalledOffModerator           = "The match is called off: a moderator decided so (%[1]s). No result is recorded."
	txtCalledOffModeratorTournament = "The match is called off: a moderator decided so (%[1]s). It is not rated; the tournament counts it as lost by forfeit by both players."
	txtCalledOffTournament          = "The match is called off (%[1]s). It is not rated; `/stratego tournament standings` shows how the tournament counts it."
	txtCalledOffTournamentUnknown   = "The match is called off by its tournament. It is not rated; `/stratego tournament standings` shows how the tournament counts it."
	// A match a moderator awarded: the final board's headline.
	txtAwardedBy = "A moderator ended the match (%[1]s)."
)

// OffReason is why a tournament called one of its matches off. The match
// keeps it in its note (storage.Match.ModeratorNote) as a code and the
// names it takes (TournamentNote), in no language, so that each reader of
// the call-off reads it in theirs (CalledOffText): a player in their own,
// the channel in the server's.
type OffReason int

// The reasons a tournament calls a match off.
const (
	OffRoundDeadline   OffReason = iota + 1 // the round's deadline passed; names: the tournament
	OffDeadline                             // a round robin's one deadline passed; the tournament
	OffWithdrew                             // a player withdrew; the tournament, the player
	OffRemoved                              // a moderator removed a player; the tournament, the player
	OffLeft                                 // a player left the server; the tournament, the player
	OffCancelled                            // the tournament was cancelled; the tournament
	OffScored                               // its board was scored before it began; the tournament
	OffWithdrewEarlier                      // a player withdrew as it was made; the tournament
	OffDuplicate                            // made twice by mistake; no names
)

// The words of each OffReason, with the names it takes, in Discord's
// Markdown (the names escaped by the caller of TournamentNote).
const (
	txtOffRoundDeadline   = "%[1]s: the round's deadline passed"
	txtOffDeadline        = "%[1]s: the tournament's deadline passed"
	txtOffWithdrew        = "%[1]s: %[2]s withdrew"
	txtOffRemoved         = "%[1]s: a moderator removed %[2]s"
	txtOffLeft            = "%[1]s: %[2]s left the server"
	txtOffCancelled       = "%[1]s was cancelled"
	txtOffScored          = "%[1]s: this game was already scored"
	txtOffWithdrewEarlier = "%[1]s: a player withdrew before this game began"
	txtOffDuplicate       = "made twice by mistake; the other match of this pairing counts"
)

var offWords = map[OffReason]string{
	OffRoundDeadline: txtOffRoundDeadline, OffDeadline: txtOffDeadline, OffWithdrew: txtOffWithdrew,
	OffRemoved: txtOffRemoved, OffLeft: txtOffLeft, OffCancelled: txtOffCancelled, OffScored: txtOffScored,
	OffWithdrewEarlier: txtOffWithdrewEarlier, OffDuplicate: txtOffDuplicate,
}

// noteMark begins a note TournamentNote wrote, and noteSep parts it:
// control characters, which no name holds (Discord refuses them). A note
// without the mark is an older match's reason, written out in the server's
// language, and is shown as it is.
const (
	noteMark = "\x1e"
	noteSep  = "\x1f"
)

// TournamentNote is the note of a match its tournament calls off for why,
// with the names why takes (escaped Markdown): read in any language by
// CalledOffText.
func TournamentNote(why OffReason, names ...string) string {
	note := noteMark + strconv.Itoa(int(why))
	for _, name := range names {
		note += noteSep + noteMarks.Replace(name)
	}
	return note
}

// noteMarks drops the note's marks from a name that holds them (a
// tournament's name is checked only for showing something).
var noteMarks = strings.NewReplacer(noteMark, "", noteSep, "")

// tournamentNoteText words note, a tournament's call-off note, in p's
// language: as TournamentNote wrote it, or an older note as it is. It is
// false for a reason this build does not know (a newer one wrote it).
func tournamentNoteText(p lang.Printer, note string) (string, bool) {
	rest, ok := strings.CutPrefix(note, noteMark)
	if !ok {
		return note, true
	}
	parts := strings.Split(rest, noteSep)
	code, err := strconv.Atoi(parts[0])
	words, known := offWords[OffReason(code)]
	if err != nil || !known {
		return "", false
	}
	args := make([]any, len(parts)-1)
	for k, name := range parts[1:] {
		args[k] = name
	}
	return p.Sprintf(words, args...), true
}

// The server's refusals of a request.
const (
	txtLinkInvalid = "This link is not valid (any more). A new one comes with your next board by DM, or at once with /stratego history in Discord (/stratego setup while you set up, /stratego watch for the public view)."
	txtTooMany     = "Too many requests; wait a moment."
	txtJSONOnly    = "JSON only."
	txtTooLarge    = "Too large."
	txtBadRequest  = "Bad request."
	txtPlayersOnly = "Only a player can do that."
	txtNoMatch     = "No such match."
	txtStale       = "The board changed since you looked: try again on the board as it is now."
)

// pageTexts maps the page's short names to the texts above.
var pageTexts = map[string]string{
	"title": txtPageTitle, "needsLink": txtNeedsLink, "board": txtBoard, "army": txtArmy,
	"random": txtRandom, "save": txtSaveDraft, "draftSaved": txtDraftSaved, "confirm": txtConfirmSetup,
	"useSaved": txtUseSaved, "keepSetup": txtKeepSetup, "askName": txtAskSetupName, "keep": txtKeep, "kept": txtKept,
	"offerDraw": txtOfferDraw, "acceptDraw": txtAcceptDraw, "declineDraw": txtDeclineDraw, "resign": txtResign,
	"askResign": txtAskResign, "askOffer": txtAskOfferDraw, "askAccept": txtAskAcceptDraw, "askDecline": txtAskDeclineDraw,
	"withdrawDraw": txtWithdrawDraw, "askWithdrawDraw": txtAskWithdrawDraw,
	"yes": txtYes, "cancel": txtCancel,
	"first": txtFirstMove, "prev": txtPrevMove, "next": txtNextMove, "last": txtLastMove, "download": txtDownload, "moves": txtMoveList,
	"setup": txtSetupPhase, "setupWaiting": txtSetupWaiting, "setupWatching": txtSetupWatching,
	"toMove": txtToMove, "yourMove": txtYourMove, "drawOffered": txtDrawOffered, "drawYou": txtDrawYouOffered, "abandoned": txtAbandoned,
	"versus": txtVersus, "replayAt": txtReplayAt, "replaySaid": txtReplaySaid, "replayNote": txtReplayNote, "revealNote": txtRevealNote,
	"sqEmpty": txtSquareEmpty, "sqLake": txtSquareLake, "sqOwn": txtSquareOwn, "sqKnown": txtSquareKnown,
	"sqHidden": txtSquareHidden, "sqMoved": txtSquareMoved, "sqScout": txtSquareScout,
	"target": txtTarget, "selected": txtSelected, "lastMoved": txtLastMoved, "left": txtLeft, "guess": txtGuess, "attackOrGuess": txtAttackOrGuess, "attack": txtAttack,
	"numModern": txtNumberingModern, "numClassic": txtNumberingClassic,
	"keysSetup": txtKeysSetup, "outsideZone": txtOutsideZone, "keysTen": txtKeysTen, "keysNoTen": txtKeysNoTen, "keysPlay": txtKeysPlay, "keysWatch": txtKeysWatch, "keysReplay": txtKeysReplay, "trail": txtTrail,
	"clockOf": txtClockOf, "setupClock": txtSetupClock, "turnClock": txtTurnClock, "lost": txtLost, "lostNone": txtLostNone, "connection": txtConnection, "offline": txtNoConnection, "failed": txtFailed, "upgraded": txtUpgraded,
	"paused": txtPausedUntil, "away": txtVacationLine, "awayYou": txtVacationYou, "gifts": txtGiftsLeft, "pauseAsk": txtPauseAsk, "pauseOffered": txtPauseOffered,
	"giveTime": txtGiveTime, "askGiveTime": txtAskGiveTime, "gaveTime": txtGaveTime,
	"pause": txtPauseButton, "declinePause": txtDeclinePause, "askPause": txtAskAcceptPause, "askDeclinePause": txtAskDeclinePause,
	"proposePause": txtProposePause, "pauseLength": txtPauseLength, "askProposePause": txtAskProposePause,
	"withdrawPause": txtWithdrawPause, "askWithdrawPause": txtAskWithdrawPause,
}

// Texts is everything the page writes, in one viewer's language and numbering.
type Texts struct {
	Lang   string            `json:"lang"`
	T      map[string]string `json:"t"`
	Ranks  []string          `json:"ranks"`  // piece names by rank number: "Marshal"
	Pieces []string          `json:"pieces"` // with their label: "Marshal (10)"
	Labels []string          `json:"labels"` // short labels in the viewer's numbering: "10", "S"
	Sides  [2]string         `json:"sides"`
	// Names are both players' names as this viewer reads them
	// (Options.Names), which the page shows in place of the state's, the
	// same for every viewer: a practice match's computer in the viewer's
	// language.
	Names [2]string `json:"names"`
	// Variant is the match's variant's name.
	Variant string `json:"variant"`
	// Result words how the match ended, for this viewer, or why it was
	// called off (calledOffText); "" while it is on.
	Result string `json:"result,omitempty"`
	// Gift is what one gift of time adds in this match: "15 seconds", "1 day".
	Gift string `json:"gift,omitempty"`
	// Days words a pause of n days at index n ("3 days"), 1 to storage.MaxPauseDays.
	Days []string `json:"days"`
}

// verbs finds a text's arguments: %[1]s, %[2]d.
var verbs = regexp.MustCompile(`%\[(\d)\]([a-z])`)

// countMark stands for the count argument n while a text is formatted
// (below 1000, so that no language groups its digits), and is then
// replaced by its placeholder.
func countMark(n int) int { return 900 + n }

// template formats key in p's language with each argument left as its
// placeholder, {1}, {2}: a string argument as itself, a count as a mark
// replaced afterwards.
func template(p lang.Printer, key string) string {
	var args []any
	counts := map[int]bool{}
	for _, v := range verbs.FindAllStringSubmatch(key, -1) {
		n := int(v[1][0] - '0')
		for len(args) < n {
			args = append(args, "{"+strconv.Itoa(len(args)+1)+"}")
		}
		if v[2] == "d" {
			args[n-1], counts[n] = countMark(n), true
		}
	}
	out := p.Sprintf(key, args...)
	for n := range counts {
		out = strings.ReplaceAll(out, strconv.Itoa(countMark(n)), "{"+strconv.Itoa(n)+"}")
	}
	return out
}

// BuildTexts returns the page's texts in p's language with numbering n.
// result and names word the match's end for viewer; a match still on has none.
func BuildTexts(p lang.Printer, n game.Numbering, variant game.Variant, result game.Result, names [2]string, viewer game.Viewer) *Texts {
	t := &Texts{Lang: p.Code(), T: make(map[string]string, len(pageTexts)), Variant: render.VariantName(p, variant)}
	for name, key := range pageTexts {
		t.T[name] = strings.TrimSpace(template(p, key))
	}
	t.Days = make([]string, storage.MaxPauseDays+1)
	for d := 1; d <= storage.MaxPauseDays; d++ {
		t.Days[d] = render.Duration(p, time.Duration(d)*24*time.Hour)
	}
	t.Ranks = make([]string, game.NumRanks)
	t.Pieces = make([]string, game.NumRanks)
	t.Labels = make([]string, game.NumRanks)
	for r := game.Spy; r <= game.Flag; r++ {
		t.Ranks[r] = render.RankName(p, r)
		t.Pieces[r] = render.PieceName(p, r, n)
		t.Labels[r] = r.Label(n)
	}
	t.Sides = [2]string{render.SideName(p, game.Red), render.SideName(p, game.Blue)}
	t.Names = names
	t.Result = render.ResultText(p, result, names, viewer)
	return t
}

// preferences returns the viewer's language and numbering: a player's own
// (Options.Preferences), or, for the public view, the language and numbering
// the page asks for (its browser's language, and the spectator's choice of
// numbering; neither is a secret).
func (s *Server) preferences(ctx context.Context, r *http.Request, c Capability, userOf func(game.Side) string) Preferences {
	pref := Preferences{Language: r.URL.Query().Get("lang")}
	if r.URL.Query().Get("numbering") == "classic" {
		pref.Numbering = game.NumberingClassic
	}
	side, ok := c.Side()
	if !ok || s.opts.Preferences == nil {
		return pref
	}
	own, err := s.opts.Preferences(ctx, userOf(side))
	if err != nil {
		s.opts.Log("web: preferences", "match", c.Match, "err", logsafe.Err(err))
		return pref
	}
	if own.Language == "" {
		own.Language = pref.Language
	}
	return own
}

// texts serves the page's texts for its viewer.
func (s *Server) texts(w http.ResponseWriter, r *http.Request, c Capability) error {
	m, g, err := s.requestedGame(r, c)
	if err != nil {
		return err
	}
	pref := s.preferences(r.Context(), r, c, func(side game.Side) string { return m.Players[side].UserID })
	var result game.Result
	if g != nil {
		result = g.Result()
	}
	p := lang.For(pref.Language)
	t := BuildTexts(p, pref.Numbering, m.Rules.Variant, result, s.names(p, m), c.Viewer)
	t.Gift = render.GiftText(p, m.Clock.On(), m.GiftTime())
	if m.Phase == storage.PhaseAbandoned {
		t.Result = calledOffText(p, m)
	}
	if result.Over() && result.Method == game.Awarded && m.ModeratorNote != "" {
		// Which moderator and why, first, as the final board says it.
		t.Result = p.Sprintf(txtAwardedBy, markdownText(m.ModeratorNote)) + " " + t.Result
	}
	return writeJSON(w, t)
}

// names are both players' names as a reader in p's language sees them
// (Options.Names).
func (s *Server) names(p lang.Printer, m *storage.Match) [2]string {
	if s.opts.Names != nil {
		return s.opts.Names(p, m)
	}
	return [2]string{m.Players[game.Red].Name, m.Players[game.Blue].Name}
}

// CalledOffText says why m was called off, in Discord's Markdown: the one
// wording of it, for the notice Discord sends and for the page.
func CalledOffText(p lang.Printer, m *storage.Match) string {
	switch m.CalledOff {
	case storage.CallOffBotRemoved:
		return p.Sprintf(txtCalledOffRemoved)
	case storage.CallOffModerator:
		if m.ForTournament() {
			return p.Sprintf(txtCalledOffModeratorTournament, m.ModeratorNote)
		}
		return p.Sprintf(txtCalledOffModerator, m.ModeratorNote)
	case storage.CallOffTournament:
		if why, ok := tournamentNoteText(p, m.ModeratorNote); ok {
			return p.Sprintf(txtCalledOffTournament, why)
		}
		return p.Sprintf(txtCalledOffTournamentUnknown)
	}
	if m.ForTournament() {
		return p.Sprintf(txtCalledOffLateTournament)
	}
	return p.Sprintf(txtCalledOffLate)
}

// calledOffText is CalledOffText for the page, which shows text, not
// Markdown (markdownText).
func calledOffText(p lang.Printer, m *storage.Match) string {
	return markdownText(CalledOffText(p, m))
}

// markdownText is the text Discord shows for s, a message's Markdown as the
// bot writes it: code marks (`) dropped, and a backslash that escapes ASCII
// punctuation (as in the names of a moderator's note) not shown.
func markdownText(s string) string {
	var sb strings.Builder
	sb.Grow(len(s))
	for k := 0; k < len(s); k++ {
		switch c := s[k]; {
		case c == '\\' && k+1 < len(s) && isASCIIPunct(s[k+1]):
			k++
			sb.WriteByte(s[k])
		case c == '`':
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String()
}

// isASCIIPunct reports whether c is ASCII punctuation, which Markdown lets a
// backslash escape.
func isASCIIPunct(c byte) bool {
	return strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c) >= 0
}
