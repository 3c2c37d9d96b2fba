package cb

import (
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/racebuild"
)

func boardOf(t *testing.T, v *movegen.Variant, fen string) (movegen.Position, Board) {
	t.Helper()
	p, err := v.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	var b Board
	BoardFromPosition(&p, &b)
	return p, b
}

// successor reports whether after is the position of some legal move of p,
// and whether mv describes that move.
func checkPlayed(t *testing.T, v *movegen.Variant, p *movegen.Position, after *Board, mv *CBMove) {
	t.Helper()
	var buf [movegen.MaxMoves]movegen.Move
	for _, m := range v.Generate(p, buf[:0]) {
		q := p.Play(m)
		var b Board
		BoardFromPosition(&q, &b)
		if b == *after {
			var before Board
			BoardFromPosition(p, &before)
			applyMove(&before, mv)
			if before != b {
				t.Fatalf("the move in CBmove does not give the board written")
			}
			return
		}
	}
	t.Fatalf("%s: the board written is no legal move's", v.FormatFEN(p, false))
}

func TestGetMovePlays(t *testing.T) {
	for _, v := range variants {
		e := newTestEngine(t)
		mustCommand(t, e, "set gametype "+map[*movegen.Variant]string{movegen.Russian: "25", movegen.Brazilian: "26"}[v])
		p, b := boardOf(t, v, v.StartFEN)
		var mv CBMove
		var last atomic.Value
		res := e.GetMove(&b, Request{Color: white, MaxTime: 0.05, Status: func(s string) { last.Store(s) }}, &mv)
		if res != ResultUnknown {
			t.Errorf("%s start: result %d", v, res)
		}
		checkPlayed(t, v, &p, &b, &mv)
		if s, _ := last.Load().(string); !strings.HasPrefix(s, "Rio: played ") || len(s) >= ReplySize {
			t.Errorf("status %q", s)
		}
		// Black answers (CheckerBoard may start brazilian with either).
		q, _ := positionFromBoard(v, &b, black)
		if res := e.GetMove(&b, Request{Color: black, MaxTime: 0.05}, &mv); res != ResultUnknown {
			t.Errorf("%s: black's result %d", v, res)
		}
		checkPlayed(t, v, &q, &b, &mv)
	}
}

func TestGetMoveBadInput(t *testing.T) {
	e := newTestEngine(t)
	_, good := boardOf(t, movegen.Russian, movegen.Russian.StartFEN)
	bad := good
	bad[0][1] = 77
	for _, c := range []struct {
		b     Board
		color int
	}{{good, 0}, {good, 3}, {good, -7}, {bad, white}} {
		b := c.b
		mv := CBMove{jumps: 99}
		var status string
		if res := e.GetMove(&b, Request{Color: c.color, MaxTime: 0.01, Status: func(s string) { status = s }}, &mv); res != ResultUnknown {
			t.Errorf("colour %d: result %d", c.color, res)
		}
		if b != c.b || mv != (CBMove{}) || !strings.Contains(status, "Rio: ") {
			t.Errorf("colour %d: board or move changed, status %q", c.color, status)
		}
	}
	// Nonsense times still give a move.
	for _, mt := range []float64{-1, 0, 1e300} {
		p, b := boardOf(t, movegen.Russian, "W:W22:B18,5")
		var mv CBMove
		e.GetMove(&b, Request{Color: white, MaxTime: mt, PlayNow: func() bool { return true }}, &mv)
		checkPlayed(t, movegen.Russian, &p, &b, &mv)
	}
}

func TestGetMoveResults(t *testing.T) {
	e := newTestEngine(t)
	// No legal move: a loss, the board left as it was.
	_, b := boardOf(t, movegen.Russian, "W:W29:B25,22")
	before := b
	var mv CBMove
	if res := e.GetMove(&b, Request{Color: white, MaxTime: 0.01}, &mv); res != resultLoss || b != before {
		t.Errorf("no move: result %d", res)
	}
	// The capture leaves black nothing: a win.
	p, b := boardOf(t, movegen.Russian, "W:W22:B18")
	if res := e.GetMove(&b, Request{Color: white, MaxTime: 0.05}, &mv); res != resultWin {
		t.Errorf("last capture: result %d", res)
	}
	checkPlayed(t, movegen.Russian, &p, &b, &mv)
	if mv.jumps != 1 || mv.delPiece[0] != black|man || mv.path[1] != mv.to {
		t.Errorf("capture described as %+v", mv)
	}
}

// set gamehist feeds the game record: the engine's only move repeats a
// position for the third time, which is a draw only with the history.
func TestGameHistRepetition(t *testing.T) {
	const (
		p1    = "B:WK28:B3,4,8,19,23,24,27,K30" // after 32-28
		moves = " 30-21 28-32 21-30 32-28 30-21 28-32 21-30"
		p0    = "W:WK32:B3,4,8,19,23,24,27,K30" // white's only move: 32-28
	)
	for _, hist := range []bool{false, true} {
		e := newTestEngine(t)
		if hist {
			mustCommand(t, e, "set gamehist "+p1+moves)
		}
		p, b := boardOf(t, movegen.Russian, p0)
		var mv CBMove
		res := e.GetMove(&b, Request{Color: white, MaxTime: 0.05}, &mv)
		checkPlayed(t, movegen.Russian, &p, &b, &mv)
		if hist && res != resultDraw || !hist && res == resultDraw {
			t.Errorf("history %v: result %d", hist, res)
		}
	}
	// A history that does not end on the board is not used.
	e := newTestEngine(t)
	mustCommand(t, e, "set gamehist "+p1+moves+" 32-28")
	_, b := boardOf(t, movegen.Russian, p0)
	var mv CBMove
	if res := e.GetMove(&b, Request{Color: white, MaxTime: 0.05}, &mv); res == resultDraw {
		t.Errorf("a history of another position was used")
	}
}

// schedSlack is what the timing tests allow past a time limit: it covers
// a loaded machine's scheduling (go test runs packages side by side, CI
// runs the race detector too), while a wrong budget or a playnow that is
// not polled overshoots by far more.
const schedSlack = 250 * time.Millisecond

// playnow stops the search at once: it is polled every pollEvery, and the
// search stops within milliseconds; schedSlack is all the test allows.
func TestPlayNow(t *testing.T) {
	e := newTestEngine(t)
	p, b := boardOf(t, movegen.Russian, movegen.Russian.StartFEN)
	var now atomic.Bool
	var set time.Time
	go func() {
		time.Sleep(300 * time.Millisecond)
		set = time.Now()
		now.Store(true)
	}()
	var mv CBMove
	e.GetMove(&b, Request{Color: white, MaxTime: 60, PlayNow: now.Load}, &mv)
	late := time.Since(set)
	if !now.Load() || late > schedSlack {
		t.Errorf("returned %v after playnow", late)
	}
	t.Logf("returned %v after playnow", late)
	checkPlayed(t, movegen.Russian, &p, &b, &mv)
}

func TestLimits(t *testing.T) {
	l := limits(10, 1<<incrTimeShift, 2000<<16|100)
	if !l.HasClock || l.Time != 2*time.Second || l.Inc != 100*time.Millisecond {
		t.Errorf("ms clock: %v", l)
	}
	l = limits(10, 3<<incrTimeShift, 600<<16|50)
	if !l.HasClock || l.Time != 60*time.Second || l.Inc != 5*time.Second {
		t.Errorf("0.1 s clock: %v", l)
	}
	l = limits(10, 2<<incrTimeShift, int(uint32(65535)<<16|65535))
	if l.Time != 655350*time.Millisecond || l.Inc != 655350*time.Millisecond {
		t.Errorf("0.01 s clock, full fields: %v", l)
	}
	if l = limits(1.5, 0, 0); l.HasClock || l.MoveTime != 1500*time.Millisecond {
		t.Errorf("move time: %v", l)
	}
	if l = limits(1.5, infoExactTime|1<<incrTimeShift, 400<<16); l.HasClock || l.MoveTime != 185*time.Millisecond {
		t.Errorf("exact with a clock: %v", l)
	}
}

// The time limits are kept: an exact time, and an incremental clock whose
// remaining time is far below maxtime.
func TestTimeKept(t *testing.T) {
	e := newTestEngine(t)
	for _, c := range []struct {
		name      string
		max       float64
		info, inc int
		limit     time.Duration
	}{
		{"exact 0.2 s", 0.2, infoExactTime, 0, 200 * time.Millisecond},
		{"clock 1.5 s + 0, maxtime 30", 30, 1 << incrTimeShift, 1500 << 16, 1000 * time.Millisecond},
		{"clock 15 (0.1 s) + 0.1 s, maxtime 30", 30, 3 << incrTimeShift, 15<<16 | 1, 1100 * time.Millisecond},
	} {
		_, b := boardOf(t, movegen.Russian, movegen.Russian.StartFEN)
		var mv CBMove
		start := time.Now()
		e.GetMove(&b, Request{Color: white, MaxTime: c.max, Info: c.info, MoreInfo: c.inc}, &mv)
		took := time.Since(start)
		t.Logf("%s: %v", c.name, took)
		if took > c.limit+schedSlack {
			t.Errorf("%s: took %v", c.name, took)
		}
	}
}

// Many calls in a row leak no goroutines, and the table is kept.
func TestManyCalls(t *testing.T) {
	e := newTestEngine(t)
	base := runtime.NumGoroutine()
	var mv CBMove
	for i := range 500 {
		p, b := boardOf(t, movegen.Brazilian, movegen.Brazilian.StartFEN)
		if i%2 == 1 {
			mustCommand(t, e, "set gametype 26")
		}
		e.GetMove(&b, Request{Color: white, MaxTime: 0.001}, &mv)
		if i%50 == 0 {
			checkPlayed(t, movegen.Brazilian, &p, &b, &mv)
		}
		if !e.IsLegal(&b, black, 9, 13, &mv) && !e.IsLegal(&b, black, 9, 14, &mv) {
			t.Fatal("islegal after getmove")
		}
	}
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	time.Sleep(20 * time.Millisecond)
	if n := runtime.NumGoroutine(); n > base+2 {
		t.Errorf("%d goroutines after 500 calls, %d before", n, base)
	}
	t.Logf("heap in use after 500 calls: %d MiB", ms.HeapInuse>>20)
}

func TestIsLegal(t *testing.T) {
	e := newTestEngine(t)
	_, b := boardOf(t, movegen.Russian, movegen.Russian.StartFEN)
	before := b
	var mv CBMove
	for _, c := range []struct {
		color, from, to int
		ok              bool
	}{
		{white, 22, 18, true}, {white, 22, 17, true}, {white, 21, 17, true}, {white, 24, 20, true},
		{white, 22, 15, false}, {white, 25, 21, false}, {black, 22, 18, false}, {black, 9, 13, true},
		{black, 12, 16, true}, {black, 9, 14, true}, {white, 0, 18, false}, {white, 22, 33, false},
		{3, 22, 18, false}, {0, 22, 18, false},
	} {
		if got := e.IsLegal(&b, c.color, c.from, c.to, &mv); got != c.ok {
			t.Errorf("%d: %d-%d: %v", c.color, c.from, c.to, got)
		}
		if c.ok && (coorSquare(int(mv.from.X), int(mv.from.Y)) != c.from || coorSquare(int(mv.to.X), int(mv.to.Y)) != c.to) {
			t.Errorf("%d-%d described as %+v", c.from, c.to, mv)
		}
	}
	if b != before {
		t.Error("islegal changed the board")
	}
	// Two captures share from and to: either is fine.
	p, b := boardOf(t, movegen.Russian, "W:WK2,21:B7,8,14,17,18,24,26")
	if !e.IsLegal(&b, white, 2, 4, &mv) {
		t.Fatal("2x4 not legal")
	}
	after := b
	applyMove(&after, &mv)
	checkPlayed(t, movegen.Russian, &p, &after, &mv)
}

// A real game (russian) where FMJD-64 7.2.8 draws after 18 plies; at ply
// 12, b8-a7 walks the lone white king into a trap that wins it after the
// rule has drawn. CheckerBoard does not apply 7.2.8 and plays on: Rio
// keeps its king under its default rules (CheckerBoard's) and under all
// the rules, where it ranks the draws by what follows them.
func TestGetMovePlaysOnPastRuleDraws(t *testing.T) {
	v := movegen.Russian
	start, err := v.ParseFEN("W:W21,K26,30:BK15,20")
	if err != nil {
		t.Fatal(err)
	}
	g := game.New(v, start)
	for _, m := range strings.Fields("a3-b4 e5-c3 d2-g5 c3:a5 g5-d8 h4-g3 c1-d2 a5:e1 d8-c7 g3-f2 c7-b8 f2-g1") {
		if _, err := g.PlayText(m); err != nil {
			t.Fatal(err)
		}
	}
	// The history as CheckerBoard sends it: from the last capture on.
	afterCapture := g.PositionAt(8)
	hist := "set gamehist " + v.FormatFEN(&afterCapture, false) + " " + strings.Join(v.FormatMoves(g.Moves()[8:]), " ")
	// The trap shows from depth 11 (some 70k nodes, 0.01 s on a quiet
	// machine); 0.3 s leaves room for a loaded one. The race detector's
	// build beside the other packages' tests once fell short of it there.
	maxTime := 0.3
	if racebuild.Enabled {
		maxTime = 2
	}
	for _, rules := range []string{"", "all", "repetition"} {
		e := newTestEngine(t)
		if rules != "" {
			if r := mustCommand(t, e, "set drawrules "+rules); r != "drawrules "+rules {
				t.Errorf("set drawrules %s: %q", rules, r)
			}
		}
		mustCommand(t, e, hist)
		p := g.Position()
		var b Board
		BoardFromPosition(&p, &b)
		var mv CBMove
		e.GetMove(&b, Request{Color: white, MaxTime: maxTime}, &mv)
		checkPlayed(t, v, &p, &b, &mv)
		if from, to := coorSquare(int(mv.from.X), int(mv.from.Y)), coorSquare(int(mv.to.X), int(mv.to.Y)); from == 1 && to == 5 {
			t.Errorf("drawrules %q: b8-a7 walks into the trap", rules)
		}
	}
}

func TestDrawRulesCommand(t *testing.T) {
	e := newTestEngine(t)
	if r := mustCommand(t, e, "get drawrules"); r != "checkerboard" {
		t.Errorf("default draw rules %q, want checkerboard (what CheckerBoard declares)", r)
	}
	for _, set := range game.RuleSetNames {
		mustCommand(t, e, "set drawrules "+strings.ToUpper(set))
		if r := mustCommand(t, e, "get drawrules"); r != set {
			t.Errorf("after set drawrules %s: %q", set, r)
		}
	}
	if r, ok := e.Command("set drawrules fmjd"); ok || !strings.HasPrefix(r, "error") {
		t.Errorf("set drawrules fmjd: %q %v", r, ok)
	}
	if r := mustCommand(t, e, "get drawrules"); r != "checkerboard" {
		t.Errorf("a refused value changed the rules: %q", r)
	}
}
