package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestProgressRoundTrip(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run.bin")
	if _, ok, err := readProgress(out); ok || err != nil {
		t.Fatalf("no checkpoint: ok %v, %v", ok, err)
	}
	want := runProgress{Run: `variant=russian games=12 openings=""`, Next: 7, Bytes: 4096}
	if err := want.write(out); err != nil {
		t.Fatal(err)
	}
	got, ok, err := readProgress(out)
	if !ok || err != nil || got != want {
		t.Fatalf("read back %+v, %v %v", got, ok, err)
	}
	for _, bad := range []string{
		"", "junk", progressMagic + "\nrun x\nnext -1\nbytes 0\n", progressMagic + "\nrun x\nnext 1\nbytes x\n",
		progressMagic + "\nrun x\nnext 1\n", "rio-selfplay-progress 2\nrun x\nnext 1\nbytes 0\n",
	} {
		os.WriteFile(progressPath(out), []byte(bad), 0o644)
		if _, ok, err := readProgress(out); ok || err == nil || !strings.Contains(err.Error(), progressPath(out)) {
			t.Errorf("%q: ok %v, %v (want an error naming the file)", bad, ok, err)
		}
	}
}

// FuzzReadProgress: any checkpoint text is read or refused, never a
// panic, and what is read writes back to the same values.
func FuzzReadProgress(f *testing.F) {
	f.Add(progressMagic + "\nrun variant=russian\nnext 3\nbytes 48\n")
	f.Add(progressMagic + "\nrun \nnext 0\nbytes 0\n")
	f.Add("garbage")
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, text string) {
		out := filepath.Join(dir, "f.bin")
		os.WriteFile(progressPath(out), []byte(text), 0o644)
		p, ok, err := readProgress(out)
		if !ok || err != nil {
			return
		}
		if strings.Contains(p.Run, "\n") {
			t.Fatalf("run with a newline: %q", p.Run)
		}
		if err := p.write(out); err != nil {
			t.Fatal(err)
		}
		q, ok, err := readProgress(out)
		if !ok || err != nil || q != p {
			t.Fatalf("%+v read back as %+v (%v)", p, q, err)
		}
	})
}
