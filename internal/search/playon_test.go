package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/tt"
	"github.com/rs/zerolog"
)

// playOnCase is an ending where a draw rule has drawn the game (or is one
// move from it) and the host still asks for a move: the side to move is a
// lone king, some of its moves leave it to be taken, others do not.
type playOnCase struct {
	name string
	v    *movegen.Variant
	// strong are the other side's pieces: 'k' a king, 'm' a man.
	strong string
	// rule is a word of the draw's reason.
	rule string
	// mode: "fired" (the rule drew the game before the root), "next" (the
	// lone king's move completes the count), "repetition" (the root is the
	// third occurrence of the position).
	mode string
	// diagonal keeps the lone king on the long diagonal (FMJD-64 7.2.7).
	diagonal bool
}

var playOnCases = []playOnCase{
	{"russian 7.2.8 fired", movegen.Russian, "km", "7.2.8", "fired", false},
	{"brazilian 7.2.8 fired", movegen.Brazilian, "km", "7.2.8", "fired", false},
	{"russian 7.2.8 next", movegen.Russian, "kk", "7.2.8", "next", false},
	{"brazilian 7.2.8 next", movegen.Brazilian, "km", "7.2.8", "next", false},
	{"russian 7.2.7 fired", movegen.Russian, "kkm", "7.2.7", "fired", true},
	{"brazilian 7.2.7 fired", movegen.Brazilian, "kkk", "7.2.7", "fired", true},
	{"russian 7.2.4 fired", movegen.Russian, "kkk", "7.2.4", "fired", false},
	{"brazilian 7.2.4 fired", movegen.Brazilian, "kkk", "7.2.4", "fired", false},
	{"russian repetition", movegen.Russian, "kkk", "repetition", "repetition", false},
	{"brazilian repetition", movegen.Brazilian, "kkk", "repetition", "repetition", false},
	{"portuguese 20 moves fired", movegen.Portuguese, "kk", "20 moves", "fired", false},
	{"portuguese 3 kings fired", movegen.Portuguese, "kkk", "3 kings", "fired", false},
	{"portuguese 3 kings next", movegen.Portuguese, "kkk", "3 kings", "next", false},
}

// TestPlayOnKeepsThePieces: past a rule draw (and on the move that
// completes one), Rio's move never leaves its king to be taken when another
// move keeps it.
func TestPlayOnKeepsThePieces(t *testing.T) {
	for _, c := range playOnCases {
		t.Run(c.name, func(t *testing.T) {
			found := 0
			for seed := uint64(1); found < 5 && seed < 2000; seed++ {
				g := findPlayOn(c, seed)
				if g == nil {
					continue
				}
				found++
				p := g.Position()
				e := NewEngine(16, zerolog.Nop())
				res := e.Run(context.Background(), g, Limits{Depth: 8}, Options{Threads: 1}, nil)
				where := func() string {
					return fmt.Sprintf("%s after %q", c.v.FormatFEN(&p, false), strings.Join(c.v.FormatMoves(g.Moves()), " "))
				}
				if hangs(c.v, &p, res.Move) {
					t.Errorf("%s: %s leaves the king to be taken (score %d)", where(), c.v.FormatMove(res.Move), res.Score)
				}
				// Whatever the move order: every move scored, the best
				// that keeps the king above the best that does not.
				var buf [movegen.MaxMoves]movegen.Move
				n := len(c.v.Generate(&p, buf[:0]))
				lines := map[int]Info{}
				e.TT.Clear()
				e.Run(context.Background(), g, Limits{Depth: 6}, Options{Threads: 1, MultiPV: n}, func(i Info) { lines[i.Line] = i })
				safe, hanging := -infinity, -infinity
				for _, i := range lines {
					if hangs(c.v, &p, i.PV[0]) {
						hanging = max(hanging, i.Score)
					} else {
						safe = max(safe, i.Score)
					}
				}
				if len(lines) != n || safe <= hanging {
					t.Errorf("%s: %d lines of %d, best keeping the king %d, best hanging it %d", where(), len(lines), n, safe, hanging)
				}
			}
			if found == 0 {
				t.Fatal("no position found")
			}
		})
	}
}

// hangs reports whether after m the opponent can capture.
func hangs(v *movegen.Variant, p *movegen.Position, m movegen.Move) bool {
	q := p.Play(m)
	return v.HasCapture(&q)
}

// findPlayOn walks from a random placement of the case's material, both
// sides keeping out of capture, until the case's situation arises with a
// choice between a move that hangs the lone king and one that does not.
func findPlayOn(c playOnCase, seed uint64) *game.Game {
	rng := rand.New(rand.NewPCG(seed, 0x706c61796f6e))
	weak := movegen.Color(rng.IntN(2))
	p, ok := placeMaterial(rng, weak, c)
	if !ok {
		return nil
	}
	g := game.New(c.v, p)
	if c.mode == "repetition" {
		return repeatThrice(c, g, rng)
	}
	for range 120 {
		pos := g.Position()
		if pos.Side == weak && choice(c.v, &pos) {
			switch c.mode {
			case "fired":
				if o := g.Outcome(); o.Result == game.Draw && strings.Contains(o.Reason, c.rule) {
					return g
				}
			case "next":
				if g.EndPly() < 0 && nextCompletes(c, g) {
					return g
				}
			}
		}
		if g.EndPly() >= 0 && c.mode != "fired" {
			return nil
		}
		m, ok := quietMove(c, g, rng, weak)
		if !ok {
			return nil
		}
		g.Play(m)
	}
	return nil
}

// nextCompletes reports whether every move of the side to move ends the
// game by the case's rule.
func nextCompletes(c playOnCase, g *game.Game) bool {
	p := g.Position()
	var buf [movegen.MaxMoves]movegen.Move
	for _, m := range c.v.Generate(&p, buf[:0]) {
		g.Play(m)
		o := g.Outcome()
		g.Undo()
		if o.Result != game.Draw || !strings.Contains(o.Reason, c.rule) {
			return false
		}
	}
	return true
}

// repeatThrice plays a four-ply cycle twice from g's position (the weak
// side to move), so that it stands for the third time.
func repeatThrice(c playOnCase, g *game.Game, rng *rand.Rand) *game.Game {
	p := g.Position()
	if !choice(c.v, &p) {
		return nil
	}
	var cycle []movegen.Move
	for range 2 {
		m, ok := quietMove(c, g, rng, p.Side)
		if !ok {
			return nil
		}
		cycle = append(cycle, m)
		g.Play(m)
	}
	// Back: each king to where it came from.
	for _, m := range cycle {
		pos := g.Position()
		back := movegen.NoMove
		var buf [movegen.MaxMoves]movegen.Move
		for _, l := range c.v.Generate(&pos, buf[:0]) {
			if l.From() == m.To() && l.To() == m.From() && !l.IsCapture() {
				back = l
			}
		}
		if back == movegen.NoMove {
			return nil
		}
		g.Play(back)
	}
	for _, m := range append(cycle, g.Moves()[2:4]...) {
		if g.Play(m) != nil {
			return nil
		}
	}
	if g.Repetitions() != 2 {
		return nil
	}
	if o := g.Outcome(); o.Result != game.Draw || !strings.Contains(o.Reason, c.rule) {
		return nil
	}
	return g
}

// choice reports whether the side to move has both a move that leaves a
// capture to the opponent and one that does not, and no capture itself.
func choice(v *movegen.Variant, p *movegen.Position) bool {
	var buf [movegen.MaxMoves]movegen.Move
	safe, hanging := false, false
	for _, m := range v.Generate(p, buf[:0]) {
		if m.IsCapture() {
			return false
		}
		if hangs(v, p, m) {
			hanging = true
		} else {
			safe = true
		}
	}
	return safe && hanging
}

// quietMove draws a move that leaves no capture to the opponent (for the
// weak side on the long diagonal when the case asks), false when there is
// none or a capture is due.
func quietMove(c playOnCase, g *game.Game, rng *rand.Rand, weak movegen.Color) (movegen.Move, bool) {
	p := g.Position()
	var buf [movegen.MaxMoves]movegen.Move
	var ok []movegen.Move
	for _, m := range c.v.Generate(&p, buf[:0]) {
		if m.IsCapture() {
			return movegen.NoMove, false
		}
		if hangs(c.v, &p, m) {
			continue
		}
		if c.diagonal && p.Side == weak && !movegen.LongDiagonal.Has(m.To()) {
			continue
		}
		ok = append(ok, m)
	}
	if len(ok) == 0 {
		return movegen.NoMove, false
	}
	return ok[rng.IntN(len(ok))], true
}

// placeMaterial puts a lone king of colour weak and the case's pieces of
// the other colour on random squares (men off their promotion row), weak
// or the other side to move (the repetition case: weak).
func placeMaterial(rng *rand.Rand, weak movegen.Color, c playOnCase) (movegen.Position, bool) {
	var p movegen.Position
	p.Side = movegen.Color(rng.IntN(2))
	if c.mode == "repetition" {
		p.Side = weak
	}
	var used movegen.Bitboard
	put := func(col movegen.Color, king bool, where movegen.Bitboard) bool {
		free := where &^ used
		if !king {
			free &^= movegen.PromotionRow(col)
		}
		n := free.Count()
		if n == 0 {
			return false
		}
		k := rng.IntN(n)
		for s := free; s != 0; s &= s - 1 {
			if k == 0 {
				sq := s.First()
				used |= sq.Bit()
				p.Pieces[col] |= sq.Bit()
				if king {
					p.Kings |= sq.Bit()
				}
				return true
			}
			k--
		}
		return false
	}
	where := movegen.Valid
	if c.diagonal {
		where = movegen.LongDiagonal
	}
	if !put(weak, true, where) {
		return p, false
	}
	for _, kind := range c.strong {
		if !put(weak.Other(), kind == 'k', movegen.Valid) {
			return p, false
		}
	}
	p.Hash = p.ComputeHash()
	return p, true
}

// TestSquash: squash is odd and monotone, and squashFloor(k) is the least
// score it maps to k or more.
func TestSquash(t *testing.T) {
	probe := []int{-infinity, -tt.Win, -tt.MateBound - 1, -tt.MateBound, -knownBound - 1, -knownBound, -8000, -751, -750, -650, -151, -150, -149, -51, -50, -49, -1, 0}
	for _, v := range probe {
		probe = append(probe, -v)
	}
	for _, v := range probe {
		if squash(-v) != -squash(v) {
			t.Errorf("squash(%d) = %d, squash(%d) = %d", v, squash(v), -v, squash(-v))
		}
		for _, u := range probe {
			if u <= v && squash(u) > squash(v) {
				t.Errorf("not monotone: squash(%d) = %d > squash(%d) = %d", u, squash(u), v, squash(v))
			}
		}
	}
	for k := -drawBand + 1; k <= drawBand; k++ {
		f := squashFloor(k)
		if squash(f) < k || squash(f-1) >= k {
			t.Errorf("squashFloor(%d) = %d: squash there %d, just below %d", k, f, squash(f), squash(f-1))
		}
	}
}
