// Package book owns Rio's opening books: the file format (format.go), the
// lookup and choice of a book move in play (book.go), and the builder that
// grows a book by Rio's own searches (build.go).
//
// A book maps positions (their Zobrist hash with the side to move) to
// scored moves: every legal move of a book position, each scored by a
// search of the position it leads to. The builder grows the tree by
// dropout expansion: of all the moves of the book's positions not yet
// searched into, it expands the one with the lowest priority
// ply*dropout + the score lost along its line (each move's shortfall from
// its position's best, summed), so that good lines go deep, second-best
// ones less, and lines that lose more than a window not at all. The book
// is its own checkpoint: a resumed build replays its choices from the
// roots, taking the file's searches instead of searching again, so it
// ends as an uninterrupted one would; each search starts from an empty
// table with a node limit, and positions are added in whole batches, so a
// build is the same for any thread count.
package book
