package search

import (
	"context"
	"testing"

	"github.com/riodraughts/rio/internal/movegen"
	"github.com/rs/zerolog"
)

// levelSearch searches g at a level with a fresh table.
func levelSearch(t *testing.T, v *movegen.Variant, fen string, level int, seed uint64, threads int) Result {
	t.Helper()
	g := newGame(t, v, fen)
	e := NewEngine(16, zerolog.Nop())
	var lim Limits
	if level == 0 {
		lim.Depth = 8
	}
	return e.Run(context.Background(), g, lim, Options{Threads: threads, Level: level, Seed: seed}, nil)
}

// A level keeps within its caps, plays a legal move, and repeats itself
// for a seed whatever the thread count asked for.
func TestLevelCapsAndDeterminism(t *testing.T) {
	for level := 1; level <= MaxLevel; level++ {
		spec := levels[level-1]
		a := levelSearch(t, movegen.Brazilian, "startpos", level, 7, 1)
		b := a
		if level <= 8 { // the top levels search for seconds
			b = levelSearch(t, movegen.Brazilian, "startpos", level, 7, 2)
		}
		if a.Move != b.Move || a.Nodes != b.Nodes {
			t.Errorf("level %d: seed 7 gave %v (%d nodes) then %v (%d nodes)", level, a.Move, a.Nodes, b.Move, b.Nodes)
		}
		if spec.depth > 0 && a.Depth > spec.depth {
			t.Errorf("level %d: depth %d above its cap %d", level, a.Depth, spec.depth)
		}
		if a.Nodes > spec.nodes {
			t.Errorf("level %d: %d nodes above its cap %d", level, a.Nodes, spec.nodes)
		}
		p := movegen.Brazilian.Start()
		if _, err := movegen.Brazilian.ParseMove(&p, movegen.Brazilian.FormatMove(a.Move)); err != nil {
			t.Errorf("level %d: %v is not legal: %v", level, a.Move, err)
		}
	}
}

// The low levels vary their moves from seed to seed; the full engine
// (level 0) never does.
func TestLevelVaries(t *testing.T) {
	seen := map[movegen.Move]bool{}
	for seed := uint64(1); seed <= 20; seed++ {
		seen[levelSearch(t, movegen.Russian, "startpos", 2, seed, 1).Move] = true
	}
	if len(seen) < 3 {
		t.Errorf("level 2 played only %d different first moves over 20 seeds", len(seen))
	}
	full := map[movegen.Move]bool{}
	for seed := uint64(1); seed <= 3; seed++ {
		full[levelSearch(t, movegen.Russian, "startpos", 0, seed, 1).Move] = true
	}
	if len(full) != 1 {
		t.Errorf("full strength played %d different moves", len(full))
	}
}

// A level chooses only among moves within its margin of the best: where
// one move wins material by a forced capture and every other loses some,
// the middle levels find it every time.
func TestLevelKeepsToItsMargin(t *testing.T) {
	for _, c := range shots[:3] {
		p, _ := c.v.ParsePosition(c.fen)
		want, _ := c.v.ParseMove(&p, c.move)
		for seed := uint64(1); seed <= 3; seed++ {
			if got := levelSearch(t, c.v, c.fen, 8, seed, 1).Move; got != want {
				t.Errorf("%s %s level 8 seed %d: played %s, want the shot %s", c.v, c.fen, seed, c.v.FormatMove(got), c.move)
			}
		}
	}
}

// chooseLevel never picks an unscored line or a forced loss beside a
// move that does not lose, and falls back to the best line.
func TestChooseLevel(t *testing.T) {
	s := &Search{opt: Options{Level: 1, Seed: 3}}
	m := func(i int) movegen.Move { return movegen.NewMove(movegen.Square(i), movegen.Square(i+4), 0, false) }
	lines := []levelLine{{m(0), 10, nil}, {m(1), -infinity, nil}, {m(2), -9990, nil}}
	for seed := uint64(1); seed < 50; seed++ {
		s.opt.Seed = seed
		if l, _ := s.chooseLevel(lines, 99); l.move != m(0) {
			t.Fatalf("seed %d chose %v", seed, l.move)
		}
	}
	// Every move loses: the best (the slowest loss) is still a choice.
	lost := []levelLine{{m(0), -9980, nil}, {m(1), -9990, nil}}
	if l, ok := s.chooseLevel(lost, 1); !ok || l.move != m(0) && l.move != m(1) {
		t.Fatalf("all lost: chose %v, %v", l.move, ok)
	}
	if _, ok := s.chooseLevel(nil, 1); ok {
		t.Fatal("no lines: a choice")
	}
}
