package book

import (
	"testing"

	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
)

// A built-in book plays in a game that began at the start position, and
// not in one set up at the same position (a ballot, a problem): there
// the search plays. A book file with the same records plays in both.
func TestPlayBuiltinFromStart(t *testing.T) {
	for _, v := range movegen.Variants {
		bk := Builtin(v)
		if bk == nil {
			t.Skip("a build without books")
		}
		// Two plies along the book's best moves, each position in it.
		fromStart := game.New(v, v.Start())
		for range 2 {
			p := fromStart.Position()
			c, ok := bk.Choose(&p, 0, nil)
			if !ok {
				t.Fatalf("%s: %s not in the built-in book", v.Name, v.FormatFEN(&p, false))
			}
			if err := fromStart.Play(c.Move); err != nil {
				t.Fatal(err)
			}
		}
		setUp := game.New(v, fromStart.Position())
		file := New(v, bk.Records())
		for _, c := range []struct {
			name string
			bk   *Book
			g    *game.Game
			want bool
		}{
			{"built-in, at the start", bk, game.New(v, v.Start()), true},
			{"built-in, two plies from the start", bk, fromStart, true},
			{"built-in, the same position set up", bk, setUp, false},
			{"file, two plies from the start", file, fromStart, true},
			{"file, the same position set up", file, setUp, true},
		} {
			if _, ok := c.bk.Play(c.g, 0, nil); ok != c.want {
				t.Errorf("%s: %s: book move %v, want %v", v.Name, c.name, ok, c.want)
			}
		}
	}
}
