package cb

import (
	"os"
	"os/exec"
	"runtime"
	"testing"
	"time"

	"github.com/riodraughts/rio/internal/movegen"
)

// TestTimeUnderLoad: with every core busy with other processes (as when
// CheckerBoard runs an engine match on a loaded machine), getmove keeps
// CheckerBoard's time per move: no call of 200 takes longer than maxtime.
// The hogs would slow the other packages' tests run beside it, so it runs
// only when asked, on its own (.ci/run does, after the other tests):
//
//	RIO_LOAD_TEST=1 go test -run TimeUnderLoad -v ./internal/protocol/cb
func TestTimeUnderLoad(t *testing.T) {
	if os.Getenv("RIO_LOAD_TEST") == "" {
		t.Skip("set RIO_LOAD_TEST=1 to run (it loads every core)")
	}
	for range runtime.NumCPU() + 1 {
		hog := exec.Command("sh", "-c", "while :; do :; done")
		if err := hog.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { hog.Process.Kill(); hog.Wait() })
	}
	e := New(GameTypeRussian)
	mustCommand(t, e, "set searchthreads 2")
	const maxTime = 0.1
	var b Board
	var worst time.Duration
	overruns, calls := 0, 0
	for calls < 200 {
		start := movegen.Russian.Start()
		BoardFromPosition(&start, &b)
		color := white
		for ply := 0; ply < 80 && calls < 200; ply++ {
			var mv CBMove
			t0 := time.Now()
			res := e.GetMove(&b, Request{Color: color, MaxTime: maxTime, Info: infoExactTime}, &mv)
			took := time.Since(t0)
			calls++
			worst = max(worst, took)
			if took > time.Duration(maxTime*float64(time.Second)) {
				overruns++
				t.Logf("call %d: %v of %v", calls, took, maxTime)
			}
			if res != ResultUnknown {
				break // the game is decided (or drawn): start another
			}
			color = 3 - color
		}
	}
	t.Logf("%d calls of %.0f ms under load: %d over, the longest %v", calls, maxTime*1000, overruns, worst)
	if overruns > 0 {
		t.Errorf("%d of %d getmoves took longer than maxtime", overruns, calls)
	}
}
