package lang

import (
	"strings"
	"testing"
)

// TestTournamentAnnouncementsSayInvitations: the channel's announcements of
// a tournament's games, all at once or a round, end with the same sentence
// in every language, as in English: a channel read by every player, each
// told that their invitations (one for each game) come by DM.
func TestTournamentAnnouncementsSayInvitations(t *testing.T) {
	const (
		all   = "**%[1]s** — all %[2]d rounds start now, every game at once. Deadline for every game <t:%[3]s:f>. Your set-up invitations come by DM."
		round = "**%[1]s** — round %[2]d of %[3]d. Deadline <t:%[4]s:f>. Your set-up invitations come by DM."
	)
	last := func(s string) string {
		s = strings.TrimSuffix(s, ".")
		return s[strings.LastIndex(s, ".")+1:]
	}
	for _, code := range []string{"en", "nl", "de", "fr"} {
		p := For(code)
		a, r := last(p.Sprintf(all, "Cup", 3, "1")), last(p.Sprintf(round, "Cup", 1, 3, "1"))
		if a != r {
			t.Errorf("%s: the announcement of all rounds ends %q, of a round %q", code, a, r)
		}
	}
}
