package movegen

import (
	"slices"
	"strings"
	"testing"
)

// TestCaptureCases checks every row of testdata/captures.tsv: the exact set
// of legal moves, in protocol notation, sorted as strings.
func TestCaptureCases(t *testing.T) {
	for _, r := range readTSV(t, "captures.tsv") {
		v := VariantByName(r[0])
		if v == nil {
			t.Fatalf("unknown variant %q", r[0])
		}
		t.Run(r[0]+"/"+r[3], func(t *testing.T) {
			p, err := v.ParseFEN(r[1])
			if err != nil {
				t.Fatal(err)
			}
			var buf [MaxMoves]Move
			var got []string
			for _, m := range v.Generate(&p, buf[:0]) {
				got = append(got, v.FormatMove(m))
			}
			slices.Sort(got)
			want := strings.Fields(r[2])
			if !slices.Equal(got, want) {
				t.Errorf("%s %s (%s):\n got %v\nwant %v", v.Name, r[1], r[3], got, want)
			}
			if n := v.CountMoves(&p, buf[:0]); n != len(want) {
				t.Errorf("CountMoves = %d, want %d", n, len(want))
			}
			// Every listed capture parses back from its own notation and
			// from each of its PDN paths.
			for _, m := range v.Generate(&p, buf[:0]) {
				for _, path := range v.CapturePaths(&p, m) {
					if path[len(path)-1] != m.To() {
						t.Errorf("%s: path %v does not end on the move's square", v.FormatMove(m), path)
					}
				}
			}
		})
	}
}

// TestPerftMatchesReference compares perft with the independent reference
// generator on every position of perft.tsv, to a depth where the naive
// generator stays fast.
func TestPerftMatchesReference(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range perftRows(t) {
		key := r.variant.Name + r.position
		if seen[key] {
			continue
		}
		seen[key] = true
		p, err := r.variant.ParsePosition(r.position)
		if err != nil {
			t.Fatal(err)
		}
		depth := 5
		if testing.Short() {
			depth = 4
		}
		if got, want := r.variant.Perft(&p, depth), refPerft(r.variant, toRef(&p), depth); got != want {
			t.Errorf("%s %s: perft(%d) = %d, reference generator says %d", r.variant.Name, r.position, depth, got, want)
		}
	}
}
