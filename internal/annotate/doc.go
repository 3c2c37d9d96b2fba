// Package annotate owns game analysis: it replays every game of a PDN
// file, scores each position, judges each move against the engine's best,
// and writes the games back as annotated PDN (or one JSON object per game).
//
// # Scores
//
// Every position of a game is valued once, in order from the start
// (analyse.go): by the endgame tables when the position is in them and
// their distance is one the draw rules cannot cut short (the search's own
// test for an exact table score), otherwise by one search, the
// transposition table kept from one position of the game to the next
// (and emptied at the start of each game, so a game's annotation depends
// on nothing else). A position with one legal move is not searched: its
// value is that of the position after the move. A position where the
// game is over (no legal move, a draw by the rules) is valued without a
// search. One value per position gives both what a move lost and the best
// move: the score of the best move is the value of the position before
// it, the score of the move played is the value of the position after it,
// negated. Scores are in hundredths of a man from the side to move, a win
// in n plies being tt.Win-n, as in the search.
//
// # Judging a move
//
// The loss of a move (judge.go) is best minus played, both clamped to
// ±10 men (so that the size of a win or of a loss does not swamp the
// average) and never below zero; a move that is the engine's best loses
// nothing. NAGs follow the loss with thresholds in men (Thresholds,
// default 0.3 ?!, 0.7 ?, 1.5 ??); a move that turns a decided win (a score
// at or beyond eval.KnownWin: a forced win, a table win, an ending the
// evaluation knows as won) into no win, or walks from no loss into a
// decided loss, is always ??. Each side's summary is its average loss in
// men per move over the moves it had a choice in (forced moves are not
// counted), and its count of each NAG.
//
// # Output
//
// The annotated PDN (pdn.go; its comments in comment.go) keeps the game's
// tags in their order, its comments and its result. It adds GameType when
// missing, the summary tags (WhiteAverageLoss, WhiteInaccuracies,
// WhiteMistakes, WhiteBlunders, the same for Black), after each move a
// {[%eval S,D]} comment (S the score of the position reached, from
// White's view, in men; #n and #-n for a win or loss in n plies; D the
// search depth; a table value is {[%eval #n] egdb: white wins in n}), the
// NAG, and for ? and ?? a variation with the best move and up to
// DefaultPVPlies plies of its line, in the variant's PDN notation
// (game.PDNStyleOf). Annotations read back are dropped before new ones
// are written ([%eval] comments go, the summary tags are replaced in
// place; the reader skips NAGs and variations), so annotating twice gives
// the same text. A game that could not be replayed to its end is
// annotated up to the move that failed and keeps the rest of its
// movetext as written (a comment or variation the end of the file cut
// open is closed); one that could not be read at all (a bad tag, FEN or
// GameType) is copied as it was.
//
// # Parallelism and determinism
//
// Games are analysed in parallel (run.go), each by one worker with its own
// engine and table, and emitted in the file's order. With a depth or node
// limit every search runs on one thread, so the output depends only on the
// input and the limits, not on the number of threads or on the shard a
// game falls in; with a time limit, threads left over when there are
// fewer games than threads go to the searches.
package annotate
