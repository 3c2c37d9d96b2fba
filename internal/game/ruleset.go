package game

import (
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/riodraughts/rio/internal/movegen"
)

// RuleSet says which automatic draw rules a host applies. Rio follows the
// host's set in its search, so that a draw the host will not declare is
// not taken for one; where the host plays on past a rule anyway, the game
// record shows it (Game.PlayOn) and the search plays on too.
type RuleSet uint8

const (
	// AllRules: every rule of the variant (repetition and the move-count
	// rules of drawrules.go). The default.
	AllRules RuleSet = iota
	// RepetitionOnly: threefold repetition, no move-count rule (DXP peers,
	// older Hub GUIs, match runners that know no other rule).
	RepetitionOnly
	// NoRules: none; the game goes on until a side cannot move or the host
	// stops it.
	NoRules
	// CheckerBoardRules: what CheckerBoard adjudicates in its engine
	// matches, for every game type: threefold repetition, and 40 moves (79
	// plies) without a man move or a capture (utility.c,
	// detect_nonconversion_draws, in eygilbert/CheckerBoard).
	CheckerBoardRules
)

// RuleSetNames are the rule sets' names, in the order of their values.
var RuleSetNames = []string{"all", "repetition", "none", "checkerboard"}

func (s RuleSet) String() string {
	if int(s) < len(RuleSetNames) {
		return RuleSetNames[s]
	}
	return fmt.Sprintf("RuleSet(%d)", s)
}

// ParseRuleSet reads a rule set's name (case-insensitive).
func ParseRuleSet(name string) (RuleSet, error) {
	for i, n := range RuleSetNames {
		if strings.EqualFold(strings.TrimSpace(name), n) {
			return RuleSet(i), nil
		}
	}
	return 0, fmt.Errorf("draw rules %q: expected one of %s", name, strings.Join(RuleSetNames, ", "))
}

// RulesFor returns the draw rules of v under the rule set s.
func RulesFor(v *movegen.Variant, s RuleSet) *DrawRules {
	switch s {
	case RepetitionOnly:
		return RulesOf(v).Without(allRules, false)
	case NoRules:
		return RulesOf(v).Without(allRules, true)
	case CheckerBoardRules:
		return &checkerBoard
	}
	return RulesOf(v)
}

// allRules is the mask of every count rule of a table.
const allRules = 1<<maxRules - 1

// checkerBoard are the rules CheckerBoard itself adjudicates in engine
// matches (the same for every game type).
var checkerBoard = DrawRules{
	Source:      "CheckerBoard's own adjudication: threefold repetition and its 40-move rule",
	Repetitions: 3,
	Count: []CountRule{{
		Name:    "40 moves without a man move or a capture (CheckerBoard)",
		Plies:   79,
		Applies: func(Material) bool { return true },
		ResetOn: Capture | ManMove,
	}},
}

// Without returns r with the count rules of the mask off switched off
// (bit i: r.Count[i]) and, when noRepetition is set, without draws by
// repetition. The rules keep their indices, so counters of r serve the
// result (rules switched off simply stop counting). Tables are made once
// and shared.
func (r *DrawRules) Without(off uint8, noRepetition bool) *DrawRules {
	base := r
	if r.base != nil {
		base = r.base
		off |= r.off
		noRepetition = noRepetition || r.Repetitions == 0
	}
	off &= uint8(1<<len(base.Count) - 1)
	if off == 0 && !noRepetition {
		return base
	}
	slot := &base.derived[b2u(noRepetition)][off]
	if d := slot.Load(); d != nil {
		return d
	}
	d := &DrawRules{Source: base.Source, Repetitions: base.Repetitions, Count: base.Count, base: base, off: off}
	if noRepetition {
		d.Repetitions = 0
	}
	d.prepare()
	slot.CompareAndSwap(nil, d)
	return slot.Load()
}

// Off returns the mask of the count rules switched off in r.
func (r *DrawRules) Off() uint8 { return r.off }

// Fired returns the mask of the rules of c that have reached their limit.
func (r *DrawRules) Fired(c Counters) uint8 {
	var m uint8
	for i := range r.Count {
		if c[i] >= r.plies[i] && r.off&(1<<i) == 0 {
			m |= 1 << i
		}
	}
	return m
}

// Mask returns c with the counters of the rules r switches off idle.
func (r *DrawRules) Mask(c Counters) Counters {
	for i := range r.Count {
		if r.off&(1<<i) != 0 {
			c[i] = notCounting
		}
	}
	return c
}

func b2u(b bool) int {
	if b {
		return 1
	}
	return 0
}

// derivedTables holds the tables Without made from a base table, by
// repetition switched off (0/1) and count rules switched off.
type derivedTables [2][1 << maxRules]atomic.Pointer[DrawRules]
