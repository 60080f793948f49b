package bot

import (
	"context"
	"errors"
	"strconv"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
)

// Open challenges: /stratego challenge without an opponent. Anyone in the
// channel but the challenger may take one; storage's AcceptChallenge deletes
// the challenge in the transaction that makes the match, so of many members
// pressing Accept at once exactly one gets it and the others are told it
// was taken.

// Options of a rating range, on open challenges and seeks.
const (
	optRatingMin = "rating_min"
	optRatingMax = "rating_max"
)

// actTake is Accept on an open challenge: a click on a challenge that is
// gone then means someone else was quicker.
const actTake = "take"

// maxRating bounds the rating options: far above any Glicko-2 rating.
const maxRating = 4000

const (
	txtOpenChallenge = "%[1]s posts an open challenge: anyone in this channel may accept. %[2]s.%[3]s%[4]s\nThe challenge expires <t:%[5]s:R>."
	txtRatingRange   = " Ratings %[1]s to %[2]s."
	txtRatingFrom    = " Ratings from %[1]s."
	txtRatingUpTo    = " Ratings up to %[1]s."
	txtAnyone        = "anyone"
	txtOpenTaken     = "Someone else was quicker: this open challenge has been taken (or withdrawn, or it expired). Post your own with `/stratego challenge`, or join the queue with `/stratego seek`."
	txtOwnOpen       = "You posted this open challenge; someone else must accept it. Withdraw it with %[1]s."
	txtOutOfRange    = "This challenge is for ratings %[1]s; your %[2]s rating here is %[3]s (see `/stratego stats`). Post your own with `/stratego challenge`."
	txtRangeForOpen  = "`rating_min` and `rating_max` are for open challenges: leave out `opponent` to use them."
	txtRangeEmpty    = "`rating_min` must not be above `rating_max`."
	txtRatingMinOpt  = "Open challenges: the lowest rating that may accept"
	txtRatingMaxOpt  = "Open challenges: the highest rating that may accept"
	txtOpenLeft      = "%[1]s left the server: this open challenge is withdrawn. Post your own with `/stratego challenge`, or join the queue with `/stratego seek`."
)

// ratingOpt declares a rating option.
func ratingOpt(name, desc string) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: name, Description: desc,
		MinValue: floatPtr(0), MaxValue: maxRating}
}

// ratingRange reads rating_min and rating_max (0: no bound); set when
// either is given.
func ratingRange(opts options) (lo, hi int, set bool) {
	l, okl := opts.integer(optRatingMin)
	h, okh := opts.integer(optRatingMax)
	return int(l), int(h), okl || okh
}

// openChallengeRange reads a challenge's rating range, refused on a
// challenge that names its opponent or when it is empty.
func openChallengeRange(opts options, opp storage.Player) (int, int, error) {
	lo, hi, set := ratingRange(opts)
	switch {
	case !set:
		return 0, 0, nil
	case opp.UserID != "":
		return 0, 0, friendly(txtRangeForOpen)
	case hi != 0 && lo > hi:
		return 0, 0, friendly(txtRangeEmpty)
	}
	return lo, hi, nil
}

// rangeText words a rating range, with a leading space; "" for none.
func rangeText(p lang.Printer, lo, hi int) string {
	switch {
	case lo != 0 && hi != 0:
		return p.Sprintf(txtRatingRange, strconv.Itoa(lo), strconv.Itoa(hi))
	case lo != 0:
		return p.Sprintf(txtRatingFrom, strconv.Itoa(lo))
	case hi != 0:
		return p.Sprintf(txtRatingUpTo, strconv.Itoa(hi))
	}
	return ""
}

func ratingRangeText(p lang.Printer, c *storage.Challenge) string {
	return rangeText(p, c.RatingMin, c.RatingMax)
}

// opponentLabel is the challenged member's name, or "anyone", for a
// message's content (mdEscape).
func opponentLabel(p lang.Printer, c *storage.Challenge) string {
	if c.Open() {
		return p.Sprintf(txtAnyone)
	}
	return mdEscape(c.Opponent.Name)
}

// challengeMentions pings the challenged member; an open challenge pings nobody.
func challengeMentions(c *storage.Challenge) *discordgo.MessageAllowedMentions {
	if c.Open() {
		return &discordgo.MessageAllowedMentions{}
	}
	return &discordgo.MessageAllowedMentions{Users: []string{c.Opponent.UserID}}
}

// challengeControls are a challenge's buttons: an open one has Accept (to
// take it) and Cancel, there being nobody to decline.
func challengeControls(p lang.Printer, c *storage.Challenge, side string) []discordgo.MessageComponent {
	if !c.Open() {
		return challengeButtons(p, c.ID, side)
	}
	cid := func(action string) string {
		return customID{kind: kindChallenge, action: action, id: uint64(c.ID), arg: side}.String()
	}
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: p.Sprintf(txtAccept), Style: discordgo.SuccessButton, CustomID: cid(actTake)},
		discordgo.Button{Label: p.Sprintf(txtCancel), Style: discordgo.SecondaryButton, CustomID: cid(actCancel)},
	}}}
}

// roundedRating is a rating as /stratego stats and the leaderboard show it,
// and as the queue weighs it (storage.RoundRating).
func roundedRating(r float64) int { return storage.RoundRating(r) }

// takeOpenChallenge accepts an open challenge for the member who clicked,
// within its rating range.
func (b *Bot) takeOpenChallenge(ctx context.Context, i *discordgo.Interaction, c *storage.Challenge, side string) {
	me := userOf(i)
	p := printerOf(i)
	if me.ID == c.Challenger.UserID {
		b.say(i, txtOwnOpen, labelOn(i.Message, actCancel, b.publicPrinter(c.GuildID), txtCancel))
		return
	}
	if c.RatingMin != 0 || c.RatingMax != 0 {
		s, err := b.store.Standing(ctx, c.GuildID, c.Rules.Variant, me.ID)
		if err != nil {
			b.tell(i, b.explain(p, err, "accept"))
			return
		}
		if r := roundedRating(s.Rating); !c.RatingAllows(r) {
			b.say(i, txtOutOfRange, rangeWords(c.RatingMin, c.RatingMax), render.VariantName(p, c.Rules.Variant), strconv.Itoa(r))
			return
		}
	}
	if why := b.whyNotPlayHere(ctx, i, b.threadsFor(b.serverOf(ctx, c.GuildID))); why != "" {
		b.tell(i, why)
		return
	}
	ask, cancel := context.WithTimeout(ctx, memberAskTimeout)
	left := b.hasLeft(ask, c.GuildID, c.Challenger.UserID)
	cancel()
	if left {
		b.withdrawLeftOpen(ctx, i, c)
		return
	}
	b.acceptChallenge(ctx, i, c, side)
}

// withdrawLeftOpen withdraws the open challenge of a member who left the
// server, for the member who pressed Accept: nobody would come to the
// match. Its message says so, and what to do instead.
func (b *Bot) withdrawLeftOpen(ctx context.Context, i *discordgo.Interaction, c *storage.Challenge) {
	_, err := b.store.DeleteChallenge(ctx, c.ID)
	if errors.Is(err, storage.ErrNotFound) {
		b.say(i, txtOpenTaken)
		return
	}
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "accept"))
		return
	}
	b.log.Info("an open challenge of a member who left is withdrawn", "challenge", c.ID, "guild", c.GuildID)
	p := b.publicPrinter(c.GuildID)
	b.respond(i, discordgo.InteractionResponseUpdateMessage, &discordgo.InteractionResponseData{
		Content: p.Sprintf(txtOpenLeft, mdEscape(c.Challenger.Name)), Components: []discordgo.MessageComponent{},
		AllowedMentions: &discordgo.MessageAllowedMentions{},
	})
}

// rangeWords is a rating range without its lead-in: "1400–1600", "1400+", "≤ 1600".
func rangeWords(lo, hi int) string {
	switch {
	case lo != 0 && hi != 0:
		return strconv.Itoa(lo) + "–" + strconv.Itoa(hi)
	case lo != 0:
		return "≥ " + strconv.Itoa(lo)
	}
	return "≤ " + strconv.Itoa(hi)
}
