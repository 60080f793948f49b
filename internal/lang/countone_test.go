package lang

import "testing"

// TestCountOfOne: a text whose count can be 1 reads right with 1, in every
// language: "1 more saved set-up", not "1 more saved set-ups". Each of these
// keys was once a plain text, whose one form a count of 1 read wrongly: a
// Custom army of 39 pieces leaves one square of the set-up empty, and a list
// answer may leave out a single line.
func TestCountOfOne(t *testing.T) {
	tests := []struct {
		key  string
		want map[string]string // by language, with a count of 1
	}{
		{"Write . for each of the %[1]d empty squares.", map[string]string{
			"en": "Write . for the empty square.",
			"nl": "Schrijf . voor het lege veld.",
			"de": "Schreib . für das leere Feld.",
			"fr": "Écrivez . pour la case vide.",
		}},
		{"… and %[1]d more saved set-ups: `delete_setup:` and `default_setup:` find any of them as you type.", map[string]string{
			"en": "… and 1 more saved set-up: `delete_setup:` and `default_setup:` find it as you type.",
			"nl": "… en nog 1 bewaarde opstelling: `delete_setup:` en `default_setup:` vinden die terwijl je typt.",
			"de": "… und 1 weitere gespeicherte Aufstellung: `delete_setup:` und `default_setup:` finden sie beim Tippen.",
			"fr": "… et 1 placement enregistré de plus : `delete_setup:` et `default_setup:` le retrouvent pendant que vous tapez.",
		}},
		{"… and %[1]d older: `/stratego tournament standings tournament:NUMBER` shows any of them.", map[string]string{
			"en": "… and 1 older: `/stratego tournament standings tournament:NUMBER` shows it.",
			"nl": "… en nog 1 ouder toernooi: `/stratego tournament standings tournament:NUMMER` toont het.",
			"de": "… und 1 älteres: `/stratego tournament standings tournament:NUMMER` zeigt es.",
			"fr": "… et 1 plus ancien : `/stratego tournament standings tournament:NUMÉRO` l'affiche.",
		}},
	}
	for _, tc := range tests {
		for _, l := range Languages() {
			if got := For(l.Code).Sprintf(tc.key, 1); got != tc.want[l.Code] {
				t.Errorf("%s: %q with 1 reads %q, want %q", l.Code, tc.key, got, tc.want[l.Code])
			}
		}
	}
}
