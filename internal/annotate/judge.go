package annotate

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/riodraughts/rio/internal/eval"
	"github.com/riodraughts/rio/internal/tt"
)

// NAG is a move's mark.
type NAG uint8

const (
	NoNAG NAG = iota
	Inaccuracy
	Mistake
	Blunder
)

// String returns the mark as PDN writes it after a move: "?!", "?", "??"
// or "".
func (n NAG) String() string { return [...]string{"", "?!", "?", "??"}[n] }

// Thresholds are the losses, in hundredths of a man, from which a move is
// an inaccuracy, a mistake and a blunder.
type Thresholds struct{ Inaccuracy, Mistake, Blunder int }

// DefaultThresholds are 0.3, 0.7 and 1.5 men.
var DefaultThresholds = Thresholds{30, 70, 150}

// ParseThresholds reads "0.3,0.7,1.5": three losses in men, positive and
// not decreasing.
func ParseThresholds(s string) (Thresholds, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 3 {
		return Thresholds{}, fmt.Errorf("thresholds %q: want three losses in men, inaccuracy,mistake,blunder (like 0.3,0.7,1.5)", s)
	}
	var v [3]int
	for i, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(f) || f <= 0 || f > maxLoss/100 {
			return Thresholds{}, fmt.Errorf("thresholds %q: %q is not a loss in men above 0 and at most %d", s, p, maxLoss/100)
		}
		v[i] = int(math.Round(f * 100))
		if v[i] == 0 {
			return Thresholds{}, fmt.Errorf("thresholds %q: %q is below 0.01 men", s, p)
		}
		if i > 0 && v[i] < v[i-1] {
			return Thresholds{}, fmt.Errorf("thresholds %q: they must not decrease (inaccuracy <= mistake <= blunder)", s)
		}
	}
	return Thresholds{v[0], v[1], v[2]}, nil
}

func (t Thresholds) String() string {
	return fmt.Sprintf("%s,%s,%s", men(t.Inaccuracy), men(t.Mistake), men(t.Blunder))
}

// clampScore bounds the scores a loss is computed from: beyond it one
// more man does not matter.
const clampScore = 1000

// maxLoss is the largest loss a move can have (from +10 to -10 men).
const maxLoss = 2 * clampScore

// decided reports a score that is a decided result for the side it is
// from: a forced win, a table win, or an ending the evaluation knows as
// won (eval.KnownWin and above; no evaluation of an open position comes
// near).
func decided(score int) bool { return score >= eval.KnownWin }

// judge returns the loss of a move that scores played where the best
// scores best (both from the mover's view) and its NAG.
func judge(best, played int, th Thresholds) (loss int, nag NAG) {
	clamp := func(s int) int { return max(-clampScore, min(clampScore, s)) }
	loss = max(0, clamp(best)-clamp(played))
	switch {
	case decided(best) && !decided(played), decided(-played) && !decided(-best):
		return loss, Blunder
	case loss >= th.Blunder:
		return loss, Blunder
	case loss >= th.Mistake:
		return loss, Mistake
	case loss >= th.Inaccuracy:
		return loss, Inaccuracy
	}
	return loss, NoNAG
}

// throughMove returns the score of a position whose move leads to a
// position scoring child (from its own side to move): the negation, a win
// or loss one ply further away.
func throughMove(child int) int {
	switch {
	case child > tt.MateBound:
		return -child + 1
	case child < -tt.MateBound:
		return -child - 1
	}
	return -child
}

// men writes hundredths of a man as men with two decimals.
func men(centi int) string { return strconv.FormatFloat(float64(centi)/100, 'f', 2, 64) }
