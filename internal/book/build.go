package book

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"github.com/riodraughts/rio/internal/eval"
	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/search"
	"github.com/riodraughts/rio/internal/tt"
	"github.com/rs/zerolog"
	"golang.org/x/sync/errgroup"
)

// Config says what book Build grows.
type Config struct {
	Variant *movegen.Variant
	// Roots are where the book starts: the start position, and for
	// russian and brazilian the three-move ballots (Roots of the caller's
	// choosing: internal/cli passes match.Ballots). Each root is searched
	// before anything else, so the book covers every one.
	Roots []movegen.Position
	// Plies bounds how deep a book position lies below its root.
	Plies int
	// Positions: the build stops when the book holds at least this many
	// (whole batches of 8).
	Positions int
	// Limits are each move's search: Nodes makes the build reproducible.
	Limits search.Limits
	// Threads: searches run at once (the book does not depend on it).
	Threads int
	// Dropout is the priority a ply costs, Window how much score a line
	// may lose (summed over its moves, from each position's best) and
	// still be expanded (hundredths of a man). Defaults 12 and 80.
	Dropout, Window int
	// HashMiB is each search's table, emptied before every search.
	HashMiB int
	Eval    eval.Func
	// Out is the book file: read when it exists (the build resumes from
	// it), written every Checkpoint positions (default 32) and at the end.
	Out        string
	Checkpoint int
	// Progress, when set, is told the positions held after each batch.
	Progress func(positions int)
	Log      zerolog.Logger
}

// batch is how many positions are searched between two choices of the
// next ones: fixed, so that the book does not depend on Threads. Positions
// are added in whole batches only, so that a build stopped at any size
// and resumed makes the same choices as one run.
const batch = 8

// candidate is a position the book may search next: its priority, the
// plies below its root, and the score lost along its line (the sum of
// each move's shortfall from its position's best).
type candidate struct {
	prio, ply, lost int
	pos             movegen.Position
}

type frontier []candidate

func (f frontier) Len() int { return len(f) }
func (f frontier) Less(i, j int) bool {
	if f[i].prio != f[j].prio {
		return f[i].prio < f[j].prio
	}
	if f[i].ply != f[j].ply {
		return f[i].ply < f[j].ply
	}
	return f[i].pos.Hash < f[j].pos.Hash
}
func (f frontier) Swap(i, j int) { f[i], f[j] = f[j], f[i] }
func (f *frontier) Push(x any)   { *f = append(*f, x.(candidate)) }
func (f *frontier) Pop() any {
	old := *f
	c := old[len(old)-1]
	*f = old[:len(old)-1]
	return c
}

// queued is a candidate's best priority; on a tie the lower ply wins, so
// that the frontier does not depend on the order positions were found.
type queued struct{ prio, ply int }

func (q queued) better(o queued) bool { return q.prio < o.prio || q.prio == o.prio && q.ply < o.ply }

// builder is one build's state: the positions searched (their records),
// the frontier, and the records of the file resumed (searches already
// made, taken instead of searching again).
type builder struct {
	cfg     Config
	scores  map[uint64][]Record // the book so far, by position
	queued  map[uint64]queued   // the best priority (and ply) each candidate was queued with
	front   frontier
	records []Record
	stored  map[uint64][]Record
}

// Build grows the book cfg describes and returns it. When cfg.Out exists
// the build resumes it: the build starts over from the roots, taking the
// file's records for the positions it holds instead of searching them, so
// it makes the same choices as an uninterrupted build and searches on
// where the file ends. ctx stops it (the book so far is written).
func Build(ctx context.Context, cfg Config) (*Book, error) {
	v := cfg.Variant
	if v == nil || len(cfg.Roots) == 0 {
		return nil, errors.New("book: no variant or no root position")
	}
	if cfg.Dropout <= 0 {
		cfg.Dropout = 12
	}
	if cfg.Window <= 0 {
		cfg.Window = 80
	}
	if cfg.HashMiB <= 0 {
		cfg.HashMiB = 16
	}
	if cfg.Checkpoint <= 0 {
		cfg.Checkpoint = 32
	}
	cfg.Threads = max(cfg.Threads, 1)
	b := &builder{cfg: cfg, scores: map[uint64][]Record{}, queued: map[uint64]queued{}, stored: map[uint64][]Record{}}
	if cfg.Out != "" {
		old, err := Load(cfg.Out, v)
		switch {
		case err == nil:
			for _, r := range old.records {
				b.stored[r.Key] = append(b.stored[r.Key], r)
			}
		case errors.Is(err, fs.ErrNotExist):
		default:
			return nil, fmt.Errorf("resuming: %w", err)
		}
	}
	for i, r := range cfg.Roots {
		b.enqueue(candidate{prio: -1<<30 + i, pos: r}) // roots first, in the order given
	}
	engines := make([]*search.Engine, cfg.Threads)
	for i := range engines {
		engines[i] = search.NewEngine(cfg.HashMiB, zerolog.Nop())
		if cfg.Eval != nil {
			engines[i].Eval = cfg.Eval
		}
	}
	sinceSave := 0
	for len(b.scores) < cfg.Positions && b.front.Len() > 0 && ctx.Err() == nil {
		var next []candidate
		for b.front.Len() > 0 && len(next) < batch {
			c := heap.Pop(&b.front).(candidate)
			if _, done := b.scores[c.pos.Hash]; done || b.queued[c.pos.Hash] != (queued{c.prio, c.ply}) {
				continue // searched since, or queued again with a better priority
			}
			next = append(next, c)
		}
		found := make([][]Record, len(next))
		var todo []int
		for i, c := range next {
			if recs, ok := b.stored[c.pos.Hash]; ok {
				found[i] = recs
			} else {
				todo = append(todo, i)
			}
		}
		g, gctx := errgroup.WithContext(ctx)
		jobs := make(chan int)
		for _, e := range engines {
			g.Go(func() error {
				for i := range jobs {
					found[i] = b.searchPosition(gctx, e, next[i].pos)
				}
				return nil
			})
		}
		for _, i := range todo {
			jobs <- i
		}
		close(jobs)
		g.Wait()
		if ctx.Err() != nil {
			break // the batch may be cut short: none of it is kept
		}
		for i, c := range next {
			b.add(c, found[i])
		}
		if len(todo) == 0 {
			continue // taken from the file: nothing new to write
		}
		sinceSave += len(next)
		if cfg.Progress != nil {
			cfg.Progress(len(b.scores))
		}
		if cfg.Out != "" && sinceSave >= cfg.Checkpoint {
			if err := Save(cfg.Out, v, b.records); err != nil {
				return nil, err
			}
			sinceSave = 0
		}
	}
	if cfg.Out != "" && sinceSave > 0 {
		if err := Save(cfg.Out, v, b.records); err != nil {
			return nil, err
		}
	}
	return New(v, b.records), ctx.Err()
}

func (b *builder) enqueue(c candidate) {
	q := queued{c.prio, c.ply}
	if old, ok := b.queued[c.pos.Hash]; ok && !q.better(old) {
		return
	}
	b.queued[c.pos.Hash] = q
	heap.Push(&b.front, c)
}

// add records a searched position and queues the positions its moves
// lead to: those within Plies below the root and whose line has lost at
// most Window from the best, each with the priority ply*Dropout + the
// score lost along its line.
func (b *builder) add(c candidate, recs []Record) {
	if len(recs) == 0 {
		return
	}
	p := c.pos
	b.scores[p.Hash] = recs
	b.records = append(b.records, recs...)
	if c.ply+1 > b.cfg.Plies {
		return
	}
	best := recs[0].Score
	for _, r := range recs {
		best = max(best, r.Score)
	}
	var buf [movegen.MaxMoves]movegen.Move
	for _, m := range b.cfg.Variant.Generate(&p, buf[:0]) {
		k := slices.IndexFunc(recs, func(r Record) bool { return r.matches(m) })
		if k < 0 {
			continue
		}
		lost := c.lost + int(best) - int(recs[k].Score)
		if lost > b.cfg.Window {
			continue
		}
		child := candidate{prio: (c.ply+1)*b.cfg.Dropout + lost, ply: c.ply + 1, lost: lost, pos: p.Play(m)}
		if _, done := b.scores[child.pos.Hash]; done {
			continue
		}
		var cb [movegen.MaxMoves]movegen.Move
		if len(b.cfg.Variant.Generate(&child.pos, cb[:0])) == 0 {
			continue // the game is over there
		}
		b.enqueue(child)
	}
}

// searchPosition scores every legal move of p by a search of the position
// it leads to, from an empty table. The searches run as analysis: a
// forced reply (an exchange) is searched as deep as any other move.
func (b *builder) searchPosition(ctx context.Context, e *search.Engine, p movegen.Position) []Record {
	v := b.cfg.Variant
	var buf [movegen.MaxMoves]movegen.Move
	var out []Record
	for _, m := range v.Generate(&p, buf[:0]) {
		if ctx.Err() != nil {
			return nil
		}
		child := p.Play(m)
		var cb [movegen.MaxMoves]movegen.Move
		var score int
		if len(v.Generate(&child, cb[:0])) == 0 {
			score = tt.Win - 1 // the opponent cannot move: a win in one ply
		} else {
			e.TT.Clear()
			res := e.Run(ctx, game.New(v, child), b.cfg.Limits, search.Options{Threads: 1, Analysis: true}, nil)
			score = -res.Score
		}
		out = append(out, Record{Key: p.Hash, From: m.From(), To: m.To(), Captured: m.Captured(), Score: int16(score)})
	}
	return out
}
