//go:build race

package egdb

// raceOn: built with the race detector, which slows the solvers several
// times and moves every timing.
const raceOn = true
