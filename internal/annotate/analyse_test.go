package annotate

import (
	"context"
	"strings"
	"testing"

	"github.com/riodraughts/rio/internal/egdb"
	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/tt"
)

// blunderFEN is a brazilian position where White's best move wins
// material and 14-9 gives it away (the test checks both with searches).
const blunderFEN = "W:W14,15,16,19,30,32:B2,5,7,8,13,20"

func TestBlunderMarked(t *testing.T) {
	v := movegen.Brazilian
	p, _ := v.ParseFEN(blunderFEN)
	bad, err := v.ParseMove(&p, "14-9")
	if err != nil {
		t.Fatal(err)
	}
	// The premise, by searches of every move independent of the
	// annotation: the best move wins material, 14-9 loses it.
	var buf [movegen.MaxMoves]movegen.Move
	winning := map[movegen.Move]bool{}
	bestScore := -tt.Win
	for _, m := range v.Generate(&p, buf[:0]) {
		s := -searchScore(v, p.Play(m), 10)
		if s >= 150 {
			winning[m] = true
		}
		bestScore = max(bestScore, s)
	}
	badScore := -searchScore(v, p.Play(bad), 10)
	if bestScore < 150 || badScore > -100 || len(winning) == 0 {
		t.Fatalf("premise: best %d, 14-9 %d", bestScore, badScore)
	}

	text := "[Event \"blunder\"]\n[FEN \"" + blunderFEN + "\"]\n1. 14-9 *\n"
	out, games := annotateText(t, text, testOptions(20000, 1))
	m := games[0].Moves[0]
	if m.NAG != Blunder || !winning[m.Before.Best] || m.Loss < 150 {
		t.Fatalf("14-9: NAG %q, best %s, loss %d; want ?? with a winning move\n%s", m.NAG, v.FormatMove(m.Before.Best), m.Loss, out)
	}
	style := game.PDNStyleOf(v)
	wantVar := "(1. " + v.FormatPDN(&p, m.Before.Best, style) + " "
	if !strings.Contains(out, "1. c5-b6?? {[%eval ") || !strings.Contains(out, wantVar) {
		t.Errorf("no ?? with a variation %q...:\n%s", wantVar, out)
	}
	if s := games[0].Sides[movegen.White]; s.NAGs[Blunder] != 1 || s.Moves != 1 || !strings.Contains(out, `[WhiteBlunders "1"]`) {
		t.Errorf("white's summary %+v\n%s", s, out)
	}
}

// TestQuietGame: a balanced opening continued by the engine's own moves
// has no blunder, and a move that is the engine's best is never marked.
// The moves are searched five times deeper than the annotation searches:
// at the same 20,000 nodes a move, a shot one search misses and the next
// finds (russian, 5. c1-b2 with the network's weights, -1.4 men at depth
// 16 with either weights) is a real blunder, not the annotator's error.
func TestQuietGame(t *testing.T) {
	for _, v := range movegen.Variants {
		fen := "W:W17,21,22,23,24,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,11,12,13,15" // a ballot opening
		if v == movegen.Portuguese {
			fen = "startpos"
		}
		g := engineGame(t, v, fen, 16, 100000)
		_, games := annotateText(t, pdnOf(t, g, game.Ongoing), testOptions(20000, 1))
		a := games[0]
		if len(a.Moves) != g.Ply() {
			t.Fatalf("%s: %d moves annotated of %d", v.Name, len(a.Moves), g.Ply())
		}
		for _, m := range a.Moves {
			if m.NAG == Blunder {
				t.Errorf("%s ply %d %s: ?? (best %s, loss %d)", v.Name, m.Ply, v.FormatMove(m.Move), v.FormatMove(m.Before.Best), m.Loss)
			}
			if m.Move == m.Before.Best && (m.NAG != NoNAG || m.Loss != 0) {
				t.Errorf("%s ply %d: the best move marked %q, loss %d", v.Name, m.Ply, m.NAG, m.Loss)
			}
			if m.NAG != NoNAG && m.Loss < DefaultThresholds.Inaccuracy {
				t.Errorf("%s ply %d: %q for a loss of %d", v.Name, m.Ply, m.NAG, m.Loss)
			}
			if m.Before.Source == Searched && (m.Before.Depth < 1 || len(m.Before.PV) == 0 || m.Before.PV[0] != m.Before.Best) {
				t.Errorf("%s ply %d: search depth %d, pv %v, best %v", v.Name, m.Ply, m.Before.Depth, m.Before.PV, m.Before.Best)
			}
		}
	}
}

// TestForcedAndOver: a position with one legal move is not searched and
// takes the value of the next; a game that ends by a move gets no
// evaluation after it.
func TestForcedAndOver(t *testing.T) {
	// Black's 5x14 is forced; after White's 2. 18x9 Black has no piece.
	text := "[FEN \"W:W14,18,23:B5\"]\n1. 14-9 5x14 2. 18x9 2-0\n"
	out, games := annotateText(t, text, testOptions(2000, 1))
	a := games[0]
	if len(a.Moves) != 3 {
		t.Fatalf("%d moves\n%s", len(a.Moves), out)
	}
	forced, last := a.Moves[1], a.Moves[2]
	if !forced.Forced() || forced.Before.Depth != forced.After.Depth || forced.Before.Score != throughMove(forced.After.Score) {
		t.Errorf("forced move: %+v", forced)
	}
	if last.After.Source != GameOver || last.Played != tt.Win-1 || strings.Contains(out, "d4xb6 {") {
		t.Errorf("last move: %+v\n%s", last, out)
	}
	if a.Sides[movegen.Black].Moves != 0 {
		t.Errorf("a forced move was judged: %+v", a.Sides)
	}
}

// TestTables: positions inside the endgame tables get their value, with
// the move the tables choose, instead of a search.
func TestTables(t *testing.T) {
	v := movegen.Russian
	tables := egdb.NewTables(egdb.DefaultPieces, "")
	tables.Cache = t.TempDir()
	db := tables.Wait(v)
	if db == nil {
		t.Fatal("no tables")
	}
	opt := testOptions(2000, 1)
	opt.Tables = tables
	// Three kings against one: a win the tables count in plies.
	g := engineGame(t, v, "W:WK29,K31,K32:BK4", 4, 2000)
	out, games := annotateText(t, pdnOf(t, g, game.Ongoing), opt)
	found := 0
	for i, m := range games[0].Moves {
		p := g.PositionAt(i + 1)
		val, ok := db.Probe(&p)
		if m.After.Source != FromTable {
			continue
		}
		found++
		if !ok || m.After.Table != val || m.After.Score != tableScore(val) || m.After.Depth != 0 {
			t.Errorf("ply %d: %+v, tables say %v", m.Ply, m.After, val)
		}
		if note := "egdb: " + TableNote(val, p.Side); !strings.Contains(out, note) {
			t.Errorf("ply %d: no %q in\n%s", m.Ply, note, out)
		}
	}
	if found == 0 {
		t.Errorf("no position valued from the tables:\n%s", out)
	}
	// The tables' best move keeps the win.
	p := g.Start()
	e, ok := (&analyser{opt: opt}).fromTables(game.New(v, p), &p)
	if ok {
		q := p.Play(e.Best)
		if val, _ := db.Probe(&q); throughMove(tableScore(val)) != e.Score {
			t.Errorf("best move %s scores %d, the position %d", v.FormatMove(e.Best), throughMove(tableScore(val)), e.Score)
		}
	}
	_ = context.Background
}
