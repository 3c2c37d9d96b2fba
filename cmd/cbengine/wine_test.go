package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
)

// The Windows builds under wine (issue 23): wine/host.c, a CheckerBoard
// stand-in cross-compiled with mingw-w64, loads each engine DLL build.sh
// makes and checks it (name, game type, get movelist, islegal, whole games
// through getmove with every move checked, playnow); engine.exe answers a
// Hub go think with a legal move and plays a whole game through Hub.
//
// Go's runtime calls ProcessPrng from bcryptprimitives.dll at start-up,
// which wine has only since 8.13 (Debian 12 ships 8.0). Where the probe
// finds it missing, the test installs the project's stand-in
// (wine/bcryptprimitives.c) into the prefix's system directory: the
// runtime loads it with LOAD_LIBRARY_SEARCH_SYSTEM32, so a copy beside the
// program is not found. Where wine has its own, the stand-in is built (so
// that it keeps compiling) but not installed: the test then runs what a
// user of that wine runs.
//
// The prefix is a temporary directory, made on wine's first start (tens
// of seconds, minutes on a slow machine); RIO_WINEPREFIX=DIR keeps one
// across runs. The 32-bit DLLs are checked where wine runs 32-bit
// programs (Debian: dpkg --add-architecture i386 && apt-get install
// wine32:i386) and i686-w64-mingw32-gcc is installed; else that part skips
// saying why.
func TestWine(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the Windows builds are not run under wine")
	}
	if _, err := exec.LookPath("x86_64-w64-mingw32-gcc"); err != nil {
		t.Skip("no x86_64-w64-mingw32-gcc: the Windows builds are not run under wine (Debian: apt-get install gcc-mingw-w64)")
	}
	launchers := wine64Launchers()
	if len(launchers) == 0 {
		t.Skip("no wine or wine64: the Windows builds are not run under wine (Debian: apt-get install wine wine64)")
	}
	start := time.Now()
	dlls := buildDLLs(t)
	dir := filepath.Join(built.dir, "wine")
	for _, d := range []string{"64", "32"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	host64 := filepath.Join(dir, "64", "host.exe")
	standin64 := filepath.Join(dir, "64", "bcryptprimitives.dll")
	engineExe := filepath.Join(dir, "64", "engine.exe")
	mingw(t, "x86_64-w64-mingw32-gcc", "-O2", "-Wall", "-o", host64, "wine/host.c")
	mingw(t, "x86_64-w64-mingw32-gcc", "-shared", "-O2", "-Wall", "-o", standin64, "wine/bcryptprimitives.c", "-lbcrypt")
	cmd := exec.Command("go", "build", "-trimpath", "-o", engineExe, "github.com/riodraughts/rio/cmd/engine")
	cmd.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("GOOS=windows go build ./cmd/engine: %v\n%s", err, out)
	}
	t.Logf("built the DLLs, host.exe, the stand-in and engine.exe: %v", time.Since(start).Round(time.Millisecond))

	w := newWine(t)
	// The first probe makes the prefix.
	start = time.Now()
	var wine64 string
	var tried []string
	for _, l := range launchers {
		out, err := w.run(l, 5*time.Minute, host64, "probe")
		if strings.Contains(out, "ProcessPrng: ") {
			wine64 = l
			break
		}
		tried = append(tried, fmt.Sprintf("%s: %v\n%s", l, err, out))
	}
	if wine64 == "" {
		t.Skipf("wine runs no 64-bit program here:\n%s", strings.Join(tried, "\n"))
	}
	version, _ := exec.Command(wine64, "--version").Output()
	t.Logf("%s (%s), prefix %s: first start %v", wine64, strings.TrimSpace(string(version)), w.prefix, time.Since(start).Round(time.Millisecond))
	w.processPrng(t, wine64, host64, standin64, "system32")

	for _, c := range []struct {
		dll      string
		gameType int
	}{{"rio-cb64.dll", 25}, {"rio-cb64-brazilian.dll", 26}} {
		t.Run(c.dll, func(t *testing.T) { w.host(t, wine64, host64, filepath.Join(dlls, c.dll), c.gameType) })
	}
	t.Run("engine.exe", func(t *testing.T) { w.hub(t, wine64, engineExe) })

	t.Run("32-bit", func(t *testing.T) {
		if _, err := exec.LookPath("i686-w64-mingw32-gcc"); err != nil {
			t.Skip("no i686-w64-mingw32-gcc: the 32-bit DLLs are not run (Debian: apt-get install gcc-mingw-w64)")
		}
		wine32, err := exec.LookPath("wine")
		if err != nil {
			t.Skip("no wine command: the 32-bit DLLs are not run")
		}
		host32 := filepath.Join(dir, "32", "host.exe")
		standin32 := filepath.Join(dir, "32", "bcryptprimitives.dll")
		mingw(t, "i686-w64-mingw32-gcc", "-O2", "-Wall", "-o", host32, "wine/host.c")
		mingw(t, "i686-w64-mingw32-gcc", "-shared", "-O2", "-Wall", "-Wl,--kill-at", "-o", standin32, "wine/bcryptprimitives.c", "-lbcrypt")
		if out, err := w.run(wine32, 2*time.Minute, host32, "probe"); !strings.Contains(out, "ProcessPrng: ") {
			t.Skipf("wine runs no 32-bit program here (Debian: dpkg --add-architecture i386 && apt-get update && apt-get install wine32:i386; the kernel must run 32-bit programs): %v\n%s", err, out)
		}
		sys := "syswow64" // a 64-bit prefix's directory for 32-bit system DLLs
		if _, err := os.Stat(filepath.Join(w.prefix, "drive_c", "windows", sys)); err != nil {
			sys = "system32"
		}
		w.processPrng(t, wine32, host32, standin32, sys)
		for _, c := range []struct {
			dll      string
			gameType int
		}{{"rio-cb32.dll", 25}, {"rio-cb32-brazilian.dll", 26}} {
			t.Run(c.dll, func(t *testing.T) { w.host(t, wine32, host32, filepath.Join(dlls, c.dll), c.gameType) })
		}
	})
}

// wine64Launchers returns the commands to try for 64-bit programs, in
// order: wine64, wine, and Debian's wine64 loader itself (which the wine
// wrapper skips when a wine32 is installed, even one the kernel cannot
// run).
func wine64Launchers() []string {
	var l []string
	for _, name := range []string{"wine64", "wine", "/usr/lib/wine/wine64"} {
		if p, err := exec.LookPath(name); err == nil {
			l = append(l, p)
		}
	}
	return l
}

// mingw runs a cross compiler in the package directory.
func mingw(t *testing.T, cc string, args ...string) {
	t.Helper()
	if out, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", cc, strings.Join(args, " "), err, out)
	}
}

// wineEnv is one wine prefix and the environment every run gets.
type wineEnv struct {
	prefix string
	env    []string
}

// newWine makes the prefix directory (RIO_WINEPREFIX, or a temporary
// one) and stops its wineserver, and with it anything left running, when
// the test ends.
func newWine(t *testing.T) *wineEnv {
	prefix := os.Getenv("RIO_WINEPREFIX")
	if prefix == "" {
		prefix = t.TempDir()
	} else if err := os.MkdirAll(prefix, 0o755); err != nil {
		t.Fatal(err)
	}
	w := &wineEnv{prefix: prefix}
	for _, kv := range os.Environ() {
		switch strings.SplitN(kv, "=", 2)[0] {
		case "WINEPREFIX", "WINEDEBUG", "WINEDLLOVERRIDES", "WINEARCH", "DISPLAY", "WAYLAND_DISPLAY", "RIO_EGDB_CACHE":
			continue // set below, or unset: no window is ever opened
		}
		w.env = append(w.env, kv)
	}
	w.env = append(w.env, "WINEPREFIX="+prefix, "WINEDEBUG=-all",
		// No Mono or Gecko download prompt, no menu entries in $HOME.
		"WINEDLLOVERRIDES=mscoree,mshtml,winemenubuilder.exe=d",
		"RIO_EGDB_CACHE=off")
	t.Cleanup(func() {
		server, err := exec.LookPath("wineserver")
		if err != nil {
			return // it exits by itself a few seconds after the last program
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		for _, flag := range []string{"-k", "-w"} { // kill, then wait for its end
			cmd := exec.CommandContext(ctx, server, flag)
			cmd.Env = w.env
			cmd.Run()
		}
	})
	return w
}

// command is a wine run of args with the prefix's environment, killed at
// the context's end.
func (w *wineEnv) command(ctx context.Context, launcher string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, launcher, args...)
	cmd.Env = w.env
	cmd.Dir = filepath.Dir(args[0])
	// A program wine starts in the background could hold the output
	// pipes; Wait returns anyway.
	cmd.WaitDelay = 10 * time.Second
	return cmd
}

// run runs args under wine and returns its output, stdout and stderr.
func (w *wineEnv) run(launcher string, timeout time.Duration, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var out bytes.Buffer
	cmd := w.command(ctx, launcher, args...)
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		err = fmt.Errorf("no answer within %v", timeout)
	}
	return strings.ReplaceAll(out.String(), "\r\n", "\n"), err
}

// standinMark is a string the stand-in DLL carries (bcryptprimitives.c).
const standinMark = "Rio's stand-in bcryptprimitives.dll"

// processPrng makes sure the prefix's system directory sys (system32, or
// syswow64 for 32-bit programs) gives ProcessPrng: wine's own where it has
// one, else the stand-in, which the probe must then find. A stand-in an
// earlier run left in a kept prefix (RIO_WINEPREFIX) is replaced by this
// run's build.
func (w *wineEnv) processPrng(t *testing.T, launcher, host, standin, sys string) {
	t.Helper()
	installed := filepath.Join(w.prefix, "drive_c", "windows", sys, "bcryptprimitives.dll")
	install := func() {
		data := readFile(standin)
		if data == nil {
			t.Fatalf("no %s", standin)
		}
		if err := os.WriteFile(installed, data, 0o644); err != nil {
			t.Fatalf("installing the stand-in: %v", err)
		}
	}
	name := filepath.Base(filepath.Dir(host)) + "-bit " + filepath.Base(host)
	ours := bytes.Contains(readFile(installed), []byte(standinMark))
	if ours {
		install()
	}
	out, err := w.run(launcher, 2*time.Minute, host, "probe")
	switch {
	case strings.Contains(out, "ProcessPrng: present") && ours:
		t.Logf("%s: ProcessPrng from the stand-in, installed in %s by an earlier run and replaced by this one's", name, installed)
		return
	case strings.Contains(out, "ProcessPrng: present"):
		t.Logf("%s: this wine has ProcessPrng: the stand-in is not installed", name)
		return
	case !strings.Contains(out, "ProcessPrng: missing"):
		t.Fatalf("probe: %v\n%s", err, out)
	case ours:
		t.Fatalf("the stand-in in %s gives no ProcessPrng:\n%s", installed, out)
	}
	install()
	out, err = w.run(launcher, 2*time.Minute, host, "probe")
	if !strings.Contains(out, "ProcessPrng: present") {
		t.Fatalf("the stand-in installed in %s gives no ProcessPrng: %v\n%s", installed, err, out)
	}
	t.Logf("%s: this wine lacks ProcessPrng: the stand-in (wine/bcryptprimitives.c) is installed in %s", name, installed)
}

func readFile(name string) []byte {
	b, _ := os.ReadFile(name)
	return b
}

// host runs wine/host.c on one DLL; every line it prints is logged, every
// FAIL line is an error.
func (w *wineEnv) host(t *testing.T, launcher, host, dll string, gameType int) {
	if _, err := os.Stat(dll); err != nil {
		t.Fatalf("build.sh made no %s", filepath.Base(dll))
	}
	// The host takes the DLL's path as CheckerBoard does, from its own
	// directory: a copy beside it keeps the path free of wine's drive
	// mapping.
	local := filepath.Join(filepath.Dir(host), filepath.Base(dll))
	data := readFile(dll)
	if err := os.WriteFile(local, data, 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	out, err := w.run(launcher, 3*time.Minute, host, filepath.Base(dll), fmt.Sprint(gameType))
	t.Logf("%s under wine: %v\n%s", filepath.Base(dll), time.Since(start).Round(time.Millisecond), out)
	passed := false
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "FAIL") {
			t.Error(line)
		}
		passed = passed || line == "PASS"
	}
	if err != nil || !passed {
		t.Errorf("host.exe %s: %v, no PASS", filepath.Base(dll), err)
	}
}

// hub drives engine.exe under wine over Hub: a go think in the capture
// position of host.c (russian: white takes two or three men, as it
// likes) and one from the start must each answer a legal done move; then
// a whole game, engine.exe playing both sides.
func (w *wineEnv) hub(t *testing.T, launcher, exe string) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := w.command(ctx, launcher, exe, "hub")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- strings.TrimRight(sc.Text(), "\r")
		}
		close(lines)
	}()
	var once sync.Once
	quit := func() {
		once.Do(func() {
			io.WriteString(in, "quit\n")
			in.Close()
			if err := cmd.Wait(); err != nil {
				t.Errorf("engine.exe: %v\n%s", err, stderr.String())
			}
		})
	}
	defer quit()
	send := func(ls ...string) {
		for _, l := range ls {
			if _, err := io.WriteString(in, l+"\n"); err != nil {
				t.Fatalf("engine.exe: %v\n%s", err, stderr.String())
			}
		}
	}
	expect := func(prefix string) string {
		t.Helper()
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("engine.exe ended waiting for %q\n%s", prefix, stderr.String())
				}
				if strings.HasPrefix(l, "error") {
					t.Errorf("engine.exe: %s", l)
				}
				if strings.HasPrefix(l, prefix) {
					return l
				}
			case <-ctx.Done():
				t.Fatalf("engine.exe: no %q within the time\n%s", prefix, stderr.String())
			}
		}
	}
	start := time.Now()
	send("hub")
	expect("wait")
	send("set-param name=variant value=russian", "set-param name=egdb-pieces value=0", "init")
	expect("ready")
	t.Logf("engine.exe hub, init: %v", time.Since(start).Round(time.Millisecond))
	v := movegen.Russian
	for _, fen := range []string{"W:W21,22,23:B10,11,18", "start"} {
		var p movegen.Position
		if fen == "start" {
			p = v.Start()
		} else if p, err = v.ParseFEN(fen); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		send("pos pos="+fen, "level move-time=0.2", "go think")
		done := expect("done")
		took := time.Since(start)
		text := ""
		for _, f := range strings.Fields(done) {
			if m, ok := strings.CutPrefix(f, "move="); ok {
				text = m
			}
		}
		if text == "" {
			t.Errorf("%s: %q names no move", fen, done)
			continue
		}
		m, err := v.ParseMove(&p, text)
		if err != nil {
			t.Errorf("%s: %q: %v", fen, done, err)
			continue
		}
		t.Logf("%s: %q (%s) after %v", fen, done, v.FormatMove(m), took.Round(time.Millisecond))
	}
	// A whole game, engine.exe playing both sides as a GUI drives it: the
	// game so far with every move, each answer checked and played by Rio's
	// own rules, until the rules end it (or 120 plies).
	g := game.New(v, v.Start())
	start = time.Now()
	for g.Outcome().Result == game.Ongoing && g.Ply() < 120 {
		send(fmt.Sprintf("pos pos=start moves=%q", strings.Join(v.FormatMoves(g.Moves()), " ")), "level move-time=0.05", "go think")
		done := expect("done")
		f := strings.Fields(done)
		mv, ok := "", len(f) > 1
		if ok {
			mv, ok = strings.CutPrefix(f[1], "move=")
		}
		if !ok {
			t.Fatalf("ply %d: %q names no move", g.Ply()+1, done)
		}
		if _, err := g.PlayText(mv); err != nil {
			t.Fatalf("ply %d: %q: %v", g.Ply()+1, done, err)
		}
	}
	t.Logf("a game of %d plies (%v) in %v", g.Ply(), g.Outcome(), time.Since(start).Round(time.Millisecond))

	quit()
}
