package egdb

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riodraughts/rio/internal/movegen"
)

// The portuguese twins: the same internal board written in portuguese
// numbering (portuguese is the mirrored board), with the same values.
func TestPortugueseTwins(t *testing.T) {
	br, pt := built(t, movegen.Brazilian), built(t, movegen.Portuguese)
	for _, fen := range []string{"W:WK29,K30,K31:BK3", "B:WK32,K31,K30:BK22", "B:WK1,K2,K10:BK15"} {
		p, err := movegen.Brazilian.ParsePosition(fen)
		if err != nil {
			t.Fatal(err)
		}
		twin := movegen.Portuguese.FormatFEN(&p, false)
		want, _ := br.Probe(&p)
		if got := probe(t, pt, twin); got != want {
			t.Errorf("portuguese %s (twin of %s): %v, brazilian %v", twin, fen, got, want)
		}
	}
	if got := probe(t, pt, "W:WK1,K2,K3:BK31"); got != (Value{Win, 21}) {
		t.Errorf("portuguese W:WK1,K2,K3:BK31: %v, want win 21", got)
	}
}

// Every value of the 4-piece tables agrees with its successors (the
// verifier on freshly built tables): russian always, all three variants
// with RIO_DEEP_EGDB=1.
func TestBuiltTablesVerify(t *testing.T) {
	for _, v := range movegen.Variants {
		if v != movegen.Russian && os.Getenv("RIO_DEEP_EGDB") == "" {
			continue
		}
		if err := Verify(context.Background(), built(t, v), 2, nil); err != nil {
			t.Errorf("%s: %v", v.Name, err)
		}
	}
}

// Tables built with one thread and with two are the same bytes, and a
// second build over the same directory loads instead of solving.
func TestBuildDeterministicAndResumable(t *testing.T) {
	dirs := []string{t.TempDir(), t.TempDir()}
	for k, threads := range []int{1, 2} {
		if _, err := Build(context.Background(), movegen.Russian, 3, Options{Threads: threads, Store: Dir(dirs[k])}); err != nil {
			t.Fatal(err)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dirs[0], "*.egdb"))
	if len(files) != len(Slices(3)) {
		t.Fatalf("%d files for %d slices", len(files), len(Slices(3)))
	}
	for _, f := range files {
		a, _ := os.ReadFile(f)
		b, err := os.ReadFile(filepath.Join(dirs[1], filepath.Base(f)))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s differs between 1 and 2 threads (%v)", filepath.Base(f), err)
		}
	}
	// Resume: a stored table is loaded, not solved again. A marker in a
	// file's stored values (re-checksummed so it loads) shows which.
	name := filepath.Join(dirs[0], FileName(movegen.Russian, Material{2, 0, 1, 0}))
	tab, err := Dir(dirs[0]).Load(movegen.Russian, Material{2, 0, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	i := firstWith(tab, Win)
	tab.set(i, Value{WDL: Draw})
	if err := Dir(dirs[0]).Save(tab); err != nil {
		t.Fatal(err)
	}
	db, err := Build(context.Background(), movegen.Russian, 3, Options{Threads: 2, Store: Dir(dirs[0])})
	if err != nil {
		t.Fatal(err)
	}
	if got := db.Table(Material{2, 0, 1, 0}).At(i); got.WDL != Draw {
		t.Errorf("%s was rebuilt, not loaded", name)
	}
	// And the verifier catches that flipped value.
	err = Verify(context.Background(), db, 2, nil)
	if err == nil || !strings.Contains(err.Error(), "stored draw") {
		t.Errorf("verifier on a flipped value: %v", err)
	}
}

func firstWith(t *Table, w WDL) int64 {
	for i := range t.Size() {
		if t.At(i).WDL == w {
			return i
		}
	}
	return -1
}

// A truncated, padded or altered file is refused with a reason.
func TestBadFilesRefused(t *testing.T) {
	dir := t.TempDir()
	if _, err := Build(context.Background(), movegen.Brazilian, 3, Options{Threads: 2, Store: Dir(dir)}); err != nil {
		t.Fatal(err)
	}
	m := Material{1, 1, 1, 0}
	name := filepath.Join(dir, FileName(movegen.Brazilian, m))
	good, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	flipped := bytes.Clone(good)
	flipped[headerSize+10] ^= 1
	// Well-formed but not byte-exact: refused even with a right checksum.
	upper := bytes.Clone(good)
	copy(upper[11:], "BRAZILIAN")
	padded := bytes.Clone(good)
	padded[26] = 'x'
	drawWithDistance := bytes.Clone(good)
	tab, _ := ReadTable(good)
	di := headerSize + len(tab.wdl) + int(firstWith(tab, Draw))
	drawWithDistance[di] = 7
	noValue := bytes.Clone(good)
	noValue[headerSize+3] |= 0x30 // a position's two bits both set
	cases := map[string][]byte{
		"code 3":               withCRC(noValue),
		"upper-case variant":   withCRC(upper),
		"bytes after the name": withCRC(padded),
		"a draw at a distance": withCRC(drawWithDistance),
		"truncated":            good[:len(good)-100],
		"padded":               append(bytes.Clone(good), 0),
		"flipped bit":          flipped,
		"empty":                nil,
		"other magic":          append([]byte("XIOEGDB\x00"), good[8:]...),
		"header only":          good[:headerSize],
		"missing the crc":      good[:len(good)-4],
	}
	for what, data := range cases {
		if _, err := ReadTable(data); err == nil {
			t.Errorf("%s: accepted", what)
		}
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Open(dir, movegen.Brazilian, 3); err == nil || !strings.Contains(err.Error(), FileName(movegen.Brazilian, m)) {
			t.Errorf("%s: Open gave %v, want an error naming the file", what, err)
		}
	}
	if _, err := ReadTable(good); err != nil {
		t.Errorf("the good file: %v", err)
	}
}

func FuzzReadTable(f *testing.F) {
	db, err := Build(context.Background(), movegen.Brazilian, 2, Options{Threads: 1})
	if err != nil {
		f.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := db.Table(Material{1, 0, 1, 0}).WriteTo(&buf); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		tab, err := ReadTable(data)
		if err != nil {
			return
		}
		var out bytes.Buffer
		if _, err := tab.WriteTo(&out); err != nil || !bytes.Equal(out.Bytes(), data) {
			t.Fatalf("accepted a file that does not write back the same (%v)", err)
		}
	})
}

// The verifier also judges slices without distances (those above
// DistPieces): here 3-piece tables with their distances dropped.
func TestVerifyWithoutDistances(t *testing.T) {
	db, err := Build(context.Background(), movegen.Brazilian, 3, Options{Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, tab := range db.tables {
		tab.dist = nil
	}
	if err := Verify(context.Background(), db, 2, nil); err != nil {
		t.Fatal(err)
	}
	tab := db.Table(Material{0, 1, 2, 0})
	i := firstWith(tab, Loss)
	if i < 0 {
		t.Fatal("no lost position to alter")
	}
	tab.set(i, Value{WDL: Win})
	if err := Verify(context.Background(), db, 2, nil); err == nil {
		t.Fatal("a loss turned into a win passed")
	}
}

// Built-in tables with a cache: the first run saves them, the next loads
// them, and a damaged cache file is solved again and replaced.
func TestTablesCache(t *testing.T) {
	dir := t.TempDir()
	first := NewTables(3, "")
	first.Cache = dir
	a := first.Wait(movegen.Russian)
	files, _ := filepath.Glob(filepath.Join(dir, "russian-*.egdb"))
	if a == nil || len(files) != len(Slices(3)) {
		t.Fatalf("first run: %d cache files, want %d", len(files), len(Slices(3)))
	}
	m := Material{1, 1, 1, 0}
	name := filepath.Join(dir, FileName(movegen.Russian, m))
	data, _ := os.ReadFile(name)
	data[headerSize] ^= 0xFF
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	second := NewTables(3, "")
	second.Cache = dir
	b := second.Wait(movegen.Russian)
	if b == nil {
		t.Fatal("no tables with a damaged cache")
	}
	ta, tb := a.Table(m), b.Table(m)
	for i := range ta.Size() {
		if ta.At(i) != tb.At(i) {
			t.Fatalf("position %d: %v, then %v", i, ta.At(i), tb.At(i))
		}
	}
	// The damaged file was solved again and written over.
	if _, err := Dir(dir).Load(movegen.Russian, m); err != nil {
		t.Errorf("the damaged cache file is still bad: %v", err)
	}
}

// withCRC returns data with its trailing checksum made right.
func withCRC(data []byte) []byte {
	body := data[:len(data)-4]
	return binary.LittleEndian.AppendUint32(bytes.Clone(body), crc32.ChecksumIEEE(body))
}

// Built-in tables above the first set's size are solved into the cache in
// the background and then replace the smaller set, whose tables they
// agree with; without a cache the first set is all there is.
func TestTablesExtend(t *testing.T) {
	dir := t.TempDir()
	tables := NewTables(3, "")
	tables.Cache, tables.Threads, tables.first = dir, 1, 2
	var mu sync.Mutex
	var reported []int
	tables.Report = func(v *movegen.Variant, db *DB, took time.Duration, err error) {
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			t.Errorf("report: %v", err)
		}
		if db != nil {
			reported = append(reported, db.Pieces)
		}
	}
	small := tables.Wait(movegen.Russian)
	if small == nil || small.Pieces != 2 {
		t.Fatalf("first set: %+v, want 2 pieces", small)
	}
	deadline := time.Now().Add(2 * time.Minute)
	var big *DB
	for big = tables.For(movegen.Russian); big.Pieces != 3; big = tables.For(movegen.Russian) {
		if time.Now().After(deadline) {
			t.Fatal("no 3-piece tables after 2 minutes")
		}
		time.Sleep(10 * time.Millisecond)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "russian-*.egdb"))
	if len(files) != len(Slices(3)) {
		t.Errorf("%d cache files, want %d", len(files), len(Slices(3)))
	}
	m := Material{1, 0, 1, 0}
	ts, tb := small.Table(m), big.Table(m)
	for i := range ts.Size() {
		if ts.At(i) != tb.At(i) {
			t.Fatalf("%v position %d: %v in the first set, %v in the larger", m, i, ts.At(i), tb.At(i))
		}
	}
	mu.Lock()
	if fmt.Sprint(reported) != "[2 3]" {
		t.Errorf("reported sets of %v pieces, want [2 3]", reported)
	}
	mu.Unlock()

	// No cache: the first set stays (a Build of 3 pieces takes
	// milliseconds, so a second wait shows any that ran).
	bare := NewTables(3, "")
	bare.Threads, bare.first = 1, 2
	if db := bare.Wait(movegen.Russian); db == nil || db.Pieces != 2 {
		t.Fatalf("without a cache: %+v, want 2 pieces", db)
	}
	time.Sleep(500 * time.Millisecond)
	if db := bare.For(movegen.Russian); db.Pieces != 2 {
		t.Errorf("without a cache the tables grew to %d pieces", db.Pieces)
	}
	tables.Close()
	bare.Close()
}

// A 5-piece file written before the 5-piece slices kept distances has
// the size of one without them: it is refused by name, with what to do.
func TestLoadFileWithoutDistances(t *testing.T) {
	dir := t.TempDir()
	m := Material{UsKings: 4, ThemKings: 1}
	n := NewIndexer(m).Size()
	name := filepath.Join(dir, FileName(movegen.Brazilian, m))
	if err := os.WriteFile(name, make([]byte, headerSize+(n+3)/4+4), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Dir(dir).Load(movegen.Brazilian, m)
	if err == nil || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), "without distances") {
		t.Fatalf("got %v, want an error naming %s as a table without distances", err, name)
	}
}
