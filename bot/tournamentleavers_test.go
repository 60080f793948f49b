package bot

import (
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// TestLeftServerOnlyUnknownMember: of Discord's answers to a member lookup,
// only Unknown Member says the member left; a server error, a rate limit,
// missing access, an unknown server or a network failure do not.
func TestLeftServerOnlyUnknownMember(t *testing.T) {
	rest := func(status, code int) error {
		return &discordgo.RESTError{Response: &http.Response{StatusCode: status}, Message: &discordgo.APIErrorMessage{Code: code}}
	}
	tests := []struct {
		name string
		err  error
		left bool
	}{
		{"a member", nil, false},
		{"unknown member", rest(http.StatusNotFound, discordgo.ErrCodeUnknownMember), true},
		{"unknown member, wrapped", fmt.Errorf("asking: %w", rest(http.StatusNotFound, discordgo.ErrCodeUnknownMember)), true},
		{"500", rest(http.StatusInternalServerError, 0), false},
		{"503 without a body", &discordgo.RESTError{Response: &http.Response{StatusCode: http.StatusServiceUnavailable}}, false},
		{"429", &discordgo.RateLimitError{RateLimit: &discordgo.RateLimit{TooManyRequests: &discordgo.TooManyRequests{RetryAfter: time.Second}}}, false},
		{"missing access", rest(http.StatusForbidden, discordgo.ErrCodeMissingAccess), false},
		{"unknown server", rest(http.StatusNotFound, discordgo.ErrCodeUnknownGuild), false},
		{"unknown user", rest(http.StatusNotFound, discordgo.ErrCodeUnknownUser), false},
		{"network", errors.New("dial tcp: connection refused"), false},
	}
	for _, tc := range tests {
		if got := leftServer(tc.err); got != tc.left {
			t.Errorf("%s: left %v, want %v", tc.name, got, tc.left)
		}
	}
}
