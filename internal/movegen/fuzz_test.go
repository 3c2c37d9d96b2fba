package movegen

import "testing"

// The fuzzers check that no input makes a parser panic or hang, and that
// whatever is accepted survives format -> parse unchanged. Seeds are below
// and in testdata/fuzz/<FuzzName>/. Run one with, for example,
//
//	go test -run XXX -fuzz FuzzParseFEN -fuzztime 1000000x ./internal/movegen/

func FuzzParseFEN(f *testing.F) {
	for _, s := range []string{
		"W:W21-32:B1-12", "B:W18,K30:BK1,2,3.", "W:Wa1,c3:Bb8", `"W:W21:B1"`,
		"W:W21:B1:H0:F1", "W:W:B", "W:W33:B1", "W:W3:B10", "W:W1-32:B", "W:WK1-4:B5",
		"W:W21,,22,:B1", "W:W12-5:B", "X:W1", "W:Wk21:Bk1", "W:W+5:B1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, v := range Variants {
			p, err := v.ParseFEN(s)
			if err != nil {
				continue
			}
			checkPositionRoundTrip(t, v, &p)
		}
	})
}

func FuzzParseHub(f *testing.F) {
	for _, s := range []string{
		"Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww", "Wwwwwwwwwwwwweeeeeeeebbbbbbbbbbbb",
		"BeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeW", "Wwbbbbbbbbbbbeeeeeeeewwwwwwwwwwww", "Wxxxxx", "W",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, v := range Variants {
			p, err := v.ParseHub(s)
			if err != nil {
				continue
			}
			if got := v.FormatHub(&p); got != s {
				t.Fatalf("%s: hub %q formats as %q", v.Name, s, got)
			}
			checkPositionRoundTrip(t, v, &p)
		}
	})
}

func checkPositionRoundTrip(t *testing.T, v *Variant, p *Position) {
	t.Helper()
	if p.Hash != p.ComputeHash() {
		t.Fatalf("%s: parsed position has a stale hash", v.Name)
	}
	for _, algebraic := range []bool{false, true} {
		fen := v.FormatFEN(p, algebraic)
		q, err := v.ParseFEN(fen)
		if err != nil || q != *p {
			t.Fatalf("%s: %q does not parse back (%v)", v.Name, fen, err)
		}
	}
	// The generator must cope with any position the parsers accept.
	var buf [MaxMoves]Move
	for _, m := range v.Generate(p, buf[:0]) {
		q := p.Play(m)
		if q.Hash != q.ComputeHash() {
			t.Fatalf("%s: hash drift after %s", v.Name, v.FormatMove(m))
		}
	}
}

// fuzzMovePositions are positions with quiet moves, captures, king loops,
// ambiguous short forms and promotions.
var fuzzMovePositions = []struct {
	v   *Variant
	fen string
}{
	{Brazilian, "startpos"},
	{Brazilian, "W:WK26:B14,15,22,23"},
	{Brazilian, "W:WK1:B6,14,18,26"},
	{Russian, "W:W22,28,K32:B11,18,24,27"},
	{Russian, "W:W11:B6,7"},
	{Portuguese, "W:WK6:B10,11,18,19"},
	{Portuguese, "startpos"},
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{
		"22-17", "c3-b4", "26x26", "26x30x14x15x22x23", "1x31", "1x31x6x14x26", "28:19",
		"22x15x8", "11x13x6x7", "x", "-", "1-", "99-1", "a9-b1", "22--17", "6x2x10x11x18x19",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range fuzzMovePositions {
			p, err := c.v.ParsePosition(c.fen)
			if err != nil {
				t.Fatal(err)
			}
			m, err := c.v.ParseMove(&p, s)
			if err != nil {
				continue
			}
			back, err := c.v.ParseMove(&p, c.v.FormatMove(m))
			if err != nil || back.identity() != m.identity() {
				t.Fatalf("%s %s: %q parsed as %s, which does not parse back (%v)", c.v.Name, c.fen, s, c.v.FormatMove(m), err)
			}
		}
	})
}
