package game

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/riodraughts/rio/internal/movegen"
)

func TestParseRuleSet(t *testing.T) {
	for i, name := range RuleSetNames {
		s, err := ParseRuleSet(" " + strings.ToUpper(name))
		if err != nil || s != RuleSet(i) || s.String() != name {
			t.Errorf("%q: %v %v", name, s, err)
		}
	}
	for _, bad := range []string{"", "fmjd", "all rules", "0"} {
		if _, err := ParseRuleSet(bad); err == nil || !strings.Contains(err.Error(), "expected one of all, repetition, none, checkerboard") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// TestWithoutMatchesMaskedAdvance: a table with rules switched off counts
// the others exactly as the full table does, over random games (kings
// included), and draws where the first rule still on reaches its limit.
func TestWithoutMatchesMaskedAdvance(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 21))
	for _, v := range []*movegen.Variant{movegen.Brazilian, movegen.Russian, movegen.Portuguese} {
		full := RulesOf(v)
		for range 300 {
			off := uint8(rng.IntN(1 << len(full.Count)))
			part := full.Without(off, false)
			if part.Off() != off&uint8(1<<len(full.Count)-1) || part.Without(0, false) != part || full.Without(off, false) != part {
				t.Fatalf("%s: Without(%b) not the one shared table", v.Name, off)
			}
			g := randomKingGame(v, rng)
			cf, cp := full.startCounters(&g[0]), part.startCounters(&g[0])
			for i := 1; i < len(g); i++ {
				e := eventBetween(v, &g[i-1], &g[i])
				var df, dp int
				cf, df = full.Advance(cf, e, &g[i])
				cp, dp = part.Advance(cp, e, &g[i])
				if part.Mask(cf) != cp {
					t.Fatalf("%s off %b ply %d: counters %v, full %v", v.Name, off, i, cp, cf)
				}
				want := -1
				for r := range full.Count {
					if off&(1<<r) == 0 && cf[r] >= int16(full.Count[r].Plies) {
						want = r
						break
					}
				}
				if dp != want || df >= 0 && off&(1<<df) == 0 && dp != df {
					t.Fatalf("%s off %b ply %d: drawn by %d, want %d", v.Name, off, i, dp, want)
				}
			}
		}
	}
}

// randomKingGame plays random moves from a random position with kings.
func randomKingGame(v *movegen.Variant, rng *rand.Rand) []movegen.Position {
	var p movegen.Position
	squares := rng.Perm(32)
	n := 3 + rng.IntN(5)
	for i, sq := range squares[:n] {
		s := movegen.STD.Square(sq + 1)
		c := movegen.Color(i % 2)
		p.Pieces[c] |= s.Bit()
		if rng.IntN(3) > 0 || movegen.PromotionRow(c).Has(s) {
			p.Kings |= s.Bit()
		}
	}
	p.Side = movegen.Color(rng.IntN(2))
	p.Hash = p.ComputeHash()
	out := []movegen.Position{p}
	var buf [movegen.MaxMoves]movegen.Move
	for range 150 {
		moves := v.Generate(&p, buf[:0])
		if len(moves) == 0 {
			break
		}
		p = p.Play(moves[rng.IntN(len(moves))])
		out = append(out, p)
	}
	return out
}

// eventBetween finds the move from p to q and returns its event.
func eventBetween(v *movegen.Variant, p, q *movegen.Position) Event {
	var buf [movegen.MaxMoves]movegen.Move
	for _, m := range v.Generate(p, buf[:0]) {
		if p.Play(m) == *q {
			return EventOf(p, m)
		}
	}
	panic("no move between the positions")
}

// A game played on past a draw: the first ending stays its result, the
// moves after it are counted, and a search from there follows neither the
// rule that drew nor (after a repetition) the history before it.
func TestPlayedPastADraw(t *testing.T) {
	v := movegen.Russian
	g := mustGame(t, v, "W:WK29:BK1,K2") // a lone king against two kings
	if !quietWalk(t, g, 12, 1, nil) {
		t.Fatal("no walk")
	}
	o := g.Outcome()
	if g.EndPly() != 10 || o.Result != Draw || !strings.Contains(o.Reason, "7.2.8") {
		t.Fatalf("end %d, outcome %v %q", g.EndPly(), o.Result, o.Reason)
	}
	rules, c, h := g.PlayOn(4)
	// 7.2.5 (15 moves with kings only) still counts: 30-12 plies left.
	if rules.Off() != 1 || rules.PliesLeft(c) != 18 || h.Len() != g.Ply()+1 {
		t.Errorf("play on: rules off %b, plies left %d, history %d", rules.Off(), rules.PliesLeft(c), h.Len())
	}
	// Under repetition only, nothing drew; the same moves under all rules
	// end at ply 10 again.
	r := g.WithRules(RepetitionOnly)
	if r.EndPly() != -1 || r.Outcome().Result != Ongoing || r.RuleSet() != RepetitionOnly {
		t.Errorf("repetition only: end %d, %v", r.EndPly(), r.Outcome())
	}
	if a := r.WithRules(AllRules); a.EndPly() != 10 || a.Ply() != g.Ply() {
		t.Errorf("back to all rules: end %d, ply %d", a.EndPly(), a.Ply())
	}
	// Undo before the end: the game is on again.
	for g.Ply() > 9 {
		g.Undo()
	}
	if g.EndPly() != -1 || g.Outcome().Result != Ongoing {
		t.Errorf("after undo: end %d", g.EndPly())
	}
}

func TestPlayOnAfterRepetition(t *testing.T) {
	v := movegen.Russian
	g := mustGame(t, v, "W:WK29:BK1,K2,K3") // 7.2.4 counts 30 plies
	for _, m := range strings.Fields("29-25 1-5 25-29 5-1 29-25 1-5 25-29 5-1") {
		if _, err := g.PlayText(m); err != nil {
			t.Fatal(err)
		}
	}
	if g.EndPly() != 8 || !strings.Contains(g.Outcome().Reason, "repetition") {
		t.Fatalf("end %d %v", g.EndPly(), g.Outcome())
	}
	rules, _, h := g.PlayOn(4)
	if rules.Repetitions != 0 || h.Len() != 1 || rules.Off() != 0 {
		t.Errorf("after the repetition: repetitions %d, history %d, off %b", rules.Repetitions, h.Len(), rules.Off())
	}
	none := g.WithRules(NoRules)
	if none.EndPly() != -1 {
		t.Errorf("no rules: ended at %d", none.EndPly())
	}
	if _, _, h := none.PlayOn(0); h.Len() != 1 {
		t.Errorf("no rules: history of %d", h.Len())
	}
}

// CheckerBoard's own rules: 79 plies without a man move or a capture.
func TestCheckerBoardRules(t *testing.T) {
	p, _ := movegen.Russian.ParsePosition("W:WK29,K30:BK1,K2")
	g := NewRules(movegen.Russian, p, CheckerBoardRules)
	if !quietWalk(t, g, 78, 3, nil) {
		t.Fatal("no walk")
	}
	if g.EndPly() != -1 {
		t.Fatalf("ended at %d: %v", g.EndPly(), g.Outcome())
	}
	if !quietWalk(t, g, 1, 3, nil) {
		t.Fatal("no walk")
	}
	if o := g.Outcome(); g.EndPly() != 79 || !strings.Contains(o.Reason, "CheckerBoard") {
		t.Errorf("end %d %v", g.EndPly(), o)
	}
}
