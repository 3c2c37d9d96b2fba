package search

import (
	"context"
	"testing"

	"github.com/riodraughts/rio/internal/eval"
	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/rs/zerolog"
)

// BenchmarkSearch reports nodes per second of a fixed-depth, one-thread
// search of the bench positions, with each evaluation: the learned one must
// keep at least 70% of the classic one's nodes/s (issue 22; engine bench --eval).
func BenchmarkSearch(b *testing.B) {
	for _, name := range eval.Names {
		b.Run("eval="+name, func(b *testing.B) {
			fn, err := eval.Select(movegen.Brazilian, name, "")
			if err != nil {
				b.Fatal(err)
			}
			benchmarkSearchSet(b, 1, fn, BenchPositions)
		})
	}
}

// BenchmarkSearchVariant is BenchmarkSearch on one variant's bench
// positions at a time: the learned evaluation's cost differs by variant
// (the russian and portuguese weights carry a network, the brazilian ones do not).
func BenchmarkSearchVariant(b *testing.B) {
	for _, v := range movegen.Variants {
		var set []BenchPosition
		for _, bp := range BenchPositions {
			if bp.Variant == v {
				set = append(set, bp)
			}
		}
		for _, name := range eval.Names {
			b.Run(v.Name+"/eval="+name, func(b *testing.B) {
				fn, err := eval.Select(v, name, "")
				if err != nil {
					b.Fatal(err)
				}
				benchmarkSearchSet(b, 1, fn, set)
			})
		}
	}
}

// BenchmarkSearchThreads2 is BenchmarkSearch with two threads: its ns/op
// against BenchmarkSearch's is the time-to-depth ratio of lazy SMP.
func BenchmarkSearchThreads2(b *testing.B) {
	benchmarkSearch(b, 2)
}

// benchmarkSearch is the learned evaluation over every bench position.
func benchmarkSearch(b *testing.B, threads int) {
	benchmarkSearchSet(b, threads, eval.Learned, BenchPositions)
}

// benchmarkSearchSet times, like engine bench, only the searches of set:
// the table is cleared between positions with the timer stopped.
func benchmarkSearchSet(b *testing.B, threads int, fn eval.Func, set []BenchPosition) {
	var nodes int64
	e := NewEngine(16, zerolog.Nop())
	e.Eval = fn
	// Each variant's built-in weights are read by its first evaluation:
	// done here, before b.Loop starts the timer, as engine bench and the
	// protocols do before their first search.
	for _, bp := range set {
		p, err := bp.Variant.ParsePosition(bp.FEN)
		if err != nil {
			b.Fatal(err)
		}
		fn(bp.Variant, &p)
	}
	for b.Loop() {
		for _, bp := range set {
			p, err := bp.Variant.ParsePosition(bp.FEN)
			if err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			e.TT.Clear()
			b.StartTimer()
			res := e.Run(context.Background(), game.New(bp.Variant, p), Limits{Depth: BenchDepth}, Options{Threads: threads}, nil)
			nodes += res.Nodes
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

var _ = movegen.Brazilian
