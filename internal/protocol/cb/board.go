package cb

import (
	"fmt"

	"github.com/riodraughts/rio/internal/movegen"
)

// Piece codes and colours of the API (cb_interface.h).
const (
	free  = 0
	white = 1
	black = 2
	man   = 4
	king  = 8
)

// getmove's results, from the mover's point of view.
const (
	resultDraw    = 0
	resultWin     = 1
	resultLoss    = 2
	ResultUnknown = 3
)

// getmove's info bits. Bit 0, CB_RESET_MOVES (a new game), is not read:
// a getmove without set gamehist before it searches its board alone.
const (
	infoExactTime = 2
	incrTimeShift = 2
)

// Game types Rio plays.
const (
	GameTypeRussian   = 25
	GameTypeBrazilian = 26
)

// ReplySize is the size of enginecommand's reply buffer and of getmove's
// status string, the terminating NUL included.
const ReplySize = 1024

// Board is CheckerBoard's Board8x8, indexed board[x][y]; its memory layout
// is that of C's int[8][8].
type Board [8][8]int32

// Coor is CheckerBoard's struct coor.
type Coor struct{ X, Y int32 }

// CBMove is CheckerBoard's struct CBmove, field for field (all C ints);
// cmd/cbengine copies it whole to and from C.
type CBMove struct {
	jumps    int32
	newPiece int32
	oldPiece int32
	from, to Coor
	// path[1..jumps] are the landing squares in order; path[0] is unused.
	path     [12]Coor
	del      [12]Coor
	delPiece [12]int32
}

// SquareCoor returns the board coordinates of square number n (1..32) as
// numbertocoors places them for game types 25 and 26 (its default
// branch): y is the row from the top, x counts from the right.
func SquareCoor(n int) Coor {
	i := n - 1
	y := i / 4
	x := 2 * (3 - i%4)
	if y%2 == 1 {
		x++
	}
	return Coor{int32(x), int32(y)}
}

// coorSquare returns the square number at board coordinates (x, y), as
// coorstonumber does, or 0 for a light square or one off the board.
func coorSquare(x, y int) int {
	if x < 0 || x > 7 || y < 0 || y > 7 || (x+y)%2 != 0 {
		return 0
	}
	return 4*(y+1) - x/2
}

// colourOf maps the API's colour to Rio's.
func colourOf(color int) (movegen.Color, error) {
	switch color {
	case white:
		return movegen.White, nil
	case black:
		return movegen.Black, nil
	}
	return 0, fmt.Errorf("colour %d is neither white (1) nor black (2)", color)
}

// apiColour maps Rio's colour to the API's.
func apiColour(c movegen.Color) int32 {
	if c == movegen.White {
		return white
	}
	return black
}

// square returns Rio's square of square number n.
func square(n int) movegen.Square { return movegen.STD.Square(n) }

// coor returns the board coordinates of Rio's square s.
func coor(s movegen.Square) Coor { return SquareCoor(movegen.STD.Number(s)) }

// positionFromBoard reads b with color to move. It refuses anything that
// is not a position Rio plays: a piece code other than a man or king of
// either colour on a dark square, anything on a light square, a man on
// its own promotion row, more than 12 pieces a side.
func positionFromBoard(v *movegen.Variant, b *Board, color int) (movegen.Position, error) {
	var p movegen.Position
	side, err := colourOf(color)
	if err != nil {
		return p, err
	}
	p.Side = side
	for x := range 8 {
		for y := range 8 {
			code := b[x][y]
			if code == free {
				continue
			}
			n := coorSquare(x, y)
			if n == 0 {
				return movegen.Position{}, fmt.Errorf("board[%d][%d] = %d: a piece on a light square", x, y, code)
			}
			var c movegen.Color
			switch code &^ (man | king) {
			case white:
				c = movegen.White
			case black:
				c = movegen.Black
			default:
				return movegen.Position{}, fmt.Errorf("board[%d][%d] = %d: not a piece code", x, y, code)
			}
			s := square(n).Bit()
			switch code & (man | king) {
			case man:
			case king:
				p.Kings |= s
			default:
				return movegen.Position{}, fmt.Errorf("board[%d][%d] = %d: not a piece code", x, y, code)
			}
			p.Pieces[c] |= s
		}
	}
	for c := movegen.White; c <= movegen.Black; c++ {
		if n := p.PieceCount(c); n > 12 {
			return movegen.Position{}, fmt.Errorf("%d %s pieces (at most 12)", n, c)
		}
		if bad := p.Men(c) & movegen.PromotionRow(c); bad != 0 {
			return movegen.Position{}, fmt.Errorf("%s man on square %d, its promotion row", c, movegen.STD.Number(bad.First()))
		}
	}
	p.Hash = p.ComputeHash()
	return p, nil
}

// pieceAt returns the API's code of the piece on s in p (free if none).
func pieceAt(p *movegen.Position, s movegen.Square) int32 {
	var code int32
	switch {
	case p.Pieces[movegen.White].Has(s):
		code = white
	case p.Pieces[movegen.Black].Has(s):
		code = black
	default:
		return free
	}
	if p.Kings.Has(s) {
		return code | king
	}
	return code | man
}

// BoardFromPosition writes p into b: every square cleared, then its pieces.
func BoardFromPosition(p *movegen.Position, b *Board) {
	*b = Board{}
	for n := 1; n <= 32; n++ {
		c := SquareCoor(n)
		b[c.X][c.Y] = pieceAt(p, square(n))
	}
}

// describe fills mv for the legal move m of p: the pieces before and
// after, from and to, and for a capture every landing square in order
// (path[1..jumps]) and each piece taken with its square, in the order the
// route takes them. Where the route has more landings than path holds
// (which no game reaches: it needs 12 jumps), the last ones are left out of
// path but del still lists every piece.
func describe(v *movegen.Variant, p *movegen.Position, m movegen.Move, mv *CBMove) {
	*mv = CBMove{}
	from, to := m.From(), m.To()
	old := pieceAt(p, from)
	mv.oldPiece = old
	mv.newPiece = old
	if m.Promotes() {
		mv.newPiece = old&^man | king
	}
	mv.from, mv.to = coor(from), coor(to)
	if !m.IsCapture() {
		return
	}
	route := capturePath(v, p, m)
	mv.jumps = int32(m.Captured().Count())
	for i, s := range route {
		if i+1 < len(mv.path) {
			mv.path[i+1] = coor(s)
		}
	}
	for i, s := range capturedInOrder(from, route, m.Captured()) {
		if i < len(mv.del) {
			mv.del[i] = coor(s)
			mv.delPiece[i] = pieceAt(p, s)
		}
	}
}

// capturePath returns the landing squares of one route of the capture m
// (the generator's first).
func capturePath(v *movegen.Variant, p *movegen.Position, m movegen.Move) []movegen.Square {
	if paths := v.CapturePaths(p, m); len(paths) > 0 {
		return paths[0]
	}
	return []movegen.Square{m.To()} // not reached for a legal capture
}

// capturedInOrder returns the captured squares in the order the route from
// from through the landing squares route takes them: on each leg the one
// piece of captured between the two landings.
func capturedInOrder(from movegen.Square, route []movegen.Square, captured movegen.Bitboard) []movegen.Square {
	var out []movegen.Square
	at := from
	for _, next := range route {
		r0, f0 := movegen.Row(at), movegen.File(at)
		r1, f1 := movegen.Row(next), movegen.File(next)
		dr, df := sign(r1-r0), sign(f1-f0)
		for r, f := r0+dr, f0+df; r != r1 && dr != 0; r, f = r+dr, f+df {
			s, _ := movegen.SquareAt(r, f) // on the diagonal: a dark square
			if captured.Has(s) {
				out = append(out, s)
				captured &^= s.Bit()
				break
			}
		}
		at = next
	}
	return out
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// applyMove writes the move described by mv onto b the way the GUI does:
// the captured pieces removed, the mover taken from From and put on To.
// Tests use it to check that describe and BoardFromPosition agree.
func applyMove(b *Board, mv *CBMove) {
	for i := 0; i < int(mv.jumps) && i < len(mv.del); i++ {
		b[mv.del[i].X][mv.del[i].Y] = free
	}
	b[mv.from.X][mv.from.Y] = free
	b[mv.to.X][mv.to.Y] = mv.newPiece
}
