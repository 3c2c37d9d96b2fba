package cli

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/riodraughts/rio/internal/movegen"
)

func runPerft(ctx context.Context, env *Env, args []string) error {
	var co common
	c := lookup("perft")
	fs := newFlags(c, env, &co)
	depth := fs.Int("depth", 0, "plies to count (1-"+fmt.Sprint(movegen.MaxPerftDepth)+")")
	divide := fs.Bool("divide", false, "first print each root move and its count")
	fen := fs.String("fen", "startpos", "position: PDN FEN, Hub string or startpos")
	threads := fs.Int("threads", 1, fmt.Sprintf("goroutines sharing the root moves (1-%d)", maxThreads()))
	v, err := parse(fs, args, &co)
	if err != nil {
		return err
	}
	if *depth < 1 || *depth > movegen.MaxPerftDepth {
		return usagef("--depth %d out of range 1-%d", *depth, movegen.MaxPerftDepth)
	}
	if *threads < 1 || *threads > maxThreads() {
		return usagef("--threads %d out of range 1-%d", *threads, maxThreads())
	}
	p, err := v.ParsePosition(*fen)
	if err != nil {
		return usagef("--fen: %v", err)
	}
	env.Log.Debug().Str("variant", v.Name).Int("depth", *depth).Int("threads", *threads).
		Str("fen", v.FormatFEN(&p, false)).Msg("perft")

	start := time.Now()
	var total uint64
	if *depth == 1 && !*divide || *threads == 1 && !*divide {
		total = v.Perft(&p, *depth)
	} else {
		entries, err := v.PerftDivide(ctx, &p, *depth, *threads)
		if err != nil {
			return err
		}
		lines := make([]string, len(entries))
		for i, e := range entries {
			total += e.Nodes
			lines[i] = fmt.Sprintf("%s %d", v.FormatMove(e.Move), e.Nodes)
		}
		if *divide {
			slices.Sort(lines)
			for _, l := range lines {
				fmt.Fprintln(env.Stdout, l)
			}
		}
	}
	elapsed := time.Since(start).Seconds()
	fmt.Fprintf(env.Stdout, "perft depth=%d nodes=%d time=%.3f\n", *depth, total, elapsed)
	return nil
}

// maxThreads bounds --threads: more goroutines than this only add overhead.
func maxThreads() int { return max(256, runtime.NumCPU()) }
