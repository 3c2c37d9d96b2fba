package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// dllBuild is build.sh's one run of a test run, shared by the tests of
// the Windows DLLs: it builds six libraries, minutes on a cold cache.
var dllBuild struct {
	once sync.Once
	dir  string
	out  string
	err  error
}

// buildDLLs runs build.sh into a directory under built.dir the first time
// and returns that directory; a failed build fails every caller.
func buildDLLs(t *testing.T) string {
	t.Helper()
	dllBuild.once.Do(func() {
		dllBuild.dir = filepath.Join(built.dir, "cb")
		out, err := exec.Command("bash", "build.sh", dllBuild.dir).CombinedOutput()
		dllBuild.out, dllBuild.err = string(out), err
	})
	if dllBuild.err != nil {
		t.Fatalf("build.sh: %v\n%s", dllBuild.err, dllBuild.out)
	}
	return dllBuild.dir
}

// build.sh builds the Windows DLLs with the mingw-w64 cross compilers and
// checks their exports (getmove, enginecommand, islegal, undecorated). The
// test skips, saying why, where the compilers are not installed.
func TestWindowsDLLs(t *testing.T) {
	for _, cc := range []string{"x86_64-w64-mingw32-gcc", "i686-w64-mingw32-gcc"} {
		if _, err := exec.LookPath(cc); err != nil {
			t.Skipf("no %s: the Windows DLLs are not built (Debian: apt-get install gcc-mingw-w64)", cc)
		}
	}
	if testing.Short() {
		t.Skip("-short: the Windows DLLs are not built")
	}
	dir := buildDLLs(t)
	out := dllBuild.out
	for _, name := range []string{"rio-cb64.dll", "rio-cb32.dll", "rio-cb64-brazilian.dll", "rio-cb32-brazilian.dll", "librio-cb.so", "rio-cb.htm"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("build.sh made no %s", name)
		}
		if strings.HasSuffix(name, ".dll") && !strings.Contains(out, name+": exports getmove enginecommand islegal") {
			t.Errorf("%s: exports not checked:\n%s", name, out)
		}
	}
	// The 32-bit exports are __stdcall: the callee pops its arguments.
	dump, err := exec.Command("i686-w64-mingw32-objdump", "-d", "--no-show-raw-insn", filepath.Join(dir, "rio-cb32.dll")).Output()
	if err != nil {
		t.Skipf("i686-w64-mingw32-objdump: %v", err)
	}
	for sym, pop := range map[string]string{"_getmove@36": "ret    $0x24", "_enginecommand@8": "ret    $0x8", "_islegal@20": "ret    $0x14"} {
		_, body, ok := strings.Cut(string(dump), "<"+sym+">:")
		if !ok {
			t.Errorf("rio-cb32.dll: no %s", sym)
			continue
		}
		if i := strings.Index(body, "ret"); i < 0 || !strings.HasPrefix(body[i:], pop) {
			t.Errorf("rio-cb32.dll: %s does not end with %s", sym, pop)
		}
	}
}
