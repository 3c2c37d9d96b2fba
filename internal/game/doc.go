// Package game owns the record of a game: its start position and moves,
// the history the rules need (hashes since the last irreversible move,
// counters of the automatic draw rules), results with their reasons, and
// PDN reading and writing.
//
// The automatic draw rules are data: one table per variant (drawrules.go)
// naming its source, each rule a material condition, a reset event and a
// limit in plies. Counters is a small value the search copies per ply to
// follow the same rules cheaply; History is the matching view for
// repetitions (a stack of hashes, scanned back to the last irreversible
// move).
package game
