package bot

import (
	"net/url"
	"strconv"
)

// InviteLink is the OAuth2 link that adds the bot of application appID to a
// server with the permissions a match needs and its slash command.
func InviteLink(appID string) string {
	q := url.Values{}
	q.Set("client_id", appID)
	q.Set("scope", "bot applications.commands")
	q.Set("permissions", strconv.FormatInt(invitePermissions(), 10))
	return "https://discord.com/oauth2/authorize?" + q.Encode()
}
