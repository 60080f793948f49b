package bot

import "testing"

// TestTokenUserID: a bot token's first part is its bot's id in base64; a
// token shaped otherwise names nobody.
func TestTokenUserID(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ token, want string }{
		{"MTA4NzY1NDMyMTAxMjM0NTY3OA.GaBcDe.secret", "1087654321012345678"},
		{"Bot MTA4NzY1NDMyMTAxMjM0NTY3OA.GaBcDe.secret", "1087654321012345678"},
		{"MTA4NzY1NDMyMTAxMjM0NTY3OA==.GaBcDe.secret", "1087654321012345678"},
		{"NDI.x.y", "42"},
		{"test-token", ""},
		{"", ""},
		{"aGVsbG8.x.y", ""}, // "hello": not an id
		{"!!!.x.y", ""},
	} {
		if got := tokenUserID(tc.token); got != tc.want {
			t.Errorf("tokenUserID(%q) = %q, want %q", tc.token, got, tc.want)
		}
	}
}
