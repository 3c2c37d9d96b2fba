package game

import (
	"fmt"
	"slices"

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
	ruleSet  RuleSet
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
	// reps is how many times this position occurred before (same side to
	// move, since the last irreversible move).
	reps int
	// ended is the index of the first position at or before this one where
	// the rules ended the game by a draw (-1: none). Moves played after it
	// are play past the end: a host that applies fewer rules went on.
	ended int
	// fired masks the count rules that reached their limit at or before
	// this position; repeated says a repetition drew the game at or
	// before it.
	fired    uint8
	repeated bool
}

// New starts a game of variant v from start under all of v's draw rules.
func New(v *movegen.Variant, start movegen.Position) *Game {
	return NewRules(v, start, AllRules)
}

// NewRules starts a game of variant v from start under the draw rules of
// the rule set s.
func NewRules(v *movegen.Variant, start movegen.Position, s RuleSet) *Game {
	g := &Game{Variant: v, rules: RulesFor(v, s), ruleSet: s}
	first := ply{pos: start, counters: g.rules.startCounters(&start), drawnBy: -1, ended: -1}
	g.plies = append(g.plies, g.judge(first, nil))
	return g
}

// WithRules returns the same game (start, moves, tags, comments) recorded
// under the rule set s.
func (g *Game) WithRules(s RuleSet) *Game {
	h := NewRules(g.Variant, g.Start(), s)
	for _, m := range g.moves {
		h.play(m)
	}
	h.Tags, h.Comments = slices.Clone(g.Tags), slices.Clone(g.Comments)
	return h
}

// RuleSet returns the rule set the game is recorded under.
func (g *Game) RuleSet() RuleSet { return g.ruleSet }

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
	if !g.Variant.IsLegal(&cur.pos, m) {
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

func (g *Game) play(m movegen.Move) {
	cur := g.plies[len(g.plies)-1]
	next := ply{pos: cur.pos.Play(m)}
	e := EventOf(&cur.pos, m)
	next.counters, next.drawnBy = g.rules.Advance(cur.counters, e, &next.pos)
	if e&(Capture|ManMove) == 0 {
		next.run = cur.run + 1
	}
	g.moves = append(g.moves, m)
	g.plies = append(g.plies, g.judge(next, &cur))
}

// judge fills in what the rules say of next, the position after prev (nil
// at the start): its repetitions, and whether the game ended there or
// before.
func (g *Game) judge(next ply, prev *ply) ply {
	n := len(g.plies) // next's index
	for i := n - 2; i >= n-next.run && i >= 0; i -= 2 {
		if g.plies[i].pos == next.pos {
			next.reps++
		}
	}
	next.ended = -1
	if prev != nil {
		next.ended, next.fired, next.repeated = prev.ended, prev.fired, prev.repeated
	}
	next.fired |= g.rules.Fired(next.counters)
	next.repeated = next.repeated || g.rules.Repetitions > 0 && next.reps+1 >= g.rules.Repetitions
	if next.ended < 0 && (next.drawnBy >= 0 || next.repeated) {
		next.ended = n
	}
	return next
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
func (g *Game) Repetitions() int { return g.plies[len(g.plies)-1].reps }

// Outcome is the result of the game so far: the first draw by the rules
// (repetition or a move-count rule), even when moves were played after it
// (EndPly tells where), or a loss for the side to move without a legal
// move; else Ongoing.
func (g *Game) Outcome() Outcome {
	end := g.EndPly()
	if end >= 0 && end < g.Ply() {
		return g.drawAt(end)
	}
	// A move that leaves the opponent no move wins, even the move that
	// completes a count.
	cur := &g.plies[len(g.plies)-1]
	var buf [movegen.MaxMoves]movegen.Move
	if len(g.Variant.Generate(&cur.pos, buf[:0])) == 0 {
		if cur.pos.Side == movegen.White {
			return Outcome{BlackWins, "white has no legal move"}
		}
		return Outcome{WhiteWins, "black has no legal move"}
	}
	if end >= 0 {
		return g.drawAt(end)
	}
	return Outcome{Ongoing, ""}
}

// EndPly returns the number of moves played when the rules first drew the
// game (so Ply()-EndPly() moves were played past the end), or -1 when they
// have not. A count completed by the move that leaves the opponent no move
// is recorded too, but that game is won (Outcome).
func (g *Game) EndPly() int { return g.plies[len(g.plies)-1].ended }

// drawAt names the draw of the position after i moves, which the rules
// ended.
func (g *Game) drawAt(i int) Outcome {
	p := &g.plies[i]
	if r := g.rules.Repetitions; r > 0 && p.reps+1 >= r {
		return Outcome{Draw, fmt.Sprintf("repetition (the same position %d times)", p.reps+1)}
	}
	return Outcome{Draw, g.rules.Count[p.drawnBy].Name}
}

// PlayOn returns what a search from the current position follows: the
// game's rules without those that have already drawn the game (here or
// earlier: the host asks for a move all the same, so it does not apply
// them), the counters under those rules, and the repetition view (the
// positions since the last irreversible move; only the current one when
// repetitions do not draw or a repetition already ended the game).
func (g *Game) PlayOn(extra int) (*DrawRules, Counters, *History) {
	cur := &g.plies[len(g.plies)-1]
	rules := g.rules.Without(cur.fired, cur.repeated)
	if rules.Repetitions == 0 {
		h := NewHistory(1 + extra)
		h.Push(cur.pos.Hash, true)
		return rules, rules.Mask(cur.counters), h
	}
	return rules, rules.Mask(cur.counters), g.History(extra)
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
