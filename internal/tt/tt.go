// Package tt is the transposition table the search threads share: a fixed
// array of 16-byte entries grouped in 64-byte buckets (one cache line),
// read and written without locks.
//
// Each entry is two atomic words, key^data and data. A reader accepts an
// entry only when the stored key word XOR the data word gives back its own
// key, so a torn write (another thread replacing the entry between the two
// stores) reads as a miss, never as someone else's data. Replacement keeps,
// within a bucket, the entry that is deepest or of the current search,
// replacing first entries from older searches (ages) and shallow ones.
//
// Entry data (one uint64):
//
//	bits  0-19  move key (see MoveKey): from, to and a fold of the captured set
//	bits 20-35  score (int16), mate scores relative to the node (see ToTT)
//	bits 36-43  depth (uint8)
//	bits 44-45  bound: upper, lower or exact
//	bits 46-53  age: the search generation that wrote it
package tt

import (
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/riodraughts/rio/internal/movegen"
)

// Bound says how a stored score relates to the true score.
type Bound uint8

const (
	NoBound Bound = iota
	Upper         // the true score is at most Score (fail low)
	Lower         // the true score is at least Score (fail high)
	Exact
)

// entry is one slot: the key XORed with the data, and the data.
type entry struct {
	keyXorData atomic.Uint64
	data       atomic.Uint64
}

// EntrySize is the size of one entry in bytes (pinned by a test).
const EntrySize = 16

const bucketSize = 4 // entries per 64-byte bucket

// Table is a transposition table. Its methods are safe for concurrent use.
type Table struct {
	entries []entry
	free    func()
	mask    uint64 // number of buckets - 1
	age     uint8
}

// MinMiB and MaxMiB bound the table size.
const (
	MinMiB = 1
	MaxMiB = 16384
)

// New returns a table of at most sizeMiB mebibytes (rounded down to a
// power of two number of buckets).
func New(sizeMiB int) *Table {
	sizeMiB = min(max(sizeMiB, MinMiB), MaxMiB)
	buckets := uint64(sizeMiB) << 20 / (EntrySize * bucketSize)
	for buckets&(buckets-1) != 0 {
		buckets &= buckets - 1
	}
	t := &Table{mask: buckets - 1}
	t.entries, t.free = allocEntries(int(buckets * bucketSize))
	runtime.AddCleanup(t, func(free func()) { free() }, t.free)
	// Touch every page now: the first touch of fresh memory costs a page
	// fault (with huge pages, zeroing 2 MiB), which belongs to start-up,
	// not to the first search's clock.
	for i := 0; i < len(t.entries); i += 4096 / EntrySize {
		t.entries[i].data.Store(0)
	}
	return t
}

// SizeMiB returns the table size in mebibytes.
func (t *Table) SizeMiB() int { return len(t.entries) * EntrySize >> 20 }

// Clear empties the table (a new game).
func (t *Table) Clear() {
	for i := range t.entries {
		t.entries[i].keyXorData.Store(0)
		t.entries[i].data.Store(0)
	}
	t.age = 0
}

// NewSearch starts a new generation: entries of earlier searches become
// the first to be replaced. Call it before the threads start.
func (t *Table) NewSearch() { t.age++ }

// Entry is what a probe returns.
type Entry struct {
	Move  uint32 // move key, 0 for none
	Score int
	Depth int
	Bound Bound
}

const (
	moveBits  = 20
	scoreShft = 20
	depthShft = 36
	boundShft = 44
	ageShft   = 46
)

func pack(move uint32, score, depth int, b Bound, age uint8) uint64 {
	return uint64(move)&(1<<moveBits-1) |
		uint64(uint16(int16(score)))<<scoreShft |
		uint64(uint8(depth))<<depthShft |
		uint64(b)<<boundShft |
		uint64(age)<<ageShft
}

func unpack(d uint64) Entry {
	return Entry{
		Move:  uint32(d & (1<<moveBits - 1)),
		Score: int(int16(uint16(d >> scoreShft))),
		Depth: int(uint8(d >> depthShft)),
		Bound: Bound(d >> boundShft & 3),
	}
}

func (t *Table) bucket(key uint64) []entry {
	i := (key & t.mask) * bucketSize
	return t.entries[i : i+bucketSize : i+bucketSize]
}

// Prefetch starts loading key's bucket into the cache without waiting
// for it, so that a Probe of key soon after finds it there: the search
// calls it as soon as a child's hash is known, and the work before the
// child's probe (draw counters, history, the node's own checks) hides
// part of the memory's latency, which a table larger than the cache pays
// at nearly every probe.
func (t *Table) Prefetch(key uint64) {
	prefetch(unsafe.Pointer(&t.bucket(key)[0]))
}

// Probe looks key up.
func (t *Table) Probe(key uint64) (Entry, bool) {
	bucket := t.bucket(key)
	for i := range bucket {
		e := &bucket[i]
		d := e.data.Load()
		if e.keyXorData.Load()^d == key && d != 0 {
			return unpack(d), true
		}
	}
	return Entry{}, false
}

// Store records a search result for key. An existing entry for key is
// replaced unless it is deeper and of this search while the new one is not
// exact; otherwise the bucket's least valuable entry (oldest age, then
// shallowest) gives way.
func (t *Table) Store(key uint64, move uint32, score, depth int, b Bound) {
	bucket := t.bucket(key)
	depth = min(max(depth, 0), 255)
	victim := &bucket[0]
	worst := 1 << 30
	for i := range bucket {
		e := &bucket[i]
		d := e.data.Load()
		if e.keyXorData.Load()^d == key && d != 0 {
			old := unpack(d)
			if b != Exact && old.Depth > depth+2 && uint8(d>>ageShft) == t.age {
				return
			}
			if move == 0 {
				move = old.Move // keep the known best move
			}
			victim = e
			break
		}
		// Value of keeping this entry: depth, much more if from this search.
		value := int(uint8(d >> depthShft))
		if uint8(d>>ageShft) == t.age {
			value += 256
		}
		if value < worst {
			worst, victim = value, e
		}
	}
	d := pack(move, score, depth, b, t.age)
	victim.keyXorData.Store(key ^ d)
	victim.data.Store(d)
}

// Hashfull returns how full the table is in per mille, from the first
// thousand entries written by the current search.
func (t *Table) Hashfull() int {
	n := min(1000, len(t.entries))
	used := 0
	for i := range n {
		d := t.entries[i].data.Load()
		if d != 0 && uint8(d>>ageShft) == t.age {
			used++
		}
	}
	return used * 1000 / n
}

// Win is the score of a won position at the root; a win in n plies scores
// Win-n. Scores beyond ±MateBound are wins and losses.
const (
	Win       = 10000
	MateBound = Win - 1000
)

// ToTT converts a score at distance ply from the root to one relative to
// the node, so that a stored win is found again at another distance.
func ToTT(score, ply int) int {
	switch {
	case score > MateBound:
		return score + ply
	case score < -MateBound:
		return score - ply
	}
	return score
}

// FromTT is the inverse of ToTT.
func FromTT(score, ply int) int {
	switch {
	case score > MateBound:
		return score - ply
	case score < -MateBound:
		return score + ply
	}
	return score
}

// MoveKey packs the identity of a move into 20 bits: from (6), to (6) and
// an 8-bit fold of the captured squares. Two legal moves of one position
// practically never share a key; the search matches it against the
// generated moves, so a collision only costs move ordering.
func MoveKey(m movegen.Move) uint32 {
	c := uint64(m.Captured())
	fold := c ^ c>>8 ^ c>>16 ^ c>>24 ^ c>>32
	return uint32(m.From())&63 | (uint32(m.To())&63)<<6 | uint32(fold&0xff)<<12 | 1<<19
}
