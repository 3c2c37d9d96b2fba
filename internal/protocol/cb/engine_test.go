package cb

import (
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/riodraughts/rio/internal/movegen"
)

// searching starts a getmove of b (white to move) that runs until stop is
// called, and returns once the search runs: PlayNow is polled only then.
// stop returns getmove's result.
func searching(e *Engine, b *Board, mv *CBMove) (stop func() int) {
	running := make(chan struct{})
	var once sync.Once
	var now atomic.Bool
	done := make(chan int, 1) // a test that fails before stop leaks nothing
	go func() {
		done <- e.GetMove(b, Request{Color: white, MaxTime: 60, PlayNow: func() bool {
			once.Do(func() { close(running) })
			return now.Load()
		}}, mv)
	}()
	<-running
	return func() int {
		now.Store(true)
		return <-done
	}
}

// The GUI may send enginecommand while getmove searches (Engine ->
// Command..., or its own set commands): the commands that change the
// variant, the transposition table or the endgame tables leave the running
// search alone (go test -race sees any access that does not), are
// answered at once, and take effect at the next getmove.
func TestSettingsDuringSearch(t *testing.T) {
	e := newTestEngine(t)
	dir := t.TempDir()
	// No endgame table is built here: the searches start from 24 pieces,
	// too far from the tables for getmove to prepare them.
	cycle := []string{
		"set gametype 26", "set hashsize 2", "set enable_wld 1", "set max_dbpieces 3",
		"set dbpath " + dir, "set gametype 25", "set hashsize 1", "set dbpath",
		"set max_dbpieces 4", "set enable_wld 0",
	}
	for round := range 5 {
		p, b := boardOf(t, movegen.Russian, movegen.Russian.StartFEN)
		var mv CBMove
		stop := searching(e, &b, &mv)
		for i := range 3 * len(cycle) {
			cmd := cycle[(round+i)%len(cycle)]
			if r, ok := e.Command(cmd); !ok {
				t.Fatalf("round %d: %q during a search: %s", round, cmd, r)
			}
		}
		stop()
		// The start's moves are the same in both variants.
		checkPlayed(t, movegen.Russian, &p, &b, &mv)
	}

	// Russian with a 1 MiB table and no endgame tables, made by a getmove.
	for _, cmd := range []string{"set gametype 25", "set hashsize 1", "set enable_wld 0"} {
		mustCommand(t, e, cmd)
	}
	_, b := boardOf(t, movegen.Russian, movegen.Russian.StartFEN)
	var mv CBMove
	e.GetMove(&b, Request{Color: white, MaxTime: 0.01}, &mv)
	checkSearchState(t, e, movegen.Russian, 1, 0)

	// Changed during a search: answered with the new values at once.
	_, b = boardOf(t, movegen.Russian, movegen.Russian.StartFEN)
	stop := searching(e, &b, &mv)
	for _, c := range []struct{ set, get, want string }{
		{"set gametype 26", "get gametype", "26"},
		{"set hashsize 2", "get hashsize", "2"},
		{"set enable_wld 1", "get enable_wld", "1"},
		{"set max_dbpieces 3", "get max_dbpieces", "3"},
	} {
		mustCommand(t, e, c.set)
		if r := mustCommand(t, e, c.get); r != c.want {
			t.Errorf("%q during a search: %q answers %q", c.set, c.get, r)
		}
	}
	stop()
	checkSearchState(t, e, movegen.Russian, 1, 0) // untouched until then

	// The next getmove plays brazilian: black's one brazilian move takes
	// two men and stops on the crowning row; in russian the man, crowned
	// on 31, would go on as a king (13x20), or 21x14 would be legal.
	p, b := boardOf(t, movegen.Brazilian, "B:W17,24,26,28,29,32:B1,3,4,6,9,13,16,21")
	e.GetMove(&b, Request{Color: black, MaxTime: 0.05}, &mv)
	checkPlayed(t, movegen.Brazilian, &p, &b, &mv)
	checkSearchState(t, e, movegen.Brazilian, 2, 3)
}

// checkSearchState checks what the last getmove searched with: the table
// of variant v's entries and of hashMiB MiB, endgame tables of up to
// pieces pieces (0: none).
func checkSearchState(t *testing.T, e *Engine, v *movegen.Variant, hashMiB, pieces int) {
	t.Helper()
	e.searchMu.Lock()
	defer e.searchMu.Unlock()
	st := &e.state
	if st.variant != v || st.engine.TT.SizeMiB() != hashMiB {
		t.Errorf("the search used a table of %s entries and %d MiB, want %s and %d", st.variant, st.engine.TT.SizeMiB(), v, hashMiB)
	}
	if tb := st.engine.Tables; tb != st.tables || pieces == 0 && tb != nil || pieces > 0 && (tb == nil || tb.Pieces != pieces) {
		t.Errorf("the search used other endgame tables than those of up to %d pieces", pieces)
	}
}

// New plays the game type the library's build gives it.
func TestNew(t *testing.T) {
	for _, gt := range []int{GameTypeRussian, GameTypeBrazilian} {
		if r := mustCommand(t, New(gt), "get gametype"); r != strconv.Itoa(gt) {
			t.Errorf("New(%d): get gametype answers %s", gt, r)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("New(21) did not panic")
		}
	}()
	New(21)
}
