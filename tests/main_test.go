// Package tests runs the built engine binary end to end, as GUIs, scripts
// and users do.
package tests

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// engine is the path of the binary built once for all tests.
var engine string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "rio-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	engine = filepath.Join(dir, "engine")
	// The engines keep their built-in endgame tables here, not in the
	// user's cache.
	os.Setenv("RIO_EGDB_CACHE", filepath.Join(dir, "egdb-cache"))
	// ... and only up to 4 pieces: the 5-piece set takes half a minute of
	// a core to solve, which dozens of short-lived engines would each
	// start (internal/egdb's TestTablesExtend tests the extension).
	os.Setenv("RIO_EGDB_PIECES", "4")
	build := exec.Command("go", "build", "-o", engine, "../cmd/engine")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building the engine:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	if wasmDir != "" {
		os.RemoveAll(wasmDir) // wasm_test.go's build
	}
	os.Exit(code)
}

// engineCommand returns the command that runs the built engine with args.
// The first call opens every Go source and module file of the module: the
// engine is built by a separate "go build", which go test's result cache
// does not see, so without this a change to the engine (which this test
// binary does not link) would replay a cached pass. Files opened while the
// tests run (not in TestMain) are part of the cache key.
func engineCommand(t testing.TB, args ...string) *exec.Cmd {
	sourcesOnce.Do(func() { sourcesErr = openSources("..") })
	if sourcesErr != nil {
		t.Fatalf("reading the sources: %v", sourcesErr)
	}
	return exec.Command(engine, args...)
}

var (
	sourcesOnce sync.Once
	sourcesErr  error
)

// openSources opens every Go source and module file under root.
func openSources(root string) error {
	return filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if name := d.Name(); strings.HasSuffix(name, ".go") || name == "go.mod" || name == "go.sum" || embedded(path) {
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			f.Close()
		}
		return nil
	})
}

// result is what one run of the engine produced.
type result struct {
	stdout, stderr string
	code           int
}

// run runs the engine with args and stdin.
func run(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	cmd := engineCommand(t, args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{out.String(), errb.String(), code}
}

// lines splits output into lines without the final empty one.
func lines(s string) []string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// embedded reports a file the binary embeds that is not Go: the board's
// page and the evaluation weights.
func embedded(path string) bool {
	slash := filepath.ToSlash(path)
	return strings.Contains(slash, "internal/gui/static/") || strings.Contains(slash, "internal/eval/weights/") ||
		strings.Contains(slash, "cmd/wasm/") || strings.Contains(slash, "tests/wasm/")
}
