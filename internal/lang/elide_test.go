package lang

import "testing"

// TestFrenchElision: a French text elides "de" (and "que", and the article
// "le") before a name, or any word given as an argument, that starts with a
// vowel, as French is written ("le Drapeau d'Ada", "l'Éclaireur"); a square
// or a move keeps "de", and the other languages are left as they are.
func TestFrenchElision(t *testing.T) {
	tests := []struct {
		lang, key string
		args      []any
		want      string
	}{
		{"fr", "%[1]s won: %[2]s's Flag was captured.", []any{"Bob", "Ada"}, "Bob a gagné : le Drapeau d'Ada a été pris."},
		{"fr", "%[1]s won: %[2]s's Flag was captured.", []any{"Ada", "Émile"}, "Ada a gagné : le Drapeau d'Émile a été pris."},
		{"fr", "%[1]s won: %[2]s's Flag was captured.", []any{"Ada", "Bob"}, "Ada a gagné : le Drapeau de Bob a été pris."},
		{"fr", "%[1]s to move.", []any{"Ordinateur (difficile)"}, "Au tour d'Ordinateur (difficile)."},
		{"fr", "%[1]s to move.", []any{"Rouge"}, "Au tour de Rouge."},
		{"fr", "Set-up confirmed. Match #%[1]s starts as soon as %[2]s has confirmed theirs.", []any{"7", "Ada"},
			"Placement confirmé. La partie #7 commence dès qu'Ada aura confirmé le sien."},
		{"fr", "Move %[1]d: %[2]s moved a hidden piece from %[3]s to %[4]s.", []any{3, "Isabelle", "A4", "E5"},
			"Coup 3 : Isabelle a déplacé une pièce cachée de A4 à E5."},
		{"fr", "%[1]s's %[3]s took %[2]s's %[4]s on %[5]s.", []any{"Ugo", "Ada", "Maréchal (10)", "Espion", "I5"},
			"Ada a perdu son Espion en I5 : Ugo l'a pris avec son Maréchal (10)."},
		{"fr", "%[1]s %[2]s beats %[3]s %[4]s", []any{"Rouge", "Éclaireur (2)", "Bleu", "Espion"}, "l'Éclaireur (2) de Rouge bat l'Espion de Bleu"},
		{"fr", "%[1]s %[2]s beats %[3]s %[4]s", []any{"Rouge", "Capitaine (6)", "Bleu", "Éclaireur (2)"}, "le Capitaine (6) de Rouge bat l'Éclaireur (2) de Bleu"},
		{"de", "%[1]s won: %[2]s's Flag was captured.", []any{"Ada", "Emil"}, "Ada hat gewonnen: Die Fahne von Emil wurde erobert."},
		{"nl", "%[1]s won: %[2]s's Flag was captured.", []any{"Bob", "Ada"}, "Bob heeft gewonnen: de Vlag van Ada is veroverd."},
	}
	for _, tc := range tests {
		if got := For(tc.lang).Sprintf(tc.key, tc.args...); got != tc.want {
			t.Errorf("%s %q %v:\ngot  %q\nwant %q", tc.lang, tc.key, tc.args, got, tc.want)
		}
	}
}
