package search

import (
	"fmt"
	"time"
)

// Limits say when a search stops. Zero fields are no limit; with none at
// all the search runs until stopped (infinite).
type Limits struct {
	Depth    int
	Nodes    int64
	MoveTime time.Duration
	// Clock: time left (Time) for this side, the increment credited before
	// each move (Inc), and moves to the next time control (MovesToGo, 0 for
	// the whole game). Used when HasClock is set.
	HasClock  bool
	Time, Inc time.Duration
	MovesToGo int
	// Infinite searches until Stop, whatever else is set.
	Infinite bool
	// Overhead is the time kept back from move-time and clock budgets for
	// the host's own delays (pipes, scheduling); Safety when zero.
	Overhead time.Duration
	// From is when the host's clock started for this move (zero: when the
	// search starts): the budgets count from it, so that what the host
	// did before starting the search (setting up, allocating the table)
	// is paid out of them.
	From time.Time
}

func (l Limits) String() string {
	s := ""
	if l.Depth > 0 {
		s += fmt.Sprintf(" depth=%d", l.Depth)
	}
	if l.Nodes > 0 {
		s += fmt.Sprintf(" nodes=%d", l.Nodes)
	}
	if l.MoveTime > 0 {
		s += fmt.Sprintf(" move-time=%v", l.MoveTime)
	}
	if l.HasClock {
		s += fmt.Sprintf(" time=%v inc=%v moves=%d", l.Time, l.Inc, l.MovesToGo)
	}
	if l.Infinite || s == "" {
		s += " infinite"
	}
	return s[1:]
}

// Safety is the time kept back from every clock and move-time budget for
// the engine's own overhead and the host's (process scheduling, pipes).
const Safety = 30 * time.Millisecond

// clockMoves is how many moves the time left is shared among (fewer when
// moves-to-go says so): the soft limit is the time left over clockMoves+1,
// plus three quarters of the increment. It is not a forecast of the game's
// length (an 8x8 game runs 30 to 60 moves a side): searches stop between
// a half and 60% of the soft limit (worker.enough), so the clock is spent
// as if over some 25 moves, and the moves that cost nothing (book,
// forced, solved) leave time for the rest. Measured (russian, 3+0.03): 14
// with the half-limit stop gained +20.5 [+6.3, +34.8] over 22 with a
// third, which ended 10+0.1 games with 7-9 s of the 10 unused; 10 played
// even with 14 (the README's "Search", the budget table).
const clockMoves = 14

// reserveMoves is how many moves' overhead sudden death keeps back: the
// moves a game may still last, more than clockMoves (60 moves at time=1
// inc=0 never flag, TestSuddenDeathBudget).
const reserveMoves = 22

// budget turns limits into a soft limit (do not start another iteration
// after it; stop early when the best move is clear) and a hard limit (stop
// at once). Zero means none. The engine's own overhead is covered by
// Safety, or 10% of a very short move-time.
func (l Limits) budget() (soft, hard time.Duration) {
	switch {
	case l.Infinite:
		return 0, 0
	case l.MoveTime > 0:
		// Time not used on this move is lost: no soft limit, search until
		// the budget is spent, less the margin (Margin says how much).
		return 0, max(l.MoveTime-l.Margin(), time.Millisecond)
	case l.HasClock:
		// The increment is credited before the move: T + I is usable.
		left := l.Time + l.Inc - l.overhead()
		if left < time.Millisecond {
			left = time.Millisecond
		}
		moves, expected := clockMoves, reserveMoves
		if l.MovesToGo > 0 {
			moves, expected = min(l.MovesToGo, moves), min(l.MovesToGo, expected)
		}
		// Every move costs the host's delays besides its search. Where
		// the increment does not pay them (sudden death), the overhead
		// of each move still expected is kept back too: otherwise the
		// clock runs down to a few overheads and the moves after that
		// flag, whatever their budget (a 1 s game of 60 moves).
		if ov := l.overhead(); l.Inc < ov {
			left -= time.Duration(expected) * (ov - l.Inc)
		}
		if left < time.Millisecond {
			left = time.Millisecond
		}
		soft = left / time.Duration(moves+1)
		if l.Inc > 0 {
			soft += l.Inc * 3 / 4
		}
		soft = min(soft, left/2)
		hard = min(soft*4, left*2/3)
		if l.MovesToGo == 1 {
			hard = left * 9 / 10
		}
		return max(soft, time.Millisecond), max(hard, time.Millisecond)
	}
	return 0, 0
}

// Margin is how much earlier than the host's limit the hard limit falls:
// the overhead, at most 15% of a move-time (a short move-time is still
// mostly used, and a loaded machine's late wake-ups still fit in it: on 2
// cores with 3 busy processes beside it, a thread that has just worked
// waits 5-6 ms at a time for its core, so the 8 ms that 8% left at 0.1 s
// was once overrun by 3.6 ms in CI).
func (l Limits) Margin() time.Duration {
	if l.MoveTime > 0 && !l.Infinite {
		return min(l.overhead(), l.MoveTime*3/20)
	}
	return l.overhead()
}

func (l Limits) overhead() time.Duration {
	if l.Overhead > 0 {
		return l.Overhead
	}
	return Safety
}
