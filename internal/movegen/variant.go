package movegen

import "strings"

// Color is a side: White or Black.
type Color uint8

const (
	White Color = 0
	Black Color = 1
)

// Other returns the opponent of c.
func (c Color) Other() Color { return c ^ 1 }

func (c Color) String() string {
	if c == White {
		return "white"
	}
	return "black"
}

// Precedence is the rule that chooses among the available captures.
type Precedence uint8

const (
	// AnyCapture: any complete capture sequence may be played (russian).
	AnyCapture Precedence = iota
	// MostPieces: the sequence taking the most pieces must be played, a king
	// counting as one piece (brazilian).
	MostPieces
	// MostPiecesThenKings: most pieces, then among those the most kings
	// (portuguese).
	MostPiecesThenKings
)

// LastRowInCapture says what a man does when a capture passes through the
// row where it would promote.
type LastRowInCapture uint8

const (
	// StaysMan: the man goes on capturing as a man and promotes only if the
	// move ends there (brazilian; in portuguese men capture forward only, so
	// a man reaching the far row cannot go on and the case does not arise).
	StaysMan LastRowInCapture = iota
	// PromotesAndContinues: the man becomes a king at once and goes on
	// capturing as a king in the same move (russian).
	PromotesAndContinues
)

// Variant describes one rule set as data. The move generator reads these
// fields instead of testing which variant it plays.
type Variant struct {
	// Name is the lower-case name used on the command line and in Hub.
	Name string
	// GameType is the PDN GameType number (26 brazilian, 25 russian, 28
	// portuguese).
	GameType int
	// ManCapturesBackward reports whether men capture backward as well as
	// forward.
	ManCapturesBackward bool
	Precedence          Precedence
	LastRow             LastRowInCapture
	// Numbering maps square numbers to the internal board.
	Numbering *Numbering
	// StartFEN is the initial position in the variant's own numbering.
	StartFEN string

	start Position
	// manCapDirs[c] lists the directions in which a man of colour c
	// captures; manCapMask[c][d] is Valid for those directions, else 0.
	manCapDirs [2][]Direction
	manCapMask [2][4]Bitboard
}

// The three variants. Their rules are in shared/spec/rules.md.
var (
	Brazilian = &Variant{
		Name:                "brazilian",
		GameType:            26,
		ManCapturesBackward: true,
		Precedence:          MostPieces,
		LastRow:             StaysMan,
		Numbering:           STD,
		StartFEN:            "W:W21-32:B1-12",
	}
	Portuguese = &Variant{
		Name:                "portuguese",
		GameType:            28,
		ManCapturesBackward: false,
		Precedence:          MostPiecesThenKings,
		LastRow:             StaysMan,
		Numbering:           FPD,
		StartFEN:            "W:W1-12:B21-32",
	}
	Russian = &Variant{
		Name:                "russian",
		GameType:            25,
		ManCapturesBackward: true,
		Precedence:          AnyCapture,
		LastRow:             PromotesAndContinues,
		Numbering:           STD,
		StartFEN:            "W:W21-32:B1-12",
	}
	// Variants lists every supported variant, in the order help texts show
	// them.
	Variants = []*Variant{Brazilian, Portuguese, Russian}
)

func init() {
	for _, v := range Variants {
		forward := [2][]Direction{{UpLeft, UpRight}, {DownLeft, DownRight}}
		for c := range 2 {
			v.manCapDirs[c] = forward[c]
			if v.ManCapturesBackward {
				v.manCapDirs[c] = []Direction{UpLeft, UpRight, DownLeft, DownRight}
			}
			for _, d := range v.manCapDirs[c] {
				v.manCapMask[c][d] = Valid
			}
		}
		p, err := v.ParseFEN(v.StartFEN)
		if err != nil {
			panic("movegen: bad start position for " + v.Name + ": " + err.Error())
		}
		v.start = p
	}
}

// VariantByName returns the variant with the given name (case-insensitive),
// or nil.
func VariantByName(name string) *Variant {
	for _, v := range Variants {
		if strings.EqualFold(v.Name, name) {
			return v
		}
	}
	return nil
}

// VariantNames returns the names of all variants separated by spaces.
func VariantNames() string {
	names := make([]string, len(Variants))
	for i, v := range Variants {
		names[i] = v.Name
	}
	return strings.Join(names, " ")
}

// Start returns the variant's initial position.
func (v *Variant) Start() Position { return v.start }

func (v *Variant) String() string { return v.Name }

// PromotionRow returns the row where men of colour c promote.
func PromotionRow(c Color) Bitboard {
	if c == White {
		return Row0
	}
	return Row7
}
