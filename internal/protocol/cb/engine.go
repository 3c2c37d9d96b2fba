package cb

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	"github.com/riodraughts/rio/internal/book"
	"github.com/riodraughts/rio/internal/egdb"
	"github.com/riodraughts/rio/internal/eval"
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

// Engine is the state of one loaded library. Its methods are safe for
// concurrent use: GetMove holds the search lock for the whole search,
// while commands take only the settings lock, so that the GUI's queries
// during a search are answered at once. A command never touches what a
// running search uses: it changes the settings, and the next GetMove
// brings the search state (the transposition table, the endgame tables)
// up to them before it searches.
type Engine struct {
	searchMu sync.Mutex // one getmove at a time; guards state
	state    searchState

	mu sync.Mutex // guards settings and hist
	settings
	// hist is the game of the last set gamehist, for the getmove that
	// follows it (nil: none).
	hist *game.Game
}

// settings are what enginecommand sets and get answers. GetMove copies
// them when it starts: a change during a search is for the next one.
type settings struct {
	variant *movegen.Variant
	hashMiB int
	threads int
	// book is CheckerBoard's book setting: 0 off, 1 the best book move, 2
	// (the default) and 3 a move drawn among those within bookMargins of
	// the best; openingBook the book of set bookfile, or with bookFile
	// empty the variant's built-in book (openingBookOf).
	book        int
	bookFile    string
	openingBook *book.Book
	dbPath      string
	wld         bool
	maxDBPieces int
	// tablesGen counts the changes of dbPath, wld and maxDBPieces: each
	// gives new tables at the next getmove (a set dbpath of the same
	// directory reads it again, for tables copied there since).
	tablesGen int
	// drawRules are the draw rules the games follow (set drawrules): by
	// default CheckerBoard's own (game.CheckerBoardRules).
	drawRules game.RuleSet
}

// searchState is what the searches use, made from the settings by
// prepare. Only GetMove touches it, with the search lock held, so that
// no command can change the table or the tables under a search.
type searchState struct {
	engine *search.Engine // made by New
	// hashMiB is the size engine's table was made with, variant the
	// variant of its entries.
	hashMiB int
	variant *movegen.Variant
	tables  *egdb.Tables
	// tablesGen is the settings' tablesGen the tables were made from.
	tablesGen int
	// rng draws a book move among the good ones.
	rng *rand.Rand
}

// bookMargins are the choice margins of CheckerBoard's book settings 1-3
// (best moves, good moves, all kinds of moves), in hundredths of a man.
var bookMargins = [4]int{0, 0, book.DefaultMargin, 12}

// defaultBook is the book setting before CheckerBoard sends one: good
// moves, so that games from the start vary as a bot's do over Hub.
const defaultBook = 2

// currentBook is the book getmove plays from: set bookfile's, or the
// variant's built-in one.
func (s *settings) currentBook() *book.Book {
	if s.bookFile == "" {
		return book.Builtin(s.variant)
	}
	return s.openingBook
}

// New returns an engine for CheckerBoard's game type gameType (25 or 26:
// the library's build chooses, since CheckerBoard asks the game type and
// never sets it) with the default settings: a 64 MiB table, one thread,
// the built-in endgame tables. It panics on another game type, a mistake
// of the build that its tests catch.
func New(gameType int) *Engine {
	v := variantOf(gameType)
	if v == nil {
		panic(fmt.Sprintf("cb.New: game type %d: Rio plays %d and %d", gameType, GameTypeRussian, GameTypeBrazilian))
	}
	e := &Engine{settings: settings{
		variant: v, hashMiB: defaultHashMiB, threads: 1, book: defaultBook,
		wld: true, maxDBPieces: egdb.DefaultPieces, drawRules: game.CheckerBoardRules,
	}}
	e.state.tables = e.settings.newTables()
	// The table is made and the variant's weights read now, when the GUI
	// loads the library, not in the first getmove, whose time they would
	// take.
	e.state.engine = search.NewEngine(defaultHashMiB, zerolog.Nop())
	eval.Builtin(v)
	e.state.hashMiB, e.state.variant = defaultHashMiB, v
	e.state.rng = rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 0x6362))
	return e
}

// variantOf returns the variant of a CheckerBoard game type, or nil for
// one Rio does not play.
func variantOf(gameType int) *movegen.Variant {
	switch gameType {
	case GameTypeRussian:
		return movegen.Russian
	case GameTypeBrazilian:
		return movegen.Brazilian
	}
	return nil
}

// newTables makes the endgame tables the settings ask for (nil: none).
func (s *settings) newTables() *egdb.Tables {
	if !s.wld || s.maxDBPieces < 2 {
		return nil
	}
	t := egdb.NewTables(s.maxDBPieces, s.dbPath)
	t.Threads = 1 // a build during a game leaves the search a core
	if s.dbPath == "" {
		t.Cache = egdb.DefaultCache()
	}
	return t
}

// prepare brings the search state up to s, the settings GetMove copied
// (e.searchMu held, e.mu not: clearing or making a large table takes a
// while, and the GUI's queries are answered meanwhile). It returns the
// search engine with the tables set.
func (e *Engine) prepare(s *settings) *search.Engine {
	st := &e.state
	if st.engine == nil || st.hashMiB != s.hashMiB {
		st.engine = nil // the old table can go before the new one is made
		st.engine = search.NewEngine(s.hashMiB, zerolog.Nop())
		st.hashMiB, st.variant = s.hashMiB, s.variant
	}
	if st.variant != s.variant {
		st.engine.TT.Clear() // its entries are of the other variant
		st.variant = s.variant
	}
	if st.tablesGen != s.tablesGen {
		st.tables.Close() // a build in progress is of the old settings
		st.tables = s.newTables()
		st.tablesGen = s.tablesGen
	}
	st.engine.Tables = st.tables
	return st.engine
}

func cpuThreads() int { return min(runtime.NumCPU(), maxThreads) }
