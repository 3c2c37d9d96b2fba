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
