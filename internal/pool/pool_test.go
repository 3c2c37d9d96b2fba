package pool

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// square is a job function that takes a random short time, and checks it
// is never run concurrently with itself.
func square(running *atomic.Int32, made *atomic.Int32) func() func(context.Context, int) (int, error) {
	return func() func(context.Context, int) (int, error) {
		made.Add(1)
		var busy atomic.Bool
		rng := rand.New(rand.NewPCG(uint64(made.Load()), 1))
		return func(ctx context.Context, i int) (int, error) {
			if busy.Swap(true) {
				panic("a worker's job function ran twice at once")
			}
			defer busy.Store(false)
			running.Add(1)
			defer running.Add(-1)
			time.Sleep(time.Duration(rng.IntN(300)) * time.Microsecond)
			return i * i, nil
		}
	}
}

func TestOrderedKeepsOrder(t *testing.T) {
	for _, c := range []struct{ n, workers int }{{0, 3}, {1, 4}, {50, 1}, {200, 4}, {7, 0}, {3, 10}} {
		var running, made atomic.Int32
		var got []int
		err := Ordered(context.Background(), c.n, c.workers, square(&running, &made), func(i, r int) error {
			if i != len(got) || r != i*i {
				t.Fatalf("n=%d workers=%d: emit(%d, %d) after %d results", c.n, c.workers, i, r, len(got))
			}
			got = append(got, r)
			return nil
		})
		if err != nil || len(got) != c.n {
			t.Fatalf("n=%d workers=%d: %d results, error %v", c.n, c.workers, len(got), err)
		}
		if m := int(made.Load()); m > max(1, c.workers) || m > c.n {
			t.Errorf("n=%d workers=%d: %d workers made", c.n, c.workers, m)
		}
		if running.Load() != 0 {
			t.Errorf("n=%d: jobs still running after the return", c.n)
		}
	}
}

// A job's error stops the run: it is returned, nothing after the job is
// emitted, and no job is left running.
func TestOrderedJobErrorStops(t *testing.T) {
	boom := errors.New("boom")
	var running atomic.Int32
	var emitted []int
	err := Ordered(context.Background(), 1000, 4, func() func(context.Context, int) (int, error) {
		return func(ctx context.Context, i int) (int, error) {
			running.Add(1)
			defer running.Add(-1)
			if i == 20 {
				return 0, boom
			}
			if i > 20 {
				// Later jobs wait for the stop.
				select {
				case <-ctx.Done():
					return 0, ctx.Err()
				case <-time.After(10 * time.Second):
					return i, nil
				}
			}
			return i, nil
		}
	}, func(i, r int) error {
		emitted = append(emitted, i)
		return nil
	})
	if err != boom {
		t.Fatalf("error %v, want %v", err, boom)
	}
	for k, i := range emitted {
		if i != k || i >= 20 {
			t.Fatalf("emitted %v: not a prefix before job 20", emitted)
		}
	}
	if running.Load() != 0 {
		t.Error("jobs still running after the return")
	}
}

// An error of emit stops the run at once.
func TestOrderedEmitErrorStops(t *testing.T) {
	stop := errors.New("stop")
	calls := 0
	err := Ordered(context.Background(), 1000, 3, func() func(context.Context, int) (int, error) {
		return func(ctx context.Context, i int) (int, error) { return i, nil }
	}, func(i, r int) error {
		calls++
		if i == 5 {
			return stop
		}
		return nil
	})
	if err != stop || calls != 6 {
		t.Fatalf("error %v after %d emits, want %v after 6", err, calls, stop)
	}
}

// Cancelling the caller's context stops the run with its error, jobs
// blocked on the context included.
func TestOrderedCancelStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var running atomic.Int32
	var once sync.Once
	emitted := 0
	errc := make(chan error, 1)
	go func() {
		errc <- Ordered(ctx, 100, 4, func() func(context.Context, int) (int, error) {
			return func(ctx context.Context, i int) (int, error) {
				running.Add(1)
				defer running.Add(-1)
				if i < 3 {
					return i, nil
				}
				once.Do(cancel)
				<-ctx.Done()
				return 0, ctx.Err()
			}
		}, func(i, r int) error {
			emitted++
			return nil
		})
	}()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("error %v, want %v", err, context.Canceled)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Ordered did not stop on cancel")
	}
	if emitted > 3 {
		t.Errorf("%d results emitted, at most 3 were done", emitted)
	}
	if running.Load() != 0 {
		t.Error("jobs still running after the return")
	}

	// A context cancelled before the start: nothing is emitted.
	err := Ordered(ctx, 10, 2, func() func(context.Context, int) (int, error) {
		return func(ctx context.Context, i int) (int, error) { return i, ctx.Err() }
	}, func(i, r int) error {
		t.Errorf("emit(%d) after a cancel", i)
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled before the start: error %v", err)
	}
}
