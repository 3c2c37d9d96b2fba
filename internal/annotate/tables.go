package annotate

import (
	"github.com/riodraughts/rio/internal/egdb"
	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/tt"
)

// fromTables values p (the current position of g) from the endgame
// tables, when it is in them and their value holds under the draw rules:
// a draw, or a win or loss shorter than any move-count rule counting or
// able to start (the test the search applies before it trusts a table
// distance). The best move is the one whose successor the tables value
// best, its line followed in the tables.
func (a *analyser) fromTables(g *game.Game, p *movegen.Position) (Eval, bool) {
	db := a.opt.Tables.Ready(g.Variant)
	if db == nil {
		return Eval{}, false
	}
	val, ok := db.Probe(p)
	if !ok || !holds(g, p, val) {
		return Eval{}, false
	}
	e := Eval{Score: tableScore(val), Source: FromTable, Table: val}
	q := *p
	for len(e.PV) < DefaultPVPlies {
		m, ok := tableBest(g.Variant, db, &q)
		if !ok {
			break
		}
		e.PV = append(e.PV, m)
		q = q.Play(m)
	}
	if len(e.PV) > 0 {
		e.Best = e.PV[0]
	}
	return e, true
}

// holds reports whether a table value of the current position of g is its
// value under the move-count draw rules too.
func holds(g *game.Game, p *movegen.Position, val egdb.Value) bool {
	if val.WDL == egdb.Draw {
		return true // the rules only add draws
	}
	// Without a distance (Dist < 0) the rules may draw it first.
	rules := g.Rules()
	return rules.DistanceHolds(rules.PliesLeft(g.Counters()), game.MaterialOf(p), val.Dist)
}

// tableScore is a table value as a search score.
func tableScore(val egdb.Value) int {
	switch val.WDL {
	case egdb.Win:
		return tt.Win - val.Dist
	case egdb.Loss:
		return -(tt.Win - val.Dist)
	}
	return 0
}

// tableBest returns the move of p whose successor the tables value best
// for the mover (the first of equals), or false when p has no move or a
// successor is not in the tables.
func tableBest(v *movegen.Variant, db *egdb.DB, p *movegen.Position) (movegen.Move, bool) {
	var buf [movegen.MaxMoves]movegen.Move
	best, bestScore := movegen.NoMove, 0
	for _, m := range v.Generate(p, buf[:0]) {
		q := p.Play(m)
		val, ok := db.Probe(&q)
		if !ok {
			return movegen.NoMove, false
		}
		if s := throughMove(tableScore(val)); best == movegen.NoMove || s > bestScore {
			best, bestScore = m, s
		}
	}
	return best, best != movegen.NoMove
}
