package cli

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"strings"
	"time"

	"github.com/riodraughts/rio/internal/eval"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/train"
)

// dataFiles is --data, repeatable, each value possibly followed by more
// file names (--data a.bin b.bin).
type dataFiles []string

func (d *dataFiles) String() string     { return strings.Join(*d, " ") }
func (d *dataFiles) Set(s string) error { *d = append(*d, s); return nil }

func runTune(ctx context.Context, env *Env, args []string) error {
	var co common
	fs := newFlags(lookup("tune"), env, &co)
	var data dataFiles
	fs.Var(&data, "data", "training positions written by engine selfplay (several files: --data a b, or --data a --data b)")
	d := train.DefaultTune
	out := fs.String("out", "", "weights file to write")
	fs.IntVar(&d.Epochs, "epochs", d.Epochs, "most passes over the data")
	fs.IntVar(&d.Patience, "patience", d.Patience, "stop after this many epochs without a better validation loss")
	fs.Float64Var(&d.L2, "l2", d.L2, "L2 penalty on the pattern weights")
	fs.Float64Var(&d.Lambda, "lambda", d.Lambda, "weight of the game result in the target (the rest: the search score)")
	fs.Float64Var(&d.Scale, "scale", 0, "sigmoid scale in hundredths of a man (0: fitted to the data's search scores)")
	fs.Float64Var(&d.LR, "lr", d.LR, "Adam step size, hundredths of a man (with --network: in the network's own units, default 0.003)")
	fs.IntVar(&d.Batch, "batch", d.Batch, "positions per step")
	fs.Float64Var(&d.Validation, "validation", d.Validation, "share of games held out for the validation loss")
	fs.Uint64Var(&d.Seed, "seed", d.Seed, "random seed (shuffles and the validation split)")
	fs.IntVar(&d.Threads, "threads", 1, "threads (the result depends on the seed and the thread count only)")
	initFile := fs.String("init", "", "start from these weights instead of material only")
	fs.BoolVar(&d.FreezePatterns, "freeze-patterns", false, "keep --init's pattern weights and fit the rest (the scalars, king squares and material table)")
	fs.BoolVar(&d.KeepNetwork, "keep-network", false, "fit the pattern weights under --init's network, which stays as it is (the other half of fitting both in turn)")
	network := fs.Bool("network", false, "fit a network of 32 hidden units on top of --init's weights, which stay as they are (--lr and --batch default to 0.003 and 1024)")
	layout := fs.Int("layout", 0, "feature layout to fit: 1 (15 windows of 8 squares), 2 (12 windows of 10 squares), 3 (layout 2 and king squares) or 4 (layout 3 and the material table); default: --init's, else 1")
	// Flags and file names may mix: the flag package stops at the first
	// file name after --data, so parse again from the next flag.
	var v *movegen.Variant
	rest := args
	for {
		var err error
		if v, err = parseArgs(fs, rest, &co, 1<<20); err != nil {
			return err
		}
		rest = fs.Args()
		if len(rest) > 0 && rest[0] == "-" {
			return usagef("unexpected argument \"-\" (data comes from files)")
		}
		for len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
			data = append(data, rest[0])
			rest = rest[1:]
		}
		if len(rest) == 0 {
			break
		}
	}
	for name, x := range map[string]float64{"l2": d.L2, "lambda": d.Lambda, "scale": d.Scale, "lr": d.LR, "validation": d.Validation} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return usagef("--%s %g is not a finite number", name, x)
		}
	}
	switch {
	case len(data) == 0:
		return usagef("--data is required")
	case *out == "":
		return usagef("--out is required")
	case d.Epochs < 1:
		return usagef("--epochs %d: want at least 1", d.Epochs)
	case d.Validation < 0 || d.Validation >= 1:
		return usagef("--validation %g out of range [0, 1)", d.Validation)
	case d.Lambda < 0 || d.Lambda > 1:
		return usagef("--lambda %g out of range [0, 1]", d.Lambda)
	case d.L2 < 0 || d.LR <= 0 || d.Batch < 1 || d.Scale < 0:
		return usagef("--l2, --lr, --batch and --scale must be positive")
	case d.Threads < 1 || d.Threads > maxThreads():
		return usagef("--threads %d out of range 1-%d", d.Threads, maxThreads())
	}
	d.Variant = v
	if *network {
		set := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
		if !set["lr"] {
			d.LR = train.DefaultNetTune.LR
		}
		if !set["batch"] {
			d.Batch = train.DefaultNetTune.Batch
		}
		if *initFile == "" {
			return usagef("--network needs --init (the weights it is fitted on top of)")
		}
		if *layout != 0 || d.FreezePatterns || d.KeepNetwork || set["l2"] {
			return usagef("--network keeps --init's weights: --layout, --freeze-patterns, --keep-network and --l2 do not apply")
		}
	}
	if d.KeepNetwork && *initFile == "" {
		return usagef("--keep-network needs --init (the weights whose network is kept)")
	}
	if *layout != 0 {
		if d.Layout = eval.LayoutByID(*layout); d.Layout == nil {
			return usagef("--layout %d: want 1, 2, 3 or 4", *layout)
		}
	}
	if *initFile != "" {
		m, err := eval.LoadModel(*initFile, v)
		if err != nil {
			return usageError{err}
		}
		d.Init = m
	}
	start := time.Now()
	var records []train.Record
	for _, name := range data {
		f, err := os.Open(name)
		if err != nil {
			return usageError{err}
		}
		recs, err := train.ReadAll(f, v)
		f.Close()
		if err != nil {
			return usagef("%s: %v", name, err)
		}
		records = append(records, recs...)
	}
	env.Log.Info().Int("records", len(records)).Dur("took", time.Since(start)).Msg("tune: data read")
	d.OnEpoch = func(epoch int, tl, vl float64) {
		fmt.Fprintf(env.Stdout, "epoch=%d loss=%.6f val-loss=%.6f time=%.1f\n", epoch, tl, vl, time.Since(start).Seconds())
	}
	tune := train.Tune
	if *network {
		tune = train.TuneNetwork
	}
	m, res, err := tune(records, d)
	if err != nil {
		return usageError{err}
	}
	if err := m.Save(*out); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "tune variant=%s positions=%d weights=%d loss=%.6f val-loss=%.6f time=%.1f\n",
		v.Name, res.Train+res.Validation, len(m.Params), res.Loss, res.ValLoss, time.Since(start).Seconds())
	env.Log.Info().Str("result", res.String()).Msg("tune: done")
	return nil
}
