package book

import (
	"math/rand/v2"
	"slices"

	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
)

// Book is a loaded book of one variant.
type Book struct {
	Variant *movegen.Variant
	records []Record // sorted (format.go)
	// fromStart makes Play answer only in a game that began at the
	// variant's start position: the built-in books are so. Their moves
	// come from 200,000-node searches, weaker than the search a match
	// clock gives the first moves out of a ballot (brazilian, no book
	// against the book from the ballots at 3+0.03: +11.3 [+0.7, +21.9]
	// over 400 games), and they are there for variety, which a game from
	// a ballot or another set-up position already has. A book file, which
	// may have been built deeper for the ballots, plays wherever it holds
	// the position.
	fromStart bool
}

// New returns a book of records (sorted here).
func New(v *movegen.Variant, records []Record) *Book {
	recs := slices.Clone(records)
	slices.SortFunc(recs, compareRecords)
	return &Book{Variant: v, records: recs}
}

// Len is the number of records (0 for no book, nil).
func (b *Book) Len() int {
	if b == nil {
		return 0
	}
	return len(b.records)
}

// Positions is the number of positions the book holds (0 for nil).
func (b *Book) Positions() int {
	if b == nil {
		return 0
	}
	n := 0
	for i, r := range b.records {
		if i == 0 || r.Key != b.records[i-1].Key {
			n++
		}
	}
	return n
}

// Records returns a copy of the records.
func (b *Book) Records() []Record { return slices.Clone(b.records) }

// Choice is a book move of a position with its score.
type Choice struct {
	Move  movegen.Move
	Score int
}

// Lookup returns the book's moves of p that are legal there, best first;
// nil when p is not in the book. A record whose move is not legal in p
// (another position of the same hash) makes the whole position unknown.
func (b *Book) Lookup(p *movegen.Position) []Choice {
	if b == nil {
		return nil
	}
	i, _ := slices.BinarySearchFunc(b.records, p.Hash, func(r Record, key uint64) int { return cmpU64(r.Key, key) })
	var buf [movegen.MaxMoves]movegen.Move
	legal := b.Variant.Generate(p, buf[:0])
	var out []Choice
	for ; i < len(b.records) && b.records[i].Key == p.Hash; i++ {
		r := b.records[i]
		k := slices.IndexFunc(legal, r.matches)
		if k < 0 {
			return nil
		}
		out = append(out, Choice{Move: legal[k], Score: int(r.Score)})
	}
	slices.SortStableFunc(out, func(a, b Choice) int { return b.Score - a.Score })
	return out
}

// DefaultMargin is how far below the best book move (hundredths of a
// man) a host's move may be drawn by default: a bot playing many games
// from the start does not repeat one game. Hub's book-margin, the
// board's moves, --book-margin and CheckerBoard's book setting 2.
const DefaultMargin = 4

// Choose picks the book move of p: the best, or with margin > 0 (in
// hundredths of a man) one drawn evenly among those within margin of the
// best, so that games from one position vary. ok is false when p is not
// in the book.
func (b *Book) Choose(p *movegen.Position, margin int, rng *rand.Rand) (Choice, bool) {
	choices := b.Lookup(p)
	if len(choices) == 0 {
		return Choice{}, false
	}
	n := 1
	for n < len(choices) && choices[n].Score >= choices[0].Score-margin {
		n++
	}
	if margin <= 0 || n == 1 || rng == nil {
		return choices[0], true
	}
	return choices[rng.IntN(n)], true
}

// Play is the book's move in game g, the one question every host asks
// (Hub, CheckerBoard, DXP, analyze, the board): Choose on g's position,
// for a game of the book's variant that the rules have not ended (a game
// played on past a rule draw is searched: its rules are not the book's)
// and, for a built-in book, that began at the variant's start position
// (g.Start(): what Hub's pos, DXP's GAMEREQ and CheckerBoard's set
// gamehist say; see fromStart).
func (b *Book) Play(g *game.Game, margin int, rng *rand.Rand) (Choice, bool) {
	if b == nil || g.Variant != b.Variant || g.EndPly() >= 0 {
		return Choice{}, false
	}
	if b.fromStart && g.Start() != b.Variant.Start() {
		return Choice{}, false
	}
	p := g.Position()
	return b.Choose(&p, margin, rng)
}
