package search

import (
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/tt"
)

// Move ordering scores: the table's move, then captures by the pieces they
// take, then the two killers of the ply, then the counter-move
// (Features.CounterMove), then quiet moves by history (which stays within
// ±historyMax, below them all).
const (
	orderTT      = 1 << 30
	orderCapture = 1 << 26
	orderKiller1 = 1 << 25
	orderKiller2 = 1 << 24
	orderCounter = 1 << 23
)

// orderMoves scores the moves of ply for pick.
func (w *worker) orderMoves(ply int, moves []movegen.Move, ttKey uint32) {
	f := &w.stack[ply]
	side := f.pos.Side
	kings := f.pos.Kings
	f.histTop = 0
	f.counter = movegen.NoMove
	if w.feat.CounterMove && f.prev != movegen.NoMove {
		f.counter = w.replies[side][f.prev.From()&63][f.prev.To()&63]
	}
	for i, m := range moves {
		var s int32
		switch {
		case ttKey != 0 && tt.MoveKey(m) == ttKey:
			s = orderTT
		case m.IsCapture():
			c := m.Captured()
			s = orderCapture + int32(c.Count())<<8 + int32((c&kings).Count())<<4
		case m == f.killers[0]:
			s = orderKiller1
		case m == f.killers[1]:
			s = orderKiller2
		case m == f.counter:
			s = orderCounter
		default:
			s = w.history[side][m.From()&63][m.To()&63]
			f.histTop = max(f.histTop, s)
		}
		if m.Promotes() {
			s += 1 << 12
		}
		f.order[i] = s
	}
}

// pick moves the best-scored of moves[i:] to i (selection sort: most nodes
// cut off after a few moves).
func (w *worker) pick(ply int, moves []movegen.Move, i int) {
	f := &w.stack[ply]
	best := i
	for j := i + 1; j < len(moves); j++ {
		if f.order[j] > f.order[best] {
			best = j
		}
	}
	if best != i {
		moves[i], moves[best] = moves[best], moves[i]
		f.order[i], f.order[best] = f.order[best], f.order[i]
	}
}

// rewardQuiet remembers a quiet move that caused a cutoff.
func (w *worker) rewardQuiet(ply int, side movegen.Color, m movegen.Move, depth int) {
	f := &w.stack[ply]
	if f.killers[0] != m {
		f.killers[1] = f.killers[0]
		f.killers[0] = m
	}
	if w.feat.CounterMove && f.prev != movegen.NoMove {
		w.replies[side][f.prev.From()&63][f.prev.To()&63] = m
	}
	h := &w.history[side][m.From()&63][m.To()&63]
	*h += int32(depth * depth)
	if *h > historyMax {
		w.halveHistory()
	}
}

// historyMax bounds a history score either way: past it the whole table
// is halved, which also ages old counts.
const historyMax = 1 << 22

// penalizeQuiets lowers the history of the quiet moves ordered before a
// quiet move that cut off (Features.HistoryMalus): they were tried first
// and failed (or, with LMP or deferral, were skipped), so they should sort
// lower next time.
func (w *worker) penalizeQuiets(side movegen.Color, tried []movegen.Move, depth int) {
	for _, m := range tried {
		if m.IsCapture() {
			continue
		}
		h := &w.history[side][m.From()&63][m.To()&63]
		*h -= int32(depth * depth)
		if *h < -historyMax {
			w.halveHistory()
		}
	}
}

// halveHistory halves every history score.
func (w *worker) halveHistory() {
	for s := range w.history {
		for a := range w.history[s] {
			for b := range w.history[s][a] {
				w.history[s][a][b] /= 2
			}
		}
	}
}
