package search

import (
	"context"
	"testing"

	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/rs/zerolog"
)

// BenchmarkSearch reports nodes per second of a fixed-depth, one-thread
// search of the bench positions.
func BenchmarkSearch(b *testing.B) {
	var nodes int64
	for b.Loop() {
		for _, bp := range BenchPositions {
			e := NewEngine(16, zerolog.Nop())
			p, err := bp.Variant.ParsePosition(bp.FEN)
			if err != nil {
				b.Fatal(err)
			}
			res := e.Run(context.Background(), game.New(bp.Variant, p), Limits{Depth: BenchDepth}, Options{Threads: 1}, nil)
			nodes += res.Nodes
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

var _ = movegen.Brazilian
