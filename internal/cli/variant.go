package cli

import "github.com/strategobot/strategobot/game"

// CustomArmy is the army of the Custom games that commands play.
const CustomArmy = "10 9 8 8 3 3 2 2 2 S I B B F"

// VariantHelp describes a -variant flag.
const VariantHelp = "classic, barrage, duel, infiltrator or custom (" + CustomArmy + ")"

// VariantRules returns the default rules of a variant named on the command
// line; Custom gets CustomArmy.
func VariantRules(name string) (game.Rules, error) {
	v, err := game.ParseVariant(name)
	if err != nil {
		return game.Rules{}, err
	}
	rules := game.DefaultRules(v)
	if v == game.VariantCustom {
		if rules.Army, err = game.ParseArmy(CustomArmy, game.NumberingModern); err != nil {
			return game.Rules{}, err
		}
	}
	return rules, nil
}
