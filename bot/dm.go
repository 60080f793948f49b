package bot

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
)

// matchTitleRE finds the match a message of the bot is about: "**Match #2**"
// in titles and invites, "match #2" in set-up previews, "Partij #2" and
// "Partie #2" in Dutch, German and French.
var matchTitleRE = regexp.MustCompile(`(?i)\b(?:match|partij|partie) #(\d+)`)

// onMessage reads what a player types to the bot in a DM: a set-up (three
// lines or more) or a move. A reply to one of the bot's messages about a
// match goes to that match.
func (b *Bot) onMessage(ctx context.Context, msg *discordgo.Message) {
	if msg.Author == nil || msg.Author.Bot || msg.GuildID != "" {
		return
	}
	text := strings.TrimSpace(msg.Content)
	if text == "" {
		return
	}
	ctx = withSettingsMemo(ctx)
	settings := b.settingsOf(ctx, msg.Author.ID)
	if strings.Count(text, "\n") >= 2 {
		b.dmSetup(ctx, msg, text, settings)
		return
	}
	b.dmMove(ctx, msg, text, settings)
}

// repliedMatch is the match number of the bot's message msg replies to, or "".
func (b *Bot) repliedMatch(msg *discordgo.Message) string {
	ref := msg.ReferencedMessage
	if ref == nil || ref.Author == nil || ref.Author.ID != b.botUserID() || b.botUserID() == "" {
		return ""
	}
	if sm := matchTitleRE.FindStringSubmatch(ref.Content); sm != nil {
		return sm[1]
	}
	return ""
}

// replyDM answers a DM, as a reply to it. The answer is the player's one
// word of what their message did (a refusal, their set-up's preview, a
// move played where no board follows), so a Discord that fails (a 5xx, a
// time-out) is asked again while the handler may run, a little later each
// time, and not after the bot stops (Run waits for the handlers). It goes
// with a nonce made from the DM it answers: sent again after an answer
// that was lost, or for a DM the gateway delivered twice, it shows once.
// A DM the player deleted meanwhile is answered all the same, as a message
// that replies to nothing: Discord refuses a reply to a message gone.
func (b *Bot) replyDM(ctx context.Context, msg *discordgo.Message, send *discordgo.MessageSend) {
	send.Reference = msg.SoftReference()
	if send.AllowedMentions == nil {
		send.AllowedMentions = &discordgo.MessageAllowedMentions{}
	}
	nonce := replyNonce(msg.ID)
	ctx, stop := b.whileRunning(ctx)
	defer stop()
	var w retrier
	for {
		_, err := sendOnce(b.s, msg.ChannelID, nonce, send, discordgo.WithContext(ctx))
		if err == nil {
			return
		}
		if failure, asked := classify(err); failure == retryLater && !b.cutShort(err) && b.retryWait(ctx, &w, asked) {
			rewind(send.Files)
			continue
		}
		if b.stopped() {
			b.log.Warn("answering a DM given up: the bot stops", "error", err)
			return
		}
		b.log.Warn("answering a DM failed", "error", err)
		return
	}
}

// replyNonce is the nonce of the answer to the DM id: at most 25
// characters, as Discord allows, and none of the outbox's (nonceOf).
func replyNonce(id string) string {
	if n, err := strconv.ParseUint(id, 10, 64); err == nil {
		return "sr" + strconv.FormatUint(n, 36)
	}
	return "sr" + id[:min(len(id), 23)]
}

// dmSetup takes a set-up typed in the DM as a draft of the match waiting for
// it, and answers with its preview.
func (b *Bot) dmSetup(ctx context.Context, msg *discordgo.Message, text string, settings *storage.PlayerSettings) {
	p, n := lang.For(settings.Locale), settings.Numbering
	reply := func(key string, args ...any) {
		b.replyDM(ctx, msg, &discordgo.MessageSend{Content: p.Sprintf(key, args...)})
	}
	m, side, err := b.matchMeant(ctx, msg.Author.ID, lookup{named: b.repliedMatch(msg), fits: needsSetup, inDM: setupByDM})
	if err != nil {
		reply("%[1]s", b.explainIn(p, n, err, "dm setup"))
		return
	}
	setup, read, err := game.ParseSetup(text, m.Rules, n)
	if err != nil {
		reply("%[1]s\nFix it and send it again.", b.explainIn(p, read, err, "dm setup"))
		return
	}
	pv, err := b.draft(ctx, p, m, side, setup, n)
	if err != nil {
		reply("%[1]s", b.explainIn(p, n, err, "dm setup"))
		return
	}
	b.replyDM(ctx, msg, &discordgo.MessageSend{Content: pv.text, Files: pv.files, Components: pv.components})
}

// The answers to a DM that is neither a move nor a set-up. How an
// infiltration reads is said only to a member who has a match with
// Infiltrators; the examples are the member's own side's (dmHelpFor).
const (
	txtDMMoveHelp             = "I read moves like `%[1]s` (from, to). `/stratego help` explains the rest."
	txtDMMoveHelpInfiltrate   = "I read moves like `%[1]s` (from, to) or `%[2]s` to infiltrate. `/stratego help` explains the rest."
	txtDMNameGuess            = "Name the piece you guess after `=`: an infiltration reads like `%[1]s` (from, target, the piece you guess)."
	txtDMBadGuess             = "%[1]s. An infiltration reads like `%[2]s` (from, target, the piece you guess)."
	txtDMNotASquare           = "`%[1]s` is not a square of the board: columns run from A to J and rows from 1 to 10. I read moves like `%[2]s` (from, to)."
	txtDMNotASquareInfiltrate = "`%[1]s` is not a square of the board: columns run from A to J and rows from 1 to 10. I read moves like `%[2]s` (from, to) or `%[3]s` to infiltrate."
)

// dmHelp is what the help for a DM that is not a move says: whether it
// says how an infiltration reads, and its examples.
type dmHelp struct {
	infiltrates bool
	move        string // a move, as exampleMove
	infiltrate  string // an infiltration, as exampleInfiltration
}

// neutralMove is the example of a move for a member whose side is not
// known: a step in the middle of the board, on neither side's rows.
const neutralMove = "E5-E6"

// dmHelpFor is the help for a DM of user's that is not a move, from the
// match it replies to (named), or, replying to none, user's active
// matches: it says how an infiltration reads when one of them has
// Infiltrators, and its examples are the side user plays in them all
// (`B4-B5` misleads Blue, whose pieces stand on rows 7 to 10); with
// matches on both sides, or none, the move's example is neutral and the
// infiltration's Red's, as no infiltration is on neither side's.
func (b *Bot) dmHelpFor(ctx context.Context, user, named string) dmHelp {
	help := dmHelp{move: neutralMove, infiltrate: exampleInfiltration(game.Red)}
	all := func(*storage.Match, game.Side) bool { return true }
	found, _, err := b.matchesMeant(ctx, user, lookup{named: named, fits: all})
	if err != nil && !errors.Is(err, txtErrUnreadableMeant) { // the others serve an example
		return help
	}
	if side, ok := oneSide(found); ok {
		help.move, help.infiltrate = exampleMove(side), exampleInfiltration(side)
	}
	infiltrators := fitting(found, func(m *storage.Match, _ game.Side) bool { return m.Rules.Army[game.Infiltrator] > 0 })
	help.infiltrates = len(infiltrators) > 0
	if side, ok := oneSide(infiltrators); ok {
		help.infiltrate = exampleInfiltration(side)
	}
	return help
}

// oneSide is the side of seats when they are all on one, and there are
// any.
func oneSide(seats []seat) (game.Side, bool) {
	if len(seats) == 0 {
		return game.Red, false
	}
	for _, s := range seats {
		if s.side != seats[0].side {
			return game.Red, false
		}
	}
	return seats[0].side, true
}

// exampleInfiltration is the example of how an infiltration of side's
// reads: from two rows into the opponent's, to its back row.
func exampleInfiltration(side game.Side) string {
	if side == game.Blue {
		return "E3~E1=F"
	}
	return "E8~E10=F"
}

// squareShapeRE finds what is shaped like a square: a letter and a number,
// on the board or not.
var squareShapeRE = regexp.MustCompile(`(?i)[a-z]\d{1,3}`)

// moveShapeRE matches a DM shaped like a move: two or three squares, with
// or without separators, and perhaps a guess (right or wrong). A set-up row
// has more pieces than that, so a DM of this shape is a move gone wrong,
// even while a set-up is waiting.
var moveShapeRE = regexp.MustCompile(`(?i)^\s*[a-z]\d{1,3}(?:\s*(?:-|–|→|>|~|x|to)?\s*[a-z]\d{1,3}){1,2}\s*(?:=[^\n]*)?$`)

// guessHelp answers an infiltration typed in the DM whose squares are on
// the board but which does not read: what is wrong with its guess.
func guessHelp(p lang.Printer, n game.Numbering, text string, help dmHelp) string {
	_, guess, ok := strings.Cut(text, "=")
	if guess = strings.TrimSpace(guess); !ok || guess == "" {
		return p.Sprintf(txtDMNameGuess, help.infiltrate)
	}
	var te *game.TextError
	if _, err := game.ParseRank(guess, n); errors.As(err, &te) {
		return p.Sprintf(txtDMBadGuess, reasonText(p, n, te.Text), help.infiltrate)
	}
	return p.Sprintf(txtDMMoveHelpInfiltrate, help.move, help.infiltrate)
}

// localGuess writes the guess of an infiltration typed in the DM
// ("E8~E10=Maarschalk") as the English name ParseMove reads, when it names
// a piece as the bot does in one of its languages: every board and message
// names the pieces in the member's language, so they write them so too.
// Any other text comes back as it was.
func localGuess(text string) string {
	head, guess, ok := strings.Cut(text, "=")
	if !ok {
		return text
	}
	if r, ok := render.RankNamed(guess); ok {
		return head + "=" + r.Name()
	}
	return text
}

// dmMove plays a move typed in the DM in the match waiting for it.
func (b *Bot) dmMove(ctx context.Context, msg *discordgo.Message, text string, settings *storage.PlayerSettings) {
	p, n := lang.For(settings.Locale), settings.Numbering
	reply := func(key string, args ...any) {
		b.replyDM(ctx, msg, &discordgo.MessageSend{Content: p.Sprintf(key, args...)})
	}
	user, named := msg.Author.ID, b.repliedMatch(msg)
	text = localGuess(text)
	mv, err := game.ParseMove(text, n)
	if err != nil {
		dh := b.dmHelpFor(ctx, user, named)
		help := p.Sprintf(txtDMMoveHelp, dh.move)
		notASquare := func(sq string) string { return p.Sprintf(txtDMNotASquare, sq, dh.move) }
		if dh.infiltrates {
			help = p.Sprintf(txtDMMoveHelpInfiltrate, dh.move, dh.infiltrate)
			notASquare = func(sq string) string { return p.Sprintf(txtDMNotASquareInfiltrate, sq, dh.move, dh.infiltrate) }
		}
		if moveShapeRE.MatchString(text) {
			// Squares, like a move, whatever set-up is waiting: say what
			// is wrong with them.
			squares, _, _ := strings.Cut(text, "=")
			for _, sq := range squareShapeRE.FindAllString(squares, -1) {
				if _, err := game.ParseSquare(strings.ToUpper(sq)); err != nil {
					reply("%[1]s", notASquare(strings.ToUpper(sq)))
					return
				}
			}
			if strings.Contains(text, "~") && dh.infiltrates {
				reply("%[1]s", guessHelp(p, n, text, dh))
				return
			}
			reply("%[1]s", help)
			return
		}
		if found, _, _ := b.matchesMeant(ctx, user, lookup{named: named, fits: needsSetup}); len(fitting(found, needsSetup)) > 0 {
			reply("Send your set-up as 4 lines, front row first (the template is in my earlier message), or press Edit or Random there.")
			return
		}
		reply("%[1]s", help)
		return
	}
	m, side, err := b.matchMeant(ctx, user, lookup{named: named, fits: yourTurn, inDM: moveByDM})
	if err != nil {
		reply("%[1]s", b.explainIn(p, n, err, "dm move"))
		return
	}
	if _, _, err := b.play(ctx, m, side, 0, mv, settings); err != nil {
		reply("%[1]s", b.explainIn(p, n, err, "dm move"))
		return
	}
	if settings.NoOwnMoves {
		// No board follows: this is the answer.
		reply("Played %[1]s in match #%[2]s.", mv.String(), m.ID.String())
	}
}
