//go:build !race

package cb

const raceOn = false
