package eval

import (
	"fmt"

	"github.com/riodraughts/rio/internal/movegen"
)

// Network is a small neural network whose output is added to the pattern
// score: the patterns are a sum over windows, each blind to the rest of
// the board, and the network sees the whole board at once, so it can
// learn what two distant parts of it are worth together (a man ahead
// that counts for less once the opponent has a king, a breakthrough on
// one wing while the other is locked).
//
// Layout (NetInputs inputs, NetHidden hidden units, one output):
//
//	input  i = piece*32 + s, 1 where the square s (0-31: STD square s+1)
//	         holds that piece, seen from the side to move (the board is
//	         turned when Black is to move): piece 0 own man, 1 own king,
//	         2 opponent's man, 3 opponent's king
//	hidden j = clamp(B1[j] + sum of W1[i*NetHidden+j] over the inputs
//	         that are 1, 0, NetOne): a clipped ReLU, NetOne standing for 1
//	output   = (B2*NetOne + sum of W2[j]*hidden j) / (NetOne*NetOutUnit)
//	         hundredths of a man for the side to move
//
// Seen from the side to move, a position and its colour-flipped twin have
// the same inputs, so the network keeps the evaluation's colour symmetry by
// construction.
//
// A network is built by NewNetwork, which also packs W1 for the fast path
// (the zero Network outputs 0); Params returns its values.
type Network struct {
	w1 [NetInputs * NetHidden]int16
	b1 [NetHidden]int16
	w2 [NetHidden]int16
	b2 int16
	// packed[i][q] holds the weights of input i to units 4q to 4q+3 as
	// four 16-bit lanes, each W1 + netLaneBias (1 to 2047): up to 32
	// inputs add lane by lane without a carry into the next lane (32 *
	// 2047 < 65536), four units with one 64-bit addition.
	packed [NetInputs][NetHidden / 4]uint64
	// bySquare[view][piece][s] is packed's row of that piece (0-3, as the
	// inputs) on the square with bitboard index s, seen from White
	// (bySquare[0]) or turned (bySquare[1], the row of square 34-s) so
	// that Evaluate adds rows straight from a bitboard's bits, without
	// turning the board or mapping squares. 64 rows per piece: any
	// square a Bitboard holds is in range, so the lookup needs no check;
	// the rows of bits outside the board stay zero.
	bySquare [2][4][64][NetHidden / 4]uint64
	// b1q[q] and w2q[q] are B1 and W2 of units 4q to 4q+3 as int32, in
	// the packed words' order.
	b1q, w2q [NetHidden / 4][4]int32
}

const (
	// NetInputs are the network's inputs: 4 kinds of piece on 32 squares.
	NetInputs = 128
	// NetHidden are its hidden units.
	NetHidden = 32
	// NetOne is a hidden unit's full activation (1.0) in the integer
	// arithmetic; W1 and B1 are in 1/NetOne.
	NetOne = 256
	// NetOutUnit: W2 and B2 are in 1/NetOutUnit hundredths of a man.
	NetOutUnit = 16
	// NetMaxW1 bounds the first layer's values: |W1| below 1024/NetOne = 4
	// (the packed lanes' range).
	NetMaxW1 = netLaneBias - 1
	// netLaneBias is added to each packed weight so a lane never goes
	// negative.
	netLaneBias = 1024
	// NetParams is the count of int16 values of a Network, in the order
	// W1, B1, W2, B2.
	NetParams = NetInputs*NetHidden + 2*NetHidden + 1
)

// Evaluate keeps its sums in eight variables, one per packed word: a
// NetHidden other than 32 must fail to build rather than leave units out.
var _ [NetHidden / 4]uint64 = [8]uint64{}

// NetFeatures writes the inputs of p that are 1 to act and returns how
// many there are (at most 24 on a board of 24 pieces; more pieces than 32
// cannot be, so act is the board's size).
func NetFeatures(p *movegen.Position, act *[32]uint8) int {
	own, opp, k := p.Pieces[movegen.White], p.Pieces[movegen.Black], p.Kings
	if p.Side == movegen.Black {
		own, opp, k = opp.Flip(), own.Flip(), k.Flip()
	}
	n := 0
	for piece, b := range [4]movegen.Bitboard{own &^ k, own & k, opp &^ k, opp & k} {
		for ; b != 0 && n < len(act); b &= b - 1 {
			act[n] = uint8(piece*32 + KingIndex(b.First()))
			n++
		}
	}
	return n
}

// Evaluate returns the network's output for p, in hundredths of a man for
// the side to move: EvaluateInputs of NetFeatures(p), with the rows added
// straight from the bitboards into eight sums held in registers (a third
// of the time of the general path). It allocates nothing.
func (n *Network) Evaluate(p *movegen.Position) int {
	own, opp, k := p.Pieces[movegen.White], p.Pieces[movegen.Black], p.Kings
	view := &n.bySquare[0]
	if p.Side == movegen.Black {
		own, opp, view = opp, own, &n.bySquare[1]
	}
	var s0, s1, s2, s3, s4, s5, s6, s7 uint64
	for piece, b := range [4]movegen.Bitboard{own &^ k, own & k, opp &^ k, opp & k} {
		rows := &view[piece]
		for ; b != 0; b &= b - 1 {
			r := &rows[b.First()&63]
			s0 += r[0]
			s1 += r[1]
			s2 += r[2]
			s3 += r[3]
			s4 += r[4]
			s5 += r[5]
			s6 += r[6]
			s7 += r[7]
		}
	}
	return n.output(&[NetHidden / 4]uint64{s0, s1, s2, s3, s4, s5, s6, s7}, (own | opp).Count())
}

// EvaluateInputs returns the network's output for the inputs that are 1
// (NetFeatures; at most 32: the board's squares, which NetFeatures never
// exceeds), in hundredths of a man: the packed
// weights summed four units at a time, then each unit unpacked.
func (n *Network) EvaluateInputs(act []uint8) int {
	var sum [NetHidden / 4]uint64
	for _, i := range act {
		row := &n.packed[i]
		for q := range sum {
			sum[q] += row[q]
		}
	}
	return n.output(&sum, len(act))
}

// output finishes a forward pass from the packed sums of count inputs:
// each unit unpacked, clipped and weighed, into four sums so that the
// multiplications do not wait on each other.
func (n *Network) output(sum *[NetHidden / 4]uint64, count int) int {
	bias := int32(netLaneBias * count)
	var o0, o1, o2, o3 int32
	for q, x := range sum {
		b, w := &n.b1q[q], &n.w2q[q]
		a0 := int32(x&0xFFFF) - bias + b[0]
		a1 := int32(x>>16&0xFFFF) - bias + b[1]
		a2 := int32(x>>32&0xFFFF) - bias + b[2]
		a3 := int32(x>>48) - bias + b[3]
		o0 += w[0] * min(max(a0, 0), NetOne)
		o1 += w[1] * min(max(a1, 0), NetOne)
		o2 += w[2] * min(max(a2, 0), NetOne)
		o3 += w[3] * min(max(a3, 0), NetOne)
	}
	return int((int32(n.b2)*NetOne + o0 + o1 + o2 + o3) / (NetOne * NetOutUnit))
}

// evaluateSlow is EvaluateInputs unit by unit, input by input: the
// definition the packed path is held to.
func (n *Network) evaluateSlow(act []uint8) int {
	out := int32(n.b2) * NetOne
	for j := range NetHidden {
		a := int32(n.b1[j])
		for _, i := range act {
			a += int32(n.w1[int(i)*NetHidden+j])
		}
		out += int32(n.w2[j]) * min(max(a, 0), NetOne)
	}
	return int(out / (NetOne * NetOutUnit))
}

// Params returns the network's values in the stored order (W1, B1, W2, B2).
func (n *Network) Params() []int16 {
	out := make([]int16, 0, NetParams)
	out = append(out, n.w1[:]...)
	out = append(out, n.b1[:]...)
	out = append(out, n.w2[:]...)
	return append(out, n.b2)
}

// NewNetwork builds a network from its values in the stored order; a
// first-layer value outside ±NetMaxW1 is refused.
func NewNetwork(params []int16) (*Network, error) {
	if len(params) != NetParams {
		return nil, fmt.Errorf("network of %d values, want %d", len(params), NetParams)
	}
	n := new(Network)
	copy(n.w1[:], params)
	for i, x := range n.w1 {
		if x < -NetMaxW1 || x > NetMaxW1 {
			return nil, fmt.Errorf("network weight %d (input %d, unit %d) is %d, outside ±%d", i, i/NetHidden, i%NetHidden, x, NetMaxW1)
		}
		n.packed[i/NetHidden][i%NetHidden/4] |= uint64(int32(x)+netLaneBias) << (16 * (i % 4))
	}
	for b := movegen.Valid; b != 0; b &= b - 1 {
		s := b.First()
		for piece := range 4 {
			n.bySquare[0][piece][s] = n.packed[piece*32+KingIndex(s)]
			n.bySquare[1][piece][s] = n.packed[piece*32+KingIndex(34-s)]
		}
	}
	copy(n.b1[:], params[len(n.w1):])
	copy(n.w2[:], params[len(n.w1)+len(n.b1):])
	n.b2 = params[NetParams-1]
	for j := range NetHidden {
		n.b1q[j/4][j%4] = int32(n.b1[j])
		n.w2q[j/4][j%4] = int32(n.w2[j])
	}
	return n, nil
}
