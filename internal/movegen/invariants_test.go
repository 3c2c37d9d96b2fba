package movegen

import (
	"context"
	"math/rand/v2"
	"testing"
)

// randomGames plays n random games per variant and calls visit on every
// position reached, with the legal moves there.
func randomGames(t *testing.T, seed uint64, n int, visit func(v *Variant, p *Position, moves []Move)) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, seed+1))
	var buf [MaxMoves]Move
	for _, v := range Variants {
		for range n {
			p := v.Start()
			for ply := 0; ply < 150; ply++ {
				moves := v.Generate(&p, buf[:0])
				visit(v, &p, moves)
				if len(moves) == 0 {
					break
				}
				p = p.Play(moves[rng.IntN(len(moves))])
			}
		}
	}
}

func TestIncrementalHashEqualsRecomputed(t *testing.T) {
	randomGames(t, 11, 200, func(v *Variant, p *Position, moves []Move) {
		if h := p.ComputeHash(); h != p.Hash {
			t.Fatalf("%s %s: incremental hash %x, recomputed %x", v.Name, v.FormatFEN(p, false), p.Hash, h)
		}
		for _, m := range moves {
			c := p.Play(m)
			if c.Hash != c.ComputeHash() {
				t.Fatalf("%s %s after %s: incremental hash differs from recomputed", v.Name, v.FormatFEN(p, false), v.FormatMove(m))
			}
		}
	})
}

func TestPlayKeepsBoardConsistent(t *testing.T) {
	randomGames(t, 12, 100, func(v *Variant, p *Position, moves []Move) {
		for _, m := range moves {
			c := p.Play(m)
			us, them := p.Side, p.Side.Other()
			if c.Pieces[White]&c.Pieces[Black] != 0 || c.Kings&^c.Occupied() != 0 || c.Occupied()&^Valid != 0 {
				t.Fatalf("%s %s after %s: corrupt board", v.Name, v.FormatFEN(p, false), v.FormatMove(m))
			}
			if got, want := c.Pieces[us].Count(), p.Pieces[us].Count(); got != want {
				t.Fatalf("%s: mover has %d pieces after %s, had %d", v.FormatFEN(p, false), got, v.FormatMove(m), want)
			}
			if got, want := c.Pieces[them].Count(), p.Pieces[them].Count()-m.Captured().Count(); got != want {
				t.Fatalf("%s: %d pieces left after %s, want %d", v.FormatFEN(p, false), got, v.FormatMove(m), want)
			}
			if !c.Pieces[us].Has(m.To()) || (m.From() != m.To() && c.Occupied().Has(m.From())) {
				t.Fatalf("%s: %s did not move the piece", v.FormatFEN(p, false), v.FormatMove(m))
			}
			if c.Side != them {
				t.Fatal("side to move did not change")
			}
		}
	})
}

// TestFlipSymmetry: a position and its colour-flipped twin have the same
// perft, and their move lists map onto each other.
func TestFlipSymmetry(t *testing.T) {
	n := 0
	randomGames(t, 13, 30, func(v *Variant, p *Position, moves []Move) {
		n++
		if n%7 != 0 {
			return
		}
		q := p.Flip()
		if q.Flip() != *p {
			t.Fatalf("flipping twice changed %s", v.FormatFEN(p, false))
		}
		var buf [MaxMoves]Move
		flipped := map[Move]bool{}
		for _, m := range v.Generate(&q, buf[:0]) {
			flipped[m.identity()] = true
		}
		for _, m := range moves {
			fm := NewMove(Square(34-m.From()), Square(34-m.To()), m.Captured().Flip(), false)
			if !flipped[fm] {
				t.Fatalf("%s %s: move %s has no twin in %s", v.Name, v.FormatFEN(p, false), v.FormatMove(m), v.FormatFEN(&q, false))
			}
		}
		if len(flipped) != len(moves) {
			t.Fatalf("%s: %d moves, twin has %d", v.FormatFEN(p, false), len(moves), len(flipped))
		}
		if a, b := v.Perft(p, 3), v.Perft(&q, 3); a != b {
			t.Fatalf("%s %s: perft(3) %d, twin %d", v.Name, v.FormatFEN(p, false), a, b)
		}
	})
}

func TestPositionRoundTrips(t *testing.T) {
	randomGames(t, 14, 50, func(v *Variant, p *Position, moves []Move) {
		for _, algebraic := range []bool{false, true} {
			fen := v.FormatFEN(p, algebraic)
			q, err := v.ParseFEN(fen)
			if err != nil || q != *p {
				t.Fatalf("%s: FEN %q does not round trip: %v", v.Name, fen, err)
			}
		}
		hub := v.FormatHub(p)
		q, err := v.ParsePosition(hub)
		if err != nil || q != *p {
			t.Fatalf("%s: hub %q does not round trip: %v", v.Name, hub, err)
		}
	})
}

func TestMoveRoundTrips(t *testing.T) {
	randomGames(t, 15, 40, func(v *Variant, p *Position, moves []Move) {
		for _, m := range moves {
			texts := []string{v.FormatMove(m), v.FormatPDN(p, m, PDNStyle{}), v.FormatMoveAlgebraic(m)}
			if v.Numbering.Algebraic {
				texts = append(texts, v.FormatPDN(p, m, PDNStyle{Algebraic: true, CaptureSep: ':'}))
			}
			for _, paths := range v.CapturePaths(p, m) {
				s := v.SquareName(m.From(), false)
				for _, sq := range paths {
					s += "x" + v.SquareName(sq, false)
				}
				texts = append(texts, s)
			}
			for _, s := range texts {
				got, err := v.ParseMove(p, s)
				if err != nil {
					t.Fatalf("%s %s: %q: %v", v.Name, v.FormatFEN(p, false), s, err)
				}
				if got.identity() != m.identity() {
					t.Fatalf("%s %s: %q parsed as %s", v.Name, v.FormatFEN(p, false), s, v.FormatMove(got))
				}
			}
		}
	})
}

func TestPerftDivideMatchesPerft(t *testing.T) {
	for _, v := range Variants {
		p := v.Start()
		for _, threads := range []int{1, 3} {
			entries, err := v.PerftDivide(context.Background(), &p, 6, threads)
			if err != nil {
				t.Fatal(err)
			}
			var sum uint64
			for _, e := range entries {
				c := p.Play(e.Move)
				if n := v.Perft(&c, 5); n != e.Nodes {
					t.Errorf("%s %s: divide %d, perft %d", v.Name, v.FormatMove(e.Move), e.Nodes, n)
				}
				sum += e.Nodes
			}
			if want := v.Perft(&p, 6); sum != want {
				t.Errorf("%s threads=%d: divide sums to %d, perft(6) = %d", v.Name, threads, sum, want)
			}
		}
	}
}

func TestPerftDivideCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := Brazilian.Start()
	if _, err := Brazilian.PerftDivide(ctx, &p, 12, 2); err == nil {
		t.Fatal("a cancelled divide returned no error")
	}
}

// ManCanStep must agree with the move list of a side that has no capture:
// it has a man move exactly when ManCanStep says so, whoever was to move.
// CrownPlies is twice the rows its most advanced man has to go, the men
// walked forward a row at a time.
func TestManCanStepAndCrownPlies(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	var buf [MaxMoves]Move
	blocked := 0
	for range 20000 {
		p := randomPosition(rng)
		for c := White; c <= Black; c++ {
			q := p
			q.Side = c
			// The men advanced a row at a time, both ways forward, on an
			// empty board, until one stands on the promotion row.
			crown := -1
			if b := q.Men(c); b != 0 {
				up, other := UpLeft, UpRight
				if c == Black {
					up, other = DownLeft, DownRight
				}
				rows := 0
				for ; b&PromotionRow(c) == 0; rows++ {
					b = b.Shift(up) | b.Shift(other)
				}
				crown = 2 * rows
			}
			if got := CrownPlies(&q, c); got != crown {
				t.Fatalf("%s: CrownPlies(%v) = %d, want %d", Brazilian.FormatFEN(&q, false), c, got, crown)
			}
			for _, v := range Variants {
				if v.HasCapture(&q) {
					continue
				}
				man := false
				for _, m := range v.Generate(&q, buf[:0]) {
					man = man || q.Men(c).Has(m.From())
				}
				if ManCanStep(&q, c) != man {
					t.Fatalf("%s %s: ManCanStep(%v) = %v, a man move in the list: %v", v.Name, v.FormatFEN(&q, false), c, ManCanStep(&q, c), man)
				}
				if !man && q.Men(c) != 0 {
					blocked++
				}
			}
		}
	}
	if blocked == 0 {
		t.Fatal("no side with blocked men drawn: the test checks only one side of ManCanStep")
	}
}

// HasStep must agree with the move list: a position without captures has
// a move exactly when HasStep says so.
func TestHasStepMatchesGenerate(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var buf [MaxMoves]Move
	stuck := 0
	for range 50000 {
		p := randomPosition(rng)
		for _, v := range Variants {
			if v.HasCapture(&p) {
				continue
			}
			n := len(v.Generate(&p, buf[:0]))
			if HasStep(&p) != (n > 0) {
				t.Fatalf("%s %s: HasStep=%v with %d moves", v.Name, v.FormatFEN(&p, false), HasStep(&p), n)
			}
			if n == 0 {
				stuck++
			}
		}
	}
	if stuck == 0 {
		t.Fatal("no blocked position drawn: the test checks only one side of HasStep")
	}
}
