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
	// Positions: the build stops when the book holds this many.
	Positions int
	// Limits are each move's search: Nodes makes the build reproducible.
	Limits search.Limits
	// Threads: searches run at once (the book does not depend on it).
	Threads int
	// Dropout is the priority a ply costs, Window how far below a
	// position's best a move may score and still be expanded (hundredths
	// of a man). Defaults 12 and 80.
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
// next ones: fixed, so that the book does not depend on Threads.
const batch = 8

// candidate is a position the book may search next.
type candidate struct {
	prio int
	pos  movegen.Position
	ply  int
}

type frontier []candidate

func (f frontier) Len() int { return len(f) }
func (f frontier) Less(i, j int) bool {
	if f[i].prio != f[j].prio {
		return f[i].prio < f[j].prio
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

// builder is one build's state: the positions searched (their records)
// and the frontier.
type builder struct {
	cfg     Config
	scores  map[uint64][]Record // the book so far, by position
	queued  map[uint64]queued   // the best priority (and ply) each candidate was queued with
	front   frontier
	records []Record
}

// Build grows the book cfg describes, resuming from cfg.Out when it
// exists, and returns it. ctx stops it (the book so far is written).
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
	b := &builder{cfg: cfg, scores: map[uint64][]Record{}, queued: map[uint64]queued{}}
	if cfg.Out != "" {
		old, err := Load(cfg.Out, v)
		switch {
		case err == nil:
			for _, r := range old.records {
				b.scores[r.Key] = append(b.scores[r.Key], r)
			}
			b.records = old.records
		case errors.Is(err, fs.ErrNotExist):
		default:
			return nil, fmt.Errorf("resuming: %w", err)
		}
	}
	b.replay()
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
		for b.front.Len() > 0 && len(next) < min(batch, cfg.Positions-len(b.scores)) {
			c := heap.Pop(&b.front).(candidate)
			if _, done := b.scores[c.pos.Hash]; done || b.queued[c.pos.Hash] != (queued{c.prio, c.ply}) {
				continue // searched since, or queued again with a better priority
			}
			next = append(next, c)
		}
		found := make([][]Record, len(next))
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
		for i := range next {
			jobs <- i
		}
		close(jobs)
		g.Wait()
		if ctx.Err() != nil {
			break // the batch may be cut short: none of it is kept
		}
		for i, c := range next {
			b.add(c.pos, c.ply, found[i])
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
	if cfg.Out != "" {
		if err := Save(cfg.Out, v, b.records); err != nil {
			return nil, err
		}
	}
	return New(v, b.records), ctx.Err()
}

// replay walks the book so far from the roots, in the order a build adds
// positions, and queues what it has not searched: the frontier of an
// interrupted build is the one it would have had.
func (b *builder) replay() {
	type node struct {
		pos movegen.Position
		ply int
	}
	var queue []node
	seen := map[uint64]bool{}
	for i, r := range b.cfg.Roots {
		if seen[r.Hash] {
			continue
		}
		seen[r.Hash] = true
		if _, done := b.scores[r.Hash]; done {
			queue = append(queue, node{r, 0})
		} else {
			b.enqueue(r, 0, -1<<30+i) // roots first, in the order given
		}
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, child := range b.children(n.pos, n.ply) {
			if seen[child.pos.Hash] {
				continue
			}
			seen[child.pos.Hash] = true
			if _, done := b.scores[child.pos.Hash]; done {
				queue = append(queue, node{child.pos, child.ply})
			}
		}
	}
}

// children are the positions a searched position leads to by moves worth
// expanding, with their priorities; unsearched ones are queued.
func (b *builder) children(p movegen.Position, ply int) []candidate {
	recs := b.scores[p.Hash]
	if len(recs) == 0 || ply+1 > b.cfg.Plies {
		return nil
	}
	best := recs[0].Score
	for _, r := range recs {
		best = max(best, r.Score)
	}
	var buf [movegen.MaxMoves]movegen.Move
	var out []candidate
	for _, m := range b.cfg.Variant.Generate(&p, buf[:0]) {
		k := slices.IndexFunc(recs, func(r Record) bool { return r.matches(m) })
		if k < 0 {
			continue
		}
		loss := int(best) - int(recs[k].Score)
		if loss > b.cfg.Window {
			continue
		}
		c := candidate{prio: (ply+1)*b.cfg.Dropout + loss, pos: p.Play(m), ply: ply + 1}
		var cb [movegen.MaxMoves]movegen.Move
		if len(b.cfg.Variant.Generate(&c.pos, cb[:0])) == 0 {
			continue // the game is over there
		}
		out = append(out, c)
		if _, done := b.scores[c.pos.Hash]; !done {
			b.enqueue(c.pos, c.ply, c.prio)
		}
	}
	return out
}

func (b *builder) enqueue(p movegen.Position, ply, prio int) {
	q := queued{prio, ply}
	if old, ok := b.queued[p.Hash]; ok && !q.better(old) {
		return
	}
	b.queued[p.Hash] = q
	heap.Push(&b.front, candidate{prio: prio, pos: p, ply: ply})
}

// add records a searched position and queues its children.
func (b *builder) add(p movegen.Position, ply int, recs []Record) {
	if len(recs) == 0 {
		return
	}
	b.scores[p.Hash] = recs
	b.records = append(b.records, recs...)
	b.children(p, ply)
}

// searchPosition scores every legal move of p by a search of the position
// it leads to, from an empty table.
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
			res := e.Run(ctx, game.New(v, child), b.cfg.Limits, search.Options{Threads: 1}, nil)
			score = -res.Score
		}
		out = append(out, Record{Key: p.Hash, From: m.From(), To: m.To(), Captured: m.Captured(), Score: int16(score)})
	}
	return out
}
