package movegen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/riodraughts/rio/internal/text"
)

// FormatMove writes m in protocol notation (Hub and the moves command):
// "22-17" for a quiet move, "from x to x captured x captured ..." for a
// capture, every captured square listed in ascending number order, even
// for a single capture ("28x19x23").
func (v *Variant) FormatMove(m Move) string {
	return v.formatMove(m, false)
}

// FormatMoves writes a line of moves (each legal after the previous) in
// protocol notation.
func (v *Variant) FormatMoves(moves []Move) []string {
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = v.FormatMove(m)
	}
	return out
}

// FormatMoveAlgebraic is FormatMove with algebraic square names where the
// variant uses them (for people, not for protocols).
func (v *Variant) FormatMoveAlgebraic(m Move) string {
	return v.formatMove(m, true)
}

func (v *Variant) formatMove(m Move, algebraic bool) string {
	var sb strings.Builder
	sb.WriteString(v.SquareName(m.From(), algebraic))
	if !m.IsCapture() {
		sb.WriteByte('-')
		sb.WriteString(v.SquareName(m.To(), algebraic))
		return sb.String()
	}
	sb.WriteByte('x')
	sb.WriteString(v.SquareName(m.To(), algebraic))
	for _, s := range v.squaresByNumber(m.Captured()) {
		sb.WriteByte('x')
		sb.WriteString(v.SquareName(s, algebraic))
	}
	return sb.String()
}

// PDNStyle says how FormatPDN writes a move.
type PDNStyle struct {
	// Algebraic writes squares as a1..h8 where the variant uses them.
	Algebraic bool
	// CaptureSep separates the squares of a capture: 'x' by default, ':' in
	// russian algebraic notation.
	CaptureSep byte
}

// FormatPDN writes the legal move m of p in PDN notation: "22-17", "22x15",
// or the full path of landing squares ("22x15x8") when another legal move
// has the same from and to squares.
func (v *Variant) FormatPDN(p *Position, m Move, style PDNStyle) string {
	sep := style.CaptureSep
	if sep == 0 {
		sep = 'x'
	}
	name := func(s Square) string { return v.SquareName(s, style.Algebraic) }
	if !m.IsCapture() {
		return name(m.From()) + "-" + name(m.To())
	}
	path := []Square{m.To()}
	var buf [MaxMoves]Move
	for _, o := range v.Generate(p, buf[:0]) {
		if o.From() == m.From() && o.To() == m.To() && o.identity() != m.identity() {
			if paths := v.CapturePaths(p, m); len(paths) > 0 {
				path = paths[0]
			}
			break
		}
	}
	var sb strings.Builder
	sb.WriteString(name(m.From()))
	for _, s := range path {
		sb.WriteByte(sep)
		sb.WriteString(name(s))
	}
	return sb.String()
}

// ParseMove finds the legal move of p that s names. It accepts protocol
// notation (captured squares in any order), PDN short form ("22-17",
// "22x15") when it is unambiguous, PDN full paths ("22x15x8"), ':' as the
// capture separator, and algebraic squares where the variant uses them.
func (v *Variant) ParseMove(p *Position, s string) (Move, error) {
	in := strings.TrimSpace(s)
	tokens := strings.FieldsFunc(in, func(r rune) bool {
		return r == '-' || r == 'x' || r == 'X' || r == ':'
	})
	if len(tokens) < 2 || len(tokens) > 2*maxCaptures+2 {
		return NoMove, fmt.Errorf("bad move %q: expected squares separated by - or x", text.Clip(in, 80))
	}
	squares := make([]Square, len(tokens))
	for i, t := range tokens {
		sq, err := v.ParseSquare(t)
		if err != nil {
			return NoMove, fmt.Errorf("bad move %q: %w", text.Clip(in, 80), err)
		}
		squares[i] = sq
	}
	from, to := squares[0], squares[len(squares)-1]

	var buf [MaxMoves]Move
	legal := v.Generate(p, buf[:0])
	var exact, loose []Move // full-information matches, and the rest
	for _, m := range legal {
		if m.From() != from {
			continue
		}
		switch {
		case len(squares) == 2:
			if m.To() == to {
				loose = append(loose, m)
			}
		case m.To() == squares[1] && capturedSet(squares[2:]) == m.Captured() && len(squares)-2 == m.Captured().Count():
			exact = append(exact, m) // protocol notation
		case m.To() == to && m.IsCapture() && v.hasPath(p, m, squares[1:]):
			loose = append(loose, m) // PDN path
		}
	}
	switch {
	case len(exact) == 1:
		return exact[0], nil
	case len(exact) == 0 && len(loose) == 1:
		return loose[0], nil
	case len(exact)+len(loose) == 0:
		return NoMove, fmt.Errorf("illegal move %s", text.Clip(in, 80))
	}
	names := make([]string, 0, len(exact)+len(loose))
	for _, m := range append(exact, loose...) {
		names = append(names, v.FormatMove(m))
	}
	slices.Sort(names)
	return NoMove, fmt.Errorf("ambiguous move %s: could be %s", text.Clip(in, 80), strings.Join(names, " or "))
}

func capturedSet(squares []Square) Bitboard {
	var b Bitboard
	for _, s := range squares {
		b |= s.Bit()
	}
	return b
}

// hasPath reports whether path lists the landing squares of one way to
// play the capture m.
func (v *Variant) hasPath(p *Position, m Move, path []Square) bool {
	for _, q := range v.CapturePaths(p, m) {
		if slices.Equal(q, path) {
			return true
		}
	}
	return false
}
