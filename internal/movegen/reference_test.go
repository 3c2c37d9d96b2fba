package movegen

// An independent, deliberately naive move generator on an 8x8 array, used
// as a differential oracle for the bitboard generator. It shares nothing
// with it but the square mapping (squareAt) and the Variant fields.

import (
	"math/rand/v2"
	"slices"
	"testing"
)

type refBoard struct {
	cell [8][8]int8 // 0 empty, +1 white man, +2 white king, -1 black man, -2 black king
	side int8       // +1 white, -1 black
}

func toRef(p *Position) refBoard {
	var b refBoard
	b.side = 1
	if p.Side == Black {
		b.side = -1
	}
	for r := range 8 {
		for f := range 8 {
			s := squareAt[r][f]
			if s == NoSquare {
				continue
			}
			var v int8
			switch {
			case p.Pieces[White].Has(s):
				v = 1
			case p.Pieces[Black].Has(s):
				v = -1
			}
			if p.Kings.Has(s) {
				v *= 2
			}
			b.cell[r][f] = v
		}
	}
	return b
}

type refMove struct {
	from, to Square
	captured Bitboard
	kings    int
	promotes bool
}

var refDirs = [4][2]int{{-1, -1}, {-1, 1}, {1, -1}, {1, 1}}

func onBoard(r, f int) bool { return r >= 0 && r < 8 && f >= 0 && f < 8 }

// refMoves lists the legal moves as (from, to, captured) with the
// variant's precedence applied, without duplicates.
func refMoves(v *Variant, b refBoard) []refMove {
	var caps []refMove
	fwd := -1 // white moves to row 0
	if b.side < 0 {
		fwd = 1
	}
	lastRow := 0
	if b.side < 0 {
		lastRow = 7
	}
	for r := range 8 {
		for f := range 8 {
			pc := b.cell[r][f] * b.side
			if pc <= 0 {
				continue
			}
			start := squareAt[r][f]
			bb := b
			bb.cell[r][f] = 0 // start square counts as empty
			var taken [8][8]bool
			var walk func(r, f int, king bool, n, kings int, captured Bitboard, promoted bool)
			walk = func(r, f int, king bool, n, kings int, captured Bitboard, promoted bool) {
				any := false
				for _, d := range refDirs {
					if !king && !v.ManCapturesBackward && d[0] != fwd {
						continue
					}
					// find the piece to jump
					rr, ff := r+d[0], f+d[1]
					if king {
						for onBoard(rr, ff) && bb.cell[rr][ff] == 0 {
							rr, ff = rr+d[0], ff+d[1]
						}
					}
					if !onBoard(rr, ff) || bb.cell[rr][ff]*b.side >= 0 || taken[rr][ff] {
						continue
					}
					jr, jf := rr, ff
					// landing squares
					var lands [][2]int
					lr, lf := jr+d[0], jf+d[1]
					for onBoard(lr, lf) && bb.cell[lr][lf] == 0 {
						lands = append(lands, [2]int{lr, lf})
						if !king {
							break
						}
						lr, lf = lr+d[0], lf+d[1]
					}
					if len(lands) == 0 {
						continue
					}
					any = true
					taken[jr][jf] = true
					k := kings
					if bb.cell[jr][jf]*b.side == -2 {
						k++
					}
					c2 := captured | squareAt[jr][jf].Bit()
					// russian: a king must land where it can go on, if it can
					if king && v.Precedence == AnyCapture {
						var cont [][2]int
						for _, l := range lands {
							if refCanCapture(v, &bb, &taken, b.side, l[0], l[1], true, fwd) {
								cont = append(cont, l)
							}
						}
						if len(cont) > 0 {
							lands = cont
						}
					}
					for _, l := range lands {
						nk, np := king, promoted
						if !king && l[0] == lastRow && v.LastRow == PromotesAndContinues {
							nk, np = true, true
						}
						walk(l[0], l[1], nk, n+1, k, c2, np)
					}
					taken[jr][jf] = false
				}
				if !any && n > 0 {
					caps = append(caps, refMove{start, squareAt[r][f], captured, kings, promoted || pc == 1 && r == lastRow})
				}
			}
			walk(r, f, pc == 2, 0, 0, 0, false)
		}
	}
	if len(caps) > 0 {
		best := -1
		score := func(m refMove) int {
			switch v.Precedence {
			case MostPieces:
				return m.captured.Count()
			case MostPiecesThenKings:
				return m.captured.Count()*100 + m.kings
			}
			return 0
		}
		for _, m := range caps {
			best = max(best, score(m))
		}
		var out []refMove
		for _, m := range caps {
			if score(m) == best && !slices.ContainsFunc(out, func(o refMove) bool {
				return o.from == m.from && o.to == m.to && o.captured == m.captured
			}) {
				out = append(out, m)
			}
		}
		return out
	}
	var out []refMove
	for r := range 8 {
		for f := range 8 {
			pc := b.cell[r][f] * b.side
			if pc <= 0 {
				continue
			}
			for _, d := range refDirs {
				if pc == 1 && d[0] != fwd {
					continue
				}
				rr, ff := r+d[0], f+d[1]
				for onBoard(rr, ff) && b.cell[rr][ff] == 0 {
					out = append(out, refMove{squareAt[r][f], squareAt[rr][ff], 0, 0, pc == 1 && rr == lastRow})
					if pc == 1 {
						break
					}
					rr, ff = rr+d[0], ff+d[1]
				}
			}
		}
	}
	return out
}

// refCanCapture reports whether a piece of side on (r, f) has a jump.
func refCanCapture(v *Variant, bb *refBoard, taken *[8][8]bool, side int8, r, f int, king bool, fwd int) bool {
	for _, d := range refDirs {
		if !king && !v.ManCapturesBackward && d[0] != fwd {
			continue
		}
		rr, ff := r+d[0], f+d[1]
		if king {
			for onBoard(rr, ff) && bb.cell[rr][ff] == 0 {
				rr, ff = rr+d[0], ff+d[1]
			}
		}
		if !onBoard(rr, ff) || bb.cell[rr][ff]*side >= 0 || taken[rr][ff] {
			continue
		}
		if lr, lf := rr+d[0], ff+d[1]; onBoard(lr, lf) && bb.cell[lr][lf] == 0 {
			return true
		}
	}
	return false
}

// compareWithReference fails t when the generators disagree on p.
func compareWithReference(t *testing.T, v *Variant, p *Position) bool {
	t.Helper()
	var buf [MaxMoves]Move
	got := v.Generate(p, buf[:0])
	want := refMoves(v, toRef(p))
	key := func(from, to Square, c Bitboard) uint64 { return uint64(NewMove(from, to, c, false)) }
	var g, w []uint64
	for _, m := range got {
		g = append(g, key(m.From(), m.To(), m.Captured()))
	}
	for _, m := range want {
		w = append(w, key(m.from, m.to, m.captured))
	}
	slices.Sort(g)
	slices.Sort(w)
	if !slices.Equal(g, w) {
		var gs, ws []string
		for _, k := range g {
			gs = append(gs, v.FormatMove(Move(k)))
		}
		for _, k := range w {
			ws = append(ws, v.FormatMove(Move(k)))
		}
		t.Errorf("%s %s:\n got %v\nwant %v", v.Name, v.FormatFEN(p, false), gs, ws)
		return false
	}
	if n := v.CountMoves(p, buf[:0]); n != len(want) {
		t.Errorf("%s %s: CountMoves = %d, want %d", v.Name, v.FormatFEN(p, false), n, len(want))
		return false
	}
	return true
}

// randomPosition places up to 12 pieces a side at random, kings included.
func randomPosition(rng *rand.Rand) Position {
	var p Position
	for c := White; c <= Black; c++ {
		n := 1 + rng.IntN(12)
		for range n {
			s := stdSquare(1 + rng.IntN(32))
			if p.Occupied().Has(s) {
				continue
			}
			p.Pieces[c] |= s.Bit()
			if rng.IntN(3) == 0 || PromotionRow(c).Has(s) {
				p.Kings |= s.Bit()
			}
		}
	}
	p.Side = Color(rng.IntN(2))
	p.Hash = p.ComputeHash()
	return p
}

func TestGeneratorMatchesReferenceRandomPositions(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for _, v := range Variants {
		fails := 0
		for range n {
			p := randomPosition(rng)
			if !compareWithReference(t, v, &p) {
				fails++
				if fails > 5 {
					t.FailNow()
				}
			}
		}
	}
}

func TestGeneratorMatchesReferenceRandomGames(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	games := 400
	if testing.Short() {
		games = 50
	}
	var buf [MaxMoves]Move
	for _, v := range Variants {
		fails := 0
		for range games {
			p := v.Start()
			for ply := 0; ply < 200; ply++ {
				if !compareWithReference(t, v, &p) {
					fails++
					if fails > 5 {
						t.FailNow()
					}
					break
				}
				moves := v.Generate(&p, buf[:0])
				if len(moves) == 0 {
					break
				}
				p = p.Play(moves[rng.IntN(len(moves))])
			}
		}
	}
}

// refPlay plays m on b.
func refPlay(b refBoard, m refMove) refBoard {
	fr, ff := squareRow[m.from], squareFile[m.from]
	tr, tf := squareRow[m.to], squareFile[m.to]
	pc := b.cell[fr][ff]
	b.cell[fr][ff] = 0
	if m.promotes {
		pc *= 2
	}
	b.cell[tr][tf] = pc
	for c := m.captured; c != 0; c &= c - 1 {
		s := c.First()
		b.cell[squareRow[s]][squareFile[s]] = 0
	}
	b.side = -b.side
	return b
}

func refPerft(v *Variant, b refBoard, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var n uint64
	for _, m := range refMoves(v, b) {
		n += refPerft(v, refPlay(b, m), depth-1)
	}
	return n
}
