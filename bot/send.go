package bot

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"
)

// How the outbox sends: every message carries a nonce made from its notice
// and part, with enforce_nonce, so that Discord answers a resend (after a
// timeout, or after a crash between sending and marking it sent) with the
// message it already made instead of a second one. Discord keeps a nonce for
// a few minutes only: a DM whose answer was lost is known made from the
// gateway instead (made.go), however long Discord then fails.

// nonceOf returns the nonce of part of a notice: at most 25 characters, as
// Discord allows, and the same on every attempt.
func nonceOf(notice uint64, part int) string {
	return "sb" + strconv.FormatUint(notice, 36) + "." + strconv.Itoa(part)
}

// nonceMessage is a message create with Discord's nonce fields, which
// discordgo's MessageSend lacks.
type nonceMessage struct {
	*discordgo.MessageSend
	Nonce        string           `json:"nonce"`
	EnforceNonce bool             `json:"enforce_nonce"`
	Attachments  []attachmentMeta `json:"attachments,omitempty"` // the pictures' alt texts
}

// sendOnce creates a message in channelID that Discord creates at most once
// for this nonce, however often it is sent, and returns the message's id.
// Only the id is read from Discord's answer: decoding the whole message (its
// attachments, embeds and components) cost 5% of the bot's time under load,
// for nothing the outbox uses.
func sendOnce(s *discordgo.Session, channelID, nonce string, msg *discordgo.MessageSend, opts ...discordgo.RequestOption) (string, error) {
	payload := nonceMessage{MessageSend: msg, Nonce: nonce, EnforceNonce: true, Attachments: attachmentsOf(msg.Files)}
	endpoint := discordgo.EndpointChannelMessages(channelID)
	var (
		response []byte
		err      error
	)
	if len(msg.Files) > 0 {
		contentType, body, encodeErr := discordgo.MultipartBodyWithJSON(payload, msg.Files)
		if encodeErr != nil {
			return "", fmt.Errorf("encoding a message: %w", encodeErr)
		}
		response, err = s.RequestRaw("POST", endpoint, contentType, body, endpoint, 0, opts...)
	} else {
		response, err = s.RequestWithBucketID("POST", endpoint, payload, endpoint, opts...)
	}
	if err != nil {
		return "", err
	}
	var m struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(response, &m); err != nil {
		return "", fmt.Errorf("reading Discord's answer: %w", err)
	}
	return m.ID, nil
}

// deliveryFailure says what a failed send means for its notice.
type deliveryFailure uint8

const (
	// retryLater: Discord or the network failed (5xx, timeouts, 429), or
	// refused the bot's token (401): the same message will go through later.
	retryLater deliveryFailure = iota
	// recipientUnreachable: the member does not take DMs from the bot (50007)
	// or left, the channel is gone (10003), or the bot may not post there
	// (50001, 50013): sending again will not help; the player must be told
	// another way.
	recipientUnreachable
	// refused: Discord refused the request itself (another 4xx, such as
	// 50035 Invalid Form Body or 40005 Request entity too large): sending it
	// again will not help either, and it is the bot's own fault. The outbox
	// sends it once more as plain text (refused.go), and if that is refused
	// too, tells the player where to see the match.
	refused
)

// Discord's JSON error codes that mean the recipient cannot be reached.
var unreachableCodes = map[int]bool{
	discordgo.ErrCodeUnknownChannel:                     true, // 10003
	discordgo.ErrCodeUnknownGuild:                       true, // 10004
	discordgo.ErrCodeUnknownMember:                      true, // 10007
	discordgo.ErrCodeUnknownUser:                        true, // 10013
	discordgo.ErrCodeMissingAccess:                      true, // 50001
	discordgo.ErrCodeCannotSendMessagesToThisUser:       true, // 50007
	discordgo.ErrCodeMissingPermissions:                 true, // 50013
	discordgo.ErrCodeCannotSendMessagesInVoiceChannel:   true, // 50008
	discordgo.ErrCodeThreadIsLocked:                     true, // 160005
	discordgo.ErrCodePerformedOperationOnArchivedThread: true, // 50083: archived and locked
}

// classify reads a send's error: what went wrong, and for a retry, how long
// Discord asked to wait (0: our own backoff).
func classify(err error) (deliveryFailure, time.Duration) {
	var rest *discordgo.RESTError
	if errors.As(err, &rest) && rest.Response != nil {
		status := rest.Response.StatusCode
		switch {
		case status == http.StatusTooManyRequests:
			return retryLater, retryAfter(rest)
		case status >= 500, status == http.StatusRequestTimeout:
			return retryLater, 0
		case status == http.StatusUnauthorized:
			// The token was reset: the bot stops (the gateway closes
			// with 4004); the message waits for it to run with the new
			// one, rather than be given up.
			return retryLater, 0
		case rest.Message != nil && unreachableCodes[rest.Message.Code]:
			return recipientUnreachable, 0
		case status == http.StatusForbidden || status == http.StatusNotFound:
			return recipientUnreachable, 0
		}
		return refused, 0
	}
	var limited *discordgo.RateLimitError
	if errors.As(err, &limited) && limited.RateLimit != nil && limited.TooManyRequests != nil {
		return retryLater, limited.RetryAfter
	}
	// Timeouts, broken connections, and discordgo's "exceeded max retries"
	// after repeated 502s: all may heal.
	return retryLater, 0
}

// retryAfter reads a 429's retry_after (seconds) from its body.
func retryAfter(rest *discordgo.RESTError) time.Duration {
	var body struct {
		RetryAfter float64 `json:"retry_after"`
	}
	if json.Unmarshal(rest.ResponseBody, &body) == nil && body.RetryAfter > 0 {
		return time.Duration(body.RetryAfter * float64(time.Second))
	}
	return 0
}

// Backoff of a notice that keeps failing: 2 s, 4 s, 8 s … up to 10 minutes.
const (
	firstRetry = 2 * time.Second
	lastRetry  = 10 * time.Minute
)

// backoff returns how long to wait after the given number of failed attempts
// (1 for the first), never less than what Discord asked for.
func backoff(attempts int, asked time.Duration) time.Duration {
	d := firstRetry
	for i := 1; i < attempts && d < lastRetry; i++ {
		d *= 2
	}
	return max(min(d, lastRetry), asked)
}
