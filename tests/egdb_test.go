package tests

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// engine egdb build and verify, and analyze using the tables: a build
// writes one file per slice, a second build loads them, verify accepts
// them and refuses a damaged one by name; analyze reports the root's table
// value and plays the fastest win.
func TestEgdbCommands(t *testing.T) {
	dir := t.TempDir()
	r := run(t, "", "egdb", "build", "--variant", "russian", "--pieces", "3", "--dir", dir)
	if r.code != 0 || !strings.HasPrefix(r.stdout, "egdb build variant=russian pieces=3 tables=") {
		t.Fatalf("build: exit %d, %q %q", r.code, r.stdout, r.stderr)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "russian-*.egdb"))
	if len(files) == 0 {
		t.Fatal("no table files")
	}
	if r := run(t, "", "egdb", "verify", "--variant", "russian", "--pieces", "3", "--dir", dir); r.code != 0 || !strings.Contains(r.stdout, " ok ") {
		t.Fatalf("verify: exit %d, %q %q", r.code, r.stdout, r.stderr)
	}
	data, _ := os.ReadFile(files[0])
	if err := os.WriteFile(files[0], data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	r = run(t, "", "egdb", "verify", "--variant", "russian", "--pieces", "3", "--dir", dir)
	if r.code == 0 || !strings.Contains(r.stderr, filepath.Base(files[0])) {
		t.Errorf("verify of a truncated file: exit %d, stderr %q", r.code, r.stderr)
	}
	if r := run(t, "", "egdb", "build", "--pieces", "9", "--dir", dir); r.code != 2 {
		t.Errorf("--pieces 9: exit %d, %q", r.code, r.stderr)
	}

	r = run(t, "", "analyze", "--fen", "W:WK29,K30,K31:BK3", "--depth", "4")
	ls := lines(r.stdout)
	if r.code != 0 || len(ls) < 2 || ls[len(ls)-2] != "egdb win 21" || !strings.Contains(r.stdout, "score=88.79") {
		t.Errorf("analyze with tables: exit %d, %q %q", r.code, r.stdout, r.stderr)
	}
}

// Hub declares the table parameters, accepts them, and reports a path it
// cannot use as an error while going on with the built-in tables.
func TestHubEgdbParams(t *testing.T) {
	in := "hub\nset-param name=egdb-path value=/nonexistent/rio\nping\n"
	r := run(t, in, "hub")
	if !strings.Contains(r.stdout, "param name=egdb-pieces value=4 type=int min=0 max=6") ||
		!strings.Contains(r.stdout, "param name=egdb-path") {
		t.Errorf("params not declared: %q", r.stdout)
	}
	if !strings.Contains(r.stdout, "pong") || !strings.Contains(r.stdout, "error message=") || !strings.Contains(r.stdout, "/nonexistent/rio") {
		t.Errorf("bad egdb-path: %q", r.stdout)
	}
}
