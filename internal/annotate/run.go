package annotate

import (
	"context"
	"sync"

	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/pool"
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

	return pool.Ordered(ctx, len(games), workers, func() func(context.Context, int) (*Game, error) {
		a := newAnalyser(opt, threads)
		return func(ctx context.Context, i int) (*Game, error) {
			g := a.game(ctx, games[i], func() { report(0, 1) })
			report(1, 0)
			if g == nil {
				return nil, ctx.Err() // cancelled
			}
			return g, nil
		}
	}, func(_ int, g *Game) error { return emit(g) })
}
