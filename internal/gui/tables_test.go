package gui

import (
	"net/url"
	"testing"
	"time"

	"github.com/riodraughts/rio/internal/egdb"
	"github.com/riodraughts/rio/internal/movegen"
)

// A position within the endgame tables gets their value, in /api/game
// once the tables are ready (the first such request starts them) and in
// the analysis reports; a position outside them gets none.
func TestTableValue(t *testing.T) {
	tables := egdb.NewTables(egdb.DefaultPieces, "")
	tables.Cache = t.TempDir()
	h := newHarness(t, Config{Tables: tables})
	const fen = "W:WK29,31:BK3"
	v := movegen.Brazilian
	p, err := v.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	table := func(fen string) string {
		t.Helper()
		var st struct {
			Table string `json:"table"`
		}
		h.ok("/api/game", gameReq{Variant: v.Name, FEN: fen}, &st)
		return st.Table
	}
	table(fen) // starts making the tables ready
	want, ok := tables.Wait(v).Probe(&p)
	if !ok {
		t.Fatalf("%s is not in the tables", fen)
	}
	if got := table(fen); got != want.String() {
		t.Errorf("/api/game table %q, want %q", got, want)
	}
	if got := table(""); got != "" {
		t.Errorf("start position: table %q, want none", got)
	}

	q := url.Values{"tab": {"egdb"}, "variant": {v.Name}, "fen": {fen}}
	st := h.analyse(q)
	defer st.cancel()
	a, ok := st.next(t, 10*time.Second)
	if !ok {
		t.Fatal("the analysis stream ended without a report")
	}
	if a.Table != want.String() {
		t.Errorf("analysis report: table %q, want %q", a.Table, want)
	}
}
