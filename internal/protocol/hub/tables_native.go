//go:build !js

package hub

import (
	"os"
	"strconv"

	"github.com/riodraughts/rio/internal/egdb"
)

// maxTablePieces bounds egdb-pieces: above egdb.CachePieces, tables come
// only from egdb-path.
const maxTablePieces = egdb.MaxPieces

// defaultTablePieces is egdb-pieces' default: egdb.CachePieces. The
// tables up to egdb.DefaultPieces are made ready in the background from
// the first search near the endgame (Session.setTables); then, where
// there is a cache, the 5-piece slices are solved in the background on
// one core, once per machine. $RIO_EGDB_PIECES (0 to egdb.CachePieces)
// sets another default: 4 keeps that build off (a machine short of
// memory, or a test suite of many short-lived engines).
func defaultTablePieces() int {
	if n, err := strconv.Atoi(os.Getenv("RIO_EGDB_PIECES")); err == nil && n >= 0 && n <= egdb.CachePieces {
		return n
	}
	return egdb.CachePieces
}

// maxTTSize bounds the transposition table in MiB.
const maxTTSize = 4096
