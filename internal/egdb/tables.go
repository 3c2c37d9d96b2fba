package egdb

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/riodraughts/rio/internal/movegen"
)

// DefaultPieces is how many pieces the embedded tables hold: built in
// memory, with exact distances, on first need.
const DefaultPieces = 4

// CachePieces is the most pieces the built-in tables reach where there is
// a cache: once the DefaultPieces set is ready, the larger slices are
// solved in the background into the cache and then replace it (5 pieces,
// with distances: about 46 s on one core and 0.5 GB while solving, about
// 175 MB per variant on disk and in memory, once per machine; a 3+0.03
// match, russian, 5 pieces without distances against 4: +13.0 [+4.7,
// +21.3] Elo over 748 games; portuguese, with distances against without:
// +10.4 [+2.0, +18.8] over 800).
const CachePieces = 5

// Tables gives the engine its tables per variant: loaded from Path when it
// is set (every slice up to Pieces pieces must be there), otherwise built
// in memory in the background (up to DefaultPieces), then, with a Cache
// and Pieces above DefaultPieces, extended in the background up to
// CachePieces. Pieces 0 means none. It is safe for concurrent use.
type Tables struct {
	Pieces int
	Path   string
	// Threads builds the built-in tables (0: all cores). Hub uses one, so
	// that a build started during a game leaves the search a core.
	Threads int
	// Cache, when set, is a directory where built-in tables are kept
	// between runs: the first build saves them, later runs load them
	// (milliseconds instead of seconds). A bad file there is solved again
	// and replaced; a directory that cannot be used is passed over.
	Cache string
	// Strict: a Path that cannot be used gives no tables (the error is
	// reported) instead of the built-in ones.
	Strict bool
	// Report, when set, hears of a directory that could not be used (the
	// embedded tables are used instead) and of each set made ready.
	Report func(v *movegen.Variant, db *DB, took time.Duration, err error)

	// first is the size of the set made ready first (0: DefaultPieces);
	// tests make it smaller, so that the extension is quick.
	first int

	ctx    context.Context
	cancel context.CancelFunc
	mu     sync.Mutex
	set    map[*movegen.Variant]*ready
}

// ready is a variant's tables: done closes when the first set is ready
// (db nil if there is none); db may later be replaced by a larger set.
type ready struct {
	done chan struct{}
	db   atomic.Pointer[DB]
}

// get returns the tables if they are ready (nil for a nil r).
func (r *ready) get() *DB {
	if r == nil {
		return nil
	}
	select {
	case <-r.done:
		return r.db.Load()
	default:
		return nil
	}
}

// NewTables returns tables of up to pieces pieces, from path when set.
func NewTables(pieces int, path string) *Tables {
	ctx, cancel := context.WithCancel(context.Background())
	return &Tables{Pieces: pieces, Path: path, ctx: ctx, cancel: cancel, set: map[*movegen.Variant]*ready{}}
}

// Serve returns tables that hold each of dbs (one per variant), ready at
// once: for a host or a test that built or loaded them itself.
func Serve(dbs ...*DB) *Tables {
	t := NewTables(0, "")
	for _, db := range dbs {
		r := &ready{done: make(chan struct{})}
		r.db.Store(db)
		close(r.done)
		t.set[db.Variant] = r
		t.Pieces = max(t.Pieces, db.Pieces)
	}
	return t
}

// Close stops builds in progress (their tables never become ready) and
// silences Report: for tables that are being replaced.
func (t *Tables) Close() {
	if t != nil {
		t.cancel()
	}
}

// For returns v's tables if they are ready, else nil; the first call
// starts loading or building them.
func (t *Tables) For(v *movegen.Variant) *DB { return t.start(v).get() }

// Ready returns v's tables if they are ready, else nil, without starting
// anything.
func (t *Tables) Ready(v *movegen.Variant) *DB {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	r := t.set[v]
	t.mu.Unlock()
	return r.get()
}

// DefaultCache returns the directory for built-in tables between runs:
// $RIO_EGDB_CACHE if set ("off": none), else rio/egdb in the user's cache
// directory, or "" when there is none; in either, a subdirectory per
// format and solver version.
func DefaultCache() string {
	if dir, ok := os.LookupEnv("RIO_EGDB_CACHE"); ok {
		if dir == "off" {
			return ""
		}
		return filepath.Join(dir, cacheVersion)
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(base, "rio", "egdb", cacheVersion)
}

// cacheVersion names the cache's subdirectory: tables written under other
// rules, another solver or another format are never read. Change it with
// any of those.
var cacheVersion = fmt.Sprintf("v%d.%d", formatVersion, solverVersion)

// solverVersion changes whenever the solver or the move generator could
// give different values (2: the 5-piece slices keep distances).
const solverVersion = 2

// Reach is the most pieces a position may have for the tables to be worth
// preparing before searching it: a search from more rarely gets down to
// their size.
const Reach = 10

// Wait returns v's tables, waiting until the first set is ready (nil if
// none); a larger set made later in the cache is not waited for.
func (t *Tables) Wait(v *movegen.Variant) *DB {
	r := t.start(v)
	if r == nil {
		return nil
	}
	<-r.done
	return r.db.Load()
}

func (t *Tables) start(v *movegen.Variant) *ready {
	if t == nil || t.Pieces < 2 {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if r, ok := t.set[v]; ok {
		return r
	}
	r := &ready{done: make(chan struct{})}
	t.set[v] = r
	go func() {
		// done closes once the first set is ready (or there is none),
		// not after the larger set made below.
		finish := sync.OnceFunc(func() { close(r.done) })
		defer finish()
		begin := time.Now()
		var loadErr error
		if t.Path != "" {
			db, err := Open(t.Path, v, t.Pieces)
			if err == nil {
				r.db.Store(db)
				t.report(v, db, time.Since(begin), nil)
				return
			}
			if t.Strict {
				t.report(v, nil, time.Since(begin), err)
				return
			}
			loadErr = fmt.Errorf("egdb-path %s: %w; using the built-in tables", t.Path, err)
		}
		opt := Options{Threads: cmp.Or(t.Threads, runtime.NumCPU())}
		pieces := min(t.Pieces, cmp.Or(t.first, DefaultPieces))
		var db *DB
		var err error
		cache := t.Cache != "" && os.MkdirAll(t.Cache, 0o755) == nil
		if cache {
			opt.Store = cacheDir(t.Cache)
			db, err = Build(t.ctx, v, pieces, opt)
			opt.Store = nil
		}
		if db == nil && t.ctx.Err() == nil {
			db, err = Build(t.ctx, v, pieces, opt)
		}
		if err != nil {
			t.report(v, nil, time.Since(begin), err)
			return
		}
		r.db.Store(db)
		t.report(v, db, time.Since(begin), loadErr)
		finish()
		// The larger slices only where they can be kept: solved once per
		// machine, loaded in milliseconds by every later run. The smaller
		// set serves until they are all there.
		more := min(t.Pieces, CachePieces)
		if !cache || more <= pieces || t.ctx.Err() != nil {
			return
		}
		begin = time.Now()
		opt.Store = cacheDir(t.Cache)
		big, err := Build(t.ctx, v, more, opt)
		if t.ctx.Err() != nil {
			return
		}
		if err != nil {
			t.report(v, nil, time.Since(begin), fmt.Errorf("egdb: %d-piece tables: %w; the %d-piece ones stay", more, err, pieces))
			return
		}
		r.db.Store(big)
		t.report(v, big, time.Since(begin), nil)
	}()
	return r
}

func (t *Tables) report(v *movegen.Variant, db *DB, took time.Duration, err error) {
	if t.Report != nil && t.ctx.Err() == nil {
		t.Report(v, db, took, err)
	}
}

// cacheDir is a Dir whose unusable files count as missing: the slice is
// solved again and its file written over.
type cacheDir string

func (c cacheDir) Load(v *movegen.Variant, m Material) (*Table, error) {
	t, err := Dir(c).Load(v, m)
	if err != nil {
		return nil, nil
	}
	return t, nil
}

func (c cacheDir) Save(t *Table) error { return Dir(c).Save(t) }
