package movegen

// Position is a board position and the side to move. It is a small value:
// copy it to keep it, play moves with Play, which returns the new position.
type Position struct {
	// Pieces[c] holds every piece (man or king) of colour c.
	Pieces [2]Bitboard
	// Kings holds the kings of both colours.
	Kings Bitboard
	// Hash is the Zobrist hash of the position, kept up to date by Play.
	Hash uint64
	// Side is the side to move.
	Side Color
}

// Zobrist keys: one per piece kind and square, and one for Black to move.
// zobristPiece is indexed by kind<<6 | square, kinds 0 white man, 1 black
// man, 2 white king, 3 black king; 256 entries (29 unused per kind) so that
// a masked index needs no bounds check.
var (
	zobristPiece [256]uint64
	zobristBlack uint64
)

// zobristKey returns the key of a piece of the given kind on s.
func zobristKey(kind int, s Square) uint64 { return zobristPiece[(kind<<6|int(s))&255] }

// RandomKeys fills keys with splitmix64 values from seed: fixed keys for
// hashing, the same in every build and run, so that searches are
// reproducible. Every table of hash keys is drawn with it.
func RandomKeys(seed uint64, keys []uint64) {
	x := seed
	for i := range keys {
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		keys[i] = z ^ z>>31
	}
}

func init() {
	var keys [4*35 + 1]uint64
	RandomKeys(0x52494f2d44524155, keys[:]) // "RIO-DRAU"
	for k := range 4 {
		for s := range Square(35) {
			zobristPiece[k<<6|int(s)] = keys[k*35+int(s)]
		}
	}
	zobristBlack = keys[4*35]
}

// Occupied returns every square holding a piece.
func (p *Position) Occupied() Bitboard { return p.Pieces[White] | p.Pieces[Black] }

// Empty returns every free playing square.
func (p *Position) Empty() Bitboard { return Valid &^ (p.Pieces[White] | p.Pieces[Black]) }

// Men returns the men of colour c.
func (p *Position) Men(c Color) Bitboard { return p.Pieces[c] &^ p.Kings }

// KingsOf returns the kings of colour c.
func (p *Position) KingsOf(c Color) Bitboard { return p.Pieces[c] & p.Kings }

// ComputeHash recomputes the Zobrist hash from scratch.
func (p *Position) ComputeHash() uint64 {
	var h uint64
	for c := White; c <= Black; c++ {
		for b := p.Pieces[c]; b != 0; b &= b - 1 {
			s := b.First()
			k := int(c)
			if p.Kings.Has(s) {
				k += 2
			}
			h ^= zobristKey(k, s)
		}
	}
	if p.Side == Black {
		h ^= zobristBlack
	}
	return h
}

// Play returns the position after move m, which must be legal in p.
func (p Position) Play(m Move) Position {
	var q Position
	p.PlayInto(m, &q)
	return q
}

// PlayInto writes the position after the legal move m into q (which may be
// p itself). Hot loops give each ply its own slot: copy-make without a
// separate copy, every field of q written once.
func (p *Position) PlayInto(m Move, q *Position) {
	us := uint(p.Side & 1)
	own, opp, kings := p.Pieces[us], p.Pieces[us^1], p.Kings
	from, to := m.From(), m.To()
	fromBit, toBit := from.Bit(), to.Bit()

	// zobristPiece's index: kind<<6 | square, the kind being the colour,
	// plus 2 for a king; the piece may promote on arriving.
	fromKey, toKey := us<<6|uint(from), us<<6|uint(to)
	if kings&fromBit != 0 {
		fromKey |= 2 << 6
		toKey |= 2 << 6
		kings = kings&^fromBit | toBit
	} else if m&movePromotes != 0 {
		toKey |= 2 << 6
		kings |= toBit
	}
	h := p.Hash ^ zobristBlack ^ zobristPiece[fromKey&255] ^ zobristPiece[toKey&255]
	// Clear, then set (here and for kings above): a king's capture may
	// end on its start square.
	own = own&^fromBit | toBit
	if captured := m.Captured(); captured != 0 {
		them := (us ^ 1) << 6
		for b := captured &^ kings; b != 0; b &= b - 1 {
			h ^= zobristPiece[(them|uint(b.First()))&255]
		}
		for b := captured & kings; b != 0; b &= b - 1 {
			h ^= zobristPiece[(them|2<<6|uint(b.First()))&255]
		}
		opp &^= captured
		kings &^= captured
	}
	q.Pieces[us] = own
	q.Pieces[us^1] = opp
	q.Kings = kings
	q.Hash = h
	q.Side = Color(us ^ 1)
}

// Flip returns the colour-flipped twin of p: the board turned 180 degrees,
// colours swapped, the other side to move. Every rule is symmetric under
// this, so p and its twin have the same legal moves (flipped) and perft.
func (p Position) Flip() Position {
	q := Position{
		Pieces: [2]Bitboard{p.Pieces[Black].Flip(), p.Pieces[White].Flip()},
		Kings:  p.Kings.Flip(),
		Side:   p.Side.Other(),
	}
	q.Hash = q.ComputeHash()
	return q
}

// PieceCount returns the number of pieces of colour c.
func (p *Position) PieceCount(c Color) int { return p.Pieces[c].Count() }
