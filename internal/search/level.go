package search

import (
	"math/rand/v2"
	"slices"

	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/tt"
)

// MaxLevel is the strongest playing level; level 0 is full strength.
const MaxLevel = 10

// levelSpec is what one playing level allows the search: a depth and a
// node cap, the number of root lines it compares, and how far (in
// hundredths of a man) below the best a move may score and still be
// chosen.
type levelSpec struct {
	depth  int
	nodes  int64
	lines  int
	margin int
}

// levels[n-1] is level n. The low levels see little (depth 1 still plays
// out every capture in quiescence, so they never miss a shot of one move)
// and choose loosely among the moves they see; the high ones search far and
// vary only among moves of almost equal score. The README's "Levels" table
// gives each one's strength against the full engine.
var levels = [MaxLevel]levelSpec{
	{depth: 1, nodes: 100, lines: 8, margin: 200},
	{depth: 2, nodes: 300, lines: 8, margin: 130},
	{depth: 3, nodes: 1_000, lines: 6, margin: 90},
	{depth: 4, nodes: 3_000, lines: 6, margin: 60},
	{depth: 5, nodes: 10_000, lines: 5, margin: 40},
	{depth: 6, nodes: 30_000, lines: 4, margin: 28},
	{depth: 8, nodes: 100_000, lines: 4, margin: 18},
	{depth: 10, nodes: 300_000, lines: 3, margin: 10},
	{depth: 14, nodes: 1_000_000, lines: 3, margin: 5},
	{depth: 0, nodes: 3_000_000, lines: 2, margin: 2},
}

// levelLine is a root move and its score from the last completed
// iteration, kept for the level's choice.
type levelLine struct {
	move  movegen.Move
	score int
	pv    []movegen.Move
}

// applyLevel narrows the search to the level's depth, nodes and lines.
// A level plays on one thread: its choice is then the same for the same
// seed.
func (s *Search) applyLevel() {
	spec := levels[s.opt.Level-1]
	s.opt.Threads = 1
	s.opt.MultiPV = max(s.opt.MultiPV, spec.lines)
	if spec.depth > 0 {
		s.depthLimit = min(s.depthLimit, spec.depth)
	}
	if s.nodeLimit <= 0 || s.nodeLimit > spec.nodes {
		s.nodeLimit = spec.nodes
	}
}

// keepLevelLines records the lines of a completed iteration.
func (w *worker) keepLevelLines() {
	w.levelLines = w.levelLines[:0]
	for _, rm := range w.rootLines() {
		w.levelLines = append(w.levelLines, levelLine{rm.move, rm.score, slices.Clone(rm.pv)})
	}
}

// chooseLevel picks the level's move among the lines of the last
// completed iteration: any within the level's margin of the best, the
// closer to the best the likelier (weights fall linearly to 1 at the
// margin). A move into a forced loss is chosen only if every move loses
// (a forced win is the best line, and others within the margin of it are
// wins too). The choice is drawn from the seed and the
// position, so a given seed repeats a game move for move.
func (s *Search) chooseLevel(lines []levelLine, hash uint64) (levelLine, bool) {
	if len(lines) == 0 {
		return levelLine{}, false
	}
	spec := levels[s.opt.Level-1]
	best := lines[0].score
	weights := make([]int, 0, len(lines))
	total := 0
	for _, l := range lines {
		loss := best - l.score
		ok := loss <= spec.margin
		if best >= -tt.MateBound && l.score < -tt.MateBound {
			ok = false // a forced loss where the best is not one
		}
		if l.score <= -infinity || l.score >= infinity {
			ok = false // a line the iteration did not score
		}
		w := 0
		if ok {
			w = spec.margin + 1 - loss
		}
		weights = append(weights, w)
		total += w
	}
	if total == 0 {
		return lines[0], true
	}
	seed := s.opt.Seed
	if seed == 0 {
		seed = rand.Uint64()
	}
	r := rand.New(rand.NewPCG(seed, hash)).IntN(total)
	for i, w := range weights {
		if r < w {
			return lines[i], true
		}
		r -= w
	}
	return lines[0], true
}
