package match

import (
	"fmt"
	"time"
)

// ClockUse is how an engine spent its thinking time.
type ClockUse struct {
	// Moves is the number of moves it answered, Used the time they took
	// (the referee's wall clock, from the request to the reply).
	Moves int
	Used  time.Duration
	// Lowest is the least time left on its clock after a move, once the
	// increment is credited; Clocked says whether any move was on a clock.
	Lowest  time.Duration
	Clocked bool
}

// add counts one move that took used and, on a clock, left left.
func (c *ClockUse) add(used time.Duration, clocked bool, left time.Duration) {
	c.merge(ClockUse{Moves: 1, Used: used, Lowest: left, Clocked: clocked})
}

// merge adds another move's or game's use.
func (c *ClockUse) merge(o ClockUse) {
	c.Moves += o.Moves
	c.Used += o.Used
	if o.Clocked && (!c.Clocked || o.Lowest < c.Lowest) {
		c.Lowest, c.Clocked = o.Lowest, true
	}
}

// String reads "N moves, S s a move[, lowest clock L s]", S the mean.
func (c ClockUse) String() string {
	mean := 0.0
	if c.Moves > 0 {
		mean = c.Used.Seconds() / float64(c.Moves)
	}
	unit := "moves"
	if c.Moves == 1 {
		unit = "move"
	}
	s := fmt.Sprintf("%d %s, %.3f s a move", c.Moves, unit, mean)
	if c.Clocked {
		s += fmt.Sprintf(", lowest clock %.3f s", c.Lowest.Seconds())
	}
	return s
}
