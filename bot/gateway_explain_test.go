package bot

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// TestGatewayErrorsSayWhatToDo: the errors of opening the gateway that
// Discord means for good (a close of finalCloses, a 401 to the first
// request) are refusals with advice that holds for this bot, which asks for
// no privileged intent.
func TestGatewayErrorsSayWhatToDo(t *testing.T) {
	tests := []struct {
		name    string
		err     error
		refused bool
		want    []string
		not     []string
	}{
		{"a revoked token", &websocket.CloseError{Code: 4004, Text: "Authentication failed."}, true,
			[]string{"4004", "Reset Token into DISCORD_TOKEN"}, nil},
		{"privileged intents", &websocket.CloseError{Code: 4014, Text: "Disallowed intent(s)."}, true,
			[]string{"4014", "asks for none", "unmodified strategobot", "strategobot check"}, []string{"Privileged Gateway Intents", "enable them"}},
		{"invalid shards", &websocket.CloseError{Code: 4010, Text: "Invalid shard."}, true, []string{"4010", "shard_count", "shard_id below it"}, nil},
		{"an old gateway version", &websocket.CloseError{Code: 4012, Text: "Invalid API version."}, true, []string{"4012", "upgrade strategobot"}, nil},
		{"invalid intents", &websocket.CloseError{Code: 4013, Text: "Invalid intent(s)."}, true, []string{"4013", "unmodified strategobot"}, nil},
		{"a token refused before the gateway", &discordgo.RESTError{Response: &http.Response{StatusCode: 401, Status: "401 Unauthorized"}}, true,
			[]string{"answered 401 Unauthorized", "Reset Token into DISCORD_TOKEN"}, nil},
		{"Discord's trouble before the gateway", &discordgo.RESTError{Response: &http.Response{StatusCode: 500, Status: "500 Internal Server Error"}}, false, nil, nil},
		{"no WebSocket at the gateway's address", websocket.ErrBadHandshake, false, []string{"bad handshake", "must pass WebSocket upgrades", "discordstatus.com"}, nil},
		{"a close worth reconnecting", &websocket.CloseError{Code: 4000, Text: "Unknown error."}, false, []string{"4000"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := ExplainGatewayError(tc.err)
			if errors.Is(err, ErrRefused) != tc.refused {
				t.Errorf("%v: refused %v, want %v", err, errors.Is(err, ErrRefused), tc.refused)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q wants %q", err, w)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(err.Error(), n) {
					t.Errorf("%q says %q, which does not hold for this bot", err, n)
				}
			}
		})
	}
}
