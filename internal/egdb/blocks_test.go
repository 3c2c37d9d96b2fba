package egdb

import (
	"bytes"
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/riodraughts/rio/internal/movegen"
)

// TestBlockSolverMatches: the block solver writes the same tables, byte
// for byte, as the position solver.
func TestBlockSolverMatches(t *testing.T) {
	pieces := 4
	if testing.Short() {
		pieces = 3
	}
	for _, v := range []*movegen.Variant{movegen.Brazilian, movegen.Portuguese, movegen.Russian} {
		blocks, err := Build(context.Background(), v, pieces, Options{Threads: 2})
		if err != nil {
			t.Fatal(err)
		}
		saved := blockPieces
		blockPieces = 0
		plain, err := Build(context.Background(), v, pieces, Options{Threads: 2})
		blockPieces = saved
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range Slices(pieces) {
			a, b := blocks.Table(m), plain.Table(m)
			if !bytes.Equal(a.wdl, b.wdl) || !bytes.Equal(a.dist, b.dist) {
				n := 0
				for i := range a.Size() {
					if va, vb := a.At(i), b.At(i); va != vb && n < 5 {
						p := a.x.Position(i)
						t.Errorf("%s %v %s: blocks %+v, positions %+v", v.Name, m, v.FormatFEN(&p, false), va, vb)
						n++
					}
				}
			}
		}
	}
}

// TestBlockCaptures: the squares of P from which a side has a capture,
// found a block at a time, are those where movegen finds one.
func TestBlockCaptures(t *testing.T) {
	for _, v := range []*movegen.Variant{movegen.Brazilian, movegen.Portuguese, movegen.Russian} {
		for _, m := range Slices(4) {
			s := newBlockSolver(&DB{Variant: v}, m)
			for o := range s.conf {
				g := s.block(o)
				for x := range 2 {
					caps := s.captures(&g, s.legal[o], x)
					for sqs := s.legal[o]; sqs != 0; sqs &= sqs - 1 {
						sq := sqs & -sqs
						p := s.position(&g, sq, x)
						if want := v.HasCapture(&p); want != (caps&sq != 0) {
							t.Fatalf("%s %v %s: capture %v, movegen says %v", v.Name, m, v.FormatFEN(&p, false), !want, want)
						}
					}
				}
			}
		}
	}
}

// TestTurnedAddress: turnedAddress is directAddress of the reversed sets.
func TestTurnedAddress(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		var c, rev [4]uint32
		for i := range c {
			for range r.IntN(3) {
				c[i] |= 1 << r.IntN(32)
			}
			rev[i] = bits.Reverse32(c[i])
		}
		if got, want := turnedAddress(&c), directAddress(&rev); got != want {
			t.Fatalf("%x: %x, want %x", c, got, want)
		}
	}
}

// TestBlockTwinsAgree: a position solved in two blocks (P's group has two
// pieces), or as its turned twin (in a symmetric pair), gets the same
// value and distance in each. The tables read one of them only.
func TestBlockTwinsAgree(t *testing.T) {
	pieces := 4
	if testing.Short() {
		pieces = 3
	}
	ctx := context.Background()
	for _, v := range []*movegen.Variant{movegen.Brazilian, movegen.Portuguese, movegen.Russian} {
		db, err := Build(ctx, v, pieces, Options{Threads: 2})
		if err != nil {
			t.Fatal(err)
		}
		twins := 0
		for _, m := range Slices(pieces) {
			if m.Swap().String() < m.String() {
				continue // solved with its swap
			}
			s := newBlockSolver(db, m)
			if err := s.prepare(ctx, 2); err != nil {
				t.Fatal(err)
			}
			if err := s.run(ctx); err != nil {
				t.Fatal(err)
			}
			result := func(x, o int, sq movegen.Bitboard) string {
				sd := &s.sides[x]
				d := sd.dist[o*32+int(denseOf[sq.First()])]
				switch {
				case sd.won[o]&sq != 0:
					return fmt.Sprintf("win %d", d)
				case sd.lost[o]&sq != 0:
					return fmt.Sprintf("loss %d", d)
				}
				return "draw"
			}
			for o := range s.conf {
				for x := range 2 {
					for sqs := s.legal[o]; sqs != 0; sqs &= sqs - 1 {
						sq := sqs & -sqs
						tx, to, tsq := s.twin(x, o, sq)
						if tx == x && to == o && tsq == sq {
							continue
						}
						twins++
						if a, b := result(x, o, sq), result(tx, to, tsq); a != b {
							t.Fatalf("%s %v: side %d block %d square %d: %s, its twin %s", v.Name, m, x, o, sq.First(), a, b)
						}
					}
				}
			}
		}
		if twins == 0 {
			t.Fatalf("%s: no twins compared", v.Name)
		}
	}
}

// TestDistanceLimit: both solvers refuse a slice whose longest distance
// does not fit the format, and accept one whose longest just fits.
func TestDistanceLimit(t *testing.T) {
	ctx := context.Background()
	v := movegen.Russian
	db, err := Build(ctx, v, 3, Options{Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	longest := 0
	for _, m := range Slices(3) {
		tb := db.Table(m)
		for i := range tb.Size() {
			longest = max(longest, tb.At(i).Dist)
		}
	}
	saved, savedBlocks := maxDist, blockPieces
	defer func() { maxDist, blockPieces = saved, savedBlocks }()
	for _, solver := range []struct {
		name   string
		pieces int
	}{{"blocks", DistPieces}, {"positions", 0}} {
		blockPieces = solver.pieces
		maxDist = longest
		if _, err := Build(ctx, v, 3, Options{Threads: 2}); err != nil {
			t.Errorf("%s, limit %d (the longest): %v", solver.name, longest, err)
		}
		maxDist = longest - 1
		_, err := Build(ctx, v, 3, Options{Threads: 2})
		if want := fmt.Sprintf("a distance of %d plies does not fit", longest); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s, limit %d: %v, want an error saying %q", solver.name, longest-1, err, want)
		}
	}
}
