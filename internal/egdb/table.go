package egdb

import (
	"github.com/riodraughts/rio/internal/movegen"
)

// WDL is a game-theoretic value for the side to move.
type WDL int8

const (
	Loss WDL = -1
	Draw WDL = 0
	Win  WDL = 1
)

func (w WDL) String() string {
	switch w {
	case Win:
		return "win"
	case Loss:
		return "loss"
	}
	return "draw"
}

// Value is what the tables say of a position: its WDL and, where the slice
// keeps distances, the plies to the end of the game with best play (the
// winner hurrying, the loser delaying); Dist is -1 where unknown.
type Value struct {
	WDL  WDL
	Dist int
}

// DistPieces is the largest slice that keeps distances: slices of up to
// this many pieces lead only to each other, so their distances are exact;
// larger slices keep only win, draw or loss (two bits). Five: without a
// distance, a search in a won 5-piece ending sees every winning move
// alike and cannot make progress (a portuguese match drew such endings
// against a program that won them); with one it hurries, as in the
// 4-piece endings. A 5-piece set takes about 175 MB per variant.
const DistPieces = 5

// maxDist is the longest distance the format keeps (a byte). The longest
// in the 4-piece tables is 86 plies, in the 5-piece ones 109 (brazilian,
// russian) and 118 (portuguese). (A variable so that a test can lower
// it.)
var maxDist = 255

// MaxPieces bounds the slices Rio builds and reads: 6 pieces take about
// a quarter of an hour and 6 GB on two cores (README, "Numbers"); 7
// would take a machine of another size.
const MaxPieces = 6

// Table is one solved slice.
type Table struct {
	Variant *movegen.Variant
	M       Material
	x       *Indexer
	// wdl holds two bits per position (wdlDraw, wdlWin, wdlLoss), four
	// positions per byte, the lowest index in the lowest bits.
	wdl []byte
	// dist holds one byte per position (nil when the slice keeps none).
	dist []uint8
	// direct, for the smallest slices while larger ones are solved, holds
	// each position's value (code | dist<<2) by directAddress: the
	// captures of a 4-piece slice look up 3-piece slices millions of
	// times, and a load is cheaper than a ranking.
	direct []uint16
}

// directPieces bounds the slices given direct: 32^3 values, 64 KB each.
const directPieces = 3

// fillDirect fills t.direct.
func (t *Table) fillDirect() {
	t.direct = make([]uint16, 1<<(5*t.M.Pieces()))
	var w walker
	w.seek(t.x, 0)
	for i := range t.Size() {
		v := uint16(t.code(i))
		if t.dist != nil {
			v |= uint16(t.dist[i]) << 2
		}
		t.direct[directAddress(&[4]uint32{dense(w.wm.set), dense(w.wk.set), dense(w.bm.set), dense(w.bk.set)})] = v
		w.next()
	}
}

// valueOf decodes a value of direct.
func (t *Table) valueOf(v uint16) Value {
	switch v & 3 {
	case wdlWin:
		return Value{WDL: Win, Dist: int(v >> 2)}
	case wdlLoss:
		return Value{WDL: Loss, Dist: int(v >> 2)}
	}
	return Value{WDL: Draw, Dist: -1}
}

// Two-bit codes in Table.wdl; 3 never occurs in a valid table.
const (
	wdlDraw = 0
	wdlWin  = 1
	wdlLoss = 2
)

func newTable(v *movegen.Variant, m Material) *Table {
	x := NewIndexer(m)
	t := &Table{Variant: v, M: m, x: x, wdl: make([]byte, (x.Size()+3)/4)}
	if m.Pieces() <= DistPieces {
		t.dist = make([]uint8, x.Size())
	}
	return t
}

// Size returns the number of positions of the table.
func (t *Table) Size() int64 { return t.x.Size() }

func (t *Table) code(i int64) byte { return t.wdl[i>>2] >> (2 * (i & 3)) & 3 }

func (t *Table) setCode(i int64, c byte) {
	sh := 2 * (i & 3)
	t.wdl[i>>2] = t.wdl[i>>2]&^(3<<sh) | c<<sh
}

// At returns the value of position i.
func (t *Table) At(i int64) Value {
	v := Value{Dist: -1}
	switch t.code(i) {
	case wdlWin:
		v.WDL = Win
	case wdlLoss:
		v.WDL = Loss
	}
	if t.dist != nil && v.WDL != Draw {
		v.Dist = int(t.dist[i])
	}
	return v
}

func (t *Table) set(i int64, v Value) {
	c := byte(wdlDraw)
	switch v.WDL {
	case Win:
		c = wdlWin
	case Loss:
		c = wdlLoss
	}
	t.setCode(i, c)
	if t.dist != nil {
		t.dist[i] = uint8(max(v.Dist, 0))
	}
}

// DB is the set of tables of one variant, up to Pieces pieces.
type DB struct {
	Variant *movegen.Variant
	Pieces  int
	tables  map[Material]*Table
	// byCode holds the same tables by materialCode: a probe (in the
	// search, and many per position while solving) indexes an array
	// instead of hashing a map key.
	byCode [materialCodes]*Table
}

func newDB(v *movegen.Variant) *DB {
	return &DB{Variant: v, tables: map[Material]*Table{}}
}

// materialCodes bounds materialCode: each count is 0 to MaxPieces.
const materialCodes = (MaxPieces + 1) * (MaxPieces + 1) * (MaxPieces + 1) * (MaxPieces + 1)

// materialCode numbers m, or returns -1 if a count is out of range.
func materialCode(m Material) int {
	const n = MaxPieces + 1
	if uint(m.UsKings) >= n || uint(m.UsMen) >= n || uint(m.ThemKings) >= n || uint(m.ThemMen) >= n {
		return -1
	}
	return ((m.UsKings*n+m.UsMen)*n+m.ThemKings)*n + m.ThemMen
}

// put adds t to the set.
func (db *DB) put(t *Table) {
	db.tables[t.M] = t
	db.byCode[materialCode(t.M)] = t
}

// Table returns the table of slice m, or nil.
func (db *DB) Table(m Material) *Table {
	if c := materialCode(m); c >= 0 {
		return db.byCode[c]
	}
	return nil
}

// Positions returns the number of positions in the tables.
func (db *DB) Positions() int64 {
	var n int64
	for _, t := range db.tables {
		n += t.Size()
	}
	return n
}

// Tables returns the number of tables held.
func (db *DB) Tables() int { return len(db.tables) }

// Holds reports whether positions of p's size are in the tables: the
// cheap test a search makes at every node before it probes. A nil DB holds
// nothing.
func (db *DB) Holds(p *movegen.Position) bool {
	return db != nil && p.Occupied().Count() <= db.Pieces
}

// Probe returns the value of p for its side to move; ok is false when p is
// not in the tables.
func (db *DB) Probe(p *movegen.Position) (v Value, ok bool) {
	if !db.Holds(p) {
		return Value{}, false
	}
	q := *p
	if q.Side == movegen.Black {
		q = flip(&q)
	}
	if q.Pieces[movegen.White] == 0 {
		return Value{WDL: Loss, Dist: 0}, true // no piece: lost
	}
	t := db.Table(MaterialOf(&q))
	if t == nil {
		return Value{}, false
	}
	return t.At(t.x.Index(&q)), true
}
