package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/protocol/cb"
	"github.com/riodraughts/rio/internal/protocol/hub"
	"github.com/rs/zerolog"
)

// harness is testdata/harness.c (which loads librio-cb.so with dlopen)
// running: startHarness builds both, once per test run, and starts it.
type harness struct {
	t   *testing.T
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

// built holds what the tests built, in a directory TestMain removes: a
// c-shared build takes seconds, and every test loads a library.
var built struct {
	mu      sync.Mutex
	dir     string
	libs    map[string]string // librio-cb.so by build tags
	harness string
}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "cbengine-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	built.dir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// build returns librio-cb.so built with the build tags tags ("": none)
// and the harness, building each the first time. It skips without a C
// compiler.
func build(t *testing.T, tags string) (lib, bin string) {
	t.Helper()
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no C compiler (cc): the c-shared library test needs one")
	}
	built.mu.Lock()
	defer built.mu.Unlock()
	if built.harness == "" {
		bin := filepath.Join(built.dir, "harness")
		if out, err := exec.Command(cc, "-Wall", "-o", bin, "testdata/harness.c", "-ldl", "-lpthread").CombinedOutput(); err != nil {
			t.Fatalf("cc harness: %v\n%s", err, out)
		}
		built.harness = bin
	}
	lib, ok := built.libs[tags]
	if !ok {
		lib = filepath.Join(built.dir, "librio-cb.so")
		if tags != "" {
			lib = filepath.Join(built.dir, "librio-cb-"+tags+".so")
		}
		cmd := exec.Command("go", "build", "-buildmode=c-shared", "-tags", tags, "-o", lib, ".")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build -buildmode=c-shared -tags %q: %v\n%s", tags, err, out)
		}
		if built.libs == nil {
			built.libs = map[string]string{}
		}
		built.libs[tags] = lib
	}
	return lib, built.harness
}

// startHarness starts the harness on librio-cb.so built with tags.
func startHarness(t *testing.T, tags string) *harness {
	t.Helper()
	lib, bin := build(t, tags)
	h := &harness{t: t, cmd: exec.Command(bin, lib)}
	h.cmd.Env = append(os.Environ(), "RIO_EGDB_CACHE=off")
	h.cmd.Stderr = os.Stderr
	h.in, _ = h.cmd.StdinPipe()
	stdout, _ := h.cmd.StdoutPipe()
	h.out = bufio.NewScanner(stdout)
	h.out.Buffer(make([]byte, 1<<20), 1<<20)
	if err := h.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		h.in.Close()
		if err := h.cmd.Wait(); err != nil {
			t.Errorf("harness: %v", err)
		}
	})
	return h
}

// ask sends one request and returns the answer line.
func (h *harness) ask(req string) string {
	h.t.Helper()
	if _, err := io.WriteString(h.in, req+"\n"); err != nil {
		h.t.Fatalf("harness: %v", err)
	}
	if !h.out.Scan() {
		h.t.Fatalf("harness died on %.60q", req)
	}
	return h.out.Text()
}

func (h *harness) command(cmd string) (int, string) {
	h.t.Helper()
	f := strings.SplitN(h.ask("c "+cmd), " ", 3)
	if len(f) < 2 || f[0] != "R" {
		h.t.Fatalf("answer %q", f)
	}
	r, _ := strconv.Atoi(f[1])
	if len(f) == 2 {
		return r, ""
	}
	return r, f[2]
}

// codes writes p as the 32 piece codes by square number.
func codes(p *movegen.Position) string {
	var b cb.Board
	cb.BoardFromPosition(p, &b)
	var sb strings.Builder
	for n := 1; n <= 32; n++ {
		c := cb.SquareCoor(n)
		fmt.Fprintf(&sb, " %d", b[c.X][c.Y])
	}
	return sb.String()
}

func TestLibraryCommands(t *testing.T) {
	h := startHarness(t, "")
	for _, c := range []struct {
		cmd   string
		ret   int
		reply string
	}{
		{"name", 1, "Rio"}, {"get protocolversion", 1, "2"}, {"get gametype", 1, "25"},
		{"get movelist B:W1:B", 1, "movelist 0"}, {"set gametype 26", 1, "gametype 26"},
		{"get gametype", 1, "26"}, {"frobnicate", 0, "?"},
		{"get movelist W:W21-32:B1-12", 1, "movelist 7,0,5,5,22,17;0,5,5,23,18;0,5,5,24,19;0,5,5,21,17;0,5,5,22,18;0,5,5,23,19;0,5,5,24,20;"},
	} {
		if r, reply := h.command(c.cmd); r != c.ret || reply != c.reply {
			t.Errorf("%q: %d %q, want %d %q", c.cmd, r, reply, c.ret, c.reply)
		}
	}
	// Bad input across the C boundary: null pointers, garbage boards, a
	// colour of 7, a command of 1 MiB; the library answers and goes on.
	want := "B 3 3 3 3 0 1 0 1 [movelist 0] 0 0 0 0 1 1 [Rio]"
	if got := h.ask("b"); got != want {
		t.Errorf("bad input: %q, want %q", got, want)
	}
	h.ask("c set book 0") // the start is in the built-in book, which answers at once: searched
	f := strings.Fields(h.ask("p"))
	ms, err := strconv.ParseFloat(f[len(f)-1], 64)
	// The library polls playnow every 2 ms; the limit is the slack of the
	// other timing tests (internal/protocol/cb's schedSlack) for a loaded
	// machine's scheduling, where a playnow not polled takes the whole 60 s.
	if err != nil || ms > 250 {
		t.Errorf("playnow through the library: %v ms (%v)", f, err)
	}
	t.Logf("playnow through the library: %.1f ms", ms)
}

// Each build plays its game type from the start, which CheckerBoard asks
// and never sets: the plain library russian, the one built with -tags
// brazilian (build.sh's -brazilian DLLs) brazilian. Black's one brazilian
// move in the position takes two men and stops on the crowning row; in
// russian the man goes on as a king, or takes one man elsewhere.
func TestGameTypeBuilds(t *testing.T) {
	const fen = "B:W17,24,26,28,29,32:B1,3,4,6,9,13,16,21"
	for _, c := range []struct {
		tags string
		v    *movegen.Variant
	}{{"", movegen.Russian}, {"brazilian", movegen.Brazilian}} {
		h := startHarness(t, c.tags)
		if r, reply := h.command("get gametype"); r != 1 || reply != strconv.Itoa(c.v.GameType) {
			t.Errorf("-tags %q: get gametype answers %d %q, want %d", c.tags, r, reply, c.v.GameType)
		}
		p, err := c.v.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		ans := strings.Fields(h.ask("g 2 0.05 0 0" + codes(&p)))
		if len(ans) < 34 || ans[0] != "M" {
			t.Fatalf("-tags %q: getmove answered %q", c.tags, ans)
		}
		if m := playedMove(c.v, &p, ans[2:34]); m == movegen.NoMove {
			t.Errorf("-tags %q: getmove wrote no %s move's board: %q", c.tags, c.v, ans)
		}
	}
}

// playedMove returns the legal move of p in v that gives the board of the
// 32 piece codes after (by square number), or NoMove.
func playedMove(v *movegen.Variant, p *movegen.Position, after []string) movegen.Move {
	want := " " + strings.Join(after, " ")
	var buf [movegen.MaxMoves]movegen.Move
	for _, m := range v.Generate(p, buf[:0]) {
		if q := p.Play(m); codes(&q) == want {
			return m
		}
	}
	return movegen.NoMove
}

// hubEngine is Rio's Hub engine in this process, driven through pipes.
type hubEngine struct {
	in  *io.PipeWriter
	out *bufio.Scanner
}

func startHub(t *testing.T, v *movegen.Variant) *hubEngine {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() {
		hub.Run(context.Background(), inR, outW, hub.Identity{Name: "Rio", Version: "test"}, zerolog.Nop())
		outW.Close()
	}()
	e := &hubEngine{in: inW, out: bufio.NewScanner(outR)}
	t.Cleanup(func() { inW.Close() })
	e.send("hub")
	e.expect(t, "wait")
	e.send("set-param name=variant value="+v.Name, "set-param name=egdb-pieces value=0", "init")
	e.expect(t, "ready")
	return e
}

func (e *hubEngine) send(lines ...string) {
	for _, l := range lines {
		io.WriteString(e.in, l+"\n")
	}
}

func (e *hubEngine) expect(t *testing.T, prefix string) string {
	t.Helper()
	for e.out.Scan() {
		if l := e.out.Text(); strings.HasPrefix(l, prefix) {
			return l
		}
	}
	t.Fatalf("hub ended waiting for %q", prefix)
	return ""
}

// gameHist is what CheckerBoard sends before getmove: the position after
// the last irreversible move and the reversible moves since.
func gameHist(g *game.Game) string {
	v := g.Variant
	first := g.Ply()
	for first > 0 {
		p := g.PositionAt(first - 1)
		if game.EventOf(&p, g.Moves()[first-1])&(game.Capture|game.ManMove) != 0 {
			break
		}
		first--
	}
	start := g.PositionAt(first)
	s := "set gamehist " + v.FormatFEN(&start, false)
	for i := first; i < g.Ply(); i++ {
		p := g.PositionAt(i)
		s += " " + v.FormatPDN(&p, g.Moves()[i], movegen.PDNStyle{})
	}
	return s
}

// The library plays whole games against the Hub engine in both variants:
// every move it writes is legal and described, the games end by the rules.
func TestLibraryPlaysHub(t *testing.T) {
	h := startHarness(t, "")
	for _, v := range []*movegen.Variant{movegen.Russian, movegen.Brazilian} {
		for _, libColour := range []movegen.Color{movegen.White, movegen.Black} {
			if r, _ := h.command("set gametype " + strconv.Itoa(v.GameType)); r != 1 {
				t.Fatal("set gametype")
			}
			h.command("set enable_wld 0")
			hubE := startHub(t, v)
			g := game.New(v, v.Start())
			for g.Outcome().Result == game.Ongoing && g.Ply() < 400 {
				p := g.Position()
				var m movegen.Move
				if p.Side == libColour {
					if r, reply := h.command(gameHist(g)); r != 1 {
						t.Fatalf("%s: %s", gameHist(g), reply)
					}
					ans := strings.Fields(h.ask(fmt.Sprintf("g %d 0.01 0 0%s", map[movegen.Color]int{movegen.White: 1, movegen.Black: 2}[p.Side], codes(&p))))
					if len(ans) < 37 || ans[0] != "M" {
						t.Fatalf("getmove answered %q", ans)
					}
					if m = playedMove(v, &p, ans[2:34]); m == movegen.NoMove {
						t.Fatalf("%s %s: the library wrote no legal move's board: %q", v, v.FormatFEN(&p, false), ans)
					}
					if ans[35] != strconv.Itoa(movegen.STD.Number(m.From())) || ans[36] != strconv.Itoa(movegen.STD.Number(m.To())) {
						t.Fatalf("%s: CBmove from/to %s %s for %s", v, ans[35], ans[36], v.FormatMove(m))
					}
				} else {
					start := g.Start()
					hubE.send("pos pos="+v.FormatHub(&start)+movesArg(g), "level move-time=0.01", "go think")
					done := hubE.expect(t, "done")
					text := strings.TrimPrefix(strings.Fields(done)[1], "move=")
					var err error
					if m, err = v.ParseMove(&p, text); err != nil {
						t.Fatalf("hub's move %s: %v", text, err)
					}
				}
				if err := g.Play(m); err != nil {
					t.Fatal(err)
				}
			}
			o := g.Outcome()
			if o.Result == game.Ongoing {
				t.Errorf("%s: no result after %d plies", v, g.Ply())
			}
			t.Logf("%s, library %s: %s (%s) in %d plies", v, libColour, o.Result, o.Reason, g.Ply())
		}
	}
}

func movesArg(g *game.Game) string {
	if g.Ply() == 0 {
		return ""
	}
	return ` moves="` + strings.Join(g.Variant.FormatMoves(g.Moves()), " ") + `"`
}
