package cli

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/mattn/go-isatty"
	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/search"
	"github.com/schollz/progressbar/v3"
)

// batchItem is one position of a batch: a game whose current position is
// analysed (so repetitions and draw counters are known), or a line that
// could not be read.
type batchItem struct {
	id   string
	game *game.Game
	err  error
}

// pdnLike recognises PDN text: tag pairs or numbered moves.
var pdnLike = regexp.MustCompile(`(?m)^\s*(\[[A-Za-z]+\s+"|1\.)`)

// readBatch reads the positions of a batch file: every position of every
// game of a PDN file, or one position per line (a FEN or Hub string,
// optionally after a label and a tab; # starts a comment line).
func readBatch(r io.Reader, v *movegen.Variant) ([]batchItem, error) {
	data, err := io.ReadAll(io.LimitReader(r, 1<<30))
	if err != nil {
		return nil, err
	}
	var items []batchItem
	if pdnLike.Match(data) {
		games, err := game.ReadPDN(bytes.NewReader(data), v)
		if err != nil {
			return nil, err
		}
		for _, pg := range games {
			if pg.Game == nil {
				items = append(items, batchItem{id: fmt.Sprintf("game %d", pg.Number), err: pg.Err})
				continue
			}
			// Replay the game, one item per position.
			for ply := 0; ply <= pg.Game.Ply(); ply++ {
				g := game.New(pg.Game.Variant, pg.Game.Start())
				for _, m := range pg.Game.Moves()[:ply] {
					g.Play(m)
				}
				items = append(items, batchItem{id: fmt.Sprintf("game %d ply %d", pg.Number, ply), game: g})
			}
			if pg.Err != nil {
				items = append(items, batchItem{id: fmt.Sprintf("game %d", pg.Number), err: pg.Err})
			}
		}
		return items, nil
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id := "line " + strconv.Itoa(n)
		text := line
		if label, rest, ok := strings.Cut(line, "\t"); ok {
			id += " " + strings.TrimSpace(label)
			text = strings.TrimSpace(rest)
		}
		p, err := v.ParsePosition(text)
		if err != nil {
			items = append(items, batchItem{id: id, err: err})
			continue
		}
		items = append(items, batchItem{id: id, game: game.New(v, p)})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return items, nil
}

// parseShard reads i/n (1 <= i <= n).
func parseShard(s string) (i, n int, err error) {
	if s == "" {
		return 1, 1, nil
	}
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return 0, 0, usagef("--shard %q: want i/n with 1 <= i <= n", s)
	}
	return i, n, nil
}

type batchResult struct {
	ID       string   `json:"id"`
	FEN      string   `json:"fen,omitempty"`
	BestMove string   `json:"bestmove,omitempty"`
	Ponder   string   `json:"ponder,omitempty"`
	Score    *float64 `json:"score,omitempty"`
	Depth    int      `json:"depth,omitempty"`
	Nodes    int64    `json:"nodes,omitempty"`
	Time     float64  `json:"time,omitempty"`
	PV       []string `json:"pv,omitempty"`
	Error    string   `json:"error,omitempty"`
}

// analyzeFile analyses the positions of a file, one JSON line each. Every
// position starts from an empty table, so a result does not depend on the
// order or on the shard it falls in.
func analyzeFile(ctx context.Context, env *Env, v *movegen.Variant, engine *search.Engine, file, shard string, lim search.Limits, opt search.Options) error {
	si, sn, err := parseShard(shard)
	if err != nil {
		return err
	}
	r, closeInput, err := openInput(env, file)
	if err != nil {
		return err
	}
	defer closeInput()
	all, err := readBatch(r, v)
	if err != nil {
		return usagef("%s: %v", file, err)
	}
	var items []batchItem
	for k, it := range all {
		if k%sn == si-1 {
			items = append(items, it)
		}
	}
	bar := newProgressBar(env.Stderr, int64(len(items)), "analysing")
	bad := 0
	for _, it := range items {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		out := batchResult{ID: it.id}
		if it.err != nil {
			out.Error = it.err.Error()
			bad++
		} else {
			p := it.game.Position()
			out.FEN = it.game.Variant.FormatFEN(&p, false)
			engine.TT.Clear()
			res := engine.Run(ctx, it.game, lim, opt, nil)
			score := float64(res.Score) / 100
			out.Score, out.Depth, out.Nodes, out.Time = &score, res.Depth, res.Nodes, round3(res.Time.Seconds())
			if res.Move != movegen.NoMove {
				out.BestMove = it.game.Variant.FormatMove(res.Move)
			}
			if res.Ponder != movegen.NoMove {
				out.Ponder = it.game.Variant.FormatMove(res.Ponder)
			}
			out.PV = it.game.Variant.FormatMoves(res.PV)
		}
		writeJSON(env.Stdout, out)
		if bar != nil {
			bar.Add(1)
		}
	}
	if bar != nil {
		bar.Finish()
		fmt.Fprintln(env.Stderr)
	}
	env.Log.Info().Int("positions", len(items)).Int("unreadable", bad).Str("shard", fmt.Sprintf("%d/%d", si, sn)).Msg("batch done")
	return nil
}

// newProgressBar returns a progress bar of n steps described as what on
// w when w is a terminal, else nil (logs and pipes get no control
// characters).
func newProgressBar(w io.Writer, n int64, what string) *progressbar.ProgressBar {
	if !isTerminal(w) {
		return nil
	}
	return progressbar.NewOptions64(n,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100_000_000),
	)
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && isatty.IsTerminal(f.Fd())
}
