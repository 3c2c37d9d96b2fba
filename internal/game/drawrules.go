package game

import "github.com/riodraughts/rio/internal/movegen"

// Event is what a move did, for the counters' resets (a bit set).
type Event uint8

const (
	// Capture: the move took at least one piece.
	Capture Event = 1 << iota
	// ManMove: a man moved (promotions included).
	ManMove
	// Promotion: a man became a king.
	Promotion
)

// Material is the piece count of a position, the input of the draw rules'
// conditions.
type Material struct {
	Men, Kings [2]int
}

// MaterialOf counts the pieces of p.
func MaterialOf(p *movegen.Position) Material {
	var m Material
	for c := movegen.White; c <= movegen.Black; c++ {
		m.Kings[c] = p.KingsOf(c).Count()
		m.Men[c] = p.Men(c).Count()
	}
	return m
}

// Pieces returns the number of pieces of colour c.
func (m Material) Pieces(c movegen.Color) int { return m.Men[c] + m.Kings[c] }

// Total returns the number of pieces on the board.
func (m Material) Total() int { return m.Pieces(movegen.White) + m.Pieces(movegen.Black) }

// loneKing returns the colour that has exactly one piece, a king, while
// the other side has at least one king; ok is false when there is none.
func (m Material) loneKing() (weak movegen.Color, ok bool) {
	for c := movegen.White; c <= movegen.Black; c++ {
		if m.Kings[c] == 1 && m.Men[c] == 0 && m.Kings[c.Other()] >= 1 {
			return c, true
		}
	}
	return 0, false
}

// longDiagonal is a1-h8, the portuguese rio on the mirrored board.
var longDiagonal = movegen.LongDiagonal

// CountRule is one automatic move-count draw rule. Its counter runs while
// its conditions hold (from the position where they started to hold, or,
// when Starts is set, from the first position where Starts also holds); a
// move with an event in ResetOn sets it back to zero; when it reaches Plies
// the game is drawn.
type CountRule struct {
	// Name says which rule and where it comes from; it is the draw reason.
	Name  string
	Plies int
	// Applies is the rule's condition on the material. It can change only
	// with a capture or a promotion, so it is not asked after other moves.
	Applies func(m Material) bool
	// Where, when set, is a condition on where pieces stand that must hold
	// too, checked after every move.
	Where func(m Material, p *movegen.Position) bool
	// Starts, when set, must hold once for the count to begin.
	Starts  func(m Material, p *movegen.Position) bool
	ResetOn Event
	// NeedsKings says the rule can only apply while some king is on the
	// board: positions without kings skip it at once (most of a search).
	NeedsKings bool
}

// DrawRules are a variant's automatic draw rules.
type DrawRules struct {
	// Source names the federation rules the table follows.
	Source string
	// Repetitions is how many times the same position (same side to move)
	// must occur for a draw; 0: repetitions never draw.
	Repetitions int
	Count       []CountRule

	// Derived at start-up for Advance's common case. kingsOnly: every rule
	// needs a king on the board. plain: the rules that need no look at the
	// position after a move that leaves the material as it was (no Where,
	// no Starts), with their reset events and limits side by side.
	kingsOnly bool
	allOff    bool // no count rule is on
	plain     uint8
	resetOn   [maxRules]Event
	plies     [maxRules]int16
	// floor[men w][kings w][men b][kings b] is Floor's answer.
	floor [floorMax + 1][floorMax + 1][floorMax + 1][floorMax + 1]int16

	// off masks the count rules switched off (Without); base is the table
	// it was made from (nil for a base table), derived the tables made
	// from this one.
	off     uint8
	base    *DrawRules
	derived derivedTables
}

// floorMax bounds the pieces of a side that Floor knows of exactly.
const floorMax = 12

// Floor returns the fewest plies a move-count rule that is not counting yet
// needs to draw a game from material m: the least Plies of the rules that
// apply to m or to any material captures and promotions can lead to
// (placement and start conditions aside, which only delay a rule). A
// forced line shorter than that cannot be cut short by such a rule; the
// search trusts an endgame table's distance only then.
func (r *DrawRules) Floor(m Material) int {
	for c := range 2 {
		if m.Men[c] > floorMax || m.Kings[c] > floorMax {
			return r.minPlies()
		}
	}
	return int(r.floor[m.Men[0]][m.Kings[0]][m.Men[1]][m.Kings[1]])
}

// NoCount is what PliesLeft returns when no rule is counting.
const NoCount = 1 << 20

// DistanceHolds reports whether a forced result dist plies away (an
// endgame table's distance), from a position of material m with left
// plies before a counting rule draws (PliesLeft), holds under the rules:
// no rule counting draws before it and no rule the material could start
// (Floor) is as short. The search and the annotator both ask it.
func (r *DrawRules) DistanceHolds(left int, m Material, dist int) bool {
	return dist >= 0 && dist <= left && dist < r.Floor(m)
}

// Restartable reports whether a side can restart every rule counting in
// c that would draw within dist plies: a rule that restarts at a man move
// when the side has a man free to step (canStep), one that restarts at a
// promotion when it can crown a man (crownIn plies, CrownPlies; -1: no
// man) before that rule draws. The search asks it of a table's win that
// is longer than the plies a rule leaves (the portuguese 20-move rule and
// FMJD-64's kings-only rule restart at a man move, FMJD-64's balance
// rules at a capture or a promotion).
func (r *DrawRules) Restartable(c Counters, dist int, canStep bool, crownIn int) bool {
	for i, rule := range r.Count {
		left := rule.Plies - int(c[i])
		if c[i] < 0 || r.off&(1<<i) != 0 || left >= dist {
			continue
		}
		byStep := canStep && left >= 2 && rule.ResetOn&ManMove != 0
		byCrown := crownIn >= 0 && crownIn < left && rule.ResetOn&(ManMove|Promotion) != 0
		if !byStep && !byCrown {
			return false
		}
	}
	return true
}

// minPlies returns the shortest rule of the table.
func (r *DrawRules) minPlies() int {
	least := NoCount
	for i, rule := range r.Count {
		if r.off&(1<<i) == 0 {
			least = min(least, rule.Plies)
		}
	}
	return least
}

// initFloor fills floor, smallest materials first: a material's floor is
// the least of its own rules and of the materials one capture or one
// promotion away.
func (r *DrawRules) initFloor() {
	for total := 0; total <= 4*floorMax; total++ {
		for wm := 0; wm <= floorMax; wm++ {
			for wk := 0; wk <= floorMax; wk++ {
				for bm := 0; bm <= floorMax; bm++ {
					bk := total - wm - wk - bm
					if bk < 0 || bk > floorMax {
						continue
					}
					m := Material{Men: [2]int{wm, bm}, Kings: [2]int{wk, bk}}
					least := 1 << 14
					for i, rule := range r.Count {
						if r.off&(1<<i) == 0 && rule.Applies(m) {
							least = min(least, rule.Plies)
						}
					}
					for c := range 2 {
						for _, next := range []Material{
							m.with(c, -1, 0), // a man taken
							m.with(c, 0, -1), // a king taken
							m.with(c, -1, 1), // a man crowned
						} {
							if next.Men[c] >= 0 && next.Kings[c] >= 0 && next.Kings[c] <= floorMax {
								least = min(least, int(r.floor[next.Men[0]][next.Kings[0]][next.Men[1]][next.Kings[1]]))
							}
						}
					}
					r.floor[wm][wk][bm][bk] = int16(least)
				}
			}
		}
	}
}

// with returns m with dm men and dk kings added to side c.
func (m Material) with(c, dm, dk int) Material {
	m.Men[c] += dm
	m.Kings[c] += dk
	return m
}

func init() {
	for _, r := range []*DrawRules{&fmjd64, &fpd, &checkerBoard} {
		r.prepare()
	}
}

// prepare derives the fields Advance and Floor read from the rules that
// are on.
func (r *DrawRules) prepare() {
	r.kingsOnly = true
	for i, rule := range r.Count {
		r.resetOn[i], r.plies[i] = rule.ResetOn, int16(rule.Plies)
		if r.off&(1<<i) != 0 {
			continue
		}
		r.kingsOnly = r.kingsOnly && rule.NeedsKings
		if rule.Where == nil && rule.Starts == nil {
			r.plain |= 1 << i
		}
	}
	r.allOff = r.off == uint8(1<<len(r.Count)-1)
	r.initFloor()
}

// idle are the counters of a table none of whose rules counts.
var idle = func() (c Counters) {
	for i := range c {
		c[i] = notCounting
	}
	return c
}()

// fmjd64 are the rules of brazilian and russian: FMJD Section-64 rules
// 7.2.3-7.2.8 as lidraughts applies them to both (shared/spec/rules.md).
// A "move" in those rules is one move of each side: 15 moves = 30 plies.
var fmjd64 = DrawRules{
	Source:      "FMJD Section-64 rules 7.2.3-7.2.8 (as lidraughts applies them to brazilian and russian)",
	Repetitions: 3,
	// The specific rules come first: where two draw at the same ply, the
	// first names the reason.
	Count: []CountRule{
		{
			Name:  "2 pieces or fewer against a lone king for 5 moves (FMJD-64 7.2.8)",
			Plies: 10,
			Applies: func(m Material) bool {
				weak, ok := m.loneKing()
				return ok && m.Pieces(weak.Other()) <= 2
			},
			NeedsKings: true,
		},
		{
			Name:  "3 pieces against a lone king on the long diagonal for 5 moves (FMJD-64 7.2.7)",
			Plies: 10,
			Applies: func(m Material) bool {
				weak, ok := m.loneKing()
				return ok && m.Pieces(weak.Other()) == 3
			},
			Where: func(m Material, p *movegen.Position) bool {
				weak, _ := m.loneKing()
				return p.Pieces[weak]&longDiagonal != 0
			},
			NeedsKings: true,
		},
		{
			Name:  "3 or more kings against a lone king for 15 moves (FMJD-64 7.2.4)",
			Plies: 30,
			Applies: func(m Material) bool {
				weak, ok := m.loneKing()
				strong := weak.Other()
				return ok && m.Kings[strong] >= 3 && m.Men[strong] == 0
			},
			NeedsKings: true,
		},
		{
			Name:  "balance unchanged for 30 moves with 4-5 pieces (FMJD-64 7.2.6)",
			Plies: 60,
			Applies: func(m Material) bool {
				return m.Kings[0] > 0 && m.Kings[1] > 0 && m.Total() >= 4 && m.Total() <= 5
			},
			ResetOn:    Capture | Promotion,
			NeedsKings: true,
		},
		{
			Name:  "balance unchanged for 60 moves with 6-7 pieces (FMJD-64 7.2.6)",
			Plies: 120,
			Applies: func(m Material) bool {
				return m.Kings[0] > 0 && m.Kings[1] > 0 && m.Total() >= 6 && m.Total() <= 7
			},
			ResetOn:    Capture | Promotion,
			NeedsKings: true,
		},
		{
			Name:  "15 moves with kings only (FMJD-64 7.2.5)",
			Plies: 30,
			Applies: func(m Material) bool {
				return m.Kings[0] > 0 && m.Kings[1] > 0
			},
			ResetOn:    Capture | ManMove,
			NeedsKings: true,
		},
	},
}

// fpd are the rules of portuguese (Federação Portuguesa de Damas).
var fpd = DrawRules{
	Source:      "Federação Portuguesa de Damas, rules of Damas Clássicas",
	Repetitions: 3,
	Count: []CountRule{
		{
			Name:    "20 moves without a man move or a capture (FPD)",
			Plies:   40,
			Applies: func(Material) bool { return true },
			ResetOn: Capture | ManMove,
		},
		{
			Name:  "3 kings against 1 king not won within 12 moves of a king on the rio (FPD)",
			Plies: 24,
			Applies: func(m Material) bool {
				return m.Men == [2]int{} && (m.Kings == [2]int{3, 1} || m.Kings == [2]int{1, 3})
			},
			Starts: func(m Material, p *movegen.Position) bool {
				strong := movegen.White
				if m.Kings[movegen.Black] == 3 {
					strong = movegen.Black
				}
				return p.KingsOf(strong)&longDiagonal != 0
			},
			NeedsKings: true,
		},
	},
}

// RulesOf returns the draw rules of v.
func RulesOf(v *movegen.Variant) *DrawRules {
	if v == movegen.Portuguese {
		return &fpd
	}
	return &fmjd64
}

// maxRules bounds the rules of one table (Counters holds one slot each).
const maxRules = 8

// Counters holds one counter per rule of a table: plies counted, or
// notCounting, or waiting (the material fits, where the pieces stand or
// the start condition does not yet). It is a small value: the search keeps
// one per ply.
type Counters [maxRules]int16

const (
	notCounting = -1
	waiting     = -2
)

// Counting reports whether rule i is counting.
func (c Counters) Counting(i int) bool { return c[i] >= 0 }

// startCounters returns the counters for a game starting at p.
func (r *DrawRules) startCounters(p *movegen.Position) Counters {
	c := idle
	m := MaterialOf(p)
	for i := range r.Count {
		if r.off&(1<<i) == 0 {
			c[i] = r.Count[i].step(notCounting, 0, true, m, p)
		}
	}
	return c
}

// step returns a rule's new state after a move with event e that led to p
// (m is p's material; materialChanged says whether the move captured or
// promoted).
func (rule *CountRule) step(state int16, e Event, materialChanged bool, m Material, p *movegen.Position) int16 {
	if materialChanged {
		if !rule.Applies(m) {
			return notCounting
		}
		if state == notCounting {
			state = waiting
		}
	} else if state == notCounting {
		return notCounting // the material still does not fit
	}
	if rule.Where != nil && !rule.Where(m, p) {
		return waiting
	}
	if state == waiting || e&rule.ResetOn != 0 {
		if rule.Starts != nil && !rule.Starts(m, p) {
			return waiting
		}
		return 0
	}
	return state + 1
}

// EventOf returns what the legal move mv does in p.
func EventOf(p *movegen.Position, mv movegen.Move) Event {
	var e Event
	if mv.IsCapture() {
		e |= Capture
	}
	if !p.Kings.Has(mv.From()) {
		e |= ManMove
		if mv.Promotes() {
			e |= Promotion
		}
	}
	return e
}

// Advance returns the counters after a move with event e that led to
// next, and the first rule (index) that draws there, or -1. Most moves
// (no capture, no promotion) leave the material as it was: rules are then
// only counted on or reset, and only the placement and start conditions
// are looked at again.
func (r *DrawRules) Advance(c Counters, e Event, next *movegen.Position) (Counters, int) {
	if next.Kings == 0 && r.kingsOnly || r.allOff {
		return idle, -1 // most of a search: no king, no rule
	}
	materialChanged := e&(Capture|Promotion) != 0
	if !materialChanged && c == idle {
		return idle, -1 // a rule starts only when the material changes
	}
	var m Material
	haveMaterial := false
	drawn := -1
	for i := range r.Count {
		switch {
		case r.off&(1<<i) != 0:
			c[i] = notCounting
			continue
		case !materialChanged && r.plain&(1<<i) != 0:
			// The material is as it was: count on, reset, or stay idle. A
			// king is still on the board (a move cannot remove the last
			// king without capturing it).
			if c[i] >= 0 {
				if e&r.resetOn[i] != 0 {
					c[i] = 0
				} else {
					c[i]++
				}
			}
		case r.Count[i].NeedsKings && next.Kings == 0:
			c[i] = notCounting
		case !materialChanged && c[i] == notCounting:
			// The material still does not fit (step's answer, without
			// counting the material first).
			continue
		default:
			if !haveMaterial {
				m, haveMaterial = MaterialOf(next), true
			}
			c[i] = r.Count[i].step(c[i], e, materialChanged, m, next)
		}
		if c[i] >= r.plies[i] && drawn < 0 {
			drawn = i
		}
	}
	return c, drawn
}

// PliesLeft returns how many plies can still be played before the nearest
// move-count draw (a large number when no rule is counting). The search
// uses it to see a draw coming.
func (r *DrawRules) PliesLeft(c Counters) int {
	if c == idle {
		return NoCount // most of a search: no rule counting
	}
	left := NoCount
	for i := range r.Count {
		if c[i] >= 0 && r.off&(1<<i) == 0 {
			left = min(left, r.Count[i].Plies-int(c[i]))
		}
	}
	return left
}
