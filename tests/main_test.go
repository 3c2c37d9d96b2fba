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
	build := exec.Command("go", "build", "-o", engine, "../cmd/engine")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building the engine:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// result is what one run of the engine produced.
type result struct {
	stdout, stderr string
	code           int
}

// run runs the engine with args and stdin.
func run(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	cmd := exec.Command(engine, args...)
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
