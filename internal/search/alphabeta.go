package search

import (
	"math"

	"github.com/riodraughts/rio/internal/egdb"
	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/tt"
)

// alphaBeta is the principal-variation search of one node at ply, depth
// plies from the horizon, window (alpha, beta).
func (w *worker) alphaBeta(ply, depth, alpha, beta int) int {
	if depth <= 0 {
		return w.quiesce(ply, alpha, beta, 0)
	}
	f := &w.stack[ply]
	f.pvLen = 0
	w.countNode()
	if w.abort {
		return 0
	}
	pos := &f.pos
	pvNode := beta-alpha > 1

	// A repetition on the path or with the game is a draw (a position seen
	// once already will be seen again if the search likes it).
	if w.hist.Repetitions() > 0 {
		return 0
	}
	// Mate distance: nothing here beats a win already found nearer.
	alpha = max(alpha, -tt.Win+ply)
	beta = min(beta, tt.Win-ply-1)
	if alpha >= beta {
		return alpha
	}
	if ply >= MaxPly-1 {
		return w.eval(w.v, pos)
	}

	if w.db.Holds(pos) {
		if score, ok := w.probeTables(f, ply); ok {
			return score
		}
	}

	var ttEntry tt.Entry // what the table knows here (Move 0: nothing)
	key := tableKey(f, depth)
	if e, ok := w.table.Probe(key); ok {
		ttEntry = e
		if !pvNode && e.Depth >= depth && !f.drawn {
			score := tt.FromTT(e.Score, ply)
			switch {
			case e.Bound == tt.Exact,
				e.Bound == tt.Lower && score >= beta,
				e.Bound == tt.Upper && score <= alpha:
				return score
			}
		}
	}

	// IIR: no move stored for a node this deep, a ply less (the table
	// key keeps the depth the node was asked for).
	if w.feat.IIR && depth >= iirDepth && ttEntry.Move == 0 {
		depth--
	}

	moves := w.v.Generate(pos, f.moves[:0])
	if len(moves) == 0 {
		return -tt.Win + ply // no legal move: lost
	}
	if f.drawn {
		return w.playOn(ply, depth, alpha, beta, 0) // a move-count rule
	}
	// Reverse futility: quiet, unthreatened, and far enough above beta
	// that a shallow search would not bring it back.
	if w.feat.Futility && !pvNode && depth <= 3 && !moves[0].IsCapture() && abs(beta) < tt.MateBound && !w.threatened(pos) {
		if stand := w.eval(w.v, pos); stand-futilityMargin*depth >= beta {
			return stand
		}
	}
	ext := 0
	if w.feat.SingleReply && len(moves) == 1 && ply < 2*w.s.depthLimit {
		ext = 1
	}
	if w.feat.ETC && !pvNode && depth >= etcDepth {
		if score, ok := w.etc(ply, key, depth, depth-1+ext, beta, moves); ok {
			return score
		}
	}
	w.orderMoves(ply, moves, ttEntry.Move)
	if w.feat.ProbCut && !pvNode && ext == 0 {
		if score, ok := w.probCut(ply, depth, beta, moves); ok {
			return score
		}
		if w.abort {
			return 0
		}
	}
	if w.feat.ShallowCut && !pvNode && ext == 0 && (w.shallow == 0 || w.feat.ShallowNest) {
		if score, ok := w.shallowCut(ply, depth, beta, moves); ok {
			return score
		}
		if w.abort {
			return 0
		}
		if w.feat.ShallowLow {
			if score, ok := w.shallowLow(ply, depth, alpha, moves); ok {
				return score
			}
			if w.abort {
				return 0
			}
		}
	}
	// singExt extends the table's move at a PV node when every other
	// move falls clearly short of it (Features.Singular).
	singExt := 0
	if w.feat.Singular && pvNode && ext == 0 && ttEntry.Move != 0 {
		w.pick(ply, moves, 0)
		if tt.MoveKey(moves[0]) == ttEntry.Move && w.singular(ply, depth, ttEntry, moves) {
			singExt = 1
		}
		if w.abort {
			return 0
		}
	}
	// lateQuiet is how many moves are searched before late quiet ones are
	// pruned (LMP); len(moves) when none are.
	lateQuiet := len(moves)
	if w.feat.LMP && !pvNode && depth <= 3 && abs(beta) < tt.MateBound && !moves[0].IsCapture() && !w.threatened(pos) {
		lateQuiet = lmpMoves[depth]
	}

	best, bestMove := -infinity, movegen.NoMove
	origAlpha := alpha
	// With several threads, a move whose position another thread is
	// searching is put off until the others are done (busy.go).
	busy := w.s.busy
	canDefer := busy != nil && depth >= deferDepth
	nDeferred := 0
	for pass := 0; pass < 2; pass++ {
		n := len(moves)
		if pass == 1 {
			n = nDeferred
		}
		for j := 0; j < n; j++ {
			i := j
			if pass == 0 {
				w.pick(ply, moves, i)
			} else {
				i = int(f.deferred[j])
			}
			m := moves[i]
			w.makeMove(ply, m, depth+ext > 1)
			if pass == 0 && i >= lateQuiet && best > -tt.MateBound && m != f.killers[0] && m != f.killers[1] &&
				!w.v.HasCapture(&w.stack[ply+1].pos) {
				// LMP: a late quiet move at a shallow node, unless it
				// offers a capture (a sacrifice starts every shot).
				w.unmakeMove()
				continue
			}
			var childHash uint64
			if canDefer {
				var deferred bool
				if childHash, deferred = w.claimChild(ply, i, pass == 0 && i > 0, &nDeferred); deferred {
					continue
				}
			}
			newDepth := depth - 1 + ext
			var score int
			if i == 0 {
				score = -w.alphaBeta(ply+1, newDepth+singExt, -beta, -alpha)
			} else {
				r := 0
				if w.feat.WideLMR {
					r = wideReduction(depth, i, pvNode, m, f)
				} else if w.feat.LMR && depth >= 3 && i >= 3 && ext == 0 && !m.IsCapture() &&
					m != f.killers[0] && m != f.killers[1] &&
					!(w.feat.OfferFull && w.v.HasCapture(&w.stack[ply+1].pos)) {
					r = 1
					if i >= 8 && depth >= 6 {
						r = 2
					}
					if w.feat.LogLMR {
						r = lmrTable[min(depth, 63)][min(i, 63)]
						if pvNode {
							r = max(r-1, 1)
						}
						r = min(r, newDepth-1)
					}
					if w.feat.HistoryLMR {
						r = historyReduction(r, w.history[pos.Side][m.From()&63][m.To()&63], f.histTop, depth, newDepth)
					}
				}
				score = -w.alphaBeta(ply+1, newDepth-r, -alpha-1, -alpha)
				if score > alpha && r > 0 && !w.abort {
					score = -w.alphaBeta(ply+1, newDepth, -alpha-1, -alpha)
				}
				if score > alpha && score < beta && !w.abort {
					score = -w.alphaBeta(ply+1, newDepth, -beta, -alpha)
				}
			}
			if canDefer {
				busy.clear(childHash)
			}
			w.unmakeMove()
			if w.abort {
				return 0
			}
			if score > best {
				best, bestMove = score, m
				if score > alpha {
					alpha = score
					w.updatePV(ply, m)
					if score >= beta {
						if !m.IsCapture() {
							w.rewardQuiet(ply, pos.Side, m, depth)
							if w.feat.HistoryMalus && pass == 0 {
								w.penalizeQuiets(pos.Side, moves[:j], depth)
							}
						}
						goto done
					}
				}
			}
		}
	}
done:
	bound := tt.Upper
	switch {
	case best >= beta:
		bound = tt.Lower
	case best > origAlpha:
		bound = tt.Exact
	}
	w.table.Store(key, tt.MoveKey(bestMove), tt.ToTT(best, ply), depth, bound)
	return best
}

// updatePV makes m followed by the child's line the line of ply.
func (w *worker) updatePV(ply int, m movegen.Move) {
	f, child := &w.stack[ply], &w.stack[ply+1]
	f.pv[0] = m
	n := copy(f.pv[1:], child.pv[:child.pvLen])
	f.pvLen = n + 1
}

// quiesce resolves the position at the horizon: pending captures are
// played out (they are forced, so there is no standing pat), and when the
// opponent threatens a capture the quiet moves are searched once more.
func (w *worker) quiesce(ply, alpha, beta, qply int) int {
	f := &w.stack[ply]
	f.pvLen = 0
	w.countNode()
	if w.abort {
		return 0
	}
	pos := &f.pos
	w.selDepth = max(w.selDepth, ply)
	if ply >= MaxPly-1 {
		return w.eval(w.v, pos)
	}
	capture := w.v.HasCapture(pos)
	if !capture && !movegen.HasStep(pos) {
		return -tt.Win + ply
	}
	if f.drawn {
		return w.playOn(ply, 0, alpha, beta, qply) // a move-count rule ends the game here
	}
	if w.feat.QuiesceTables && w.db.Holds(pos) {
		// The tables know this position better than the evaluation or a
		// capture sequence, and a probe costs less than either.
		if score, ok := w.probeTables(f, ply); ok {
			return score
		}
	}
	if capture {
		moves := w.v.Generate(pos, f.moves[:0])
		return w.searchMoves(ply, moves, alpha, beta, qply, -infinity)
	}
	w.leaves++
	w.leafPlies += int64(ply)
	stand := w.eval(w.v, pos)
	if w.feat.ThreatSearch && qply == 0 && w.threatened(pos) {
		moves := w.v.Generate(pos, f.moves[:0])
		return w.searchMoves(ply, moves, alpha, beta, qply+1, -infinity)
	}
	return stand
}

// searchMoves is quiescence's loop over moves.
func (w *worker) searchMoves(ply int, moves []movegen.Move, alpha, beta, qply, best int) int {
	w.orderMoves(ply, moves, 0)
	for i := range moves {
		w.pick(ply, moves, i)
		w.makeMove(ply, moves[i], false)
		score := -w.quiesce(ply+1, -beta, -alpha, qply)
		w.unmakeMove()
		if w.abort {
			return 0
		}
		if score > best {
			best = score
			if score > alpha {
				alpha = score
				w.updatePV(ply, moves[i])
				if score >= beta {
					break
				}
			}
		}
	}
	return best
}

// threatened reports whether the opponent could capture if it were to move.
func (w *worker) threatened(pos *movegen.Position) bool {
	q := *pos
	q.Side = q.Side.Other()
	return w.v.HasCapture(&q)
}

// iirDepth is the shallowest node Features.IIR reduces.
const iirDepth = 4

// futilityMargin is how far above beta, per ply of depth, a static score
// must stand for reverse futility pruning.
const futilityMargin = 80

// historyReduction adjusts a late quiet move's reduction r by its history
// h against the best history top of its node's quiet moves
// (Features.HistoryLMR): a move that never cut off in this search gets a
// ply more at depth 5 or more, one with at least half the top a ply less;
// the child keeps at least one ply.
func historyReduction(r int, h, top int32, depth, newDepth int) int {
	switch {
	case h <= 0 && depth >= 5:
		r++
	case top > 0 && 2*h >= top:
		r--
	}
	return max(0, min(r, newDepth-1))
}

// lmrTable[depth][index] is the late-move reduction of the log-shaped
// scheme: at least one ply, growing with log(depth)*log(index).
var lmrTable = func() (t [64][64]int) {
	for d := 1; d < 64; d++ {
		for i := 1; i < 64; i++ {
			t[d][i] = max(1, int(0.5+math.Log(float64(d))*math.Log(float64(i))/2.0))
		}
	}
	return t
}()

// Table wins the draw rules could still spoil score below every forced
// win the search proves (tt.MateBound) and above every evaluation:
// knownWin-ply-distance where the tables give a distance (so the engine
// still hurries, and prefers a win it can trust), and wdlWin-ply plus a
// little evaluation where they give none (so progress, by captures into
// the exact slices, still pays).
const (
	knownWin = tt.MateBound - 100
	wdlWin   = knownWin - 500
	// wdlRoom is how many plies before a counting rule's draw a win
	// without a distance is still taken.
	wdlRoom = 20
)

// probeTables scores the node from the endgame tables, which know nothing
// of the move-count draw rules. A draw is a draw. A win or loss within
// the distance the rules leave is exact (tt.Win-ply-distance): shorter
// than any rule already counting (f.left) and than any rule that could
// start (DrawRules.Floor). A longer one, where a counting rule still
// leaves room, is a known result (knownWin); where a counting rule would
// draw first, the node is searched like any other, unless the winner can
// restart that rule (restartable).
func (w *worker) probeTables(f *frame, ply int) (int, bool) {
	v, ok := w.db.Probe(&f.pos)
	if !ok {
		return 0, false
	}
	counting := f.left < game.NoCount
	// A win's score, negated below for a loss.
	var score int
	switch {
	case v.WDL == egdb.Draw:
		score = 0
	case v.Dist >= 0 && counting && f.left < v.Dist && !restartable(f, v):
		return 0, false
	case f.rules.DistanceHolds(f.left, game.MaterialOf(&f.pos), v.Dist):
		score = tt.Win - ply - v.Dist
	case v.Dist >= 0:
		score = knownWin - ply - v.Dist
	case counting && f.left < wdlRoom:
		return 0, false
	default:
		// The evaluation (for the side to move) steers, a little.
		e := max(-150, min(150, w.eval(w.v, &f.pos))) / 2
		if v.WDL == egdb.Loss {
			e = -e
		}
		score = wdlWin - ply + e
	}
	if v.WDL == egdb.Loss {
		score = -score
	}
	w.tbHits++
	return score, true
}

// restartable reports whether the winner of a table result v can restart
// every rule that would draw before the table's line ends
// (DrawRules.Restartable: a man move, or crowning a man). Such a win is
// still a known one (knownWin-ply-distance steers the search along the
// table's line), and the tree sees the count on its own path: a line that
// lets a rule draw scores 0 there. The portuguese 20-move rule counts in
// every position, so without this every won 5-piece ending longer than
// the plies it left was searched blind to the tables (a match game drew
// W:WK11,24:BK10,K29,31, a black win in 84 plies, by that rule).
func restartable(f *frame, v egdb.Value) bool {
	winner := f.pos.Side
	if v.WDL == egdb.Loss {
		winner = winner.Other()
	}
	return f.rules.Restartable(f.counters, v.Dist, movegen.ManCanStep(&f.pos, winner), movegen.CrownPlies(&f.pos, winner))
}
