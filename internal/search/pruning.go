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
		w.makeMove(ply, moves[i], depth > 5)
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

// etcDepth is the shallowest node Features.ETC asks the table about its
// children: nearer the horizon a probe per child costs more than the
// searches it could save.
const etcDepth = 4

// etc looks up each child of a non-PV node in the table (Features.ETC):
// a child stored at childDepth or deeper with an upper bound (or exact
// score) that, negated, reaches beta proves the node's cut without a
// search. A child drawn by repetition or by a rule is skipped, as its own
// node would not trust the table either. The cut is stored for the node,
// under its key.
func (w *worker) etc(ply int, key uint64, depth, childDepth, beta int, moves []movegen.Move) (int, bool) {
	for _, m := range moves {
		w.makeMove(ply, m, true)
		child := &w.stack[ply+1]
		score, cut := 0, false
		if !child.drawn && w.hist.Repetitions() == 0 {
			if e, ok := w.table.Probe(tableKey(child, childDepth)); ok && e.Depth >= childDepth &&
				(e.Bound == tt.Upper || e.Bound == tt.Exact) {
				score = -tt.FromTT(e.Score, ply+1)
				cut = score >= beta
			}
		}
		w.unmakeMove()
		if cut {
			w.table.Store(key, tt.MoveKey(m), tt.ToTT(score, ply), depth, tt.Lower)
			return score, true
		}
	}
	return 0, false
}

// shallowMargin is how far above beta, per ply of depth (hundredths of a
// man), ShallowCut's search must reach.
const shallowMargin = 10

// shallowCut searches a non-PV node to 40% of its depth with a null
// window shallowMargin*depth above beta, no ShallowCut inside; a move
// that reaches it makes the full search's cut likely enough to take, and
// the node returns that score less the margin (Features.ShallowCut, the
// pruning Scan does at every non-PV node of depth 3 or more).
func (w *worker) shallowCut(ply, depth, beta int, moves []movegen.Move) (int, bool) {
	if depth < 3 || abs(beta) >= tt.MateBound-MaxPly {
		return 0, false
	}
	margin := shallowMargin * depth
	nbeta := beta + margin
	w.shallow++
	score, cut := w.scanMoves(ply, 0, depth*40/100-1, nbeta, moves)
	w.shallow--
	if !cut || w.abort {
		return 0, false
	}
	if score >= tt.MateBound {
		return beta, true // a win seen shallow: the full search proves its distance
	}
	return score - margin, true
}

// shallowLow searches every move of a non-PV node to 40% of its depth
// with a null window twice shallowMargin*depth below alpha (at the
// margin itself it misses TestCandidatePrunings' russian shot), no ShallowCut
// inside; when none reaches it, the full search would likely fail low
// too, and the node returns their best plus the margin (at most alpha)
// (Features.ShallowLow, ShallowCut's twin at the nodes where every move
// fails).
func (w *worker) shallowLow(ply, depth, alpha int, moves []movegen.Move) (int, bool) {
	if depth < 4 || abs(alpha) >= tt.MateBound-MaxPly {
		return 0, false
	}
	margin := 2 * shallowMargin * depth
	nalpha := alpha - margin
	w.shallow++
	best, above := w.scanMoves(ply, 0, depth*40/100-1, nalpha+1, moves)
	w.shallow--
	if above || w.abort {
		return 0, false
	}
	if best <= -tt.MateBound {
		return 0, false // every move loses, seen shallow: the full search proves it
	}
	return min(best+margin, alpha), true
}

// wideReduction is the late-move reduction of Features.WideLMR for the
// move m at index i of a node of depth: Scan's scheme, the killers
// spared as LMR spares them.
func wideReduction(depth, i int, pvNode bool, m movegen.Move, f *frame) int {
	if depth < 2 || m.IsCapture() || m.Promotes() || m == f.killers[0] || m == f.killers[1] {
		return 0
	}
	switch {
	case pvNode && i < 3, i < 1:
		return 0
	case !pvNode && i >= 4:
		return 2
	}
	return 1
}

// lmpMoves[depth] is how many moves a shallow non-PV node searches before
// late quiet ones are pruned (Features.LMP).
var lmpMoves = [4]int{0, 5, 8, 13}

// singularMargin is how far below the table's score (hundredths of a
// man) every other move must stay for the table's move to be singular.
const singularMargin = 40

// singularDepth is the shallowest PV node Features.Singular tests: the
// test costs a search 4 plies shallower of all the other moves.
const singularDepth = 8

// singular reports whether the table's move, moves[0] of a PV node of
// depth, is the only good one: the table holds a lower bound or exact
// score for it from at most 4 plies shallower, and every other move,
// searched 4 plies shallower with a null window singularMargin below that
// score, fails low (Features.Singular, the extension Scan makes). Such a
// line is where the game turns, and a ply more there finds the shots
// and refutations that hang on one move.
func (w *worker) singular(ply, depth int, e tt.Entry, moves []movegen.Move) bool {
	if depth < singularDepth || len(moves) < 2 || e.Bound == tt.Upper || e.Depth < depth-4 {
		return false
	}
	score := tt.FromTT(e.Score, ply)
	if abs(score) >= tt.MateBound {
		return false
	}
	_, above := w.scanMoves(ply, 1, depth-5, score-singularMargin+1, moves)
	return !above && !w.abort
}

// scanMoves searches moves[from:] of ply, in order, to depth with the
// null window just under bound, and stops at the first that reaches
// bound: its score and true; otherwise the best score and false (the
// shallow searches of ShallowCut, ShallowLow and Singular). After an
// abort the result means nothing: callers check w.abort.
func (w *worker) scanMoves(ply, from, depth, bound int, moves []movegen.Move) (int, bool) {
	best := -infinity
	for i := from; i < len(moves); i++ {
		w.pick(ply, moves, i)
		w.makeMove(ply, moves[i], depth > 0)
		score := -w.alphaBeta(ply+1, depth, -bound, -bound+1)
		w.unmakeMove()
		if w.abort {
			return 0, false
		}
		if score >= bound {
			return score, true
		}
		best = max(best, score)
	}
	return best, false
}
