package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/riodraughts/rio/internal/egdb"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/schollz/progressbar/v3"
)

// runEgdb is "engine egdb build|verify": endgame tables on disk.
func runEgdb(ctx context.Context, env *Env, args []string) error {
	if len(args) == 0 || (args[0] != "build" && args[0] != "verify") {
		return usagef("engine egdb needs build or verify")
	}
	what := args[0]
	var co common
	fs := newFlags(lookup("egdb"), env, &co)
	pieces := fs.Int("pieces", egdb.DefaultPieces, fmt.Sprintf("tables of up to this many pieces (2-%d)", egdb.MaxPieces))
	dir := fs.String("dir", "", "directory of the table files (required)")
	// One pair of slices per core: more would not be faster, and each
	// pair in flight holds its solving state (gigabytes for 6 pieces).
	threads := fs.Int("threads", runtime.NumCPU(), "slices solved or checked at once")
	v, err := parse(fs, args[1:], &co)
	if err != nil {
		return err
	}
	switch {
	case *dir == "":
		return usagef("--dir is required")
	case *pieces < 2 || *pieces > egdb.MaxPieces:
		return usagef("--pieces %d out of range 2-%d", *pieces, egdb.MaxPieces)
	case *threads < 1 || *threads > maxThreads():
		return usagef("--threads %d out of range 1-%d", *threads, maxThreads())
	}
	start := time.Now()
	bar := progress(env, what)
	if what == "build" {
		if err := os.MkdirAll(*dir, 0o755); err != nil {
			return err
		}
		db, err := egdb.Build(ctx, v, *pieces, egdb.Options{Threads: *threads, Store: egdb.Dir(*dir), Progress: bar})
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "egdb build variant=%s pieces=%d tables=%d positions=%d bytes=%d time=%.1f\n",
			v.Name, *pieces, db.Tables(), db.Positions(), dirBytes(*dir, v, *pieces), time.Since(start).Seconds())
		return nil
	}
	db, err := egdb.Open(*dir, v, *pieces)
	if err != nil {
		return err
	}
	if err := egdb.Verify(ctx, db, *threads, bar); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "egdb verify variant=%s pieces=%d tables=%d positions=%d ok time=%.1f\n",
		v.Name, *pieces, db.Tables(), db.Positions(), time.Since(start).Seconds())
	return nil
}

// progress returns a progress callback drawing a bar on stderr when it is
// a terminal, else nil.
func progress(env *Env, what string) func(done, total int64) {
	if !isTerminal(env.Stderr) {
		return nil
	}
	var bar *progressbar.ProgressBar
	var mu sync.Mutex
	return func(done, total int64) { // called from the solving goroutines
		mu.Lock()
		defer mu.Unlock()
		if bar == nil {
			bar = newProgressBar(env.Stderr, total, what)
		}
		_ = bar.Set64(done)
	}
}

// dirBytes sums the sizes of the table files of v up to pieces pieces.
func dirBytes(dir string, v *movegen.Variant, pieces int) int64 {
	var n int64
	for _, m := range egdb.Slices(pieces) {
		if fi, err := os.Stat(filepath.Join(dir, egdb.FileName(v, m))); err == nil {
			n += fi.Size()
		}
	}
	return n
}
