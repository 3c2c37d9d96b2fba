// Package search finds the best move: iterative deepening over a
// principal-variation (negamax alpha-beta) search with aspiration windows,
// a quiescence search that plays out every pending capture (captures are
// forced in draughts), optionally looking one ply further when the
// opponent threatens one, transposition-table cutoffs, move ordering (table move,
// then killers and history), late-move reductions with re-search, and a
// single-reply extension.
//
// Draws come from the game record's rules: repetitions through a
// game.History and the move-count rules through game.Counters carried per
// ply. Scores are in hundredths of a man from the side to move; a forced
// win in n plies is tt.Win-n.
//
// Parallel search is lazy SMP: Threads goroutines under an errgroup run the
// same iterative deepening, sharing only the transposition table and a small
// table of the positions under search (busy.go). A thread that reaches a
// move whose position another thread is already searching puts it off to
// the end of its list (the deferral of ABDADA, in Kerrigan's simplified
// form), so the threads spread over different subtrees instead of
// duplicating the same one; each has its own stacks, killers and history.
// Threads stop on an atomic flag polled every few thousand nodes. With one
// thread a search limited by depth or nodes visits the same nodes and
// returns the same move every run.
//
// Playing levels (level.go) weaken the search on purpose for people: a
// level caps depth and nodes, searches several root lines, and draws its
// move among those within a margin of the best, weighted towards the best,
// from a seed and the position (the same seed, the same game).
package search
