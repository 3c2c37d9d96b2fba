package search

import (
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/tt"
)

// probCutMargin is how far above beta (hundredths of a man) a shallow
// search must reach for ProbCut to trust that the full one would.
const probCutMargin = 60

// probCutMoves is how many of the best-ordered moves ProbCut tries.
const probCutMoves = 4

// probCut searches the first moves of a non-PV node 4 plies shallower
// than depth with a null window at beta+probCutMargin: a move that
// reaches it makes a cut likely enough to take (Features.ProbCut).
func (w *worker) probCut(ply, depth, beta int, moves []movegen.Move) (int, bool) {
	if depth < 5 || abs(beta) >= tt.MateBound-MaxPly {
		return 0, false
	}
	pbeta := beta + probCutMargin
	for i := 0; i < min(probCutMoves, len(moves)); i++ {
		w.pick(ply, moves, i)
		w.makeMove(ply, moves[i])
		score := -w.alphaBeta(ply+1, depth-5, -pbeta, -pbeta+1)
		w.unmakeMove()
		if w.abort {
			return 0, false
		}
		if score >= pbeta {
			return score, true
		}
	}
	return 0, false
}

// lmpMoves[depth] is how many moves a shallow non-PV node searches before
// late quiet ones are pruned (Features.LMP).
var lmpMoves = [4]int{0, 5, 8, 13}
