package search

import "github.com/riodraughts/rio/internal/movegen"

// BenchPosition is one position of the built-in bench set.
type BenchPosition struct {
	Variant *movegen.Variant
	FEN     string
}

// BenchDepth is the depth every bench position is searched to.
const BenchDepth = 13

// BenchPositions are openings, middle games and endings of the three
// variants; `engine bench` searches each to BenchDepth with a fresh table.
var BenchPositions = []BenchPosition{
	{movegen.Brazilian, "startpos"},
	{movegen.Brazilian, "W:W17,21,22,23,24,25,26,27,28,30,31,32:B1,2,3,4,6,7,8,9,11,12,13,14"},
	{movegen.Brazilian, "B:W15,18,21,22,24,25,26,27,28,30,31:B1,2,3,4,5,6,7,8,10,12,13"},
	{movegen.Brazilian, "W:W18,20,22,23,25,26,27,28,30:B2,3,5,6,8,9,11,12,16"},
	{movegen.Brazilian, "W:WK29,K30,K31:BK3"},
	{movegen.Russian, "startpos"},
	{movegen.Russian, "W:W17,21,22,23,24,26,27,28,29,30,31,32:B1,2,3,4,6,7,8,9,10,11,12,13"},
	{movegen.Russian, "B:W14,15,17,21,23,27,28,32:B1,4,5,6,8,12,16,20"},
	{movegen.Russian, "W:W5,13,17,22,27,28,32:B1,6,7,8,16,19,20"},
	{movegen.Portuguese, "startpos"},
	{movegen.Portuguese, "W:W2,3,4,6,7,8,9,11,12,19:BK1,22,24,25,26,27,28,29,30,31,32"},
	{movegen.Portuguese, "B:W2,3,4,8,9,10,12,14,K15:B18,20,21,24,30,31,32"},
}
