package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/riodraughts/rio/internal/book"
	"github.com/riodraughts/rio/internal/egdb"
	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/search"
	"github.com/riodraughts/rio/internal/tt"
)

// defaultDepth is the limit of analyze when none is given.
const defaultDepth = 12

// searchFlags are the flags of the commands that search.
type searchFlags struct {
	depth    int
	movetime float64
	nodes    int64
	threads  int
	hash     int
}

func addSearchFlags(fs *cmdFlags, sf *searchFlags) {
	fs.IntVar(&sf.depth, "depth", 0, fmt.Sprintf("search to this depth (default %d when no limit is given)", defaultDepth))
	fs.Float64Var(&sf.movetime, "movetime", 0, "search this many seconds")
	fs.Int64Var(&sf.nodes, "nodes", 0, "search this many nodes")
	fs.IntVar(&sf.threads, "threads", 1, "search threads")
	fs.IntVar(&sf.hash, "hash", 64, fmt.Sprintf("transposition table size in MiB (%d-%d)", tt.MinMiB, tt.MaxMiB))
}

// limits checks the search flags and returns the limits they give.
func (sf *searchFlags) limits() (search.Limits, error) {
	switch {
	case sf.depth < 0 || sf.depth > search.MaxPly-10:
		return search.Limits{}, usagef("--depth %d out of range 1-%d", sf.depth, search.MaxPly-10)
	case sf.movetime < 0 || sf.movetime > 1e6:
		return search.Limits{}, usagef("--movetime %g out of range", sf.movetime)
	case sf.nodes < 0:
		return search.Limits{}, usagef("--nodes %d is negative", sf.nodes)
	case sf.threads < 1 || sf.threads > maxThreads():
		return search.Limits{}, usagef("--threads %d out of range 1-%d", sf.threads, maxThreads())
	case sf.hash < tt.MinMiB || sf.hash > tt.MaxMiB:
		return search.Limits{}, usagef("--hash %d out of range %d-%d", sf.hash, tt.MinMiB, tt.MaxMiB)
	}
	lim := search.Limits{Depth: sf.depth, Nodes: sf.nodes, MoveTime: time.Duration(sf.movetime * float64(time.Second))}
	if lim.Depth == 0 && lim.Nodes == 0 && lim.MoveTime == 0 {
		lim.Depth = defaultDepth
	}
	return lim, nil
}

func runAnalyze(ctx context.Context, env *Env, args []string) error {
	var co common
	var sf searchFlags
	fs := newFlags(lookup("analyze"), env, &co)
	addSearchFlags(fs, &sf)
	var ef evalFlags
	addEvalFlags(fs, &ef)
	fen := fs.String("fen", "startpos", "position: PDN FEN, Hub string or startpos")
	moves := fs.String("moves", "", "moves played from the position, separated by spaces")
	multipv := fs.Int("multipv", 1, "number of best lines to show")
	level := fs.Int("level", 0, fmt.Sprintf("play at level 1-%d (weaker on purpose: capped depth and nodes, a move drawn among the nearly best); 0 is full strength", search.MaxLevel))
	seed := fs.Uint64("seed", 0, "with --level: seed of the level's choice (0: a fresh one each run)")
	jsonOut := fs.Bool("json", false, "print JSON objects instead of text")
	bookFile := fs.String("book", "builtin", "with --level: play from this opening book while the position is in it: builtin, none, or a file made by engine book build")
	bookMargin := fs.Int("book-margin", book.DefaultMargin, "with --book: a move drawn among those within this many hundredths of a man of the best")
	file := fs.String("file", "", "analyse every position of this file (positions one per line, or PDN games); JSON lines out")
	shard := fs.String("shard", "", "with --file: take only shard i of n (i/n, 1 <= i <= n)")
	egdbPieces := fs.Int("egdb-pieces", egdb.DefaultPieces, fmt.Sprintf("endgame tables up to this many pieces (0: none; above %d they come from --egdb-path)", egdb.DefaultPieces))
	egdbPath := fs.String("egdb-path", "", "directory of tables made by engine egdb build")
	v, err := parse(fs, args, &co)
	if err != nil {
		return err
	}
	lim, err := sf.limits()
	if err != nil {
		return err
	}
	if *multipv < 1 || *multipv > movegen.MaxMoves {
		return usagef("--multipv %d out of range 1-%d", *multipv, movegen.MaxMoves)
	}
	if *level < 0 || *level > search.MaxLevel {
		return usagef("--level %d out of range 0-%d", *level, search.MaxLevel)
	}
	if *egdbPieces < 0 || *egdbPieces > egdb.MaxPieces {
		return usagef("--egdb-pieces %d out of range 0-%d", *egdbPieces, egdb.MaxPieces)
	}
	evalFn, err := ef.evaluator(v)
	if err != nil {
		return err
	}
	opt := search.Options{Threads: sf.threads, MultiPV: *multipv, Analysis: true, Level: *level, Seed: *seed}
	engine := search.NewEngine(sf.hash, env.Log)
	engine.Eval = evalFn
	bookSet := false
	fs.Visit(func(f *flag.Flag) { bookSet = bookSet || f.Name == "book" || f.Name == "book-margin" })
	if *file != "" && bookSet {
		return usagef("--book plays one position's move: not with --file")
	}
	if *file != "" {
		tables, err := openTables(v, *egdbPieces, *egdbPath)
		if err != nil {
			return err
		}
		engine.Tables = tables
		return analyzeFile(ctx, env, v, engine, *file, *shard, lim, opt)
	}
	if *shard != "" {
		return usagef("--shard needs --file")
	}
	g, err := startGame(v, *fen, *moves)
	if err != nil {
		return err
	}
	out := &analyzeOutput{w: env.Stdout, v: v, json: *jsonOut, multipv: *multipv > 1}
	if *level == 0 && bookSet {
		return usagef("--book needs --level (analysis always searches)")
	}
	if *level > 0 {
		// A level plays as a bot does: from the book while it lasts.
		if *bookMargin < 0 || *bookMargin > 100 {
			return usagef("--book-margin %d out of range 0-100", *bookMargin)
		}
		bk, err := loadBook(*bookFile, v)
		if err != nil {
			return err
		}
		rng := rand.New(rand.NewPCG(*seed, 0x626b))
		if *seed == 0 {
			rng = rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 0x626b))
		}
		if c, ok := bk.Play(g, *bookMargin, rng); ok {
			out.book = true
			out.final(search.Result{Move: c.Move, Score: c.Score})
			return nil
		}
	}
	// The tables take a few seconds to build: worth it only where the
	// search can reach them.
	if root := g.Position(); root.Occupied().Count() <= egdb.Reach || *egdbPath != "" {
		if engine.Tables, err = openTables(v, *egdbPieces, *egdbPath); err != nil {
			return err
		}
	}
	if root := g.Position(); engine.Tables != nil {
		if val, ok := engine.Tables.Wait(v).Probe(&root); ok {
			out.table = val.String()
		}
	}
	res := engine.Run(ctx, g, lim, opt, out.info)
	out.final(res)
	return nil
}

// startGame sets up the position and plays moves on it.
func startGame(v *movegen.Variant, fen, moves string) (*game.Game, error) {
	p, err := v.ParsePosition(fen)
	if err != nil {
		return nil, usagef("--fen: %v", err)
	}
	g := game.New(v, p)
	for i, m := range strings.Fields(moves) {
		if _, err := g.PlayText(m); err != nil {
			return nil, usagef("--moves: move %d (%s): %v", i+1, m, err)
		}
	}
	return g, nil
}

// FormatScore writes a score in men with two decimals, as Hub does; a win
// in n plies is (10000-n)/100.
func FormatScore(score int) string {
	return strconv.FormatFloat(float64(score)/100, 'f', 2, 64)
}

// analyzeOutput prints the progress and the result of one search.
type analyzeOutput struct {
	w       io.Writer
	v       *movegen.Variant
	json    bool
	multipv bool
	table   string // the root's value in the endgame tables, if there
	book    bool   // the move is the book's (--book)
}

type jsonInfo struct {
	Depth     int      `json:"depth"`
	MultiPV   int      `json:"multipv,omitempty"`
	MeanDepth float64  `json:"mean_depth"`
	Score     float64  `json:"score"`
	Nodes     int64    `json:"nodes"`
	Time      float64  `json:"time"`
	NPS       float64  `json:"nps"`
	Hashfull  int      `json:"hashfull"`
	TBHits    int64    `json:"tbhits"`
	PV        []string `json:"pv"`
}

func (o *analyzeOutput) info(i search.Info) {
	pv := o.v.FormatMoves(i.PV)
	if o.json {
		ji := jsonInfo{Depth: i.Depth, MeanDepth: round2(i.MeanDepth), Score: float64(i.Score) / 100,
			Nodes: i.Nodes, Time: round3(i.Time.Seconds()), NPS: round2(i.NPS() / 1e6), Hashfull: i.Hashfull, TBHits: i.TBHits, PV: pv}
		if o.multipv {
			ji.MultiPV = i.Line
		}
		writeJSON(o.w, ji)
		return
	}
	line := fmt.Sprintf("info depth=%d", i.Depth)
	if o.multipv {
		line += fmt.Sprintf(" multipv=%d", i.Line)
	}
	fmt.Fprintf(o.w, "%s mean-depth=%.2f score=%s nodes=%d time=%.3f nps=%.2f tbhits=%d pv=%q\n",
		line, i.MeanDepth, FormatScore(i.Score), i.Nodes, i.Time.Seconds(), i.NPS()/1e6, i.TBHits, strings.Join(pv, " "))
}

func (o *analyzeOutput) final(r search.Result) {
	best, ponder := "", ""
	if r.Move != movegen.NoMove {
		best = o.v.FormatMove(r.Move)
	}
	if r.Ponder != movegen.NoMove {
		ponder = o.v.FormatMove(r.Ponder)
	}
	if o.json {
		final := map[string]any{"bestmove": best, "ponder": ponder, "score": float64(r.Score) / 100,
			"depth": r.Depth, "nodes": r.Nodes, "time": round3(r.Time.Seconds())}
		if o.book {
			final["book"] = true
		}
		if o.table != "" {
			final["egdb"] = o.table
		}
		writeJSON(o.w, final)
		return
	}
	if o.table != "" {
		fmt.Fprintf(o.w, "egdb %s\n", o.table)
	}
	if o.book {
		fmt.Fprintf(o.w, "book %s score %s\n", best, FormatScore(r.Score))
	}
	if best == "" {
		fmt.Fprintln(o.w, "bestmove none")
		return
	}
	if ponder != "" {
		fmt.Fprintf(o.w, "bestmove %s ponder %s\n", best, ponder)
		return
	}
	fmt.Fprintf(o.w, "bestmove %s\n", best)
}

func writeJSON(w io.Writer, v any) {
	b, _ := json.Marshal(v)
	w.Write(append(b, '\n'))
}

func round2(x float64) float64 { return float64(int64(x*100+0.5)) / 100 }
func round3(x float64) float64 { return float64(int64(x*1000+0.5)) / 1000 }

// openTables returns the endgame tables of v for a command, ready: up to
// pieces pieces, from path when set. A path that cannot be used is an
// error here (on the command line, unlike in Hub, nobody is waiting).
func openTables(v *movegen.Variant, pieces int, path string) (*egdb.Tables, error) {
	if pieces < 0 || pieces > egdb.MaxPieces {
		return nil, usagef("--egdb-pieces %d out of range 0-%d", pieces, egdb.MaxPieces)
	}
	if pieces > egdb.DefaultPieces && path == "" {
		return nil, usagef("--egdb-pieces %d needs --egdb-path (tables of more than %d pieces are built with engine egdb build)", pieces, egdb.DefaultPieces)
	}
	if pieces == 0 {
		return nil, nil
	}
	t := egdb.NewTables(pieces, path)
	t.Cache, t.Strict = egdb.DefaultCache(), true
	var loadErr error
	t.Report = func(_ *movegen.Variant, _ *egdb.DB, _ time.Duration, err error) { loadErr = err }
	t.Wait(v)
	if loadErr != nil {
		return nil, loadErr
	}
	return t, nil
}
