package search

import (
	"fmt"

	"github.com/riodraughts/rio/internal/tt"
)

// MateIn decodes a score (from the search, the endgame tables or a game
// over, for the side it belongs to) that is a forced result: plies is the
// number of plies to the end of the game, positive when that side wins
// (tt.Win-n: a win in n plies), negative when it loses (-(tt.Win-n): a
// loss in n plies), and ok is true. A side that has already lost (-tt.Win,
// no move left) is 0, true. Any other score gives 0, false.
func MateIn(score int) (plies int, ok bool) {
	switch {
	case score > tt.MateBound:
		return tt.Win - score, true
	case score < -tt.MateBound:
		return -(tt.Win + score), true
	}
	return 0, false
}

// ScoreText writes a score for people, the same in every host's display:
// men with a sign and two decimals ("+0.35", "-1.00"), or a forced result
// with its unit ("win in 7 plies", "loss in 1 ply", "lost" when no move is
// left). Protocols keep their own forms (Hub: the score over 100).
func ScoreText(score int) string {
	n, ok := MateIn(score)
	switch {
	case !ok:
		return fmt.Sprintf("%+.2f", float64(score)/100)
	case n == 0:
		return "lost"
	case n > 0:
		return "win in " + plies(n)
	}
	return "loss in " + plies(-n)
}

func plies(n int) string {
	if n == 1 {
		return "1 ply"
	}
	return fmt.Sprintf("%d plies", n)
}
