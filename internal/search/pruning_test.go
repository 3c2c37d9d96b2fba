package search

import (
	"context"
	"strings"
	"testing"

	"github.com/riodraughts/rio/internal/eval"
	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/tt"
	"github.com/rs/zerolog"
)

// The candidate prunings keep the search sound where it matters most:
// every shot of TestShots is still found at depth 8, and a search is the
// same twice (same move, same nodes), with IIR and ShallowLow (below)
// too. (LMP pruning a sacrifice missed the
// russian 25-22 shot: a move that offers a capture is never pruned.)
//
// Each candidate is tested as it was measured: on the default of its
// match, the one before ShallowCut. LMP also passes on top of ShallowCut;
// each of the others, on top of it, plays 6-1 or 6-2 at depth 8 in the russian
// W:W6,21,25,29,32:B8,K20,26 and finds 25-22 only from depth 9 to 11: the
// learned evaluation scores crowning within a tenth of a man of the shot
// there, and any further pruning tips depth 8 over. A candidate is switched
// on only once it passes here on top of the shipped default.
//
// Every switch also changes the search: a candidate whose node counts equal
// the default's would have been measured as nothing at all. Two act only
// deeper than these searches reach, and are left out of that check:
// ShallowNest (ShallowCut's searches reach depth 3 from nodes of depth
// 10) and Singular (PV nodes of depth 8 below the root, which a search
// to depth 8 does not have).
func TestCandidatePrunings(t *testing.T) {
	var baseNodes int64
	for _, spec := range []string{"", "-ShallowCut", "+LMP", "-ShallowCut +ProbCut", "-ShallowCut +ProbCut +LMP", "-ShallowCut +LogLMR", "-ShallowCut +OfferFull", "-ShallowCut +HistoryMalus", "-ShallowCut +Futility", "-ShallowCut +HistoryLMR", "-ShallowCut +WideLMR", "+CounterMove", "+ShallowNest", "+CounterMove +ShallowNest", "+Singular", "+IIR", "+ShallowLow", "+ETC"} {
		feat, err := ApplyFeatures(DefaultFeatures, spec)
		if err != nil {
			t.Fatal(err)
		}
		var total int64
		for _, c := range shots {
			g, _, want := c.setup(t)
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
			total += nodes[0]
		}
		if spec == "" {
			baseNodes = total
		} else if total == baseNodes && !strings.Contains(spec, "ShallowNest") && !strings.Contains(spec, "Singular") {
			t.Errorf("%s: the same %d nodes as the default: the switch changes nothing", spec, total)
		}
	}
}

// TestHistoryReduction holds HistoryLMR's rule to a table: unknown moves
// reduced more only deep enough, good ones less, the child never below one
// ply and never a negative reduction.
func TestHistoryReduction(t *testing.T) {
	cases := []struct {
		r        int
		h, top   int32
		depth    int
		newDepth int
		want     int
	}{
		{1, 0, 100, 5, 4, 2},   // never cut off, deep: one more
		{1, 0, 100, 4, 3, 1},   // never cut off, shallow: unchanged
		{1, 0, 0, 6, 5, 2},     // nothing cut off yet at all: still unknown
		{1, 50, 100, 6, 5, 0},  // half the top: one less
		{2, 100, 100, 6, 5, 1}, // the top itself
		{1, 49, 100, 6, 5, 1},  // below half: unchanged
		{2, 0, 100, 5, 2, 1},   // capped so that the child keeps a ply
		{3, 0, 9, 8, 7, 4},
	}
	for _, c := range cases {
		if got := historyReduction(c.r, c.h, c.top, c.depth, c.newDepth); got != c.want {
			t.Errorf("historyReduction(r=%d, h=%d, top=%d, depth=%d, newDepth=%d) = %d, want %d",
				c.r, c.h, c.top, c.depth, c.newDepth, got, c.want)
		}
	}
}

// singular finds the shot of every TestShots position singular (with the
// classic evaluation, which counts material as the shots' oracle does,
// the shot is a man ahead of any other move), but for the two whose
// search already scores a win, and no move of the start
// position singular (none of its moves stands 0.4 men above the
// others); it tests nothing shallower than singularDepth or on an upper
// bound.
func TestSingular(t *testing.T) {
	const depth = 10
	singularAt := func(g *game.Game) (movegen.Move, bool, *worker, tt.Entry) {
		e := NewEngine(16, zerolog.Nop())
		e.Eval = eval.Evaluate
		e.Run(context.Background(), g, Limits{Depth: depth}, Options{Threads: 1}, nil)
		s := &Search{e: e, v: g.Variant, game: g, opt: Options{Threads: 1, MultiPV: 1}, depthLimit: depth}
		w := newWorker(s, 0)
		s.workers = []*worker{w}
		w.completed = depth
		f := &w.stack[0]
		entry, ok := e.TT.Probe(tableKey(f, MaxPly)) // the root's key (rootSearch)
		if !ok || entry.Move == 0 {
			t.Fatalf("%s: no table move after a depth-%d search", g.Variant.Name, depth)
		}
		moves := g.Variant.Generate(&f.pos, f.moves[:0])
		w.orderMoves(0, moves, entry.Move)
		w.pick(0, moves, 0)
		return moves[0], w.singular(0, depth, entry, moves), w, entry
	}
	for _, c := range shots {
		g, p, want := c.setup(t)
		m, sing, w, entry := singularAt(g)
		// A shot that wins the game outright is left alone: the search
		// proves its distance without an extension.
		win := abs(tt.FromTT(entry.Score, 0)) >= tt.MateBound
		if m != want || sing == win {
			t.Errorf("%s %s: table move %s (score %d) singular %v, want %s singular unless a win", c.v.Name, c.fen, c.v.FormatMove(m), tt.FromTT(entry.Score, 0), sing, c.move)
		}
		moves := w.stack[0].moves[:len(c.v.Generate(&p, nil))]
		if w.singular(0, singularDepth-1, entry, moves) {
			t.Errorf("%s %s: singular at depth %d", c.v.Name, c.fen, singularDepth-1)
		}
		entry.Bound = tt.Upper
		if w.singular(0, depth, entry, moves) {
			t.Errorf("%s %s: singular on an upper bound", c.v.Name, c.fen)
		}
	}
	for _, v := range []*movegen.Variant{movegen.Brazilian, movegen.Portuguese, movegen.Russian} {
		if m, sing, _, _ := singularAt(game.New(v, v.Start())); sing {
			t.Errorf("%s start: %s singular", v.Name, v.FormatMove(m))
		}
	}
}

// TestETC holds the enhanced transposition cutoff to what it may trust: a
// child stored deep enough with an upper bound or an exact score that,
// negated, reaches beta cuts the node with that score and stores a lower
// bound for it; a child stored too shallow, with a lower bound, or short
// of beta does not, nor does a child that repeats a position of the game
// (its own node scores the repetition a draw, whatever the table says).
func TestETC(t *testing.T) {
	v := movegen.Russian
	workerAt := func(g *game.Game) *worker {
		s := &Search{e: NewEngine(1, zerolog.Nop()), v: v, game: g, opt: Options{Threads: 1, MultiPV: 1}, depthLimit: 10}
		w := newWorker(s, 0)
		s.workers = []*worker{w}
		return w
	}
	childKey := func(w *worker, m movegen.Move, depth int) uint64 {
		w.makeMove(0, m, false)
		defer w.unmakeMove()
		return tableKey(&w.stack[1], depth)
	}
	const depth, beta = 6, 100
	cases := []struct {
		name  string
		score int // the child's stored score, for the child
		depth int
		bound tt.Bound
		cut   bool
	}{
		{"upper bound below -beta", -150, depth - 1, tt.Upper, true},
		{"exact below -beta, stored deeper", -120, depth + 3, tt.Exact, true},
		{"exactly -beta", -beta, depth - 1, tt.Upper, true},
		{"too shallow", -150, depth - 2, tt.Upper, false},
		{"lower bound", -150, depth - 1, tt.Lower, false},
		{"short of beta", -50, depth - 1, tt.Upper, false},
	}
	for _, c := range cases {
		w := workerAt(game.New(v, v.Start()))
		f := &w.stack[0]
		moves := v.Generate(&f.pos, f.moves[:0])
		m := moves[len(moves)-1]
		w.table.Store(childKey(w, m, depth-1), 0, tt.ToTT(c.score, 1), c.depth, c.bound)
		score, cut := w.etc(0, tableKey(f, depth), depth, depth-1, beta, moves)
		if cut != c.cut || (cut && score != -c.score) {
			t.Errorf("%s: etc = %d, %v; want %v with %d", c.name, score, cut, c.cut, -c.score)
			continue
		}
		e, ok := w.table.Probe(tableKey(f, depth))
		switch {
		case cut && (!ok || e.Bound != tt.Lower || e.Depth != depth || e.Move != tt.MoveKey(m) || tt.FromTT(e.Score, 0) != -c.score):
			t.Errorf("%s: the node's entry %+v (found %v), want a lower bound %d at depth %d by %s", c.name, e, ok, -c.score, depth, v.FormatMove(m))
		case !cut && ok:
			t.Errorf("%s: no cut, yet the node has an entry %+v", c.name, e)
		}
	}

	// Kings shuffling: after 4 plies the game is back where it started, so
	// the root's first child repeats a position the game has seen.
	g := newGame(t, v, "W:WK29:BK3")
	for _, s := range []string{"29-25", "3-7", "25-29", "7-3"} {
		if _, err := g.PlayText(s); err != nil {
			t.Fatal(err)
		}
	}
	w := workerAt(g)
	f := &w.stack[0]
	moves := v.Generate(&f.pos, f.moves[:0])
	for _, m := range moves {
		if v.FormatMove(m) == "29-25" {
			w.table.Store(childKey(w, m, depth-1), 0, tt.ToTT(-500, 1), depth+2, tt.Exact)
		}
	}
	if score, cut := w.etc(0, tableKey(f, depth), depth, depth-1, beta, moves); cut {
		t.Errorf("a repeated child cut the node with %d", score)
	}
}
