package tt

import (
	"sync"
	"testing"
	"unsafe"

	"github.com/riodraughts/rio/internal/movegen"
)

func TestEntrySize(t *testing.T) {
	if s := unsafe.Sizeof(entry{}); s != EntrySize {
		t.Fatalf("entry is %d bytes, want %d", s, EntrySize)
	}
	tab := New(1)
	if tab.SizeMiB() != 1 || len(tab.entries) != 1<<20/EntrySize {
		t.Fatalf("1 MiB table has %d entries", len(tab.entries))
	}
}

func TestStoreProbe(t *testing.T) {
	tab := New(1)
	tab.NewSearch()
	key := uint64(0x123456789abcdef1)
	if _, ok := tab.Probe(key); ok {
		t.Fatal("hit in an empty table")
	}
	tab.Store(key, 0x8abcd, -1234, 17, Lower)
	e, ok := tab.Probe(key)
	if !ok || e.Move != 0x8abcd || e.Score != -1234 || e.Depth != 17 || e.Bound != Lower {
		t.Fatalf("probe = %+v %v", e, ok)
	}
	if _, ok := tab.Probe(key ^ 1<<40); ok {
		t.Fatal("hit for another key in the same bucket")
	}
	// A shallower non-exact result does not overwrite a deep one of this
	// search; the move is kept when a store has none.
	tab.Store(key, 0, 5, 3, Upper)
	if e, _ := tab.Probe(key); e.Depth != 17 {
		t.Fatalf("deep entry replaced: %+v", e)
	}
	tab.Store(key, 0, 5, 18, Upper)
	if e, _ := tab.Probe(key); e.Depth != 18 || e.Move != 0x8abcd {
		t.Fatalf("after a deeper store: %+v", e)
	}
	tab.Clear()
	if _, ok := tab.Probe(key); ok {
		t.Fatal("hit after Clear")
	}
}

func TestReplacementPrefersOldAndShallow(t *testing.T) {
	tab := New(1)
	tab.NewSearch()
	base := uint64(7)
	step := tab.mask + 1 // same bucket
	for i := range uint64(bucketSize) {
		tab.Store(base+i*step, 1, 0, 10+int(i), Exact)
	}
	tab.NewSearch()
	newKey := base + 10*step
	tab.Store(newKey, 1, 0, 1, Exact)
	if _, ok := tab.Probe(newKey); !ok {
		t.Fatal("new entry not stored")
	}
	if _, ok := tab.Probe(base); ok {
		t.Fatal("the shallowest old entry should have been replaced")
	}
	for i := uint64(1); i < bucketSize; i++ {
		if _, ok := tab.Probe(base + i*step); !ok {
			t.Fatalf("entry %d lost", i)
		}
	}
}

func TestMateScoreRoundTrip(t *testing.T) {
	for _, score := range []int{0, 55, -890, Win - 3, Win - 40, -Win + 7, -Win + 120} {
		for _, ply := range []int{0, 1, 9, 60} {
			if got := FromTT(ToTT(score, ply), ply); got != score {
				t.Errorf("score %d at ply %d comes back as %d", score, ply, got)
			}
		}
	}
	// A win in 5 plies found 3 plies below the root is a win in 2 from that
	// node; probed 7 plies below the root it is a win in 9.
	if s := ToTT(Win-5, 3); s != Win-2 {
		t.Errorf("ToTT = %d", s)
	}
	if s := FromTT(Win-2, 7); s != Win-9 {
		t.Errorf("FromTT = %d", s)
	}
}

func TestMoveKeyDistinguishesMoves(t *testing.T) {
	v := movegen.Brazilian
	p, _ := v.ParseFEN("W:WK26:B14,15,22,23")
	var buf [movegen.MaxMoves]movegen.Move
	seen := map[uint32]bool{}
	for _, m := range v.Generate(&p, buf[:0]) {
		k := MoveKey(m)
		if k == 0 || k >= 1<<moveBits || seen[k] {
			t.Fatalf("move key %x of %s is zero, too wide or shared", k, v.FormatMove(m))
		}
		seen[k] = true
	}
}

// TestConcurrentAccess hammers one bucket from several goroutines: every
// hit must be an entry some writer stored for that very key (run with
// -race too).
func TestConcurrentAccess(t *testing.T) {
	tab := New(1)
	tab.NewSearch()
	step := tab.mask + 1
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20000 {
				key := uint64(3) + uint64(i%8)*step
				score := int(key % 1000)
				if (i+w)%2 == 0 {
					tab.Store(key, 1, score, i%30, Exact)
				} else if e, ok := tab.Probe(key); ok && e.Score != score {
					t.Errorf("key %d read score %d, stored %d", key, e.Score, score)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func BenchmarkProbe(b *testing.B) {
	tab := New(64)
	tab.NewSearch()
	for i := range uint64(1 << 16) {
		tab.Store(i*0x9e3779b97f4a7c15, 1, 0, 5, Exact)
	}
	var k uint64
	for b.Loop() {
		k += 0x9e3779b97f4a7c15
		tab.Probe(k)
	}
}

// TestPrefetchChangesNothing: prefetching any key, the first and last
// buckets among them, reads no entry and writes none: what a probe finds
// is what was stored.
func TestPrefetchChangesNothing(t *testing.T) {
	tab := New(1)
	tab.NewSearch()
	keys := []uint64{0, 1, ^uint64(0), tab.mask, tab.mask + 1, 0x123456789abcdef1}
	for _, k := range keys {
		tab.Prefetch(k)
		if _, ok := tab.Probe(k); ok {
			t.Fatalf("key %#x: a hit in an empty table after Prefetch", k)
		}
	}
	tab.Store(0x123456789abcdef1, 0x8abcd, -1234, 17, Lower)
	for _, k := range keys {
		tab.Prefetch(k)
	}
	if e, ok := tab.Probe(0x123456789abcdef1); !ok || e.Move != 0x8abcd || e.Score != -1234 || e.Depth != 17 || e.Bound != Lower {
		t.Fatalf("after Prefetch: %+v %v", e, ok)
	}
}
