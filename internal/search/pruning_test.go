package search

import (
	"context"
	"testing"

	"github.com/rs/zerolog"
)

// The candidate prunings keep the search sound where it matters most:
// every shot of TestShots is still found at depth 8, and a search is the
// same twice (same move, same nodes). (LMP pruning a sacrifice missed the
// russian 25-22 shot: a move that offers a capture is never pruned.)
func TestCandidatePrunings(t *testing.T) {
	for _, spec := range []string{"+ProbCut", "+LMP", "+ProbCut +LMP", "+LogLMR", "+OfferFull", "+AdaptiveTime", "+HistoryMalus", "+Futility"} {
		feat, err := ApplyFeatures(DefaultFeatures, spec)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range shots {
			g := newGame(t, c.v, c.fen)
			p := g.Position()
			want, err := c.v.ParseMove(&p, c.move)
			if err != nil {
				t.Fatal(err)
			}
			var nodes [2]int64
			for k := range nodes {
				e := NewEngine(16, zerolog.Nop())
				e.Features = feat
				res := e.Run(context.Background(), g, Limits{Depth: 8}, Options{Threads: 1}, nil)
				if res.Move != want {
					t.Errorf("%s: %s %s: found %s, want %s", spec, c.v.Name, c.fen, c.v.FormatMove(res.Move), c.move)
				}
				nodes[k] = res.Nodes
			}
			if nodes[0] != nodes[1] {
				t.Errorf("%s: %s: %d then %d nodes", spec, c.fen, nodes[0], nodes[1])
			}
		}
	}
}
