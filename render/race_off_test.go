//go:build !race

package render

// raceEnabled is true when the tests run under the race detector, which makes
// PNG encoding about twenty times slower: long tests then check fewer things.
const raceEnabled = false
