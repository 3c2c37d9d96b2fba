package egdb

import (
	"bytes"
	"context"
	"math/bits"
	"math/rand/v2"
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
						p := movegen.Position{
							Pieces: [2]movegen.Bitboard{g[gWM] | g[gWK], g[gBM] | g[gBK]},
							Kings:  g[gWK] | g[gBK],
							Side:   movegen.Color(x),
						}
						p.Pieces[groupColor(s.pg)] |= sq
						if groupKing(s.pg) {
							p.Kings |= sq
						}
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
