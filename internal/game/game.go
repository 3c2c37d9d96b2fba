package game

import (
	"fmt"

	"github.com/riodraughts/rio/internal/movegen"
)

// Result is the outcome of a game.
type Result uint8

const (
	Ongoing Result = iota
	WhiteWins
	BlackWins
	Draw
)

// PDN returns the result as PDN writes it for draughts: 2-0, 0-2, 1-1 or *.
func (r Result) PDN() string {
	return [...]string{"*", "2-0", "0-2", "1-1"}[r]
}

func (r Result) String() string { return r.PDN() }

// Outcome is a result and why.
type Outcome struct {
	Result Result
	Reason string
}

// Game is a start position and the moves played from it, with the history
// the draw rules need. The zero Game is not usable; use New.
type Game struct {
	Variant *movegen.Variant
	// Tags are the PDN tag pairs read or to be written.
	Tags Tags
	// Comments are the movetext comments, kept for writing back.
	Comments []Comment
	rules    *DrawRules
	moves    []movegen.Move
	// plies[i] is the state before moves[i]; the last one is the current
	// position.
	plies []ply
}

// ply is the state of the game at one position.
type ply struct {
	pos      movegen.Position
	counters Counters
	// run is the number of reversible plies that led here.
	run int
	// drawnBy is the index of the move-count rule that draws here, or -1.
	drawnBy int
}

// New starts a game of variant v from start.
func New(v *movegen.Variant, start movegen.Position) *Game {
	g := &Game{Variant: v, rules: RulesOf(v)}
	g.plies = append(g.plies, ply{pos: start, counters: g.rules.startCounters(&start), drawnBy: -1})
	return g
}

// Start returns the position the game began from.
func (g *Game) Start() movegen.Position { return g.plies[0].pos }

// Position returns the current position.
func (g *Game) Position() movegen.Position { return g.plies[len(g.plies)-1].pos }

// Moves returns the moves played (do not modify).
func (g *Game) Moves() []movegen.Move { return g.moves }

// Ply returns the number of moves played.
func (g *Game) Ply() int { return len(g.moves) }

// PositionAt returns the position before move i (i == Ply() gives the
// current position).
func (g *Game) PositionAt(i int) movegen.Position { return g.plies[i].pos }

// Rules returns the game's draw rules.
func (g *Game) Rules() *DrawRules { return g.rules }

// Counters returns the move-count rules' counters at the current position.
func (g *Game) Counters() Counters { return g.plies[len(g.plies)-1].counters }

// Play plays m, which must be legal in the current position.
func (g *Game) Play(m movegen.Move) error {
	cur := &g.plies[len(g.plies)-1]
	if !g.isLegal(&cur.pos, m) {
		return fmt.Errorf("illegal move %s", g.Variant.FormatMove(m))
	}
	g.play(m)
	return nil
}

// PlayText parses s (any notation ParseMove accepts) and plays it.
func (g *Game) PlayText(s string) (movegen.Move, error) {
	pos := g.Position()
	m, err := g.Variant.ParseMove(&pos, s)
	if err != nil {
		return movegen.NoMove, err
	}
	g.play(m)
	return m, nil
}

func (g *Game) isLegal(p *movegen.Position, m movegen.Move) bool {
	var buf [movegen.MaxMoves]movegen.Move
	for _, l := range g.Variant.Generate(p, buf[:0]) {
		if l == m {
			return true
		}
	}
	return false
}

func (g *Game) play(m movegen.Move) {
	cur := g.plies[len(g.plies)-1]
	next := ply{pos: cur.pos.Play(m)}
	e := EventOf(&cur.pos, m)
	next.counters, next.drawnBy = g.rules.Advance(cur.counters, e, &next.pos)
	if e&(Capture|ManMove) == 0 {
		next.run = cur.run + 1
	}
	g.moves = append(g.moves, m)
	g.plies = append(g.plies, next)
}

// Undo takes back the last move; it reports false when there is none.
func (g *Game) Undo() bool {
	if len(g.moves) == 0 {
		return false
	}
	g.moves = g.moves[:len(g.moves)-1]
	g.plies = g.plies[:len(g.plies)-1]
	for len(g.Comments) > 0 && g.Comments[len(g.Comments)-1].Ply > len(g.moves) {
		g.Comments = g.Comments[:len(g.Comments)-1]
	}
	return true
}

// Repetitions returns how many times the current position occurred before
// with the same side to move.
func (g *Game) Repetitions() int {
	n := len(g.plies) - 1
	last := &g.plies[n]
	count := 0
	for i := n - 2; i >= n-last.run && i >= 0; i -= 2 {
		if g.plies[i].pos == last.pos {
			count++
		}
	}
	return count
}

// Outcome adjudicates the current position: a loss for the side to move
// without a legal move, a draw by repetition or by a move-count rule, or
// Ongoing.
func (g *Game) Outcome() Outcome {
	cur := &g.plies[len(g.plies)-1]
	var buf [movegen.MaxMoves]movegen.Move
	if len(g.Variant.Generate(&cur.pos, buf[:0])) == 0 {
		if cur.pos.Side == movegen.White {
			return Outcome{BlackWins, "white has no legal move"}
		}
		return Outcome{WhiteWins, "black has no legal move"}
	}
	if reps := g.Repetitions() + 1; reps >= g.rules.Repetitions {
		return Outcome{Draw, fmt.Sprintf("repetition (the same position %d times)", reps)}
	}
	if cur.drawnBy >= 0 {
		return Outcome{Draw, g.rules.Count[cur.drawnBy].Name}
	}
	return Outcome{Ongoing, ""}
}

// History returns the repetition view for a search from the current
// position: the positions since the last irreversible move, with room for
// extra more.
func (g *Game) History(extra int) *History {
	n := len(g.plies) - 1
	first := n - g.plies[n].run
	h := NewHistory(n - first + 1 + extra)
	for i := first; i <= n; i++ {
		h.Push(g.plies[i].pos.Hash, i == first)
	}
	return h
}
