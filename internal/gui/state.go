package gui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/text"
)

// maxGameMoves bounds the moves of a game the page sends.
const maxGameMoves = 2000

// gameRequest is a game as the page holds it: a variant, a start position
// ("" or "startpos" for the initial one) and the moves played, in protocol
// notation. At, when set, is the ply the page shows (0 is the start);
// nil means the end of the game.
type gameRequest struct {
	Variant string   `json:"variant"`
	FEN     string   `json:"fen"`
	Moves   []string `json:"moves"`
	At      *int     `json:"at,omitempty"`
}

// replay checks the request and plays its moves, returning the game and
// the ply shown.
func (req *gameRequest) replay() (*game.Game, int, error) {
	v := movegen.VariantByName(req.Variant)
	if v == nil {
		return nil, 0, badf("unsupported variant %q (Rio plays %s)", text.Clip(req.Variant, 80), movegen.VariantNames())
	}
	fen := strings.TrimSpace(req.FEN)
	if fen == "" {
		fen = "startpos"
	}
	start, err := v.ParsePosition(fen)
	if err != nil {
		return nil, 0, badf("position: %v", err)
	}
	if len(req.Moves) > maxGameMoves {
		return nil, 0, badf("%d moves: at most %d", len(req.Moves), maxGameMoves)
	}
	g := game.New(v, start)
	for i, m := range req.Moves {
		if o := g.Outcome(); o.Result != game.Ongoing {
			return nil, 0, badf("move %d (%s): the game was over (%s)", i+1, text.Clip(m, 80), o.Reason)
		}
		if _, err := g.PlayText(m); err != nil {
			return nil, 0, badf("move %d (%s): %v", i+1, text.Clip(m, 80), err)
		}
	}
	at := g.Ply()
	if req.At != nil {
		if *req.At < 0 || *req.At > g.Ply() {
			return nil, 0, badf("ply %d is outside the game (0-%d)", *req.At, g.Ply())
		}
		at = *req.At
	}
	return g, at, nil
}

// upTo returns the game cut at ply at (the same game when at is its end).
func upTo(g *game.Game, at int) *game.Game {
	if at == g.Ply() {
		return g
	}
	h := game.New(g.Variant, g.Start())
	for _, m := range g.Moves()[:at] {
		h.Play(m) // legal: it was played in g
	}
	return h
}

// piece is one piece on the board.
type piece struct {
	Square int    `json:"sq"` // the square's id (boardSquare.ID)
	Color  string `json:"color"`
	King   bool   `json:"king,omitempty"`
}

// moveView is a move with what the page needs to show and enter it.
type moveView struct {
	// Move is the protocol notation the page sends back.
	Move string `json:"move"`
	// Text is the move in the variant's PDN notation; Num the same with
	// square numbers.
	Text string `json:"text"`
	Num  string `json:"num"`
	From int    `json:"from"`
	To   int    `json:"to"`
	// Path lists the landing squares of a capture in order (To last);
	// empty for a quiet move.
	Path     []int `json:"path,omitempty"`
	Captured []int `json:"captured,omitempty"`
}

// stateView is the answer to /api/game: the game's record and the
// position shown, with its legal moves.
type stateView struct {
	Variant string `json:"variant"`
	Start   string `json:"start"` // the start position's FEN
	Ply     int    `json:"ply"`   // the ply shown
	// Moves is the whole game, one entry per ply.
	Moves []moveView `json:"moves"`
	// The position shown.
	FEN   string     `json:"fen"`
	Side  string     `json:"side"`
	Board []piece    `json:"board"`
	Legal []moveView `json:"legal"`
	// Outcome of the position shown ("*" while the game goes on) and why.
	Result string `json:"result"`
	Reason string `json:"reason,omitempty"`
	// Final is the outcome at the end of the game.
	Final       string `json:"final"`
	FinalReason string `json:"finalReason,omitempty"`
	// Rule names a move-count draw rule that is counting and how many
	// moves it leaves.
	Rule string `json:"rule,omitempty"`
	// Table is the endgame tables' value of the position for the side to
	// move ("win 21", "draw"), when the tables hold it.
	Table string `json:"table,omitempty"`
}

func colorName(c movegen.Color) string {
	if c == movegen.White {
		return "white"
	}
	return "black"
}

// viewMove describes the legal move m of p; path is one of its paths of
// landing squares (nil for the first).
func viewMove(v *movegen.Variant, p *movegen.Position, m movegen.Move, path []movegen.Square) moveView {
	style := game.PDNStyleOf(v)
	mv := moveView{
		Move: v.FormatMove(m), Text: v.FormatPDN(p, m, style),
		Num:  v.FormatPDN(p, m, movegen.PDNStyle{}),
		From: int(m.From()), To: int(m.To()),
	}
	if m.IsCapture() {
		if path == nil {
			path = v.CapturePaths(p, m)[0]
		}
		for _, s := range path {
			mv.Path = append(mv.Path, int(s))
		}
		for c := m.Captured(); c != 0; c &= c - 1 {
			mv.Captured = append(mv.Captured, int(c.First()))
		}
	}
	return mv
}

// legalMoves lists the legal moves of p, a capture once per path of
// landing squares: captures that end on the same square are told apart by
// the squares they pass.
func legalMoves(v *movegen.Variant, p *movegen.Position) []moveView {
	var buf [movegen.MaxMoves]movegen.Move
	var out []moveView
	for _, m := range v.Generate(p, buf[:0]) {
		if !m.IsCapture() {
			out = append(out, viewMove(v, p, m, nil))
			continue
		}
		for _, path := range v.CapturePaths(p, m) {
			out = append(out, viewMove(v, p, m, path))
		}
	}
	return out
}

func boardOf(p *movegen.Position) []piece {
	var out []piece
	for c := movegen.White; c <= movegen.Black; c++ {
		for b := p.Pieces[c]; b != 0; b &= b - 1 {
			s := b.First()
			out = append(out, piece{Square: int(s), Color: colorName(c), King: p.Kings.Has(s)})
		}
	}
	slices.SortFunc(out, func(a, b piece) int { return a.Square - b.Square })
	return out
}

// state builds the view of g at ply at.
func (s *Server) state(g *game.Game, at int) stateView {
	v := g.Variant
	start := g.Start()
	st := stateView{Variant: v.Name, Start: v.FormatFEN(&start, false), Ply: at, Moves: []moveView{}}
	for i, m := range g.Moves() {
		p := g.PositionAt(i)
		st.Moves = append(st.Moves, viewMove(v, &p, m, nil))
	}
	final := g.Outcome()
	st.Final, st.FinalReason = final.Result.PDN(), final.Reason
	shown := upTo(g, at)
	p := shown.Position()
	st.FEN = v.FormatFEN(&p, false)
	st.Side = colorName(p.Side)
	st.Board = boardOf(&p)
	out := shown.Outcome()
	st.Result, st.Reason = out.Result.PDN(), out.Reason
	st.Legal = []moveView{}
	if out.Result == game.Ongoing {
		st.Legal = legalMoves(v, &p)
		st.Rule = ruleNote(shown)
	}
	st.Table = s.tableValue(v, &p)
	return st
}

// ruleNote names the move-count draw rule nearest to drawing the game, if
// one is counting.
func ruleNote(g *game.Game) string {
	r := g.Rules()
	c := g.Counters()
	best, left := -1, 0
	for i, rule := range r.Count {
		if !c.Counting(i) || c[i] == 0 {
			continue // silent until a move has counted (the portuguese rule counts from the start)
		}
		n := rule.Plies - int(c[i])
		if best < 0 || n < left {
			best, left = i, n
		}
	}
	if best < 0 {
		return ""
	}
	return fmt.Sprintf("%s: drawn in %d plies", r.Count[best].Name, left)
}

// tableValue is the endgame tables' word on p, when they are ready and
// hold it; a position within their reach starts them being made ready.
func (s *Server) tableValue(v *movegen.Variant, p *movegen.Position) string {
	if s.tables == nil || p.Occupied().Count() > s.tables.Pieces {
		return ""
	}
	db := s.tables.For(v)
	if db == nil {
		return ""
	}
	val, ok := db.Probe(p)
	if !ok {
		return ""
	}
	return val.String()
}
