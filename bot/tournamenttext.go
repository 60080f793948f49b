package bot

import (
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/tournament"
)

// pairingMention writes a pairing with its players mentioned.
func pairingMention(p lang.Printer, g tournament.Pairing) string {
	if g.IsBye() {
		return p.Sprintf("<@%[1]s> has a bye.", g.Red)
	}
	if g.Result.Done() {
		return p.Sprintf("<@%[1]s> (Red) – <@%[2]s> (Blue): %[3]s", g.Red, g.Blue, resultText(p, g.Result))
	}
	return p.Sprintf("<@%[1]s> (Red) – <@%[2]s> (Blue)", g.Red, g.Blue)
}

// pairingText writes a pairing with its players' names and result.
func pairingText(p lang.Printer, t *storage.Tournament, g tournament.Pairing) string {
	if g.IsBye() {
		return p.Sprintf("%[1]s has a bye.", playerLabel(t, g.Red))
	}
	return p.Sprintf("%[1]s (Red) – %[2]s (Blue): %[3]s", playerLabel(t, g.Red), playerLabel(t, g.Blue), resultText(p, g.Result))
}

// resultText words a tournament result: only what the channel's boards show.
func resultText(p lang.Printer, r tournament.Result) string {
	switch r {
	case tournament.RedWon:
		return p.Sprintf("Red won")
	case tournament.BlueWon:
		return p.Sprintf("Blue won")
	case tournament.Drawn:
		return p.Sprintf("draw")
	case tournament.RedForfeited:
		return p.Sprintf("Blue wins by forfeit")
	case tournament.BlueForfeited:
		return p.Sprintf("Red wins by forfeit")
	case tournament.DoubleForfeit:
		return p.Sprintf("double forfeit")
	case tournament.Adjudicated:
		return p.Sprintf("unfinished at the deadline")
	case tournament.ByeResult:
		return p.Sprintf("bye")
	case tournament.NotBegun:
		return p.Sprintf("not begun by the deadline")
	}
	return p.Sprintf("still being played")
}

// adjudicationText words Rules.Unfinished.
func adjudicationText(p lang.Printer, a tournament.Adjudication) string {
	if a == tournament.ScoredAsDraw {
		return p.Sprintf("a draw")
	}
	return p.Sprintf("a loss for both")
}

// playerLabel is a player's name as they joined.
func playerLabel(t *storage.Tournament, id string) string {
	if name := t.Names[id]; name != "" {
		return name
	}
	return id
}
