// Package eval scores positions for the search, in hundredths of a man
// from the side to move's point of view. It owns two evaluations and the
// endgame knowledge both share.
//
// The learned evaluation (the default; learned.go, layout.go) is linear in
// features that logistic regression fits to self-play games (internal/train):
// 15 overlapping 4x4 windows of the men (3^8 configurations each), plus
// material with king-count interactions, king mobility, the long diagonal,
// runaway men, tempo, balance and the side to move; every weight has an
// opening and an endgame value mixed by the pieces left. The weights are
// data: one file per variant (weightsfile.go), embedded, or loaded with
// eval-file. Black's features are White's on the turned board, and each
// window's weights are folded with those of its turned twin when a file is
// loaded, so one table lookup per window scores both colours and a
// position and its colour-flipped twin score the same by construction. A
// weights file may carry a small network (network.go: the pieces seen from
// the side to move, 32 clipped-ReLU units) whose output adds to the
// patterns' score, for what a sum over windows cannot see; seen from the
// side to move, it is colour-symmetric by construction too.
//
// The classic evaluation (this file) is hand-made: a weighted sum of
// features whose weights live in one Weights value per variant. Every
// feature is computed for White on the board and for Black on the board
// turned 180 degrees with colours swapped, by the same code, so it is
// colour-symmetric too (a test checks both).
//
// Both defer to the endgame knowledge (endgame.go) where the draw rules or
// known theory decide.
package eval

import (
	"github.com/riodraughts/rio/internal/movegen"
)

// Weights are one variant's evaluation weights, in hundredths of a man.
type Weights struct {
	Man, King int
	// Advance[r] rewards a man r rows away from its own back row.
	Advance [8]int
	// Centre rewards a man on the four central files (c-f) of rows 2-5.
	Centre int
	// BackRank rewards each man still on the back row while the opponent
	// has men that could promote there; Golden adds to it for the two
	// back-row squares that guard the most.
	BackRank, Golden int
	// Balance is the penalty per man of difference between the left and
	// the right half of the board.
	Balance int
	// Runaway[r] rewards a man r rows from promotion that no enemy piece
	// can stop (free cone ahead, no enemy king).
	Runaway [8]int
	// KingMobility rewards each free square a king reaches.
	KingMobility int
	// Diagonal rewards a king on the long diagonal (a1-h8).
	Diagonal int
	// Tempo rewards the side to move.
	Tempo int
}

// standard are the weights brazilian and russian start from.
var standard = Weights{
	Man:          100,
	King:         300,
	Advance:      [8]int{0, 2, 4, 7, 11, 16, 24, 0},
	Centre:       5,
	BackRank:     6,
	Golden:       6,
	Balance:      3,
	Runaway:      [8]int{0, 150, 110, 70, 40, 0, 0, 0},
	KingMobility: 2,
	Diagonal:     20,
	Tempo:        3,
}

// model is a variant's weights with the tables derived from them.
type model struct {
	w   Weights
	men [64]int // manTable(&w)
}

func newModel(w Weights) *model { return &model{w, manTable(&w)} }

var (
	brazilian  = newModel(standard)
	russian    = newModel(standard)
	portuguese = newModel(func() Weights {
		w := standard
		w.Runaway = [8]int{0, 160, 120, 80, 40, 0, 0, 0} // men cannot be caught from behind
		return w
	}())
)

func modelOf(v *movegen.Variant) *model {
	switch v {
	case movegen.Portuguese:
		return portuguese
	case movegen.Russian:
		return russian
	}
	return brazilian
}

// WeightsOf returns the weights of v.
func WeightsOf(v *movegen.Variant) *Weights { return &modelOf(v).w }

// Score bounds: no evaluation reaches a won score (tt.MateBound), and the
// endgame knowledge keeps decisive evaluations below KnownWin+1000.
const KnownWin = 5000

// Evaluate returns the score of p for the side to move.
func Evaluate(v *movegen.Variant, p *movegen.Position) int {
	m := modelOf(v)
	w := &m.w
	if s, ok := endgame(v, w, p); ok {
		return s
	}
	white := m.side(p.Pieces[movegen.White], p.Pieces[movegen.Black], p.Kings, p.Occupied())
	// Black is scored as White on the board turned 180 degrees.
	black := m.side(p.Pieces[movegen.Black].Flip(), p.Pieces[movegen.White].Flip(), p.Kings.Flip(), p.Occupied().Flip())
	s := white - black
	s = scaleKingsOnly(p, s)
	if p.Side == movegen.Black {
		s = -s
	}
	return s + w.Tempo
}

// side scores the pieces own (moving up the board, as White) against opp.
func (m *model) side(own, opp, kings, occupied movegen.Bitboard) int {
	w := &m.w
	men := own &^ kings
	ownKings := own & kings
	oppMen := opp &^ kings
	oppKings := opp & kings
	s := men.Count()*w.Man + ownKings.Count()*w.King

	for b := men; b != 0; b &= b - 1 {
		s += m.men[b.First()]
	}
	if oppMen != 0 {
		back := men & movegen.Row7
		s += back.Count()*w.BackRank + (back&golden).Count()*w.Golden
	}
	left := (men & leftHalf).Count()
	right := (men &^ leftHalf).Count()
	if d := left - right; d > 0 {
		s -= d * w.Balance
	} else {
		s += d * w.Balance
	}
	if oppKings == 0 {
		// Only men near promotion can be runaways (Runaway is zero beyond).
		for b := men & runawayRows; b != 0; b &= b - 1 {
			sq := b.First()
			if cone[sq]&opp == 0 {
				s += w.Runaway[rowsToGo[sq]]
			}
		}
	}
	empty := movegen.Valid &^ occupied
	for b := ownKings; b != 0; b &= b - 1 {
		sq := b.First()
		s += movegen.KingReach(sq, empty).Count() * w.KingMobility
		if longDiagonal.Has(sq) {
			s += w.Diagonal
		}
	}
	return s
}

// scaleKingsOnly pulls kings-only endings without a decisive majority
// towards a draw: the draw rules end them long before a win.
func scaleKingsOnly(p *movegen.Position, s int) int {
	if p.Kings != p.Occupied() {
		return s
	}
	w, b := p.Pieces[movegen.White].Count(), p.Pieces[movegen.Black].Count()
	if w < 2*b && b < 2*w {
		return s / 4
	}
	return s
}
