package tests

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// recordSize is the size of one training position written by selfplay.
const recordSize = 16

var (
	selfplayLine = regexp.MustCompile(`^selfplay variant=(\w+) games=(\d+) positions=(\d+) white=(\d+) draws=(\d+) black=(\d+) time=\d+\.\d$`)
	epochLine    = regexp.MustCompile(`^epoch=(\d+) loss=\d+\.\d{6} val-loss=\d+\.\d{6} time=\d+\.\d$`)
	tuneLine     = regexp.MustCompile(`^tune variant=(\w+) positions=(\d+) weights=(\d+) loss=(\d+\.\d{6}) val-loss=(\d+\.\d{6}) time=\d+\.\d$`)
	bestmoveLine = regexp.MustCompile(`^bestmove \d+[-x]\d+(x\d+)*( ponder \S+)?$`)
)

// selfplayArgs are the arguments of a small, quick, reproducible run.
func selfplayArgs(out string, extra ...string) []string {
	args := []string{"selfplay", "--variant", "russian", "--games", "6", "--nodes", "300", "--threads", "2", "--seed", "3", "--out", out}
	return append(args, extra...)
}

// selfplay runs engine selfplay and returns the games and positions its
// summary line reports.
func selfplay(t *testing.T, args ...string) (games, positions int) {
	t.Helper()
	m := summary(t, selfplayLine, args...)
	n := make([]int, 7)
	for i := 2; i <= 6; i++ {
		n[i], _ = strconv.Atoi(m[i])
	}
	if m[1] != "russian" {
		t.Errorf("%v: variant %s in %q", args, m[1], m[0])
	}
	if n[4]+n[5]+n[6] != n[2] {
		t.Errorf("%v: results do not add up to the games: %q", args, m[0])
	}
	return n[2], n[3]
}

// summary runs the engine with args, expects exit 0 and a single stdout
// line matching re, and returns re's submatches of it.
func summary(t *testing.T, re *regexp.Regexp, args ...string) []string {
	t.Helper()
	r := run(t, "", args...)
	ls := lines(r.stdout)
	if r.code != 0 || len(ls) != 1 {
		t.Fatalf("%v: exit %d, stdout %q, stderr %q", args, r.code, r.stdout, r.stderr)
	}
	m := re.FindStringSubmatch(ls[0])
	if m == nil {
		t.Fatalf("%v: summary line %q", args, ls[0])
	}
	return m
}

func fileSize(t *testing.T, path string) int {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return int(fi.Size())
}

// gamesOf splits a file of records into its games (byte 12 bit 3 marks the
// first record of a game).
func gamesOf(t *testing.T, data []byte) []string {
	t.Helper()
	if len(data)%recordSize != 0 {
		t.Fatalf("%d bytes: not whole records", len(data))
	}
	var games []string
	start := 0
	for off := recordSize; off <= len(data); off += recordSize {
		if off == len(data) || data[off+12]&8 != 0 {
			games = append(games, string(data[start:off]))
			start = off
		}
	}
	if len(data) > 0 && data[12]&8 == 0 {
		t.Errorf("the first record is not marked first of its game")
	}
	return games
}

func TestSelfplayTunePipeline(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "d.bin")
	games, n := selfplay(t, selfplayArgs(data)...)
	if games != 6 || n == 0 {
		t.Fatalf("games=%d positions=%d", games, n)
	}
	if size := fileSize(t, data); size != n*recordSize {
		t.Fatalf("%d positions, file of %d bytes, want %d", n, size, n*recordSize)
	}
	first, _ := os.ReadFile(data)

	// Again into another file: the same positions (node limits are
	// reproducible, whatever the threads).
	again := filepath.Join(dir, "again.bin")
	if _, n2 := selfplay(t, selfplayArgs(again)...); n2 != n {
		t.Errorf("second run: %d positions, first %d", n2, n)
	}
	if b, _ := os.ReadFile(again); !bytes.Equal(b, first) {
		t.Errorf("the same run into another file wrote other records")
	}
	// The same run onto the file that holds it is refused (it would write
	// every game twice), and leaves the file as it was.
	if r := run(t, "", selfplayArgs(data)...); r.code != 2 || !strings.Contains(r.stderr, "already holds 6 games of this run") || !strings.Contains(r.stderr, "--resume") {
		t.Errorf("the same run again onto its file: exit %d, stderr %q", r.code, r.stderr)
	}
	if r := run(t, "", selfplayArgs(data, "--games", "9")...); r.code != 2 || !strings.Contains(r.stderr, "already holds 6 games of this run") {
		t.Errorf("the same run for more games onto its file: exit %d, stderr %q", r.code, r.stderr)
	}
	// Another seed appends its own games.
	_, n2 := selfplay(t, selfplayArgs(data, "--seed", "4")...)
	if size := fileSize(t, data); size != (n+n2)*recordSize {
		t.Fatalf("after another seed the file has %d bytes, want %d", size, (n+n2)*recordSize)
	}
	both, _ := os.ReadFile(data)
	if !bytes.Equal(both[:len(first)], first) || bytes.Equal(both[len(first):], first) {
		t.Errorf("another seed did not append other records after the first run's")
	}

	weights := filepath.Join(dir, "w.rwt")
	r := run(t, "", "tune", "--variant", "russian", "--data", data, "--out", weights, "--epochs", "3")
	ls := lines(r.stdout)
	if r.code != 0 || len(ls) != 4 {
		t.Fatalf("tune: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	for i, l := range ls[:3] {
		if m := epochLine.FindStringSubmatch(l); m == nil || m[1] != strconv.Itoa(i+1) {
			t.Errorf("epoch line %d: %q", i+1, l)
		}
	}
	m := tuneLine.FindStringSubmatch(ls[3])
	if m == nil {
		t.Fatalf("tune line %q", ls[3])
	}
	positions, _ := strconv.Atoi(m[2])
	nweights, _ := strconv.Atoi(m[3])
	if m[1] != "russian" {
		t.Errorf("tune variant %s", m[1])
	}
	// Positions that cannot train (left to the endgame rules) are skipped.
	if positions < 1 || positions > n+n2 {
		t.Errorf("tune used %d positions of %d", positions, n+n2)
	}
	// A weights file: 16 header bytes (version 2: the weights compressed;
	// the count, bytes 8-11, says how many), a CRC-32.
	head, _ := os.ReadFile(weights)
	if len(head) < 20 || string(head[:4]) != "RIOW" || head[4] != 2 || int(binary.LittleEndian.Uint32(head[8:])) != nweights || nweights != 196884 {
		t.Errorf("weights=%d, file of %d bytes", nweights, len(head))
	}

	r = run(t, "", "analyze", "--variant", "russian", "--eval-file", weights, "--depth", "4")
	ls = lines(r.stdout)
	if r.code != 0 || len(ls) < 2 || !bestmoveLine.MatchString(ls[len(ls)-1]) {
		t.Errorf("analyze with the tuned weights: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	// The weights just made change the search: its lines, times aside,
	// differ from the built-in weights'.
	builtin := run(t, "", "analyze", "--variant", "russian", "--depth", "4")
	timing := regexp.MustCompile(` time=\S+ nps=\S+`)
	if builtin.code != 0 || timing.ReplaceAllString(builtin.stdout, "") == timing.ReplaceAllString(r.stdout, "") {
		t.Errorf("--eval-file changed nothing: exit %d, %q", builtin.code, builtin.stdout)
	}

	for _, ev := range []string{"classic", "learned"} {
		r = run(t, "", "bench", "--depth", "3", "--eval", ev)
		ls = lines(r.stdout)
		if r.code != 0 || len(ls) == 0 || !strings.HasPrefix(ls[len(ls)-1], "bench nodes=") {
			t.Errorf("bench --eval %s: exit %d, stdout %q, stderr %q", ev, r.code, r.stdout, r.stderr)
		}
	}
	// bench takes a weights file for the positions of its variant.
	r = run(t, "", "bench", "--depth", "3", "--eval-file", weights)
	if ls = lines(r.stdout); r.code != 0 || len(ls) == 0 || !strings.HasPrefix(ls[len(ls)-1], "bench nodes=") {
		t.Errorf("bench --eval-file: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}

	// selfplay plays with the weights given; the result is a valid file.
	more := filepath.Join(dir, "more.bin")
	_, n3 := selfplay(t, "selfplay", "--variant", "russian", "--games", "2", "--nodes", "200", "--eval-file", weights, "--out", more)
	if size := fileSize(t, more); size != n3*recordSize {
		t.Errorf("selfplay --eval-file: %d positions, %d bytes", n3, size)
	}
	// A network on top of the weights just made: the same weights, a
	// network after them (header bytes 14-15: its hidden units), and a
	// search that differs from theirs alone.
	withNet := filepath.Join(dir, "net.rwt")
	r = run(t, "", "tune", "--variant", "russian", "--data", data, "--init", weights, "--network", "--epochs", "2", "--out", withNet)
	if ls = lines(r.stdout); r.code != 0 || len(ls) == 0 || !tuneLine.MatchString(ls[len(ls)-1]) {
		t.Fatalf("tune --network: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if head, _ := os.ReadFile(withNet); len(head) < 20 || binary.LittleEndian.Uint16(head[14:]) != 32 || int(binary.LittleEndian.Uint32(head[8:])) != nweights {
		t.Errorf("tune --network wrote %d bytes, header %x", len(head), head[:min(len(head), 16)])
	}
	// The patterns fitted again under that network keep it.
	kept := filepath.Join(dir, "kept.rwt")
	r = run(t, "", "tune", "--variant", "russian", "--data", data, "--init", withNet, "--keep-network", "--epochs", "1", "--out", kept)
	if ls = lines(r.stdout); r.code != 0 || len(ls) == 0 || !tuneLine.MatchString(ls[len(ls)-1]) {
		t.Fatalf("tune --keep-network: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if head, _ := os.ReadFile(kept); len(head) < 20 || binary.LittleEndian.Uint16(head[14:]) != 32 {
		t.Errorf("tune --keep-network wrote %d bytes, header %x", len(head), head[:min(len(head), 16)])
	}
	netRun := run(t, "", "analyze", "--variant", "russian", "--eval-file", withNet, "--depth", "4")
	if netRun.code != 0 || timing.ReplaceAllString(netRun.stdout, "") == timing.ReplaceAllString(analysisWith(t, weights), "") {
		t.Errorf("the network changed nothing: exit %d, %q, stderr %q", netRun.code, netRun.stdout, netRun.stderr)
	}

	// Several data files: repeated names after --data.
	r = run(t, "", "tune", "--variant", "russian", "--data", data, more, "--epochs", "1", "--out", filepath.Join(dir, "w2.rwt"))
	if ls = lines(r.stdout); r.code != 0 || len(ls) != 2 || !tuneLine.MatchString(ls[1]) {
		t.Errorf("tune of two files: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

// analysisWith is the analysis of the start at depth 4 with weights.
func analysisWith(t *testing.T, weights string) string {
	t.Helper()
	r := run(t, "", "analyze", "--variant", "russian", "--eval-file", weights, "--depth", "4")
	if r.code != 0 {
		t.Fatalf("analyze --eval-file %s: exit %d, stderr %q", weights, r.code, r.stderr)
	}
	return r.stdout
}

func TestSelfplayShards(t *testing.T) {
	dir := t.TempDir()
	all := filepath.Join(dir, "all.bin")
	games, n := selfplay(t, selfplayArgs(all)...)
	var shardGames, shardPositions int
	var joined []byte
	for _, s := range []string{"1/2", "2/2"} {
		out := filepath.Join(dir, "shard"+s[:1]+".bin")
		g, p := selfplay(t, selfplayArgs(out, "--shard", s)...)
		if g != 3 {
			t.Errorf("shard %s played %d games of 6, want 3", s, g)
		}
		if size := fileSize(t, out); size != p*recordSize {
			t.Errorf("shard %s: %d positions, %d bytes", s, p, size)
		}
		shardGames += g
		shardPositions += p
		b, _ := os.ReadFile(out)
		joined = append(joined, b...)
	}
	if shardGames != games || shardPositions != n || len(joined) != fileSize(t, all) {
		t.Errorf("shards: %d games, %d positions, %d bytes; unsharded %d games, %d positions, %d bytes",
			shardGames, shardPositions, len(joined), games, n, fileSize(t, all))
	}
	// The shards hold the very games of the unsharded run (in another order).
	whole, _ := os.ReadFile(all)
	a, b := gamesOf(t, whole), gamesOf(t, joined)
	slices.Sort(a)
	slices.Sort(b)
	if !slices.Equal(a, b) {
		t.Errorf("the shards' games (%d) differ from the unsharded run's (%d)", len(b), len(a))
	}
	// The shards joined are a valid data file.
	cat := filepath.Join(dir, "cat.bin")
	if err := os.WriteFile(cat, joined, 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, "", "tune", "--variant", "russian", "--data", cat, "--epochs", "1", "--out", filepath.Join(dir, "w.rwt"))
	if ls := lines(r.stdout); r.code != 0 || len(ls) != 2 || !tuneLine.MatchString(ls[1]) {
		t.Errorf("tune of the joined shards: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	for _, bad := range []string{"0/2", "3/2", "1", "a/b", "1/0"} {
		r := run(t, "", selfplayArgs(filepath.Join(dir, "bad.bin"), "--shard", bad)...)
		if r.code != 2 || !strings.Contains(r.stderr, "--shard") {
			t.Errorf("--shard %s: exit %d, stderr %q", bad, r.code, r.stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.bin")); err == nil {
		t.Errorf("a refused selfplay created its --out file")
	}
}

// smallData makes a little russian data file and weights tuned on it.
func smallData(t *testing.T, dir string) (data, weights string) {
	t.Helper()
	data = filepath.Join(dir, "d.bin")
	selfplay(t, "selfplay", "--variant", "russian", "--games", "2", "--nodes", "200", "--threads", "2", "--out", data)
	weights = filepath.Join(dir, "w.rwt")
	if r := run(t, "", "tune", "--variant", "russian", "--data", data, "--epochs", "1", "--out", weights); r.code != 0 {
		t.Fatalf("tune: exit %d, stderr %q", r.code, r.stderr)
	}
	return data, weights
}

func TestEvalAndTrainBadInput(t *testing.T) {
	dir := t.TempDir()
	data, weights := smallData(t, dir)
	w, err := os.ReadFile(weights)
	if err != nil {
		t.Fatal(err)
	}
	trunc := filepath.Join(dir, "trunc.rwt")
	os.WriteFile(trunc, w[:1000], 0o644)
	missing := filepath.Join(dir, "missing.rwt")

	cases := []struct {
		args []string
		want []string // in stderr
	}{
		{[]string{"analyze", "--variant", "russian", "--eval-file", trunc}, []string{trunc, "truncated"}},
		{[]string{"analyze", "--variant", "brazilian", "--eval-file", weights}, []string{weights, "russian", "brazilian"}},
		{[]string{"analyze", "--eval-file", missing}, []string{missing}},
		{[]string{"analyze", "--eval", "foo"}, []string{`"foo"`}},
		{[]string{"analyze", "--eval", "classic", "--eval-file", "x"}, []string{"eval-file", "x"}},
		{[]string{"bench", "--eval-file", trunc}, []string{trunc, "truncated"}},
		{[]string{"bench", "--eval", "foo"}, []string{`"foo"`}},
		{[]string{"dxp", "--listen", "127.0.0.1:0", "--eval", "foo"}, []string{`"foo"`}},
		{[]string{"dxp", "--listen", "127.0.0.1:0", "--eval-file", trunc}, []string{trunc, "truncated"}},
		{[]string{"selfplay", "--variant", "brazilian", "--games", "1", "--eval-file", weights, "--out", filepath.Join(dir, "x.bin")}, []string{weights, "russian", "brazilian"}},
		{[]string{"selfplay", "--games", "2"}, []string{"--out"}},
		{[]string{"selfplay", "--variant", "russian", "--games", "1", "--random-moves", "0.9", "--out", filepath.Join(dir, "x.bin")}, []string{"--random-moves", "0.9"}},
		{[]string{"selfplay", "--variant", "russian", "--games", "1", "--random-moves", "NaN", "--out", filepath.Join(dir, "x.bin")}, []string{"--random-moves", "NaN"}},
		{[]string{"selfplay", "--variant", "russian", "--games", "1", "--balanced", "-5", "--out", filepath.Join(dir, "x.bin")}, []string{"--balanced", "-5"}},
		{[]string{"tune", "--variant", "russian", "--data", data}, []string{"--out"}},
		{[]string{"tune", "--variant", "russian", "--out", filepath.Join(dir, "x.rwt")}, []string{"--data"}},
		{[]string{"tune", "--variant", "russian", "--data", data, "--out", filepath.Join(dir, "x.rwt"), "--init", trunc}, []string{trunc, "truncated"}},
		{[]string{"tune", "--variant", "russian", "--data", data, "-", "--out", filepath.Join(dir, "x.rwt")}, []string{`"-"`}},
		{[]string{"tune", "--variant", "russian", "--data", data, "--lambda", "NaN", "--out", filepath.Join(dir, "x.rwt")}, []string{"--lambda", "finite"}},
		{[]string{"tune", "--variant", "russian", "--data", data, "--lr", "Inf", "--out", filepath.Join(dir, "x.rwt")}, []string{"--lr", "finite"}},
		{[]string{"tune", "--variant", "russian", "--data", data, "--network", "--out", filepath.Join(dir, "x.rwt")}, []string{"--network needs --init"}},
		{[]string{"tune", "--variant", "russian", "--data", data, "--network", "--init", weights, "--layout", "3", "--out", filepath.Join(dir, "x.rwt")}, []string{"--network", "--layout"}},
		{[]string{"tune", "--variant", "russian", "--data", data, "--keep-network", "--out", filepath.Join(dir, "x.rwt")}, []string{"--keep-network needs --init"}},
		{[]string{"tune", "--variant", "russian", "--data", data, "--keep-network", "--init", weights, "--out", filepath.Join(dir, "x.rwt")}, []string{"network"}},
		{[]string{"tune", "--variant", "russian", "--data", data, "--keep-network", "--network", "--init", weights, "--out", filepath.Join(dir, "x.rwt")}, []string{"--network", "--keep-network"}},
		{[]string{"match", "--games", "2", "--sprt-play-on"}, []string{"--sprt-play-on needs --sprt"}},
	}
	for _, c := range cases {
		r := run(t, "", c.args...)
		if r.code != 2 || r.stdout != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and no output", c.args, r.code, r.stdout, r.stderr)
			continue
		}
		for _, s := range c.want {
			if !strings.Contains(r.stderr, s) {
				t.Errorf("%v: stderr %q does not say %q", c.args, r.stderr, s)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.bin")); err == nil {
		t.Errorf("selfplay refused its weights but created --out")
	}

	// Data: a partial record at the end, data of another variant.
	d, _ := os.ReadFile(data)
	partial := filepath.Join(dir, "partial.bin")
	os.WriteFile(partial, d[:len(d)-5], 0o644)
	out := filepath.Join(dir, "x.rwt")
	r := run(t, "", "tune", "--variant", "russian", "--data", partial, "--out", out)
	if r.code != 2 || !strings.Contains(r.stderr, partial) || !strings.Contains(r.stderr, "truncated") {
		t.Errorf("tune of a truncated file: exit %d, stderr %q", r.code, r.stderr)
	}
	r = run(t, "", "tune", "--variant", "brazilian", "--data", data, "--out", out)
	if r.code != 2 || !strings.Contains(r.stderr, data) || !strings.Contains(r.stderr, "brazilian") {
		t.Errorf("tune of russian data for brazilian: exit %d, stderr %q", r.code, r.stderr)
	}
	// A good file then a bad one: refused all the same.
	r = run(t, "", "tune", "--variant", "russian", "--data", data, partial, "--out", out)
	if r.code != 2 || !strings.Contains(r.stderr, partial) {
		t.Errorf("tune of a good and a truncated file: exit %d, stderr %q", r.code, r.stderr)
	}
	r = run(t, "", "tune", "--variant", "russian", "--data", filepath.Join(dir, "none.bin"), "--out", out)
	if r.code != 2 || !strings.Contains(r.stderr, "none.bin") {
		t.Errorf("tune of a missing file: exit %d, stderr %q", r.code, r.stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a refused tune wrote its --out file")
	}
}

// TestTuneOneGame: a file of one game trains, whatever the seed, and the
// tune line's positions are the positions used, each once.
func TestTuneOneGame(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "d.bin")
	_, n := selfplay(t, "selfplay", "--variant", "russian", "--games", "1", "--nodes", "200", "--out", data)
	// Seed 8's first draw holds the game out (10% of seeds do).
	for _, seed := range []string{"1", "8"} {
		r := run(t, "", "tune", "--variant", "russian", "--data", data, "--epochs", "1", "--seed", seed, "--out", filepath.Join(dir, "w.rwt"))
		ls := lines(r.stdout)
		if r.code != 0 || len(ls) == 0 {
			t.Errorf("tune --seed %s: exit %d, stderr %q", seed, r.code, r.stderr)
			continue
		}
		m := tuneLine.FindStringSubmatch(ls[len(ls)-1])
		if m == nil {
			t.Fatalf("tune line %q", ls[len(ls)-1])
		}
		if p, _ := strconv.Atoi(m[2]); p < 1 || p > n {
			t.Errorf("tune --seed %s reports %d positions of a file of %d", seed, p, n)
		}
	}
}

// TestTuneWithoutValidation: --validation 0 judges the epochs by the loss
// over the training set, keeps the best one and counts each position once.
func TestTuneWithoutValidation(t *testing.T) {
	dir := t.TempDir()
	data, _ := smallData(t, dir)
	r := run(t, "", "tune", "--variant", "russian", "--data", data, "--epochs", "6", "--validation", "0", "--out", filepath.Join(dir, "w0.rwt"))
	ls := lines(r.stdout)
	if r.code != 0 || len(ls) < 2 || len(ls) > 7 {
		t.Fatalf("tune --epochs 6 --validation 0: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	best := ""
	bestVal := 1e9
	for _, l := range ls[:len(ls)-1] {
		m := regexp.MustCompile(`val-loss=(\d+\.\d{6})`).FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("epoch line %q", l)
		}
		if x, _ := strconv.ParseFloat(m[1], 64); x < bestVal {
			bestVal, best = x, m[1]
		}
	}
	final := regexp.MustCompile(`val-loss=(\d+\.\d{6})`).FindStringSubmatch(ls[len(ls)-1])
	if final == nil || final[1] != best {
		t.Errorf("the kept epoch is not the best one: %q", r.stdout)
	}
}

// TestSelfplayResume: a run killed mid-way (and left with a game half
// written) and resumed writes the same bytes as one uninterrupted run; a
// checkpoint of other settings is refused.
func TestSelfplayResume(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.bin")
	args := func(out string, extra ...string) []string {
		return append([]string{"selfplay", "--variant", "russian", "--games", "12", "--nodes", "400", "--threads", "2", "--seed", "9", "--out", out}, extra...)
	}
	selfplay(t, args(whole)...)
	want, _ := os.ReadFile(whole)

	cut := filepath.Join(dir, "cut.bin")
	// Any checkpoint strictly inside the run: games of 400 nodes take a
	// few milliseconds each, and the poll can miss any one of them.
	killAtCheckpoint(t, cut, args(cut), 2, 3, 4, 5, 6, 7, 8, 9, 10)

	if r := run(t, "", args(cut, "--seed", "10", "--resume")...); r.code != 2 || !strings.Contains(r.stderr, "another run") {
		t.Errorf("a resume with another seed: exit %d, %q", r.code, r.stderr)
	}
	if r := run(t, "", args(cut, "--random-moves", "0.05", "--resume")...); r.code != 2 || !strings.Contains(r.stderr, "another run") {
		t.Errorf("a resume with random moves added: exit %d, %q", r.code, r.stderr)
	}
	if r := run(t, "", args(cut, "--balanced", "30", "--resume")...); r.code != 2 || !strings.Contains(r.stderr, "another run") {
		t.Errorf("a resume with balanced starts added: exit %d, %q", r.code, r.stderr)
	}
	selfplay(t, args(cut, "--resume")...)
	got, _ := os.ReadFile(cut)
	if string(got) != string(want) {
		t.Errorf("resumed run: %d bytes, uninterrupted %d; games %d and %d", len(got), len(want), len(gamesOf(t, got)), len(gamesOf(t, want)))
	}
	// Resuming a finished run plays nothing.
	if games, _ := selfplay(t, args(cut, "--resume")...); games != 0 {
		t.Errorf("resuming a finished run played %d games", games)
	}
	if r := run(t, "", args(filepath.Join(dir, "none.bin"), "--resume")...); r.code != 2 || !strings.Contains(r.stderr, "no checkpoint") {
		t.Errorf("resume without a checkpoint: exit %d, %q", r.code, r.stderr)
	}
}

// killAtCheckpoint runs the engine with args, kills it once out.progress
// says one of the game counts at (checked every 2 ms), and appends a
// partial game's bytes to out, as if one were half written when it died.
func killAtCheckpoint(t *testing.T, out string, args []string, at ...int) {
	t.Helper()
	cmd := engineCommand(t, args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for reached := false; !reached; {
		text, _ := os.ReadFile(out + ".progress")
		for _, n := range at {
			reached = reached || strings.Contains(string(text), fmt.Sprintf("\nnext %d\n", n))
		}
		if !reached && time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("no checkpoint at %v games: %q", at, text)
		}
		time.Sleep(2 * time.Millisecond)
	}
	cmd.Process.Kill()
	cmd.Wait()
	f, err := os.OpenFile(out, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(make([]byte, 3*recordSize+5)); err != nil {
		t.Fatal(err)
	}
}
