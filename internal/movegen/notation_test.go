package movegen

import (
	"strings"
	"testing"
)

func TestParsePositionForms(t *testing.T) {
	b := Brazilian
	start := b.Start()
	for _, s := range []string{
		"startpos",
		"W:W21-32:B1-12",
		"W:W21-32:B1-12.",
		`"W:W21-32:B1-12"`,
		" W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12 ",
		"Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
		"W:W21-32:B1-12:H0:F1",
		"W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
	} {
		p, err := b.ParsePosition(s)
		if err != nil {
			t.Errorf("%q: %v", s, err)
			continue
		}
		if p != start {
			t.Errorf("%q: not the start position: %s", s, b.FormatFEN(&p, false))
		}
	}
	pt := Portuguese.Start()
	if got := Portuguese.FormatHub(&pt); got != "Wwwwwwwwwwwwweeeeeeeebbbbbbbbbbbb" {
		t.Errorf("portuguese start hub string %q", got)
	}
	if got := Brazilian.FormatHub(&start); got != "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww" {
		t.Errorf("brazilian start hub string %q", got)
	}
	if got := Brazilian.FormatFEN(&start, false); got != "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12" {
		t.Errorf("start FEN %q", got)
	}
	// Portuguese numbering: the rio 1-5-10-14-19-23-28-32 is the STD long
	// diagonal 29-25-22-18-15-11-8-4.
	rio := []int{1, 5, 10, 14, 19, 23, 28, 32}
	std := []int{29, 25, 22, 18, 15, 11, 8, 4}
	for i := range rio {
		if FPD.Square(rio[i]) != STD.Square(std[i]) {
			t.Errorf("portuguese %d is not STD %d", rio[i], std[i])
		}
	}
	if AlgebraicName(STD.Square(29)) != "a1" || AlgebraicName(STD.Square(1)) != "b8" || AlgebraicName(STD.Square(32)) != "g1" {
		t.Error("algebraic names of 29, 1, 32 are not a1, b8, g1")
	}
}

func TestParsePositionErrors(t *testing.T) {
	cases := []struct {
		v    *Variant
		in   string
		want string // a piece of the message that names the problem
	}{
		{Brazilian, "W:W33:B1", "square 33"},
		{Brazilian, "W:W0:B1", "square 0"},
		{Brazilian, "W:W21,21:B1", "twice"},
		{Brazilian, "W:W21:B21", "twice"},
		{Brazilian, "W:W3:B10", "white man on square 3, its promotion row"},
		{Brazilian, "W:W21:B30", "black man on square 30"},
		{Brazilian, "W:WK3:BK30", ""}, // kings may stand there
		{Brazilian, "W:W1-32:B", "32 white pieces"},
		{Brazilian, "W:W9-21:B1", "13 white pieces"},
		{Brazilian, "X:W21:B1", "side to move"},
		{Brazilian, "W:W21:B1:Q", "unknown character"},
		{Brazilian, "W:W21:B1:W22", "listed twice"},
		{Brazilian, "W:Wz9:B1", "bad square"},
		{Brazilian, "W:Wb1:B1", "not a playing square"},
		{Brazilian, "W:W12-5:B1", "backwards"},
		{Portuguese, "W:Wa1:B32", "not algebraic"},
		{Brazilian, "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwwx", "unknown character 'x' at square 32"},
		{Brazilian, "Xbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww", "side to move"},
		{Brazilian, "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwww", "unrecognised"},
		{Brazilian, "", "unrecognised"},
		{Brazilian, "hello", "unrecognised"},
	}
	for _, c := range cases {
		_, err := c.v.ParsePosition(c.in)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q: unexpected error %v", c.in, err)
		case c.want != "" && err == nil:
			t.Errorf("%q: accepted, want an error about %q", c.in, c.want)
		case c.want != "" && !strings.Contains(err.Error(), c.want):
			t.Errorf("%q: error %q does not mention %q", c.in, err, c.want)
		}
	}
}

func TestParseMoveForms(t *testing.T) {
	mustPos := func(v *Variant, s string) Position {
		p, err := v.ParsePosition(s)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct {
		v        *Variant
		pos, in  string
		want     string // protocol notation, or "" for an error
		errorHas string
	}{
		{Brazilian, "startpos", "22-17", "22-17", ""},
		{Brazilian, "startpos", "c3-b4", "22-17", ""},
		{Brazilian, "startpos", "C3-B4", "22-17", ""},
		{Brazilian, "startpos", "22-18", "22-18", ""},
		{Brazilian, "startpos", "22-19", "", "illegal move"},
		{Brazilian, "startpos", "22", "", "bad move"},
		{Brazilian, "startpos", "22-33", "", "square 33"},
		{Brazilian, "startpos", "", "", "bad move"},
		{Russian, "W:W22,28,K32:B11,18,24,27", "28x19x24", "28x19x24", ""},
		{Russian, "W:W22,28,K32:B11,18,24,27", "28x19", "28x19x24", ""},
		{Russian, "W:W22,28,K32:B11,18,24,27", "28:19", "28x19x24", ""},
		{Russian, "W:W22,28,K32:B11,18,24,27", "22x8x18x11", "22x8x11x18", ""}, // captured in any order
		{Russian, "W:W22,28,K32:B11,18,24,27", "22x15x8", "22x8x11x18", ""},    // PDN path
		{Russian, "W:W22,28,K32:B11,18,24,27", "32x14", "32x14x18x27", ""},
		{Russian, "W:W22,28,K32:B11,18,24,27", "g1xe5", "", "illegal move"},
		// A king's loop: three moves end on 26; the short form is ambiguous.
		{Brazilian, "W:WK26:B14,15,22,23", "26x26", "26x26x14x15x22x23", ""},
		{Brazilian, "W:WK26:B14,15,22,23", "26x30", "26x30x14x15x22x23", ""},
		{Portuguese, "W:WK1:B10,27", "1x30", "1x30x10x27", ""},
		{Portuguese, "W:WK1:B10,27", "a1xb2", "", "not algebraic"},
	}
	for _, c := range cases {
		p := mustPos(c.v, c.pos)
		m, err := c.v.ParseMove(&p, c.in)
		switch {
		case c.want == "" && err == nil:
			t.Errorf("%s %q: accepted as %s, want error %q", c.pos, c.in, c.v.FormatMove(m), c.errorHas)
		case c.want == "" && !strings.Contains(err.Error(), c.errorHas):
			t.Errorf("%s %q: error %q does not mention %q", c.pos, c.in, err, c.errorHas)
		case c.want != "" && err != nil:
			t.Errorf("%s %q: %v", c.pos, c.in, err)
		case c.want != "" && c.v.FormatMove(m) != c.want:
			t.Errorf("%s %q: parsed %s, want %s", c.pos, c.in, c.v.FormatMove(m), c.want)
		}
	}
}

func TestAmbiguousShortForm(t *testing.T) {
	// Two captures by the king on 1 end on 31 with different pieces taken.
	v := Brazilian
	p, err := v.ParseFEN("W:WK1:B6,14,18,26")
	if err != nil {
		t.Fatal(err)
	}
	var buf [MaxMoves]Move
	ends := map[[2]Square][]Move{}
	for _, m := range v.Generate(&p, buf[:0]) {
		k := [2]Square{m.From(), m.To()}
		ends[k] = append(ends[k], m)
	}
	found := false
	for _, ms := range ends {
		if len(ms) < 2 {
			continue
		}
		found = true
		short := v.SquareName(ms[0].From(), false) + "x" + v.SquareName(ms[0].To(), false)
		if _, err := v.ParseMove(&p, short); err == nil || !strings.Contains(err.Error(), "ambiguous") {
			t.Errorf("%q: want an ambiguity error, got %v", short, err)
		}
		for _, m := range ms {
			pdn := v.FormatPDN(&p, m, PDNStyle{})
			if strings.Count(pdn, "x") < 2 {
				t.Errorf("PDN %q of an ambiguous capture is not a full path", pdn)
			}
			if got, err := v.ParseMove(&p, pdn); err != nil || got.identity() != m.identity() {
				t.Errorf("PDN %q does not parse back: %v", pdn, err)
			}
		}
	}
	if !found {
		t.Fatalf("test position %s has no ambiguous short form; moves %v", v.FormatFEN(&p, false), ends)
	}
}

func TestFormatPDN(t *testing.T) {
	v := Russian
	p, _ := v.ParseFEN("W:W22,28,K32:B11,18,24,27")
	m, _ := v.ParseMove(&p, "28x19x24")
	if got := v.FormatPDN(&p, m, PDNStyle{}); got != "28x19" {
		t.Errorf("PDN %q, want 28x19", got)
	}
	if got := v.FormatPDN(&p, m, PDNStyle{Algebraic: true, CaptureSep: ':'}); got != "h2:f4" {
		t.Errorf("algebraic PDN %q, want h2:f4", got)
	}
	q := v.Start()
	m, _ = v.ParseMove(&q, "22-17")
	if got := v.FormatPDN(&q, m, PDNStyle{Algebraic: true}); got != "c3-b4" {
		t.Errorf("algebraic PDN %q, want c3-b4", got)
	}
}
