package eval

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/riodraughts/rio/internal/movegen"
)

// randomNetwork is a network of random values over the first layer's
// whole range (most units clipped).
func randomNetwork(seed uint64) *Network {
	rng := rand.New(rand.NewPCG(seed, 3))
	params := make([]int16, NetParams)
	for i := range params {
		switch {
		case i < NetInputs*NetHidden:
			params[i] = int16(rng.IntN(2*NetMaxW1+1) - NetMaxW1)
		case i < NetInputs*NetHidden+NetHidden:
			params[i] = int16(rng.IntN(2*NetOne) - NetOne/2)
		default:
			params[i] = int16(rng.IntN(4001) - 2000)
		}
	}
	n, err := NewNetwork(params)
	if err != nil {
		panic(err)
	}
	return n
}

func BenchmarkEvaluateLearnedNetwork(b *testing.B) {
	v := movegen.Brazilian
	m := randomLayoutModel(v, Layout3, 1)
	m.Net = randomNetwork(1)
	p, _ := v.ParseFEN("W:W17,21,22,23,24,25,26,28,K30:B1,2,3,4,6,7,8,9,11,12,K14")
	n := 0
	for b.Loop() {
		n += m.Evaluate(v, &p)
	}
}

// TestNetworkPackedMatchesSlow: the packed four-units-at-a-time path
// equals the unit-by-unit definition over random games, and at the
// lanes' limits (32 inputs, every first-layer value at ±NetMaxW1).
func TestNetworkPackedMatchesSlow(t *testing.T) {
	nets := []*Network{randomNetwork(1), randomNetwork(2)}
	// A network of a fit's sizes: most units between their clips.
	small := randomNetwork(4).Params()
	for i := range NetInputs * NetHidden {
		small[i] /= 16
	}
	if n, err := NewNetwork(small); err != nil {
		t.Fatal(err)
	} else {
		nets = append(nets, n)
	}
	for _, x := range []int16{NetMaxW1, -NetMaxW1} {
		params := randomNetwork(3).Params()
		for i := range NetInputs * NetHidden {
			params[i] = x
		}
		n, err := NewNetwork(params)
		if err != nil {
			t.Fatal(err)
		}
		nets = append(nets, n)
	}
	var all [32]uint8
	for i := range all {
		all[i] = uint8(4 * i)
	}
	// Boards with every square taken (more pieces than a legal position
	// has), men and kings of both sides, each side to move: Evaluate's 32
	// rows at the lanes' limits.
	var full []movegen.Position
	var white, kings movegen.Bitboard
	for i, b := 0, movegen.Valid; b != 0; i, b = i+1, b&(b-1) {
		if i < 16 {
			white |= b & -b
		}
		if i%3 != 0 {
			kings |= b & -b
		}
	}
	for _, k := range []movegen.Bitboard{kings, 0, movegen.Valid} {
		for _, side := range []movegen.Color{movegen.White, movegen.Black} {
			var p movegen.Position
			p.Pieces[movegen.White], p.Pieces[movegen.Black] = white, movegen.Valid&^white
			p.Kings, p.Side = k, side
			full = append(full, p)
		}
	}
	for _, n := range nets {
		if a, b := n.EvaluateInputs(all[:]), n.evaluateSlow(all[:]); a != b {
			t.Fatalf("32 inputs: packed %d, definition %d", a, b)
		}
		for _, p := range full {
			var act [32]uint8
			k := NetFeatures(&p, &act)
			if a, b := n.Evaluate(&p), n.evaluateSlow(act[:k]); k != 32 || a != b {
				t.Fatalf("%s: %d inputs, Evaluate %d, definition %d", movegen.Brazilian.FormatFEN(&p, false), k, a, b)
			}
		}
		for _, v := range movegen.Variants {
			for _, p := range randomPositions(v, 20, 5) {
				var act [32]uint8
				k := NetFeatures(&p, &act)
				if k != p.Occupied().Count() {
					t.Fatalf("%s: %d inputs for %d pieces", v.FormatFEN(&p, false), k, p.Occupied().Count())
				}
				if a, b := n.Evaluate(&p), n.evaluateSlow(act[:k]); a != b {
					t.Fatalf("%s: packed %d, definition %d", v.FormatFEN(&p, false), a, b)
				}
			}
		}
	}
}

// TestNetworkFeaturesMatchDefinition: the inputs are the pieces seen from
// the side to move, square by square.
func TestNetworkFeaturesMatchDefinition(t *testing.T) {
	v := movegen.Russian
	for _, p := range randomPositions(v, 10, 6) {
		var act [32]uint8
		k := NetFeatures(&p, &act)
		want := map[uint8]bool{}
		for s := movegen.Square(0); s < 64; s++ {
			b := movegen.Bitboard(1) << s
			if b&movegen.Valid == 0 || b&p.Occupied() == 0 {
				continue
			}
			sq := s
			if p.Side == movegen.Black {
				sq = 34 - s // the turned board
			}
			piece := 0
			if b&p.Pieces[p.Side] == 0 {
				piece = 2
			}
			if b&p.Kings != 0 {
				piece++
			}
			want[uint8(piece*32+KingIndex(sq))] = true
		}
		if k != len(want) {
			t.Fatalf("%s: %d inputs, want %d", v.FormatFEN(&p, false), k, len(want))
		}
		for _, i := range act[:k] {
			if !want[i] {
				t.Fatalf("%s: input %d is not a piece", v.FormatFEN(&p, false), i)
			}
		}
	}
}

// TestNetworkColourSymmetry: with a network, a position and its
// colour-flipped twin still score the same.
func TestNetworkColourSymmetry(t *testing.T) {
	for _, v := range movegen.Variants {
		m := randomLayoutModel(v, Layout3, 8)
		m.Net = randomNetwork(8)
		plain := randomLayoutModel(v, Layout3, 8)
		differs := 0
		for _, p := range randomPositions(v, 30, 8) {
			q := p.Flip()
			a, b := m.Evaluate(v, &p), m.Evaluate(v, &q)
			if a != b {
				t.Fatalf("%s %s scores %d, its twin %d", v.Name, v.FormatFEN(&p, false), a, b)
			}
			if a != plain.Evaluate(v, &p) {
				differs++
			}
		}
		if differs == 0 {
			t.Fatalf("%s: the network never changed a score", v.Name)
		}
	}
}

// TestNetworkFile: a file with a network round trips; damage to it is
// refused by name.
func TestNetworkFile(t *testing.T) {
	m := randomLayoutModel(movegen.Portuguese, Layout3, 9)
	m.Net = randomNetwork(9)
	good := m.Marshal()
	back, err := Unmarshal(good, movegen.Portuguese)
	if err != nil {
		t.Fatal(err)
	}
	if back.Net == nil || !slicesEqual(back.Net.Params(), m.Net.Params()) || !slicesEqual(back.Params, m.Params) {
		t.Fatal("the network did not round trip")
	}
	// Rewrites the compressed stream of good's header with raw as its
	// contents.
	withRaw := func(hidden uint16, raw []byte) []byte {
		b := bytes.Clone(good[:headerSize])
		binary.LittleEndian.PutUint16(b[14:], hidden)
		var z bytes.Buffer
		zw := zlib.NewWriter(&z)
		zw.Write(raw)
		zw.Close()
		return resum(append(append(b, z.Bytes()...), 0, 0, 0, 0))
	}
	raw := appendInt16s(nil, m.Params)
	patterns := len(raw)
	raw = appendInt16s(raw, m.Net.Params())
	if _, err := Unmarshal(withRaw(NetHidden, raw), nil); err != nil {
		t.Fatalf("the rewritten good file: %v", err)
	}
	bad := bytes.Clone(raw)
	binary.LittleEndian.PutUint16(bad[patterns+2*5:], uint16(NetMaxW1+1))
	v1 := marshalV1(m)
	binary.LittleEndian.PutUint16(v1[14:], NetHidden)
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"no network in the stream", withRaw(NetHidden, raw[:patterns]), "compressed weights"},
		{"network cut short", withRaw(NetHidden, raw[:len(raw)-2]), "compressed weights"},
		{"a network the header does not announce", withRaw(0, raw), "compressed weights"},
		{"other hidden units", withRaw(16, raw), "16 hidden units"},
		{"a first-layer value out of range", withRaw(NetHidden, bad), "network weight 5"},
		{"version 1", resum(v1), "version-1"},
	} {
		if _, err := Unmarshal(c.data, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// BenchmarkNetworkEvaluate is the network's own cost, from a position.
func BenchmarkNetworkEvaluate(b *testing.B) {
	v := movegen.Brazilian
	n := randomNetwork(1)
	p, _ := v.ParseFEN("W:W17,21,22,23,24,25,26,28,K30:B1,2,3,4,6,7,8,9,11,12,K14")
	s := 0
	for b.Loop() {
		s += n.Evaluate(&p)
	}
}

// FuzzNewNetwork: any values are either refused (a first-layer value out
// of range) or give a network whose Params are those values and whose
// fast path equals the definition.
func FuzzNewNetwork(f *testing.F) {
	for _, seed := range []uint64{1, 2} {
		f.Add(appendInt16s(nil, randomNetwork(seed).Params()))
	}
	f.Add([]byte{})
	positions := randomPositions(movegen.Russian, 3, 9)
	f.Fuzz(func(t *testing.T, data []byte) {
		// The bytes as little-endian values, cut or padded with zeros
		// to a network's count.
		params := make([]int16, NetParams)
		copy(params, decodeInt16s(data[:min(len(data), 2*NetParams)]))
		n, err := NewNetwork(params)
		if err != nil {
			return
		}
		if !slicesEqual(n.Params(), params) {
			t.Fatal("Params differ from the values given")
		}
		for _, p := range positions {
			var act [32]uint8
			k := NetFeatures(&p, &act)
			if a, b := n.Evaluate(&p), n.evaluateSlow(act[:k]); a != b {
				t.Fatalf("%s: Evaluate %d, definition %d", movegen.Russian.FormatFEN(&p, false), a, b)
			}
		}
	})
}
