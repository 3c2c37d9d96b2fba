package match

import (
	"testing"
	"time"
)

func TestClockUse(t *testing.T) {
	ms := time.Millisecond
	var a, b ClockUse
	a.add(100*ms, true, 900*ms)
	a.add(300*ms, true, 700*ms)
	a.add(0, true, 800*ms)
	if a.Moves != 3 || a.Used != 400*ms || !a.Clocked || a.Lowest != 700*ms {
		t.Errorf("after three moves: %+v", a)
	}
	if got, want := a.String(), "3 moves, 0.133 s a move, lowest clock 0.700 s"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	// Off the clock: no lowest clock, whatever the left argument says.
	b.add(50*ms, false, -time.Hour)
	if got, want := b.String(), "1 move, 0.050 s a move"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	// Merging keeps the lowest clock of either side; a game with no
	// clocked move does not lower it.
	b.merge(a)
	if b.Moves != 4 || b.Used != 450*ms || b.Lowest != 700*ms || !b.Clocked {
		t.Errorf("merged: %+v", b)
	}
	c := ClockUse{}
	c.add(10*ms, true, -20*ms) // past the flag, within the margin
	b.merge(c)
	b.merge(ClockUse{Moves: 1, Used: ms})
	if b.Lowest != -20*ms || b.Moves != 6 {
		t.Errorf("merged a lower clock: %+v", b)
	}
	if got := (ClockUse{}).String(); got != "0 moves, 0.000 s a move" {
		t.Errorf("no moves: %q", got)
	}
}
