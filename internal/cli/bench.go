package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/riodraughts/rio/internal/eval"
	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/search"
)

func runBench(ctx context.Context, env *Env, args []string) error {
	var co common
	fs := newFlags(lookup("bench"), env, &co)
	depth := fs.Int("depth", search.BenchDepth, "depth of each search")
	threads := fs.Int("threads", 1, "search threads")
	hash := fs.Int("hash", 16, "transposition table size in MiB")
	features := fs.String("features", "", "search features on (+Name) or off (-Name) from the default, as Hub's features parameter")
	var ef evalFlags
	addEvalFlags(fs, &ef)
	if _, err := parse(fs, args, &co); err != nil {
		return err
	}
	sf := searchFlags{depth: *depth, threads: *threads, hash: *hash}
	lim, err := sf.limits()
	if err != nil {
		return err
	}
	if *depth < 1 {
		return usagef("--depth %d out of range 1-%d", *depth, search.MaxPly-10)
	}
	engine := search.NewEngine(*hash, env.Log)
	if engine.Features, err = search.ApplyFeatures(search.DefaultFeatures, *features); err != nil {
		return usageError{err}
	}
	var nodes int64
	if ef.name == "classic" && ef.file != "" {
		return usagef("--eval-file %s needs --eval learned", ef.file)
	}
	// The bench positions are of all three variants: each gets its own
	// variant's evaluation (--eval-file only fits positions of its variant).
	evals := map[*movegen.Variant]func(*movegen.Variant, *movegen.Position) int{}
	for _, bp := range search.BenchPositions {
		if evals[bp.Variant] != nil {
			continue
		}
		file := ef.file
		if file != "" {
			if m, err := eval.LoadModel(file, nil); err != nil {
				return usageError{err}
			} else if m.Variant != bp.Variant {
				file = ""
			}
		}
		fn, err := eval.Select(bp.Variant, ef.name, file)
		if err != nil {
			return usageError{err}
		}
		evals[bp.Variant] = fn
	}
	var elapsed time.Duration
	for i, bp := range search.BenchPositions {
		p, err := bp.Variant.ParsePosition(bp.FEN)
		if err != nil {
			return err
		}
		engine.TT.Clear()
		engine.Eval = evals[bp.Variant]
		res := engine.Run(ctx, game.New(bp.Variant, p), lim, search.Options{Threads: *threads}, nil)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		nodes += res.Nodes
		elapsed += res.Time
		fmt.Fprintf(env.Stdout, "position %d %s %s bestmove %s score %s nodes %d time %.3f\n", i+1, bp.Variant.Name,
			bp.FEN, bp.Variant.FormatMove(res.Move), FormatScore(res.Score), res.Nodes, res.Time.Seconds())
	}
	secs := elapsed.Seconds()
	fmt.Fprintf(env.Stdout, "bench nodes=%d time=%.3f nps=%.0f\n", nodes, secs, float64(nodes)/max(secs, 1e-9))
	return nil
}
