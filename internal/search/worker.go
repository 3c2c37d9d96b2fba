package search

import (
	"runtime"
	"slices"
	"sync/atomic"
	"time"

	"github.com/riodraughts/rio/internal/egdb"
	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/tt"
)

const (
	infinity = tt.Win + 1
	// pollMask: a thread looks at the clock, the node limit and the stop
	// flag every pollMask+1 nodes.
	pollMask = 2047
)

// frame is one ply of a thread's search stack.
type frame struct {
	pos movegen.Position
	// left is the number of plies before a move-count draw (large when no
	// rule counts).
	left     int
	counters game.Counters
	drawn    bool // a move-count rule draws here
	// rules are the draw rules in force here: the root's (Game.PlayOn),
	// less those a line played on past (playOn).
	rules *game.DrawRules
	moves [movegen.MaxMoves]movegen.Move
	order [movegen.MaxMoves]int32
	// deferred lists the indices of moves put off because another thread
	// was searching them (busy.go).
	deferred [movegen.MaxMoves]uint8
	killers  [2]movegen.Move
	// prev is the move that led here (NoMove at the root), what
	// Features.CounterMove answers; counter is the reply remembered
	// for it, set by orderMoves.
	prev    movegen.Move
	counter movegen.Move
	// histTop is the highest history of the node's quiet moves other
	// than the table move and the killers (orderMoves), what
	// Features.HistoryLMR measures a move's history against.
	histTop int32
	pv      [MaxPly]movegen.Move
	pvLen   int
}

// rootMove is a legal move at the root with its last score and line.
type rootMove struct {
	move  movegen.Move
	score int
	pv    []movegen.Move
}

// worker is one search thread; nothing in it is shared but the table.
type worker struct {
	s     *Search
	id    int
	v     *movegen.Variant
	table *tt.Table
	feat  Features
	eval  func(*movegen.Variant, *movegen.Position) int
	db    *egdb.DB // endgame tables, nil when none are ready
	// hist is held by value: a separately allocated History of each
	// thread could share a cache line with another thread's, and it is
	// written at every node.
	hist  game.History
	stack []frame

	// history[side][from][to] counts cutoffs by quiet moves, squared depth
	// each (less the failures before them, with Features.HistoryMalus).
	history [2][64][64]int32
	// replies[side][from][to] is side's quiet move that last cut off in
	// reply to the opponent's move from-to (Features.CounterMove).
	replies [2][64][64]movegen.Move
	// shallow counts the ShallowCut searches under way on the path: none
	// prunes again inside another (pruning.go).
	shallow int

	nodes          int64
	nodesPublished atomic.Int64
	abort          bool
	selDepth       int
	leafPlies      int64
	leaves         int64
	deferrals      int64 // moves put off because another thread had them
	tbHits         int64 // positions scored by the endgame tables

	root      []rootMove
	completed int // depth of the last completed iteration
	depth     int // depth of the iteration running
	// lastReport is when the main thread last sent an info.
	lastReport time.Duration
	// lastPoll is when the main thread last polled; lag is the longest gap
	// between two polls lately (decaying), how late a poll can come on
	// this machine now: a loaded machine deschedules the search for tens
	// of milliseconds, and the hard limit is kept by stopping that much
	// earlier.
	lastPoll, lag time.Duration
	// lastYield is when the search last gave the host's event loop a turn
	// (browser builds only: yield_js.go).
	lastYield time.Duration
	// time follows the iterations for the adaptive time limit
	// (timeman.go).
	time timeState
	// stable counts the iterations in a row that kept the same best move.
	stable   int
	lastBest movegen.Move
	// fillsProcs is set when the search's threads are as many as the
	// processors Go runs goroutines on (GOMAXPROCS): only then must a
	// poll yield (see poll).
	fillsProcs bool
	// partial is a better first line found by an interrupted iteration.
	partial *rootMove
	// levelLines are the lines of the last completed iteration, for a
	// level's choice (level.go).
	levelLines []levelLine
}

func newWorker(s *Search, id int) *worker {
	g := s.game
	// The rules that already drew the game are not followed: the host
	// asks for a move, so it plays on past them.
	rules, counters, hist := g.PlayOn(MaxPly + 2)
	w := &worker{
		s: s, id: id, v: g.Variant, table: s.e.TT,
		feat: s.e.Features, eval: s.e.Eval, db: s.e.Tables.Ready(g.Variant),
		hist:       *hist,
		stack:      make([]frame, MaxPly+2),
		fillsProcs: s.opt.Threads >= runtime.GOMAXPROCS(0),
	}
	root := &w.stack[0]
	root.pos, root.rules, root.counters = g.Position(), rules, counters
	root.left = rules.PliesLeft(counters)
	return w
}

// ruleKeys[n] is mixed into the table key of a position n plies before a
// move-count draw.
var ruleKeys = func() (k [2 * MaxPly]uint64) {
	movegen.RandomKeys(0x636f756e74657273, k[:])
	return k
}()

// ruleReach is how far beyond the nominal depth a line may run (captures,
// threats, extensions) when judging whether a draw rule can matter.
const ruleReach = 16

// tableKey is the table key of f searched depth plies deep: the position's
// hash, mixed with the plies left before a move-count draw when that draw
// could fall inside the search below, so that a score found with more room
// is not reused where the rule cuts the game short. Positions far from any
// limit share their entries whatever the counters say.
func tableKey(f *frame, depth int) uint64 {
	if f.left < depth+ruleReach && f.left >= 0 && f.left < len(ruleKeys) {
		// The rules switched off (playing on past one) change which draw
		// falls first: their set is part of the key too.
		return f.pos.Hash ^ ruleKeys[f.left] ^ offKeys[f.rules.Off()]
	}
	return f.pos.Hash
}

// offKeys[m] is mixed into the key of a position near a draw under a
// table with the count rules of mask m switched off (offKeys[0] is 0).
var offKeys = func() (k [256]uint64) {
	movegen.RandomKeys(0x6f66662d72756c65, k[1:])
	return k
}()

// initRoot lists the root moves, the table's move first.
func (w *worker) initRoot() {
	f := &w.stack[0]
	moves := w.v.Generate(&f.pos, f.moves[:0])
	w.orderMoves(0, moves, w.ttMove(tableKey(f, MaxPly)))
	w.root = w.root[:0]
	for i := range moves {
		w.pick(0, moves, i)
		w.root = append(w.root, rootMove{move: moves[i], score: -infinity})
	}
}

func (w *worker) ttMove(key uint64) uint32 {
	if e, ok := w.table.Probe(key); ok {
		return e.Move
	}
	return 0
}

// iterate is iterative deepening.
func (w *worker) iterate() {
	w.initRoot()
	if len(w.root) == 0 {
		return
	}
	// Helpers go past the depth limit: a helper that stopped there would
	// idle until the main thread finishes; deeper, it keeps filling the
	// table until the main thread stops everyone.
	limit := w.s.depthLimit
	if w.id > 0 {
		limit = MaxPly - 10
	}
	for depth := 1; depth <= limit; depth++ {
		// Without move deferral, helpers skip alternate depths so that the
		// threads spread out; with it, they spread over the moves instead.
		if w.id > 0 && depth > 2 && (depth+w.id)%2 == 0 && w.s.busy == nil {
			continue
		}
		w.depth = depth
		w.searchRoot(depth)
		if w.abort {
			break
		}
		w.completed = depth
		// A completed iteration supersedes what it found on the way (a
		// move that failed high through the aspiration window holds a
		// bound, and its exact score came from the search again), and the
		// next iteration starts with nothing found.
		w.partial = nil
		if w.s.opt.Level > 0 {
			w.keepLevelLines()
		}
		if w.id > 0 && depth >= w.s.depthLimit {
			// A helper reached the target depth first: the search is done,
			// and its result is the deepest (see Search.run).
			w.s.stop.Store(true)
			break
		}
		if w.id == 0 {
			w.s.report(w, depth)
			w.s.publish(w)
			if w.enough(depth) {
				break
			}
		}
		if w.s.stop.Load() {
			break
		}
	}
	w.nodesPublished.Store(w.nodes)
}

// enough decides, after an iteration, whether the main thread stops.
func (w *worker) enough(depth int) bool {
	s := w.s
	if s.stop.Load() {
		return true
	}
	if n, ok := MateIn(w.root[0].score); ok && abs(n) <= depth {
		return !s.opt.Analysis // the forced result is fully seen
	}
	changed := w.root[0].move != w.lastBest
	if !changed {
		w.stable++
	} else {
		w.lastBest, w.stable = w.root[0].move, 0
	}
	w.time.update(depth, changed, w.root[0].score)
	soft := s.softNs.Load()
	if soft <= 0 {
		return false
	}
	if w.feat.AdaptiveTime {
		soft = w.time.scale(soft, s.hardNs.Load())
	}
	// Time since the clock started (a ponder search's time before the
	// hit does not count towards the fractions below).
	from := s.clockFrom.Load()
	el := int64(s.elapsed()) - from
	soft -= from
	// The next iteration would likely not finish in time.
	if el > soft*6/10 {
		return true
	}
	// The best move has stood for several iterations: half the budget is
	// enough (a third, before clockMoves went from 22 to 14, left most of the
	// clock unused).
	if !s.opt.Analysis && depth >= 8 && w.stable >= 4 && el > soft/2 {
		return true
	}
	// A move that stands out: the only one, or clearly ahead for a while.
	if !s.opt.Analysis && len(w.root) == 1 && depth >= 4 {
		return true
	}
	return false
}

// poll checks the stop flag, the clock and the node limit. When the
// threads fill every P it also yields the processor: the goroutine reading
// the GUI's "stop" would otherwise wait for the runtime's 10 ms preemption.
// With a P to spare it does not: there a yield finds the spare P idle and
// wakes an OS thread to look for work, a system call some 3,000 times a
// second that cost 4.5% of a one-thread search's time for nothing.
func (w *worker) poll() {
	if w.fillsProcs {
		runtime.Gosched()
	}
	w.nodesPublished.Store(w.nodes)
	s := w.s
	el := s.elapsed()
	if w.yieldHost(el) {
		// The event loop's turn is not the machine's lag.
		el = s.elapsed()
		w.lastPoll = el
	}
	if w.lastPoll > 0 {
		w.lag = max(w.lag-w.lag/16, el-w.lastPoll)
	}
	w.lastPoll = el
	if w.completed == 0 && w.id == 0 {
		return // always finish depth 1: there must be a move to play
	}
	if s.stop.Load() {
		w.abort = true
		return
	}
	// Any thread stops the search when its next poll could come after the
	// hard limit: on a loaded machine the main thread may be the one the
	// system leaves waiting.
	if hard := s.hardNs.Load(); hard > 0 && int64(el+2*w.lag) >= hard {
		s.stop.Store(true)
		w.abort = w.id != 0 || w.completed > 0
		return
	}
	if w.id != 0 {
		return
	}
	if p := s.opt.Progress; p > 0 && el-w.lastReport >= p && w.root[0].pv != nil {
		s.report(w, w.depth)
	}
	if lim := atomic.LoadInt64(&s.nodeLimit); lim > 0 && s.nodes() >= lim {
		w.abort = true
	}
}

// countNode counts a node and polls now and then. With one thread and a
// node limit, the limit is checked at every node so the search is
// reproducible to the node.
func (w *worker) countNode() {
	w.nodes++
	if w.nodes&pollMask == 0 {
		w.poll()
	} else if lim := atomic.LoadInt64(&w.s.nodeLimit); lim > 0 && len(w.s.workers) == 1 && w.nodes >= lim && w.completed > 0 {
		w.abort = true
	}
}

// searchRoot runs one iteration: each multi-PV line with an aspiration
// window around its last score.
func (w *worker) searchRoot(depth int) {
	lines := min(w.s.opt.MultiPV, len(w.root))
	for line := range lines {
		alpha, beta := -infinity, infinity
		delta := 25
		prev := w.root[line].score
		if w.feat.Aspiration && depth >= 5 && abs(prev) < tt.MateBound {
			alpha, beta = prev-delta, prev+delta
		}
		for {
			score := w.rootSearch(depth, line, alpha, beta)
			if w.abort {
				return
			}
			switch {
			case score <= alpha:
				alpha = max(score-delta, -infinity)
			case score >= beta:
				beta = min(score+delta, infinity)
			default:
				alpha = -infinity - 1 // done
			}
			if alpha == -infinity-1 {
				break
			}
			delta *= 3
		}
		// Best first; moves that failed low keep their previous order.
		slices.SortStableFunc(w.root[line:], bestFirst)
		// A line can score above one chosen before it: the search that
		// chose the earlier line saw this move through a null window and
		// the table, and a search is not exactly stable. The lines found so
		// far are sorted again (as Stockfish does), so that the lines a GUI
		// shows are best first and the move played is the best scored.
		slices.SortStableFunc(w.root[:line+1], bestFirst)
	}
}

// bestFirst orders root moves by score, highest first.
func bestFirst(a, b rootMove) int { return b.score - a.score }

// rootSearch searches the root moves from index first on (the earlier
// ones are lines already chosen) and returns the best score.
func (w *worker) rootSearch(depth, first int, alpha, beta int) int {
	f := &w.stack[0]
	best := -infinity
	busy := w.s.busy
	canDefer := busy != nil && depth > deferDepth
	nDeferred := 0
	for pass := 0; pass < 2; pass++ {
		n := len(w.root) - first
		if pass == 1 {
			n = nDeferred
		}
		for j := range n {
			i := first + j
			if pass == 1 {
				i = int(f.deferred[j])
			}
			rm := &w.root[i]
			w.makeMove(0, rm.move, depth > 1)
			var childHash uint64
			if canDefer {
				var deferred bool
				if childHash, deferred = w.claimChild(0, i, pass == 0 && i > first, &nDeferred); deferred {
					continue
				}
			}
			var score int
			if i == first {
				score = -w.alphaBeta(1, depth-1, -beta, -alpha)
			} else {
				score = -w.alphaBeta(1, depth-1, -alpha-1, -alpha)
				if score > alpha && score < beta && !w.abort {
					score = -w.alphaBeta(1, depth-1, -beta, -alpha)
				}
			}
			if canDefer {
				busy.clear(childHash)
			}
			w.unmakeMove()
			if w.abort {
				return best
			}
			if score > alpha || i == first {
				rm.score = score
				child := &w.stack[1]
				rm.pv = append(append(rm.pv[:0], rm.move), child.pv[:child.pvLen]...)
			} else {
				rm.score = -infinity
			}
			if score > best {
				best = score
				if score > alpha {
					alpha = score
					if i > first && first == 0 {
						cp := *rm
						cp.pv = slices.Clone(rm.pv)
						w.partial = &cp
					}
					if score >= beta {
						goto done
					}
				}
			}
		}
	}
done:
	if first == 0 && best > -infinity {
		w.table.Store(tableKey(f, MaxPly), tt.MoveKey(w.bestRoot(first)), tt.ToTT(best, 0), depth, tt.Exact)
	}
	return best
}

// bestRoot returns the highest-scored root move from first on.
func (w *worker) bestRoot(first int) movegen.Move {
	best := first
	for i := first + 1; i < len(w.root); i++ {
		if w.root[i].score > w.root[best].score {
			best = i
		}
	}
	return w.root[best].move
}

// rootLines returns the lines of the last iteration, best first.
func (w *worker) rootLines() []rootMove {
	return w.root[:min(w.s.opt.MultiPV, len(w.root))]
}

// result builds the search result from the main thread.
func (w *worker) result(legal []movegen.Move) Result {
	best := w.root[0]
	if w.partial != nil && w.partial.score > best.score {
		best = *w.partial
	}
	if best.move == movegen.NoMove {
		best.move = legal[0]
	}
	r := Result{Move: best.move, Score: best.score, Depth: w.completed, PV: best.pv}
	if len(best.pv) > 1 {
		r.Ponder = best.pv[1]
	}
	return r
}

// makeMove plays m from ply into ply+1: position, draw counters, history.
// probed says the child will look itself up in the table (a search with
// depth left; quiescence does not): its bucket is then fetched at once.
func (w *worker) makeMove(ply int, m movegen.Move, probed bool) {
	cur, next := &w.stack[ply], &w.stack[ply+1]
	cur.pos.PlayInto(m, &next.pos)
	if probed {
		w.table.Prefetch(next.pos.Hash)
	}
	e := game.EventOf(&cur.pos, m)
	var drawnBy int
	next.rules = cur.rules
	next.counters, drawnBy = cur.rules.Advance(cur.counters, e, &next.pos)
	next.drawn = drawnBy >= 0
	next.left = cur.rules.PliesLeft(next.counters)
	next.pvLen = 0
	next.prev = m
	w.hist.Push(next.pos.Hash, e&(game.Capture|game.ManMove) != 0)
}

func (w *worker) unmakeMove() { w.hist.Pop() }

// meanDepth is the average depth of the leaves (quiescence entries).
func (w *worker) meanDepth() float64 {
	if w.leaves == 0 {
		return 0
	}
	return float64(w.leafPlies) / float64(w.leaves)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
