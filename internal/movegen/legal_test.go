package movegen

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// randomLine plays up to n random legal moves from p.
func randomLine(v *Variant, p Position, n int, rng *rand.Rand) []Move {
	var line []Move
	var buf [MaxMoves]Move
	for range n {
		moves := v.Generate(&p, buf[:0])
		if len(moves) == 0 {
			break
		}
		m := moves[rng.IntN(len(moves))]
		line = append(line, m)
		p = p.Play(m)
	}
	return line
}

// notLegal returns moves that are not legal in p: no move, m with its
// promotion flag changed, and the moves of the other side to move.
func notLegal(v *Variant, p *Position, m Move) []Move {
	var buf [MaxMoves]Move
	legal := v.Generate(p, buf[:0])
	q := *p
	q.Side = q.Side.Other()
	cands := append([]Move{NoMove, NewMove(m.From(), m.To(), m.Captured(), !m.Promotes())}, v.Generate(&q, nil)...)
	var out []Move
	for _, c := range cands {
		if !slices.Contains(legal, c) {
			out = append(out, c)
		}
	}
	return out
}

func TestLegalPrefix(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	cuts := 0
	randomGames(t, 23, 20, func(v *Variant, p *Position, moves []Move) {
		before := *p
		line := randomLine(v, *p, 12, rng)
		if got := v.LegalPrefix(p, line); !slices.Equal(got, line) {
			t.Fatalf("%s %s: legal line %v cut to %v", v.Name, v.FormatFEN(p, false), v.FormatMoves(line), v.FormatMoves(got))
		}
		if *p != before {
			t.Fatalf("%s: LegalPrefix changed the position", v.Name)
		}
		if len(line) == 0 {
			if got := v.LegalPrefix(p, []Move{NoMove}); len(got) != 0 {
				t.Fatalf("%s %s: a move kept where none is legal", v.Name, v.FormatFEN(p, false))
			}
			return
		}
		// Spoil one move of the line: the prefix ends just before it.
		k := rng.IntN(len(line))
		q := *p
		for _, m := range line[:k] {
			q = q.Play(m)
		}
		bad := notLegal(v, &q, line[k])
		spoilt := slices.Clone(line)
		spoilt[k] = bad[rng.IntN(len(bad))]
		if got := v.LegalPrefix(p, spoilt); !slices.Equal(got, line[:k]) {
			t.Fatalf("%s %s: line %v with move %d illegal: prefix %v, want %v", v.Name, v.FormatFEN(p, false),
				v.FormatMoves(spoilt), k+1, v.FormatMoves(got), v.FormatMoves(line[:k]))
		}
		if v.IsLegal(&q, spoilt[k]) || !v.IsLegal(&q, line[k]) {
			t.Fatalf("%s %s: IsLegal disagrees with Generate on %s", v.Name, v.FormatFEN(&q, false), v.FormatMove(spoilt[k]))
		}
		cuts++
	})
	if cuts == 0 {
		t.Fatal("no line was spoilt")
	}
	v := Variants[0]
	p := v.Start()
	if got := v.LegalPrefix(&p, nil); len(got) != 0 {
		t.Fatalf("empty line: got %v", got)
	}
}

func TestSquareAt(t *testing.T) {
	n := 0
	for r := -1; r <= 8; r++ {
		for f := -1; f <= 8; f++ {
			s, ok := SquareAt(r, f)
			dark := r >= 0 && r < 8 && f >= 0 && f < 8 && (r+f)%2 == 1
			if ok != dark {
				t.Fatalf("SquareAt(%d, %d): ok %v, want %v", r, f, ok, dark)
			}
			if !ok {
				continue
			}
			n++
			if !Valid.Has(s) || Row(s) != r || File(s) != f {
				t.Fatalf("SquareAt(%d, %d) = %d: row %d file %d", r, f, s, Row(s), File(s))
			}
		}
	}
	if n != 32 {
		t.Fatalf("%d playing squares, want 32", n)
	}
}
