package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/riodraughts/rio/internal/book"
	"github.com/riodraughts/rio/internal/match"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/search"
	"github.com/riodraughts/rio/internal/text"
)

// runBook builds an opening book (engine book build) or shows a
// position's book moves (engine book probe).
func runBook(ctx context.Context, env *Env, args []string) error {
	if len(args) == 0 || (args[0] != "build" && args[0] != "probe") {
		return usagef("engine book needs build or probe")
	}
	if args[0] == "probe" {
		return runBookProbe(env, args[1:])
	}
	var co common
	fs := newFlags(lookup("book"), env, &co)
	out := fs.String("out", "", "the book file (required); an existing one is resumed")
	plies := fs.Int("plies", 16, "deepest book position below its root, in plies")
	positions := fs.Int("positions", 2000, "stop when the book holds at least this many positions (whole batches of 8)")
	movetime := fs.Float64("movetime", 0, "seconds per move searched (not reproducible: prefer --nodes)")
	nodes := fs.Int64("nodes", 200000, "nodes per move searched (reproducible with any --threads)")
	threads := fs.Int("threads", 1, "searches at once (the book does not depend on it with --nodes)")
	dropout := fs.Int("dropout", 12, "priority a ply costs, in hundredths of a man")
	window := fs.Int("window", 80, "a line that has lost more than this (hundredths of a man, each move's shortfall from its position's best, summed) is not expanded")
	ballots := fs.Bool("ballots", true, "russian and brazilian: cover every three-move ballot too")
	var ef evalFlags
	addEvalFlags(fs, &ef)
	v, err := parse(fs, args[1:], &co)
	if err != nil {
		return err
	}
	switch {
	case *out == "":
		return usagef("--out is required")
	case *plies < 1 || *plies > 100:
		return usagef("--plies %d out of range 1-100", *plies)
	case *positions < 1 || *positions > 1<<20:
		return usagef("--positions %d out of range 1-%d", *positions, 1<<20)
	case *movetime < 0 || *movetime > 600:
		return usagef("--movetime %g out of range 0-600", *movetime)
	case *nodes < 1:
		return usagef("--nodes %d must be positive", *nodes)
	case *threads < 1 || *threads > maxThreads():
		return usagef("--threads %d out of range 1-%d", *threads, maxThreads())
	case *dropout < 1 || *window < 1:
		return usagef("--dropout and --window must be positive")
	}
	fn, err := ef.evaluator(v)
	if err != nil {
		return err
	}
	lim := search.Limits{Nodes: *nodes}
	if *movetime > 0 {
		lim = search.Limits{MoveTime: time.Duration(*movetime * float64(time.Second))}
	}
	roots := []movegen.Position{v.Start()}
	if *ballots {
		for _, o := range match.Ballots(v) {
			roots = append(roots, o.Position)
		}
	}
	// The settings a book was built with: a resumed build must keep them.
	settings := fmt.Sprintf("rio-book-settings 1\nvariant=%s plies=%d limits=%q dropout=%d window=%d ballots=%v eval=%s eval-file=%q\n",
		v.Name, *plies, lim.String(), *dropout, *window, *ballots, ef.name, ef.file)
	if old, err := os.ReadFile(*out + ".settings"); err == nil {
		if string(old) != settings {
			was := strings.TrimSpace(strings.TrimPrefix(string(old), "rio-book-settings 1\n"))
			return usagef("%s was built with other settings (%s): use them, or another --out", *out, text.Clip(was, 300))
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	} else if _, err := os.Stat(*out); err == nil {
		return usagef("%s has no %s.settings: its settings are unknown, so it cannot be resumed (use another --out)", *out, *out)
	} else if err := writeFileAtomic(*out+".settings", []byte(settings)); err != nil {
		return err
	}
	start := time.Now()
	var bar func(done, total int64)
	if isTerminal(env.Stderr) {
		bar = progress(env, "book")
	}
	cfg := book.Config{
		Variant: v, Roots: roots, Plies: *plies, Positions: *positions, Limits: lim, Threads: *threads,
		Dropout: *dropout, Window: *window, Eval: fn, Out: *out, Log: env.Log,
		Progress: func(n int) {
			if bar != nil {
				bar(int64(n), int64(*positions))
			}
		},
	}
	bk, err := book.Build(ctx, cfg)
	if err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	fi, _ := os.Stat(*out)
	var size int64
	if fi != nil {
		size = fi.Size()
	}
	fmt.Fprintf(env.Stdout, "book build variant=%s positions=%d moves=%d bytes=%d time=%.1f\n",
		v.Name, bk.Positions(), bk.Len(), size, time.Since(start).Seconds())
	return err
}

// runBookProbe prints the book moves of a position, best first.
func runBookProbe(env *Env, args []string) error {
	var co common
	fs := newFlags(lookup("book"), env, &co)
	fen := fs.String("fen", "startpos", "the position (FEN or Hub string)")
	moves := fs.String("moves", "", "moves played from it")
	var file string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		file, args = args[0], args[1:]
	}
	v, err := parseArgs(fs, args, &co, 1)
	if err != nil {
		return err
	}
	if fs.NArg() == 1 && file == "" {
		file = fs.Arg(0)
	} else if fs.NArg() > 0 || file == "" {
		return usagef("engine book probe needs one book file (or builtin)")
	}
	bk, err := loadBook(file, v)
	if err != nil {
		return err
	}
	if bk == nil {
		return usagef("engine book probe needs a book: a file, or builtin")
	}
	p, err := v.ParsePosition(*fen)
	if err != nil {
		return usageError{err}
	}
	for _, m := range strings.Fields(*moves) {
		mv, err := v.ParseMove(&p, m)
		if err != nil {
			return usageError{err}
		}
		p = p.Play(mv)
	}
	choices := bk.Lookup(&p)
	for _, c := range choices {
		fmt.Fprintf(env.Stdout, "move %s score %s\n", v.FormatMove(c.Move), FormatScore(c.Score))
	}
	fmt.Fprintf(env.Stdout, "book probe moves=%d\n", len(choices))
	return nil
}

// loadBook reads the --book of variant v: builtin, none (nil) or a file.
func loadBook(spec string, v *movegen.Variant) (*book.Book, error) {
	bk, err := book.Spec(spec, v)
	if err != nil {
		return nil, usageError{err}
	}
	return bk, nil
}

// writeFileAtomic writes data to path through a temporary file renamed
// over it.
func writeFileAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
