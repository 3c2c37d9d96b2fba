package eval

import (
	"math/rand/v2"
	"testing"

	"github.com/riodraughts/rio/internal/movegen"
)

// TestColourSymmetry: a position and its colour-flipped twin score the
// same for the side to move, over positions of random games.
func TestColourSymmetry(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var buf [movegen.MaxMoves]movegen.Move
	for _, v := range movegen.Variants {
		for range 200 {
			p := v.Start()
			for ply := 0; ply < 120; ply++ {
				if a, b := Evaluate(v, &p), Evaluate(v, new(p.Flip())); a != b {
					t.Fatalf("%s %s scores %d, its twin %d", v.Name, v.FormatFEN(&p, false), a, b)
				}
				if s := Evaluate(v, &p); s > KnownWin+1000 || s < -KnownWin-1000 {
					t.Fatalf("%s %s: score %d out of bounds", v.Name, v.FormatFEN(&p, false), s)
				}
				moves := v.Generate(&p, buf[:0])
				if len(moves) == 0 {
					break
				}
				p = p.Play(moves[rng.IntN(len(moves))])
			}
		}
	}
}

func TestEndgameKnowledge(t *testing.T) {
	cases := []struct {
		v    *movegen.Variant
		fen  string
		want string // "draw", "win" (for the side to move), "loss"
	}{
		{movegen.Brazilian, "W:WK1,K2,K3:BK22", "draw"},  // lone king on the long diagonal
		{movegen.Russian, "B:WK1,K2,K3:BK29", "draw"},    // idem, black to move
		{movegen.Brazilian, "W:WK1,K2:BK5", "draw"},      // two pieces cannot win
		{movegen.Brazilian, "W:WK1,27:BK5", "draw"},      // king and man against a lone king
		{movegen.Brazilian, "W:WK29,K30,K31:BK3", "win"}, // three kings, lone king off the diagonal
		{movegen.Brazilian, "B:WK29,K30,K31:BK3", "loss"},
		{movegen.Portuguese, "W:WK1,K2,K3:BK31", "win"},
	}
	for _, c := range cases {
		p, err := c.v.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		s := Evaluate(c.v, &p)
		ok := c.want == "draw" && s == 0 || c.want == "win" && s >= KnownWin || c.want == "loss" && s <= -KnownWin
		if !ok {
			t.Errorf("%s %s: score %d, want %s", c.v.Name, c.fen, s, c.want)
		}
	}
}

func TestMaterialCounts(t *testing.T) {
	v := movegen.Brazilian
	even, _ := v.ParseFEN("W:W21,22,23:B10,11,12")
	up, _ := v.ParseFEN("W:W21,22,23,24:B10,11,12")
	if d := Evaluate(v, &up) - Evaluate(v, &even); d < 60 {
		t.Errorf("an extra man is worth %d", d)
	}
}

func BenchmarkEvaluate(b *testing.B) {
	v := movegen.Brazilian
	p, _ := v.ParseFEN("W:W17,21,22,23,24,25,26,28,K30:B1,2,3,4,6,7,8,9,11,12,K14")
	n := 0
	for b.Loop() {
		n += Evaluate(v, &p)
	}
}

func TestRunawayRowsMask(t *testing.T) {
	for n := 1; n <= 32; n++ {
		sq := movegen.STD.Square(n)
		in := runawayRows.Has(sq)
		if want := standard.Runaway[rowsToGo[sq]] != 0 || portuguese.w.Runaway[rowsToGo[sq]] != 0; in != want {
			t.Errorf("square %d (row %d): in mask %v, runaway weight nonzero %v", n, movegen.Row(sq), in, want)
		}
	}
}
