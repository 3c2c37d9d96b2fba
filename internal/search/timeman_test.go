package search

import "testing"

// The adaptive soft limit: unchanged for a settled search, grown while
// the best move changes or the score falls, never past 2.5 times nor 70%
// of the hard limit, never below the plain one.
func TestTimeScale(t *testing.T) {
	const soft, hard = 1000, 4000
	var settled timeState
	for d := 1; d <= 10; d++ {
		settled.update(d, d == 1, 20)
	}
	if got := settled.scale(soft, hard); got != soft {
		t.Errorf("settled: %d, want %d", got, soft)
	}
	var unsettled timeState
	for d := 1; d <= 10; d++ {
		unsettled.update(d, true, 20)
	}
	if got := unsettled.scale(soft, hard); got < 1900 || got > 2000 {
		t.Errorf("best move changing every iteration: %d, want about 2x", got)
	}
	var falling timeState
	for d := 1; d <= 10; d++ {
		falling.update(d, false, 50-5*d)
	}
	if got := falling.scale(soft, hard); got != 1500 {
		t.Errorf("score fallen 45: %d, want 1500", got)
	}
	var both timeState
	for d := 1; d <= 10; d++ {
		both.update(d, true, 50-5*d)
	}
	if got := both.scale(soft, hard); got < 2400 || got > 2500 {
		t.Errorf("both: %d, want about the 2.5x cap", got)
	}
	if got := both.scale(soft, 3000); got != 2100 {
		t.Errorf("hard 3000: %d, want 70%% of it", got)
	}
	if got := both.scale(soft, 1200); got != soft {
		t.Errorf("hard close to soft: %d, want the plain soft limit", got)
	}
}
