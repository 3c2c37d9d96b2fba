package search

// timeState follows the main thread's iterations for Features.AdaptiveTime:
// how unsettled the best move is and how the score moves.
type timeState struct {
	// instability is a decaying count of best-move changes, in hundredths:
	// each change adds 100, each iteration halves it.
	instability int
	// lastScore is the previous iteration's score; drop how far the score
	// has fallen below its best since depth 4.
	lastScore, peak, drop int
	iterations            int
}

// update takes an iteration's result.
func (t *timeState) update(depth int, changed bool, score int) {
	t.instability /= 2
	if changed && depth > 1 {
		t.instability += 100
	}
	// The first iterations' scores swing: the peak counts from depth 4.
	if depth < 4 || score > t.peak {
		t.peak = score
	}
	t.drop = t.peak - score
	t.lastScore = score
	t.iterations++
}

// scale returns the soft limit soft (nanoseconds), grown for an
// unsettled search: up to +100% while the best move keeps changing, +25%
// or +50% when the score has fallen 15 or 30 hundredths below its best;
// at most 2.5 times, and never past 70% of the hard limit.
func (t *timeState) scale(soft, hard int64) int64 {
	factor := int64(100 + min(t.instability, 200)/2)
	switch {
	case t.drop >= 30:
		factor += 50
	case t.drop >= 15:
		factor += 25
	}
	factor = min(factor, 250)
	scaled := soft * factor / 100
	if hard > 0 {
		scaled = min(scaled, hard*7/10)
	}
	return max(scaled, soft)
}
