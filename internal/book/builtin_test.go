package book_test

import (
	"testing"

	"github.com/riodraughts/rio/internal/book"
	"github.com/riodraughts/rio/internal/match"
	"github.com/riodraughts/rio/internal/movegen"
)

// Each variant's built-in book loads, holds the start position and (for
// russian and brazilian) every three-move ballot, and over the whole book
// every position is reached from those roots by book moves, every record
// is a legal move of its position and every legal move of a book
// position is scored.
func TestBuiltin(t *testing.T) {
	for _, v := range movegen.Variants {
		t.Run(v.Name, func(t *testing.T) {
			bk := book.Builtin(v)
			if bk.Variant != v {
				t.Fatalf("the built-in book of %s is %s's", v.Name, bk.Variant.Name)
			}
			roots := []movegen.Position{v.Start()}
			for _, o := range match.Ballots(v) {
				roots = append(roots, o.Position)
			}
			counts := map[uint64]int{}
			for _, r := range bk.Records() {
				counts[r.Key]++
			}
			seen := map[uint64]bool{}
			var buf [movegen.MaxMoves]movegen.Move
			queue := []movegen.Position{}
			for _, r := range roots {
				if counts[r.Hash] == 0 {
					t.Errorf("root %s not in the book", v.FormatFEN(&r, false))
					continue
				}
				queue = append(queue, r)
			}
			for len(queue) > 0 {
				p := queue[0]
				queue = queue[1:]
				if seen[p.Hash] {
					continue
				}
				seen[p.Hash] = true
				legal := v.Generate(&p, buf[:0])
				choices := bk.Lookup(&p)
				if len(choices) != len(legal) || counts[p.Hash] != len(legal) {
					t.Fatalf("%s: %d records, %d legal book moves, %d legal moves", v.FormatFEN(&p, false), counts[p.Hash], len(choices), len(legal))
				}
				for _, c := range choices {
					if next := p.Play(c.Move); counts[next.Hash] > 0 {
						queue = append(queue, next)
					}
				}
			}
			if len(seen) != len(counts) {
				t.Errorf("%d positions reached from the roots, the book holds %d", len(seen), len(counts))
			}
			t.Logf("%s: %d positions, %d moves", v.Name, len(counts), bk.Len())
		})
	}
}
