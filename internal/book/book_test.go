package book

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/search"
)

func smallConfig(v *movegen.Variant, out string, positions, threads int) Config {
	return Config{
		Variant: v, Roots: []movegen.Position{v.Start()}, Plies: 6, Positions: positions,
		Limits: search.Limits{Nodes: 1500}, Threads: threads, HashMiB: 1, Out: out, Checkpoint: 8,
	}
}

// A build is the same for any thread count, and a build stopped and
// resumed writes the same book as one run through.
func TestBuildDeterministicAndResumable(t *testing.T) {
	dir := t.TempDir()
	v := movegen.Russian
	one, err := Build(context.Background(), smallConfig(v, filepath.Join(dir, "one.rbk"), 24, 1))
	if err != nil {
		t.Fatal(err)
	}
	two, err := Build(context.Background(), smallConfig(v, filepath.Join(dir, "two.rbk"), 24, 2))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(one.Records(), two.Records()) {
		t.Errorf("1 thread: %d records, 2 threads: %d, not the same", one.Len(), two.Len())
	}
	if one.Positions() != 24 {
		t.Errorf("%d positions, want 24", one.Positions())
	}
	resumed := filepath.Join(dir, "resumed.rbk")
	if _, err := Build(context.Background(), smallConfig(v, resumed, 8, 1)); err != nil {
		t.Fatal(err)
	}
	if _, err := Build(context.Background(), smallConfig(v, resumed, 16, 2)); err != nil {
		t.Fatal(err)
	}
	r, err := Build(context.Background(), smallConfig(v, resumed, 24, 1))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(one.Records(), r.Records()) {
		t.Errorf("stopped at 8 and 16, resumed: %d records, not the %d of one run", r.Len(), one.Len())
	}
	a, _ := os.ReadFile(filepath.Join(dir, "one.rbk"))
	b, _ := os.ReadFile(resumed)
	if !bytes.Equal(a, b) {
		t.Error("the files differ")
	}
	// Stopped off a batch boundary, and with roots of different depths
	// (the start, and a position two plies on that it also reaches).
	var buf [movegen.MaxMoves]movegen.Move
	start := v.Start()
	deep := start.Play(v.Generate(&start, buf[:0])[1])
	deep = deep.Play(v.Generate(&deep, buf[:0])[2])
	roots := func(cfg Config) Config { cfg.Roots = []movegen.Position{start, deep}; return cfg }
	straight, err := Build(context.Background(), roots(smallConfig(v, filepath.Join(dir, "straight.rbk"), 40, 2)))
	if err != nil {
		t.Fatal(err)
	}
	odd := filepath.Join(dir, "odd.rbk")
	for _, n := range []int{5, 13, 40} {
		if _, err := Build(context.Background(), roots(smallConfig(v, odd, n, 1))); err != nil {
			t.Fatal(err)
		}
	}
	c, _ := os.ReadFile(filepath.Join(dir, "straight.rbk"))
	d, _ := os.ReadFile(odd)
	if !bytes.Equal(c, d) {
		t.Errorf("two roots, stopped at 5 and 13: not the book of one run to 40 (%d positions)", straight.Positions())
	}
	if n := straight.Positions(); n < 40 || n >= 40+batch {
		t.Errorf("%d positions for 40: want the batch that reaches 40", n)
	}
	// The start is in the book with every legal move, best first; its
	// best move's position is the next one searched.
	choices := one.Lookup(&start)
	if len(choices) != len(v.Generate(&start, buf[:0])) {
		t.Fatalf("start: %d book moves", len(choices))
	}
	after := start.Play(choices[0].Move)
	if one.Lookup(&after) == nil {
		t.Error("the best move's position is not in the book")
	}
}

// Roots are all searched first: a build of as many positions as roots
// holds exactly them.
func TestBuildCoversRoots(t *testing.T) {
	v := movegen.Brazilian
	start := v.Start()
	var buf [movegen.MaxMoves]movegen.Move
	var roots []movegen.Position
	for _, m := range v.Generate(&start, buf[:0])[:5] {
		roots = append(roots, start.Play(m))
	}
	cfg := smallConfig(v, "", len(roots), 2)
	cfg.Roots = roots
	bk, err := Build(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range roots {
		if bk.Lookup(&r) == nil {
			t.Errorf("root %s not in the book", v.FormatFEN(&r, false))
		}
	}
}

// Choose: the best move at margin 0; with a margin, several moves over
// many games, each within the margin.
func TestChoose(t *testing.T) {
	v := movegen.Brazilian
	start := v.Start()
	var buf [movegen.MaxMoves]movegen.Move
	var recs []Record
	for i, m := range v.Generate(&start, buf[:0]) {
		recs = append(recs, Record{Key: start.Hash, From: m.From(), To: m.To(), Captured: m.Captured(), Score: int16(10 - 4*i)})
	}
	bk := New(v, recs)
	best, ok := bk.Choose(&start, 0, rand.New(rand.NewPCG(1, 2)))
	if !ok || best.Score != 10 {
		t.Fatalf("margin 0: %+v %v", best, ok)
	}
	seen := map[movegen.Move]bool{}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		c, _ := bk.Choose(&start, 8, rng)
		if c.Score < 2 {
			t.Fatalf("margin 8 chose a move scored %d", c.Score)
		}
		seen[c.Move] = true
	}
	if len(seen) != 3 {
		t.Errorf("margin 8: %d different moves, want the 3 within it", len(seen))
	}
	other := start.Play(v.Generate(&start, buf[:0])[0])
	if _, ok := bk.Choose(&other, 0, nil); ok {
		t.Error("a position not in the book gave a move")
	}
}

// The file round-trips, and any damage is refused by name.
func TestFormat(t *testing.T) {
	v := movegen.Russian
	start := v.Start()
	var buf [movegen.MaxMoves]movegen.Move
	var recs []Record
	for i, m := range v.Generate(&start, buf[:0]) {
		recs = append(recs, Record{Key: start.Hash, From: m.From(), To: m.To(), Captured: m.Captured(), Score: int16(i * 7)})
	}
	var file bytes.Buffer
	if err := Encode(&file, v, recs); err != nil {
		t.Fatal(err)
	}
	got, err := Decode(file.Bytes(), v)
	if err != nil || !slices.Equal(got, New(v, recs).Records()) {
		t.Fatalf("round trip: %v", err)
	}
	data := file.Bytes()
	for name, bad := range map[string][]byte{
		"truncated": data[:len(data)-3],
		"flipped":   flip(data, headerSize+5),
		"version":   flip(data, 4),
		"magic":     flip(data, 0),
		"empty":     nil,
	} {
		if _, err := Decode(bad, v); err == nil {
			t.Errorf("%s book accepted", name)
		}
	}
	if _, err := Decode(data, movegen.Brazilian); err == nil {
		t.Error("a russian book read as brazilian")
	}
}

func flip(data []byte, i int) []byte {
	out := slices.Clone(data)
	out[i] ^= 0x40
	return out
}

func FuzzDecode(f *testing.F) {
	v := movegen.Russian
	start := v.Start()
	var buf [movegen.MaxMoves]movegen.Move
	var recs []Record
	for _, m := range v.Generate(&start, buf[:0]) {
		recs = append(recs, Record{Key: start.Hash, From: m.From(), To: m.To(), Captured: m.Captured()})
	}
	var file bytes.Buffer
	Encode(&file, v, recs)
	f.Add(file.Bytes())
	f.Add([]byte("RIOB"))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, err := Decode(data, v)
		if err != nil {
			return
		}
		bk := New(v, recs)
		p := v.Start()
		bk.Lookup(&p) // never panics on any accepted file
	})
}
