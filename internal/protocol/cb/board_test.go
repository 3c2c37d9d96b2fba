package cb

import (
	"math/rand"
	"testing"

	"github.com/riodraughts/rio/internal/movegen"
)

var variants = []*movegen.Variant{movegen.Russian, movegen.Brazilian}

// The four corners, as shared/spec/checkerboard.md and cb_interface.h's
// numbertocoors place them.
func TestCorners(t *testing.T) {
	for _, c := range []struct {
		n, x, y int
		name    string
	}{{29, 7, 7, "a1"}, {4, 0, 0, "h8"}, {1, 6, 0, "b8"}, {32, 1, 7, "g1"}} {
		got := SquareCoor(c.n)
		if got != (Coor{int32(c.x), int32(c.y)}) {
			t.Errorf("square %d: coordinates %v, want (%d,%d)", c.n, got, c.x, c.y)
		}
		if name := movegen.AlgebraicName(square(c.n)); name != c.name {
			t.Errorf("square %d is %s in Rio, want %s", c.n, name, c.name)
		}
		if n := coorSquare(c.x, c.y); n != c.n {
			t.Errorf("coorSquare(%d,%d) = %d, want %d", c.x, c.y, n, c.n)
		}
	}
}

// Every square: x = 7 - file, y = 8 - rank, and back.
func TestEverySquare(t *testing.T) {
	seen := map[Coor]bool{}
	for n := 1; n <= 32; n++ {
		c := SquareCoor(n)
		s := square(n)
		if int(c.X) != 7-movegen.File(s) || int(c.Y) != movegen.Row(s) {
			t.Errorf("square %d (%s): coordinates %v", n, movegen.AlgebraicName(s), c)
		}
		if coorSquare(int(c.X), int(c.Y)) != n {
			t.Errorf("square %d does not come back", n)
		}
		if seen[c] {
			t.Errorf("square %d: coordinates %v used twice", n, c)
		}
		seen[c] = true
	}
	for x := -1; x <= 8; x++ {
		for y := -1; y <= 8; y++ {
			if n := coorSquare(x, y); n != 0 && !seen[Coor{int32(x), int32(y)}] {
				t.Errorf("coorSquare(%d,%d) = %d for a light or outside square", x, y, n)
			}
		}
	}
}

// randomGame plays random legal moves from the start and returns every
// position seen.
func randomGame(v *movegen.Variant, r *rand.Rand, plies int) []movegen.Position {
	p := v.Start()
	out := []movegen.Position{p}
	var buf [movegen.MaxMoves]movegen.Move
	for range plies {
		legal := v.Generate(&p, buf[:0])
		if len(legal) == 0 {
			break
		}
		p = p.Play(legal[r.Intn(len(legal))])
		out = append(out, p)
	}
	return out
}

func TestBoardRoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(16))
	for _, v := range variants {
		for range 20 {
			for _, p := range randomGame(v, r, 120) {
				var b Board
				BoardFromPosition(&p, &b)
				q, err := positionFromBoard(v, &b, int(apiColour(p.Side)))
				if err != nil {
					t.Fatalf("%s %s: %v", v, v.FormatFEN(&p, false), err)
				}
				if q != p {
					t.Fatalf("%s: %s came back as %s", v, v.FormatFEN(&p, false), v.FormatFEN(&q, false))
				}
			}
		}
	}
}

func TestStartBoard(t *testing.T) {
	p := movegen.Russian.Start()
	var b Board
	BoardFromPosition(&p, &b)
	// White's men on 21-32, at the bottom (y 5..7); black's on 1-12.
	for n := 1; n <= 32; n++ {
		c := SquareCoor(n)
		want := int32(free)
		switch {
		case n <= 12:
			want = black | man
		case n >= 21:
			want = white | man
		}
		if b[c.X][c.Y] != want {
			t.Errorf("square %d: %d, want %d", n, b[c.X][c.Y], want)
		}
	}
	if b[7][7] != white|man || b[0][0] != black|man {
		t.Errorf("a1 board[7][7] = %d, h8 board[0][0] = %d", b[7][7], b[0][0])
	}
}

func TestBadBoards(t *testing.T) {
	v := movegen.Russian
	start := v.Start()
	var good Board
	BoardFromPosition(&start, &good)
	cases := map[string]func(b *Board){
		"light square":      func(b *Board) { b[0][1] = white | man },
		"colour 3":          func(b *Board) { b[7][7] = 3 | man },
		"no colour":         func(b *Board) { b[7][7] = man },
		"man and king":      func(b *Board) { b[7][7] = white | man | king },
		"no kind":           func(b *Board) { b[7][7] = white },
		"negative":          func(b *Board) { b[7][7] = -1 },
		"huge":              func(b *Board) { b[7][7] = 1 << 30 },
		"man on last row":   func(b *Board) { b[0][0] = white | man },
		"13 pieces":         func(b *Board) {}, // the board is made below
		"black man on row1": func(b *Board) { b[1][7] = black | man },
	}
	for name, spoil := range cases {
		b := good
		if name == "13 pieces" {
			b = Board{}
			for n := 1; n <= 13; n++ {
				c := SquareCoor(n + 4)
				b[c.X][c.Y] = black | man
			}
		}
		spoil(&b)
		if _, err := positionFromBoard(v, &b, white); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	for _, color := range []int{0, 3, -1, 4, 1 << 20} {
		if _, err := positionFromBoard(v, &good, color); err == nil {
			t.Errorf("colour %d accepted", color)
		}
	}
}

// describe against the generator: every legal move of random positions,
// applied to the board as the GUI does, gives the position after it; the
// path is a chain of landings ending on To, the captured pieces lie on it.
func TestDescribe(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for _, v := range variants {
		for range 20 {
			for _, p := range randomGame(v, r, 150) {
				var buf [movegen.MaxMoves]movegen.Move
				for _, m := range v.Generate(&p, buf[:0]) {
					checkDescribe(t, v, &p, m)
				}
			}
		}
	}
	for _, fen := range []struct {
		v   *movegen.Variant
		fen string
	}{
		{movegen.Russian, "W:W23,K24,29:B9,17,19,21,27"},
		{movegen.Russian, "W:WK2,21:B7,8,14,17,18,24,26"},
		{movegen.Brazilian, "W:WK1,K17,28,30:B2,3,14,15,16,22,K26,27"},
		{movegen.Brazilian, "W:WK20,25:B4,7,9,17,21,24"},
		{movegen.Russian, "W:W27:B22,14,7"}, // a man crowned mid-capture goes on as a king
	} {
		p, err := fen.v.ParseFEN(fen.fen)
		if err != nil {
			t.Fatal(err)
		}
		var buf [movegen.MaxMoves]movegen.Move
		for _, m := range fen.v.Generate(&p, buf[:0]) {
			checkDescribe(t, fen.v, &p, m)
		}
	}
}

func checkDescribe(t *testing.T, v *movegen.Variant, p *movegen.Position, m movegen.Move) {
	t.Helper()
	var mv CBMove
	describe(v, p, m, &mv)
	var b, want Board
	BoardFromPosition(p, &b)
	applyMove(&b, &mv)
	q := p.Play(m)
	BoardFromPosition(&q, &want)
	name := v.Name + " " + v.FormatFEN(p, false) + " " + v.FormatMove(m)
	if b != want {
		t.Fatalf("%s: the described move gives another board", name)
	}
	if int(mv.jumps) != m.Captured().Count() {
		t.Fatalf("%s: jumps %d", name, mv.jumps)
	}
	if mv.from != coor(m.From()) || mv.to != coor(m.To()) {
		t.Fatalf("%s: from/to %v %v", name, mv.from, mv.to)
	}
	if mv.jumps == 0 {
		return
	}
	if mv.path[mv.jumps] != mv.to {
		t.Fatalf("%s: path[%d] = %v, not to %v", name, mv.jumps, mv.path[mv.jumps], mv.to)
	}
	at := mv.from
	for i := 1; i <= int(mv.jumps); i++ {
		next := mv.path[i]
		dx, dy := next.X-at.X, next.Y-at.Y
		if dx == 0 || (dx != dy && dx != -dy) {
			t.Fatalf("%s: leg %v-%v is not diagonal", name, at, next)
		}
		// The piece taken on this leg lies strictly between.
		d := mv.del[i-1]
		between := (d.X-at.X)*(next.X-d.X) > 0 && (d.Y-at.Y)*(next.Y-d.Y) > 0 && (d.X-at.X)*dy == (d.Y-at.Y)*dx
		if !between {
			t.Fatalf("%s: piece %v not on leg %v-%v", name, d, at, next)
		}
		if mv.delPiece[i-1]&(white|black) == int32(apiColour(p.Side)) {
			t.Fatalf("%s: takes its own piece", name)
		}
		at = next
	}
}
