package movegen

import (
	"context"
	"fmt"

	"golang.org/x/sync/errgroup"
)

// MaxPerftDepth bounds the depth Perft accepts.
const MaxPerftDepth = 64

// perfter holds one goroutine's move buffers and positions, one per ply,
// so the count allocates nothing per node.
type perfter struct {
	v     *Variant
	moves [MaxPerftDepth][MaxMoves + 5]Move
	pos   [MaxPerftDepth + 1]Position
}

// count returns the number of legal move sequences of length depth from p.
// At the last ply it counts the moves instead of playing them (bulk
// counting).
func (pf *perfter) count(p *Position, depth, ply int) uint64 {
	if depth <= 1 {
		if depth <= 0 {
			return 1
		}
		return uint64(pf.v.CountMoves(p, pf.moves[ply][:0]))
	}
	var n uint64
	child := &pf.pos[ply+1]
	if depth == 2 {
		// The common case, without a call per child.
		scratch := pf.moves[ply+1][:0]
		for _, m := range pf.v.Generate(p, pf.moves[ply][:0]) {
			p.PlayInto(m, child)
			n += uint64(pf.v.CountMoves(child, scratch))
		}
		return n
	}
	for _, m := range pf.v.Generate(p, pf.moves[ply][:0]) {
		p.PlayInto(m, child)
		n += pf.count(child, depth-1, ply+1)
	}
	return n
}

// Perft returns the number of legal move sequences of length depth from p,
// counting moves as (from, to, captured set).
func (v *Variant) Perft(p *Position, depth int) uint64 {
	pf := &perfter{v: v}
	return pf.count(p, min(depth, MaxPerftDepth), 0)
}

// DivideEntry is one root move and the perft count below it.
type DivideEntry struct {
	Move  Move
	Nodes uint64
}

// PerftDivide counts each root move's subtree to depth-1 and returns the
// entries in generation order. Root moves are spread over up to threads
// goroutines. It stops early with ctx's error when ctx ends.
func (v *Variant) PerftDivide(ctx context.Context, p *Position, depth, threads int) ([]DivideEntry, error) {
	if depth < 1 || depth > MaxPerftDepth {
		return nil, fmt.Errorf("perft depth %d out of range 1-%d", depth, MaxPerftDepth)
	}
	var buf [MaxMoves]Move
	moves := v.Generate(p, buf[:0])
	entries := make([]DivideEntry, len(moves))
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(max(threads, 1))
	for i, m := range moves {
		entries[i].Move = m
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			pf := &perfter{v: v}
			child := p.Play(m)
			entries[i].Nodes = pf.count(&child, depth-1, 0)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return entries, nil
}
