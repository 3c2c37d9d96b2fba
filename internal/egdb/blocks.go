package egdb

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/riodraughts/rio/internal/movegen"
	"golang.org/x/sync/errgroup"
)

// The block solver solves the pairs of slices that keep distances (up to
// blockPieces pieces, at most DistPieces; the built-in tables) a block of
// up to 32 positions at a time, as bitbase generators do, instead of one
// position at a time.
//
// One piece, P, is set apart; the others form the block's configuration
// (numbered in the order of an Indexer of the slice without P). A block is a 64-bit set
// in the ghost layout of the squares P stands on, one set per fact (quiet,
// won, lost, ...) and side to move. A move of P stays in the block and is
// a shift or a sliding fill of the whole set; a move of another piece maps
// the set to the same squares of another block, less those P would block.
// Both sides to move are solved on the same boards: the White-to-move
// positions are slice m, the Black-to-move ones its flipped twin m.Swap().
//
// Pass d settles every position at distance d: wins at odd d, losses at
// even d (a win is one ply more than a loss, a loss one more than the
// longest win). Only one kind is settled per pass, so a pass reads the
// other side's sets as the previous pass left them.
//   - Wins at d: the quiet, open predecessors of the positions lost at d-1
//     (retro moves of the blocks that gained losses).
//   - Losses at d: among the quiet, open predecessors of the positions won
//     at d-1, those whose every move inside the pair leads to a won
//     position (one pass over the block's moves, all squares of P at once).
//
// Captures and promotions leave the pair; the positions that have them are
// looked up one by one, once: a capture's value is final and enters its
// pass as is, a winning promotion enters its pass as a win unless one was
// found sooner, and a position whose promotions all lose is held from
// losing until the pass after the longest of them (or for ever, if one
// draws).
//
// Where P's group has two pieces, a position has two blocks (P either of
// them), solved alike; in a symmetric pair (m is its own swap) Black to
// move on a board is White to move on the turned board. The moves out of
// the pair are looked at for one of these twins only (canonical).
//
// The tables are the same, byte for byte, as the position solver's
// (TestBlockSolverMatches); a build of the 4-piece tables takes about 40%
// of the position solver's time, because a block's bookkeeping costs
// about what one position's did there, and no quiet position is looked
// at alone.

// Piece groups, in indexDense's order.
const (
	gWM = iota // white men
	gWK        // white kings
	gBM        // black men
	gBK        // black kings
)

// blockBits are the positions of block o settled in one pass.
type blockBits struct {
	o    int32
	bits movegen.Bitboard
}

// blockEntry names one position: block o, P on ghost square sq, side to
// move side.
type blockEntry struct {
	o    int32
	side uint8
	sq   uint8
}

// blockSide is the solving state of one side to move, by block.
type blockSide struct {
	quiet []movegen.Bitboard // no capture
	won   []movegen.Bitboard
	lost  []movegen.Bitboard
	hold  []movegen.Bitboard // may not lose yet: a promotion draws, or wins for them later
	cand  []movegen.Bitboard // predecessors to look at this pass
	// candList: the blocks with candidates.
	candList []int32
	// fresh: settled this pass, by block, and the blocks with some;
	// prev: those of the previous pass.
	fresh     []movegen.Bitboard
	freshList []int32
	prev      []blockBits
	// dist: the distance of each settled position, by block*32 + P's
	// dense square.
	dist []uint8
	// out: the results of the moves out of the pair (outInject...), same
	// numbering.
	out []uint16
}

// blockSolver solves one pair by blocks (see the top of this file).
type blockSolver struct {
	db *DB
	v  *movegen.Variant
	m  Material // the boards: White has m's pieces to move, Black the others
	// symmetric: m is its own swap, so Black to move on a board is White
	// to move on the turned board.
	symmetric bool
	pg        int      // P's group
	ox        *Indexer // the blocks: the slice without P
	// conf holds each block's pieces as dense sets by group.
	conf [][4]uint32
	// byAddress numbers the blocks by directAddress (32^k entries for k
	// pieces besides P: 128 KB for a 4-piece slice).
	byAddress []int32
	// fieldShift[g] and fieldMask[g] place group g's squares in an
	// address.
	fieldShift [4]int
	fieldMask  [4]int
	legal      []movegen.Bitboard // P's squares in each block
	sides      [2]blockSide
	// inject holds the positions whose value a move out of the pair gives
	// (by distance): captures, and promotions that win. release holds the
	// positions whose promotions all lose (by the pass they may lose in).
	inject, release [][]blockEntry
}

// denseOf[s] is the dense number of ghost square s.
var denseOf = func() (t [64]uint8) {
	for s := range 35 {
		if movegen.Valid&(1<<s) != 0 {
			t[s] = uint8(bits.TrailingZeros32(dense(1 << s)))
		}
	}
	return t
}()

// fill returns the squares reached from the squares of b by sliding in
// direction d over the squares of empty (each reached square is in empty).
func fill(b movegen.Bitboard, d movegen.Direction, empty movegen.Bitboard) movegen.Bitboard {
	var r movegen.Bitboard
	for f := b.Shift(d) & empty; f != 0; f = f.Shift(d) & empty {
		r |= f
	}
	return r
}

// forward returns the directions a man of c steps in, and its last row.
func forward(c int) (d0, d1 movegen.Direction, last movegen.Bitboard) {
	if c == int(movegen.White) {
		return movegen.UpLeft, movegen.UpRight, movegen.PromotionRow(movegen.White)
	}
	return movegen.DownLeft, movegen.DownRight, movegen.PromotionRow(movegen.Black)
}

// groupColor is the side a group's pieces belong to; groupKing whether
// they are kings.
func groupColor(g int) int { return g / 2 }
func groupKing(g int) bool { return g&1 == 1 }

func newBlockSolver(db *DB, m Material) *blockSolver {
	s := &blockSolver{db: db, v: db.Variant, m: m, symmetric: m == m.Swap()}
	counts := [4]int{m.UsMen, m.UsKings, m.ThemMen, m.ThemKings}
	// P is a piece of the smallest group, a king where there is a choice:
	// its moves are the cheap ones. In a group of two (the smallest group
	// of a 4-piece slice has at most two), P is either piece, so every
	// position has two blocks, solved alike.
	s.pg = -1
	for _, g := range [4]int{gWK, gBK, gWM, gBM} {
		if counts[g] > 0 && (s.pg < 0 || counts[g] < counts[s.pg]) {
			s.pg = g
		}
	}
	counts[s.pg]--
	s.ox = NewIndexer(Material{UsKings: counts[gWK], UsMen: counts[gWM], ThemKings: counts[gBK], ThemMen: counts[gBM]})
	n := s.ox.Size()
	s.conf = make([][4]uint32, n)
	s.byAddress = make([]int32, 1<<(5*(m.Pieces()-1)))
	shift := 0
	for g := 3; g >= 0; g-- {
		s.fieldShift[g], s.fieldMask[g] = shift, (1<<(5*counts[g])-1)<<shift
		shift += 5 * counts[g]
	}
	s.legal = make([]movegen.Bitboard, n)
	var w walker
	w.seek(s.ox, 0)
	for o := range n {
		c := [4]uint32{dense(w.wm.set), dense(w.wk.set), dense(w.bm.set), dense(w.bk.set)}
		s.conf[o] = c
		s.byAddress[directAddress(&c)] = int32(o)
		l := movegen.Valid &^ ghost(c[0]|c[1]|c[2]|c[3])
		switch s.pg {
		case gWM:
			l &^= movegen.Row0
		case gBM:
			l &^= movegen.Row7
		}
		s.legal[o] = l
		w.next()
	}
	for x := range s.sides {
		sd := &s.sides[x]
		sd.quiet = make([]movegen.Bitboard, n)
		sd.won = make([]movegen.Bitboard, n)
		sd.lost = make([]movegen.Bitboard, n)
		sd.hold = make([]movegen.Bitboard, n)
		sd.cand = make([]movegen.Bitboard, n)
		sd.fresh = make([]movegen.Bitboard, n)
		sd.dist = make([]uint8, n*32)
		sd.out = make([]uint16, n*32)
	}
	return s
}

// after returns the value, from the finished tables, of the position after
// the move m out of the pair (a capture or a promotion) of side x in p.
func (s *blockSolver) after(p *movegen.Position, x int, m movegen.Move) Value {
	// The move played on the bitboards (PlayInto without the hash).
	mover, other, kings := p.Pieces[x], p.Pieces[1-x], p.Kings
	from, to := m.From().Bit(), m.To().Bit()
	if kings&from != 0 || m.Promotes() {
		kings = kings&^from | to
	}
	mover = mover&^from | to
	other &^= m.Captured()
	kings &^= m.Captured()
	// Seen from the other side, to move.
	c := [4]uint32{dense(other &^ kings), dense(other & kings), dense(mover &^ kings), dense(mover & kings)}
	return s.db.solved(&c, x == int(movegen.White))
}

// turnedAddress is directAddress of c turned (each set bit-reversed, as
// by Reverse32, which costs more): a square s turns into 31-s, the
// number of leading zeros of its bit, and the highest square comes first.
func turnedAddress(c *[4]uint32) int {
	a := 0
	for _, g := range c {
		for ; g != 0; g &^= 1 << 31 >> bits.LeadingZeros32(g) {
			a = a<<5 | bits.LeadingZeros32(g)
		}
	}
	return a
}

// position returns the position of the block with pieces g (ghost
// bitboards by group), P on sq, side x to move.
func (s *blockSolver) position(g *[4]movegen.Bitboard, sq movegen.Bitboard, x int) movegen.Position {
	p := movegen.Position{
		Pieces: [2]movegen.Bitboard{g[gWM] | g[gWK], g[gBM] | g[gBK]},
		Kings:  g[gWK] | g[gBK],
		Side:   movegen.Color(x),
	}
	p.Pieces[groupColor(s.pg)] |= sq
	if groupKing(s.pg) {
		p.Kings |= sq
	}
	return p
}

// block returns block o's pieces as ghost bitboards by group.
func (s *blockSolver) block(o int) (g [4]movegen.Bitboard) {
	c := &s.conf[o]
	for i := range g {
		g[i] = ghost(c[i])
	}
	return g
}

// captures returns the squares of P, among legal, from which side x has a
// capture in the block with pieces g (ghost bitboards by group). Only whether one exists matters, so one jump is looked at:
// those between the block's pieces, less where P stands in the way or on
// the landing square; those of x's pieces over P; and those of P.
func (s *blockSolver) captures(g *[4]movegen.Bitboard, legal movegen.Bitboard, x int) movegen.Bitboard {
	men, kings := g[2*x], g[2*x+1]
	y := 1 - x
	them := g[2*y] | g[2*y+1]
	empty := movegen.Valid &^ (g[0] | g[1] | g[2] | g[3])
	d0, d1, _ := forward(x)
	dirs := [4]movegen.Direction{d0, d1, 3 - d0, 3 - d1}
	manDirs := dirs[:2]
	if s.v.ManCapturesBackward {
		manDirs = dirs[:]
	}
	var caps movegen.Bitboard
	pColor, pKing := groupColor(s.pg), groupKing(s.pg)
	for _, d := range manDirs {
		// landing[d]: squares with a free square one step on in d.
		landing := empty.Shift(3 - d)
		// Between the block's pieces: P on the landing square prevents it.
		for t := men.Shift(d) & them & landing; t != 0; t &= t - 1 {
			caps |= legal &^ (t & -t).Shift(d)
		}
		if pColor == y { // x's men over P
			caps |= men.Shift(d) & landing & legal
		} else if !pKing { // P, a man of x's
			caps |= (them & landing).Shift(3-d) & legal
		}
	}
	for d := movegen.UpLeft; d <= movegen.DownRight; d++ {
		landing := empty.Shift(3 - d)
		for k := kings; k != 0; k &= k - 1 {
			path := fill(k&-k, d, empty)
			end := (path | k&-k).Shift(d) &^ path // the first square not free, if any
			if end&them&landing != 0 {
				caps |= legal &^ (path | end.Shift(d))
			}
			if pColor == y { // over P, on the path with a free square behind
				caps |= path & landing & legal
			}
		}
		if pColor == x && pKing { // P slides up to a piece of theirs
			caps |= fill(them&landing, 3-d, empty) & legal
		}
	}
	return caps
}

// Results of the moves out of the pair (blockSide.out): what a capture
// or a promotion makes of a position, kind<<outShift | distance; 0 is
// nothing (a capture that draws; a promotion that draws, which only holds).
const (
	outInject  = 1 // settled at the distance (a capture's value; a winning promotion)
	outRelease = 2 // may lose from the distance on (every promotion loses)
	outShift   = 12
)

// setup marks the quiet positions of blocks from-to and those that may
// promote (held), and looks at the moves out of the pair of those with a
// capture or a promotion, if canonical (see canonical): their results go
// to out.
func (s *blockSolver) setup(from, to int) {
	var buf [movegen.MaxMoves]movegen.Move
	var pace pacer
	for o := from; o < to; o++ {
		pace.tick()
		g := s.block(o)
		legal := s.legal[o]
		empty := movegen.Valid &^ (g[0] | g[1] | g[2] | g[3])
		for x := range 2 {
			sd := &s.sides[x]
			caps := s.captures(&g, legal, x)
			sd.quiet[o] = legal &^ caps
			// The squares of P where a man of x's may promote: one of the
			// block's, unless P is on its square; P itself.
			d0, d1, last := forward(x)
			var promo movegen.Bitboard
			for _, d := range [2]movegen.Direction{d0, d1} {
				for t := g[2*x].Shift(d) & empty & last; t != 0; t &= t - 1 {
					promo |= legal &^ (t & -t)
				}
				if s.pg == 2*x {
					promo |= (empty & last).Shift(3-d) & legal
				}
			}
			promo &^= caps
			sd.hold[o] = promo // none may lose before its promotions say
			for sqs := caps | promo; sqs != 0; sqs &= sqs - 1 {
				sq := sqs & -sqs
				if !s.canonical(x, o, sq) {
					continue
				}
				p := s.position(&g, sq, x)
				res := newOutcome()
				see := func(m movegen.Move) { res.add(s.after(&p, x, m)) }
				var out uint16
				if caps&sq != 0 && p.Pieces[1-x].Count() == 1 {
					// Every capture takes their last piece: a win in 1.
					out = outInject<<outShift | 1
				} else if caps&sq != 0 {
					for _, m := range s.v.Generate(&p, buf[:0]) {
						see(m)
					}
					switch {
					case res.win >= 0:
						out = outInject<<outShift | uint16(res.win)
					case !res.draw:
						out = outInject<<outShift | uint16(res.maxWin+1)
					}
				} else {
					men := p.Men(movegen.Color(x))
					empty := p.Empty()
					for _, d := range [2]movegen.Direction{d0, d1} {
						for t := men.Shift(d) & empty & last; t != 0; t &= t - 1 {
							dst := t.First()
							see(movegen.NewMove(movegen.Square(int(dst)-delta(d)), dst, 0, true))
						}
					}
					switch {
					case res.win >= 0:
						out = outInject<<outShift | uint16(res.win)
					case !res.draw:
						out = outRelease<<outShift | uint16(res.maxWin+1)
					}
				}
				sd.out[o*32+int(denseOf[sq.First()])] = out
			}
		}
	}
}

// canonical reports whether position (x, o, sq) is the one its results out
// of the pair are worked out for. A position has two blocks where P's group
// has two pieces (the canonical one has P on the lower square); in a
// symmetric pair (m is its own swap) Black to move on a board is White to
// move on the turned board, so only White to move is canonical.
func (s *blockSolver) canonical(x, o int, sq movegen.Bitboard) bool {
	twin := s.conf[o][s.pg] // the rest of P's group
	return (x == 0 || !s.symmetric) && twin&(dense(sq)-1) == 0
}

// twin returns the canonical position of (x, o, sq), which has the same
// results out of the pair.
func (s *blockSolver) twin(x, o int, sq movegen.Bitboard) (int, int, movegen.Bitboard) {
	c := s.conf[o]
	c[s.pg] |= dense(sq)
	if x == 1 && s.symmetric {
		c = [4]uint32{bits.Reverse32(c[gBM]), bits.Reverse32(c[gBK]), bits.Reverse32(c[gWM]), bits.Reverse32(c[gWK])}
		x = 0
	}
	p := c[s.pg] & -c[s.pg]
	c[s.pg] ^= p
	return x, int(s.byAddress[directAddress(&c)]), ghostSquare[bits.TrailingZeros32(p)]
}

// share gives the non-canonical positions of blocks from-to their
// canonical twins' results.
func (s *blockSolver) share(from, to int) {
	var pace pacer
	for o := from; o < to; o++ {
		pace.tick()
		for x := range 2 {
			sd := &s.sides[x]
			for sqs := s.legal[o]&^sd.quiet[o] | sd.hold[o]; sqs != 0; sqs &= sqs - 1 {
				sq := sqs & -sqs
				if s.canonical(x, o, sq) {
					continue
				}
				tx, to, tsq := s.twin(x, o, sq)
				sd.out[o*32+int(denseOf[sq.First()])] = s.sides[tx].out[to*32+int(denseOf[tsq.First()])]
			}
		}
	}
}

// delta is the bit offset of one step in direction d.
func delta(d movegen.Direction) int {
	return [4]int{-5, -4, 4, 5}[d]
}

// solveBlocks solves pair (a slice and its swap, or a symmetric slice
// alone) by blocks and returns its tables.
func (db *DB) solveBlocks(ctx context.Context, pair []Material, threads int) ([]*Table, error) {
	s := newBlockSolver(db, pair[0])
	if err := s.prepare(ctx, threads); err != nil {
		return nil, err
	}
	if err := s.run(ctx); err != nil {
		return nil, err
	}
	return s.tables(pair), nil
}

// prepare looks at the moves out of the pair and lists their results.
func (s *blockSolver) prepare(ctx context.Context, threads int) error {
	n := len(s.conf)
	// Over chunks of blocks in parallel: the canonical positions, then the
	// others.
	for _, phase := range []func(from, to int){s.setup, s.share} {
		g, gctx := errgroup.WithContext(ctx)
		g.SetLimit(max(threads, 1))
		const blocksPerChunk = 1 << 10
		for from := 0; from < n; from += blocksPerChunk {
			g.Go(func() error {
				if gctx.Err() != nil {
					return gctx.Err()
				}
				phase(from, min(from+blocksPerChunk, n))
				return nil
			})
		}
		if err := g.Wait(); err != nil {
			return err
		}
	}
	// The results, by distance, in block order.
	add := func(list *[][]blockEntry, d int, e blockEntry) {
		for len(*list) <= d {
			*list = append(*list, nil)
		}
		(*list)[d] = append((*list)[d], e)
	}
	var pace pacer
	for o := range n {
		pace.tick()
		for x := range 2 {
			sd := &s.sides[x]
			for sqs := s.legal[o]&^sd.quiet[o] | sd.hold[o]; sqs != 0; sqs &= sqs - 1 {
				sq := sqs.First()
				out := sd.out[o*32+int(denseOf[sq])]
				e := blockEntry{o: int32(o), side: uint8(x), sq: uint8(sq)}
				switch d := int(out & (1<<outShift - 1)); out >> outShift {
				case outInject:
					add(&s.inject, d, e)
				case outRelease:
					add(&s.release, d, e)
				}
			}
		}
	}
	return nil
}

// run settles the positions pass by pass.
func (s *blockSolver) run(ctx context.Context) error {
	last := max(len(s.inject), len(s.release)) - 1
	var pace pacer
	for d := 0; ; d++ {
		settled := len(s.sides[0].freshList) > 0 || len(s.sides[1].freshList) > 0 // by pass d-1
		if settled && d-1 > maxDist {
			return fmt.Errorf("egdb: %s %v: a distance of %d plies does not fit the format", s.v.Name, s.m, d-1)
		}
		if d > last && !settled {
			return nil
		}
		if d&63 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		for x := range s.sides {
			sd := &s.sides[x]
			sd.prev = sd.prev[:0]
			for _, o := range sd.freshList {
				sd.prev = append(sd.prev, blockBits{o, sd.fresh[o]})
				sd.fresh[o] = 0
			}
			sd.freshList = sd.freshList[:0]
		}
		// Candidates: the predecessors of the previous pass's positions.
		for x := range s.sides {
			for _, b := range s.sides[1-x].prev {
				pace.tick()
				s.retro(x, int(b.o), b.bits)
			}
		}
		if d == 0 {
			for x := range s.sides {
				sd := &s.sides[x]
				for o := range s.legal {
					pace.tick()
					s.candidate(sd, int32(o), s.legal[o])
				}
			}
		}
		if d < len(s.release) {
			for _, e := range s.release[d] {
				sd := &s.sides[e.side]
				sq := movegen.Bitboard(1) << e.sq
				sd.hold[e.o] &^= sq
				s.candidate(sd, e.o, sq)
			}
		}
		if d < len(s.inject) {
			for _, e := range s.inject[d] {
				sd := &s.sides[e.side]
				sq := movegen.Bitboard(1) << e.sq
				if (sd.won[e.o]|sd.lost[e.o])&sq == 0 {
					s.settle(int(e.side), e.o, sq, d)
				}
			}
		}
		for x := range s.sides {
			sd := &s.sides[x]
			for _, o := range sd.candList {
				pace.tick()
				b := sd.cand[o] & sd.quiet[o] &^ (sd.won[o] | sd.lost[o])
				sd.cand[o] = 0
				if d&1 == 0 && b != 0 {
					b &^= sd.hold[o]
					if b != 0 {
						b = s.allWon(x, int(o), b)
					}
				}
				if b != 0 {
					s.settle(x, o, b, d)
				}
			}
			sd.candList = sd.candList[:0]
		}
	}
}

func (s *blockSolver) candidate(sd *blockSide, o int32, b movegen.Bitboard) {
	if b == 0 {
		return
	}
	if sd.cand[o] == 0 {
		sd.candList = append(sd.candList, o)
	}
	sd.cand[o] |= b
}

// settle makes positions b of block o (side x to move) won (odd d) or lost
// (even d) in d plies.
func (s *blockSolver) settle(x int, o int32, b movegen.Bitboard, d int) {
	sd := &s.sides[x]
	if d&1 == 1 {
		sd.won[o] |= b
	} else {
		sd.lost[o] |= b
	}
	if sd.fresh[o] == 0 {
		sd.freshList = append(sd.freshList, o)
	}
	sd.fresh[o] |= b
	base := int(o) * 32
	for t := b; t != 0; t &= t - 1 {
		sd.dist[base+int(denseOf[t.First()])] = uint8(d)
	}
}

// retro makes candidates, side x to move, of the positions that reach
// positions b of block o (side 1-x to move) by a quiet move inside the
// pair.
func (s *blockSolver) retro(x, o int, b movegen.Bitboard) {
	sd := &s.sides[x]
	c := s.conf[o]
	addr := directAddress(&c)
	empty := movegen.Valid &^ ghost(c[0]|c[1]|c[2]|c[3])
	d0, d1, _ := forward(x)
	pMine := groupColor(s.pg) == x
	if pMine {
		if groupKing(s.pg) {
			var from movegen.Bitboard
			for d := movegen.UpLeft; d <= movegen.DownRight; d++ {
				from |= fill(b, d, empty)
			}
			s.candidate(sd, int32(o), from&s.legal[o])
		} else {
			// A man came from one step back.
			from := b.Shift(3-d0) | b.Shift(3-d1)
			s.candidate(sd, int32(o), from&s.legal[o])
		}
	}
	for _, g := range [2]int{2 * x, 2*x + 1} {
		for pieces := c[g]; pieces != 0; pieces &= pieces - 1 {
			at := pieces & -pieces
			a := ghostSquare[bits.TrailingZeros32(at)]
			if groupKing(g) {
				for d := movegen.UpLeft; d <= movegen.DownRight; d++ {
					// The king came from along the ray; P was not on the
					// way nor on the square it came from.
					var path movegen.Bitboard
					for f := a.Shift(d) & empty; f != 0; f = f.Shift(d) & empty {
						path |= f
						rest := b &^ path
						if rest == 0 {
							break // P is on the way from here on
						}
						s.candidate(sd, int32(s.moved(&c, addr, g, at, dense(f))), rest)
					}
				}
			} else {
				for _, d := range [2]movegen.Direction{3 - d0, 3 - d1} {
					if f := a.Shift(d) & empty; f != 0 && b&^f != 0 {
						s.candidate(sd, int32(s.moved(&c, addr, g, at, dense(f))), b&^f)
					}
				}
			}
		}
	}
}

// moved returns the block of configuration c, whose directAddress is a,
// with the piece of group g on dense square from moved to to. Only the
// group's field of the address changes.
func (s *blockSolver) moved(c *[4]uint32, a int, g int, from, to uint32) int {
	set := c[g] ^ from ^ to
	field := bits.TrailingZeros32(set)
	for rest := set & (set - 1); rest != 0; rest &= rest - 1 { // a group of several
		field = field<<5 | bits.TrailingZeros32(rest)
	}
	return int(s.byAddress[a&^s.fieldMask[g]|field<<s.fieldShift[g]])
}

// directAddress packs the squares of a configuration's groups, in group
// order, each group from its lowest square, 5 bits a square: a block's
// number is then one load from blockSolver.byAddress, not a ranking.
func directAddress(c *[4]uint32) int {
	a := 0
	for _, g := range c {
		for ; g != 0; g &= g - 1 {
			a = a<<5 | bits.TrailingZeros32(g)
		}
	}
	return a
}

// allWon returns the squares of P among those of ok in block o from which
// every quiet move inside the pair of side x leads to a position won for
// the other side.
func (s *blockSolver) allWon(x, o int, ok movegen.Bitboard) movegen.Bitboard {
	them := &s.sides[1-x]
	c := s.conf[o]
	addr := directAddress(&c)
	empty := movegen.Valid &^ ghost(c[0]|c[1]|c[2]|c[3])
	d0, d1, last := forward(x)
	if groupColor(s.pg) == x {
		won := them.won[o]
		if groupKing(s.pg) {
			// P is bad where a slide reaches a square not won.
			bad := empty &^ won
			for d := movegen.UpLeft; d <= movegen.DownRight; d++ {
				ok &^= fill(bad, 3-d, empty)
			}
		} else {
			bad := empty &^ last &^ won
			ok &^= bad.Shift(3-d0) | bad.Shift(3-d1)
		}
	}
	for _, g := range [2]int{2 * x, 2*x + 1} {
		for pieces := c[g]; pieces != 0 && ok != 0; pieces &= pieces - 1 {
			at := pieces & -pieces
			a := ghostSquare[bits.TrailingZeros32(at)]
			if groupKing(g) {
				for d := movegen.UpLeft; d <= movegen.DownRight; d++ {
					var path movegen.Bitboard
					for f := a.Shift(d) & empty; f != 0; f = f.Shift(d) & empty {
						path |= f
						if ok&^path == 0 {
							break // P is on the way from here on
						}
						ok &= them.won[s.moved(&c, addr, g, at, dense(f))] | path
					}
				}
			} else {
				for _, d := range [2]movegen.Direction{d0, d1} {
					if f := a.Shift(d) & empty &^ last; f != 0 && ok&^f != 0 {
						ok &= them.won[s.moved(&c, addr, g, at, dense(f))] | f
					}
				}
			}
		}
	}
	return ok
}

// tables returns the tables of the pair: slice m from the White-to-move
// positions, m.Swap() from the Black-to-move ones, turned. A new table is
// all draws; only the won and lost positions are written.
func (s *blockSolver) tables(pair []Material) []*Table {
	var ts []*Table
	for k, m := range pair {
		t := newTable(s.v, m)
		x := t.x
		sd := &s.sides[k]
		for o, c := range s.conf {
			b := sd.won[o] | sd.lost[o]
			if twin := c[s.pg]; twin != 0 {
				b &= ghost(twin&-twin) - 1 // the position's other block writes the rest
			}
			if b == 0 {
				continue
			}
			// The table's groups: the board's, turned for Black to move.
			pg := s.pg
			if k == 1 {
				c = [4]uint32{bits.Reverse32(c[gBM]), bits.Reverse32(c[gBK]), bits.Reverse32(c[gWM]), bits.Reverse32(c[gWK])}
				pg ^= 2
			}
			men := x.menIndex(c[gWM], c[gBM]) // kept while P is a king
			for ; b != 0; b &= b - 1 {
				sq := b & -b
				p := dense(sq)
				if k == 1 {
					p = bits.Reverse32(p)
				}
				g := c
				g[pg] |= p
				if !groupKing(pg) {
					men = x.menIndex(g[gWM], g[gBM])
				}
				i := x.kingsIndex(men, g[gWM], g[gWK], g[gBM], g[gBK])
				code := byte(wdlLoss)
				if sd.won[o]&sq != 0 {
					code = wdlWin
				}
				t.setCode(i, code)
				t.dist[i] = sd.dist[o*32+int(denseOf[sq.First()])]
			}
		}
		ts = append(ts, t)
	}
	return ts
}
