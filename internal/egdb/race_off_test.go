//go:build !race

package egdb

const raceOn = false
