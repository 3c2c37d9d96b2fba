package movegen

// Move is a packed legal move:
//
//	bits  0-34  captured squares (a Bitboard)
//	bits 40-45  from square
//	bits 48-53  to square
//	bit  56     promotion: the moving man ends the move as a king
//
// A move is identified by from, to and the captured set; the path a capture
// took is not stored (see Variant.CapturePaths). The zero Move is no move.
type Move uint64

// NoMove is the zero Move.
const NoMove Move = 0

const (
	moveFromShift = 40
	moveToShift   = 48
	movePromotes  = Move(1) << 56
	moveCapMask   = Move(1<<35 - 1)
)

// NewMove packs a move.
func NewMove(from, to Square, captured Bitboard, promotes bool) Move {
	m := Move(captured) | Move(from)<<moveFromShift | Move(to)<<moveToShift
	if promotes {
		m |= movePromotes
	}
	return m
}

// From returns the square the moving piece leaves.
func (m Move) From() Square { return Square(m >> moveFromShift & 63) }

// To returns the square the moving piece ends on.
func (m Move) To() Square { return Square(m >> moveToShift & 63) }

// Captured returns the squares of the pieces taken.
func (m Move) Captured() Bitboard { return Bitboard(m & moveCapMask) }

// IsCapture reports whether m takes at least one piece.
func (m Move) IsCapture() bool { return m&moveCapMask != 0 }

// Promotes reports whether the moving man becomes a king.
func (m Move) Promotes() bool { return m&movePromotes != 0 }

// identity drops the promotion flag: two moves with the same from, to and
// captured set are the same move.
func (m Move) identity() Move { return m &^ movePromotes }
