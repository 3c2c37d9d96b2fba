package tests

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var rescoreLine = regexp.MustCompile(`^rescore variant=(\w+) games=(\d+) positions=(\d+) time=\d+\.\d$`)

// rescore runs engine rescore and returns the games and positions its
// summary line reports.
func rescore(t *testing.T, args ...string) (games, positions int) {
	t.Helper()
	m := summary(t, rescoreLine, append([]string{"rescore"}, args...)...)
	games, _ = strconv.Atoi(m[2])
	positions, _ = strconv.Atoi(m[3])
	return games, positions
}

// TestRescore: engine rescore writes the first --games games of its input
// with only the search scores changed (so the input's remaining bytes can
// follow them), the same bytes when killed and resumed or when split into
// shards, and refuses bad settings by name.
func TestRescore(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "sp.bin")
	selfplay(t, "selfplay", "--variant", "russian", "--games", "8", "--nodes", "300", "--threads", "2", "--seed", "4", "--out", data)
	in, _ := os.ReadFile(data)
	inGames := gamesOf(t, in)
	args := func(out string, extra ...string) []string {
		return append([]string{"--variant", "russian", "--data", data, "--out", out, "--nodes", "2000", "--games", "6", "--threads", "2"}, extra...)
	}

	whole := filepath.Join(dir, "whole.bin")
	games, positions := rescore(t, args(whole)...)
	want, _ := os.ReadFile(whole)
	prefix := len(strings.Join(inGames[:6], ""))
	if games != 6 || positions*recordSize != prefix || len(want) != prefix {
		t.Fatalf("rescored %d games, %d positions, %d bytes; the input's first 6 games are %d bytes", games, positions, len(want), prefix)
	}
	changed := 0
	for off := 0; off < len(want); off += recordSize {
		if string(want[off:off+14]) != string(in[off:off+14]) {
			t.Fatalf("record %d: more than its score changed", off/recordSize+1)
		}
		if string(want[off+14:off+16]) != string(in[off+14:off+16]) {
			changed++
		}
	}
	if changed == 0 {
		t.Error("no score changed at 2000 nodes (the input's were searched at 300)")
	}

	// Killed once a few games are checkpointed, a game half written, then
	// resumed: the same bytes.
	cut := filepath.Join(dir, "cut.bin")
	killAtCheckpoint(t, cut, append([]string{"rescore"}, args(cut)...), 2, 3)
	if r := run(t, "", append([]string{"rescore"}, args(cut, "--nodes", "3000", "--resume")...)...); r.code != 2 || !strings.Contains(r.stderr, "another run") {
		t.Errorf("a resume at other nodes: exit %d, %q", r.code, r.stderr)
	}
	rescore(t, args(cut, "--resume")...)
	if got, _ := os.ReadFile(cut); string(got) != string(want) {
		t.Errorf("resumed run: %d bytes, uninterrupted %d", len(got), len(want))
	}
	if games, _ := rescore(t, args(cut, "--resume")...); games != 0 {
		t.Errorf("resuming a finished run rescored %d games", games)
	}

	// Shards of consecutive games, as a cluster runs them: concatenated in
	// shard order, the whole run's bytes (4 shards of 6 games: blocks of
	// 1, 2, 1 and 2).
	var sharded []byte
	for i := 1; i <= 4; i++ {
		out := filepath.Join(dir, "shard-"+strconv.Itoa(i)+".bin")
		games, _ := rescore(t, args(out, "--shard", strconv.Itoa(i)+"/4")...)
		if wantGames := i*6/4 - (i-1)*6/4; games != wantGames {
			t.Errorf("shard %d/4 rescored %d games, want %d", i, games, wantGames)
		}
		b, _ := os.ReadFile(out)
		sharded = append(sharded, b...)
	}
	if string(sharded) != string(want) {
		t.Errorf("the shards concatenated: %d bytes, not the whole run's %d", len(sharded), len(want))
	}

	// Bad settings and input: exit 2, the problem named.
	notRecords := filepath.Join(dir, "odd.bin")
	os.WriteFile(notRecords, in[:recordSize+5], 0o644)
	midGame := filepath.Join(dir, "mid.bin")
	os.WriteFile(midGame, in[len(inGames[0])+recordSize:], 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{args(whole), "exists"},
		{[]string{"--variant", "russian", "--out", filepath.Join(dir, "x.bin")}, "--data"},
		{[]string{"--variant", "russian", "--data", data}, "--out"},
		{[]string{"--variant", "russian", "--data", data, "--out", data}, "differ"},
		{[]string{"--variant", "russian", "--data", filepath.Join(dir, "none.bin"), "--out", filepath.Join(dir, "x.bin")}, "none.bin"},
		{[]string{"--variant", "russian", "--data", notRecords, "--out", filepath.Join(dir, "x.bin")}, "truncated"},
		{[]string{"--variant", "russian", "--data", midGame, "--out", filepath.Join(dir, "x.bin")}, "does not start a game"},
		{[]string{"--variant", "brazilian", "--data", data, "--out", filepath.Join(dir, "x.bin")}, "GameType"},
		{args(filepath.Join(dir, "y.bin"), "--games", "-1"), "--games"},
		{args(filepath.Join(dir, "z.bin"), "--resume"), "no checkpoint"},
		{args(filepath.Join(dir, "s.bin"), "--shard", "5/4"), "--shard"},
		{args(filepath.Join(dir, "s.bin"), "--shard", "two"), "--shard"},
	} {
		r := run(t, "", append([]string{"rescore"}, c.args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("rescore %v: exit %d, stderr %q, want 2 and %q", c.args, r.code, r.stderr, c.want)
		}
	}
}
