package train

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
)

// randomPositions returns the positions of games of random legal moves
// from v's start, every ply of each game (the final one included).
func randomPositions(v *movegen.Variant, rng *rand.Rand, games, maxPlies int) []movegen.Position {
	var out []movegen.Position
	var buf [movegen.MaxMoves]movegen.Move
	for range games {
		p := v.Start()
		for ply := 0; ; ply++ {
			out = append(out, p)
			moves := v.Generate(&p, buf[:0])
			if len(moves) == 0 || ply >= maxPlies {
				break
			}
			p = p.Play(moves[rng.IntN(len(moves))])
		}
	}
	return out
}

var results = []game.Result{game.WhiteWins, game.Draw, game.BlackWins}

// randomRecord makes a record of p with a random result, score, First
// and ScoreOnly flags; scores are drawn from the extremes as well as from a normal range.
func randomRecord(v *movegen.Variant, p movegen.Position, rng *rand.Rand) Record {
	var score int16
	switch rng.IntN(4) {
	case 0:
		score = []int16{-32768, -32767, -1, 0, 1, 32767}[rng.IntN(6)]
	case 1:
		score = int16(rng.Uint32())
	default:
		score = int16(rng.IntN(2001) - 1000)
	}
	return Record{
		Pos:       p,
		Result:    results[rng.IntN(len(results))],
		Score:     score,
		First:     rng.IntN(2) == 0,
		ScoreOnly: rng.IntN(3) == 0,
		GameType:  uint8(v.GameType),
	}
}

// encodeAll appends the records of recs.
func encodeAll(recs []Record) []byte {
	var b []byte
	for i := range recs {
		b = recs[i].Append(b)
	}
	return b
}

func TestCompactExpand(t *testing.T) {
	seen := map[uint32]bool{}
	for n := 1; n <= 32; n++ {
		sq := movegen.STD.Square(n)
		c := compact(sq.Bit())
		if c != 1<<(n-1) {
			t.Errorf("STD square %d compacts to %#x, want bit %d", n, c, n-1)
		}
		if e := expand(c); e != sq.Bit() {
			t.Errorf("STD square %d: expand(compact) = %#x, want %#x", n, e, sq.Bit())
		}
		seen[c] = true
	}
	if len(seen) != 32 {
		t.Errorf("%d distinct compact squares, want 32", len(seen))
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 1000 {
		x := rng.Uint32()
		if e := expand(x); e&^movegen.Valid != 0 || compact(e) != x {
			t.Fatalf("expand(%#x) = %#x: off the board or not compact's inverse", x, e)
		}
	}
}

// TestRecordLayout holds Append to the byte layout documented on
// RecordSize, on a position whose encoding can be worked out by hand.
func TestRecordLayout(t *testing.T) {
	v := movegen.Brazilian
	p, err := v.ParseFEN("B:W21,22,K32:B1,K5,12")
	if err != nil {
		t.Fatal(err)
	}
	r := Record{Pos: p, Result: game.WhiteWins, Score: -300, First: true, GameType: uint8(v.GameType)}
	b := r.Append([]byte{0xAA})
	if len(b) != 1+RecordSize || b[0] != 0xAA {
		t.Fatalf("Append gave %d bytes %x, want the prefix and %d more", len(b), b, RecordSize)
	}
	b = b[1:]
	bit := func(ns ...int) uint32 {
		var x uint32
		for _, n := range ns {
			x |= 1 << (n - 1)
		}
		return x
	}
	want := make([]byte, RecordSize)
	binary.LittleEndian.PutUint32(want[0:], bit(21, 22, 32))
	binary.LittleEndian.PutUint32(want[4:], bit(1, 5, 12))
	binary.LittleEndian.PutUint32(want[8:], bit(5, 32))
	want[12] = 1 | 2<<1 | 8
	want[13] = 26
	binary.LittleEndian.PutUint16(want[14:], uint16(0x10000-300))
	if !bytes.Equal(b, want) {
		t.Errorf("record\n got %x\nwant %x", b, want)
	}
	for _, c := range []struct {
		res  game.Result
		code byte
	}{{game.BlackWins, 0}, {game.Draw, 1}, {game.WhiteWins, 2}} {
		r := Record{Pos: v.Start(), Result: c.res}
		if got := r.Append(nil)[12] >> 1 & 3; got != c.code {
			t.Errorf("result %v: code %d, want %d", c.res, got, c.code)
		}
	}
}

func TestRecordRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, v := range movegen.Variants {
		positions := randomPositions(v, rng, 30, 200)
		kings, black := 0, 0
		for _, p := range positions {
			if p.Kings != 0 {
				kings++
			}
			if p.Side == movegen.Black {
				black++
			}
			r := randomRecord(v, p, rng)
			b := r.Append(nil)
			if len(b) != RecordSize {
				t.Fatalf("%s: Append wrote %d bytes", v.Name, len(b))
			}
			got, err := Decode(b)
			if err != nil {
				t.Fatalf("%s %s: Decode: %v", v.Name, v.FormatFEN(&p, false), err)
			}
			if got != r {
				t.Fatalf("%s %s: round trip\n got %+v\nwant %+v", v.Name, v.FormatFEN(&p, false), got, r)
			}
			if got.Pos.Hash != p.ComputeHash() {
				t.Fatalf("%s: decoded hash %#x, want %#x", v.Name, got.Pos.Hash, p.ComputeHash())
			}
			if again := got.Append(nil); !bytes.Equal(again, b) {
				t.Fatalf("%s: re-encoded %x, first %x", v.Name, again, b)
			}
		}
		// The random games must have exercised what the format encodes.
		if kings == 0 || black == 0 || black == len(positions) {
			t.Errorf("%s: %d positions, %d with kings, %d black to move: the test saw too little", v.Name, len(positions), kings, black)
		}
	}
	// Every result, both First and ScoreOnly values and every side, explicitly.
	p := movegen.Brazilian.Start()
	for _, res := range results {
		for _, first := range []bool{false, true} {
			for _, only := range []bool{false, true} {
				for _, side := range []movegen.Color{movegen.White, movegen.Black} {
					q := p
					q.Side = side
					q.Hash = q.ComputeHash()
					r := Record{Pos: q, Result: res, Score: -12345, First: first, ScoreOnly: only, GameType: 26}
					b := r.Append(nil)
					if got := b[12]&16 != 0; got != only {
						t.Errorf("ScoreOnly %v written as flag bit 4 = %v", only, got)
					}
					got, err := Decode(b)
					if err != nil || got != r {
						t.Errorf("result %v first %v score-only %v side %v: got %+v, %v; want %+v", res, first, only, side, got, err, r)
					}
				}
			}
		}
	}
}

// goodRecord returns the encoding of a valid brazilian record of the
// position fen, to be spoiled.
func goodRecord(t *testing.T, fen string) []byte {
	t.Helper()
	p, err := movegen.Brazilian.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	r := Record{Pos: p, Result: game.Draw, Score: 7, GameType: 26}
	b := r.Append(nil)
	if _, err := Decode(b); err != nil {
		t.Fatalf("%s: the unspoiled record does not decode: %v", fen, err)
	}
	return b
}

func TestDecodeRejects(t *testing.T) {
	set := func(b []byte, word, n int) { // put STD square n into word 0 (white), 1 (black) or 2 (kings)
		x := binary.LittleEndian.Uint32(b[4*word:])
		binary.LittleEndian.PutUint32(b[4*word:], x|1<<(n-1))
	}
	cases := []struct {
		name  string
		fen   string
		spoil func(b []byte)
		want  string
	}{
		{"both colours", "W:W21-32:B1-12", func(b []byte) { set(b, 1, 21) }, "both colours"},
		{"both colours on a king", "W:WK18:BK14", func(b []byte) { set(b, 0, 14) }, "both colours"},
		{"king on an empty square", "W:W21-32:B1-12", func(b []byte) { set(b, 2, 16) }, "king on an empty square"},
		{"white man on row 0", "W:W21:B12", func(b []byte) { set(b, 0, 3) }, "promotion row"},
		{"black man on row 7", "W:W21:B12", func(b []byte) { set(b, 1, 30) }, "promotion row"},
		{"result code 3", "W:W21:B12", func(b []byte) { b[12] |= 3 << 1 }, "result code 3"},
		{"flag bit 5", "W:W21:B12", func(b []byte) { b[12] |= 0x20 }, "flag bits"},
		{"flag bit 6", "W:W21:B12", func(b []byte) { b[12] |= 0x40 }, "flag bits"},
		{"flag bit 7", "W:W21:B12", func(b []byte) { b[12] |= 0x80 }, "flag bits"},
	}
	for _, c := range cases {
		b := goodRecord(t, c.fen)
		c.spoil(b)
		if r, err := Decode(b); err == nil {
			t.Errorf("%s: decoded %+v, want an error", c.name, r)
		} else if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %q, want one about %q", c.name, err, c.want)
		}
	}
	// Kings may stand on any row, men on their own back row.
	for _, fen := range []string{"W:WK1,K2,29:BK30,K31,4", "B:WK3:BK32"} {
		goodRecord(t, fen)
	}
	// Too short.
	b := goodRecord(t, "W:W21:B12")
	if _, err := Decode(b[:RecordSize-1]); err == nil {
		t.Errorf("Decode accepted %d bytes", RecordSize-1)
	}
}

func TestReadAll(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, v := range movegen.Variants {
		var parts [][]byte
		var all []Record
		for range 4 {
			var recs []Record
			for _, p := range randomPositions(v, rng, 2, 60) {
				recs = append(recs, randomRecord(v, p, rng))
			}
			all = append(all, recs...)
			parts = append(parts, encodeAll(recs))
		}
		parts = append(parts, nil) // an empty file joins too
		var joined []byte
		var fromParts []Record
		for _, b := range parts {
			got, err := ReadAll(bytes.NewReader(b), v)
			if err != nil {
				t.Fatalf("%s: %v", v.Name, err)
			}
			fromParts = append(fromParts, got...)
			joined = append(joined, b...)
		}
		if !reflect.DeepEqual(fromParts, all) {
			t.Fatalf("%s: the parts read back differ from what was written", v.Name)
		}
		for name, r := range map[string]io.Reader{
			"whole":    bytes.NewReader(joined),
			"one byte": iotest.OneByteReader(bytes.NewReader(joined)),
			"half":     iotest.HalfReader(bytes.NewReader(joined)),
			"data+err": iotest.DataErrReader(bytes.NewReader(joined)),
		} {
			got, err := ReadAll(r, v)
			if err != nil {
				t.Fatalf("%s %s: %v", v.Name, name, err)
			}
			if !reflect.DeepEqual(got, all) {
				t.Fatalf("%s %s: %d records read from the joined parts, not the %d of the parts", v.Name, name, len(got), len(all))
			}
		}
	}
	if got, err := ReadAll(bytes.NewReader(nil), movegen.Russian); err != nil || len(got) != 0 {
		t.Errorf("empty stream: %d records, %v", len(got), err)
	}
}

// TestReadAllLong reads a stream longer than ReadAll's buffer, whole and
// truncated just past the buffer.
func TestReadAllLong(t *testing.T) {
	v := movegen.Brazilian
	rng := rand.New(rand.NewPCG(7, 8))
	positions := randomPositions(v, rng, 20, 100)
	const n = 1<<16 + 1000 // more than one buffer
	recs := make([]Record, n)
	for i := range recs {
		recs[i] = randomRecord(v, positions[i%len(positions)], rng)
	}
	data := encodeAll(recs)
	got, err := ReadAll(bytes.NewReader(data), v)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, recs) {
		t.Fatalf("read %d records, wrote %d, or they differ", len(got), len(recs))
	}
	// A bad record in the second buffer is named by its number.
	bad := append([]byte(nil), data...)
	bad[(n-3)*RecordSize+12] |= 0x40
	got, err = ReadAll(bytes.NewReader(bad), v)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("record %d:", n-2)) {
		t.Errorf("record %d spoiled: error %v, want one naming it", n-2, err)
	}
	if len(got) != n-3 || !reflect.DeepEqual(got, recs[:n-3]) {
		t.Errorf("record %d spoiled: %d good records returned, want the %d before it", n-2, len(got), n-3)
	}
	// Truncated exactly one buffer in.
	cut := data[:1<<16*RecordSize+3]
	_, err = ReadAll(bytes.NewReader(cut), v)
	if err == nil || !strings.Contains(err.Error(), "3 bytes after record 65536") {
		t.Errorf("stream cut 3 bytes past the buffer: error %v", err)
	}
}

func TestReadAllRefuses(t *testing.T) {
	v := movegen.Brazilian
	rng := rand.New(rand.NewPCG(9, 10))
	var recs []Record
	for _, p := range randomPositions(v, rng, 1, 20) {
		recs = append(recs, randomRecord(v, p, rng))
	}
	data := encodeAll(recs)
	n := len(recs)
	for cut := 1; cut < RecordSize; cut++ {
		got, err := ReadAll(bytes.NewReader(data[:len(data)-cut]), v)
		want := fmt.Sprintf("%d bytes after record %d", RecordSize-cut, n-1)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("cut %d bytes: %d records, error %v; want one saying %q", cut, len(got), err, want)
		}
	}
	// The same bytes are no record of another variant.
	for _, other := range []*movegen.Variant{movegen.Russian, movegen.Portuguese} {
		_, err := ReadAll(bytes.NewReader(data), other)
		if err == nil || !strings.Contains(err.Error(), "record 1:") || !strings.Contains(err.Error(), "GameType 26") {
			t.Errorf("brazilian records read as %s: error %v", other.Name, err)
		}
	}
	// One record of another variant among good ones.
	mixed := append([]byte(nil), data...)
	mixed[4*RecordSize+13] = uint8(movegen.Russian.GameType)
	got, err := ReadAll(bytes.NewReader(mixed), v)
	if err == nil || !strings.Contains(err.Error(), "record 5:") || !strings.Contains(err.Error(), "GameType 25") {
		t.Errorf("a russian record 5 in a brazilian stream: error %v", err)
	}
	if len(got) != 4 {
		t.Errorf("a russian record 5 in a brazilian stream: %d records returned, want the 4 before it", len(got))
	}
	// A bad record.
	spoiled := append([]byte(nil), data...)
	spoiled[2*RecordSize+12] |= 3 << 1
	if _, err := ReadAll(bytes.NewReader(spoiled), v); err == nil || !strings.Contains(err.Error(), "record 3: result code 3") {
		t.Errorf("result code 3 in record 3: error %v", err)
	}
	// A reader's own error comes through.
	boom := errors.New("boom")
	_, err = ReadAll(io.MultiReader(bytes.NewReader(data[:3*RecordSize]), iotest.ErrReader(boom)), v)
	if !errors.Is(err, boom) {
		t.Errorf("failing reader: error %v, want %v", err, boom)
	}
}

// FuzzReadAll: ReadAll never panics; what it accepts re-encodes to the
// same bytes, and what it returns with an error is a prefix of the input.
func FuzzReadAll(f *testing.F) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, v := range movegen.Variants {
		var recs []Record
		for _, p := range randomPositions(v, rng, 1, 12) {
			recs = append(recs, randomRecord(v, p, rng))
		}
		data := encodeAll(recs)
		f.Add(data)
		f.Add(data[:len(data)-5])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, v := range movegen.Variants {
			recs, err := ReadAll(bytes.NewReader(data), v)
			enc := encodeAll(recs)
			if err == nil {
				if !bytes.Equal(enc, data) {
					t.Fatalf("%s: %d records re-encode to %x, read from %x", v.Name, len(recs), enc, data)
				}
				for i := range recs {
					if int(recs[i].GameType) != v.GameType {
						t.Fatalf("%s: record %d has GameType %d", v.Name, i+1, recs[i].GameType)
					}
				}
				continue
			}
			if !bytes.HasPrefix(data, enc) {
				t.Fatalf("%s: failed with %v, and the %d records it returned are not the input's start", v.Name, err, len(recs))
			}
		}
	})
}
