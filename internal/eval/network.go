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
// the side to move. It allocates nothing.
func (n *Network) Evaluate(p *movegen.Position) int {
	var act [32]uint8
	k := NetFeatures(p, &act)
	return n.EvaluateInputs(act[:k])
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
	bias := int32(netLaneBias * len(act))
	out := int32(n.b2) * NetOne
	for q, x := range sum {
		for l := range 4 {
			j := 4*q + l
			a := int32(x>>(16*l)&0xFFFF) - bias + int32(n.b1[j])
			out += int32(n.w2[j]) * min(max(a, 0), NetOne)
		}
	}
	return int(out / (NetOne * NetOutUnit))
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
	copy(n.b1[:], params[len(n.w1):])
	copy(n.w2[:], params[len(n.w1)+len(n.b1):])
	n.b2 = params[NetParams-1]
	return n, nil
}
