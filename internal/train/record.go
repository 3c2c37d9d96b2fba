package train

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
)

// RecordSize is the size in bytes of one training position on disk.
//
// Layout, little-endian:
//
//	bytes  0-3   white pieces, bit k = STD square k+1 (movegen's rows without ghost bits)
//	bytes  4-7   black pieces, same layout
//	bytes  8-11  kings of both colours, same layout
//	byte   12    bit 0: black to move; bits 1-2: the game's result for White
//	             (0 loss, 1 draw, 2 win); bit 3: the first position written of its game;
//	             bit 4: score only (a random move came later in the game, so its
//	             result does not judge this position: the fit uses the score alone)
//	byte   13    the variant's PDN GameType (26 brazilian, 25 russian, 28 portuguese)
//	bytes 14-15  the search score, int16, hundredths of a man for the side to move
//
// Records are written a whole game at a time, so files append and
// concatenate: a shard's file is a run of games, and shards joined with cat
// are a valid file.
const RecordSize = 16

// Record is one training position: a quiet position of a self-play game,
// that game's result and the search score the mover saw.
type Record struct {
	Pos movegen.Position
	// Result is the game's result (WhiteWins, BlackWins or Draw).
	Result game.Result
	// Score is the search score in hundredths of a man, side to move's view.
	Score int16
	// First marks the first record of its game.
	First bool
	// ScoreOnly marks a position played before a random move of its game
	// (selfplay --random-moves): the result judges the random move too,
	// so a fit takes its target from Score alone.
	ScoreOnly bool
	// GameType is the variant's PDN GameType.
	GameType uint8
}

// compact packs a bitboard into 32 bits: the ghost layout's bits 8, 17 and
// 26 are dropped, so bit k is STD square k+1.
func compact(b movegen.Bitboard) uint32 {
	return uint32(b&0xFF | b>>1&0xFF00 | b>>2&0xFF0000 | b>>3&0xFF000000)
}

// expand is the inverse of compact.
func expand(x uint32) movegen.Bitboard {
	b := movegen.Bitboard(x)
	return b&0xFF | (b&0xFF00)<<1 | (b&0xFF0000)<<2 | (b&0xFF000000)<<3
}

// resultCode is the two-bit code of a result for White.
func resultCode(r game.Result) byte {
	switch r {
	case game.WhiteWins:
		return 2
	case game.BlackWins:
		return 0
	}
	return 1
}

// Append appends the 16 bytes of r to buf.
func (r *Record) Append(buf []byte) []byte {
	var b [RecordSize]byte
	binary.LittleEndian.PutUint32(b[0:], compact(r.Pos.Pieces[movegen.White]))
	binary.LittleEndian.PutUint32(b[4:], compact(r.Pos.Pieces[movegen.Black]))
	binary.LittleEndian.PutUint32(b[8:], compact(r.Pos.Kings))
	flags := resultCode(r.Result) << 1
	if r.Pos.Side == movegen.Black {
		flags |= 1
	}
	if r.First {
		flags |= 8
	}
	if r.ScoreOnly {
		flags |= 16
	}
	b[12] = flags
	b[13] = r.GameType
	binary.LittleEndian.PutUint16(b[14:], uint16(r.Score))
	return append(buf, b[:]...)
}

// Decode reads one record from b (RecordSize bytes), checking that it
// describes a position the rules allow.
func Decode(b []byte) (Record, error) {
	var r Record
	if len(b) < RecordSize {
		return r, fmt.Errorf("record of %d bytes, want %d", len(b), RecordSize)
	}
	w := expand(binary.LittleEndian.Uint32(b[0:]))
	bl := expand(binary.LittleEndian.Uint32(b[4:]))
	k := expand(binary.LittleEndian.Uint32(b[8:]))
	flags := b[12]
	switch {
	case w&bl != 0:
		return r, errors.New("a square holds both colours")
	case k&^(w|bl) != 0:
		return r, errors.New("a king on an empty square")
	case flags&0xE0 != 0:
		return r, fmt.Errorf("unknown flag bits %#x", flags)
	}
	r.Pos.Pieces = [2]movegen.Bitboard{w, bl}
	r.Pos.Kings = k
	if flags&1 != 0 {
		r.Pos.Side = movegen.Black
	}
	switch flags >> 1 & 3 {
	case 0:
		r.Result = game.BlackWins
	case 1:
		r.Result = game.Draw
	case 2:
		r.Result = game.WhiteWins
	default:
		return r, errors.New("result code 3")
	}
	// Men on their promotion row cannot exist.
	if w&^k&movegen.Row0 != 0 || bl&^k&movegen.Row7 != 0 {
		return r, errors.New("a man on its promotion row")
	}
	r.Pos.Hash = r.Pos.ComputeHash()
	r.First = flags&8 != 0
	r.ScoreOnly = flags&16 != 0
	r.GameType = b[13]
	r.Score = int16(binary.LittleEndian.Uint16(b[14:]))
	return r, nil
}

// ReadAll reads every record of r for variant v. A trailing partial
// record, a bad record or one of another variant is an error naming its
// position in the stream.
func ReadAll(r io.Reader, v *movegen.Variant) ([]Record, error) {
	var out []Record
	buf := make([]byte, 1<<16*RecordSize)
	for n := 0; ; {
		k, err := io.ReadFull(r, buf)
		for off := 0; off+RecordSize <= k; off += RecordSize {
			rec, derr := Decode(buf[off : off+RecordSize])
			if derr != nil {
				return out, fmt.Errorf("record %d: %w", n+1, derr)
			}
			if int(rec.GameType) != v.GameType {
				return out, fmt.Errorf("record %d: GameType %d, not %s (%d)", n+1, rec.GameType, v.Name, v.GameType)
			}
			out = append(out, rec)
			n++
		}
		if k%RecordSize != 0 && (err == io.ErrUnexpectedEOF || err == io.EOF) {
			return out, fmt.Errorf("truncated: %d bytes after record %d (records are %d bytes)", k%RecordSize, n, RecordSize)
		}
		switch err {
		case nil:
			continue
		case io.EOF, io.ErrUnexpectedEOF:
			return out, nil
		default:
			return out, err
		}
	}
}
