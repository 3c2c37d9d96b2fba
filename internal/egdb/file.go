package egdb

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"

	"github.com/riodraughts/rio/internal/movegen"
)

// File layout (all integers little-endian):
//
//	offset  size  field
//	0       8     magic "RIOEGDB\x00"
//	8       2     format version (formatVersion)
//	10      1     variant name length n (at most 16)
//	11      16    variant name, zero-padded
//	27      4     material: us kings, us men, them kings, them men
//	31      1     1 if a distance section follows the values, else 0
//	32      8     positions N
//	40      ceil(N/4)   values, two bits per position (table.go)
//	...     N     distances, one byte per position (when flagged)
//	end-4   4     CRC-32 (IEEE) of every byte before it
const (
	magic         = "RIOEGDB\x00"
	formatVersion = 1
	headerSize    = 40
)

// FileName returns the name of the file of slice m of variant v.
func FileName(v *movegen.Variant, m Material) string {
	return fmt.Sprintf("%s-%s.egdb", v.Name, m)
}

// WriteTo writes t in the file format.
func (t *Table) WriteTo(w io.Writer) (int64, error) {
	var h [headerSize]byte
	copy(h[:], magic)
	binary.LittleEndian.PutUint16(h[8:], formatVersion)
	h[10] = byte(len(t.Variant.Name))
	copy(h[11:27], t.Variant.Name)
	h[27], h[28], h[29], h[30] = byte(t.M.UsKings), byte(t.M.UsMen), byte(t.M.ThemKings), byte(t.M.ThemMen)
	if t.dist != nil {
		h[31] = 1
	}
	binary.LittleEndian.PutUint64(h[32:], uint64(t.Size()))
	crc := crc32.NewIEEE()
	mw := io.MultiWriter(w, crc)
	var n int64
	for _, part := range [][]byte{h[:], t.wdl, t.dist} {
		k, err := mw.Write(part)
		n += int64(k)
		if err != nil {
			return n, err
		}
	}
	k, err := w.Write(binary.LittleEndian.AppendUint32(nil, crc.Sum32()))
	return n + int64(k), err
}

// ReadTable reads a table written by WriteTo. Anything that is not exactly
// such a file (wrong magic, version, variant or size, truncated, extra
// bytes, a checksum mismatch, an impossible value) is an error.
func ReadTable(data []byte) (*Table, error) {
	if len(data) < headerSize+4 {
		return nil, fmt.Errorf("truncated: %d bytes, a table has at least %d", len(data), headerSize+4)
	}
	if string(data[:8]) != magic {
		return nil, errors.New("not a Rio endgame table (bad magic)")
	}
	if ver := binary.LittleEndian.Uint16(data[8:]); ver != formatVersion {
		return nil, fmt.Errorf("format version %d, this build reads %d", ver, formatVersion)
	}
	nameLen := int(data[10])
	if nameLen > 16 {
		return nil, fmt.Errorf("variant name of %d bytes", nameLen)
	}
	v := movegen.VariantByName(string(data[11 : 11+nameLen]))
	if v == nil || v.Name != string(data[11:11+nameLen]) {
		return nil, fmt.Errorf("unknown variant %q", data[11:11+nameLen])
	}
	for _, b := range data[11+nameLen : 27] {
		if b != 0 {
			return nil, errors.New("bytes after the variant name are not zero")
		}
	}
	m := Material{int(data[27]), int(data[28]), int(data[29]), int(data[30])}
	if m.UsKings+m.UsMen == 0 || m.ThemKings+m.ThemMen == 0 || m.Pieces() > MaxPieces {
		return nil, fmt.Errorf("impossible material %v", m)
	}
	hasDist := data[31]
	if hasDist > 1 || (hasDist == 1) != (m.Pieces() <= DistPieces) {
		return nil, fmt.Errorf("distance flag %d for a %d-piece slice", hasDist, m.Pieces())
	}
	// The length must fit the declared count before anything is allocated.
	size := int64(binary.LittleEndian.Uint64(data[32:]) & (1<<40 - 1))
	want := headerSize + (size+3)/4 + int64(hasDist)*size + 4
	if int64(len(data)) != want {
		return nil, fmt.Errorf("%v: %d bytes, want %d for %d positions (truncated or padded)", m, len(data), want, size)
	}
	if got, n := binary.LittleEndian.Uint64(data[32:]), NewIndexer(m).Size(); got != uint64(n) {
		return nil, fmt.Errorf("%v: header says %d positions, the slice has %d", m, got, n)
	}
	t := newTable(v, m)
	body := data[:len(data)-4]
	if sum := binary.LittleEndian.Uint32(data[len(data)-4:]); crc32.ChecksumIEEE(body) != sum {
		return nil, fmt.Errorf("%v: checksum mismatch (corrupt file)", m)
	}
	copy(t.wdl, body[headerSize:])
	copy(t.dist, body[headerSize+len(t.wdl):])
	// Code 3 is no value: a byte holds one where both bits of a pair are
	// set (checked a byte at a time: large tables load in a blink).
	for k, b := range t.wdl {
		if b&(b>>1)&0x55 != 0 {
			return nil, fmt.Errorf("%v: invalid value near position %d", m, 4*k)
		}
	}
	for i := range int64(len(t.dist)) {
		// A draw has no distance; a win takes at least one ply.
		if c := t.code(i); c == wdlDraw && t.dist[i] != 0 || c == wdlWin && t.dist[i] == 0 {
			return nil, fmt.Errorf("%v: invalid distance at position %d", m, i)
		}
	}
	if last := size & 3; last != 0 && t.wdl[len(t.wdl)-1]>>(2*last) != 0 {
		return nil, fmt.Errorf("%v: stray bits after the last position", m)
	}
	return t, nil
}

// Dir is a Store of table files in one directory.
type Dir string

// Load reads the table of m if its file exists.
func (d Dir) Load(v *movegen.Variant, m Material) (*Table, error) {
	name := filepath.Join(string(d), FileName(v, m))
	fi, err := os.Stat(name)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	// The size is known from the slice: nothing else is read.
	n := NewIndexer(m).Size()
	want := headerSize + (n+3)/4 + 4
	if m.Pieces() <= DistPieces {
		if fi.Size() == want {
			// Rio kept no distances for 5 pieces before solver version 2.
			return nil, fmt.Errorf("%s: a table without distances, from an older Rio (build it again: engine egdb build --variant %s --pieces %d)", name, v.Name, m.Pieces())
		}
		want += n
	}
	if fi.Size() != want {
		return nil, fmt.Errorf("%s: %d bytes, want %d (truncated or not a table)", name, fi.Size(), want)
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	t, err := ReadTable(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if t.Variant != v || t.M != m {
		return nil, fmt.Errorf("%s: holds %s %v", name, t.Variant.Name, t.M)
	}
	return t, nil
}

// Save writes t to its file, through a temporary file renamed at the end so
// that an interrupted build never leaves a partial table under its name.
func (d Dir) Save(t *Table) error {
	var buf bytes.Buffer
	if _, err := t.WriteTo(&buf); err != nil {
		return err
	}
	name := filepath.Join(string(d), FileName(t.Variant, t.M))
	// A temporary file of its own, so that two processes saving the same
	// table (two engines sharing a cache) cannot mix their bytes.
	f, err := os.CreateTemp(string(d), FileName(t.Variant, t.M)+".*.tmp")
	if err != nil {
		return err
	}
	_, err = f.Write(buf.Bytes())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// Open loads every table of v with up to pieces pieces from dir. A
// missing or bad file is an error: a set with holes cannot be trusted (a
// capture would lead into the hole).
func Open(dir string, v *movegen.Variant, pieces int) (*DB, error) {
	db := newDB(v)
	db.Pieces = pieces
	for _, m := range Slices(pieces) {
		t, err := Dir(dir).Load(v, m)
		if err != nil {
			return nil, err
		}
		if t == nil {
			return nil, fmt.Errorf("%s: missing (build it with: engine egdb build --variant %s --pieces %d --dir %s)",
				filepath.Join(dir, FileName(v, m)), v.Name, pieces, dir)
		}
		db.put(t)
	}
	return db, nil
}
