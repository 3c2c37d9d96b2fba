package tests

import (
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var perftLine = regexp.MustCompile(`^perft depth=(\d+) nodes=(\d+) time=\d+\.\d{3}$`)

func TestPerftCommand(t *testing.T) {
	cases := []struct {
		args  []string
		nodes string
	}{
		{[]string{"perft", "--depth", "8"}, "907830"},
		{[]string{"perft", "--depth", "8", "--variant", "portuguese"}, "828783"},
		{[]string{"perft", "--depth=8", "--variant=russian", "--threads=2"}, "929899"},
		{[]string{"perft", "-depth", "6", "-fen", "W:W22,28,K32:B11,18,24,27"}, "389"},
		{[]string{"perft", "--depth", "4", "--variant", "russian", "--fen", "B:W14,15,17,21,23,27,28,32:B1,4,5,6,8,12,16,20"}, "189"},
		{[]string{"perft", "--depth", "5", "--fen", "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"}, "7473"},
	}
	for _, c := range cases {
		r := run(t, "", c.args...)
		ls := lines(r.stdout)
		if r.code != 0 || len(ls) != 1 {
			t.Fatalf("%v: exit %d, stdout %q, stderr %q", c.args, r.code, r.stdout, r.stderr)
		}
		m := perftLine.FindStringSubmatch(ls[0])
		if m == nil || m[2] != c.nodes {
			t.Errorf("%v: %q, want nodes=%s", c.args, ls[0], c.nodes)
		}
		if r.stderr != "" {
			t.Errorf("%v: stderr not quiet: %q", c.args, r.stderr)
		}
	}
}

func TestPerftDivide(t *testing.T) {
	for _, threads := range []string{"1", "2"} {
		r := run(t, "", "perft", "--depth", "5", "--divide", "--threads", threads)
		ls := lines(r.stdout)
		if r.code != 0 || len(ls) != 8 {
			t.Fatalf("exit %d, output %q", r.code, r.stdout)
		}
		var sum int
		var moves []string
		for _, l := range ls[:7] {
			move, count, ok := strings.Cut(l, " ")
			n, err := strconv.Atoi(count)
			if !ok || err != nil {
				t.Fatalf("divide line %q", l)
			}
			sum += n
			moves = append(moves, move)
		}
		if !slices.IsSorted(moves) {
			t.Errorf("divide lines not sorted: %v", moves)
		}
		if want := "21-17 22-17 22-18 23-18 23-19 24-19 24-20"; strings.Join(moves, " ") != want {
			t.Errorf("root moves %v", moves)
		}
		if m := perftLine.FindStringSubmatch(ls[7]); m == nil || m[2] != "7473" || sum != 7473 {
			t.Errorf("last line %q, divide sum %d, want 7473", ls[7], sum)
		}
	}
}

func TestMovesCommand(t *testing.T) {
	r := run(t, "", "moves", "--variant", "russian", "--fen", "W:W22,28,K32:B11,18,24,27")
	want := []string{"22x8x11x18", "28x19x24", "32x14x18x27", "32x5x18x27", "32x9x18x27"}
	if r.code != 0 || !slices.Equal(lines(r.stdout), want) || r.stderr != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	r = run(t, "", "moves")
	if r.code != 0 || strings.Join(lines(r.stdout), " ") != "21-17 22-17 22-18 23-18 23-19 24-19 24-20" {
		t.Errorf("start moves: %q", r.stdout)
	}
	r = run(t, "", "moves", "--variant", "portuguese")
	if r.code != 0 || strings.Join(lines(r.stdout), " ") != "10-13 10-14 11-14 11-15 12-15 12-16 9-13" {
		t.Errorf("portuguese start moves: %q", r.stdout)
	}
	// No legal move: nothing on stdout, success.
	r = run(t, "", "moves", "--fen", "W:W:B1")
	if r.code != 0 || r.stdout != "" {
		t.Errorf("no pieces: exit %d, stdout %q", r.code, r.stdout)
	}
}

func TestVersionAndHelp(t *testing.T) {
	r := run(t, "", "version")
	if r.code != 0 || !regexp.MustCompile(`^rio \S+ commit \S+ go\d`).MatchString(r.stdout) {
		t.Errorf("version: exit %d, %q", r.code, r.stdout)
	}
	r = run(t, "", "help")
	for _, cmd := range []string{"perft", "moves", "version", "help"} {
		if !strings.Contains(r.stdout, cmd) {
			t.Errorf("help does not mention %s", cmd)
		}
	}
	for _, args := range [][]string{{"perft", "-h"}, {"help", "perft"}, {"moves", "--help"}} {
		r = run(t, "", args...)
		if r.code != 0 || !strings.Contains(r.stdout, "usage: engine") || !strings.Contains(r.stdout, "-variant") {
			t.Errorf("%v: exit %d, stdout %q", args, r.code, r.stdout)
		}
	}
}

// TestBadUsage: every kind of bad input ends with exit status 2, one line
// on stderr that names the problem, and nothing on stdout.
func TestBadUsage(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"perft"}, "--depth 0 out of range"},
		{[]string{"perft", "--depth", "x"}, "invalid value"},
		{[]string{"perft", "--depth", "65"}, "out of range"},
		{[]string{"perft", "--depth", "3", "--threads", "0"}, "--threads 0"},
		{[]string{"perft", "--depth", "3", "--bogus"}, "bogus"},
		{[]string{"perft", "--depth", "3", "extra"}, "unexpected argument"},
		{[]string{"perft", "--depth", "3", "--variant", "italian"}, "unknown variant \"italian\""},
		{[]string{"perft", "--depth", "3", "--fen", "W:W33:B1"}, "square 33"},
		{[]string{"moves", "--fen", "W:W1-13:B20"}, "13 white pieces"},
		{[]string{"moves", "--fen", "W:W3:B20"}, "promotion row"},
		{[]string{"moves", "--fen", "Wxbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"}, "unknown character"},
		{[]string{"moves", "--log-level", "loud"}, "log-level"},
		{[]string{"frobnicate"}, "unknown command"},
		{[]string{"help", "frobnicate"}, "unknown command"},
	}
	for _, c := range cases {
		r := run(t, "", c.args...)
		ls := lines(r.stderr)
		if r.code != 2 || r.stdout != "" || len(ls) != 1 || !strings.Contains(ls[0], c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want status 2 and one line about %q", c.args, r.code, r.stdout, r.stderr, c.want)
		}
	}
}

func TestLogLevelWritesToStderrOnly(t *testing.T) {
	r := run(t, "", "perft", "--depth", "3", "--log-level", "debug")
	if r.code != 0 || len(lines(r.stdout)) != 1 || !strings.Contains(r.stderr, "perft") {
		t.Errorf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

// TestHubAtATerminal: started by hand at a terminal, the engine says on
// stderr what it is (a GUI, with pipes, sees nothing of it: the Hub
// session tests check stderr stays quiet).
func TestHubAtATerminal(t *testing.T) {
	script, err := exec.LookPath("script")
	if err != nil {
		t.Skip("no script(1) to give the engine a terminal")
	}
	cmd := engineCommand(t) // resolves the engine's path
	c := exec.Command(script, "-qec", cmd.Path, "/dev/null")
	c.Stdin = strings.NewReader("quit\n")
	out, err := c.Output()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if !strings.Contains(string(out), "speaks the Hub protocol on stdin") || !strings.Contains(string(out), "engine gui") {
		t.Errorf("at a terminal: %q", out)
	}
}
