package search

import "sync/atomic"

// busyTable marks the positions some thread is searching right now, so
// that the others can search something else first (the "deferred move"
// idea of ABDADA, in Tom Kerrigan's simplified form). It is the only
// shared state besides the transposition table, and only advisory: a lost
// race costs a duplicated subtree, never a wrong score.
//
// Each slot holds the hash of a position under search (0: free). A thread
// marks the child before searching it and clears the slot afterwards if it
// still holds that hash.
type busyTable struct {
	slots []atomic.Uint64
}

// busySlots is the table size (a power of two). At the depths where moves
// are deferred only a few dozen positions per thread are open at once.
const busySlots = 1 << 14

// deferDepth is the least remaining depth of a node whose moves may be
// deferred: below it, subtrees are too small for the overlap to matter.
const deferDepth = 3

func newBusyTable() *busyTable {
	return &busyTable{slots: make([]atomic.Uint64, busySlots)}
}

func (b *busyTable) has(h uint64) bool {
	return b.slots[h&(busySlots-1)].Load() == h
}

func (b *busyTable) mark(h uint64) { b.slots[h&(busySlots-1)].Store(h) }

func (b *busyTable) clear(h uint64) { b.slots[h&(busySlots-1)].CompareAndSwap(h, 0) }

// claimChild is deferral's step after move i at ply has been made (with a
// busy table only): when mayDefer and another thread is searching the
// child, the move is unmade and queued in the frame's deferred list, and
// deferred is true; otherwise the child is marked as searched by this
// thread, until busy.clear(hash).
func (w *worker) claimChild(ply, i int, mayDefer bool, nDeferred *int) (hash uint64, deferred bool) {
	hash = w.stack[ply+1].pos.Hash
	if mayDefer && w.s.busy.has(hash) {
		w.unmakeMove()
		w.stack[ply].deferred[*nDeferred] = uint8(i)
		*nDeferred++
		w.deferrals++
		return 0, true
	}
	w.s.busy.mark(hash)
	return hash, false
}
