package search

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/riodraughts/rio/internal/movegen"
	"github.com/rs/zerolog"
)

// TestMultiPVOrder holds multi-PV's contract over positions from random
// games of each variant: every iteration reports its lines best first,
// each a different move, and the move played, with its score, is the last
// iteration's line 1, with one line or three. A later line can score above
// an earlier one (the search is not exactly stable), so this fails unless
// the lines are sorted again after each is found; and a move that failed
// high in the last iteration holds a bound, not the score it was searched
// again to, so it fails too if that move outlives its iteration.
func TestMultiPVOrder(t *testing.T) {
	for _, lines := range []int{1, 3} {
		multiPVOrder(t, lines)
	}
}

func multiPVOrder(t *testing.T, lines int) {
	const depth, positions = 7, 12
	for _, v := range movegen.Variants {
		rng := rand.New(rand.NewPCG(7, uint64(len(v.Name))))
		for n := range positions {
			g := newGame(t, v, "startpos")
			for range 4 + rng.IntN(30) {
				p := g.Position()
				moves := v.Generate(&p, nil)
				if len(moves) == 0 {
					break
				}
				if err := g.Play(moves[rng.IntN(len(moves))]); err != nil {
					t.Fatal(err)
				}
			}
			p := g.Position()
			if len(v.Generate(&p, nil)) < lines {
				continue
			}
			var iter []Info
			check := func() {
				for k := 1; k < len(iter); k++ {
					if iter[k].Score > iter[k-1].Score || iter[k].PV[0] == iter[k-1].PV[0] {
						t.Errorf("%s game %d (%s) depth %d, %d lines: line %d scores %d after line %d's %d", v.Name, n, v.FormatFEN(&p, false), iter[k].Depth, lines, k+1, iter[k].Score, k, iter[k-1].Score)
					}
				}
			}
			e := NewEngine(16, zerolog.Nop())
			res := e.Run(context.Background(), g, Limits{Depth: depth}, Options{Threads: 1, MultiPV: lines}, func(i Info) {
				if i.Line == 1 {
					check()
					iter = iter[:0]
				}
				iter = append(iter, i)
			})
			check()
			if len(iter) != lines || res.Move != iter[0].PV[0] || res.Score != iter[0].Score {
				t.Errorf("%s game %d, %d lines: played %s (%d), line 1 of %d is %+v", v.Name, n, lines, v.FormatMove(res.Move), res.Score, len(iter), iter[0])
			}
		}
	}
}
