package game

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/riodraughts/rio/internal/movegen"
)

func mustGame(t *testing.T, v *movegen.Variant, fen string) *Game {
	t.Helper()
	p, err := v.ParsePosition(fen)
	if err != nil {
		t.Fatal(err)
	}
	return New(v, p)
}

// chooser rates a move for quietWalk: 0 refused, higher preferred.
type chooser func(g *Game, p *movegen.Position, m movegen.Move) int

// quietWalk plays n plies of non-capturing moves that lead to positions
// not seen before and leave the opponent without a capture, so that no
// repetition and no capture can interfere; rate, when set, refuses (0) or
// prefers (higher) moves. It searches depth-first with random move order
// (seeded) and backtracks when cornered; it reports false when no such
// walk turns up within its budget.
func quietWalk(t *testing.T, g *Game, n int, seed uint64, rate chooser) bool {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 99))
	seen := map[uint64]bool{}
	for i := 0; i <= g.Ply(); i++ {
		p := g.PositionAt(i)
		seen[p.Hash] = true
	}
	budget := 20000
	var walk func(left int) bool
	walk = func(left int) bool {
		if left == 0 {
			return true
		}
		if budget--; budget < 0 {
			return false
		}
		p := g.Position()
		var buf [movegen.MaxMoves]movegen.Move
		type cand struct {
			m     movegen.Move
			score int
		}
		var cands []cand
		for _, m := range g.Variant.Generate(&p, buf[:0]) {
			q := p.Play(m)
			if m.IsCapture() || seen[q.Hash] || g.Variant.HasCapture(&q) {
				continue
			}
			score := 1
			if rate != nil {
				score = rate(g, &p, m)
			}
			if score > 0 {
				cands = append(cands, cand{m, score})
			}
		}
		rng.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
		slices.SortStableFunc(cands, func(a, b cand) int { return b.score - a.score })
		for _, c := range cands {
			if err := g.Play(c.m); err != nil {
				t.Fatal(err)
			}
			h := g.Position().Hash
			seen[h] = true
			if walk(left - 1) {
				return true
			}
			delete(seen, h)
			g.Undo()
		}
		return false
	}
	return walk(n)
}

func kingMovesOnly(_ *Game, p *movegen.Position, m movegen.Move) int {
	return b2i(p.Kings.Has(m.From()))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// manEvery plays king moves, and a man move that does not promote once n
// plies have passed since the last one (a man move resets 7.2.5, not
// 7.2.6).
func manEvery(n int) chooser {
	return func(g *Game, p *movegen.Position, m movegen.Move) int {
		man := !p.Kings.Has(m.From())
		switch {
		case man && m.Promotes():
			return 0
		case g.Counters()[5] < int16(n): // 7.2.5 counts plies since a man move
			return b2i(!man)
		case man:
			return 2
		}
		return 1
	}
}

// expectDrawAt walks from fen and checks that the rule named want draws
// exactly after plies plies and not one ply before.
func expectDrawAt(t *testing.T, v *movegen.Variant, fen string, plies int, want string, keep chooser) {
	t.Helper()
	// A random walk can corner itself; try seeds until one gets through.
	for seed := uint64(1); seed <= 50; seed++ {
		g := mustGame(t, v, fen)
		if !quietWalk(t, g, plies-1, seed, keep) {
			continue
		}
		if o := g.Outcome(); o.Result != Ongoing {
			t.Fatalf("%s %s: after %d plies already %v (%s)", v.Name, fen, plies-1, o.Result, o.Reason)
		}
		if !quietWalk(t, g, 1, seed, keep) {
			continue
		}
		o := g.Outcome()
		if o.Result != Draw || !strings.Contains(o.Reason, want) {
			t.Fatalf("%s %s: after %d plies got %v %q, want a draw by %q", v.Name, fen, plies, o.Result, o.Reason, want)
		}
		return
	}
	t.Fatalf("%s %s: no quiet walk of %d plies found", v.Name, fen, plies)
}

func TestDrawRulesAtTheirLimits(t *testing.T) {
	// Kings only, both sides have kings, many pieces: 7.2.5 after 30 plies
	// (men stay put; far apart, no capture possible).
	expectDrawAt(t, movegen.Brazilian, "W:WK29,K30,21,22,23,24:BK1,K2,9,10,11,12", 30, "7.2.5", kingMovesOnly)
	expectDrawAt(t, movegen.Russian, "W:WK29,K30,21,22,23,24:BK1,K2,9,10,11,12", 30, "7.2.5", kingMovesOnly)
	// 3 kings against a lone king off the long diagonal: 7.2.4 after 30 plies.
	expectDrawAt(t, movegen.Brazilian, "W:WK26,K31,K27:BK5", 30, "7.2.4",
		func(_ *Game, p *movegen.Position, m movegen.Move) int { return b2i(!loneOnDiagonal(p, m)) })
	// 4 pieces with kings on both sides: 7.2.6, 30 moves each. A man move
	// every 20 plies keeps 7.2.5 (kings only) from drawing first.
	expectDrawAt(t, movegen.Russian, "W:WK32,21:BK1,12", 60, "7.2.6", manEvery(20))
	// 6 pieces: 60 moves each.
	expectDrawAt(t, movegen.Russian, "W:WK32,21,25:BK1,12,8", 120, "7.2.6", manEvery(20))
	// 2 pieces against a lone king: 7.2.8 after 10 plies.
	expectDrawAt(t, movegen.Brazilian, "W:WK32,K31:BK5", 10, "7.2.8", nil)
	// 3 pieces against a lone king on the long diagonal: 7.2.7 after 10.
	expectDrawAt(t, movegen.Russian, "B:WK32,K31,K27:BK15", 10, "7.2.7",
		func(_ *Game, p *movegen.Position, m movegen.Move) int {
			return b2i(p.Side == movegen.White || longDiagonal.Has(m.To()))
		})
	// Portuguese: 20 moves each without man move or capture.
	expectDrawAt(t, movegen.Portuguese, "W:WK13,K9,1,2:BK24,K20,31,32", 40, "20 moves", kingMovesOnly)
}

// loneOnDiagonal reports whether m puts a lone black king on the long
// diagonal (keeps 7.2.7 out of a 7.2.4 test).
func loneOnDiagonal(p *movegen.Position, m movegen.Move) bool {
	return p.Side == movegen.Black && longDiagonal.Has(m.To())
}

func TestPortugueseThreeKingsCountFromTheRio(t *testing.T) {
	// Three white kings against one, none on the rio yet: no count until a
	// white king stands on it, then 24 plies (12 moves each).
	v := movegen.Portuguese
	g := mustGame(t, v, "W:WK2,K3,K4:BK31")
	rule := 1
	if !strings.Contains(g.rules.Count[rule].Name, "rio") {
		t.Fatal("rule table order changed")
	}
	if c := g.Counters(); c.Counting(rule) {
		t.Fatalf("counting before a king reached the rio: %d", c[rule])
	}
	// Put a white king on the rio (square 10 is on it).
	if _, err := g.PlayText("2-6"); err != nil {
		t.Fatal(err)
	}
	if c := g.Counters(); c.Counting(rule) {
		t.Fatalf("counting without a king on the rio: %d", c[rule])
	}
	if _, err := g.PlayText("31-27"); err != nil {
		t.Fatal(err)
	}
	if _, err := g.PlayText("6-10"); err != nil {
		t.Fatal(err)
	}
	if c := g.Counters(); c[rule] != 0 {
		t.Fatalf("count at the rio arrival = %d, want 0", c[rule])
	}
	// From here, 24 plies; the white king may leave the rio again.
	if !quietWalk(t, g, 23, 5, nil) {
		t.Fatal("walk stuck")
	}
	if o := g.Outcome(); o.Result != Ongoing {
		t.Fatalf("drawn one ply early: %s", o.Reason)
	}
	if !quietWalk(t, g, 1, 6, nil) {
		t.Fatal("walk stuck")
	}
	if o := g.Outcome(); o.Result != Draw || !strings.Contains(o.Reason, "rio") {
		t.Fatalf("got %v %q", o.Result, o.Reason)
	}
}

func TestCounterResets(t *testing.T) {
	r := RulesOf(movegen.Russian)
	idx := func(substr string) int {
		for i, rule := range r.Count {
			if strings.Contains(rule.Name, substr) {
				return i
			}
		}
		t.Fatalf("no rule %q", substr)
		return -1
	}
	kingsOnly, balance := idx("7.2.5"), idx("60 moves")
	// Both sides have kings, 6 pieces: both rules count.
	p, _ := movegen.Russian.ParseFEN("W:WK32,21,25:BK1,12,8")
	c := r.startCounters(&p)
	for range 5 {
		c, _ = r.Advance(c, 0, &p) // king moves
	}
	if c[kingsOnly] != 5 || c[balance] != 5 {
		t.Fatalf("after 5 king moves: %v", c)
	}
	c, _ = r.Advance(c, ManMove, &p)
	if c[kingsOnly] != 0 || c[balance] != 6 {
		t.Fatalf("a man move resets 7.2.5 only: %v", c)
	}
	c, _ = r.Advance(c, ManMove|Promotion, &p)
	if c[kingsOnly] != 0 || c[balance] != 0 {
		t.Fatalf("a promotion resets both: %v", c)
	}
	c, _ = r.Advance(c, 0, &p)
	c, _ = r.Advance(c, Capture, &p)
	if c[kingsOnly] != 0 || c[balance] != 0 {
		t.Fatalf("a capture resets both: %v", c)
	}
	// Portuguese: a king move counts, a man move or a capture resets.
	pr := RulesOf(movegen.Portuguese)
	q, _ := movegen.Portuguese.ParseFEN("W:WK1,5:BK32,28")
	pc := pr.startCounters(&q)
	pc, _ = pr.Advance(pc, 0, &q)
	pc, _ = pr.Advance(pc, 0, &q)
	if pc[0] != 2 {
		t.Fatalf("portuguese count %d, want 2", pc[0])
	}
	if pc, _ = pr.Advance(pc, ManMove, &q); pc[0] != 0 {
		t.Fatal("a man move does not reset the portuguese 20-move count")
	}
	if pr.PliesLeft(pc) != 40 {
		t.Fatalf("plies left %d, want 40", pr.PliesLeft(pc))
	}
}

func TestRepetition(t *testing.T) {
	v := movegen.Brazilian
	g := mustGame(t, v, "W:WK28,21:BK5,12")
	cycle := []string{"28-24", "5-9", "24-28", "9-5"}
	for i := range 7 {
		if _, err := g.PlayText(cycle[i%4]); err != nil {
			t.Fatal(err)
		}
		if o := g.Outcome(); o.Result != Ongoing {
			t.Fatalf("ply %d: %s too early", i+1, o.Reason)
		}
	}
	if g.Repetitions() != 1 {
		t.Fatalf("ply 7 repeats ply 3 once, got %d", g.Repetitions())
	}
	if _, err := g.PlayText(cycle[3]); err != nil {
		t.Fatal(err)
	}
	if o := g.Outcome(); o.Result != Draw || !strings.Contains(o.Reason, "repetition") {
		t.Fatalf("ply 8: the start position a third time: got %v %q", o.Result, o.Reason)
	}

	// The same board with the other side to move is not a repetition: a
	// triangle (three white moves) against a shuttle (two black moves).
	g = mustGame(t, v, "W:WK28,21:BK5,12")
	for _, m := range []string{"28-24", "5-9", "24-19", "9-5", "19-28"} {
		if _, err := g.PlayText(m); err != nil {
			t.Fatal(err)
		}
	}
	start, now := g.PositionAt(0), g.Position()
	if start.Pieces != now.Pieces || start.Kings != now.Kings || start.Side == now.Side {
		t.Fatal("test sequence does not reach the start board with the other side to move")
	}
	if g.Repetitions() != 0 {
		t.Fatal("same board, other side to move, counted as a repetition")
	}

	// An irreversible move ends the window: positions before it never repeat.
	g = mustGame(t, v, "W:WK28,21:BK5,12")
	g.PlayText("28-24")
	g.PlayText("12-16") // man move
	h := g.History(8)
	if h.Len() != 1 || h.ReversiblePlies() != 0 {
		t.Fatalf("history after a man move holds %d positions", h.Len())
	}
}

func TestHistoryMatchesGame(t *testing.T) {
	v := movegen.Russian
	g := mustGame(t, v, "W:WK28,21:BK5,12")
	h := g.History(64)
	p := g.Position()
	for i, s := range []string{"28-24", "5-9", "24-28", "9-5", "28-24", "5-9", "24-28", "9-5"} {
		m, err := v.ParseMove(&p, s)
		if err != nil {
			t.Fatal(err)
		}
		p = p.Play(m)
		h.Push(p.Hash, false)
		g.Play(m)
		if h.Repetitions() != g.Repetitions() {
			t.Fatalf("ply %d: history %d repetitions, game %d", i+1, h.Repetitions(), g.Repetitions())
		}
	}
	if h.Repetitions() != 2 {
		t.Fatalf("after two cycles: %d repetitions, want 2", h.Repetitions())
	}
	h.Pop()
	if h.Repetitions() != 1 {
		t.Fatal("pop does not restore the previous count")
	}
}

func TestNoLegalMoveLoses(t *testing.T) {
	g := mustGame(t, movegen.Brazilian, "B:W21:B")
	if o := g.Outcome(); o.Result != WhiteWins || !strings.Contains(o.Reason, "black has no legal move") {
		t.Fatalf("got %v %q", o.Result, o.Reason)
	}
	// Blocked: the black man on 5 (a7) has only b6 (9), where a white man
	// stands with c5 (14) behind it occupied.
	g = mustGame(t, movegen.Brazilian, "B:W9,14:B5")
	if o := g.Outcome(); o.Result != WhiteWins {
		t.Fatalf("blocked black man: got %v %q", o.Result, o.Reason)
	}
}

func BenchmarkHistoryRepetitions(b *testing.B) {
	h := NewHistory(256)
	rng := rand.New(rand.NewPCG(1, 1))
	h.Push(rng.Uint64(), true)
	for range 60 { // a long reversible stretch: the worst case
		h.Push(rng.Uint64(), false)
	}
	n := 0
	for b.Loop() {
		n += h.Repetitions()
	}
	_ = n
}

// TestAdvanceShortcutMatchesFullEvaluation: over random games with kings,
// the counters Advance keeps equal those of a plain evaluation of every
// rule after every move.
func TestAdvanceShortcutMatchesFullEvaluation(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	var buf [movegen.MaxMoves]movegen.Move
	for _, v := range movegen.Variants {
		r := RulesOf(v)
		for range 300 {
			p, _ := v.ParseFEN("W:WK29,K30,21,22,23:BK3,K4,10,11,12")
			if v == movegen.Portuguese {
				p, _ = v.ParseFEN("W:WK4,K3,10,11,12:BK29,K30,21,22,23")
			}
			c := r.startCounters(&p)
			full := c
			for ply := 0; ply < 80; ply++ {
				moves := v.Generate(&p, buf[:0])
				if len(moves) == 0 {
					break
				}
				m := moves[rng.IntN(len(moves))]
				e := EventOf(&p, m)
				p = p.Play(m)
				c, _ = r.Advance(c, e, &p)
				full = fullAdvance(r, full, e, &p)
				if normalized(c) != full {
					t.Fatalf("%s %s: shortcut counters %v, full %v", v.Name, v.FormatFEN(&p, false), c, full)
				}
			}
		}
	}
}

// fullAdvance is the rules' plain reading: after every move, every
// condition is looked at again.
func fullAdvance(r *DrawRules, c Counters, e Event, next *movegen.Position) Counters {
	m := MaterialOf(next)
	for i := range r.Count {
		rule := &r.Count[i]
		holds := rule.Applies(m) && (rule.Where == nil || rule.Where(m, next))
		switch {
		case !holds:
			c[i] = notCounting
		case c[i] < 0 || e&rule.ResetOn != 0:
			c[i] = notCounting
			if rule.Starts == nil || rule.Starts(m, next) {
				c[i] = 0
			}
		default:
			c[i]++
		}
	}
	return c
}

// normalized treats every not-counting state alike.
func normalized(c Counters) Counters {
	for i := range c {
		c[i] = max(c[i], notCounting)
	}
	return c
}

// Floor: the shortest rule that can come into play from a material.
func TestFloor(t *testing.T) {
	br, pt := RulesOf(movegen.Brazilian), RulesOf(movegen.Portuguese)
	cases := []struct {
		r    *DrawRules
		m    Material
		want int
	}{
		// Three kings against one: 7.2.7 (long diagonal, 10 plies) applies.
		{br, Material{Kings: [2]int{3, 1}}, 10},
		// Men only, 12 a side: captures can reach a lone king against two.
		{br, Material{Men: [2]int{12, 12}}, 10},
		// One man against one man: both can crown, and a king against a
		// lone king is 7.2.8's case.
		{br, Material{Men: [2]int{1, 1}}, 10},
		// A man against nothing: no rule can ever apply.
		{br, Material{Men: [2]int{1, 0}}, 1 << 14},
		// Portuguese: the 20-move rule always; 3 kings against 1 (24
		// plies) needs four pieces.
		{pt, Material{Men: [2]int{1, 1}}, 40},
		{pt, Material{Kings: [2]int{3, 1}}, 24},
		{pt, Material{Men: [2]int{2, 0}, Kings: [2]int{1, 1}}, 24},
	}
	for _, c := range cases {
		if got := c.r.Floor(c.m); got != c.want {
			t.Errorf("%s %+v: %d, want %d", c.r.Source, c.m, got, c.want)
		}
	}
}

// Restartable: a rule that would draw before a forced line ends can be
// restarted by a man move when it restarts at one (the portuguese 20-move
// rule, FMJD-64's kings-only rule) and the side has a man free to step,
// or by crowning a man in time when it restarts at a promotion (FMJD-64's
// balance rules, which a plain man move leaves counting).
func TestRestartable(t *testing.T) {
	for _, c := range []struct {
		v       *movegen.Variant
		fen     string
		dist    int
		canStep bool
		crownIn int
		want    bool
	}{
		// Portuguese: the 20-move rule counts from the start, 40 plies.
		{movegen.Portuguese, "B:WK16,24:B8,K25,31", 40, false, -1, true}, // it draws no sooner than the line ends
		{movegen.Portuguese, "B:WK16,24:B8,K25,31", 91, true, 10, true},
		{movegen.Portuguese, "B:WK16,24:B8,K25,31", 91, false, 10, true}, // crowning is a man move
		{movegen.Portuguese, "B:WK16,24:B8,K25,31", 91, true, -1, true},
		{movegen.Portuguese, "B:WK16,24:B8,K25,31", 91, false, -1, false},
		{movegen.Portuguese, "B:WK16,24:B8,K25,31", 91, false, 40, false}, // too late
		// Brazilian, 5 pieces with kings on both sides: the kings-only rule
		// (30 plies, a man move restarts it) and the balance rule (60
		// plies, only a capture or a promotion restarts it).
		{movegen.Brazilian, "B:W13,K18,30:B21,K31", 30, false, -1, true},
		{movegen.Brazilian, "B:W13,K18,30:B21,K31", 50, true, -1, true}, // the balance rule leaves 60
		{movegen.Brazilian, "B:W13,K18,30:B21,K31", 74, true, -1, false},
		{movegen.Brazilian, "B:W13,K18,30:B21,K31", 74, true, 12, true},
		{movegen.Brazilian, "B:W13,K18,30:B21,K31", 74, false, 12, true},
		{movegen.Brazilian, "B:W13,K18,30:B21,K31", 74, true, 60, false},
		// No king, no rule counting: nothing to restart.
		{movegen.Brazilian, "W:W13,20:B3,7,25", 86, false, -1, true},
	} {
		g := mustGame(t, c.v, c.fen)
		if got := g.Rules().Restartable(g.Counters(), c.dist, c.canStep, c.crownIn); got != c.want {
			t.Errorf("%s %s: Restartable(dist %d, canStep %v, crownIn %d) = %v, want %v (counters %v)",
				c.v, c.fen, c.dist, c.canStep, c.crownIn, got, c.want, g.Counters())
		}
	}
}
