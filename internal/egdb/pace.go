package egdb

import (
	"runtime"
	"time"
)

// A build often runs beside a search: a host's first endgame in a session
// starts it in the background. Go's scheduler takes a processor from a
// goroutine that never blocks only about every 10 ms, so a build holding
// one can keep a search thread, or the host's timer that answers a move
// on time, waiting that long; on a loaded machine CheckerBoard's getmove
// then went past its time. The solvers' long loops call pacer.tick, which
// gives the processor up about every paceEvery of work: whatever waits
// runs at once. A build alone pays about 2% for it (BenchmarkBuild4,
// benchstat over 8 runs each).
const paceEvery = 500 * time.Microsecond

// pacer counts a loop's steps and yields the processor when paceEvery has
// passed since it last did. Each goroutine keeps its own (a local).
type pacer struct {
	n    uint32
	last time.Time
}

// tick counts one step; it reads the clock every 256 steps (the rest is
// out of line, so that tick inlines).
func (p *pacer) tick() {
	p.n++
	if p.n&255 == 0 {
		p.check()
	}
}

func (p *pacer) check() {
	if now := time.Now(); now.Sub(p.last) >= paceEvery {
		runtime.Gosched()
		p.last = time.Now()
	}
}
