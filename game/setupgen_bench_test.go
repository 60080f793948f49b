package game

import "testing"

// BenchmarkRandomSetup draws one set-up per operation, for each variant and a
// small and a large Custom army.
func BenchmarkRandomSetup(b *testing.B) {
	for _, rules := range []Rules{
		DefaultRules(VariantClassic), DefaultRules(VariantBarrage), DefaultRules(VariantDuel), DefaultRules(VariantInfiltrator),
		customRules(b, "10 9 8 8 3 3 2 2 2 S B B F"), customRules(b, "2x 10 2x 9 3x 3 29x 2 S B F"),
	} {
		b.Run(rulesName(rules), func(b *testing.B) {
			b.ReportAllocs()
			for i := range b.N {
				RandomSetup(rules, uint64(i))
			}
		})
	}
}

// BenchmarkRandomSetupOdds estimates where the generator puts each rank, as
// the computer does for an army with no real set-ups.
func BenchmarkRandomSetupOdds(b *testing.B) {
	for _, rules := range []Rules{DefaultRules(VariantDuel), DefaultRules(VariantInfiltrator)} {
		b.Run(rulesName(rules), func(b *testing.B) {
			for range b.N {
				RandomSetupOdds(rules)
			}
		})
	}
}
