// Package train makes Rio's learned evaluation: it plays self-play games
// and records their quiet positions (selfplay.go, in the 16-byte records of
// record.go), can search those positions again deeper for their scores
// (rescore.go), and fits the evaluation's weights to them (tune.go).
//
// Self-play: each game starts from an opening and a few random plies, both
// sides search with the same evaluation at a fixed number of nodes (or
// depth), and every position where neither side has a capture is kept with
// the game's result and the mover's search score. A game's randomness comes
// from its own generator seeded by (seed, game number), and it starts from
// an empty table, so a run splits into shards that concatenate to the
// whole.
//
// Tuning: logistic regression of the result (mixed with the search score
// through the same sigmoid) on the features of eval.Extract, with an L2
// penalty on the pattern weights, by Adam over mini-batches. Whole games
// are held out for validation and the epoch with the lowest validation
// loss is kept. The split, the shuffles and the sums' order depend only on
// the seed and the thread count, so a fit is reproducible. A network
// (network.go, eval.Network) is fitted on top of given pattern weights,
// which stay as they are, to the same targets; on one thread, so it depends
// on the seed alone. The other way round (TuneConfig.KeepNetwork), the
// patterns are fitted under a network that stays as it is, its output a
// constant added to each position's score; the two in turn fit both.
package train
