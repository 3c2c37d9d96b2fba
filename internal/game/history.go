package game

// History is the repetition view the search consults per node: the hashes
// of the positions since the last irreversible move of the game, then those
// of the search path, each with the number of plies since the last
// irreversible move. Push and Pop follow the search; nothing allocates
// once the capacity is reached.
type History struct {
	entries []historyEntry
}

type historyEntry struct {
	hash uint64
	// run is the number of reversible plies that led to this position: a
	// repetition can only be found among the run positions before it.
	run int32
}

// NewHistory returns an empty history with room for capacity positions.
func NewHistory(capacity int) *History {
	return &History{entries: make([]historyEntry, 0, capacity)}
}

// Push records the position reached, with hash, by a move that was
// irreversible (a man move or a capture) or not. The first position pushed
// starts a run.
func (h *History) Push(hash uint64, irreversible bool) {
	run := int32(0)
	if n := len(h.entries); n > 0 && !irreversible {
		run = h.entries[n-1].run + 1
	}
	h.entries = append(h.entries, historyEntry{hash, run})
}

// Pop forgets the last position pushed.
func (h *History) Pop() { h.entries = h.entries[:len(h.entries)-1] }

// Len returns the number of positions held.
func (h *History) Len() int { return len(h.entries) }

// Reset empties the history, keeping its capacity.
func (h *History) Reset() { h.entries = h.entries[:0] }

// Repetitions returns how many earlier positions, with the same side to
// move, equal the last one pushed (0 when it is new).
func (h *History) Repetitions() int {
	n := len(h.entries)
	if n == 0 {
		return 0
	}
	last := h.entries[n-1]
	count := 0
	for i := n - 3; i >= n-1-int(last.run) && i >= 0; i -= 2 {
		if h.entries[i].hash == last.hash {
			count++
		}
	}
	return count
}

// ReversiblePlies returns the plies since the last irreversible move.
func (h *History) ReversiblePlies() int {
	if len(h.entries) == 0 {
		return 0
	}
	return int(h.entries[len(h.entries)-1].run)
}
