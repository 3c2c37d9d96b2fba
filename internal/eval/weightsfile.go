package eval

import (
	"bytes"
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
//	bytes 4-5    format version (1)
//	byte  6      the variant's PDN GameType (26 brazilian, 25 russian, 28 portuguese)
//	byte  7      feature layout (1 or 2: see layout.go)
//	bytes 8-11   count of weights (the layout's Params)
//	bytes 12-13  Unit: weights per hundredth of a man (16)
//	bytes 14-15  zero
//	then count int16 weights: the opening phase's PhaseParams, then the endgame's
//	last 4 bytes CRC-32 (IEEE) of everything before it
const (
	fileMagic   = "RIOW"
	FileVersion = 1
	headerSize  = 16
)

// FileSize is the size of a layout-1 weights file.
const FileSize = headerSize + 2*Params + 4

// maxFileSize is the size of the largest layout's file.
var maxFileSize = func() int {
	n := 0
	for _, l := range Layouts {
		n = max(n, l.FileSize())
	}
	return n
}()

// Marshal returns the weights file of m.
func (m *Model) Marshal() []byte {
	buf := make([]byte, headerSize, m.Layout.FileSize())
	copy(buf, fileMagic)
	binary.LittleEndian.PutUint16(buf[4:], FileVersion)
	buf[6] = byte(m.Variant.GameType)
	buf[7] = byte(m.Layout.ID)
	binary.LittleEndian.PutUint32(buf[8:], uint32(len(m.Params)))
	binary.LittleEndian.PutUint16(buf[12:], Unit)
	for _, x := range m.Params {
		buf = binary.LittleEndian.AppendUint16(buf, uint16(x))
	}
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
	if ver := binary.LittleEndian.Uint16(data[4:]); ver != FileVersion {
		return nil, fmt.Errorf("format version %d, this build reads version %d", ver, FileVersion)
	}
	fv := variantOfGameType(int(data[6]))
	if fv == nil {
		return nil, fmt.Errorf("unknown variant (GameType %d)", data[6])
	}
	l := LayoutByID(int(data[7]))
	if l == nil {
		return nil, fmt.Errorf("feature layout %d, this build has layouts 1 and 2", data[7])
	}
	count := binary.LittleEndian.Uint32(data[8:])
	if count != uint32(l.Params()) {
		return nil, fmt.Errorf("%d weights, layout %d has %d", count, l.ID, l.Params())
	}
	if want := l.FileSize(); len(data) != want {
		if len(data) < want {
			return nil, fmt.Errorf("truncated: %d bytes, want %d", len(data), want)
		}
		return nil, fmt.Errorf("more than %d bytes (trailing data)", want)
	}
	if unit := binary.LittleEndian.Uint16(data[12:]); unit != Unit {
		return nil, fmt.Errorf("unit %d, want %d", unit, Unit)
	}
	if r := binary.LittleEndian.Uint16(data[14:]); r != 0 {
		return nil, fmt.Errorf("reserved header bytes 14-15 are %#x, want 0", r)
	}
	body := data[:len(data)-4]
	if sum := binary.LittleEndian.Uint32(data[len(data)-4:]); sum != crc32.ChecksumIEEE(body) {
		return nil, errors.New("checksum mismatch: the file is corrupted or was altered")
	}
	if v != nil && fv != v {
		return nil, fmt.Errorf("weights for %s, not %s", fv.Name, v.Name)
	}
	params := make([]int16, count)
	for i := range params {
		params[i] = int16(binary.LittleEndian.Uint16(body[headerSize+2*i:]))
	}
	return NewLayoutModel(fv, l, params), nil
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
