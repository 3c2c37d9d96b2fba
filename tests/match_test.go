package tests

import (
	"bufio"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

var gameLine = regexp.MustCompile(`^game=\d+ white="[^"]*" black="[^"]*" opening="[^"]*" plies=\d+ result=(2-0|0-2|1-1) reason="([^"]*)"$`)

var timeLine = regexp.MustCompile(`^time engine([12]) [^:]*: (\d+) moves?, (\d+\.\d{3}) s a move(, lowest clock (-?\d+\.\d{3}) s)?$`)

// timeUse is what a match says of an engine's use of its time.
type timeUse struct {
	moves        int
	mean, lowest float64
	clocked      bool
}

// checkMatch checks a match's output: every game ended by the rules (no
// fault, no adjudication), each engine's use of its time is reported, and
// the PDN file replays. It returns the two engines' time use.
func checkMatch(t *testing.T, r result, games int, pdn string) [2]timeUse {
	t.Helper()
	ls := lines(r.stdout)
	if r.code != 0 || len(ls) < games+6 {
		t.Fatalf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	for _, l := range ls[:games] {
		m := gameLine.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("game line %q", l)
			continue
		}
		if strings.Contains(m[2], "engine") || strings.Contains(m[2], "adjudicated") {
			t.Errorf("game not ended by the rules: %s", l)
		}
	}
	for _, l := range ls[games+1 : games+3] {
		if !strings.HasSuffix(l, "crashes 0, illegal moves 0, time forfeits 0") {
			t.Errorf("faults: %s", l)
		}
	}
	var use [2]timeUse
	for k, l := range ls[games+3 : games+5] {
		m := timeLine.FindStringSubmatch(l)
		if m == nil || m[1] != strconv.Itoa(k+1) {
			t.Errorf("time line %q", l)
			continue
		}
		u := &use[k]
		u.moves, _ = strconv.Atoi(m[2])
		u.mean, _ = strconv.ParseFloat(m[3], 64)
		u.clocked = m[4] != ""
		u.lowest, _ = strconv.ParseFloat(m[5], 64)
		if u.moves < games {
			t.Errorf("engine%d answered %d moves in %d games: %s", k+1, u.moves, games, l)
		}
	}
	if !strings.HasPrefix(ls[games+5], "score ") || !strings.Contains(ls[games+5], "Elo") {
		t.Errorf("score line %q", ls[games+5])
	}
	p := run(t, "", "pdn", pdn)
	if p.code != 0 || len(lines(p.stdout)) != games {
		t.Errorf("the match's PDN does not replay: exit %d %q", p.code, p.stdout)
	}
	return use
}

func TestMatchOverHub(t *testing.T) {
	pdn := filepath.Join(t.TempDir(), "m.pdn")
	r := run(t, "", "match", "--games", "2", "--movetime", "0.02", "--variant", "portuguese", "--pdn", pdn,
		"--engine1", engine+" hub", "--engine2", engine, "--sprt", "elo0=0 elo1=20")
	// At a move-time there is no clock, and no move takes much longer.
	for k, u := range checkMatch(t, r, 2, pdn) {
		if u.clocked || u.mean > 0.5 {
			t.Errorf("engine%d at 0.02 s a move: %+v", k+1, u)
		}
	}
	if !strings.Contains(r.stdout, "SPRT elo0=0 elo1=20: LLR") {
		t.Errorf("no SPRT state: %q", r.stdout)
	}
}

// TestMatchTimeOdds: --tc2 gives the second engine a clock of its own,
// which it is held to and plays on, and the match line names both.
func TestMatchTimeOdds(t *testing.T) {
	pdn := filepath.Join(t.TempDir(), "o.pdn")
	r := run(t, "", "match", "--games", "2", "--concurrency", "2", "--tc", "2+0.02", "--tc2", "0.6+0.01",
		"--variant", "russian", "--pdn", pdn, "--engine1", engine+" hub", "--engine2", engine+" hub")
	use := checkMatch(t, r, 2, pdn)
	if !strings.Contains(r.stdout, ", 2+0.02 against 0.6+0.01, ") {
		t.Errorf("the match line does not name both clocks: %q", r.stdout)
	}
	// The second engine's clock starts at 0.6 s: after a move it holds at
	// most that plus the increment. The first, with over three times the
	// clock, spends more on a move.
	if !use[1].clocked || use[1].lowest > 0.61 {
		t.Errorf("engine2 not on its own clock: %+v", use[1])
	}
	if !use[0].clocked || use[0].mean <= use[1].mean {
		t.Errorf("engine1 on 2+0.02 spent no more a move than engine2 on 0.6+0.01: %+v against %+v", use[0], use[1])
	}
}

// startListener runs engine dxp --listen on a free port and returns its
// address.
func startListener(t *testing.T, args ...string) string {
	t.Helper()
	cmd := engineCommand(t, append([]string{"dxp", "--listen", "127.0.0.1:0", "--fast-move", "20"}, args...)...)
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(stderr)
	addr := make(chan string, 1)
	go func() {
		for sc.Scan() {
			if a, ok := strings.CutPrefix(sc.Text(), "engine dxp: listening on "); ok {
				addr <- a
			}
		}
	}()
	select {
	case a := <-addr:
		return a
	case <-time.After(10 * time.Second):
		t.Fatal("the DXP listener did not start")
	}
	return ""
}

// TestMatchOverDXP: Rio as a DXP follower against Rio over Hub, through the
// match runner; the listener survives garbage and serves the next peer.
func TestMatchOverDXP(t *testing.T) {
	addr := startListener(t, "--variant", "russian")
	// A hostile peer first: garbage, then gone.
	if c, err := net.Dial("tcp", addr); err == nil {
		c.Write([]byte(strings.Repeat("garbage", 2000)))
		c.Close()
	}
	time.Sleep(100 * time.Millisecond)
	pdn := filepath.Join(t.TempDir(), "d.pdn")
	r := run(t, "", "match", "--games", "2", "--tc", "5+0.05", "--variant", "russian", "--pdn", pdn,
		"--engine1", "dxp:"+addr, "--engine2", engine+" hub")
	// DXP counts game time in minutes: a 5 s game is "0 minutes", played
	// at the follower's own pace, off the clock; the Hub engine is on it.
	use := checkMatch(t, r, 2, pdn)
	if use[0].clocked || !use[1].clocked || use[1].lowest < 0 || use[1].lowest > 5+0.05 {
		t.Errorf("clocks: DXP engine %+v, Hub engine %+v", use[0], use[1])
	}
	// And Rio initiating over DXP against the same listener.
	pdn2 := filepath.Join(t.TempDir(), "i.pdn")
	r = run(t, "", "dxp", "--connect", addr, "--games", "2", "--minutes", "0", "--fast-move", "20", "--variant", "russian", "--pdn", pdn2)
	if ls := lines(r.stdout); r.code != 0 || len(ls) != 3 || !strings.HasPrefix(ls[2], "score Rio") {
		t.Fatalf("dxp --connect: exit %d, %q, %q", r.code, r.stdout, r.stderr)
	}
	if p := run(t, "", "pdn", pdn2); p.code != 0 {
		t.Errorf("dxp PDN: %q", p.stdout)
	}
	os.Remove(pdn2)
}

func TestMatchBadUsage(t *testing.T) {
	for _, args := range [][]string{
		{"match", "--games", "0"},
		{"match", "--tc", "abc"},
		{"match", "--tc", "1+0", "--depth", "3"},
		{"match", "--tc2", "1+0"},
		{"match", "--tc", "1+0", "--tc2", "x"},
		{"match", "--sprt", "elo0=5 elo1=0"},
		{"match", "--openings", "/nonexistent"},
		{"match", "--adjudicate-score", "3"},
		{"dxp"},
		{"dxp", "--listen", ":1", "--connect", ":2"},
		{"dxp", "--listen", ":1", "--egdb-pieces", "7"},
		{"dxp", "--listen", ":1", "--egdb-pieces", "5"}, // needs --egdb-path
	} {
		if r := run(t, "", args...); r.code != 2 || len(lines(r.stderr)) != 1 {
			t.Errorf("%v: exit %d, stderr %q", args, r.code, r.stderr)
		}
	}
	// engine dxp opens its endgame tables before it listens: a directory
	// without them is an error naming it.
	if r := run(t, "", "dxp", "--listen", "127.0.0.1:0", "--egdb-path", "/nonexistent/tables", "--egdb-pieces", "3"); r.code == 0 || !strings.Contains(r.stderr, "/nonexistent/tables") {
		t.Errorf("dxp with a missing --egdb-path: exit %d, stderr %q", r.code, r.stderr)
	}
	// An engine that cannot start is an error, not a hang.
	if r := run(t, "", "match", "--games", "2", "--depth", "2", "--engine1", "/nonexistent/engine"); r.code == 0 {
		t.Errorf("a missing engine: exit 0, %q", r.stdout)
	}
}

// TestDXPReversedRoles: the listener initiates and the connecting side
// follows (the other two combinations are in TestMatchOverDXP).
func TestDXPReversedRoles(t *testing.T) {
	pdn := filepath.Join(t.TempDir(), "r.pdn")
	addr := startListener(t, "--initiator", "--games", "2", "--minutes", "0", "--variant", "portuguese", "--pdn", pdn)
	r := run(t, "", "dxp", "--connect", addr, "--follower", "--fast-move", "20", "--variant", "portuguese")
	ls := lines(r.stdout)
	if r.code != 0 || len(ls) != 2 {
		t.Fatalf("follower: exit %d, %q, %q", r.code, r.stdout, r.stderr)
	}
	for _, l := range ls {
		if !gameLine.MatchString(strings.Replace(l, `opening=""`, `opening="x"`, 1)) {
			t.Errorf("game line %q", l)
		}
	}
	// The initiator wrote its games once the match ended.
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if p := run(t, "", "pdn", pdn); p.code == 0 && len(lines(p.stdout)) == 2 {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Error("the initiating listener's PDN does not hold the two games")
}

// TestMatchSPRTPlayOn: an SPRT that decides at once stops the match, unless
// --sprt-play-on asks for every game; the eval parameters pass through.
func TestMatchSPRTPlayOn(t *testing.T) {
	// The same engine on both sides against an SPRT of bounds ±0.04 (alpha
	// = beta = 0.49): H0 (no gain) is accepted within the first pair of games.
	args := []string{"match", "--games", "6", "--depth", "2", "--variant", "russian",
		"--param", "eval=classic", "--sprt", "elo0=0 elo1=200 alpha=0.49 beta=0.49"}
	count := func(r result) int {
		n := 0
		for _, l := range lines(r.stdout) {
			if gameLine.MatchString(l) {
				n++
			}
		}
		return n
	}
	if r := run(t, "", args...); r.code != 0 || count(r) >= 6 {
		t.Errorf("stopping SPRT: exit %d, %d games: %q", r.code, count(r), r.stdout)
	}
	r := run(t, "", append(args, "--sprt-play-on")...)
	if r.code != 0 || count(r) != 6 || !strings.Contains(r.stdout, "SPRT elo0=0 elo1=200") {
		t.Errorf("--sprt-play-on: exit %d, %d games: %q", r.code, count(r), r.stdout)
	}
}
