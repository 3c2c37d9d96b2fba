// Package book owns Rio's opening books: the file format (format.go), the
// lookup and choice of a book move in play (book.go), and the builder that
// grows a book by Rio's own searches (build.go).
//
// A book maps positions (their Zobrist hash with the side to move) to
// scored moves: every legal move of a book position, each scored by a
// search of the position it leads to. The builder grows the tree by
// dropout expansion: of all the moves of the book's positions not yet
// searched into, it expands the one with the lowest priority
// ply*dropout + (best score - its score), so that good lines go deep,
// second-best ones less, and bad ones not at all. The book is its own
// checkpoint: the tree and the frontier are recomputed from its positions,
// so an interrupted build resumes from its last write, and each search
// starts from an empty table with a node limit, so a build is the same
// for any thread count.
package book
