package cb

import (
	"runtime"
	"sync"

	"github.com/riodraughts/rio/internal/egdb"
	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/search"
	"github.com/rs/zerolog"
)

// Settings bounds.
const (
	defaultHashMiB = 64
	maxHashMiB     = 4096
	maxThreads     = 64
)

// DefaultGameType is the game type a new Engine plays until "set
// gametype" changes it. The DLL builds set it per file with -ldflags -X
// (a string, as -X requires): CheckerBoard itself never sends set
// gametype, it asks get gametype.
var DefaultGameType = "25"

// Engine is the state of one loaded library. Its methods are safe for
// concurrent use: GetMove holds the search lock for the whole search,
// while commands take only the settings lock, so that the GUI's queries
// during a search are answered at once.
type Engine struct {
	searchMu sync.Mutex // one getmove at a time

	mu          sync.Mutex // guards everything below
	variant     *movegen.Variant
	hashMiB     int
	threads     int
	book        int
	dbPath      string
	wld         bool
	maxDBPieces int
	tables      *egdb.Tables
	search      *search.Engine
	// drawRules are the draw rules the games follow (set drawrules): by
	// default CheckerBoard's own (game.CheckerBoardRules).
	drawRules game.RuleSet
	// hist is the game of the last set gamehist, for the getmove that
	// follows it (nil: none).
	hist *game.Game
}

// New returns an engine with the default settings: DefaultGameType, a
// 64 MiB table, one thread, the built-in endgame tables.
func New() *Engine {
	e := &Engine{
		variant: movegen.Russian, hashMiB: defaultHashMiB, threads: 1,
		wld: true, maxDBPieces: egdb.DefaultPieces, drawRules: game.CheckerBoardRules,
	}
	if DefaultGameType == "26" {
		e.variant = movegen.Brazilian
	}
	e.resetTables()
	return e
}

// resetTables makes the endgame tables from the settings (e.mu held).
func (e *Engine) resetTables() {
	e.tables.Close()
	e.tables = nil
	if !e.wld || e.maxDBPieces < 2 {
		return
	}
	t := egdb.NewTables(e.maxDBPieces, e.dbPath)
	t.Threads = 1 // a build during a game leaves the search a core
	if e.dbPath == "" {
		t.Cache = egdb.DefaultCache()
	}
	e.tables = t
}

// engineFor returns the search engine (made on first use) with the current
// evaluation and tables, and the settings a search needs (e.mu held).
func (e *Engine) engineFor() *search.Engine {
	if e.search == nil {
		e.search = search.NewEngine(e.hashMiB, zerolog.Nop())
	}
	e.search.Tables = e.tables
	return e.search
}

func cpuThreads() int { return min(runtime.NumCPU(), maxThreads) }
