package search

import (
	"testing"

	"github.com/riodraughts/rio/internal/tt"
)

func TestMateIn(t *testing.T) {
	for _, c := range []struct {
		score, plies int
		ok           bool
		text         string
	}{
		{0, 0, false, "+0.00"},
		{35, 0, false, "+0.35"},
		{-100, 0, false, "-1.00"},
		{tt.MateBound, 0, false, "+90.00"},
		{-tt.MateBound, 0, false, "-90.00"},
		{tt.Win - 1, 1, true, "win in 1 ply"},
		{tt.Win - 7, 7, true, "win in 7 plies"},
		{-(tt.Win - 4), -4, true, "loss in 4 plies"},
		{-(tt.Win - 1), -1, true, "loss in 1 ply"},
		{-tt.Win, 0, true, "lost"},
		{tt.MateBound + 1, tt.Win - tt.MateBound - 1, true, "win in 999 plies"},
		{-tt.MateBound - 1, -(tt.Win - tt.MateBound - 1), true, "loss in 999 plies"},
	} {
		n, ok := MateIn(c.score)
		if n != c.plies || ok != c.ok {
			t.Errorf("MateIn(%d) = %d, %v; want %d, %v", c.score, n, ok, c.plies, c.ok)
		}
		if got := ScoreText(c.score); got != c.text {
			t.Errorf("ScoreText(%d) = %q, want %q", c.score, got, c.text)
		}
	}
	// A win one ply further from the end is one ply longer, for both sides.
	for n := 1; n < 1000; n++ {
		w, _ := MateIn(tt.Win - n)
		l, _ := MateIn(-(tt.Win - n))
		if w != n || l != -n {
			t.Fatalf("n=%d: win %d, loss %d", n, w, l)
		}
	}
}
