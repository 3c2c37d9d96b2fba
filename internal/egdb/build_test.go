package egdb

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/riodraughts/rio/internal/movegen"
)

var (
	builtOnce sync.Map // variant name -> *DB (4 pieces)
)

func built(t testing.TB, v *movegen.Variant) *DB {
	t.Helper()
	if testing.Short() {
		t.Skip("4-piece tables: skipped in -short runs (the race detector makes them slow)")
	}
	if db, ok := builtOnce.Load(v.Name); ok {
		return db.(*DB)
	}
	db, err := Build(context.Background(), v, 4, Options{Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	builtOnce.Store(v.Name, db)
	return db
}

func probe(t *testing.T, db *DB, fen string) Value {
	t.Helper()
	p, err := db.Variant.ParsePosition(fen)
	if err != nil {
		t.Fatal(err)
	}
	v, ok := db.Probe(&p)
	if !ok {
		t.Fatalf("%s: not in the tables", fen)
	}
	return v
}

func TestKnownValues(t *testing.T) {
	db := built(t, movegen.Brazilian)
	for _, c := range []struct {
		fen  string
		want Value
	}{
		{"W:WK29,K30,K31:BK3", Value{Win, 21}},
		{"B:WK32,K31,K30:BK22", Value{Draw, -1}},
		{"B:WK1,K2,K10:BK15", Value{Loss, 2}},
	} {
		if got := probe(t, db, c.fen); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.fen, got, c.want)
		}
	}
}

// BenchmarkBuild4: the built-in tables (brazilian, up to 4 pieces) on one
// thread and on two.
func BenchmarkBuild4(b *testing.B) {
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			for b.Loop() {
				if _, err := Build(context.Background(), movegen.Brazilian, 4, Options{Threads: threads}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// samplePositions returns every step-th position of each slice of up to
// pieces pieces.
func samplePositions(pieces int, step int64) []movegen.Position {
	var ps []movegen.Position
	for _, m := range Slices(pieces) {
		x := NewIndexer(m)
		for i := int64(0); i < x.Size(); i += step {
			ps = append(ps, x.Position(i))
		}
	}
	return ps
}

// BenchmarkProbe: ns per probe of one position again and again (cached),
// and of positions spread over all 4-piece slices (mostly cold).
func BenchmarkProbe(b *testing.B) {
	db := built(b, movegen.Brazilian)
	ps := samplePositions(4, 9973)
	b.Run("cached", func(b *testing.B) {
		p := ps[len(ps)/2]
		for b.Loop() {
			db.Probe(&p)
		}
	})
	b.Run("spread", func(b *testing.B) {
		i := 0
		for b.Loop() {
			db.Probe(&ps[i])
			i = (i + 7919) % len(ps)
		}
	})
	// RIO_EGDB_BENCH_DIR=D (a brazilian 5-piece build): probes spread over
	// 146 M positions in 43 MB, most of them cache misses.
	dir := os.Getenv("RIO_EGDB_BENCH_DIR")
	if dir == "" {
		return
	}
	db5, err := Open(dir, movegen.Brazilian, 5)
	if err != nil {
		b.Fatal(err)
	}
	ps5 := samplePositions(5, 99991)
	b.Run("5-pieces-spread", func(b *testing.B) {
		i := 0
		for b.Loop() {
			db5.Probe(&ps5[i])
			i = (i + 7919) % len(ps5)
		}
	})
}

// TestPredecessors: the predecessors numbered in the partner's frame are
// those found by un-moving each black piece on the board, turning the
// position and indexing it the plain way.
func TestPredecessors(t *testing.T) {
	for _, m := range Slices(MaxPieces) { // 6 pieces: not packed, decoded
		s := &solver{}
		for k, sm := range []Material{m, m.Swap()} {
			x := NewIndexer(sm)
			sd := &side{x: x, material: sm, partner: 1 - k}
			if sm.Pieces() <= packPieces {
				sd.packed = make([]uint32, x.Size())
			}
			s.sides = append(s.sides, sd)
		}
		sd, px := s.sides[0], s.sides[1].x
		samples := int64(300)
		if m.Pieces() > packPieces {
			samples = 50
		}
		for i := int64(0); i < sd.x.Size(); i += max(sd.x.Size()/samples, 1) {
			p := sd.x.Position(i)
			if sd.packed != nil {
				sd.packed[i] = pack(&p)
			}
			got := s.predecessors(sd, i, nil)
			var want []int64
			empty := p.Empty()
			for b := p.Pieces[movegen.Black]; b != 0; b &= b - 1 {
				to := b.First()
				king := p.Kings.Has(to)
				from := (to.Bit()>>4 | to.Bit()>>5) & empty & movegen.Valid
				if king {
					from = movegen.KingReach(to, empty)
				}
				for o := from; o != 0; o &= o - 1 {
					q := p
					moved := to.Bit() | o&-o
					q.Pieces[movegen.Black] ^= moved
					if king {
						q.Kings ^= moved
					}
					q.Side = movegen.Black
					f := q.Flip()
					want = append(want, px.Index(&f))
				}
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("%v position %d: predecessors %v, want %v", m, i, got, want)
			}
		}
	}
}

// failingStore keeps nothing and fails to save slice bad.
type failingStore struct{ bad Material }

func (failingStore) Load(*movegen.Variant, Material) (*Table, error) { return nil, nil }

func (f failingStore) Save(t *Table) error {
	if t.M == f.bad {
		return fmt.Errorf("disk full saving %v", t.M)
	}
	return nil
}

// TestBuildStops: a build stops with the error of a pair that fails, or
// of its context, with every thread waiting or working, and never hangs.
func TestBuildStops(t *testing.T) {
	v := movegen.Brazilian
	for _, threads := range []int{1, 2, 4} {
		bad := Material{UsKings: 2, UsMen: 0, ThemKings: 1, ThemMen: 0}
		_, err := Build(context.Background(), v, 3, Options{Threads: threads, Store: failingStore{bad}})
		if err == nil || !strings.Contains(err.Error(), "disk full saving "+bad.String()) {
			t.Errorf("threads %d, failing save: %v", threads, err)
		}

		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := Build(ctx, v, 3, Options{Threads: threads}); !errors.Is(err, context.Canceled) {
			t.Errorf("threads %d, canceled before: %v", threads, err)
		}

		ctx, cancel = context.WithCancel(context.Background())
		progress := func(done, total int64) {
			if done > total/10 {
				cancel()
			}
		}
		if _, err := Build(ctx, v, 4, Options{Threads: threads, Progress: progress}); !errors.Is(err, context.Canceled) {
			t.Errorf("threads %d, canceled during: %v", threads, err)
		}
		cancel()
	}
}
