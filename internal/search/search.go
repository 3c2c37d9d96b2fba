package search

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/riodraughts/rio/internal/egdb"
	"github.com/riodraughts/rio/internal/eval"
	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/tt"
	"github.com/rs/zerolog"
	"golang.org/x/sync/errgroup"
)

// MaxPly bounds the search depth from the root.
const MaxPly = 120

// Options configure one search.
type Options struct {
	Threads int
	// MultiPV is the number of best lines to search and report (1 by
	// default).
	MultiPV int
	// Analysis: search even a single legal move, and never stop early
	// because the best move stands out.
	Analysis bool
	// Progress, when set, is how often onInfo hears of a long iteration
	// still running (the best line so far, at the depth being searched).
	Progress time.Duration
	// Level, 1 to MaxLevel, plays weaker on purpose (level.go): a depth and
	// node cap, and a move drawn among the nearly best. 0 is full strength.
	Level int
	// Seed draws a level's choices; 0 takes a fresh random seed each time.
	Seed uint64
}

// Info reports one line of a completed iteration, or progress during a
// long one.
type Info struct {
	// TBHits counts the main thread's endgame-table probes that scored a node.
	TBHits    int64
	Depth     int
	SelDepth  int
	MeanDepth float64
	// Line is the 1-based multi-PV line this info is about.
	Line     int
	Score    int
	Nodes    int64
	Time     time.Duration
	PV       []movegen.Move
	Hashfull int
}

// NPS returns the speed in nodes per second.
func (i Info) NPS() float64 {
	if i.Time <= 0 {
		return 0
	}
	return float64(i.Nodes) / i.Time.Seconds()
}

// Result is what a finished search returns. Move is NoMove only when the
// side to move has no legal move.
type Result struct {
	Move, Ponder movegen.Move
	Score        int
	Depth        int
	Nodes        int64
	Time         time.Duration
	PV           []movegen.Move
}

// Features switch parts of the search on or off, so that self-play can
// measure what each is worth. Default has everything that proved itself.
type Features struct {
	LMR          bool
	SingleReply  bool
	ThreatSearch bool
	Aspiration   bool
	// LogLMR reduces more the later the move and the deeper the node
	// (log(depth)*log(index)), instead of LMR's one or two plies.
	LogLMR bool
	// Futility: at shallow non-PV nodes without captures or threats, a
	// static score far above beta is returned without searching.
	Futility bool
	// Defer: with several threads, a move another thread is searching is
	// searched last (busy.go).
	Defer bool
	// PlayOn: a node where a move-count rule draws is ranked by a short
	// search past the rule (playon.go), for hosts that play on.
	PlayOn bool
	// AdaptiveTime: on a clock, the soft limit grows while the best move
	// keeps changing between iterations or the score falls, up to 2.5
	// times (timeman.go). On: a match at a real clock showed a gain.
	AdaptiveTime bool
	// ProbCut: at a non-PV node of depth 5 or more, the first moves
	// searched 4 plies shallower with a window probCutMargin above beta;
	// one that reaches it cuts the node (pruning.go). Off until measured.
	ProbCut bool
	// LMP (late-move pruning): at non-PV nodes of depth 3 or less, with
	// no capture threatened, quiet moves after the first few are not
	// searched unless they offer a capture (a sacrifice starts every
	// shot) (pruning.go). Off until measured.
	LMP bool
	// OfferFull: a move that offers a capture (a man given up, or a
	// capture set up) is searched without late-move reduction, so that
	// shots are seen as early as they are quiet. Off until measured.
	OfferFull bool
	// HistoryMalus: when a quiet move cuts off, the quiet moves searched
	// before it lose history as much as it gains (order.go), so moves
	// that keep failing sort later. Off: -4.3 [-19.5, +10.8] over 400
	// games at 3+0.03.
	HistoryMalus bool
	// HistoryLMR adjusts late-move reductions by history: a quiet move
	// that never cut off in this search is reduced a ply more at depth 5
	// or more, one whose history is at least half the best of its node's
	// quiet moves a ply less (alphabeta.go). Off until measured.
	HistoryLMR bool
	// ShallowCut (Scan's pruning): at a non-PV node of depth 3 or more,
	// the node is searched to 40% of its depth with a null window 0.1
	// men a ply above beta, without this pruning inside; reaching it
	// cuts the node (pruning.go). On: a gain at 3+0.03 and at 10+0.1.
	ShallowCut bool
	// WideLMR (Scan's reductions): quiet moves other than the killers
	// are reduced from depth 2 and from the second move (the fourth at
	// PV nodes), by two plies from the fifth move at non-PV nodes,
	// instead of LMR's depth 3, fourth move. Off: waits for 10+0.1.
	WideLMR bool
	// CounterMove: the quiet move that last cut off in reply to the
	// opponent's previous move is tried after the killers and before the
	// other quiet moves (order.go); reductions treat it as any quiet
	// move (spared like a killer, it missed the russian shot of
	// TestCandidatePrunings at depth 8). Off: +5.2 [-6.3, +16.8] over
	// 400 games at 3+0.03 on top of ShallowCut.
	CounterMove bool
	// ShallowNest lets ShallowCut prune inside its own shallow searches
	// too (at their nodes of depth 3 or more), as a search that calls
	// itself would: the shallow searches of deep nodes get cheaper. Off:
	// +4.3 [-6.6, +15.2] over 400 games at 3+0.03.
	ShallowNest bool
	// Singular (Scan's extension): at a PV node of depth 8 or more, the
	// table's move is searched a ply deeper when every other move,
	// searched 4 plies shallower, stays 0.4 men below the table's score
	// for it (pruning.go). Off: +6.9 [-4.8, +18.7] over 400 games at
	// 3+0.03 on top of ShallowCut.
	Singular bool
	// IIR (internal iterative reduction): a node of depth 4 or more that
	// the table has no move for is searched a ply shallower: a position
	// no earlier iteration found worth storing is rarely a good one, and
	// its next visit finds a move to try first (alphabeta.go). Off:
	// -20.6 [-38.9, -2.4] over 203 games at 3+0.03 (SPRT H0).
	IIR bool
	// ShallowLow (ShallowCut's fail-low twin): at a non-PV node of depth
	// 4 or more that ShallowCut did not cut, every move searched to 40%
	// of the depth with a null window 0.2 men a ply below alpha; when all
	// stay under it, the node fails low with their best plus the margin
	// (pruning.go). Off: +1.7 [-9.3, +12.8] over 400 games at 3+0.03.
	ShallowLow bool
	// QuiesceTables: quiescence probes the endgame tables too, so that a
	// leaf with no more pieces than the tables hold is scored by its table
	// value rather than by the evaluation or a capture sequence
	// (alphabeta.go; the main search always probes them). Off: +2.6
	// [-7.5, +12.7] over 400 russian games from 8-piece endings at 30,000
	// nodes a move, no gain shown.
	QuiesceTables bool
	// ETC (enhanced transposition cutoff, Chinook's and Kingsrow's): at a
	// non-PV node of depth etcDepth or more, before any move is searched,
	// the table is asked about each child; one already proved to hold the
	// opponent below -beta at the child's depth cuts the node at once
	// (pruning.go). Draughts transposes often (men's moves commute), so
	// the cut a sibling subtree found is often there. Off: 19% fewer
	// nodes to the bench's depth, -1.7 [-13.5, +10.1] over 400 games at
	// 3+0.03.
	ETC bool
}

// DefaultFeatures are the search parts in use: those self-play showed to
// gain, or (aspiration) to cost nothing (README, "Search"). The other
// features did not show a gain and stay off until a match shows one;
// Futility gained +12.2 [+2.1, +22.2] over 800 games at 3+0.03 and waits
// for the longer control (10+0.1) before it is switched on, as does
// WideLMR (+17.4 [+2.8, +32.0] over 400 at 3+0.03). Defer only changes
// how threads share the work: it is judged by time to depth (README,
// "Numbers"). AdaptiveTime gained +20.9 [+9.5, +32.3] over 800 russian
// games at 3+0.03, ShallowCut +35.9 [+15.9, +56.2] at 3+0.03 and +44.2
// [+21.5, +67.4] at 10+0.1 (SPRT H1 at both).
var DefaultFeatures = Features{LMR: true, SingleReply: true, Aspiration: true, Defer: true, PlayOn: true, AdaptiveTime: true, ShallowCut: true}

// Engine holds what outlives one search: the transposition table.
type Engine struct {
	TT       *tt.Table
	Log      zerolog.Logger
	Features Features
	// Eval scores positions: eval.Learned (the built-in learned weights)
	// unless the host chooses another (eval.Select).
	Eval func(v *movegen.Variant, p *movegen.Position) int
	// Tables are the endgame databases probed in the tree (nil: none).
	// A search uses them only if they are ready when it starts.
	Tables *egdb.Tables
}

// NewEngine returns an engine with a table of hashMiB mebibytes.
func NewEngine(hashMiB int, log zerolog.Logger) *Engine {
	return &Engine{TT: tt.New(hashMiB), Log: log, Features: DefaultFeatures, Eval: eval.Learned}
}

// Search is one running search.
type Search struct {
	e      *Engine
	v      *movegen.Variant
	game   *game.Game
	opt    Options
	onInfo func(Info)
	start  time.Time

	stop atomic.Bool
	// softNs and hardNs are the time limits in nanoseconds from start
	// (0: none); PonderHit changes them while the search runs.
	softNs, hardNs atomic.Int64
	// clockFrom is when (from start) the clock began to run: 0, or the
	// ponder-hit. The stop-early rules count from there.
	clockFrom  atomic.Int64
	nodeLimit  int64
	depthLimit int

	workers []*worker
	// busy marks positions under search by some thread (nil with one).
	busy   *busyTable
	done   chan struct{}
	result Result
	// latest is the main thread's best move of its last completed
	// iteration, for a host that must answer before the threads have all
	// stopped (Latest).
	latest atomic.Pointer[Result]
	once   sync.Once
}

// Start begins searching the current position of g (which must not change
// until Wait returns) and returns at once. onInfo, if set, is called from
// the search's main goroutine.
func (e *Engine) Start(ctx context.Context, g *game.Game, lim Limits, opt Options, onInfo func(Info)) *Search {
	s := &Search{
		e: e, v: g.Variant, game: g, opt: opt, onInfo: onInfo,
		start: time.Now(), done: make(chan struct{}),
		nodeLimit: lim.Nodes, depthLimit: lim.Depth,
	}
	s.opt.Threads = max(s.opt.Threads, 1)
	s.opt.MultiPV = max(s.opt.MultiPV, 1)
	if s.depthLimit <= 0 || s.depthLimit > MaxPly-10 {
		s.depthLimit = MaxPly - 10
	}
	s.opt.Level = min(max(s.opt.Level, 0), MaxLevel)
	if s.opt.Level > 0 {
		s.applyLevel()
	}
	// Budgets count from the host's start of the move when it says so.
	var offset time.Duration
	if !lim.From.IsZero() && lim.From.Before(s.start) {
		offset = -s.start.Sub(lim.From)
	}
	s.setLimits(lim, offset)
	e.TT.NewSearch()
	if s.opt.Threads > 1 && e.Features.Defer {
		s.busy = newBusyTable()
	}
	for i := range s.opt.Threads {
		s.workers = append(s.workers, newWorker(s, i))
	}
	go s.run(ctx)
	return s
}

// setLimits sets the time limits, counted from offset after the start
// (before it when negative; a limit already past is a millisecond).
func (s *Search) setLimits(lim Limits, offset time.Duration) {
	soft, hard := lim.budget()
	if soft > 0 {
		soft = max(soft+offset, time.Millisecond)
	}
	if hard > 0 {
		hard = max(hard+offset, time.Millisecond)
	}
	s.softNs.Store(int64(soft))
	s.hardNs.Store(int64(hard))
	s.clockFrom.Store(int64(offset))
}

// PonderHit switches a ponder search (started with Infinite) to lim,
// counting time from now.
func (s *Search) PonderHit(lim Limits) {
	lim.Infinite = false
	s.setLimits(lim, time.Since(s.start))
	if lim.Nodes > 0 {
		atomic.StoreInt64(&s.nodeLimit, lim.Nodes)
	}
}

// publish makes the main thread's last completed iteration what Latest
// returns.
func (s *Search) publish(w *worker) {
	best := w.root[0]
	r := &Result{Move: best.move, Score: best.score, Depth: w.completed, PV: slices.Clone(best.pv),
		Nodes: s.nodesSeenBy(w), Time: s.elapsed()}
	if len(best.pv) > 1 {
		r.Ponder = best.pv[1]
	}
	s.latest.Store(r)
}

// Latest returns the best move of the last iteration the main thread
// completed, while the search runs: what a host whose deadline has come
// plays when the threads have not all stopped yet (a loaded machine may
// leave one waiting). ok is false before the first iteration completes.
// Levels' choices are made only at the end (Wait).
func (s *Search) Latest() (Result, bool) {
	r := s.latest.Load()
	if r == nil {
		return Result{}, false
	}
	return *r, true
}

// Deadline returns when the search's hard time limit falls (false when
// it has none: an infinite, depth or node search, or a ponder search
// before its hit).
func (s *Search) Deadline() (time.Time, bool) {
	hard := s.hardNs.Load()
	if hard <= 0 {
		return time.Time{}, false
	}
	return s.start.Add(time.Duration(hard)), true
}

// Stop asks the search to finish as soon as possible.
func (s *Search) Stop() { s.stop.Store(true) }

// Done is closed when the search has finished.
func (s *Search) Done() <-chan struct{} { return s.done }

// Wait waits for the search to finish and returns its result.
func (s *Search) Wait() Result {
	<-s.done
	return s.result
}

// Run searches and waits: Start then Wait.
func (e *Engine) Run(ctx context.Context, g *game.Game, lim Limits, opt Options, onInfo func(Info)) Result {
	return e.Start(ctx, g, lim, opt, onInfo).Wait()
}

func (s *Search) run(ctx context.Context) {
	defer close(s.done)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() { // a cancelled context stops the search
		<-ctx.Done()
		s.stop.Store(true)
	}()

	root := s.game.Position()
	var buf [movegen.MaxMoves]movegen.Move
	legal := s.v.Generate(&root, buf[:0])
	switch {
	case len(legal) == 0:
		s.result = Result{Score: -tt.Win, Time: time.Since(s.start)}
		return
	case len(legal) == 1 && !s.opt.Analysis:
		// Nothing to choose; a short search still finds a ponder move.
		s.depthLimit = min(s.depthLimit, 4)
	}

	g, _ := errgroup.WithContext(ctx)
	g.SetLimit(len(s.workers))
	for _, w := range s.workers {
		g.Go(func() error {
			w.iterate()
			if w.id == 0 {
				s.stop.Store(true) // the main thread decides when all stop
			}
			return nil
		})
	}
	g.Wait()
	// The deepest completed iteration wins; the main thread on a tie.
	best := s.workers[0]
	for _, w := range s.workers[1:] {
		if w.completed > best.completed && len(w.root) > 0 {
			best = w
		}
	}
	s.result = best.result(legal)
	if s.opt.Level > 0 {
		if l, ok := s.chooseLevel(best.levelLines, root.Hash); ok {
			s.result.Move, s.result.Score, s.result.PV = l.move, l.score, l.pv
			s.result.Ponder = movegen.NoMove
			if len(l.pv) > 1 {
				s.result.Ponder = l.pv[1]
			}
		}
	}
	s.result.Nodes = s.nodes()
	s.result.Time = time.Since(s.start)
}

// nodes returns the nodes searched by all threads so far, as published
// at their last poll.
func (s *Search) nodes() int64 {
	var n int64
	for _, w := range s.workers {
		n += w.nodesPublished.Load()
	}
	return n
}

// nodesSeenBy is nodes with the exact count of the calling thread w.
func (s *Search) nodesSeenBy(w *worker) int64 {
	return s.nodes() - w.nodesPublished.Load() + w.nodes
}

// elapsed returns the time since the search started.
func (s *Search) elapsed() time.Duration { return time.Since(s.start) }

// report sends an info for each line of the main thread's last iteration
// (or, during one, the best lines so far at the depth being searched).
func (s *Search) report(w *worker, depth int) {
	w.lastReport = s.elapsed()
	if s.onInfo == nil {
		return
	}
	el := s.elapsed()
	for i, rm := range w.rootLines() {
		s.onInfo(Info{
			Depth: depth, SelDepth: w.selDepth, MeanDepth: w.meanDepth(),
			Line: i + 1, Score: rm.score, Nodes: s.nodesSeenBy(w), Time: el,
			PV: slices.Clone(rm.pv), Hashfull: s.e.TT.Hashfull(), TBHits: w.tbHits,
		})
	}
}
