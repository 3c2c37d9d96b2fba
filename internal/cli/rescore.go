package cli

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/riodraughts/rio/internal/egdb"
	"github.com/riodraughts/rio/internal/train"
)

// runRescore is engine rescore: the positions of a selfplay file searched
// again, deeper, their scores replaced (train.Rescore). The output is
// written a game at a time and checkpointed like selfplay's, so an
// interrupted run resumes (--resume) and a stopped one is a usable file
// of its first games.
func runRescore(ctx context.Context, env *Env, args []string) error {
	var co common
	var sf searchFlags
	var ef evalFlags
	fs := newFlags(lookup("rescore"), env, &co)
	fs.IntVar(&sf.depth, "depth", 0, "search each position to this depth")
	fs.Int64Var(&sf.nodes, "nodes", 0, "search each position this many nodes (default 50000 when no limit is given)")
	fs.IntVar(&sf.threads, "threads", 1, "games rescored at once, one search thread each")
	fs.IntVar(&sf.hash, "hash", 16, "transposition table of each game in MiB")
	addEvalFlags(fs, &ef)
	data := fs.String("data", "", "selfplay file whose positions are rescored")
	games := fs.Int("games", 0, "rescore only the file's first N games (0: all)")
	shard := fs.String("shard", "", "rescore only block i of n of those games (i/n): the shards' files, concatenated in shard order, are the whole run's")
	egdbPieces := fs.Int("egdb-pieces", egdb.DefaultPieces, "endgame tables up to this many pieces (0: none)")
	egdbPath := fs.String("egdb-path", "", "directory of tables made by engine egdb build")
	out := fs.String("out", "", "file the rescored positions are written to (OUT.progress keeps the run's checkpoint)")
	resume := fs.Bool("resume", false, "go on with the interrupted run of OUT.progress (same settings): games already written are kept, a game half written is cut off")
	v, err := parse(fs, args, &co)
	if err != nil {
		return err
	}
	if sf.depth == 0 && sf.nodes == 0 {
		sf.nodes = 50000
	}
	lim, err := sf.limits()
	if err != nil {
		return err
	}
	switch {
	case *data == "":
		return usagef("--data is required")
	case *out == "":
		return usagef("--out is required")
	case *out == *data:
		return usagef("--out must differ from --data")
	case *games < 0:
		return usagef("--games %d: want 0 (all) or more", *games)
	case sf.threads < 1 || sf.threads > maxThreads():
		return usagef("--threads %d out of range 1-%d", sf.threads, maxThreads())
	}
	evalFn, err := ef.evaluator(v)
	if err != nil {
		return err
	}
	tables, err := openTables(v, *egdbPieces, *egdbPath)
	if err != nil {
		return err
	}
	f, err := os.Open(*data)
	if err != nil {
		return usageError{err}
	}
	records, err := train.ReadAll(f, v)
	f.Close()
	if err != nil {
		return usagef("%s: %v", *data, err)
	}
	all, err := train.Games(records)
	if err != nil {
		return usagef("%s: %v", *data, err)
	}
	if *games > 0 && *games < len(all) {
		all = all[:*games]
	}
	si, sn, err := parseShard(*shard)
	if err != nil {
		return err
	}
	// A shard is a block of consecutive games: each game's scores depend
	// only on the game and the limits, so the blocks concatenate in shard
	// order to the whole run's file, and a tune of that file splits its
	// validation games as it would the single run's.
	all = all[(si-1)*len(all)/sn : si*len(all)/sn]

	// The settings that decide the scores: a resumed run must repeat them.
	// (A whole run's string is what it was before --shard, so that its
	// checkpoints still resume.)
	shardSetting := ""
	if sn > 1 {
		shardSetting = fmt.Sprintf(" shard=%d/%d", si, sn)
	}
	run := fmt.Sprintf("rescore variant=%s data=%q games=%d%s limits=%q eval=%s eval-file=%q egdb=%d:%q",
		v.Name, *data, *games, shardSetting, lim.String(), ef.name, ef.file, *egdbPieces, *egdbPath)
	var prog runProgress
	if *resume {
		if prog, err = resumeRun(*out, run); err != nil {
			return err
		}
	} else {
		// A fresh run starts a fresh file: its games are the input's first
		// ones, one for one.
		if _, err := os.Stat(*out); err == nil {
			return usagef("--out %s exists: remove it, or --resume its run", *out)
		}
		prog = runProgress{Run: run}
	}
	w, err := os.OpenFile(*out, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer w.Close()
	if err := prog.write(*out); err != nil {
		return err
	}
	if prog.Next >= len(all) {
		fmt.Fprintf(env.Stdout, "rescore variant=%s games=0 positions=0 time=0.0\n", v.Name)
		return nil
	}
	bar := newProgressBar(env.Stderr, int64(len(all)-prog.Next), "games")
	var progErr error
	start, skipped := time.Now(), prog.Next
	cfg := train.RescoreConfig{
		Variant: v, Limits: lim, Threads: sf.threads, Skip: prog.Next,
		Eval: evalFn, Tables: tables, HashMiB: sf.hash, Log: env.Log,
		OnGame: func(_, positions int) {
			if err := prog.gameWritten(*out, positions); err != nil && progErr == nil {
				progErr = err
			}
			if bar != nil {
				bar.Add(1)
			}
		},
	}
	positions, err := train.Rescore(ctx, cfg, all, w)
	if bar != nil {
		bar.Finish()
		fmt.Fprintln(env.Stderr)
	}
	if err != nil {
		return err
	}
	if progErr != nil {
		return progErr
	}
	if err := w.Close(); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "rescore variant=%s games=%d positions=%d time=%.1f\n", v.Name, prog.Next-skipped, positions, time.Since(start).Seconds())
	return nil
}
