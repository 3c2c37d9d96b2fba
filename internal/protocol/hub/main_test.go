package hub

import (
	"os"
	"testing"
)

// TestMain keeps the sessions' built-in endgame tables at 4 pieces: the
// 5-piece set (the default where there is a cache) takes half a minute
// of a core to solve, and every session that nears an endgame would
// start it (internal/egdb's TestTablesExtend tests the extension;
// TestDefaultTablePieces the default).
func TestMain(m *testing.M) {
	os.Setenv("RIO_EGDB_PIECES", "4")
	os.Exit(m.Run())
}

// egdb-pieces defaults to the cached 5-piece tables; $RIO_EGDB_PIECES sets
// another default within 0-5, and any other value is passed over.
func TestDefaultTablePieces(t *testing.T) {
	for env, want := range map[string]int{"": 5, "4": 4, "0": 0, "5": 5, "6": 5, "-1": 5, "four": 5} {
		t.Setenv("RIO_EGDB_PIECES", env)
		if got := defaultTablePieces(); got != want {
			t.Errorf("RIO_EGDB_PIECES=%q: %d, want %d", env, got, want)
		}
	}
}
