package hub

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/riodraughts/rio/internal/book"
	"github.com/riodraughts/rio/internal/egdb"
	"github.com/riodraughts/rio/internal/eval"
	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/search"
	"github.com/riodraughts/rio/internal/text"
	"github.com/riodraughts/rio/internal/tt"
	"github.com/riodraughts/rio/internal/version"
	"github.com/rs/zerolog"
)

// Identity is what the engine says of itself in answer to "hub".
type Identity struct {
	Name, Version, Author, Country string
}

// Rio is Rio's own identity, the same in every host that speaks Hub.
func Rio() Identity {
	return Identity{Name: "Rio", Version: version.Version, Author: "Rio developers", Country: "Brazil"}
}

// maxLine bounds the length of a command line; longer lines are refused
// whole with an error.
const maxLine = 1 << 16

// defaultThinkTime is the budget of "go think" when no level was given.
const defaultThinkTime = time.Second

// Session is one Hub session.
type Session struct {
	id  Identity
	log zerolog.Logger
	out *lineWriter

	variant      *movegen.Variant
	threads      int
	ttSize       int
	ponder       bool
	moveOverhead time.Duration
	// tables are the endgame databases (egdb-pieces, egdb-path), made
	// ready in the background from the first search near the endgame.
	tables *egdb.Tables
	// evalName is the evaluation (eval: learned or classic); evalModel
	// the weights of eval-file (evalFile), nil for the built-in ones.
	evalName  string
	evalFile  string
	evalModel *eval.Model
	// playLevel is the level parameter: 1-10 plays weaker on purpose
	// (search.Options.Level), 0 at full strength.
	playLevel int
	// drawRules are the draw rules the GUI applies (draw-rules): the game
	// record, and so the search, follows them.
	drawRules game.RuleSet
	// useBook (book) lets go think play from the opening book bookFile
	// (book-file, loaded as books[variant]; empty: the variant's built-in
	// book), a move drawn among those within bookMargin (book-margin) of
	// the best; go analyze never does.
	// features switches parts of the search on and off (features: "+Name
	// -Name", search.ApplyFeatures): for matches of one part against the
	// default at a real clock.
	features   string
	useBook    bool
	bookFile   string
	books      map[*movegen.Variant]*book.Book
	bookMargin int
	rng        *rand.Rand

	engine  *search.Engine
	game    *game.Game
	level   search.Limits
	leveled bool // a level was given since the last pos

	cur *running // the search in progress, or nil
}

// running is a search in progress.
type running struct {
	s    *search.Search
	mode string // think, ponder or analyze
	// afterHit are the limits a ponder search takes on ponder-hit.
	afterHit search.Limits
	game     *game.Game
}

// Run speaks Hub on in and out until "quit" or the end of in, which ends
// a search in progress at once. Only Run's writer touches out.
func Run(ctx context.Context, in io.Reader, out io.Writer, id Identity, log zerolog.Logger) error {
	h := &Session{
		id: id, log: log, out: &lineWriter{w: bufio.NewWriter(out)},
		variant: movegen.Brazilian, threads: 1, ttSize: 64, moveOverhead: search.Safety,
		evalName: eval.Names[0], useBook: true, bookMargin: book.DefaultMargin,
		books: map[*movegen.Variant]*book.Book{}, rng: rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 0x626f6f6b)),
	}
	h.game = game.NewRules(h.variant, h.variant.Start(), h.drawRules)
	h.setTables(defaultTablePieces(), "")
	lines := make(chan inputLine)
	go readLines(in, lines)
	defer h.stopSearch()
	for {
		var done <-chan struct{}
		if h.cur != nil && h.cur.mode != "ponder" {
			// A ponder search that ends by itself (a single legal move
			// is searched to a few plies only) keeps its answer until
			// ponder-hit or stop: done before either would answer a
			// question the GUI has not asked.
			done = h.cur.s.Done()
		}
		select {
		case l, ok := <-lines:
			if !ok {
				h.log.Info().Msg("end of input: quitting")
				return nil
			}
			if h.handle(l) {
				return nil
			}
		case <-done:
			h.finish()
		case <-ctx.Done():
			return ctx.Err()
		}
		if err := h.out.err(); err != nil {
			return fmt.Errorf("writing to the GUI: %w", err)
		}
	}
}

// inputLine is one line read, or the news that a line was too long.
type inputLine struct {
	text    string
	tooLong bool
}

// readLines is the only reader of in: it sends each line and closes lines
// at the end of input.
func readLines(in io.Reader, lines chan<- inputLine) {
	defer close(lines)
	r := bufio.NewReaderSize(in, 4096)
	var buf []byte
	tooLong := false
	for {
		part, isPrefix, err := r.ReadLine()
		if len(part) > 0 && !tooLong {
			if len(buf)+len(part) > maxLine {
				tooLong, buf = true, buf[:0]
			} else {
				buf = append(buf, part...)
			}
		}
		if err != nil {
			if len(buf) > 0 && !tooLong {
				lines <- inputLine{text: string(buf)}
			}
			return
		}
		if isPrefix {
			continue
		}
		lines <- inputLine{text: string(buf), tooLong: tooLong}
		// Let the main loop take the line before this goroutine blocks in
		// read again: the runtime queues the woken receiver on this
		// goroutine's processor, and a processor blocked in a system call
		// is only taken back after up to ~10-20 ms, which "stop" cannot
		// afford.
		runtime.Gosched()
		buf, tooLong = buf[:0], false
	}
}

// lineWriter is the single writer of stdout: every line is written whole
// and flushed.
type lineWriter struct {
	mu     sync.Mutex
	w      *bufio.Writer
	failed error
}

func (lw *lineWriter) send(line string) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	if lw.failed != nil {
		return
	}
	lw.w.WriteString(line)
	lw.w.WriteByte('\n')
	lw.failed = lw.w.Flush()
}

func (lw *lineWriter) err() error {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return lw.failed
}

// errorf answers error message="...".
func (h *Session) errorf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	h.log.Warn().Str("message", msg).Msg("hub error")
	h.out.send(Format("error", KV("message", printable(msg))))
}

// printable keeps a message on one printable-ASCII line of bounded length.
func printable(s string) string {
	s = strings.Map(func(r rune) rune {
		if r > unicode.MaxASCII || !unicode.IsPrint(r) {
			return '?'
		}
		return r
	}, s)
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

// handle runs one command; it reports true on quit.
func (h *Session) handle(in inputLine) bool {
	if in.tooLong {
		h.errorf("line longer than %d bytes ignored", maxLine)
		return false
	}
	h.log.Debug().Str("line", in.text).Msg("<")
	l, err := ParseLine(in.text)
	if err != nil {
		h.errorf("cannot read %q: %v", text.Clip(in.text, 60), err)
		return false
	}
	busy := h.cur != nil
	// During a search only ping, stop, ponder-hit and quit make sense
	// (hub.md); state-changing commands are refused and change nothing.
	switch l.Command {
	case "set-param", "pos", "level", "go", "new-game", "init":
		if busy {
			h.errorf("%s during a search ignored", l.Command)
			return false
		}
	}
	switch l.Command {
	case "":
	case "hub":
		h.hello()
	case "init":
		h.ensureEngine()
		h.out.send("ready")
	case "set-param":
		h.setParam(l)
	case "pos":
		h.setPosition(l)
	case "level":
		h.setLevel(l)
	case "go":
		h.startSearch(l)
	case "ponder-hit":
		if busy && h.cur.mode == "ponder" {
			h.cur.mode = "think"
			h.cur.s.PonderHit(h.cur.afterHit)
		}
	case "stop":
		if busy {
			// The threads poll every few thousand nodes: waiting here takes
			// about a millisecond and keeps done right after stop.
			h.cur.s.Stop()
			h.finish()
		}
	case "ping":
		h.out.send("pong")
	case "new-game":
		if h.engine != nil {
			h.engine.TT.Clear()
		}
	case "quit":
		return true
	default:
		h.errorf("unknown command %q", text.Clip(l.Command, 60))
	}
	return false
}

// hello answers "hub": identity, parameters, wait.
func (h *Session) hello() {
	h.out.send(Format("id", KV("name", h.id.Name), KV("version", h.id.Version), KV("author", h.id.Author), KV("country", h.id.Country)))
	for _, p := range h.params() {
		h.out.send(p)
	}
	h.out.send("wait")
}

// params declares the parameters, name first, then value and type.
func (h *Session) params() []string {
	return []string{
		Format("param", KV("name", "variant"), KV("value", h.variant.Name), KV("type", "enum"), KV("values", movegen.VariantNames())),
		Format("param", KV("name", "threads"), KV("value", strconv.Itoa(h.threads)), KV("type", "int"), KV("min", "1"), KV("max", strconv.Itoa(maxThreads()))),
		Format("param", KV("name", "tt-size"), KV("value", strconv.Itoa(log2Entries(h.ttSize))), KV("type", "int"), KV("min", strconv.Itoa(log2Entries(tt.MinMiB))), KV("max", strconv.Itoa(log2Entries(maxTTSize)))),
		Format("param", KV("name", "ponder"), KV("value", strconv.FormatBool(h.ponder)), KV("type", "bool")),
		Format("param", KV("name", "move-overhead"), KV("value", strconv.Itoa(int(h.moveOverhead/time.Millisecond))), KV("type", "int"), KV("min", "0"), KV("max", "5000")),
		Format("param", KV("name", "egdb-pieces"), KV("value", strconv.Itoa(h.tables.Pieces)), KV("type", "int"), KV("min", "0"), KV("max", strconv.Itoa(maxTablePieces))),
		Format("param", KV("name", "egdb-path"), KV("value", h.tables.Path), KV("type", "string")),
		Format("param", KV("name", "eval"), KV("value", h.evalName), KV("type", "enum"), KV("values", strings.Join(eval.Names, " "))),
		Format("param", KV("name", "eval-file"), KV("value", h.evalFile), KV("type", "string")),
		Format("param", KV("name", "level"), KV("value", strconv.Itoa(h.playLevel)), KV("type", "int"), KV("min", "0"), KV("max", strconv.Itoa(search.MaxLevel))),
		Format("param", KV("name", "draw-rules"), KV("value", h.drawRules.String()), KV("type", "enum"), KV("values", strings.Join(game.RuleSetNames, " "))),
		Format("param", KV("name", "features"), KV("value", h.features), KV("type", "string")),
		Format("param", KV("name", "book"), KV("value", strconv.FormatBool(h.useBook)), KV("type", "bool")),
		Format("param", KV("name", "book-file"), KV("value", h.bookFile), KV("type", "string")),
		Format("param", KV("name", "book-margin"), KV("value", strconv.Itoa(h.bookMargin)), KV("type", "int"), KV("min", "0"), KV("max", "100")),
	}
}

// maxLog2Entries is the largest tt-size read as Scan reads it, the log2
// of the table's entries; larger values are MiB.
const maxLog2Entries = 32

// TableMiB is the table size in MiB that a tt-size value asks for. Values
// up to 32 are Scan's log2 of entries (lidraughts sends 22 for 4 M
// entries, its 64 MB), so a Scan host gets the table it asks for; larger
// values are MiB (a lidraughts-bot config's 256). The result stays within
// tt.MinMiB..maxTTSize (4096 MiB, 512 in the browser build).
func TableMiB(value int) int {
	if value > maxLog2Entries {
		return min(value, maxTTSize)
	}
	bytes := uint64(1) << value * tt.EntrySize
	return int(min(max(bytes>>20, tt.MinMiB), maxTTSize))
}

// log2Entries is how the tt-size parameter declares a table of mib MiB:
// the log2 of its entries, rounded down, so that a GUI sending the value
// back gets the same table.
func log2Entries(mib int) int {
	n := 0
	for entries := uint64(mib) << 20 / tt.EntrySize; entries > 1; entries >>= 1 {
		n++
	}
	return n
}

func maxThreads() int { return runtime.NumCPU() }

// setParam changes a parameter between searches. Unknown names and values
// of no consequence are accepted silently (hosts send their own); a bad
// value of a known parameter is an error and the old value stays.
func (h *Session) setParam(l Line) {
	name, _ := l.Get("name")
	value, _ := l.Get("value")
	intValue := func(lo, hi int) (int, bool) {
		f, err := strconv.ParseFloat(value, 64)
		if err != nil || f < float64(lo) || f > float64(hi) || f != float64(int(f)) {
			h.errorf("%s: value %q is not a whole number in %d-%d", name, text.Clip(value, 60), lo, hi)
			return 0, false
		}
		return int(f), true
	}
	switch name {
	case "variant":
		v := movegen.VariantByName(value)
		if v == nil {
			h.errorf("unsupported variant %q (Rio plays %s)", text.Clip(value, 60), movegen.VariantNames())
			return
		}
		if v != h.variant {
			h.variant = v
			h.game = game.NewRules(v, v.Start(), h.drawRules)
			h.leveled = false
			if h.evalModel != nil && h.evalModel.Variant != v {
				// Kept: it applies again if the variant comes back.
				h.log.Warn().Str("eval-file", h.evalFile).Str("variant", v.Name).Msg("the eval-file is for another variant: the built-in weights are used")
			}
		}
	case "threads":
		if n, ok := intValue(1, maxThreads()); ok {
			h.threads = n
		}
	case "tt-size":
		if n, ok := intValue(tt.MinMiB, maxTTSize); ok {
			if mib := TableMiB(n); mib != h.ttSize {
				h.ttSize = mib
				h.engine = nil // reallocated at the next init or search
			}
		}
	case "ponder", "book":
		var on bool
		switch strings.ToLower(value) {
		case "true", "1", "yes", "on":
			on = true
		case "false", "0", "no", "off", "none":
		default:
			h.errorf("%s: value %q is not true or false", name, text.Clip(value, 60))
			return
		}
		if name == "ponder" {
			h.ponder = on
		} else {
			h.useBook = on
		}
	case "features":
		if _, err := search.ApplyFeatures(search.DefaultFeatures, value); err != nil {
			h.errorf("features: %v", err)
			return
		}
		h.features = value
	case "book-margin":
		if n, ok := intValue(0, 100); ok {
			h.bookMargin = n
		}
	case "book-file":
		if value == "" {
			h.bookFile, h.books = "", map[*movegen.Variant]*book.Book{}
			return
		}
		// The file's variant is the one it declares; hosts send the
		// variant before or after it.
		var loaded *book.Book
		var errs []string
		for _, v := range movegen.Variants {
			bk, err := book.Load(value, v)
			if err == nil {
				loaded = bk
				break
			}
			errs = append(errs, err.Error())
		}
		if loaded == nil {
			h.errorf("book-file: %s; the previous book stays", bookError(errs))
			return
		}
		h.bookFile = value
		h.books = map[*movegen.Variant]*book.Book{loaded.Variant: loaded}
	case "move-overhead":
		if n, ok := intValue(0, 5000); ok {
			h.moveOverhead = time.Duration(n) * time.Millisecond
		}
	case "egdb-pieces":
		if maxTablePieces == 0 && value != "0" {
			h.errorf("egdb-pieces: this build has no endgame tables")
			return
		}
		if n, ok := intValue(0, maxTablePieces); ok && n != h.tables.Pieces {
			h.setTables(n, h.tables.Path)
		}
	case "egdb-path":
		if value != "" {
			if fi, err := os.Stat(value); err != nil || !fi.IsDir() {
				h.errorf("egdb-path: %q is not a directory; the built-in tables stay", text.Clip(value, 60))
				return
			}
		}
		if value != h.tables.Path {
			h.setTables(h.tables.Pieces, value)
		}
	case "level":
		if n, ok := intValue(0, search.MaxLevel); ok {
			h.playLevel = n
		}
	case "draw-rules":
		set, err := game.ParseRuleSet(value)
		if err != nil {
			h.errorf("%v", err)
			return
		}
		h.drawRules = set
		h.game = h.game.WithRules(set)
	case "eval":
		if !slices.Contains(eval.Names, value) {
			h.errorf("eval: %q is not one of %s", text.Clip(value, 60), strings.Join(eval.Names, ", "))
			return
		}
		h.evalName = value
	case "eval-file":
		if value == "" {
			h.evalModel, h.evalFile = nil, ""
			return
		}
		// Any variant's file is taken: hosts send parameters in any order,
		// the variant perhaps after it. It serves games of its variant.
		m, err := eval.LoadModel(value, nil)
		if err != nil {
			h.errorf("%s; the previous evaluation stays", err)
			return
		}
		h.evalModel, h.evalFile = m, value
		if m.Variant != h.variant {
			h.log.Warn().Str("eval-file", value).Str("file variant", m.Variant.Name).Str("variant", h.variant.Name).Msg("eval-file of another variant: it serves that variant's games")
		}
	default:
		h.log.Debug().Str("name", name).Str("value", value).Msg("unknown parameter ignored")
	}
}

// evaluator is the evaluation the eval and eval-file parameters choose.
func (h *Session) evaluator() eval.Func {
	switch {
	case h.evalName == "classic":
		return eval.Evaluate
	case h.evalModel != nil && h.evalModel.Variant == h.variant:
		return h.evalModel.Evaluate
	}
	return eval.Builtin(h.variant).Evaluate
}

func (h *Session) ensureEngine() {
	if h.engine == nil {
		h.engine = search.NewEngine(h.ttSize, h.log)
	}
	h.engine.Tables = h.tables
	h.engine.Eval = h.evaluator()
	h.engine.Features, _ = search.ApplyFeatures(search.DefaultFeatures, h.features) // checked by setParam
}

// setTables switches to tables of up to pieces pieces, from path when it
// is set. A variant's tables are prepared in the background from the first
// search of a position within egdb.Reach pieces; searches use them once
// ready. A path that cannot be used is reported
// as an error line when found, and the built-in tables serve instead.
func (h *Session) setTables(pieces int, path string) {
	h.tables.Close() // a build of the tables replaced stops
	t := egdb.NewTables(pieces, path)
	t.Threads, t.Cache = 1, egdb.DefaultCache()
	t.Report = func(v *movegen.Variant, db *egdb.DB, took time.Duration, err error) {
		if err != nil {
			h.out.send(Format("error", KV("message", printable(err.Error()))))
		}
		if db != nil {
			h.log.Info().Str("variant", v.Name).Int("pieces", db.Pieces).Dur("took", took).Msg("endgame tables ready")
		}
	}
	h.tables = t
}

// setPosition reads pos: pos=<Hub string or FEN>, or start / no pos=, then
// moves="...". On any error the previous position stays.
func (h *Session) setPosition(l Line) {
	pos, ok := l.Get("pos")
	if !ok || l.Has("start") || pos == "start" || pos == "startpos" {
		pos = "startpos"
	}
	p, err := h.variant.ParsePosition(pos)
	if err != nil {
		h.errorf("bad position: %v", err)
		return
	}
	g := game.NewRules(h.variant, p, h.drawRules)
	moves, _ := l.Get("moves")
	for i, m := range strings.Fields(moves) {
		if _, err := g.PlayText(m); err != nil {
			h.errorf("move %d (%s): %v", i+1, text.Clip(m, 60), err)
			return
		}
	}
	h.game = g
	h.level, h.leveled = search.Limits{}, false
}

// setLevel reads a limit of the next search. Times are seconds as reals.
// Successive level commands add up until the next pos, as in Scan:
// lidraughts sends "level move-time=90" then "level depth=16" and means
// both limits (the first reached ends the search); "level infinite"
// replaces them all.
func (h *Session) setLevel(l Line) {
	var lim search.Limits
	if h.leveled && !h.level.Infinite && !l.Has("infinite") {
		// "level infinite" stands alone: it replaces the limits before it
		// and a limit after it replaces it.
		lim = h.level
	}
	seconds := func(key string) (time.Duration, bool) {
		v, _ := l.Get(key)
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f != f || f > 1e7 || f < -1e7 {
			h.errorf("level: %s=%q is not a number of seconds", key, text.Clip(v, 60))
			return 0, false
		}
		return time.Duration(f * float64(time.Second)), true
	}
	integer := func(key string) (int64, bool) {
		v, _ := l.Get(key)
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			h.errorf("level: %s=%q is not a whole number", key, text.Clip(v, 60))
			return 0, false
		}
		return n, true
	}
	var ok bool
	known := false
	if l.Has("infinite") {
		lim.Infinite, known = true, true
	}
	if l.Has("depth") {
		var d int64
		if d, ok = integer("depth"); !ok {
			return
		}
		lim.Depth, known = int(min(max(d, 1), search.MaxPly-10)), true
	}
	if l.Has("nodes") {
		if lim.Nodes, ok = integer("nodes"); !ok {
			return
		}
		lim.Nodes, known = max(lim.Nodes, 1), true
	}
	if l.Has("move-time") {
		if lim.MoveTime, ok = seconds("move-time"); !ok {
			return
		}
		lim.MoveTime, known = max(lim.MoveTime, time.Millisecond), true
	}
	if l.Has("time") {
		lim.HasClock, known = true, true
		if lim.Time, ok = seconds("time"); !ok {
			return
		}
		if l.Has("inc") {
			if lim.Inc, ok = seconds("inc"); !ok {
				return
			}
			lim.Inc = max(lim.Inc, 0)
		}
		if l.Has("moves") {
			var n int64
			if n, ok = integer("moves"); !ok {
				return
			}
			lim.MovesToGo = int(min(n, 1000))
		}
	}
	if !known {
		h.errorf("level: expected depth, nodes, move-time, time or infinite")
		return
	}
	h.level, h.leveled = lim, true
}

// startSearch runs go think|ponder|analyze.
func (h *Session) startSearch(l Line) {
	mode := ""
	for _, m := range []string{"think", "ponder", "analyze"} {
		if l.Has(m) {
			mode = m
		}
	}
	if mode == "" {
		h.errorf("go: expected think, ponder or analyze")
		return
	}
	pos := h.game.Position()
	var buf [movegen.MaxMoves]movegen.Move
	if len(h.variant.Generate(&pos, buf[:0])) == 0 {
		h.errorf("go: the side to move has no legal move")
		return
	}
	h.ensureEngine()
	lim := h.level
	if !h.leveled {
		lim = search.Limits{Infinite: mode != "think", MoveTime: defaultThinkTime}
	}
	lim.Overhead = h.moveOverhead
	r := &running{mode: mode, game: h.game}
	if mode == "ponder" {
		r.afterHit = lim
		lim = search.Limits{Infinite: true}
	}
	opt := search.Options{Threads: h.threads, Analysis: mode == "analyze", Progress: time.Second}
	if mode != "analyze" {
		opt.Level = h.playLevel // analysis is always at full strength
	}
	g := h.game
	v := h.variant
	if mode == "think" && h.bookMove(r) {
		return
	}
	if p := g.Position(); p.Occupied().Count() <= egdb.Reach {
		h.tables.For(v) // the endgame is near: prepare the tables
	}
	if g.EndPly() >= 0 {
		// The rules drew the game and the GUI plays on: say so, then
		// search as the game goes on (search.Engine.Start).
		h.out.send(Format("info", Quoted("draw", g.Outcome().Reason), KV("ply", strconv.Itoa(g.EndPly()))))
	}
	r.s = h.engine.Start(context.Background(), g, lim, opt, func(i search.Info) {
		h.out.send(infoLine(v, i))
	})
	h.cur = r
}

// infoLine formats a search report as Hub does.
func infoLine(v *movegen.Variant, i search.Info) string {
	return Format("info",
		KV("depth", strconv.Itoa(i.Depth)),
		KV("mean-depth", strconv.FormatFloat(i.MeanDepth, 'f', 2, 64)),
		KV("score", strconv.FormatFloat(float64(i.Score)/100, 'f', 2, 64)),
		KV("nodes", strconv.FormatInt(i.Nodes, 10)),
		KV("time", strconv.FormatFloat(i.Time.Seconds(), 'f', 3, 64)),
		KV("nps", strconv.FormatFloat(i.NPS()/1e6, 'f', 2, 64)),
		Quoted("pv", strings.Join(v.FormatMoves(i.PV), " ")),
	)
}

// finish answers done for the search that ended.
func (h *Session) finish() {
	r := h.cur
	h.cur = nil
	res := r.s.Wait()
	v := r.game.Variant
	if res.Move == movegen.NoMove {
		h.errorf("no legal move")
		return
	}
	h.log.Debug().Msg("search finished")
	args := []Arg{KV("move", v.FormatMove(res.Move))}
	if res.Ponder != movegen.NoMove {
		// Only a ponder move that is legal after the move.
		p := r.game.Position()
		if len(v.LegalPrefix(&p, []movegen.Move{res.Move, res.Ponder})) == 2 {
			args = append(args, KV("ponder", v.FormatMove(res.Ponder)))
		}
	}
	h.out.send(Format("done", args...))
}

// stopSearch ends a search in progress without answering.
func (h *Session) stopSearch() {
	if h.cur != nil {
		h.cur.s.Stop()
		h.cur.s.Wait()
		h.cur = nil
	}
}

// bookMove answers go think from the book when the position is in it,
// the game has not ended by the rules and the book is on.
func (h *Session) bookMove(r *running) bool {
	if !h.useBook {
		return false
	}
	bk := h.books[h.variant]
	if h.bookFile == "" {
		bk = book.Builtin(h.variant)
	}
	c, ok := bk.Play(r.game, h.bookMargin, h.rng)
	if !ok {
		return false
	}
	h.log.Debug().Str("move", h.variant.FormatMove(c.Move)).Int("score", c.Score).Msg("book move")
	h.out.send(Format("done", KV("move", h.variant.FormatMove(c.Move))))
	return true
}

// bookError names why no variant's book could be read from a file: the
// damage, when every variant names the same.
func bookError(errs []string) string {
	for _, e := range errs {
		if !strings.Contains(e, "a book of GameType") {
			return e
		}
	}
	return errs[0]
}
