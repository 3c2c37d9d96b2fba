package eval

import (
	"github.com/riodraughts/rio/internal/movegen"
)

// Unit is the weights' fixed-point scale: a weight of Unit is a hundredth
// of a man.
const Unit = 16

// Model is a learned evaluation: one variant's weights in one feature
// layout, and the tables derived from them for a fast evaluation.
type Model struct {
	// Variant is the variant the weights were trained for.
	Variant *movegen.Variant
	// Layout is the weights' feature layout.
	Layout *FeatureLayout
	// Params are the weights as stored: [phase][PhaseParams], opening
	// first, in 1/Unit hundredths of a man.
	Params []int16
	// pat[w*configs+i] are window w's folded opening and endgame weights
	// for configuration i: the window's own weight less that of the turned
	// window's mirrored configuration (what the same squares give Black),
	// so one lookup per window scores both colours.
	pat []patWeight
	// sc[ph] are the scalar weights of phase ph.
	sc [2][ScalarParams]int32
	// kw[s] and kb[s] are the opening and endgame weights of a white and
	// of a black king on square s (ghost layout bit): a black king's is
	// the negated weight of its turned square. All zero without king
	// squares.
	kw, kb [35]patWeight
	// mat[i] are the opening and endgame weights of material-table index
	// i seen from White, folded with Black's (materialMirror): all zero
	// without the table.
	mat [MaterialParams]patWeight
	// Net, if not nil, adds its output to the pattern score (after the
	// phases are mixed and kings-only endings damped).
	Net *Network
}

type patWeight [2]int32

// NewModel builds a model from weights in the stored order, of the layout
// with that many weights (Params).
func NewModel(v *movegen.Variant, params []int16) *Model {
	for _, l := range Layouts {
		if len(params) == l.Params() {
			return NewLayoutModel(v, l, params)
		}
	}
	panic("eval: no layout has that many weights")
}

// NewLayoutModel builds a model of layout l from its weights (len
// l.Params()).
func NewLayoutModel(v *movegen.Variant, l *FeatureLayout, params []int16) *Model {
	m := &Model{Variant: v, Layout: l, Params: params, pat: make([]patWeight, l.PatternParams())}
	pp, nc := l.PhaseParams(), l.configs
	for w := range l.windows {
		tw := l.turnedWindow(w)
		for i := range nc {
			for ph := range 2 {
				own := int32(params[ph*pp+w*nc+i])
				turned := int32(params[ph*pp+tw*nc+int(l.mirror[i])])
				m.pat[w*nc+i][ph] = own - turned
			}
		}
	}
	for ph := range 2 {
		for s := range ScalarParams {
			m.sc[ph][s] = int32(params[ph*pp+l.PatternParams()+s])
		}
	}
	if l.Kings {
		for b := movegen.Valid; b != 0; b &= b - 1 {
			s := b.First()
			for ph := range 2 {
				base := ph*pp + l.KingParamsAt()
				m.kw[s][ph] = int32(params[base+KingIndex(s)])
				m.kb[s][ph] = -int32(params[base+KingIndex(34-s)])
			}
		}
	}
	if l.Material {
		for i := range MaterialParams {
			for ph := range 2 {
				base := ph*pp + l.MaterialParamsAt()
				m.mat[i][ph] = int32(params[base+i]) - int32(params[base+materialMirror(i)])
			}
		}
	}
	return m
}

// Evaluate returns the score of p for the side to move, in hundredths of a
// man. It computes every feature from scratch, without allocating; per
// call it costs about twice the classic evaluation (BenchmarkEvaluate,
// BenchmarkEvaluateLearned), which search speed hardly shows
// (BenchmarkSearch).
func (m *Model) Evaluate(v *movegen.Variant, p *movegen.Position) int {
	if s, ok := endgame(v, WeightsOf(v), p); ok {
		return s
	}
	w, b, k := p.Pieces[movegen.White], p.Pieces[movegen.Black], p.Kings
	var cfg [MaxWindows]int32
	l := m.Layout
	l.windowConfigs(w&^k, b&^k, &cfg)
	var open, end int32
	for i, c := range cfg[:l.windows] {
		pw := &m.pat[i*l.configs+int(c)]
		open += pw[0]
		end += pw[1]
	}
	if l.Kings {
		for x := w & k; x != 0; x &= x - 1 {
			kw := &m.kw[x.First()]
			open += kw[0]
			end += kw[1]
		}
		for x := b & k; x != 0; x &= x - 1 {
			kb := &m.kb[x.First()]
			open += kb[0]
			end += kb[1]
		}
	}
	if l.Material {
		mt := &m.mat[MaterialIndex(w&k != 0, b&k != 0, (w&^k).Count()-(b&^k).Count())]
		open += mt[0]
		end += mt[1]
	}
	var f [Scalars]int32
	scalars(w, b, k, 1, &f)
	scalars(b.Flip(), w.Flip(), k.Flip(), -1, &f)
	for s, x := range f {
		if x != 0 {
			open += x * m.sc[0][s]
			end += x * m.sc[1][s]
		}
	}
	if p.Side == movegen.Black {
		open, end = -open, -end
	}
	open += m.sc[0][ScSideToMove]
	end += m.sc[1][ScSideToMove]
	return m.finish(p, open, end)
}

// finish mixes the phases, scales to hundredths of a man and adds the
// network's output.
func (m *Model) finish(p *movegen.Position, open, end int32) int {
	n := int32(min(p.Occupied().Count(), MaxPhase))
	s := int((open*n + end*(MaxPhase-n)) / (MaxPhase * Unit))
	if p.Kings == p.Occupied() {
		// scaleKingsOnly works from White's view; the sign does not matter.
		s = scaleKingsOnly(p, s)
	}
	if m.Net != nil {
		s += m.Net.Evaluate(p)
	}
	return max(min(s, KnownWin-1), -KnownWin+1)
}

// evaluateSlow scores p from its Features and the stored weights, with
// the same integer arithmetic as Evaluate: the tests hold the fast path to
// it.
func (m *Model) evaluateSlow(v *movegen.Variant, p *movegen.Position) int {
	if s, ok := endgame(v, WeightsOf(v), p); ok {
		return s
	}
	var f Features
	l := m.Layout
	l.Extract(p, &f)
	var sum [2]int32
	nc, pp := l.configs, l.PatternParams()
	for ph := range 2 {
		base := m.Params[ph*l.PhaseParams():]
		for w := range l.windows {
			sum[ph] += int32(base[w*nc+int(f.Own[w])]) - int32(base[w*nc+int(f.Turned[w])])
		}
		for s, x := range f.Scalar {
			sum[ph] += x * int32(base[pp+s])
		}
		if l.Kings {
			for c, sign := range [2]int32{1, -1} {
				for b := f.Kings[c]; b != 0; b &= b - 1 {
					sum[ph] += sign * int32(base[l.KingParamsAt()+KingIndex(b.First())])
				}
			}
		}
		if l.Material {
			sum[ph] += int32(base[l.MaterialParamsAt()+int(f.Material[0])]) - int32(base[l.MaterialParamsAt()+int(f.Material[1])])
		}
		sum[ph] = f.Sign*sum[ph] + int32(base[pp+ScSideToMove])
	}
	return m.finish(p, sum[0], sum[1])
}
