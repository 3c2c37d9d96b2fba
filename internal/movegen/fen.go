package movegen

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/riodraughts/rio/internal/text"
)

// ParsePosition reads a position in any accepted form: "startpos", a Hub
// position string (side + 32 squares) or a PDN FEN.
func (v *Variant) ParsePosition(s string) (Position, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "startpos" || s == "start":
		return v.start, nil
	case !strings.Contains(s, ":") && len(s) == 33:
		return v.ParseHub(s)
	case strings.Contains(s, ":"):
		return v.ParseFEN(s)
	}
	return Position{}, fmt.Errorf("unrecognised position %q: expected startpos, a Hub string (W or B + 32 of w b W B e) or a FEN like W:W21,22:B1,2", text.Clip(s, 80))
}

// ParseFEN reads a PDN FEN such as "W:W21,22,K30:B1,2,K5": the side to
// move, then each colour's squares, K before a king, ranges like 1-12,
// algebraic squares (a1..h8) where the numbering allows, an optional
// trailing '.', surrounding quotes, and lidraughts' trailing :H and :F
// counter fields (ignored).
func (v *Variant) ParseFEN(s string) (Position, error) {
	s = strings.TrimSpace(s)
	s = strings.Trim(s, `"`)
	s = strings.TrimSuffix(strings.TrimSpace(s), ".")
	fields := strings.Split(s, ":")
	if len(fields) < 2 {
		return Position{}, fmt.Errorf("FEN %q: expected side:W...:B...", text.Clip(s, 80))
	}
	var p Position
	switch strings.TrimSpace(fields[0]) {
	case "W", "w":
		p.Side = White
	case "B", "b":
		p.Side = Black
	default:
		return Position{}, fmt.Errorf("FEN %q: side to move must be W or B, got %q", text.Clip(s, 80), text.Clip(fields[0], 80))
	}
	var seen [2]bool
	for _, f := range fields[1:] {
		f = strings.TrimSpace(f)
		if f == "" {
			return Position{}, fmt.Errorf("FEN %q: empty field", text.Clip(s, 80))
		}
		var c Color
		switch f[0] {
		case 'W', 'w':
			c = White
		case 'B', 'b':
			c = Black
		case 'H', 'F':
			if _, err := strconv.Atoi(f[1:]); err == nil {
				continue // move counters (lidraughts); the game record keeps its own
			}
			return Position{}, fmt.Errorf("FEN %q: bad field %q", text.Clip(s, 80), text.Clip(f, 80))
		default:
			return Position{}, fmt.Errorf("FEN %q: unknown character %q in field %q", text.Clip(s, 80), f[0], text.Clip(f, 80))
		}
		if seen[c] {
			return Position{}, fmt.Errorf("FEN %q: %s pieces listed twice", text.Clip(s, 80), c)
		}
		seen[c] = true
		if err := v.parsePieceList(&p, c, f[1:]); err != nil {
			return Position{}, fmt.Errorf("FEN %q: %w", text.Clip(s, 80), err)
		}
	}
	if err := v.validate(&p); err != nil {
		return Position{}, err
	}
	p.Hash = p.ComputeHash()
	return p, nil
}

// parsePieceList adds the comma-separated squares of list to colour c.
func (v *Variant) parsePieceList(p *Position, c Color, list string) error {
	for item := range strings.SplitSeq(list, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue // "W21,,22" and a trailing comma are harmless
		}
		king := false
		if item[0] == 'K' || item[0] == 'k' {
			king = true
			item = item[1:]
		}
		var squares Bitboard
		if lo, hi, ok := strings.Cut(item, "-"); ok {
			a, err := v.parseSquareNumber(lo)
			if err != nil {
				return err
			}
			b, err := v.parseSquareNumber(hi)
			if err != nil {
				return err
			}
			if a > b {
				return fmt.Errorf("range %s-%s runs backwards", lo, hi)
			}
			for n := a; n <= b; n++ {
				squares |= v.Numbering.Square(n).Bit()
			}
		} else {
			s, err := v.ParseSquare(item)
			if err != nil {
				return err
			}
			squares = s.Bit()
		}
		if dup := squares & p.Occupied(); dup != 0 {
			return fmt.Errorf("square %s given twice", v.SquareName(dup.First(), false))
		}
		p.Pieces[c] |= squares
		if king {
			p.Kings |= squares
		}
	}
	return nil
}

// validate checks the limits every position obeys.
func (v *Variant) validate(p *Position) error {
	for c := White; c <= Black; c++ {
		if n := p.Pieces[c].Count(); n > 12 {
			return fmt.Errorf("%d %s pieces (at most 12)", n, c)
		}
		if bad := p.Men(c) & PromotionRow(c); bad != 0 {
			return fmt.Errorf("%s man on square %s, its promotion row", c, v.SquareName(bad.First(), false))
		}
	}
	return nil
}

// parseSquareNumber reads a square number 1..32.
func (v *Variant) parseSquareNumber(s string) (int, error) {
	s = strings.TrimSpace(s)
	n, err := strconv.Atoi(s)
	if err != nil || s == "" || s[0] < '0' || s[0] > '9' {
		return 0, fmt.Errorf("bad square %q", text.Clip(s, 80))
	}
	if n < 1 || n > 32 {
		return 0, fmt.Errorf("square %d is off the board (1-32)", n)
	}
	return n, nil
}

// ParseSquare reads a square number (1..32 in the variant's numbering) or,
// where the variant uses them, an algebraic name such as c3.
func (v *Variant) ParseSquare(s string) (Square, error) {
	s = strings.TrimSpace(s)
	if len(s) == 2 && (s[0] >= 'a' && s[0] <= 'h' || s[0] >= 'A' && s[0] <= 'H') {
		if !v.Numbering.Algebraic {
			return NoSquare, fmt.Errorf("square %q: %s uses square numbers 1-32, not algebraic names", s, v.Name)
		}
		sq := algebraicSquare(s[0], s[1])
		if sq == NoSquare {
			return NoSquare, fmt.Errorf("square %q is not a playing square", s)
		}
		return sq, nil
	}
	n, err := v.parseSquareNumber(s)
	if err != nil {
		return NoSquare, err
	}
	return v.Numbering.Square(n), nil
}

// SquareName returns the name of s: its number in the variant's numbering,
// or its algebraic name when algebraic is set and the variant uses them.
func (v *Variant) SquareName(s Square, algebraic bool) string {
	if algebraic && v.Numbering.Algebraic {
		return AlgebraicName(s)
	}
	return strconv.Itoa(v.Numbering.Number(s))
}

// squaresByNumber returns the squares of b in ascending square-number order.
func (v *Variant) squaresByNumber(b Bitboard) []Square {
	var out []Square
	for n := 1; n <= 32; n++ {
		if s := v.Numbering.Square(n); b.Has(s) {
			out = append(out, s)
		}
	}
	return out
}

// FormatFEN writes p as a PDN FEN, squares in ascending number order, or
// with algebraic names when algebraic is set and the variant uses them.
func (v *Variant) FormatFEN(p *Position, algebraic bool) string {
	var sb strings.Builder
	sb.WriteByte("WB"[p.Side])
	for c := White; c <= Black; c++ {
		sb.WriteByte(':')
		sb.WriteByte("WB"[c])
		for i, s := range v.squaresByNumber(p.Pieces[c]) {
			if i > 0 {
				sb.WriteByte(',')
			}
			if p.Kings.Has(s) {
				sb.WriteByte('K')
			}
			sb.WriteString(v.SquareName(s, algebraic))
		}
	}
	return sb.String()
}

// ParseHub reads a Hub position string: W or B, then 32 characters in
// square-number order, w/b men, W/B kings, e empty.
func (v *Variant) ParseHub(s string) (Position, error) {
	if len(s) != 33 {
		return Position{}, fmt.Errorf("hub position %q: want 33 characters (side + 32 squares), got %d", text.Clip(s, 80), len(s))
	}
	var p Position
	switch s[0] {
	case 'W':
		p.Side = White
	case 'B':
		p.Side = Black
	default:
		return Position{}, fmt.Errorf("hub position %q: side to move must be W or B, got %q", text.Clip(s, 80), s[0])
	}
	for n := 1; n <= 32; n++ {
		sq := v.Numbering.Square(n).Bit()
		switch s[n] {
		case 'e':
		case 'w':
			p.Pieces[White] |= sq
		case 'b':
			p.Pieces[Black] |= sq
		case 'W':
			p.Pieces[White] |= sq
			p.Kings |= sq
		case 'B':
			p.Pieces[Black] |= sq
			p.Kings |= sq
		default:
			return Position{}, fmt.Errorf("hub position %q: unknown character %q at square %d", text.Clip(s, 80), s[n], n)
		}
	}
	if err := v.validate(&p); err != nil {
		return Position{}, err
	}
	p.Hash = p.ComputeHash()
	return p, nil
}

// FormatHub writes p as a Hub position string.
func (v *Variant) FormatHub(p *Position) string {
	b := make([]byte, 33)
	b[0] = "WB"[p.Side]
	for n := 1; n <= 32; n++ {
		s := v.Numbering.Square(n)
		switch {
		case p.Pieces[White].Has(s) && p.Kings.Has(s):
			b[n] = 'W'
		case p.Pieces[White].Has(s):
			b[n] = 'w'
		case p.Pieces[Black].Has(s) && p.Kings.Has(s):
			b[n] = 'B'
		case p.Pieces[Black].Has(s):
			b[n] = 'b'
		default:
			b[n] = 'e'
		}
	}
	return string(b)
}
