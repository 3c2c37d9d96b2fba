package search

import (
	"context"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/riodraughts/rio/internal/movegen"
	"github.com/rs/zerolog"
)

// TestStopWithEveryProcessorBusy: when the search's threads fill every
// processor Go runs goroutines on, the goroutine that says "stop" has none
// of its own, and only the poll's yield lets it run before the runtime's
// 10 ms preemption (worker.poll). With one processor and one thread, the
// median of several stops stays well under that (without the yield it
// was 10 ms).
func TestStopWithEveryProcessorBusy(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	e := NewEngine(16, zerolog.Nop())
	g := newGame(t, movegen.Brazilian, "startpos")
	var lat []time.Duration
	for range 7 {
		s := e.Start(context.Background(), g, Limits{Infinite: true}, Options{Threads: 1, Analysis: true}, nil)
		// The latency counts from when this goroutine's sleep ends, not
		// from when it next runs: waiting for a processor is the delay.
		due := time.Now().Add(30 * time.Millisecond)
		time.Sleep(time.Until(due))
		s.Stop()
		s.Wait()
		lat = append(lat, time.Since(due))
	}
	slices.Sort(lat)
	if med := lat[len(lat)/2]; med > 5*time.Millisecond {
		t.Errorf("stop took %v (median of %v), want at most 5 ms", med, lat)
	}
}
