package eval

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
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

func TestWeightsFileRoundTrip(t *testing.T) {
	for i, v := range movegen.Variants {
		l := Layouts[i%len(Layouts)]
		m := randomLayoutModel(v, l, 9)
		data := m.Marshal()
		if len(data) != l.FileSize() {
			t.Fatalf("%d bytes, want %d", len(data), l.FileSize())
		}
		back, err := Unmarshal(data, v)
		if err != nil {
			t.Fatal(err)
		}
		if back.Variant != v || back.Layout != l || !slicesEqual(back.Params, m.Params) {
			t.Fatalf("%s: round trip changed the weights", v.Name)
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
		testRefused(t, randomLayoutModel(movegen.Brazilian, l, 10).Marshal())
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
		{"version", mod(func(b []byte) []byte { b[4] = 2; return resum(b) }), nil, "format version 2"},
		{"layout", mod(func(b []byte) []byte { b[7] = 9; return resum(b) }), nil, "layout 9"},
		{"other layout", mod(func(b []byte) []byte { b[7] = 3 - b[7]; return resum(b) }), nil, "weights, layout"},
		{"count", mod(func(b []byte) []byte { b[8]++; return resum(b) }), nil, "weights, layout"},
		{"unit", mod(func(b []byte) []byte { b[12] = 3; return resum(b) }), nil, "unit"},
		{"reserved bytes", mod(func(b []byte) []byte { b[14] = 1; return resum(b) }), nil, "reserved header bytes"},
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

// FuzzReadModel: the reader never panics; whatever it accepts marshals
// back to the same bytes.
func FuzzReadModel(f *testing.F) {
	good := randomModel(movegen.Portuguese, 12).Marshal()
	f.Add(good)
	f.Add(good[:headerSize+4])
	f.Add(randomLayoutModel(movegen.Russian, Layout2, 13).Marshal())
	f.Add([]byte("RIOW"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ReadModel(bytes.NewReader(data), nil)
		if err != nil {
			return
		}
		if !bytes.Equal(m.Marshal(), data) {
			t.Fatal("accepted file does not marshal back to itself")
		}
	})
}
