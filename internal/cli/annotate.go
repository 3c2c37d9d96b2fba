package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/riodraughts/rio/internal/annotate"
	"github.com/riodraughts/rio/internal/egdb"
	"github.com/riodraughts/rio/internal/eval"
	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/schollz/progressbar/v3"
)

// runAnnotate analyses every game of a PDN file and writes it annotated
// (internal/annotate does the work).
func runAnnotate(ctx context.Context, env *Env, args []string) error {
	var co common
	var sf searchFlags
	fs := newFlags(lookup("annotate"), env, &co)
	addSearchFlags(fs, &sf)
	var ef evalFlags
	addEvalFlags(fs, &ef)
	games := fs.String("games", "", "only these games of the file, by number from 1: 3,7-9")
	shard := fs.String("shard", "", "take every n-th game from the i-th (i/n, 1 <= i <= n): shards' outputs concatenate to the whole")
	jsonOut := fs.Bool("json", false, "one JSON object per game instead of PDN")
	out := fs.String("out", "", "write to this file instead of stdout")
	thresholds := fs.String("thresholds", annotate.DefaultThresholds.String(), "losses in men from which a move is ?!, ? and ??")
	egdbPieces := fs.Int("egdb-pieces", egdb.DefaultPieces, fmt.Sprintf("endgame tables up to this many pieces (0: none; above %d they come from --egdb-path)", egdb.DefaultPieces))
	egdbPath := fs.String("egdb-path", "", "directory of tables made by engine egdb build")
	v, file, err := parseFileArg(fs, args, &co, "annotate")
	if err != nil {
		return err
	}
	lim, err := sf.limits()
	if err != nil {
		return err
	}
	th, err := annotate.ParseThresholds(*thresholds)
	if err != nil {
		return usageError{err}
	}
	sel, err := annotate.ParseSelection(*games)
	if err != nil {
		return usageError{err}
	}
	si, sn, err := parseShard(*shard)
	if err != nil {
		return err
	}
	evals, err := annotateEvals(&ef)
	if err != nil {
		return err
	}

	r, closeInput, err := openInput(env, file)
	if err != nil {
		return err
	}
	all, err := annotate.Read(r, v)
	closeInput()
	if err != nil {
		return usagef("%s: %v", file, err)
	}
	picked, err := sel.Pick(all, si, sn)
	if err != nil {
		return usagef("--games: %v", err)
	}

	// The tables of every variant the games are in, ready before the
	// first search (a search uses only tables ready when it starts); the
	// first game's variant checks --egdb-path.
	first := v
	for _, pg := range picked {
		if pg.Game != nil {
			first = pg.Game.Variant
			break
		}
	}
	tables, err := openTables(first, *egdbPieces, *egdbPath)
	if err != nil {
		return err
	}
	for _, pg := range picked {
		if pg.Game != nil {
			tables.Wait(pg.Game.Variant)
		}
	}

	w := env.Stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			return usageError{err}
		}
		defer f.Close()
		w = f
	}
	bw := bufio.NewWriter(w)

	opt := annotate.Options{Limits: lim, Threads: sf.threads, HashMiB: sf.hash, Tables: tables, Thresholds: th,
		Eval: func(gv *movegen.Variant) eval.Func { return evals[gv] }, Log: env.Log}
	positions := annotate.Positions(picked)
	bar := newAnnotateBar(env.Stderr, len(picked), positions)
	if bar != nil {
		opt.Progress = bar.update
	}
	begin := time.Now()
	var broken []string
	err = annotate.Run(ctx, picked, opt, func(a *annotate.Game) error {
		if a.Err != nil {
			broken = append(broken, brokenLine(a))
		}
		if *jsonOut {
			return annotate.WriteJSON(bw, a)
		}
		return annotate.WritePDN(bw, a, annotate.DefaultPVPlies)
	})
	if bar != nil {
		bar.finish()
	}
	if ferr := bw.Flush(); err == nil && ferr != nil {
		err = ferr
	}
	if err != nil {
		return err
	}
	took := time.Since(begin)
	env.Log.Info().Int("games", len(picked)).Int("positions", positions).Float64("seconds", took.Seconds()).
		Float64("positions/s", float64(positions)/max(took.Seconds(), 1e-9)).Str("shard", fmt.Sprintf("%d/%d", si, sn)).Msg("annotated")
	for _, line := range broken {
		fmt.Fprintln(env.Stderr, line)
	}
	if len(broken) > 0 {
		return usagef("%d of %d games in %s could not be read completely (reported above; the rest of each was kept as written)", len(broken), len(picked), file)
	}
	return nil
}

// brokenLine reports a game that is not annotated entirely.
func brokenLine(a *annotate.Game) string {
	var me *game.MoveError
	switch {
	case errors.As(a.Err, &me):
		return fmt.Sprintf("game %d: ply %d: move %q: %v; annotated up to ply %d, the rest kept as written", a.PDN.Number, me.Ply, me.Text, me.Err, me.Ply-1)
	case errors.Is(a.Err, annotate.ErrTruncated):
		return fmt.Sprintf("game %d: %v; its moves are annotated", a.PDN.Number, a.Err)
	}
	return fmt.Sprintf("game %d: %v; copied as written", a.PDN.Number, a.Err)
}

// annotateEvals returns the evaluation of each variant's games: --eval,
// with --eval-file's weights for the games of the file's variant (the
// others keep their built-in weights, as bench does).
func annotateEvals(ef *evalFlags) (map[*movegen.Variant]eval.Func, error) {
	if ef.name == "classic" && ef.file != "" {
		return nil, usagef("--eval-file %s needs --eval learned", ef.file)
	}
	var fileVariant *movegen.Variant
	if ef.file != "" {
		m, err := eval.LoadModel(ef.file, nil)
		if err != nil {
			return nil, usageError{err}
		}
		fileVariant = m.Variant
	}
	evals := map[*movegen.Variant]eval.Func{}
	for _, v := range movegen.Variants {
		file := ""
		if v == fileVariant {
			file = ef.file
		}
		fn, err := eval.Select(v, ef.name, file)
		if err != nil {
			return nil, usageError{err}
		}
		evals[v] = fn
	}
	return evals, nil
}

// annotateBar is the progress bar of annotate: positions valued, games
// done, positions per second and time left.
type annotateBar struct {
	bar   *progressbar.ProgressBar
	w     io.Writer
	games int
	last  int
}

func newAnnotateBar(w io.Writer, games, positions int) *annotateBar {
	if !isTerminal(w) {
		return nil
	}
	b := &annotateBar{w: w, games: games}
	b.bar = progressbar.NewOptions64(int64(positions),
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(b.describe(0)),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("positions"),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
	)
	return b
}

func (b *annotateBar) describe(done int) string {
	return fmt.Sprintf("games %d/%d, positions", done, b.games)
}

func (b *annotateBar) update(p annotate.Progress) {
	if p.Positions > b.last {
		b.bar.Add(p.Positions - b.last)
		b.last = p.Positions
	}
	b.bar.Describe(b.describe(p.Games))
}

func (b *annotateBar) finish() {
	b.bar.Finish()
	fmt.Fprintln(b.w)
}
