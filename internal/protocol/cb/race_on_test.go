//go:build race

package cb

// raceOn: built with the race detector, which slows the search many times
// over; a test that needs a search to reach some depth in a move time
// gives it longer.
const raceOn = true
