package search

import (
	"testing"

	"github.com/riodraughts/rio/internal/movegen"
)

// penalizeQuiets takes depth² from each quiet move tried before a cutoff,
// leaves captures alone, and halves the table rather than run past
// -historyMax (Features.HistoryMalus).
func TestPenalizeQuiets(t *testing.T) {
	v := movegen.Russian
	start := v.Start()
	quiets := v.Generate(&start, nil)
	if len(quiets) < 3 || quiets[0].IsCapture() {
		t.Fatalf("start: %d moves", len(quiets))
	}
	var w worker
	side := start.Side
	at := func(m movegen.Move) *int32 { return &w.history[side][m.From()&63][m.To()&63] }
	*at(quiets[0]) = 100
	w.penalizeQuiets(side, quiets[:2], 3)
	if got := *at(quiets[0]); got != 91 {
		t.Errorf("first tried: history %d, want 91", got)
	}
	if got := *at(quiets[1]); got != -9 {
		t.Errorf("second tried: history %d, want -9", got)
	}
	if got := *at(quiets[2]); got != 0 {
		t.Errorf("not tried: history %d, want 0", got)
	}

	// A capture is never a quiet move, whatever it was tried before.
	p, err := v.ParsePosition("W:W21,22:B17,26")
	if err != nil {
		t.Fatal(err)
	}
	captures := v.Generate(&p, nil)
	if len(captures) == 0 || !captures[0].IsCapture() {
		t.Fatalf("%d moves, want captures", len(captures))
	}
	before := w.history
	w.penalizeQuiets(p.Side, captures, 5)
	if w.history != before {
		t.Error("a capture's history changed")
	}

	// Past -historyMax the whole table is halved.
	*at(quiets[0]), *at(quiets[2]) = -historyMax, 1000
	w.penalizeQuiets(side, quiets[:1], 2)
	if got, want := *at(quiets[0]), int32((-historyMax-4)/2); got != want {
		t.Errorf("after halving: history %d, want %d", got, want)
	}
	if got := *at(quiets[2]); got != 500 {
		t.Errorf("other move after halving: %d, want 500", got)
	}
}

// With Features.CounterMove, a quiet cutoff is remembered as the reply to
// the move before it, and that reply then sorts after the killers and
// before every quiet move by history; without it nothing is remembered.
func TestCounterMove(t *testing.T) {
	v := movegen.Russian
	start := v.Start()
	first := v.Generate(&start, nil)
	var after movegen.Position
	start.PlayInto(first[0], &after)
	replies := v.Generate(&after, nil)
	if len(replies) < 4 || replies[0].IsCapture() {
		t.Fatalf("after %s: %d replies", v.FormatMove(first[0]), len(replies))
	}
	for _, on := range []bool{false, true} {
		w := &worker{v: v, stack: make([]frame, 2)}
		w.feat.CounterMove = on
		f := &w.stack[1]
		f.pos, f.prev = after, first[0]
		counter, killer := replies[3], replies[2]
		f.killers[0] = killer
		w.rewardQuiet(1, after.Side, counter, 4)
		f.killers = [2]movegen.Move{killer, replies[1]}
		// The best history there can be sorts below the counter-move.
		w.history[after.Side][replies[0].From()&63][replies[0].To()&63] = historyMax
		moves := append([]movegen.Move(nil), replies...)
		w.orderMoves(1, moves, 0)
		var got []movegen.Move
		for i := range moves {
			w.pick(1, moves, i)
			got = append(got, moves[i])
		}
		want := []movegen.Move{killer, replies[1], replies[0]}
		if on {
			want = []movegen.Move{killer, replies[1], counter, replies[0]}
		}
		for i, m := range want {
			if got[i] != m {
				t.Errorf("CounterMove %v: move %d is %s, want %s", on, i, v.FormatMove(got[i]), v.FormatMove(m))
			}
		}
		// Another previous move has no counter-move of its own.
		f.prev = first[1]
		w.orderMoves(1, moves, 0)
		if f.counter != movegen.NoMove {
			t.Errorf("CounterMove %v: a counter-move %s for another move", on, v.FormatMove(f.counter))
		}
	}
}
