package annotate

import (
	"context"
	"sync"

	"github.com/riodraughts/rio/internal/game"
)

// Deterministic reports whether lim gives searches whose result depends
// only on the position (a depth or node limit, no time): those run on
// one thread each.
func (o *Options) Deterministic() bool {
	l := o.Limits
	return l.MoveTime == 0 && !l.HasClock && !l.Infinite && (l.Depth > 0 || l.Nodes > 0)
}

// Positions returns how many positions the analysis of games values
// (their progress total).
func Positions(games []game.PDNGame) int {
	n := 0
	for i := range games {
		if Analysable(&games[i]) {
			n += games[i].Game.Ply() + 1
		}
	}
	return n
}

// Run analyses games, Threads at a time, and hands each to emit in the
// order of games, whatever finishes first. It stops at the first error
// of emit, or when ctx is cancelled (returning ctx's error).
func Run(ctx context.Context, games []game.PDNGame, opt Options, emit func(*Game) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	workers := max(1, min(opt.Threads, len(games)))
	threads := 1
	if !opt.Deterministic() {
		threads = max(1, opt.Threads/workers)
	}
	var mu sync.Mutex
	var done Progress
	report := func(games, positions int) {
		if opt.Progress == nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		done.Games += games
		done.Positions += positions
		opt.Progress(done)
	}

	results := make([]chan *Game, len(games))
	for i := range results {
		results[i] = make(chan *Game, 1)
	}
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a := newAnalyser(opt, threads)
			for i := range jobs {
				results[i] <- a.game(ctx, games[i], func() { report(0, 1) })
				report(1, 0)
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := range games {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	defer func() {
		cancel() // workers still busy give up
		wg.Wait()
	}()
	for i := range games {
		var g *Game
		select {
		case g = <-results[i]:
		case <-ctx.Done():
		}
		if g == nil {
			return ctx.Err()
		}
		if err := emit(g); err != nil {
			return err
		}
	}
	return nil
}
