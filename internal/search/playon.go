package search

import "github.com/riodraughts/rio/internal/tt"

// A move-count rule that draws the game inside the search is a draw, but
// not every host applies it: CheckerBoard, DXP peers, match runners and
// older GUIs play on, and a line that keeps the draw under the rules can
// lose a piece, or the game, the move after. So a node where a rule fires
// is searched once more with that rule off (playOnDepth plies at most),
// and its value, squashed into a band of a few hundredths of a man around
// 0 (squash), ranks the draws: one that keeps what the side has before one
// that loses it, and never any draw above a real advantage. Once a rule
// has drawn the game before the root, the search follows it no more at all
// (game.Game.PlayOn).

// playOnDepth bounds the search past a rule draw: enough to see a piece
// left hanging or a king walked into a shot.
const playOnDepth = 4

// drawBand is the largest squashed value: a rule draw scores within
// [-drawBand, +drawBand] hundredths of a man.
const drawBand = 9

// squash maps a score past a rule draw into the band: 0 within half a man
// of equality, then one hundredth per man up to 7, 8 for a win the
// endgame tables know, 9 for a forced win the search sees (and the
// negatives for losses), so that a king lost at once ranks below one lost
// later, and that below being men down. It is odd (squash(-v) ==
// -squash(v)), as negamax needs.
func squash(v int) int {
	switch {
	case v < 0:
		return -squash(-v)
	case v > tt.MateBound:
		return drawBand
	case v >= knownBound:
		return drawBand - 1
	}
	return min(drawBand-2, (v+50)/100)
}

// knownBound is the least score of a win the tables know (knownWin and
// wdlWin, less the plies and the evaluation's nudge).
const knownBound = wdlWin - MaxPly - 100

// squashFloor returns the least v with squash(v) >= k (-infinity and
// infinity beyond the band).
func squashFloor(k int) int {
	switch {
	case k <= -drawBand:
		return -infinity
	case k <= 0:
		// squash(v) >= k exactly when squash(-v) < 1-k.
		return 1 - squashFloor(1-k)
	case k <= drawBand-2:
		return 100*k - 50
	case k == drawBand-1:
		return knownBound
	case k == drawBand:
		return tt.MateBound + 1
	}
	return infinity
}

// playOn scores node ply, where a move-count rule has just drawn the game,
// by what it is worth if play goes on, squashed (see above). depth 0 asks
// for quiescence (at qply), else a search of at most playOnDepth plies.
func (w *worker) playOn(ply, depth, alpha, beta, qply int) int {
	if !w.feat.PlayOn {
		return 0
	}
	// Outside the band, the window decides without a search.
	if alpha >= drawBand {
		return drawBand
	}
	if beta <= -drawBand {
		return -drawBand
	}
	f := &w.stack[ply]
	rules, counters, left := f.rules, f.counters, f.left
	f.rules = rules.Without(rules.Fired(counters), false)
	f.counters = f.rules.Mask(counters)
	f.left = f.rules.PliesLeft(f.counters)
	f.drawn = false
	// squash(v) <= alpha exactly when v < squashFloor(alpha+1), and
	// squash(v) >= beta when v >= squashFloor(beta).
	lo, hi := max(squashFloor(alpha+1)-1, -infinity), squashFloor(beta)
	var v int
	if depth <= 0 {
		v = w.quiesce(ply, lo, hi, qply)
	} else {
		v = w.alphaBeta(ply, min(depth, playOnDepth), lo, hi)
	}
	f.rules, f.counters, f.left, f.drawn = rules, counters, left, true
	return squash(v)
}
