package movegen

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// deepPerft enables the perft rows above depth 10 (to depth 13: minutes).
var deepPerft = os.Getenv("RIO_DEEP_PERFT") != ""

type perftRow struct {
	variant  *Variant
	position string
	depth    int
	nodes    uint64
}

// testdataDir is the repository's testdata folder.
func testdataDir() string { return filepath.Join("..", "..", "testdata") }

func readTSV(t testing.TB, name string) [][]string {
	t.Helper()
	f, err := os.Open(filepath.Join(testdataDir(), name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		rows = append(rows, strings.Split(line, "\t"))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

func perftRows(t testing.TB) []perftRow {
	var out []perftRow
	for _, r := range readTSV(t, "perft.tsv") {
		v := VariantByName(r[0])
		if v == nil {
			t.Fatalf("unknown variant %q", r[0])
		}
		d, err1 := strconv.Atoi(r[2])
		n, err2 := strconv.ParseUint(r[3], 10, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("bad row %v", r)
		}
		out = append(out, perftRow{v, r[1], d, n})
	}
	return out
}

// TestPerftTable checks every published and cross-checked count in
// testdata/perft.tsv up to depth 10, and deeper with RIO_DEEP_PERFT=1.
func TestPerftTable(t *testing.T) {
	for _, r := range perftRows(t) {
		if r.depth > 10 && !deepPerft || testing.Short() && r.nodes > 5_000_000 {
			continue
		}
		t.Run(r.variant.Name+"/"+r.position+"/"+strconv.Itoa(r.depth), func(t *testing.T) {
			p, err := r.variant.ParsePosition(r.position)
			if err != nil {
				t.Fatal(err)
			}
			if got := r.variant.Perft(&p, r.depth); got != r.nodes {
				t.Errorf("perft(%d) = %d, want %d", r.depth, got, r.nodes)
			}
		})
	}
}
