package search

import "github.com/riodraughts/rio/internal/movegen"

// bruteMaterial is an independent oracle for the tactics tests: a plain
// full-width negamax over material only (man 100, king 300), depth plies
// deep and then every pending capture played out. It shares nothing with
// the search but the move generator.
func bruteMaterial(v *movegen.Variant, p *movegen.Position, depth int) int {
	var buf [movegen.MaxMoves]movegen.Move
	moves := v.Generate(p, buf[:0])
	if len(moves) == 0 {
		return -100000
	}
	if depth <= 0 && !moves[0].IsCapture() {
		return material(p)
	}
	best := -1000000
	for _, m := range moves {
		q := p.Play(m)
		if s := -bruteMaterial(v, &q, depth-1); s > best {
			best = s
		}
	}
	return best
}

func material(p *movegen.Position) int {
	us, them := p.Side, p.Side.Other()
	return 100*(p.Men(us).Count()-p.Men(them).Count()) + 300*(p.KingsOf(us).Count()-p.KingsOf(them).Count())
}

// bruteBest returns the move with the best bruteMaterial score, and its
// margin over the second best.
func bruteBest(v *movegen.Variant, p *movegen.Position, depth int) (movegen.Move, int, int) {
	var buf [movegen.MaxMoves]movegen.Move
	moves := v.Generate(p, buf[:0])
	best, second := -1000000, -1000000
	var bestMove movegen.Move
	for _, m := range moves {
		q := p.Play(m)
		s := -bruteMaterial(v, &q, depth-1)
		switch {
		case s > best:
			second, best, bestMove = best, s, m
		case s > second:
			second = s
		}
	}
	return bestMove, best, best - second
}
