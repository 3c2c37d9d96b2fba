package gui

// TestBrowser plays the embedded page in a real headless Chromium through
// chromedp. In each variant (brazilian, russian, portuguese; browserRuns
// holds their positions, every one checked in Go first) it plays an
// opening by clicks on the SVG board and one move by a drag, takes back,
// runs the analysis until its score, line or depth changes, exports the
// game as PDN and imports a file of two games loading the second, refuses
// a bad FEN, sets positions up from FENs, makes a capture chosen among
// several that end on the same square and promotes a man. Then it plays
// a game against Rio, reloads the page (the game is restored) and shows
// it at a phone's width. Any console error or uncaught exception of the
// page fails the test.
//
// It needs chromium (apt-get install chromium), google-chrome or the
// browser $CHROME names, and skips without one. Screenshots go to a
// temporary folder, or to $RIO_SCREENSHOTS (relative to the module root)
// when set:
//
//	RIO_SCREENSHOTS=docs go test -run TestBrowser ./internal/gui
//
// writes docs/gui.png, the README's picture of the board.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
)

// browserWait bounds every wait for the page (the machines running the
// tests may be loaded; a wait ends as soon as its condition holds).
const browserWait = 20 * time.Second

// findBrowser returns the browser to drive: $CHROME, or the first of the
// usual names on the PATH.
func findBrowser(t *testing.T) string {
	t.Helper()
	if c := os.Getenv("CHROME"); c != "" {
		p, err := exec.LookPath(c)
		if err != nil {
			t.Fatalf("$CHROME=%q: %v", c, err)
		}
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no browser for the GUI test: install chromium (apt-get install chromium) or set $CHROME")
	return ""
}

// newBrowserPage starts headless Chromium on url; errors the page logs
// fail the test when it ends.
func newBrowserPage(t *testing.T, url string, srv *Server) *page {
	t.Helper()
	exe := findBrowser(t)
	ctx, stop := context.WithTimeout(t.Context(), 3*time.Minute)
	// --disable-dev-shm-usage: Debian's launcher decides on it from
	// findmnt, which breaks where /dev/shm is mounted twice (as in some
	// containers); /tmp serves as well for a test.
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.WindowSize(1200, 900))
	errs := &jsErrors{}
	listen := func(ev any) {
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeAssert {
				errs.add("console." + string(e.Type) + ": " + remoteText(e.Args))
			}
		case *runtime.EventExceptionThrown:
			d := e.ExceptionDetails
			text := d.Text
			if d.Exception != nil {
				text += " " + d.Exception.Description
			}
			errs.add(fmt.Sprintf("uncaught exception at %s:%d: %s", d.URL, d.LineNumber+1, text))
		}
	}
	// A browser that dies before it listens is retried: on a CI machine
	// busy with the other packages' tests, Chromium has been seen to crash
	// at start twice in a row and then start again a second later.
	const attempts = 4
	var bctx context.Context
	var cancelTab, cancelAlloc context.CancelFunc
	for i := 1; ; i++ {
		var actx context.Context
		actx, cancelAlloc = chromedp.NewExecAllocator(ctx, opts...)
		bctx, cancelTab = chromedp.NewContext(actx)
		err := chromedp.Listen(bctx, listen)
		if err == nil {
			break
		}
		cancelTab()
		cancelAlloc()
		if i == attempts || ctx.Err() != nil {
			stop()
			t.Fatalf("starting %s (%d tries): %v", exe, i, err)
		}
		t.Logf("starting %s, try %d of %d: %v", exe, i, attempts, err)
		time.Sleep(time.Duration(i) * 2 * time.Second)
	}
	t.Cleanup(func() {
		for _, e := range errs.all() {
			t.Errorf("page: %s", e)
		}
		cancelTab()
		cancelAlloc()
		stop()
	})
	pg := &page{ctx: bctx, dir: t.TempDir(), url: url, srv: srv, errs: errs}
	pg.do(t, "loading the page", chromedp.EmulateViewport(1200, 900), chromedp.Navigate(url))
	return pg
}

// screenshotDir is $RIO_SCREENSHOTS (relative to the module root, so that
// RIO_SCREENSHOTS=docs means the repository's docs/), else a temporary
// folder.
func screenshotDir(t *testing.T) string {
	t.Helper()
	d := os.Getenv("RIO_SCREENSHOTS")
	if d == "" {
		return t.TempDir()
	}
	if !filepath.IsAbs(d) {
		root, err := moduleRoot()
		if err != nil {
			t.Fatalf("RIO_SCREENSHOTS=%q: %v", d, err)
		}
		d = filepath.Join(root, d)
	}
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}

// moduleRoot is the nearest folder above the working directory holding
// go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = parent
	}
}

// jsErrors collects what the page reports to the console as errors.
type jsErrors struct {
	mu   sync.Mutex
	list []string
}

func (e *jsErrors) add(s string) {
	e.mu.Lock()
	e.list = append(e.list, s)
	e.mu.Unlock()
}

func (e *jsErrors) all() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.list)
}

func remoteText(args []*runtime.RemoteObject) string {
	var parts []string
	for _, a := range args {
		switch {
		case a.Description != "":
			parts = append(parts, a.Description)
		case len(a.Value) > 0:
			parts = append(parts, string(a.Value))
		default:
			parts = append(parts, string(a.Type))
		}
	}
	return strings.Join(parts, " ")
}

// page drives the one tab of the test.
type page struct {
	ctx  context.Context // the tab's chromedp context (no deadline)
	dir  string          // where screenshots go
	url  string
	srv  *Server
	errs *jsErrors
}

// q quotes s for JavaScript.
func q(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func (pg *page) do(t *testing.T, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(pg.ctx, browserWait)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("%s: %v%s", what, err, pg.diag())
	}
}

func evalJS[T any](t *testing.T, pg *page, js string) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(pg.ctx, browserWait)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("evaluating %s: %v%s", js, err, pg.diag())
	}
	return v
}

// diag describes the page for a failure message.
func (pg *page) diag() string {
	ctx, cancel := context.WithTimeout(pg.ctx, 3*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify({
		status: document.getElementById('status').textContent,
		message: document.getElementById('message').textContent,
		messageClass: document.getElementById('message').className,
		fen: document.getElementById('fen-out').value,
		moves: [...document.querySelectorAll('#movelist [data-ply]')].map((s) => s.textContent),
	})`))
	if err != nil {
		return "\n(page state unreadable: " + err.Error() + ")"
	}
	return "\npage: " + s
}

// waitFor polls the JavaScript condition cond until it holds.
func (pg *page) waitFor(t *testing.T, what, cond string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(pg.ctx, browserWait+5*time.Second)
	defer cancel()
	_, err := chromedp.Run(ctx, chromedp.Poll[bool]("!!("+cond+")",
		chromedp.WithPollingTimeout(browserWait), chromedp.WithPollingInterval(25*time.Millisecond)))
	if err != nil {
		t.Fatalf("waiting for %s: %v%s", what, err, pg.diag())
	}
}

func (pg *page) shot(t *testing.T, names ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(pg.ctx, browserWait)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", names[0], err)
	}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(pg.dir, n), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const (
	jsFEN   = `document.getElementById('fen-out').value`
	jsPlies = `document.querySelectorAll('#movelist [data-ply]').length`
	// jsStoredPlies is the game's length as the page saved it. The move
	// list can show a move (a clock tick redraws it) before the page has
	// heard back from the server and saved; a test that reads the stored
	// moves waits for this.
	jsStoredPlies = `JSON.parse(localStorage.getItem('rio-gui-v1') || '{"game":{"moves":[]}}').game.moves.length`
	jsMsg         = `document.getElementById('message')`
)

func (pg *page) fen(t *testing.T) string { t.Helper(); return evalJS[string](t, pg, jsFEN) }
func (pg *page) plies(t *testing.T) int  { t.Helper(); return evalJS[int](t, pg, jsPlies) }

func (pg *page) moveTexts(t *testing.T) []string {
	t.Helper()
	return evalJS[[]string](t, pg, `[...document.querySelectorAll('#movelist [data-ply]')].map((s) => s.textContent)`)
}

// waitPosition waits until the page shows fen after plies moves.
func (pg *page) waitPosition(t *testing.T, what, fen string, plies int) {
	t.Helper()
	pg.waitFor(t, what, fmt.Sprintf(`%s === %s && %s === %d`, jsFEN, q(fen), jsPlies, plies))
}

// board reads the pieces drawn: square number -> "white-man"...
func (pg *page) board(t *testing.T) map[string]string {
	t.Helper()
	return evalJS[map[string]string](t, pg, `(() => {
		const o = {};
		document.querySelectorAll('#board g[data-num]').forEach((g) => {
			const p = g.querySelector('[data-piece]');
			if (p) o[g.dataset.num] = p.dataset.piece;
		});
		return o;
	})()`)
}

// piecesOf is what board should read for p.
func piecesOf(v *movegen.Variant, p *movegen.Position) map[string]string {
	out := map[string]string{}
	for c := movegen.White; c <= movegen.Black; c++ {
		for b := p.Pieces[c]; b != 0; b &= b - 1 {
			s := b.First()
			kind := "-man"
			if p.Kings.Has(s) {
				kind = "-king"
			}
			out[fmt.Sprint(v.Numbering.Number(s))] = colorName(c) + kind
		}
	}
	return out
}

func (pg *page) checkBoard(t *testing.T, v *movegen.Variant, p *movegen.Position) {
	t.Helper()
	got, want := pg.board(t), piecesOf(v, p)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("board drawn %v, want %v (%s)", got, want, v.FormatFEN(p, false))
	}
}

// choose sets a select (or input) and fires its change event, as a user
// picking a value does.
func (pg *page) choose(t *testing.T, id, value string) {
	t.Helper()
	ok := evalJS[bool](t, pg, fmt.Sprintf(`(() => {
		const e = document.getElementById(%s);
		e.value = %s;
		if (e.value !== %s) return false;
		e.dispatchEvent(new Event('change', { bubbles: true }));
		return true;
	})()`, q(id), q(value), q(value)))
	if !ok {
		t.Fatalf("#%s has no value %q", id, value)
	}
}

// setText types value into a text field (set at once, with an input
// event).
func (pg *page) setText(t *testing.T, id, value string) {
	t.Helper()
	evalJS[chromedp.Void](t, pg, fmt.Sprintf(`(() => {
		const e = document.getElementById(%s);
		e.value = %s;
		e.dispatchEvent(new Event('input', { bubbles: true }));
	})()`, q(id), q(value)))
}

// redrawn runs act and waits until the page has drawn the board anew:
// act's refresh has had its answer. The answer clears the piece selected,
// so a click made before it would be lost (see the report on game.js's
// refresh), and a position that does not change gives nothing else to
// wait for.
func (pg *page) redrawn(t *testing.T, what string, act func()) {
	t.Helper()
	evalJS[chromedp.Void](t, pg, `document.querySelectorAll('#board g[data-num]').forEach((g) => { g.dataset.stale = '1'; })`)
	act()
	pg.waitFor(t, what, `document.querySelector('#board g[data-num]') && !document.querySelector('#board g[data-stale]')`)
}

func (pg *page) click(t *testing.T, css string) {
	t.Helper()
	pg.do(t, "clicking "+css, chromedp.Click(chromedp.CSS(css)))
}

// open opens a collapsed <details> box by clicking its summary.
func (pg *page) open(t *testing.T, id string) {
	t.Helper()
	if evalJS[bool](t, pg, fmt.Sprintf(`document.getElementById(%s).open`, q(id))) {
		return
	}
	pg.click(t, "#"+id+" > summary")
	pg.waitFor(t, "#"+id+" open", fmt.Sprintf(`document.getElementById(%s).open`, q(id)))
}

// clickSquare clicks the middle of the board square numbered num with the
// mouse (the board listens to pointer events on the SVG).
func (pg *page) clickSquare(t *testing.T, num int) {
	t.Helper()
	x, y := pg.squareCenter(t, num)
	pg.do(t, fmt.Sprintf("clicking square %d", num), chromedp.MouseClickXY(x, y))
}

// squareCenter is the middle of the square numbered num in the viewport,
// scrolled into view.
func (pg *page) squareCenter(t *testing.T, num int) (x, y float64) {
	t.Helper()
	xy := evalJS[[]float64](t, pg, fmt.Sprintf(`(() => {
		const r = document.querySelector('#board g[data-num="%d"] rect');
		if (!r) return null;
		r.scrollIntoView({ block: 'nearest', inline: 'nearest' });
		const b = r.getBoundingClientRect();
		return [b.left + b.width / 2, b.top + b.height / 2];
	})()`, num))
	if len(xy) != 2 {
		t.Fatalf("no square %d on the board%s", num, pg.diag())
	}
	return xy[0], xy[1]
}

// selectPiece clicks the piece on square from and waits for the board to
// mark it chosen.
func (pg *page) selectPiece(t *testing.T, from int) {
	t.Helper()
	pg.clickSquare(t, from)
	pg.waitFor(t, fmt.Sprintf("square %d selected", from), fmt.Sprintf(`document.querySelector('#board g[data-num="%d"] rect.sq-sel')`, from))
}

// playClicks plays m, legal in the game g shows, by clicking its from
// square then each square of clicks (its end square when nil), and checks
// that the page shows the position after it; g plays it too.
func (pg *page) playClicks(t *testing.T, g *game.Game, m movegen.Move, clicks ...int) {
	t.Helper()
	v := g.Variant
	if len(clicks) == 0 {
		clicks = []int{v.Numbering.Number(m.To())}
	}
	before := g.Position()
	text := displayText(v, &before, m)
	if err := g.Play(m); err != nil {
		t.Fatalf("%s: %v", v.FormatMove(m), err)
	}
	pg.selectPiece(t, v.Numbering.Number(m.From()))
	for _, c := range clicks {
		pg.clickSquare(t, c)
	}
	after := g.Position()
	pg.waitPosition(t, "the position after "+text, v.FormatFEN(&after, false), g.Ply())
	pg.checkBoard(t, v, &after)
	if got := pg.moveTexts(t); got[len(got)-1] != text {
		t.Fatalf("move list ends with %q, want %q", got[len(got)-1], text)
	}
}

// displayText is a move as the page's move list writes it by default:
// algebraic notation where the variant uses it, else numbers.
func displayText(v *movegen.Variant, p *movegen.Position, m movegen.Move) string {
	if v.Numbering.Algebraic {
		return v.FormatPDN(p, m, game.PDNStyleOf(v))
	}
	return v.FormatPDN(p, m, movegen.PDNStyle{})
}

// parseMove reads a move of the game's position in protocol notation.
func parseMove(t *testing.T, g *game.Game, s string) movegen.Move {
	t.Helper()
	p := g.Position()
	m, err := g.Variant.ParseMove(&p, s)
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return m
}

// newGame is a game from fen, checked.
func newGame(t *testing.T, v *movegen.Variant, fen string) *game.Game {
	t.Helper()
	p, err := v.ParsePosition(fen)
	if err != nil {
		t.Fatalf("%s %s: %v", v.Name, fen, err)
	}
	return game.New(v, p)
}

func fenOf(g *game.Game) string {
	p := g.Position()
	return g.Variant.FormatFEN(&p, false)
}

// captureChoice is a capture the page must let the user pick: it ends on
// the same square as another capture of the same piece that takes other
// pieces, and clicking via after the end square picks it.
type captureChoice struct {
	move          movegen.Move
	from, to, via int // square numbers
}

// passes reports whether the capture m lands on or takes s by one of its
// paths.
func passes(v *movegen.Variant, p *movegen.Position, m movegen.Move, s movegen.Square) bool {
	if m.Captured().Has(s) {
		return true
	}
	for _, path := range v.CapturePaths(p, m) {
		if slices.Contains(path, s) {
			return true
		}
	}
	return false
}

// findCaptureChoice finds in p two legal captures with the same piece and
// end square but different pieces taken, such that every capture of that
// piece passing the end square ends there (so a click on it is ambiguous),
// and a landing square of one that no other of them passes.
func findCaptureChoice(v *movegen.Variant, p *movegen.Position) (captureChoice, bool) {
	var buf [movegen.MaxMoves]movegen.Move
	legal := v.Generate(p, buf[:0])
	for _, a := range legal {
		for _, b := range legal {
			if !a.IsCapture() || a == b || a.From() != b.From() || a.To() != b.To() || a.Captured() == b.Captured() {
				continue
			}
			var others []movegen.Move
			ambiguous := true
			for _, m := range legal {
				if m != a && m.From() == a.From() && passes(v, p, m, a.To()) {
					others = append(others, m)
					ambiguous = ambiguous && m.To() == a.To()
				}
			}
			if !ambiguous {
				continue
			}
			for _, path := range v.CapturePaths(p, a) {
				for _, s := range path[:len(path)-1] {
					if !slices.ContainsFunc(others, func(m movegen.Move) bool { return passes(v, p, m, s) }) {
						return captureChoice{move: a, from: v.Numbering.Number(a.From()), to: v.Numbering.Number(a.To()), via: v.Numbering.Number(s)}, true
					}
				}
			}
		}
	}
	return captureChoice{}, false
}

// pdnOf writes g as PDN with the tags given (name, value, ...).
func pdnOf(t *testing.T, g *game.Game, tags ...string) string {
	t.Helper()
	for i := 0; i+1 < len(tags); i += 2 {
		g.Tags.Set(tags[i], tags[i+1])
	}
	var b strings.Builder
	if err := g.WritePDN(&b, game.Ongoing); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// playLine plays moves in protocol notation on g.
func playLine(t *testing.T, g *game.Game, moves ...string) {
	t.Helper()
	for _, s := range moves {
		if _, err := g.PlayText(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// The position a bad FEN must not replace, and the error the page must
// show.
func (pg *page) badFEN(t *testing.T, fen string) {
	t.Helper()
	fenBefore, boardBefore := pg.fen(t), pg.board(t)
	pg.setText(t, "fen-in", fen)
	pg.click(t, "#fen-load")
	pg.waitFor(t, "the error of a bad FEN", jsMsg+`.className === 'error' && `+jsMsg+`.textContent.includes('position')`)
	if got := pg.fen(t); got != fenBefore {
		t.Fatalf("a bad FEN changed the position: %s, was %s", got, fenBefore)
	}
	if got := pg.board(t); fmt.Sprint(got) != fmt.Sprint(boardBefore) {
		t.Fatalf("a bad FEN changed the board: %v, was %v", got, boardBefore)
	}
}

// loadFEN sets the position up from fen through the Position box and
// checks the page shows it; it returns the game from there.
func (pg *page) loadFEN(t *testing.T, v *movegen.Variant, fen string) *game.Game {
	t.Helper()
	g := newGame(t, v, fen)
	pg.open(t, "position-box")
	pg.setText(t, "fen-in", fen)
	pg.click(t, "#fen-load")
	pg.waitPosition(t, "the position of "+fen, fenOf(g), 0)
	pg.waitFor(t, "the message cleared", jsMsg+`.textContent === ''`)
	p := g.Position()
	pg.checkBoard(t, v, &p)
	return g
}

// switchVariant picks v in the header's select: a new game from its start.
func (pg *page) switchVariant(t *testing.T, v *movegen.Variant) *game.Game {
	t.Helper()
	pg.redrawn(t, "the board of "+v.Name, func() { pg.choose(t, "variant", v.Name) })
	g := game.New(v, v.Start())
	pg.waitPosition(t, v.Name+"'s start", fenOf(g), 0)
	p := g.Position()
	pg.checkBoard(t, v, &p)
	return g
}

// tabBusy reports whether the server is searching for the page's tab.
func (pg *page) tabBusy(t *testing.T) bool {
	t.Helper()
	id := evalJS[string](t, pg, `sessionStorage.getItem('rio-tab') || ''`)
	tb := pg.srv.tabs.lookup(id)
	return tb != nil && tb.busy()
}

func (pg *page) waitIdle(t *testing.T, what string) {
	t.Helper()
	deadline := time.Now().Add(browserWait)
	for pg.tabBusy(t) {
		if time.Now().After(deadline) {
			t.Fatalf("the server still searches for the tab after %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// playDrag plays the quiet move m, legal in the game g shows, by dragging
// its piece with the mouse (pressed on the from square, moved, released
// on the end square), and checks the position after it; g plays it too.
func (pg *page) playDrag(t *testing.T, g *game.Game, m movegen.Move) {
	t.Helper()
	v := g.Variant
	before := g.Position()
	text := displayText(v, &before, m)
	if err := g.Play(m); err != nil {
		t.Fatalf("%s: %v", v.FormatMove(m), err)
	}
	x0, y0 := pg.squareCenter(t, v.Numbering.Number(m.From()))
	x1, y1 := pg.squareCenter(t, v.Numbering.Number(m.To()))
	held := func(p *input.DispatchMouseEventParams) { p.Buttons = 1 }
	pg.do(t, "dragging "+text,
		chromedp.MouseEvent(chromedp.MousePressed, x0, y0, chromedp.ButtonLeft, chromedp.ClickCount(1)),
		chromedp.MouseEvent(chromedp.MouseMoved, (2*x0+x1)/3, (2*y0+y1)/3, chromedp.ButtonLeft, held),
		chromedp.MouseEvent(chromedp.MouseMoved, x1, y1, chromedp.ButtonLeft, held),
		chromedp.MouseEvent(chromedp.MouseReleased, x1, y1, chromedp.ButtonLeft, chromedp.ClickCount(1)),
	)
	after := g.Position()
	pg.waitPosition(t, "the position after "+text+" dragged", v.FormatFEN(&after, false), g.Ply())
	pg.checkBoard(t, v, &after)
	if got := pg.moveTexts(t); got[len(got)-1] != text {
		t.Fatalf("move list ends with %q, want %q", got[len(got)-1], text)
	}
}

// pickedLine is a game of plies moves from v's start, each the last of
// the legal moves in the generator's order: a line the test did not
// choose, different from the openings.
func pickedLine(t *testing.T, v *movegen.Variant, plies int) *game.Game {
	t.Helper()
	g := game.New(v, v.Start())
	var buf [movegen.MaxMoves]movegen.Move
	for range plies {
		p := g.Position()
		legal := v.Generate(&p, buf[:0])
		if len(legal) == 0 {
			t.Fatalf("%s: no move in %s", v.Name, fenOf(g))
		}
		if err := g.Play(legal[len(legal)-1]); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// variantRun is what the whole sequence (browserVariant) needs of a
// variant. Each position is checked in Go before the page is asked about
// it.
type variantRun struct {
	v *movegen.Variant
	// opening is a line from the start in the variant's own notation,
	// with an exchange; its last move is quiet (take back undoes it) and
	// its second is quiet too (it is dragged).
	opening []string
	// choice is a position with two captures of one piece that end on
	// the same square taking different pieces (findCaptureChoice).
	choice string
	// promotion is a position where the side to move crowns a man.
	promotion string
	// badFEN is a FEN the server must refuse.
	badFEN string
	// atStart runs on the variant's start position, atEnd after the
	// sequence: the variant's own checks.
	atStart, atEnd func(t *testing.T, pg *page)
}

var browserRuns = []variantRun{
	{
		v:       movegen.Brazilian,
		opening: []string{"22-18", "12-16", "21-17", "16-20", "25-21", "8-12", "18-14", "9x18", "23x14", "11-15"},
		// The flying king takes 6 and 26 with 14 or with 18, ending on 31
		// either way.
		choice:    "W:WK1:B6,14,18,26",
		promotion: "W:W6:B28",
		badFEN:    "W:W21-32:B1-12,21",
	},
	{
		v:       movegen.Russian,
		opening: []string{"c3-d4", "f6-e5", "d4:f6", "g7:e5", "b2-c3", "h6-g5", "g3-h4", "e7-f6", "c3-b4"},
		// A man capturing backward as well: russian lets it take three as
		// well as four, and two captures of three end on 5.
		choice:    "W:W16:B9,10,11,18,19",
		promotion: "B:W5:B27",
		badFEN:    "W:W33:B1",
		atEnd:     browserRussianCapturePromotion,
	},
	{
		v:       movegen.Portuguese,
		opening: []string{"10-14", "23-19", "14x23", "28x19", "11-14", "19x10", "5x14", "22-18", "12-15"},
		// Men capture forward only, kings fly: Black's king takes 7 and 27
		// with 15 or with 19, ending on 30 either way.
		choice:    "B:W7,15,19,27:BK4",
		promotion: "W:W26:B5",
		badFEN:    "W:W1-12:B1",
		atStart:   browserPortugueseCorner,
	},
}

func TestBrowser(t *testing.T) {
	if testing.Short() {
		// go test ./... runs it; .ci/run's -race -short pass over the
		// packages that start goroutines need not run a browser twice.
		t.Skip("short mode: the browser test runs in the full go test ./...")
	}
	exe := findBrowser(t)
	began := time.Now()

	h := newHarness(t, Config{}) // server_test.go: the page's server, its port set
	s, ts := h.s, h.srv

	pg := newBrowserPage(t, ts.URL+"/", s)
	pg.dir = screenshotDir(t)
	t.Logf("browser %s; screenshots in %s", exe, pg.dir)
	defer func() { t.Logf("TestBrowser took %v", time.Since(began).Round(time.Millisecond)) }()

	ok := t.Run("fresh", func(t *testing.T) { browserFresh(t, pg) })
	for _, r := range browserRuns {
		ok = ok && t.Run(r.v.Name, func(t *testing.T) { browserVariant(t, pg, r) })
	}
	ok = ok && t.Run("against-rio", func(t *testing.T) { browserAgainstRio(t, pg) }) &&
		t.Run("reload", func(t *testing.T) { browserReload(t, pg) }) &&
		t.Run("setup", func(t *testing.T) { browserSetup(t, pg) }) &&
		t.Run("controls", func(t *testing.T) { browserControls(t, pg) })
	if ok {
		t.Run("phone", func(t *testing.T) { browserPhone(t, pg) })
	}
}

// browserFresh checks the page as a fresh profile shows it: nothing
// restored, the default settings and the start position of the server's
// variant. It then sets two players: the test plays both sides.
func browserFresh(t *testing.T, pg *page) {
	v := movegen.Brazilian
	g := game.New(v, v.Start())
	pg.waitPosition(t, "the start position", fenOf(g), 0)
	if n := evalJS[int](t, pg, `document.querySelectorAll('#board g[data-sq][data-num][data-name]').length`); n != 32 {
		t.Fatalf("%d squares drawn, want 32", n)
	}
	p := g.Position()
	pg.checkBoard(t, v, &p)
	if got := evalJS[string](t, pg, `document.getElementById('rio-side').value + ' ' + document.getElementById('analyse').checked + ' ' + document.getElementById('variant').value`); got != "black false brazilian" {
		t.Fatalf("a fresh page starts with Rio plays, analysis, variant = %q, want black false brazilian", got)
	}
	pg.twoPlayers(t)
}

// twoPlayers sets Rio to play nobody, and checks the setting is saved.
func (pg *page) twoPlayers(t *testing.T) {
	t.Helper()
	if evalJS[string](t, pg, `document.getElementById('rio-side').value`) != "none" {
		pg.redrawn(t, "the board redrawn", func() { pg.choose(t, "rio-side", "none") })
	}
	pg.waitFor(t, "the setting saved", `JSON.parse(localStorage.getItem('rio-gui-v1') || '{}').settings?.rio === 'none'`)
}

// browserVariant runs the whole sequence in r's variant: its start
// position drawn with its numbering, an opening by clicks (one move
// dragged), take back, analysis whose score or line changes, PDN export
// and the import of two games choosing the second, a bad FEN refused, a
// capture with a choice told apart by a square along its path, a
// promotion, and the variant's own checks.
func browserVariant(t *testing.T, pg *page, r variantRun) {
	v := r.v
	var buf [movegen.MaxMoves]movegen.Move

	// 1. The start position, every square named as the server's variant
	// names it (c3 is 22 in brazilian and russian).
	g := pg.switchVariant(t, v)
	names := evalJS[map[string]string](t, pg, `Object.fromEntries([...document.querySelectorAll('#board g[data-num]')].map((g) => [g.dataset.num, g.dataset.name]))`)
	if len(names) != 32 {
		t.Fatalf("%d squares drawn, want 32", len(names))
	}
	for n := 1; n <= 32; n++ {
		if got, want := names[fmt.Sprint(n)], v.SquareName(v.Numbering.Square(n), true); got != want {
			t.Fatalf("square %d is named %q, want %q", n, got, want)
		}
	}
	pg.twoPlayers(t)
	if r.atStart != nil {
		r.atStart(t, pg)
	}

	// 2. An opening by clicks, an exchange included; the second move is
	// dragged.
	for i, s := range r.opening {
		if i == 1 {
			pg.playDrag(t, g, parseMove(t, g, s))
		} else {
			pg.playClicks(t, g, parseMove(t, g, s))
		}
	}
	pg.shot(t, v.Name+"-opening.png")

	// 3. Take back (two players: one ply).
	before := game.New(v, v.Start())
	playLine(t, before, r.opening[:len(r.opening)-1]...)
	pg.click(t, "#takeback")
	pg.waitPosition(t, "the position before the last move", fenOf(before), len(r.opening)-1)
	g = before
	p := g.Position()
	pg.checkBoard(t, v, &p)

	// 4. Analysis: a score and lines, then a later report whose score,
	// first line or depth differs.
	pg.analysis(t, min(3, len(v.Generate(&p, buf[:0]))))
	if v == movegen.Brazilian {
		pg.shot(t, "brazilian-analysis.png", "gui.png") // the README's picture
	} else {
		pg.shot(t, v.Name+"-analysis.png")
	}
	pg.click(t, "#analyse")
	pg.waitFor(t, "the analysis off", `!document.getElementById('analyse').checked && document.getElementById('an-score').textContent === '' && document.querySelectorAll('#an-lines li').length === 0`)
	pg.waitIdle(t, "analysis was switched off")

	// 5. PDN: export this game, then import a file of two and load the
	// second.
	pg.pdn(t, v, r.opening[:2])

	// 6. FENs: a bad one refused, then positions set up from FENs.
	pg.open(t, "position-box")
	if _, err := v.ParsePosition(r.badFEN); err == nil {
		t.Fatalf("the test's bad FEN %s reads as a %s position", r.badFEN, v.Name)
	}
	pg.badFEN(t, r.badFEN)

	// 7. A capture with a choice: two captures of one piece end on the
	// same square taking different pieces; the end square alone does not
	// say which, a square along the path does.
	pg.captureChoice(t, v, r.choice)

	// 8. Promotion: a man one step from the last row becomes a king.
	g = pg.loadFEN(t, v, r.promotion)
	p = g.Position()
	var promo movegen.Move
	for _, m := range v.Generate(&p, buf[:0]) {
		if m.Promotes() {
			promo = m
			break
		}
	}
	if promo == movegen.NoMove {
		t.Fatalf("no promotion in %s", fenOf(g))
	}
	pg.playClicks(t, g, promo)
	to := v.Numbering.Number(promo.To())
	if got, want := pg.board(t)[fmt.Sprint(to)], colorName(p.Side)+"-king"; got != want {
		t.Fatalf("square %d holds %q after the promotion, want %s", to, got, want)
	}
	pg.shot(t, v.Name+"-promotion.png")

	if r.atEnd != nil {
		r.atEnd(t, pg)
	}
}

var depthRE = regexp.MustCompile(`^depth (\d+) · `)

// jsLineText is a function of an analysis line (an li): its score and
// moves, space separated.
const jsLineText = `((li) => [...li.querySelectorAll('.score, .pv-move')].map((s) => s.textContent).join(' '))`

// analysisShown is what the page shows of the analysis.
type analysisShown struct {
	Score string `json:"score"`
	Info  string `json:"info"`
	Line  string `json:"line"` // the first line: its score and moves
	Lines int    `json:"lines"`
}

func (pg *page) analysisShown(t *testing.T) analysisShown {
	t.Helper()
	return evalJS[analysisShown](t, pg, `(() => {
		const li = document.querySelector('#an-lines li');
		return {
			score: document.getElementById('an-score').textContent,
			info: document.getElementById('an-info').textContent,
			line: li ? `+jsLineText+`(li) : '',
			lines: document.querySelectorAll('#an-lines li').length,
		};
	})()`)
}

// analysis switches the analysis on and waits for a report of wantLines
// lines, then for a later one that changes the score, the first line's
// moves or the depth (reports that only say the search took longer do
// not count).
func (pg *page) analysis(t *testing.T, wantLines int) {
	t.Helper()
	pg.click(t, "#analyse")
	pg.waitFor(t, "the analysis", fmt.Sprintf(`document.getElementById('an-score').textContent !== '' && document.querySelectorAll('#an-lines li').length >= %d`, wantLines))
	first := pg.analysisShown(t)
	m := depthRE.FindStringSubmatch(first.Info)
	if m == nil {
		t.Fatalf("analysis info %q does not start with the depth", first.Info)
	}
	scoreRE := regexp.MustCompile(`^([+-]\d+\.\d\d|(White|Black) wins in \d+ moves?)`)
	if !scoreRE.MatchString(first.Line) || !strings.HasPrefix(first.Line, first.Score+" ") {
		t.Fatalf("analysis line %q does not start with the score %q", first.Line, first.Score)
	}
	pg.waitFor(t, "a report that changes the score, the line or the depth", fmt.Sprintf(`(() => {
		const li = document.querySelector('#an-lines li');
		const m = /^depth (\d+) · /.exec(document.getElementById('an-info').textContent);
		return li && m && (%s(li) !== %s || m[1] !== %s);
	})()`, jsLineText, q(first.Line), q(m[1])))
	second := pg.analysisShown(t)
	m2 := depthRE.FindStringSubmatch(second.Info)
	if m2 == nil {
		t.Fatalf("analysis info %q does not start with the depth", second.Info)
	}
	if second.Lines < wantLines || !scoreRE.MatchString(second.Line) || !strings.HasPrefix(second.Line, second.Score+" ") {
		t.Fatalf("later analysis %+v: want %d lines, the first starting with the score", second, wantLines)
	}
	t.Logf("analysis: %q %q then %q %q", first.Info, first.Line, second.Info, second.Line)
}

// pdn exports the game shown and checks the moves and GameType written,
// then imports a file of two games (the opening's first moves, and a
// picked line) and loads the second.
func (pg *page) pdn(t *testing.T, v *movegen.Variant, firstMoves []string) {
	t.Helper()
	pg.open(t, "pdn-box")
	pg.evalVoid(t, `document.getElementById('pdn-text').value = ''`)
	pg.click(t, "#pdn-export")
	pg.waitFor(t, "the exported PDN", `document.getElementById('pdn-text').value.includes('[Event "Rio board"]')`)
	exported := evalJS[string](t, pg, `document.getElementById('pdn-text').value`)
	for _, m := range pg.moveTexts(t) {
		if !strings.Contains(exported, " "+m) {
			t.Errorf("the exported PDN lacks the move %s:\n%s", m, exported)
		}
	}
	if gt := fmt.Sprintf(`[GameType "%d`, v.GameType); !strings.Contains(exported, gt) {
		t.Errorf("the exported PDN lacks the %s GameType %d:\n%s", v.Name, v.GameType, exported)
	}
	// Read with brazilian for games without a GameType: the tag must
	// name the variant.
	if games, err := game.ReadPDN(strings.NewReader(exported), movegen.Brazilian); err != nil || len(games) != 1 || games[0].Err != nil {
		t.Errorf("the exported PDN reads as %d games (%v):\n%s", len(games), errors.Join(err, firstErr(games)), exported)
	} else if g := games[0].Game; g.Variant != v || fenOf(g) != pg.fen(t) || g.Ply() != pg.plies(t) {
		t.Errorf("the exported PDN reads as %s %s after %d plies, the page shows %s %s after %d", g.Variant.Name, fenOf(g), g.Ply(), v.Name, pg.fen(t), pg.plies(t))
	}

	one := game.New(v, v.Start())
	playLine(t, one, firstMoves...)
	two := pickedLine(t, v, 5)
	file := pdnOf(t, one, "Event", "Test one", "White", "Ann", "Black", "Bob") + pdnOf(t, two, "Event", "Test two", "White", "Cid", "Black", "Dee")
	if games, err := game.ReadPDN(strings.NewReader(file), v); err != nil || len(games) != 2 || firstErr(games) != nil {
		t.Fatalf("the test's PDN reads as %d games (%v):\n%s", len(games), errors.Join(err, firstErr(games)), file)
	}
	pg.setText(t, "pdn-text", file)
	// The list of an earlier import stays until this one's answer comes:
	// mark it, and wait for a list without the mark.
	pg.evalVoid(t, `document.querySelectorAll('#pdn-games option').forEach((o) => { o.dataset.stale = '1'; })`)
	pg.click(t, "#pdn-import")
	pg.waitFor(t, "the two games listed", `document.querySelectorAll('#pdn-games option').length === 2 && !document.querySelector('#pdn-games option[data-stale]') && !document.getElementById('pdn-choose').hidden`)
	if msg := evalJS[string](t, pg, jsMsg+`.textContent`); !strings.HasPrefix(msg, "2 games") {
		t.Errorf("the page says %q after importing two games", msg)
	}
	if opt := evalJS[string](t, pg, `document.querySelectorAll('#pdn-games option')[1].textContent`); !strings.Contains(opt, "Test two") || !strings.Contains(opt, "Cid") {
		t.Errorf("second game listed as %q", opt)
	}
	pg.choose(t, "pdn-games", "1")
	pg.click(t, "#pdn-load")
	pg.waitPosition(t, "the second game", fenOf(two), two.Ply())
	if got := evalJS[string](t, pg, `document.getElementById('variant').value`); got != v.Name {
		t.Fatalf("the second game loaded as a %s game, want %s", got, v.Name)
	}
	var want []string
	for i, m := range two.Moves() {
		p := two.PositionAt(i)
		want = append(want, displayText(v, &p, m))
	}
	if got := pg.moveTexts(t); !slices.Equal(got, want) {
		t.Fatalf("move list %q, want %q", got, want)
	}
	p := two.Position()
	pg.checkBoard(t, v, &p)
	pg.shot(t, v.Name+"-pdn.png")
}

// firstErr is the error of the first game read with one.
func firstErr(games []game.PDNGame) error {
	for _, g := range games {
		if g.Err != nil {
			return fmt.Errorf("game %d: %w", g.Number, g.Err)
		}
	}
	return nil
}

func (pg *page) evalVoid(t *testing.T, js string) {
	t.Helper()
	evalJS[chromedp.Void](t, pg, js)
}

// captureChoice sets up fen, which must hold a capture choice, clicks the
// piece and the shared end square, checks the page asks which capture
// and offers the telling square, and clicks it.
func (pg *page) captureChoice(t *testing.T, v *movegen.Variant, fen string) {
	t.Helper()
	g := pg.loadFEN(t, v, fen)
	p := g.Position()
	choice, found := findCaptureChoice(v, &p)
	if !found {
		t.Fatalf("%s has no two captures ending on one square", fenOf(g))
	}
	t.Logf("capture choice: from %d to %d, via %d picks %s", choice.from, choice.to, choice.via, v.FormatMove(choice.move))
	pg.selectPiece(t, choice.from)
	pg.clickSquare(t, choice.to)
	pg.waitFor(t, "the page asking which capture", jsMsg+`.textContent.includes('click a square along')`)
	if n, f := pg.plies(t), pg.fen(t); n != 0 || f != fenOf(g) {
		t.Fatalf("an ambiguous click played a move: %d plies, %s", n, f)
	}
	pg.waitFor(t, fmt.Sprintf("square %d offered", choice.via), fmt.Sprintf(`document.querySelector('#board g[data-num="%d"] circle.target, #board g[data-num="%d"] circle.via')`, choice.via, choice.via))
	pg.shot(t, v.Name+"-capture-choice.png")
	after := newGame(t, v, fenOf(g))
	if err := after.Play(choice.move); err != nil {
		t.Fatal(err)
	}
	pg.clickSquare(t, choice.via)
	pg.waitPosition(t, "the capture chosen", fenOf(after), 1)
	p = after.Position()
	pg.checkBoard(t, v, &p)
}

// browserRussianCapturePromotion: a man that captures onto the last row
// becomes a king and goes on capturing as one (russian rule).
func browserRussianCapturePromotion(t *testing.T, pg *page) {
	v := movegen.Russian
	g := pg.loadFEN(t, v, "W:W10:B7,8,21")
	p := g.Position()
	var buf [movegen.MaxMoves]movegen.Move
	legal := v.Generate(&p, buf[:0])
	if len(legal) != 1 || !legal[0].Promotes() || legal[0].Captured().Count() != 2 {
		t.Fatalf("%s: want one capture of two that promotes, have %v", fenOf(g), v.FormatMoves(legal))
	}
	pg.playClicks(t, g, legal[0])
	to := v.Numbering.Number(legal[0].To())
	if got := pg.board(t)[fmt.Sprint(to)]; got != "white-king" {
		t.Fatalf("square %d holds %q after a capture through the last row, want white-king", to, got)
	}
	pg.shot(t, "russian-capture-promotion.png")
}

// browserPortugueseCorner: square 1 is White's bottom-right corner.
func browserPortugueseCorner(t *testing.T, pg *page) {
	corner := evalJS[string](t, pg, `(() => {
		const b = document.getElementById('board').getBoundingClientRect();
		const r = document.querySelector('#board g[data-num="1"] rect').getBoundingClientRect();
		return (r.right > b.right - 2 ? 'right' : 'left') + ' ' + (r.bottom > b.bottom - 2 ? 'bottom' : 'top');
	})()`)
	if corner != "right bottom" {
		t.Fatalf("portuguese square 1 is drawn at the %s, want the bottom right", corner)
	}
}

func browserAgainstRio(t *testing.T, pg *page) {
	pg.playAgainstRio(t, movegen.Portuguese, "11-15")
	pg.waitIdle(t, "Rio moved")
	pg.shot(t, "portuguese-against-rio.png")
}

// playAgainstRio starts a new game of v at level 1 with Rio playing Black,
// plays White's move first by clicks, and checks Rio's answer: legal, kept
// by the page, and shown.
func (pg *page) playAgainstRio(t *testing.T, v *movegen.Variant, first string) {
	t.Helper()
	if evalJS[string](t, pg, `document.getElementById('variant').value`) != v.Name {
		pg.switchVariant(t, v)
	}
	pg.choose(t, "level", "1")
	pg.redrawn(t, "the board redrawn", func() { pg.choose(t, "rio-side", "black") })
	pg.redrawn(t, "a new game", func() { pg.click(t, "#new-game") })
	g := game.New(v, v.Start())
	pg.waitPosition(t, "a new game", fenOf(g), 0)
	// White's move by clicks; Rio may answer before the page could be
	// seen showing it, so wait for both.
	white := parseMove(t, g, first)
	p := g.Position()
	text := displayText(v, &p, white)
	pg.selectPiece(t, v.Numbering.Number(white.From()))
	pg.clickSquare(t, v.Numbering.Number(white.To()))
	pg.waitFor(t, "Rio's answer", jsPlies+` === 2`)
	if got := pg.moveTexts(t); got[0] != text {
		t.Fatalf("move list %q, want %s first", got, text)
	}
	// Rio's move, as the page keeps it, must be legal and lead to the
	// position shown.
	moves := evalJS[[]string](t, pg, `JSON.parse(localStorage.getItem('rio-gui-v1')).game.moves`)
	if len(moves) != 2 || moves[0] != v.FormatMove(white) {
		t.Fatalf("stored moves %q, want %s and Rio's", moves, v.FormatMove(white))
	}
	playLine(t, g, moves...)
	pg.waitPosition(t, "the position after Rio's move", fenOf(g), 2)
	pg.waitFor(t, "White to move", `document.getElementById('status').textContent.startsWith('White to move') && !document.getElementById('status').textContent.includes('thinking')`)
}

func browserReload(t *testing.T, pg *page) {
	fen, moves := pg.fen(t), pg.moveTexts(t)
	pg.do(t, "reloading", chromedp.Reload())
	pg.waitPosition(t, "the game restored", fen, len(moves))
	if got := pg.moveTexts(t); !slices.Equal(got, moves) {
		t.Fatalf("move list after reload %q, want %q", got, moves)
	}
	if got := evalJS[string](t, pg, `['variant', 'rio-side', 'level'].map((id) => document.getElementById(id).value).join(' ')`); got != "portuguese black 1" {
		t.Fatalf("after reload variant, Rio plays, level = %q, want portuguese black 1", got)
	}
	pg.shot(t, "reloaded.png")
}

// browserPhone shows the page at a phone's width (390x844 CSS pixels):
// the board fits the width and the controls come below it.
func browserPhone(t *testing.T, pg *page) {
	pg.do(t, "a phone's viewport", chromedp.EmulateViewport(390, 844))
	defer func() {
		ctx, cancel := context.WithTimeout(pg.ctx, browserWait)
		defer cancel()
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(1200, 900)); err != nil {
			t.Errorf("back to 1200x900: %v", err)
		}
	}()
	pg.waitFor(t, "the phone's width", `window.innerWidth === 390`)
	type box struct {
		BoardWidth  float64 `json:"boardWidth"`
		BoardBottom float64 `json:"boardBottom"`
		PanelTop    float64 `json:"panelTop"`
		PageWidth   float64 `json:"pageWidth"`
	}
	b := evalJS[box](t, pg, `(() => {
		const b = document.getElementById('board').getBoundingClientRect();
		const p = document.getElementById('panel').getBoundingClientRect();
		return { boardWidth: b.width, boardBottom: b.bottom, panelTop: p.top, pageWidth: document.documentElement.scrollWidth };
	})()`)
	t.Logf("at 390x844: %+v", b)
	if b.BoardWidth > 390 || b.BoardWidth <= 300 {
		t.Errorf("the board is %.1f px wide on a 390 px screen, want 300-390", b.BoardWidth)
	}
	if b.PanelTop < b.BoardBottom {
		t.Errorf("the panel starts at %.1f px, above the board's bottom at %.1f: want the controls below the board", b.PanelTop, b.BoardBottom)
	}
	if b.PageWidth > 390 {
		t.Errorf("the page is %.0f px wide on a 390 px screen: it scrolls sideways", b.PageWidth)
	}
	pg.shot(t, "phone.png")
}

// browserSetup builds a portuguese position with the set-up palette: a
// man on its promotion row is refused with a message (the set-up stays
// open), a good position is taken with its side to move, and Rio, which
// was playing Black, does not move in a studied position.
func browserSetup(t *testing.T, pg *page) {
	v := movegen.Portuguese
	if evalJS[string](t, pg, `document.getElementById('variant').value`) != v.Name {
		pg.switchVariant(t, v)
	}
	pg.open(t, "position-box")
	pg.click(t, "#setup")
	pg.waitFor(t, "the set-up palette", `!document.getElementById('setup-box').hidden`)
	pg.click(t, "#setup-clear")
	pg.waitFor(t, "an empty board", `document.querySelectorAll('#board [data-piece]').length === 0`)
	put := func(piece string, nums ...int) {
		pg.click(t, `#palette button[data-put="`+piece+`"]`)
		for _, n := range nums {
			pg.clickSquare(t, n)
		}
	}
	put("white-king", 1)
	put("white-man", 10, 32) // 32 is on White's promotion row
	put("black-man", 30)
	pg.waitFor(t, "four pieces placed", `document.querySelectorAll('#board [data-piece]').length === 4`)
	pg.choose(t, "setup-side", "B")
	pg.click(t, "#setup-done")
	pg.waitFor(t, "the bad set-up refused", `document.getElementById('message').className === 'error' && /promotion row/.test(document.getElementById('message').textContent) && !document.getElementById('setup-box').hidden`)
	put("empty", 32)
	pg.waitFor(t, "the man removed", `document.querySelectorAll('#board [data-piece]').length === 3`)
	pg.shot(t, "setup.png")
	pg.click(t, "#setup-done")
	want := "B:WK1,10:B30"
	pg.waitFor(t, "the set-up position taken", `document.getElementById('setup-box').hidden && document.getElementById('fen-out').value === `+q(want))
	p, err := v.ParseFEN(want)
	if err != nil {
		t.Fatal(err)
	}
	pg.checkBoard(t, v, &p)
	if got := evalJS[string](t, pg, `document.getElementById('rio-side').value`); got != "none" {
		t.Errorf("after a set-up Rio plays %q, want none", got)
	}
	if n := pg.plies(t); n != 0 {
		t.Errorf("%d plies played from the set-up position", n)
	}
}

// browserControls drives the rest of the page in brazilian with two
// players: flip, square numbers, the arrow keys, a click in the move list,
// a click on an analysis line's move, the evaluation graph, resignation
// and an agreed draw.
func browserControls(t *testing.T, pg *page) {
	v := movegen.Brazilian
	g := pg.switchVariant(t, v)
	if evalJS[string](t, pg, `document.getElementById('rio-side').value`) != "none" {
		pg.redrawn(t, "two players", func() { pg.choose(t, "rio-side", "none") })
	}
	for _, s := range []string{"22-18", "11-15", "18x11", "8x15"} {
		pg.playClicks(t, g, parseMove(t, g, s))
	}
	fens := []string{}
	replay := game.New(v, v.Start())
	fens = append(fens, fenOf(replay))
	for _, m := range g.Moves() {
		replay.Play(m)
		fens = append(fens, fenOf(replay))
	}

	// Flip: square 1 (b8, top left) goes to the bottom right and back.
	top := func() float64 {
		return evalJS[float64](t, pg, `(() => { const b = document.getElementById('board').getBoundingClientRect(); const r = document.querySelector('#board g[data-num="1"] rect').getBoundingClientRect(); return (r.top - b.top) / b.height; })()`)
	}
	if y := top(); y > 0.1 {
		t.Fatalf("square 1 drawn at %.2f of the board's height, want the top row", y)
	}
	pg.click(t, "#flip")
	pg.waitFor(t, "the board flipped", `(() => { const b = document.getElementById('board').getBoundingClientRect(); const r = document.querySelector('#board g[data-num="1"] rect').getBoundingClientRect(); return (r.top - b.top) / b.height > 0.8; })()`)
	pg.click(t, "#flip")
	pg.waitFor(t, "the board turned back", `(() => { const b = document.getElementById('board').getBoundingClientRect(); const r = document.querySelector('#board g[data-num="1"] rect').getBoundingClientRect(); return (r.top - b.top) / b.height < 0.1; })()`)

	// Numbers on the squares instead of the edges' a-h/1-8, and back.
	pg.click(t, "#labels")
	pg.waitFor(t, "numbers on the squares", `document.querySelectorAll('#board text.sq-num').length === 32 && document.querySelectorAll('#board text.coord').length === 0`)
	pg.click(t, "#labels")
	pg.waitFor(t, "coordinates on the edges", `document.querySelectorAll('#board text.sq-num').length === 0 && document.querySelectorAll('#board text.coord').length === 16`)

	// The arrow keys, Home and End walk the game; a click in the move list
	// jumps.
	key := func(k string, ply int) {
		t.Helper()
		pg.do(t, "pressing a key", chromedp.KeyEvent(k))
		pg.waitFor(t, fmt.Sprintf("ply %d shown", ply), `document.getElementById('fen-out').value === `+q(fens[ply]))
	}
	evalJS[bool](t, pg, `(document.activeElement && document.activeElement.blur(), true)`) // keys go to the page, not an input
	key(kb.ArrowLeft, 3)
	key(kb.ArrowLeft, 2)
	key(kb.ArrowRight, 3)
	key(kb.Home, 0)
	key(kb.End, 4)
	pg.click(t, `#movelist [data-ply="2"]`)
	pg.waitFor(t, "ply 2 from the move list", `document.getElementById('fen-out').value === `+q(fens[2])+` && document.getElementById('status').textContent.includes('(move 2 of 4)')`)
	key(kb.End, 4)

	// An analysis line's first move, clicked, is played.
	pg.click(t, "#analyse")
	pg.waitFor(t, "analysis lines", `document.querySelectorAll('#an-lines li .pv-move').length > 0`)
	first := evalJS[string](t, pg, `document.querySelector('#an-lines li .pv-move').textContent`)
	pg.click(t, "#an-lines li .pv-move")
	pg.waitFor(t, "the line's move played", jsPlies+` === 5`)
	if got := pg.moveTexts(t); got[4] != first {
		t.Fatalf("move list %q: want %s played from the analysis", got, first)
	}
	pg.click(t, "#analyse")
	pg.waitIdle(t, "analysis switched off")

	// Score the game: one point of the graph per position.
	pg.click(t, "#score-game")
	pg.waitFor(t, "the graph", `document.querySelector('#graph polyline') && document.querySelector('#graph polyline').getAttribute('points').trim().split(' ').length === 6`)
	pg.shot(t, "controls.png")

	// Resigning ends the game for the side to move (two players); so does
	// an agreed draw in a new game.
	pg.click(t, "#resign")
	pg.waitFor(t, "the resignation", `/^2-0 — Black resigned/.test(document.getElementById('status').textContent) && document.getElementById('resign').disabled`)
	pg.click(t, "#new-game")
	pg.waitPosition(t, "a new game", fens[0], 0)
	pg.click(t, "#draw")
	pg.waitFor(t, "the agreed draw", `/^1-1 — draw agreed/.test(document.getElementById('status').textContent)`)
	pg.click(t, "#new-game")
	pg.waitPosition(t, "a new game", fens[0], 0)
}
