package book

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/riodraughts/rio/internal/movegen"
)

// File layout, little-endian:
//
//	offset size  field
//	0      4     magic "RIOB"
//	4      2     format version (formatVersion)
//	6      2     the variant's PDN GameType
//	8      8     the variant's start position's hash (the Zobrist keys
//	             the book was built with: a book of other keys is refused)
//	16     4     count of records
//	20     4     reserved, 0
//	24     16*n  records sorted by (key, from, to, captured):
//	             key uint64, from uint8, to uint8 (squares as
//	             movegen.Square), captured uint32 (bitboard), score int16
//	             (hundredths of a man for the side to move in the
//	             position, Rio's search)
//	24+16n 4     CRC-32 (IEEE) of everything before it
const (
	magic         = "RIOB"
	formatVersion = 1
	headerSize    = 24
	recordSize    = 16
)

// maxRecords bounds what a file may claim (a 64 MB book).
const maxRecords = 4 << 20

// Record is one scored move of one position.
type Record struct {
	Key      uint64
	From, To movegen.Square
	Captured movegen.Bitboard
	Score    int16
}

// matches reports whether m is the record's move.
func (r Record) matches(m movegen.Move) bool {
	return m.From() == r.From && m.To() == r.To && m.Captured() == r.Captured
}

func compareRecords(a, b Record) int {
	switch {
	case a.Key != b.Key:
		return cmpU64(a.Key, b.Key)
	case a.From != b.From:
		return int(a.From) - int(b.From)
	case a.To != b.To:
		return int(a.To) - int(b.To)
	}
	return cmpU64(uint64(a.Captured), uint64(b.Captured))
}

func cmpU64(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Encode writes the records (sorted here) of variant v as a book file.
func Encode(w io.Writer, v *movegen.Variant, records []Record) error {
	recs := slices.Clone(records)
	slices.SortFunc(recs, compareRecords)
	var buf bytes.Buffer
	buf.WriteString(magic)
	var h [headerSize - 4]byte
	binary.LittleEndian.PutUint16(h[0:], formatVersion)
	binary.LittleEndian.PutUint16(h[2:], uint16(v.GameType))
	start := v.Start()
	binary.LittleEndian.PutUint64(h[4:], start.Hash)
	binary.LittleEndian.PutUint32(h[12:], uint32(len(recs)))
	buf.Write(h[:])
	var r [recordSize]byte
	for _, rec := range recs {
		binary.LittleEndian.PutUint64(r[0:], rec.Key)
		r[8], r[9] = byte(rec.From), byte(rec.To)
		binary.LittleEndian.PutUint32(r[10:], uint32(rec.Captured))
		binary.LittleEndian.PutUint16(r[14:], uint16(rec.Score))
		buf.Write(r[:])
	}
	binary.LittleEndian.PutUint32(r[:4], crc32.ChecksumIEEE(buf.Bytes()))
	buf.Write(r[:4])
	_, err := w.Write(buf.Bytes())
	return err
}

// Decode reads a book file of variant v; any damage is an error naming
// it.
func Decode(data []byte, v *movegen.Variant) ([]Record, error) {
	if len(data) < headerSize+4 {
		return nil, fmt.Errorf("%d bytes: too short for a book", len(data))
	}
	if string(data[:4]) != magic {
		return nil, errors.New("not a Rio book (no RIOB header)")
	}
	if ver := binary.LittleEndian.Uint16(data[4:]); ver != formatVersion {
		return nil, fmt.Errorf("book format version %d, this build reads %d", ver, formatVersion)
	}
	if gt := int(binary.LittleEndian.Uint16(data[6:])); gt != v.GameType {
		return nil, fmt.Errorf("a book of GameType %d, not %s (%d)", gt, v.Name, v.GameType)
	}
	start := v.Start()
	if binary.LittleEndian.Uint64(data[8:]) != start.Hash {
		return nil, errors.New("the book was built with other position keys (another version of Rio): rebuild it")
	}
	n := binary.LittleEndian.Uint32(data[16:])
	if n > maxRecords || len(data) != headerSize+int(n)*recordSize+4 {
		return nil, fmt.Errorf("%d bytes for %d records: truncated or damaged", len(data), n)
	}
	body := len(data) - 4
	if crc32.ChecksumIEEE(data[:body]) != binary.LittleEndian.Uint32(data[body:]) {
		return nil, errors.New("checksum mismatch: the book is damaged")
	}
	recs := make([]Record, n)
	for i := range recs {
		r := data[headerSize+i*recordSize:]
		recs[i] = Record{
			Key:  binary.LittleEndian.Uint64(r[0:]),
			From: movegen.Square(r[8]), To: movegen.Square(r[9]),
			Captured: movegen.Bitboard(binary.LittleEndian.Uint32(r[10:])),
			Score:    int16(binary.LittleEndian.Uint16(r[14:])),
		}
		if i > 0 && compareRecords(recs[i-1], recs[i]) >= 0 {
			return nil, fmt.Errorf("record %d out of order: damaged", i)
		}
	}
	return recs, nil
}

// Load reads the book file at path for variant v.
func Load(path string, v *movegen.Variant) (*Book, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	recs, err := Decode(data, v)
	if err != nil {
		return nil, fmt.Errorf("book %s: %w", path, err)
	}
	return &Book{Variant: v, records: recs}, nil
}

// Save writes the records to path through a temporary file, so that an
// interrupted write leaves the previous book.
func Save(path string, v *movegen.Variant, records []Record) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := Encode(tmp, v, records); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
