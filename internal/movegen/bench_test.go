package movegen

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// perftBenchDepth is deep enough for the count to dominate set-up; the
// issue's speed floor is stated for depth 11 (run with
// -bench 'Perft/.*/11' to measure it).
var perftBenchDepths = []int{9, 11}

// BenchmarkPerft reports leaf nodes per second of single-threaded perft
// from each start position.
func BenchmarkPerft(b *testing.B) {
	for _, v := range Variants {
		for _, d := range perftBenchDepths {
			b.Run(v.Name+"/"+strconv.Itoa(d), func(b *testing.B) {
				p := v.Start()
				var nodes uint64
				for b.Loop() {
					nodes += v.Perft(&p, d)
				}
				b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			})
		}
	}
}

// middleGames returns n positions reached by random play from v's start,
// 16 to 40 plies deep, from a fixed seed.
func middleGames(v *Variant, n int) []Position {
	rng := rand.New(rand.NewPCG(7, uint64(v.GameType)))
	var out []Position
	var buf [MaxMoves]Move
	for len(out) < n {
		p := v.Start()
		plies := 16 + rng.IntN(25)
		ok := true
		for range plies {
			moves := v.Generate(&p, buf[:0])
			if len(moves) == 0 {
				ok = false
				break
			}
			p = p.Play(moves[rng.IntN(len(moves))])
		}
		if ok {
			out = append(out, p)
		}
	}
	return out
}

// BenchmarkGenerate reports positions per second for full legal move
// generation on middle-game positions.
func BenchmarkGenerate(b *testing.B) {
	for _, v := range Variants {
		b.Run(v.Name, func(b *testing.B) {
			positions := middleGames(v, 256)
			var buf [MaxMoves]Move
			var n, moves int
			for b.Loop() {
				for i := range positions {
					moves += len(v.Generate(&positions[i], buf[:0]))
				}
				n += len(positions)
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "positions/s")
			b.ReportMetric(float64(moves)/float64(n), "moves/position")
		})
	}
}
