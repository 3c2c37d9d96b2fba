// Package pool runs independent jobs on a few goroutines and hands their
// results back in job order, whatever finishes first: the order a file of
// games is annotated in, or self-play games are written in.
package pool

import (
	"context"
	"sync"
)

// Ordered runs jobs 0 to n-1 on up to workers goroutines (at least one)
// and calls emit with each job's result in job order: emit(i, r) after
// emit(i-1, ...), from the calling goroutine, whatever finishes first.
//
// Each goroutine calls newWorker once, in that goroutine, for its job
// function, which holds what the worker keeps from job to job (an engine,
// a table): a job function is never called concurrently with itself.
// Jobs get a context that Ordered cancels when it stops.
//
// Ordered stops at the first error of a job or of emit, and returns it; it
// stops when ctx is cancelled, and returns ctx's error; it returns nil
// once every result is emitted. A stop emits nothing more (finished results
// after a gap are dropped), and Ordered returns only after every goroutine
// it started has ended.
func Ordered[R any](ctx context.Context, n, workers int,
	newWorker func() func(ctx context.Context, i int) (R, error),
	emit func(i int, r R) error) error {
	if n <= 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	workers = max(1, min(workers, n))
	type done struct {
		i   int
		r   R
		err error
	}
	jobs := make(chan int)
	results := make(chan done, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			job := newWorker()
			for i := range jobs {
				r, err := job(ctx, i)
				results <- done{i, r, err}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := range n {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()
	defer func() {
		cancel() // workers still busy give up
		for range results {
		}
	}()

	pending := map[int]done{}
	for next := 0; next < n; {
		select {
		case d, ok := <-results:
			if !ok {
				return ctx.Err() // the jobs stopped short: only on a cancel
			}
			if d.err != nil {
				return d.err
			}
			pending[d.i] = d
			for {
				d, ok := pending[next]
				if !ok {
					break
				}
				delete(pending, next)
				next++
				if err := emit(d.i, d.r); err != nil {
					return err
				}
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}
