package eval

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"

	"github.com/riodraughts/rio/internal/movegen"
)

// Weights file (one variant's learned weights), little-endian:
//
//	bytes 0-3    magic "RIOW"
//	bytes 4-5    format version: 1 (weights as they are) or 2 (zlib-compressed)
//	byte  6      the variant's PDN GameType (26 brazilian, 25 russian, 28 portuguese)
//	byte  7      feature layout (1 to 4: see layout.go)
//	bytes 8-11   count of weights (the layout's Params)
//	bytes 12-13  Unit: weights per hundredth of a man (16)
//	bytes 14-15  hidden units of the network that follows the weights: 0 (none)
//	             or NetHidden (32; version 2 only)
//	then count int16 weights: the opening phase's PhaseParams, then the endgame's,
//	     then, with a network, its NetParams int16 values (network.go)
//	     (version 2: all those bytes as one zlib stream; most pattern
//	     weights are 0, configurations never seen in training, so a
//	     layout-2 file of 2.8 MB shrinks several times)
//	last 4 bytes CRC-32 (IEEE) of everything before it
//
// Marshal writes version 2; both versions are read.
const (
	fileMagic   = "RIOW"
	FileVersion = 2
	headerSize  = 16
)

// FileSize is the size of a layout-1 weights file of version 1 (the
// weights as they are).
const FileSize = headerSize + 2*Params + 4

// maxFileSize bounds the size of any layout's file: its weights as they
// are, or compressed (zlib adds at most a few bytes per 16 KiB block to
// data that does not compress).
var maxFileSize = func() int {
	n := 0
	for _, l := range Layouts {
		n = max(n, l.FileSize())
	}
	n += 2 * NetParams
	return n + n/1024 + 64
}()

// Marshal returns the weights file of m (version 2, compressed).
func (m *Model) Marshal() []byte {
	buf := make([]byte, headerSize)
	copy(buf, fileMagic)
	binary.LittleEndian.PutUint16(buf[4:], FileVersion)
	buf[6] = byte(m.Variant.GameType)
	buf[7] = byte(m.Layout.ID)
	binary.LittleEndian.PutUint32(buf[8:], uint32(len(m.Params)))
	binary.LittleEndian.PutUint16(buf[12:], Unit)
	raw := appendInt16s(make([]byte, 0, 2*len(m.Params)+2*NetParams), m.Params)
	if m.Net != nil {
		binary.LittleEndian.PutUint16(buf[14:], NetHidden)
		raw = appendInt16s(raw, m.Net.Params())
	}
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	zw.Write(raw) // a bytes.Buffer does not fail
	zw.Close()
	buf = append(buf, z.Bytes()...)
	return binary.LittleEndian.AppendUint32(buf, crc32.ChecksumIEEE(buf))
}

// Unmarshal reads a weights file meant for variant v (nil: any variant).
func Unmarshal(data []byte, v *movegen.Variant) (*Model, error) {
	if len(data) < headerSize+4 {
		return nil, fmt.Errorf("truncated: %d bytes, a weights file has at least %d", len(data), headerSize+4)
	}
	if string(data[:4]) != fileMagic {
		return nil, fmt.Errorf("not a Rio weights file (magic %q, want %q)", data[:4], fileMagic)
	}
	ver := binary.LittleEndian.Uint16(data[4:])
	if ver != 1 && ver != 2 {
		return nil, fmt.Errorf("format version %d, this build reads versions 1 and 2", ver)
	}
	fv := variantOfGameType(int(data[6]))
	if fv == nil {
		return nil, fmt.Errorf("unknown variant (GameType %d)", data[6])
	}
	l := LayoutByID(int(data[7]))
	if l == nil {
		return nil, fmt.Errorf("feature layout %d, this build has layouts 1 to %d", data[7], len(Layouts))
	}
	count := binary.LittleEndian.Uint32(data[8:])
	if count != uint32(l.Params()) {
		return nil, fmt.Errorf("%d weights, layout %d has %d", count, l.ID, l.Params())
	}
	if want := l.FileSize(); ver == 1 && len(data) != want {
		if len(data) < want {
			return nil, fmt.Errorf("truncated: %d bytes, want %d", len(data), want)
		}
		return nil, fmt.Errorf("more than %d bytes (trailing data)", want)
	}
	if unit := binary.LittleEndian.Uint16(data[12:]); unit != Unit {
		return nil, fmt.Errorf("unit %d, want %d", unit, Unit)
	}
	hidden := binary.LittleEndian.Uint16(data[14:])
	switch {
	case hidden != 0 && hidden != NetHidden:
		return nil, fmt.Errorf("a network of %d hidden units, this build reads %d", hidden, NetHidden)
	case hidden != 0 && ver == 1:
		return nil, errors.New("a network in a version-1 file (networks come in version 2)")
	}
	netBytes := 0
	if hidden != 0 {
		netBytes = 2 * NetParams
	}
	body := data[:len(data)-4]
	if sum := binary.LittleEndian.Uint32(data[len(data)-4:]); sum != crc32.ChecksumIEEE(body) {
		return nil, errors.New("checksum mismatch: the file is truncated, corrupted or altered")
	}
	if v != nil && fv != v {
		return nil, fmt.Errorf("weights for %s, not %s", fv.Name, v.Name)
	}
	raw := body[headerSize:]
	if ver == 2 {
		br := bytes.NewReader(raw)
		zr, err := zlib.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("compressed weights: %v", err)
		}
		// At most one byte more than the weights: more is trailing data.
		raw, err = io.ReadAll(io.LimitReader(zr, int64(2*count)+int64(netBytes)+1))
		if err == nil {
			err = zr.Close()
		}
		switch {
		case err != nil:
			return nil, fmt.Errorf("compressed weights: %v", err)
		case len(raw) != int(2*count)+netBytes:
			return nil, fmt.Errorf("compressed weights: %d bytes, want %d", len(raw), int(2*count)+netBytes)
		case br.Len() != 0:
			return nil, fmt.Errorf("%d bytes after the compressed weights (trailing data)", br.Len())
		}
	}
	values := decodeInt16s(raw)
	m := NewLayoutModel(fv, l, values[:count:count])
	if netBytes != 0 {
		var err error
		if m.Net, err = NewNetwork(values[count:]); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// decodeInt16s reads little-endian int16 values, the file's order (an odd
// last byte is left out), the inverse of appendInt16s.
func decodeInt16s(raw []byte) []int16 {
	values := make([]int16, len(raw)/2)
	for i := range values {
		values[i] = int16(binary.LittleEndian.Uint16(raw[2*i:]))
	}
	return values
}

// appendInt16s appends values as little-endian int16, the file's order.
func appendInt16s(buf []byte, values []int16) []byte {
	for _, x := range values {
		buf = binary.LittleEndian.AppendUint16(buf, uint16(x))
	}
	return buf
}

// ReadModel reads a weights file from r for variant v (nil: any).
func ReadModel(r io.Reader, v *movegen.Variant) (*Model, error) {
	var buf bytes.Buffer
	// A file larger than any weights file is refused without reading it all.
	if _, err := io.Copy(&buf, io.LimitReader(r, int64(maxFileSize)+1)); err != nil {
		return nil, err
	}
	return Unmarshal(buf.Bytes(), v)
}

// LoadModel reads the weights file at path for variant v; errors name the
// file.
func LoadModel(path string, v *movegen.Variant) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("weights file %s: %w", path, err)
	}
	defer f.Close()
	m, err := ReadModel(f, v)
	if err != nil {
		return nil, fmt.Errorf("weights file %s: %w", path, err)
	}
	return m, nil
}

// Save writes m's weights file to path.
func (m *Model) Save(path string) error { return os.WriteFile(path, m.Marshal(), 0o644) }

func variantOfGameType(gt int) *movegen.Variant {
	for _, v := range movegen.Variants {
		if v.GameType == gt {
			return v
		}
	}
	return nil
}
