package eval

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riodraughts/rio/internal/movegen"
)

// resum rewrites the checksum of a weights file after a deliberate change,
// so that the check under test is the one that fires.
func resum(b []byte) []byte {
	binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.ChecksumIEEE(b[:len(b)-4]))
	return b
}

// marshalV1 writes m as a version-1 file (weights as they are), as older
// builds did.
func marshalV1(m *Model) []byte {
	buf := make([]byte, headerSize, m.Layout.FileSize())
	copy(buf, fileMagic)
	binary.LittleEndian.PutUint16(buf[4:], 1)
	buf[6] = byte(m.Variant.GameType)
	buf[7] = byte(m.Layout.ID)
	binary.LittleEndian.PutUint32(buf[8:], uint32(len(m.Params)))
	binary.LittleEndian.PutUint16(buf[12:], Unit)
	for _, x := range m.Params {
		buf = binary.LittleEndian.AppendUint16(buf, uint16(x))
	}
	return binary.LittleEndian.AppendUint32(buf, crc32.ChecksumIEEE(buf))
}

func TestWeightsFileRoundTrip(t *testing.T) {
	for i, v := range movegen.Variants {
		l := Layouts[i%len(Layouts)]
		m := randomLayoutModel(v, l, 9)
		v1 := marshalV1(m)
		if len(v1) != l.FileSize() {
			t.Fatalf("%d bytes, want %d", len(v1), l.FileSize())
		}
		for _, data := range [][]byte{m.Marshal(), v1} {
			back, err := Unmarshal(data, v)
			if err != nil {
				t.Fatal(err)
			}
			if back.Variant != v || back.Layout != l || !slicesEqual(back.Params, m.Params) || (back.Net == nil) != (m.Net == nil) || m.Net != nil && !slicesEqual(back.Net.Params(), m.Net.Params()) {
				t.Fatalf("%s: round trip changed the weights", v.Name)
			}
		}
		path := filepath.Join(t.TempDir(), v.Name+".rwt")
		if err := m.Save(path); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadModel(path, v); err != nil {
			t.Fatal(err)
		}
	}
}

func slicesEqual(a, b []int16) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestWeightsFileRefused: every kind of damage is refused with an error
// that says what is wrong.
func TestWeightsFileRefused(t *testing.T) {
	for _, l := range Layouts {
		m := randomLayoutModel(movegen.Brazilian, l, 10)
		testRefused(t, marshalV1(m))
		// Damage only a compressed file can have, its checksum made right.
		good := m.Marshal()
		z := good[headerSize : len(good)-4]
		short := randomLayoutModel(movegen.Brazilian, l, 10)
		short.Params = short.Params[:len(short.Params)-1]
		for _, c := range []struct {
			name string
			data []byte
			want string
		}{
			{"cut short", resum(append(bytes.Clone(good[:len(good)-100]), 0, 0, 0, 0)), "compressed weights"},
			{"trailing data", resum(append(append(bytes.Clone(good[:len(good)-4]), 1, 2, 3), 0, 0, 0, 0)), "trailing data"},
			{"not zlib", resum(append(append(bytes.Clone(good[:headerSize]), bytes.Repeat([]byte{7}, len(z))...), 0, 0, 0, 0)), "compressed weights"},
			{"flipped byte", func() []byte { b := bytes.Clone(good); b[headerSize+len(z)/2] ^= 0x10; return b }(), "checksum"},
			{"version 3", func() []byte { b := bytes.Clone(good); b[4] = 3; return resum(b) }(), "format version 3"},
		} {
			if _, err := Unmarshal(c.data, nil); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("layout %d, compressed, %s: %v, want %q", l.ID, c.name, err, c.want)
			}
		}
		// A stream of one weight too few for its header's count.
		b := bytes.Clone(short.Marshal())
		binary.LittleEndian.PutUint32(b[8:], uint32(l.Params()))
		if _, err := Unmarshal(resum(b), nil); err == nil || !strings.Contains(err.Error(), "compressed weights: ") {
			t.Errorf("layout %d: a stream short of its count: %v", l.ID, err)
		}
	}
}

func testRefused(t *testing.T, good []byte) {
	mod := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good)) }
	cases := []struct {
		name string
		data []byte
		v    *movegen.Variant
		want string
	}{
		{"empty", nil, nil, "truncated"},
		{"header only", good[:headerSize], nil, "truncated"},
		{"cut short", good[:len(good)-1000], nil, "truncated"},
		{"trailing data", append(bytes.Clone(good), 0), nil, "trailing"},
		{"magic", mod(func(b []byte) []byte { b[0] = 'X'; return resum(b) }), nil, "magic"},
		{"version", mod(func(b []byte) []byte { b[4] = 7; return resum(b) }), nil, "format version 7"},
		{"layout", mod(func(b []byte) []byte { b[7] = 9; return resum(b) }), nil, "layout 9"},
		{"other layout", mod(func(b []byte) []byte { b[7] = 1 + b[7]%2; return resum(b) }), nil, "weights, layout"},
		{"count", mod(func(b []byte) []byte { b[8]++; return resum(b) }), nil, "weights, layout"},
		{"unit", mod(func(b []byte) []byte { b[12] = 3; return resum(b) }), nil, "unit"},
		{"hidden units", mod(func(b []byte) []byte { b[14] = 1; return resum(b) }), nil, "1 hidden units"},
		{"unknown variant", mod(func(b []byte) []byte { b[6] = 20; return resum(b) }), nil, "unknown variant"},
		{"wrong variant", good, movegen.Russian, "weights for brazilian, not russian"},
		{"flipped weight byte", mod(func(b []byte) []byte { b[headerSize+12345] ^= 0x10; return b }), nil, "checksum"},
		{"flipped checksum byte", mod(func(b []byte) []byte { b[len(b)-1] ^= 1; return b }), nil, "checksum"},
	}
	for _, c := range cases {
		_, err := Unmarshal(c.data, c.v)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, err, c.want)
		}
	}
	// Any single flipped byte is caught.
	for i := 0; i < len(good); i += len(good)/300 + 1 {
		b := bytes.Clone(good)
		b[i] ^= 0x40
		if _, err := Unmarshal(b, nil); err == nil {
			t.Fatalf("byte %d flipped: accepted", i)
		}
	}
	// A file error names the file.
	dir := t.TempDir()
	path := filepath.Join(dir, "bad.rwt")
	os.WriteFile(path, good[:100], 0o644)
	if _, err := LoadModel(path, nil); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("error %v does not name %s", err, path)
	}
	if _, err := LoadModel(filepath.Join(dir, "missing.rwt"), nil); err == nil || !strings.Contains(err.Error(), "missing.rwt") {
		t.Errorf("missing file: %v", err)
	}
}

func TestSelect(t *testing.T) {
	v := movegen.Russian
	p := v.Start()
	if fn, err := Select(v, "classic", ""); err != nil || fn(v, &p) != Evaluate(v, &p) {
		t.Errorf("classic: %v", err)
	}
	if fn, err := Select(v, "learned", ""); err != nil || fn(v, &p) != Builtin(v).Evaluate(v, &p) {
		t.Errorf("learned: %v", err)
	}
	path := filepath.Join(t.TempDir(), "w.rwt")
	randomModel(movegen.Brazilian, 11).Save(path)
	if _, err := Select(v, "learned", path); err == nil || !strings.Contains(err.Error(), "not russian") {
		t.Errorf("a brazilian file for russian: %v", err)
	}
	if _, err := Select(v, "classic", path); err == nil {
		t.Error("classic with a weights file accepted")
	}
	if _, err := Select(v, "neural", ""); err == nil {
		t.Error("unknown eval accepted")
	}
}

// TestBuiltinWeights: the embedded files load, one per variant.
func TestBuiltinWeights(t *testing.T) {
	for _, v := range movegen.Variants {
		if m := Builtin(v); m.Variant != v {
			t.Errorf("%s: built-in weights of %s", v.Name, m.Variant.Name)
		}
	}
}

// FuzzReadModel: the reader never panics; whatever it accepts reads back
// from its own file as the same model.
func FuzzReadModel(f *testing.F) {
	// Seeds of every layout, one with a network, one of version 1 and a
	// truncated one. Their weights are sparse, so the version-2 files
	// compress to a few kilobytes (the version-1 file holds its 393,788
	// bytes as they are): the fuzzer mutates them quickly, where files of
	// random weights (megabytes) ran a handful of inputs a minute.
	good := sparseModel(movegen.Portuguese, Layout1, 12).Marshal()
	f.Add(good)
	f.Add(good[:headerSize+4])
	f.Add(marshalV1(sparseModel(movegen.Brazilian, Layout1, 14)))
	f.Add(sparseModel(movegen.Russian, Layout2, 13).Marshal())
	f.Add(sparseModel(movegen.Brazilian, Layout3, 15).Marshal())
	f.Add(sparseModel(movegen.Portuguese, Layout4, 16).Marshal())
	withNet := sparseModel(movegen.Russian, Layout3, 17)
	withNet.Net = randomNetwork(17)
	f.Add(withNet.Marshal())
	f.Add([]byte("RIOW"))
	f.Fuzz(func(t *testing.T, data []byte) {
		roundTrip(t, data)
		// Nearly every mutation breaks the checksum, which the reader
		// checks first; the same bytes with their checksum rewritten
		// reach the header's fields, a version-1 file's values and the
		// zlib stream (whose own Adler-32 still refuses altered values:
		// FuzzNewNetwork fuzzes a network's values directly).
		if len(data) >= headerSize+4 {
			roundTrip(t, resum(bytes.Clone(data)))
		}
	})
}

// roundTrip reads data as a weights file and, if it is accepted, checks
// that the model's own file reads back to the same model.
func roundTrip(t *testing.T, data []byte) {
	m, err := ReadModel(bytes.NewReader(data), nil)
	if err != nil {
		return
	}
	back, err := Unmarshal(m.Marshal(), nil)
	if err != nil || back.Layout != m.Layout || back.Variant != m.Variant || !slicesEqual(back.Params, m.Params) || (back.Net == nil) != (m.Net == nil) || m.Net != nil && !slicesEqual(back.Net.Params(), m.Net.Params()) {
		t.Fatalf("an accepted file's model does not round trip: %v", err)
	}
}

// sparseModel is a model of layout l with one weight in a thousand set at
// random, the rest zero.
func sparseModel(v *movegen.Variant, l *FeatureLayout, seed uint64) *Model {
	rng := rand.New(rand.NewPCG(seed, 9))
	p := make([]int16, l.Params())
	for range len(p) / 1000 {
		p[rng.IntN(len(p))] = int16(rng.IntN(2001) - 1000)
	}
	return NewLayoutModel(v, l, p)
}
