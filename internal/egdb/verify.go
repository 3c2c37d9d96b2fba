package egdb

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/riodraughts/rio/internal/movegen"
	"golang.org/x/sync/errgroup"
)

// Verify re-checks every stored value against the position's moves: a
// position is won iff some move leads to a loss for the opponent, lost iff
// every move leads to a win for the opponent (or there is none), drawn
// otherwise; where distances are kept, a win is one ply longer than the
// quickest such loss and a loss one ply longer than the slowest win. The
// tables are checked in parallel; the first wrong value is the error.
func Verify(ctx context.Context, db *DB, threads int, progress func(done, total int64)) error {
	var total, done int64
	for _, t := range db.tables {
		total += t.Size()
	}
	for _, m := range Slices(db.Pieces) {
		if db.tables[m] == nil {
			return fmt.Errorf("%s %v: missing", db.Variant.Name, m)
		}
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(threads, 1))
	for _, m := range Slices(db.Pieces) {
		t := db.tables[m]
		g.Go(func() error {
			var buf [movegen.MaxMoves]movegen.Move
			var w walker
			w.seek(t.x, 0)
			for i := range t.Size() {
				if i&0xFFFF == 0 && gctx.Err() != nil {
					return gctx.Err()
				}
				p := w.position()
				w.next()
				want := expected(db, &p, buf[:0], t.dist != nil)
				if got := t.At(i); got != want {
					return fmt.Errorf("%s %v position %d (%s): stored %v, its moves give %v",
						db.Variant.Name, m, i, db.Variant.FormatFEN(&p, false), got, want)
				}
			}
			if progress != nil {
				progress(atomic.AddInt64(&done, t.Size()), total)
			}
			return nil
		})
	}
	return g.Wait()
}

// expected is the value of p (White to move) from its successors' values.
func expected(db *DB, p *movegen.Position, buf []movegen.Move, dist bool) Value {
	moves := db.Variant.Generate(p, buf)
	// Distances are -1 in slices without them; only the exact ones are
	// compared (dist).
	winning, drawn := false, false
	quickest, slowest := -1, -1
	var q movegen.Position
	for _, m := range moves {
		p.PlayInto(m, &q)
		v, ok := db.Probe(&q)
		if !ok {
			return Value{WDL: Draw, Dist: -2} // a hole: never equal to a stored value
		}
		switch v.WDL {
		case Loss:
			if !winning || v.Dist < quickest {
				quickest = v.Dist
			}
			winning = true
		case Draw:
			drawn = true
		case Win:
			slowest = max(slowest, v.Dist)
		}
	}
	var best Value
	switch {
	case winning:
		best = Value{WDL: Win, Dist: quickest + 1}
	case drawn:
		return Value{WDL: Draw, Dist: -1}
	default:
		best = Value{WDL: Loss, Dist: slowest + 1}
	}
	if !dist {
		best.Dist = -1
	}
	return best
}

// String formats a value: "win 21", "draw", "loss 2", "win" (no distance).
func (v Value) String() string {
	if v.WDL == Draw || v.Dist < 0 {
		return v.WDL.String()
	}
	return fmt.Sprintf("%s %d", v.WDL, v.Dist)
}
