package gui

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
)

// axeSource is axe-core's script: $RIO_AXE, or axe-core installed once with
// npm into the user's cache (the page itself loads nothing from outside).
func axeSource(t *testing.T) string {
	t.Helper()
	path := os.Getenv("RIO_AXE")
	if path == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			cache = os.TempDir()
		}
		dir := filepath.Join(cache, "rio-test", "axe-core-4.14.1")
		path = filepath.Join(dir, "node_modules", "axe-core", "axe.min.js")
		if _, err := os.Stat(path); err != nil {
			npm, err := exec.LookPath("npm")
			if err != nil {
				t.Skip("no npm to install axe-core for the accessibility audit: apt-get install npm, or set $RIO_AXE to axe.min.js")
			}
			os.MkdirAll(dir, 0o755)
			cmd := exec.Command(npm, "install", "--prefix", dir, "--no-audit", "--no-fund", "--silent", "axe-core@4.14.1")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Skipf("npm install axe-core failed (%v): %s", err, out)
			}
		}
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("axe-core: %v", err)
	}
	return string(src)
}

// audit runs axe-core's WCAG 2.1 A and AA rules on the page as it is and
// fails on any violation.
func (pg *page) audit(t *testing.T, axe, what string) {
	t.Helper()
	if !evalJS[bool](t, pg, `typeof axe !== 'undefined'`) {
		evalJS[chromedp.Void](t, pg, axe)
	}
	ctx, cancel := context.WithTimeout(pg.ctx, browserWait)
	defer cancel()
	res, err := chromedp.Run(ctx, chromedp.Evaluate[string](`axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}})
		.then((r) => JSON.stringify(r.violations.map((v) => ({id: v.id, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ': ' + n.failureSummary)}))))`,
		chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("axe on %s: %v", what, err)
	}
	var violations []struct {
		ID, Help string
		Nodes    []string
	}
	json.Unmarshal([]byte(res), &violations)
	for _, v := range violations {
		t.Errorf("%s: %s (%s): %s", what, v.ID, v.Help, strings.Join(v.Nodes, " | "))
	}
}

// focused describes the element with the focus: its id, or data-num for
// a square of the board, or its tag and text.
func (pg *page) focused(t *testing.T) string {
	t.Helper()
	return evalJS[string](t, pg, `(() => {
		const e = document.activeElement;
		if (!e) return '';
		if (e.dataset && e.dataset.num) return 'square ' + e.dataset.num;
		if (e.id) return '#' + e.id;
		return e.tagName.toLowerCase() + ' ' + e.textContent.trim().slice(0, 20);
	})()`)
}

func (pg *page) key(t *testing.T, k string, mods ...chromedp.Modifier) {
	t.Helper()
	var opts []chromedp.KeyOption
	for _, m := range mods {
		opts = append(opts, chromedp.KeyModifiers(m))
	}
	pg.do(t, "pressing "+k, chromedp.KeyEvent(k, opts...))
}

// keyTo moves the board's focus to square num with the arrow keys, as a
// keyboard user does: rows first, then along the row.
func (pg *page) keyTo(t *testing.T, num int) {
	t.Helper()
	for range 24 {
		d := evalJS[[]float64](t, pg, fmt.Sprintf(`(() => {
			const a = document.activeElement.getBoundingClientRect();
			const b = document.querySelector('#board [data-num="%d"]').getBoundingClientRect();
			return [Math.round((b.top - a.top) / a.height), Math.round((b.left - a.left) / a.width)];
		})()`, num))
		switch {
		case d[0] < 0:
			pg.key(t, kb.ArrowUp)
		case d[0] > 0:
			pg.key(t, kb.ArrowDown)
		case d[1] < 0:
			pg.key(t, kb.ArrowLeft)
		case d[1] > 0:
			pg.key(t, kb.ArrowRight)
		default:
			return
		}
	}
	t.Fatalf("the arrow keys did not reach square %d (focus on %s)", num, pg.focused(t))
}

// keyMove plays m by keyboard: its piece, then each square of picks
// (its end square when none), each chosen with Enter or Space.
func (pg *page) keyMove(t *testing.T, g *game.Game, m movegen.Move, picks ...int) {
	t.Helper()
	v := g.Variant
	if len(picks) == 0 {
		picks = []int{v.Numbering.Number(m.To())}
	}
	if err := g.Play(m); err != nil {
		t.Fatal(err)
	}
	pg.keyTo(t, v.Numbering.Number(m.From()))
	pg.key(t, kb.Enter)
	pg.waitFor(t, "the piece selected", `document.activeElement.getAttribute('aria-selected') === 'true'`)
	for i, s := range picks {
		pg.keyTo(t, s)
		if i%2 == 0 {
			pg.key(t, " ")
		} else {
			pg.key(t, kb.Enter)
		}
	}
	pg.waitPosition(t, "the position after "+v.FormatMove(m), fenOf(g), g.Ply())
}

// TestBoardAccessible: the board by keyboard and screen reader. The focus
// order; a game played by keyboard only in each variant, a capture with a
// choice among them; the squares' names; axe-core's WCAG 2.1 A/AA audit
// in play, with the analysis open and in set-up; Ctrl+F leaves the board
// as it is; a draw offer answered after a take back changes nothing.
func TestBoardAccessible(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: the browser tests run in the full go test ./...")
	}
	h := newHarness(t, Config{})
	pg := newBrowserPage(t, h.srv.URL+"/", h.s)
	axe := axeSource(t)
	v := movegen.Brazilian
	pg.waitPosition(t, "the start position", fenOf(game.New(v, v.Start())), 0)

	// The focus order from the top of the page.
	evalJS[chromedp.Void](t, pg, `document.activeElement && document.activeElement.blur()`)
	var order []string
	for range 10 {
		pg.key(t, kb.Tab)
		order = append(order, pg.focused(t))
	}
	want := []string{"#variant", "square 29", "#flip", "#labels", "#first", "#prev", "#next", "#last", "summary Play", "#rio-side"}
	if fmt.Sprint(order) != fmt.Sprint(want) {
		t.Errorf("focus order %q, want %q", order, want)
	}
	if name := evalJS[string](t, pg, `document.querySelector('#board [data-num="29"]').getAttribute('aria-label')`); name != "a1, white man" {
		t.Errorf("square 29 named %q, want \"a1, white man\"", name)
	}
	pg.audit(t, axe, "the board in play")

	for _, r := range browserRuns {
		t.Run(r.v.Name, func(t *testing.T) {
			v := r.v
			if evalJS[string](t, pg, `document.getElementById('variant').value`) != v.Name {
				pg.switchVariant(t, v)
			}
			if evalJS[string](t, pg, `document.getElementById('rio-side').value`) != "none" {
				pg.redrawn(t, "two players", func() { pg.choose(t, "rio-side", "none") })
			}
			g := game.New(v, v.Start())
			evalJS[chromedp.Void](t, pg, `document.querySelector('#board [tabindex="0"]').focus()`)
			for _, s := range r.opening[:4] {
				pg.keyMove(t, g, parseMove(t, g, s))
			}
			// A portuguese square is named by its number.
			if v == movegen.Portuguese {
				if name := evalJS[string](t, pg, `document.querySelector('#board [data-num="18"]').getAttribute('aria-label')`); !strings.HasPrefix(name, "18, ") {
					t.Errorf("portuguese square 18 named %q", name)
				}
			}
			// A capture with a choice: the piece, the shared end, then a
			// square along the capture meant.
			g = pg.loadFEN(t, v, r.choice)
			p := g.Position()
			choice, ok := findCaptureChoice(v, &p)
			if !ok {
				t.Fatalf("%s has no capture choice", r.choice)
			}
			evalJS[chromedp.Void](t, pg, `document.querySelector('#board [tabindex="0"]').focus()`)
			pg.keyMove(t, g, choice.move, choice.to, choice.via)
		})
	}

	// Escape drops a selection.
	v = movegen.Brazilian
	pg.switchVariant(t, v)
	evalJS[chromedp.Void](t, pg, `document.querySelector('#board [data-num="22"]').focus()`)
	pg.key(t, kb.Enter)
	pg.waitFor(t, "22 selected", `document.querySelector('#board [data-num="22"]').getAttribute('aria-selected') === 'true'`)
	pg.key(t, kb.Escape)
	pg.waitFor(t, "the selection dropped", `!document.querySelector('#board [aria-selected="true"]')`)

	// Ctrl+F is the browser's find: it does not flip the board; F does.
	flipped := func() bool {
		return evalJS[bool](t, pg, `document.getElementById('flip').getAttribute('aria-pressed') === 'true'`)
	}
	evalJS[chromedp.Void](t, pg, `document.getElementById('first').focus()`)
	pg.key(t, "f", chromedp.ModifierCtrl)
	if flipped() {
		t.Error("Ctrl+F flipped the board")
	}
	pg.key(t, "f")
	pg.waitFor(t, "F flips", `document.getElementById('flip').getAttribute('aria-pressed') === 'true'`)
	pg.key(t, "f")

	// The analysis open, then the set-up mode, audited.
	pg.analysis(t, 1)
	pg.audit(t, axe, "the analysis open")
	pg.click(t, "#analyse")
	pg.open(t, "position-box")
	pg.click(t, "#setup")
	pg.waitFor(t, "the set-up", `!document.getElementById('setup-box').hidden`)
	pg.audit(t, axe, "the set-up mode")
	pg.click(t, "#setup-cancel")

	// A draw offer answered after a take back: Rio would accept at the
	// start, but the answer is about a position the game has left.
	pg.redrawn(t, "Rio plays black", func() { pg.choose(t, "rio-side", "black") })
	pg.redrawn(t, "a new game", func() { pg.click(t, "#new-game") })
	g := game.New(v, v.Start())
	pg.selectPiece(t, 22)
	pg.clickSquare(t, 18)
	pg.waitFor(t, "Rio's answer", jsPlies+` === 2 && !document.getElementById('draw').disabled`)
	evalJS[chromedp.Void](t, pg, `document.getElementById('draw').click(); document.getElementById('takeback').click()`)
	pg.waitPosition(t, "the take back", fenOf(g), 0)
	time.Sleep(300 * time.Millisecond)
	pg.waitIdle(t, "the draw offer answered")
	time.Sleep(200 * time.Millisecond)
	if s := evalJS[string](t, pg, `document.getElementById('status').textContent`); strings.Contains(s, "draw") {
		t.Errorf("the draw offer's late answer ended the game: %q", s)
	}
}

// TestBoardClock: a 1+0 game against Rio, whose moves take from its clock
// and never flag; the player's flag fall ends the game as a loss; the PDN
// export carries the control and the clocks.
func TestBoardClock(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: the browser tests run in the full go test ./...")
	}
	h := newHarness(t, Config{})
	pg := newBrowserPage(t, h.srv.URL+"/", h.s)
	v := movegen.Russian
	pg.waitPosition(t, "the start position", fenOf(game.New(movegen.Brazilian, movegen.Brazilian.Start())), 0)
	pg.switchVariant(t, v)

	// 1+0, Rio plays White: it moves first, on its own clock.
	pg.choose(t, "clock", "1+0")
	pg.choose(t, "rio-side", "white")
	// Taking White in the untimed game on the board, Rio moves there at
	// once. Wait for that game to settle: its answer arriving after the
	// click below would pass for the new game's redraw, and its one
	// stored ply for Rio's first move of the new game (under load, the
	// test then read the new game's empty record and clicked White's
	// piece with Black to move).
	oneMove := jsStoredPlies + ` === 1 && ` + jsPlies + ` === 1` // stored and shown
	pg.waitFor(t, "Rio's move in the untimed game", oneMove)
	pg.redrawn(t, "a new game", func() { pg.click(t, "#new-game") })
	pg.waitFor(t, "Rio's first move", oneMove)
	clock := func(side string) float64 {
		return evalJS[float64](t, pg, `(() => { const m = /(\d+):(\d+(?:\.\d)?)$/.exec(document.getElementById('clock-`+side+`').textContent); return m ? 60 * Number(m[1]) + Number(m[2]) : -1; })()`)
	}
	// A book move takes no time at all: the clock may still show 1:00.
	if w := clock("white"); w <= 40 || w > 60 {
		t.Errorf("Rio's clock after its first move: %v s, want at most 60 and not much less", w)
	}
	g := game.New(v, v.Start())
	moves := evalJS[[]string](t, pg, `JSON.parse(localStorage.getItem('rio-gui-v1')).game.moves`)
	playLine(t, g, moves...)
	var buf [movegen.MaxMoves]movegen.Move
	for ply := 1; ply < 7; ply += 2 {
		// Rio's move is saved before the board is drawn again: a click
		// on the board before that lands on the position before it (an
		// instant book move made this flake: the piece never selected,
		// or its move refused as illegal).
		p := g.Position()
		pg.waitPosition(t, "Rio's move on the board", v.FormatFEN(&p, false), g.Ply())
		m := v.Generate(&p, buf[:0])[0]
		pg.selectPiece(t, v.Numbering.Number(m.From()))
		pg.clickSquare(t, v.Numbering.Number(m.To()))
		pg.waitFor(t, "Rio's answer", fmt.Sprintf(`%s === %d`, jsStoredPlies, ply+2))
		moves = evalJS[[]string](t, pg, `JSON.parse(localStorage.getItem('rio-gui-v1')).game.moves`)
		g = game.New(v, v.Start())
		playLine(t, g, moves...)
	}
	if w := clock("white"); w <= 20 {
		t.Errorf("Rio's clock after 4 moves of a 1+0 game: %v s", w)
	}
	if s := evalJS[string](t, pg, `document.getElementById('status').textContent`); !strings.HasPrefix(s, "Black to move") {
		t.Fatalf("status %q", s)
	}
	// Looking back through the game leaves the clock of the side to move
	// at its end running.
	before := clock("black")
	evalJS[chromedp.Void](t, pg, `document.activeElement && document.activeElement.blur()`)
	pg.key(t, kb.Home)
	pg.waitFor(t, "the first position shown", `document.getElementById('status').textContent.includes('(move 0 of')`)
	time.Sleep(1500 * time.Millisecond)
	if after := clock("black"); before-after < 1 {
		t.Errorf("Black's clock went from %v to %v s while the start was shown", before, after)
	}
	pg.key(t, kb.End)

	// The export records the control and each move's clock.
	pg.open(t, "pdn-box")
	pg.click(t, "#pdn-export")
	pg.waitFor(t, "the PDN", `document.getElementById('pdn-text').value.includes('TimeControl')`)
	pdn := evalJS[string](t, pg, `document.getElementById('pdn-text').value`)
	if !strings.Contains(pdn, `[TimeControl "60+0"]`) || strings.Count(pdn, "[%clk 0:00:") < 7 {
		t.Errorf("PDN of a 1+0 game:\n%s", pdn)
	}

	// The player's flag: a custom 0.1+0 game (6 s), Rio plays White, the
	// player never moves.
	pg.choose(t, "clock", "custom")
	pg.click(t, "#flip") // a redraw while the custom control is being typed keeps it
	if v := evalJS[string](t, pg, `document.getElementById('clock').value`); v != "custom" {
		t.Errorf("the clock menu went back to %q while a custom control was being typed", v)
	}
	pg.click(t, "#flip")
	pg.setText(t, "clock-custom", "0.1+0")
	evalJS[chromedp.Void](t, pg, `document.getElementById('clock-custom').dispatchEvent(new Event('change'))`)
	pg.redrawn(t, "a new game", func() { pg.click(t, "#new-game") })
	pg.waitFor(t, "Rio's first move", jsPlies+` === 1`)
	ctx, cancel := context.WithTimeout(pg.ctx, 20*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById('status').textContent.startsWith('2-0 — Black ran out of time')`,
		chromedp.WithPollingTimeout(15*time.Second), chromedp.WithPollingInterval(100*time.Millisecond))); err != nil {
		t.Fatalf("the player's flag: %v%s", err, pg.diag())
	}
	if !evalJS[bool](t, pg, `document.getElementById('resign').disabled`) {
		t.Error("the game goes on after the flag")
	}
}
