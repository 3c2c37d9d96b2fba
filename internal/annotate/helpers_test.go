package annotate

import (
	"bytes"
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/search"
	"github.com/rs/zerolog"
)

// testOptions are quick, deterministic settings.
func testOptions(nodes int64, threads int) Options {
	return Options{Limits: search.Limits{Nodes: nodes}, Threads: threads, HashMiB: 1, Log: zerolog.Nop()}
}

// annotateText annotates the games of a PDN text and returns the PDN
// written and the analyses.
func annotateText(t testing.TB, text string, opt Options) (string, []*Game) {
	t.Helper()
	games, err := Read(strings.NewReader(text), movegen.Brazilian)
	if err != nil {
		t.Fatalf("reading: %v\n%s", err, text)
	}
	var out bytes.Buffer
	var done []*Game
	err = Run(context.Background(), games, opt, func(a *Game) error {
		done = append(done, a)
		return WritePDN(&out, a, DefaultPVPlies)
	})
	if err != nil {
		t.Fatal(err)
	}
	return out.String(), done
}

// engineGame plays plies moves from fen, each the best of a fresh search
// of nodes nodes, and returns the game.
func engineGame(t testing.TB, v *movegen.Variant, fen string, plies int, nodes int64) *game.Game {
	t.Helper()
	p, err := v.ParsePosition(fen)
	if err != nil {
		t.Fatal(err)
	}
	g := game.New(v, p)
	e := search.NewEngine(1, zerolog.Nop())
	for g.Ply() < plies && g.Outcome().Result == game.Ongoing {
		e.TT.Clear()
		res := e.Run(context.Background(), g, search.Limits{Nodes: nodes}, search.Options{Threads: 1}, nil)
		if err := g.Play(res.Move); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// randomGame plays plies random legal moves from v's start.
func randomGame(v *movegen.Variant, seed uint64, plies int) *game.Game {
	rng := rand.New(rand.NewPCG(seed, 7))
	g := game.New(v, v.Start())
	var buf [movegen.MaxMoves]movegen.Move
	for g.Ply() < plies && g.Outcome().Result == game.Ongoing {
		p := g.Position()
		moves := v.Generate(&p, buf[:0])
		g.Play(moves[rng.IntN(len(moves))])
	}
	return g
}

// pdnOf writes g as PDN with result r.
func pdnOf(t testing.TB, g *game.Game, r game.Result) string {
	t.Helper()
	var b bytes.Buffer
	if err := g.WritePDN(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// searchScore is the score of p for its side to move by a fresh search.
func searchScore(v *movegen.Variant, p movegen.Position, depth int) int {
	e := search.NewEngine(1, zerolog.Nop())
	return e.Run(context.Background(), game.New(v, p), search.Limits{Depth: depth}, search.Options{Threads: 1, Analysis: true}, nil).Score
}
