package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/riodraughts/rio/internal/egdb"
	"github.com/riodraughts/rio/internal/match"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/train"
)

func runSelfplay(ctx context.Context, env *Env, args []string) error {
	var co common
	var sf searchFlags
	var ef evalFlags
	fs := newFlags(lookup("selfplay"), env, &co)
	fs.IntVar(&sf.depth, "depth", 0, "search each move to this depth")
	fs.Float64Var(&sf.movetime, "movetime", 0, "search each move this many seconds (not reproducible)")
	fs.Int64Var(&sf.nodes, "nodes", 0, "search each move this many nodes (default 5000 when no limit is given)")
	fs.IntVar(&sf.threads, "threads", 1, "games played at once, one search thread each")
	fs.IntVar(&sf.hash, "hash", 16, "transposition table of each game in MiB")
	addEvalFlags(fs, &ef)
	games := fs.Int("games", 0, "number of games of the whole run (all shards)")
	openings := fs.String("openings", "", "start positions, one FEN per line (default: the built-in ballots; generated for portuguese)")
	randomPlies := fs.Int("random-plies", 6, "random legal moves played after the opening")
	randomMoves := fs.Float64("random-moves", 0, "chance (0-0.5) that a searched move is replaced by a random legal one; the positions before it are written score-only")
	balanced := fs.Int("balanced", 0, fmt.Sprintf("draw a game's start again (up to %d times) while a search of it scores beyond this many hundredths of a man (0: keep every start)", train.BalanceTries))
	seed := fs.Uint64("seed", 1, "random seed")
	shard := fs.String("shard", "", "play only shard i of n (i/n): games i, i+n, i+2n, ...")
	maxPlies := fs.Int("max-plies", 400, "a game still going after this many plies is a draw")
	egdbPieces := fs.Int("egdb-pieces", egdb.DefaultPieces, "endgame tables up to this many pieces (0: none)")
	egdbPath := fs.String("egdb-path", "", "directory of tables made by engine egdb build")
	out := fs.String("out", "", "file the positions are appended to (OUT.progress keeps the run's checkpoint)")
	resume := fs.Bool("resume", false, "go on with the interrupted run of OUT.progress (same settings): games already written are kept, a game half written is cut off")
	v, err := parse(fs, args, &co)
	if err != nil {
		return err
	}
	if sf.depth == 0 && sf.nodes == 0 && sf.movetime == 0 {
		sf.nodes = 5000
	}
	lim, err := sf.limits()
	if err != nil {
		return err
	}
	switch {
	case *games < 1:
		return usagef("--games %d: want at least 1", *games)
	case *out == "":
		return usagef("--out is required")
	case *randomPlies < 0 || *randomPlies > 100:
		return usagef("--random-plies %d out of range 0-100", *randomPlies)
	case !(*randomMoves >= 0 && *randomMoves <= 0.5):
		return usagef("--random-moves %g out of range 0-0.5", *randomMoves)
	case *balanced < 0:
		return usagef("--balanced %d: want 0 (off) or more", *balanced)
	case *maxPlies < 10:
		return usagef("--max-plies %d: want at least 10", *maxPlies)
	}
	si, sn := 1, 1
	if *shard != "" {
		if si, sn, err = parseShard(*shard); err != nil {
			return err
		}
	}
	evalFn, err := ef.evaluator(v)
	if err != nil {
		return err
	}
	var starts []movegen.Position
	var ops []match.Opening
	switch {
	case *openings != "":
		if ops, err = match.LoadOpenings(*openings, v); err != nil {
			return usagef("--openings: %v", err)
		}
	case v == movegen.Portuguese:
		ops = match.GenerateOpenings(v, 200, 6, 30, 1)
	default:
		ops = match.Ballots(v)
	}
	for _, o := range ops {
		starts = append(starts, o.Position)
	}
	tables, err := openTables(v, *egdbPieces, *egdbPath)
	if err != nil {
		return err
	}
	// The settings that decide the games: a resumed run must repeat them.
	run := fmt.Sprintf("variant=%s games=%d shard=%d/%d seed=%d limits=%q random-plies=%d max-plies=%d openings=%q eval=%s eval-file=%q egdb=%d:%q",
		v.Name, *games, si, sn, *seed, lim.String(), *randomPlies, *maxPlies, *openings, ef.name, ef.file, *egdbPieces, *egdbPath)
	if *randomMoves > 0 {
		// Added only when set, so checkpoints written before it resume.
		run += fmt.Sprintf(" random-moves=%g", *randomMoves)
	}
	if *balanced > 0 {
		run += fmt.Sprintf(" balanced=%d", *balanced)
	}
	prog := runProgress{Run: run}
	if *resume {
		if prog, err = resumeRun(*out, run); err != nil {
			return err
		}
	} else if err := checkNotRerun(*out, run); err != nil {
		return err
	}
	if err := checkAppend(*out, v); err != nil {
		return usageError{err}
	}
	f, err := os.OpenFile(*out, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	if !*resume {
		fi, err := f.Stat()
		if err != nil {
			return err
		}
		prog.Bytes = fi.Size()
		if err := prog.write(*out); err != nil {
			return err
		}
	}

	mine := (*games - si + sn) / sn
	if prog.Next >= mine {
		fmt.Fprintf(env.Stdout, "selfplay variant=%s games=0 positions=0 white=0 draws=0 black=0 time=0.0\n", v.Name)
		return nil
	}
	bar := newProgressBar(env.Stderr, int64(mine-prog.Next), "games")
	var progErr error
	positions := 0
	start := time.Now()
	cfg := train.SelfPlayConfig{
		Variant: v, Games: *games, Shard: si, Shards: sn, Limits: lim,
		Openings: starts, RandomPlies: *randomPlies, RandomMoves: *randomMoves, Balanced: *balanced, Threads: sf.threads, Seed: *seed,
		Eval: evalFn, Tables: tables, HashMiB: sf.hash, MaxPlies: *maxPlies, Log: env.Log,
		Skip: prog.Next,
		OnGame: func(s train.GameSummary) {
			positions += s.Positions
			if err := prog.gameWritten(*out, s.Positions); err != nil && progErr == nil {
				progErr = err
			}
			env.Log.Debug().Int("game", s.Index+1).Int("plies", s.Plies).Str("result", s.Result.PDN()).Str("reason", s.Reason).Int("random-moves", s.RandomMoves).Int("redrawn", s.Redrawn).Msg("selfplay game")
			if bar != nil {
				bar.Describe(fmt.Sprintf("games (%d positions)", positions))
				bar.Add(1)
			}
		},
	}
	tot, err := train.SelfPlay(ctx, cfg, f)
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
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "selfplay variant=%s games=%d positions=%d white=%d draws=%d black=%d time=%.1f\n",
		v.Name, tot.Games, tot.Positions, tot.WhiteWins, tot.Draws, tot.BlackWins, time.Since(start).Seconds())
	return nil
}

// checkAppend refuses to append to a file that is not a whole run of
// records of v (its last record is read back).
func checkAppend(path string, v *movegen.Variant) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	size := fi.Size()
	switch {
	case size == 0:
		return nil
	case size%train.RecordSize != 0:
		return fmt.Errorf("--out %s: %d bytes, not a whole number of %d-byte records: not appending", path, size, train.RecordSize)
	}
	last := make([]byte, train.RecordSize)
	if _, err := f.ReadAt(last, size-train.RecordSize); err != nil {
		return err
	}
	r, err := train.Decode(last)
	if err != nil {
		return fmt.Errorf("--out %s: last record: %v: not appending", path, err)
	}
	if int(r.GameType) != v.GameType {
		return fmt.Errorf("--out %s holds positions of GameType %d, not %s: not appending", path, r.GameType, v.Name)
	}
	return nil
}
