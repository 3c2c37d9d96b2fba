// Package movegen owns the rules of Rio's three 8x8 draughts variants
// (brazilian, portuguese, russian): the board, positions, legal move
// generation, perft, and the notations positions and moves are read and
// written in.
//
// # Board
//
// One internal board serves all three variants. It is the FMJD ("STD")
// geometry with White at the bottom: square 1 is b8, squares are numbered
// left to right, row by row downward, 29 is a1 and 32 is g1. Portuguese is
// played on the mirrored board; mirroring maps it onto the same geometry, so
// portuguese differs only in how squares are numbered (see Numbering).
//
// A Bitboard holds one bit per playing square in a 35-bit "ghost" layout:
// two board rows of four squares, then one unused (ghost) bit, repeated.
//
//	bit = 4*row + col + row/2   (row 0 = rank 8, col 0..3 left to right)
//
//	row 0 (b8 d8 f8 h8)  bits  0  1  2  3
//	row 1 (a7 c7 e7 g7)  bits  4  5  6  7    ghost 8
//	row 2                bits  9 10 11 12
//	row 3                bits 13 14 15 16    ghost 17
//	row 4                bits 18 19 20 21
//	row 5                bits 22 23 24 25    ghost 26
//	row 6                bits 27 28 29 30
//	row 7 (a1 c1 e1 g1)  bits 31 32 33 34
//
// With the ghosts every diagonal step is the same shift on every row: -5 is
// up-left, -4 up-right, +4 down-left, +5 down-right. A step off the left or
// right edge lands on a ghost bit and a step off the top or bottom leaves
// the 35-bit range, so masking with Valid removes both. Turning the board
// 180 degrees maps bit b to 34-b, a plain bit reversal.
//
// # Positions and moves
//
// Position is a small value type (two colour bitboards, a king bitboard, the
// side to move and an incrementally kept Zobrist hash); playing a move copies
// it (copy-make), so search never has to undo. A Move is one uint64: the
// captured squares as a bitboard plus from, to and a promotion flag.
//
// # Move generation
//
// Quiet moves are found with shifts. Captures are found by a depth-first
// search over bitboards that honours the Turkish strike: pieces taken stay on
// the board until the move ends (they block and cannot be jumped twice), and
// the moving piece's start square counts as empty. A flying king chooses any
// free landing square behind the piece it takes, but where some landing lets
// the capture go on it must take one of those. Each variant's rules are data
// in a Variant value: which way men capture, the precedence rule applied to
// the finished list, and what a man does on reaching the far row in the
// middle of a capture. Moves with the same from, to and captured set are one
// move. Generation appends to a caller-owned slice and allocates nothing.
package movegen
