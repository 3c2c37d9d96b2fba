package tests

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// engine book build grows a book and resumes it; the same book comes
// out of one run and of a run stopped and resumed with another thread
// count; other settings on resume are refused; engine book probe lists a
// position's moves, best first; a damaged file is refused by name.
func TestBookBuild(t *testing.T) {
	dir := t.TempDir()
	one := filepath.Join(dir, "one.rbk")
	args := func(out, positions, threads string) []string {
		return []string{"book", "build", "--variant", "brazilian", "--out", out, "--positions", positions, "--nodes", "2000", "--plies", "6", "--ballots=false", "--threads", threads}
	}
	r := run(t, "", args(one, "24", "1")...)
	if r.code != 0 || !strings.Contains(r.stdout, "book build variant=brazilian positions=24 ") {
		t.Fatalf("build: %d %q %q", r.code, r.stdout, r.stderr)
	}
	two := filepath.Join(dir, "two.rbk")
	if r := run(t, "", args(two, "8", "2")...); r.code != 0 {
		t.Fatalf("build 8: %q", r.stderr)
	}
	if r := run(t, "", args(two, "24", "2")...); r.code != 0 {
		t.Fatalf("resume to 24: %q", r.stderr)
	}
	a, _ := os.ReadFile(one)
	b, _ := os.ReadFile(two)
	if string(a) != string(b) {
		t.Error("a build stopped at 8 and resumed differs from one run")
	}
	bad := args(two, "30", "1")
	bad[9] = "3000" // --nodes
	if r := run(t, "", bad...); r.code == 0 || !strings.Contains(r.stderr, "other settings") {
		t.Errorf("resume with other nodes: %d %q", r.code, r.stderr)
	}
	r = run(t, "", "book", "probe", one, "--variant", "brazilian")
	probe := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if r.code != 0 || len(probe) != 8 || !strings.HasPrefix(probe[0], "move ") || probe[7] != "book probe moves=7" {
		t.Errorf("probe: %d %q %q", r.code, r.stdout, r.stderr)
	}
	// analyze --level plays from the book as a bot does; analysis alone
	// never does.
	r = run(t, "", "analyze", "--variant", "brazilian", "--level", "4", "--book", one, "--book-margin", "0")
	if out := lines(r.stdout); r.code != 0 || len(out) != 2 || !strings.HasPrefix(out[0], "book ") || !strings.HasPrefix(out[1], "bestmove ") ||
		strings.Fields(out[0])[1] != strings.Fields(strings.TrimPrefix(probe[0], "move "))[0] {
		t.Errorf("analyze --level --book: %d %q %q (probe's best: %q)", r.code, r.stdout, r.stderr, probe[0])
	}
	if r := run(t, "", "analyze", "--variant", "brazilian", "--book", one); r.code == 0 {
		t.Errorf("analyze --book without --level: %q", r.stdout)
	}
	// The built-in book: probe lists the start's moves, and by default a
	// level plays from it; --book none searches.
	r = run(t, "", "book", "probe", "builtin", "--variant", "russian")
	if probe := lines(r.stdout); r.code != 0 || len(probe) != 8 || probe[7] != "book probe moves=7" {
		t.Errorf("probe builtin: %d %q %q", r.code, r.stdout, r.stderr)
	}
	r = run(t, "", "analyze", "--variant", "brazilian", "--level", "4")
	if out := lines(r.stdout); r.code != 0 || len(out) != 2 || !strings.HasPrefix(out[0], "book ") {
		t.Errorf("analyze --level (built-in book): %d %q %q", r.code, r.stdout, r.stderr)
	}
	r = run(t, "", "analyze", "--variant", "brazilian", "--level", "4", "--book", "none", "--depth", "3")
	if r.code != 0 || strings.Contains(r.stdout, "book ") || !strings.Contains(r.stdout, "bestmove ") {
		t.Errorf("analyze --level --book none: %d %q %q", r.code, r.stdout, r.stderr)
	}
	os.WriteFile(one, a[:len(a)-1], 0o644)
	if r := run(t, "", "book", "probe", one, "--variant", "brazilian"); r.code == 0 || !strings.Contains(r.stderr, "damaged") {
		t.Errorf("damaged book: %d %q", r.code, r.stderr)
	}
}
