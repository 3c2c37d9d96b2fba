package eval

import (
	"github.com/riodraughts/rio/internal/movegen"
)

// The learned evaluation's feature layouts. Everything is seen from
// White, moving up the board; Black's features are White's on the board
// turned 180 degrees with the colours swapped, so a position and its
// colour-flipped twin score the same by construction.
//
// Patterns: overlapping windows of Rows rows by four files: in each of
// the rows, the playing squares c and c+1 of the row's four (c = 0..2,
// files 2c..2c+3). The window (r, c) covers rows r..r+Rows-1 (row 0 at
// the top), r = 0..8-Rows. A window's configuration is a number in base 3
// with one digit per square (0 empty or a king, 1 a white man, 2 a black
// man), its rows from the top, in each row the left square first.
//
//	layout 1: Rows 4, 15 windows of 8 squares, 3^8 = 6,561 configurations
//	layout 2: Rows 5, 12 windows of 10 squares, 3^10 = 59,049 configurations:
//	          a man with its support two rows back, a chain across the window
//	layout 3: layout 2's windows and a weight for a king on each of the 32
//	          squares (KingSquares), which the windows, where a king counts
//	          as an empty square, cannot see
//	layout 4: layout 3 and the material table (MaterialParams): a weight
//	          for the men ahead (-4..+4) by which sides have a king, so
//	          that a man more can count for less once both sides have
//	          crowned (the other terms add; this one interacts)
//
// Scalars (the terms patterns cannot see), each the difference between
// White's count and Black's on the turned board:
//
//	ScMen, ScKings          men and kings
//	ScKingTable + 4a+b      own kings a and enemy kings b (3 for 3 or more): one-hot
//	ScKingMobility          squares the kings reach
//	ScDiagonal              kings on the long diagonal
//	ScRunaway + r-1         men r = 1..4 rows from promotion that nothing can stop
//	ScTempo                 rows the men have advanced, summed
//	ScBalance               |men on files a-d - men on files e-h|
//
// and ScSideToMove, the score of having the move (not a difference).
//
// Every parameter has an opening and an endgame weight; a position's score
// mixes them by the pieces left: n/24 of the opening weight and (24-n)/24
// of the endgame one, n the number of pieces (at most 24).
//
// A weights file stores, per phase, each window's Configs weights in
// window order, then the scalars (ScalarParams), then, in a layout with
// king squares, KingSquares weights (index KingIndex of the square, seen
// from White; Black's kings on the turned board), then, in a layout with
// the material table, MaterialParams weights (MaterialIndex, White's
// less Black's on the turned board): FeatureLayout.Params weights in
// all. The constants below are layout 1's.
const (
	Layout  = 1
	Windows = 15
	Configs = 6561
	// PatternParams is the number of pattern weights per phase.
	PatternParams = Windows * Configs
	// MaxWindows bounds the windows of any layout.
	MaxWindows = 15
)

// Scalar feature indices, after the patterns.
const (
	ScMen = iota
	ScKings
	ScKingTable
	ScKingMobility = ScKingTable + 16
	ScDiagonal     = ScKingMobility + 1
	ScRunaway      = ScDiagonal + 1
	ScTempo        = ScRunaway + 4
	ScBalance      = ScTempo + 1
	// Scalars is the number of White-minus-Black scalar features.
	Scalars = ScBalance + 1
	// ScSideToMove is the side-to-move term, after the scalars.
	ScSideToMove = Scalars
	// ScalarParams counts the scalar weights per phase.
	ScalarParams = Scalars + 1
	// PhaseParams is the number of weights per phase; a weights file holds
	// two phases, opening then endgame.
	PhaseParams = PatternParams + ScalarParams
	// Params is the number of weights of a layout-1 file.
	Params = 2 * PhaseParams
	// MaxPhase is the piece count of the pure opening weights.
	MaxPhase = 24
	// KingSquares is the number of king-square weights per phase of a
	// layout with them.
	KingSquares = 32
	// MaterialParams is the number of material-table weights per phase of
	// a layout with it: 4 king situations by 9 men differences.
	MaterialParams = 4 * 9
	// maxMenAhead bounds the men difference the material table tells
	// apart (more counts as this many).
	maxMenAhead = 4
)

// MaterialIndex returns the material-table index of a side with a king
// or none (ownKing), an opponent with a king or none (oppKing) and
// menAhead men more than the opponent (clipped to -4..+4).
func MaterialIndex(ownKing, oppKing bool, menAhead int) int {
	i := 0
	if ownKing {
		i += 2
	}
	if oppKing {
		i++
	}
	return i*9 + max(-maxMenAhead, min(menAhead, maxMenAhead)) + maxMenAhead
}

// materialMirror returns the index the same position gives the other
// side: kings swapped, the difference negated.
func materialMirror(i int) int {
	k, d := i/9, i%9
	return (k>>1|(k&1)<<1)*9 + 2*maxMenAhead - d
}

// KingIndex returns the king-square weight index 0..31 of s: the ghost
// layout's bit less the ghost bits below it.
func KingIndex(s movegen.Square) int { return int(s) - int(s)/9 }

// FeatureLayout is one layout of the pattern windows (see above).
type FeatureLayout struct {
	// ID is the layout's number in weights files.
	ID int
	// Rows is the height of a window.
	Rows int
	// Kings: the layout has a weight per square for a king there.
	Kings bool
	// Material: the layout has the material table (MaterialIndex).
	Material bool
	// windows and configs: 3*(9-Rows) windows of 3^(2*Rows) configurations.
	windows, configs int
	// mirror maps a configuration to that of the turned window on the
	// flipped board: digits reversed, colours swapped.
	mirror []int32
}

// The layouts a weights file may have.
var (
	Layout1 = newLayout(1, 4, false, false)
	Layout2 = newLayout(2, 5, false, false)
	Layout3 = newLayout(3, 5, true, false)
	Layout4 = newLayout(4, 5, true, true)
	Layouts = []*FeatureLayout{Layout1, Layout2, Layout3, Layout4}
)

// LayoutByID returns the layout numbered id, or nil.
func LayoutByID(id int) *FeatureLayout {
	for _, l := range Layouts {
		if l.ID == id {
			return l
		}
	}
	return nil
}

func newLayout(id, rows int, kings, material bool) *FeatureLayout {
	l := &FeatureLayout{ID: id, Rows: rows, Kings: kings, Material: material, windows: 3 * (9 - rows), configs: 1}
	for range 2 * rows {
		l.configs *= 3
	}
	l.mirror = make([]int32, l.configs)
	for i := range l.configs {
		x, m := i, 0
		for range 2 * rows {
			d := x % 3
			x /= 3
			if d != 0 {
				d = 3 - d
			}
			m = m*3 + d
		}
		l.mirror[i] = int32(m)
	}
	return l
}

// Windows returns the number of windows.
func (l *FeatureLayout) Windows() int { return l.windows }

// Configs returns the number of configurations of a window.
func (l *FeatureLayout) Configs() int { return l.configs }

// PatternParams returns the number of pattern weights per phase.
func (l *FeatureLayout) PatternParams() int { return l.windows * l.configs }

// PhaseParams returns the number of weights per phase.
func (l *FeatureLayout) PhaseParams() int { return l.MaterialParamsAt() + l.MaterialParams() }

// MaterialParams returns the number of material-table weights per phase
// (0 or MaterialParams).
func (l *FeatureLayout) MaterialParams() int {
	if l.Material {
		return MaterialParams
	}
	return 0
}

// MaterialParamsAt returns where a phase's material-table weights start:
// after the king squares.
func (l *FeatureLayout) MaterialParamsAt() int { return l.KingParamsAt() + l.KingParams() }

// Extends reports whether l is base with weights added after base's in
// each phase (layouts 3 and 4 extend layout 2, layout 4 extends layout
// 3): base's weights start a fit of l, the added ones from 0.
func (l *FeatureLayout) Extends(base *FeatureLayout) bool {
	if l.Rows != base.Rows || base.Material {
		return false
	}
	if base.Kings {
		return l.Kings && l.Material
	}
	return l.Kings
}

// KingParams returns the number of king-square weights per phase (0 or
// KingSquares).
func (l *FeatureLayout) KingParams() int {
	if l.Kings {
		return KingSquares
	}
	return 0
}

// KingParamsAt returns where a phase's king-square weights start: after
// the patterns and the scalars.
func (l *FeatureLayout) KingParamsAt() int { return l.PatternParams() + ScalarParams }

// Params returns the number of weights of a file of this layout.
func (l *FeatureLayout) Params() int { return 2 * l.PhaseParams() }

// FileSize returns the size of a weights file of this layout.
func (l *FeatureLayout) FileSize() int { return headerSize + 2*l.Params() + 4 }

// turnedWindow is the window that w becomes on the turned board.
func (l *FeatureLayout) turnedWindow(w int) int { return (8-l.Rows-w/3)*3 + 2 - w%3 }

// rowBase[r] is the bit of the first (leftmost) playing square of row r.
var rowBase = [8]uint{0, 4, 9, 13, 18, 22, 27, 31}

// pairDigits[c][code] is the two-digit base-3 value (left digit first) of
// playing squares c and c+1 of a row whose white men are code&15 and black
// men code>>4 (bit i: the row's i-th square from the left).
var pairDigits [3][256]int32

func init() {
	digit := func(code, i int) int32 {
		switch {
		case code>>i&1 != 0:
			return 1
		case code>>(4+i)&1 != 0:
			return 2
		}
		return 0
	}
	for c := range 3 {
		for code := range 256 {
			pairDigits[c][code] = digit(code, c)*3 + digit(code, c+1)
		}
	}
}

// windowConfigs writes the configuration of every window for white men wm and
// black men bm (ghost-layout bitboards) into out: each row's pairs are
// looked up once, and a window's number is its rows' pairs in base 9.
func (l *FeatureLayout) windowConfigs(wm, bm movegen.Bitboard, out *[MaxWindows]int32) {
	var t [8][3]int32
	for r, base := range rowBase {
		code := (wm>>base)&15 | ((bm>>base)&15)<<4
		t[r][0] = pairDigits[0][code]
		t[r][1] = pairDigits[1][code]
		t[r][2] = pairDigits[2][code]
	}
	switch l.Rows {
	case 4:
		for r := range 5 {
			for c := range 3 {
				out[r*3+c] = ((t[r][c]*9+t[r+1][c])*9+t[r+2][c])*9 + t[r+3][c]
			}
		}
	case 5:
		for r := range 4 {
			for c := range 3 {
				out[r*3+c] = (((t[r][c]*9+t[r+1][c])*9+t[r+2][c])*9+t[r+3][c])*9 + t[r+4][c]
			}
		}
	default:
		for r := range 9 - l.Rows {
			for c := range 3 {
				x := int32(0)
				for k := range l.Rows {
					x = x*9 + t[r+k][c]
				}
				out[r*3+c] = x
			}
		}
	}
}

// configSlow computes window w's configuration square by square, from the
// layout's definition: the differential tests hold configs to it.
func (l *FeatureLayout) configSlow(wm, bm movegen.Bitboard, w int) int32 {
	r0, c := w/3, w%3
	var idx int32
	for r := r0; r < r0+l.Rows; r++ {
		for f := 2 * c; f < 2*c+4; f++ {
			if (r+f)%2 == 0 {
				continue // a light square
			}
			sq, _ := movegen.SquareAt(r, f)
			var d int32
			switch {
			case wm.Has(sq):
				d = 1
			case bm.Has(sq):
				d = 2
			}
			idx = idx*3 + d
		}
	}
	return idx
}

// scalars adds the scalar features of the side owning own (moving up the
// board) against opp to f with sign sign.
func scalars(own, opp, kings movegen.Bitboard, sign int32, f *[Scalars]int32) {
	men := own &^ kings
	ownKings := own & kings
	oppKings := opp & kings
	nk, ok := ownKings.Count(), oppKings.Count()
	f[ScMen] += sign * int32(men.Count())
	f[ScKings] += sign * int32(nk)
	f[ScKingTable+4*min(nk, 3)+min(ok, 3)] += sign
	if ownKings != 0 {
		empty := movegen.Valid &^ (own | opp)
		mob := 0
		for b := ownKings; b != 0; b &= b - 1 {
			mob += movegen.KingReach(b.First(), empty).Count()
		}
		f[ScKingMobility] += sign * int32(mob)
		f[ScDiagonal] += sign * int32((ownKings & longDiagonal).Count())
	}
	if oppKings == 0 {
		for b := men & runawayRows; b != 0; b &= b - 1 {
			sq := b.First()
			if cone[sq]&opp == 0 {
				f[ScRunaway+rowsToGo[sq]-1] += sign
			}
		}
	}
	// Tempo, the rows advanced of all men, bit by bit (advancedBit).
	tempo := (men & advancedBit[0]).Count() + (men&advancedBit[1]).Count()<<1 + (men&advancedBit[2]).Count()<<2
	f[ScTempo] += sign * int32(tempo)
	d := (men & leftHalf).Count() - (men &^ leftHalf).Count()
	f[ScBalance] += sign * int32(abs(d))
}

// Features are a position's learned-evaluation features, as the trainer
// sees them: the score for White is, in layout l (Configs, PatternParams
// the layout's),
//
//	sum over phases ph of mix[ph] * (sum_w θ[ph][w*Configs+Own[w]] - θ[ph][w*Configs+Turned[w]]
//	                                 + sum_s θ[ph][PatternParams+s] * Scalar[s]
//	                                 + sum_{s in Kings[0]} θ[ph][KingParamsAt+KingIndex(s)]
//	                                 - sum_{s in Kings[1]} θ[ph][KingParamsAt+KingIndex(s)])
//
//	                                 + θ[ph][MaterialParamsAt+Material[0]] - θ[ph][MaterialParamsAt+Material[1]])
//
// (the king squares and the material table in a layout with them)
//
// and the score for the side to move is Sign times that plus the mixed
// side-to-move weight.
type Features struct {
	// Own[w] is window w's configuration on the board, Turned[w] on the
	// colour-flipped board (the first Layout.Windows() are used).
	Own, Turned [MaxWindows]int32
	Scalar      [Scalars]int32
	// Kings are White's kings on the board and Black's on the turned
	// board (the king-square features: +1 for each of White's, -1 for
	// each of Black's, at KingIndex of the square).
	Kings [2]movegen.Bitboard
	// Material are White's material-table index and Black's on the
	// turned board (MaterialIndex; in a layout with the table).
	Material [2]int32
	// Pieces is the phase: the number of pieces, at most MaxPhase.
	Pieces int32
	// Sign is +1 with White to move, -1 with Black.
	Sign int32
}

// Extract fills f with the layout-1 features of p.
func Extract(p *movegen.Position, f *Features) { Layout1.Extract(p, f) }

// Extract fills f with the features of p in layout l.
func (l *FeatureLayout) Extract(p *movegen.Position, f *Features) {
	w, b, k := p.Pieces[movegen.White], p.Pieces[movegen.Black], p.Kings
	l.windowConfigs(w&^k, b&^k, &f.Own)
	wf, bf, kf := b.Flip(), w.Flip(), k.Flip() // the colour-flipped board
	l.windowConfigs(wf&^kf, bf&^kf, &f.Turned)
	f.Scalar = [Scalars]int32{}
	scalars(w, b, k, 1, &f.Scalar)
	scalars(wf, bf, kf, -1, &f.Scalar)
	f.Kings = [2]movegen.Bitboard{w & k, wf & kf}
	ahead := (w &^ k).Count() - (b &^ k).Count()
	f.Material = [2]int32{
		int32(MaterialIndex(w&k != 0, b&k != 0, ahead)),
		int32(MaterialIndex(wf&kf != 0, bf&kf != 0, -ahead)),
	}
	f.Pieces = int32(min(p.Occupied().Count(), MaxPhase))
	f.Sign = 1
	if p.Side == movegen.Black {
		f.Sign = -1
	}
}

// Trainable reports whether the learned weights score p: false where the
// endgame knowledge decides (a lone king against what cannot or must
// win).
func Trainable(v *movegen.Variant, p *movegen.Position) bool {
	_, ok := endgame(v, WeightsOf(v), p)
	return !ok
}

// Damping is what the evaluation divides p's weighted sum by: 4 in
// kings-only endings without a decisive majority (the draw rules end them
// long before a win), else 1. The fit scales those positions' scores the
// same way.
func Damping(p *movegen.Position) int {
	if scaleKingsOnly(p, 1000) == 1000 {
		return 1
	}
	return 4
}
