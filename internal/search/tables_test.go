package search

import (
	"context"
	"testing"

	"github.com/riodraughts/rio/internal/egdb"
	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/rs/zerolog"
)

// A won 5-piece ending is played out in exactly the plies its table
// gives, the winner hurrying and the loser holding out: the 5-piece
// slices keep distances (egdb.DistPieces). Without them every move that
// keeps the win scored alike, and in a portuguese match the engine
// shuffled its kings in won 5-piece endings until a repetition drew the
// game. The set here is brazilian's up to 4 pieces and the slice of four
// kings against one, which leads only into them.
func TestTablesPlayFivePiecesOut(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the 4-piece tables and a 5-piece slice")
	}
	four := egdb.Material{UsKings: 4, ThemKings: 1}
	db, err := egdb.Build(context.Background(), movegen.Brazilian, 5, egdb.Options{
		Threads: 2,
		Keep:    func(m egdb.Material) bool { return m.Pieces() <= egdb.DefaultPieces || m == four },
	})
	if err != nil {
		t.Fatal(err)
	}
	// The lone king holds the long diagonal: a king must be given up to
	// drive it off.
	const fen = "W:WK1,K2,K3,K6:BK18"
	g := newGame(t, movegen.Brazilian, fen)
	p := g.Position()
	v, ok := db.Probe(&p)
	if !ok || v.WDL != egdb.Win || v.Dist <= 0 {
		t.Fatalf("%s: table value %+v, %v; want a win with its distance", fen, v, ok)
	}
	e := NewEngine(16, zerolog.Nop())
	e.Tables = egdb.Serve(db)
	playOut(t, e, g, 3, 2*v.Dist)
	if out := g.Outcome(); out.Result != game.WhiteWins || g.Ply() != v.Dist {
		t.Errorf("game ended %v (%s) after %d plies, want a white win in %d", out.Result, out.Reason, g.Ply(), v.Dist)
	}
}

// playOut plays g on with e on both sides, each move a search of depth
// plies from an empty table, until the game ends or reaches plies plies.
func playOut(t *testing.T, e *Engine, g *game.Game, depth, plies int) {
	t.Helper()
	for g.Outcome().Result == game.Ongoing && g.Ply() < plies {
		e.TT.Clear()
		res := e.Run(context.Background(), g, Limits{Depth: depth}, Options{Threads: 1}, nil)
		if err := g.Play(res.Move); err != nil {
			t.Fatal(err)
		}
	}
}

// Won 5-piece endings longer than a counting rule allows are still
// played out at depth 6 when the winner can restart the rule: the table's
// win stays a known one (restartable) and steers the search. Before, a
// node whose table distance was past the rule's draw was searched blind
// to the tables, and match games drew such endings by the rules: 16 of 73
// first table wins of three 400-game matches (distances 48-91), played
// out at depth 6, this one among them. Brazilian, 5 pieces with a king on
// each side: the kings-only rule (30 plies, a man move restarts it) and
// the balance rule (60 plies, only a capture or a promotion restarts it)
// count from the start, and the table's win takes 74 plies.
func TestTablesWinPastACountingRule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the 4-piece tables and 5-piece slices")
	}
	for _, c := range []struct {
		v   *movegen.Variant
		fen string
		win game.Result
	}{
		{movegen.Brazilian, "B:W13,K18,30:B21,K31", game.WhiteWins},
	} {
		g := newGame(t, c.v, c.fen)
		p := g.Position()
		db, err := egdb.Build(context.Background(), c.v, 5, egdb.Options{Threads: 2, Keep: promotionsOf(&p)})
		if err != nil {
			t.Fatal(err)
		}
		v, ok := db.Probe(&p)
		if left := g.Rules().PliesLeft(g.Counters()); !ok || v.WDL == egdb.Draw || v.Dist <= min(left, 40) {
			t.Fatalf("%s: table value %+v, %v, %d plies left by the rules; want a result longer than the rules allow", c.fen, v, ok, left)
		}
		e := NewEngine(16, zerolog.Nop())
		e.Tables = egdb.Serve(db)
		playOut(t, e, g, 6, 3*v.Dist)
		if out := g.Outcome(); out.Result != c.win || g.Ply() != v.Dist {
			t.Errorf("%s %s: game ended %v (%s) after %d plies, want %v in %d", c.v, c.fen, out.Result, out.Reason, g.Ply(), c.win, v.Dist)
		}
	}
}

// promotionsOf returns a Keep for egdb.Build: the set up to
// egdb.DefaultPieces and the slices of p's piece count that p's material
// reaches by promotions (captures lead into the smaller set), seen with
// White as "us" (Build keeps each slice's swapped partner with it).
func promotionsOf(p *movegen.Position) func(egdb.Material) bool {
	m := game.MaterialOf(p)
	return func(s egdb.Material) bool {
		if s.Pieces() <= egdb.DefaultPieces {
			return true
		}
		kings, men := [2]int{s.UsKings, s.ThemKings}, [2]int{s.UsMen, s.ThemMen}
		for c := range 2 {
			if kings[c]+men[c] != m.Kings[c]+m.Men[c] || kings[c] < m.Kings[c] {
				return false
			}
		}
		return true
	}
}
