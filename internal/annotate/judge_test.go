package annotate

import (
	"testing"

	"github.com/riodraughts/rio/internal/eval"
	"github.com/riodraughts/rio/internal/tt"
)

func TestParseThresholds(t *testing.T) {
	th, err := ParseThresholds(" 0.25, 0.5,2")
	if err != nil || th != (Thresholds{25, 50, 200}) {
		t.Errorf("got %v, %v", th, err)
	}
	if th, err := ParseThresholds(DefaultThresholds.String()); err != nil || th != DefaultThresholds {
		t.Errorf("the default does not read back: %v %v", th, err)
	}
	for _, bad := range []string{"", "0.3,0.7", "0.3,0.7,1.5,2", "a,b,c", "0.3,0.2,1", "0,0.5,1", "-1,0.5,1", "NaN,1,2", "0.3,0.7,1e9", "0.001,1,2"} {
		if _, err := ParseThresholds(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestJudge(t *testing.T) {
	th := DefaultThresholds
	for _, c := range []struct {
		best, played, loss int
		nag                NAG
	}{
		{50, 50, 0, NoNAG},
		{50, 80, 0, NoNAG}, // better than the best: search noise, no loss
		{50, 21, 29, NoNAG},
		{50, 20, 30, Inaccuracy},
		{50, -20, 70, Mistake},
		{50, -100, 150, Blunder},
		{tt.Win - 7, tt.Win - 15, 0, NoNAG},              // a slower win is still a win
		{tt.Win - 7, 900, 100, Blunder},                  // a win thrown away, however big the score left
		{eval.KnownWin + 100, 0, clampScore, Blunder},    // a known ending thrown away
		{0, -(tt.Win - 4), clampScore, Blunder},          // into a forced loss
		{-(tt.Win - 9), -(tt.Win - 3), 0, NoNAG},         // lost anyway
		{-300, -(tt.Win - 3), clampScore - 300, Blunder}, // from bad to lost
		{-(tt.Win - 9), 0, 0, NoNAG},                     // a loss escaped
		{tt.Win - 9, -(tt.Win - 2), maxLoss, Blunder},    // the largest loss
		{-2000, -2000 - th.Blunder, 0, NoNAG},            // beyond the clamp nothing counts
		{clampScore - 10, clampScore - 10 - th.Mistake, th.Mistake, Mistake},
	} {
		loss, nag := judge(c.best, c.played, th)
		if loss != c.loss || nag != c.nag {
			t.Errorf("judge(%d, %d) = %d %q, want %d %q", c.best, c.played, loss, nag, c.loss, c.nag)
		}
	}
}

func TestScores(t *testing.T) {
	// A child that has lost (no move) makes its parent a win in 1.
	if s := throughMove(-tt.Win); s != tt.Win-1 {
		t.Errorf("throughMove(-Win) = %d", s)
	}
	if s := throughMove(tt.Win - 4); s != -(tt.Win - 5) {
		t.Errorf("throughMove(win in 4) = %d, want a loss in 5", s)
	}
	if s := throughMove(-37); s != 37 {
		t.Errorf("throughMove(-37) = %d", s)
	}
	for white, want := range map[int]string{35: "0.35", -5: "-0.05", 0: "0.00", tt.Win - 21: "#21", -(tt.Win - 3): "#-3", 1234: "12.34"} {
		if got := FormatScore(white); got != want {
			t.Errorf("FormatScore(%d) = %q, want %q", white, got, want)
		}
	}
}
