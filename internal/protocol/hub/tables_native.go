//go:build !js

package hub

import "github.com/riodraughts/rio/internal/egdb"

// Endgame tables up to egdb.DefaultPieces are made ready in the background
// from the first search near the endgame (Session.setTables).
const (
	defaultTablePieces = egdb.DefaultPieces
	maxTablePieces     = egdb.MaxPieces
)

// maxTTSize bounds the transposition table in MiB.
const maxTTSize = 4096
