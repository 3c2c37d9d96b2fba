package annotate

import (
	"context"
	"errors"

	"github.com/riodraughts/rio/internal/egdb"
	"github.com/riodraughts/rio/internal/eval"
	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/search"
	"github.com/riodraughts/rio/internal/tt"
	"github.com/rs/zerolog"
)

// Options configure an analysis.
type Options struct {
	// Limits bound each search (one per position).
	Limits search.Limits
	// Threads is how many threads the analysis uses in all: games are
	// analysed Threads at a time (see the package doc for the searches).
	Threads int
	// HashMiB is the size of each game's transposition table: Threads
	// tables are in use at once.
	HashMiB int
	// Eval returns the evaluation for a variant's games (nil, or a nil
	// result: the engine's default).
	Eval func(v *movegen.Variant) eval.Func
	// Tables are the endgame tables, ready for the games' variants (nil:
	// none; tables not ready are not used).
	Tables     *egdb.Tables
	Thresholds Thresholds
	// Progress, when set, hears of every position valued and every game
	// done (from one goroutine at a time).
	Progress func(Progress)
	Log      zerolog.Logger
}

// DefaultPVPlies is the length of a variation: the best move and five
// plies of its line (also how far a best line is followed in the endgame
// tables).
const DefaultPVPlies = 6

// Progress is how far an analysis has got.
type Progress struct {
	Games, Positions int
}

// Source says where a position's value comes from.
type Source uint8

const (
	Searched  Source = iota
	FromTable        // the endgame tables
	Forced           // one legal move: the value of the position after it
	GameOver         // no legal move, or a draw by the rules
)

// Eval is what the analysis knows of one position, from its side to move.
type Eval struct {
	// Score is in hundredths of a man; a win in n plies is tt.Win-n, a
	// loss in n plies -(tt.Win-n).
	Score int
	// Depth is the depth of the search that gave Score (for a forced
	// position, of the one after it); 0 for the others.
	Depth  int
	Source Source
	Table  egdb.Value // with FromTable
	Over   string     // with GameOver: why
	// Best is the best move and PV its line (Best first); NoMove and nil
	// when the game is over.
	Best movegen.Move
	PV   []movegen.Move
}

// Move is one move of an annotated game.
type Move struct {
	Ply    int // from 1
	Side   movegen.Color
	Move   movegen.Move
	Before Eval // the position the move was played in
	After  Eval // the position it led to
	// Played is the score of the move (After seen from the mover), Loss
	// its loss against Before's best move (see judge), both in
	// hundredths of a man.
	Played, Loss int
	NAG          NAG
}

// Forced reports a move that was the only legal one: it is not judged.
func (m *Move) Forced() bool { return m.Before.Source == Forced }

// Side is one player's summary.
type Side struct {
	// Moves counts the moves judged (those with a choice), Loss their
	// summed loss in hundredths of a man.
	Moves, Loss int
	NAGs        [4]int // by NAG; NAGs[NoNAG] unused
}

// AverageLoss returns the loss per judged move in men (0 without any).
func (s *Side) AverageLoss() float64 {
	if s.Moves == 0 {
		return 0
	}
	return float64(s.Loss) / float64(s.Moves) / 100
}

// Game is one game of the file and its analysis.
type Game struct {
	PDN game.PDNGame
	// Moves are the moves analysed: all of the game's, or those before
	// the move that could not be played.
	Moves []Move
	// Sides are White's and Black's summaries.
	Sides [2]Side
	// Err is why the game is not (entirely) annotated: PDN.Err, or a
	// truncated text.
	Err error
}

// Analysable reports whether the game has moves to annotate (it was
// replayed, at least up to a bad move).
func Analysable(pg *game.PDNGame) bool {
	var me *game.MoveError
	return pg.Game != nil && (pg.Err == nil || errors.As(pg.Err, &me))
}

// ErrTruncated marks a game whose text ends inside a comment or a
// variation.
var ErrTruncated = errors.New("the text ends inside a comment or a variation (the file was cut short?)")

// analyser values the positions of games, one at a time.
type analyser struct {
	opt     Options
	threads int // per search
	engine  *search.Engine
	buf     [movegen.MaxMoves]movegen.Move
}

func newAnalyser(opt Options, threads int) *analyser {
	return &analyser{opt: opt, threads: threads, engine: search.NewEngine(opt.HashMiB, opt.Log)}
}

// game analyses one game; step is called after each position. It returns
// nil when ctx is cancelled.
func (a *analyser) game(ctx context.Context, pg game.PDNGame, step func()) *Game {
	out := &Game{PDN: pg, Err: pg.Err}
	if pg.Err == nil && pg.Truncated {
		out.Err = ErrTruncated
	}
	if !Analysable(&pg) {
		return out
	}
	src := pg.Game
	v := src.Variant
	a.engine.TT.Clear()
	a.engine.Eval = eval.Learned
	if a.opt.Eval != nil {
		if fn := a.opt.Eval(v); fn != nil {
			a.engine.Eval = fn
		}
	}
	a.engine.Tables = a.opt.Tables

	g := game.New(v, src.Start())
	n := src.Ply()
	evals := make([]Eval, n+1)
	for i := 0; i <= n; i++ {
		if ctx.Err() != nil {
			return nil
		}
		evals[i] = a.position(ctx, g, i == n)
		if step != nil {
			step()
		}
		if i < n {
			g.Play(src.Moves()[i])
		}
	}
	if ctx.Err() != nil {
		return nil
	}
	// A forced position is worth what its move leads to.
	for i := n - 1; i >= 0; i-- {
		if evals[i].Source == Forced {
			evals[i].Score = throughMove(evals[i+1].Score)
			evals[i].Depth = evals[i+1].Depth
			evals[i].PV = append([]movegen.Move{evals[i].Best}, evals[i+1].PV...)
		}
	}
	th := a.opt.Thresholds
	if th == (Thresholds{}) {
		th = DefaultThresholds
	}
	for i, m := range src.Moves() {
		mv := Move{Ply: i + 1, Side: src.PositionAt(i).Side, Move: m, Before: evals[i], After: evals[i+1]}
		mv.Played = throughMove(mv.After.Score)
		switch {
		case mv.Forced(), mv.Before.Source == GameOver:
		case m == mv.Before.Best:
			out.Sides[mv.Side].Moves++
		default:
			mv.Loss, mv.NAG = judge(mv.Before.Score, mv.Played, th)
			s := &out.Sides[mv.Side]
			s.Moves++
			s.Loss += mv.Loss
			s.NAGs[mv.NAG]++
		}
		out.Moves = append(out.Moves, mv)
	}
	return out
}

// position values the current position of g; last says it is the game's
// last, which is searched even with one legal move (nothing follows it).
func (a *analyser) position(ctx context.Context, g *game.Game, last bool) Eval {
	v := g.Variant
	p := g.Position()
	if o := g.Outcome(); o.Result != game.Ongoing {
		e := Eval{Source: GameOver, Over: o.Reason}
		if o.Result != game.Draw {
			e.Score = -tt.Win // the side to move has no move: lost
		}
		return e
	}
	legal := v.Generate(&p, a.buf[:0])
	if len(legal) == 1 && !last {
		return Eval{Source: Forced, Best: legal[0]}
	}
	if e, ok := a.fromTables(g, &p); ok {
		return e
	}
	res := a.engine.Run(ctx, g, a.opt.Limits, search.Options{Threads: a.threads, Analysis: true}, nil)
	return Eval{Score: res.Score, Depth: res.Depth, Source: Searched, Best: res.Move, PV: v.LegalPrefix(&p, res.PV)}
}
