//go:build js

package hub

// The browser build has no endgame tables: its one thread would build
// them (seconds for the 4-piece set, 8 MB) while the page waits for the
// analysis, and a build cannot be stopped within the 100 ms lidraughts
// gives "stop". The search finds small endgames' wins by itself; its wins
// are proven ones (scores above 90).
const maxTablePieces = 0

func defaultTablePieces() int { return 0 }

// maxTTSize bounds the transposition table in MiB (a browser tab has far less memory than a machine).
const maxTTSize = 512
