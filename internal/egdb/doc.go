// Package egdb owns Rio's endgame databases: the game-theoretic value
// (win, draw or loss for the side to move) of every position with few
// pieces, for each variant, built by retrograde analysis, stored in
// checked files and probed by the search.
//
// # Slices and indexing
//
// Positions are grouped by material into slices (kings and men of the side
// to move, then of the other side). A position is always seen from the side
// to move: a position with Black to move is looked up as its colour-flipped
// twin (movegen.Position.Flip), so each slice holds positions with White to
// move only. Inside a slice, positions are numbered perfectly (index.go):
// the black men among the 28 squares a black man can stand on, the white
// men among the 28 white-man squares left free, then the white kings and
// the black kings among the squares still empty, each group by the
// combinatorial number system. Every index is a legal placement and every
// placement has one index.
//
// # Building
//
// A slice is solved together with its colour-swapped partner (a quiet move
// leads from one into the other); captures lead into slices with fewer
// pieces and promotions into slices with one man fewer, so a pair is
// solved as soon as those are, pairs in parallel (build.go). Results
// spread backwards by distance: a position lost in d plies makes each
// predecessor (a position with a quiet move into it and no capture) a win
// in d+1; a predecessor whose moves all lead to wins for the opponent is
// lost in one more than the longest. What stays open is a draw. Captures
// and promotions leave the pair; their values are looked up in the
// finished slices once. The result is exact distance to the end of the
// game (plies, best play: the winner fastest, the loser slowest). Two
// solvers do this, with the same tables to the byte:
//
//   - The block solver (blocks.go), for the slices of up to 4 pieces
//     (blockPieces; the set built in memory), works as bitbase generators do: one
//     piece is set apart, and the squares it may stand on, with the other
//     pieces fixed, form a 64-bit set. Its moves are shifts and sliding
//     fills of the whole set, the other pieces' moves map a set onto
//     another block's, and whether a capture exists is found for all its
//     squares at once. Pass d settles the wins (odd d) or losses (even d)
//     at distance d; only the positions with a capture or a promotion are
//     looked at one by one.
//   - The position solver (build.go), for larger slices, works one
//     position at a time, as in Dijkstra's algorithm with a bucket queue
//     (the block solver's passes rely on a win's distance being odd and
//     a loss's even, which slices with more pieces than DistPieces, whose
//     successors keep no distances, do not have):
//     one forward pass walks the slice in index order by stepping each
//     piece group to its next subset (walk.go, Gosper's hack) instead of
//     decoding every index, looking up captures and promotions and only
//     counting quiet moves; the backward pass un-moves quiet moves and
//     keeps a count of open moves per position. It is bound by memory
//     latency: predecessors are numbered in dense 32-bit squares in the
//     partner's (turned) frame, each position's solving state is one
//     6-byte word, the predecessors' states are loaded in a loop of
//     independent loads before they are used, and slices of up to 5
//     pieces keep each position's squares packed in 4 bytes so that a
//     settled position is read, not decoded.
//
// Values are those of the rules of play only: the move-count draw rules
// (game.DrawRules) are not part of them. The search applies those itself
// and trusts a table win only when the draw rules leave room for it.
//
// # Files
//
// A slice is stored in one file (file.go): a header with the format
// version, the variant, the material and the position count, then two bits
// per position (win, draw, loss), then, for slices of up to DistPieces
// pieces, one byte of distance per position, and a CRC-32 of everything
// before it. A short, long or altered file is refused with an error naming
// it; it is never trusted.
package egdb
