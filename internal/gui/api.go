package gui

import (
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"

	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/search"
	"github.com/riodraughts/rio/internal/text"
)

// boardSquare places one playing square on the drawn board: Row 0 is the
// top and Col 0 the left as White sees it.
type boardSquare struct {
	ID     int    `json:"id"`   // Rio's square (movegen.Square)
	Number int    `json:"num"`  // the variant's number
	Name   string `json:"name"` // algebraic name where the variant uses them, else the number
	Row    int    `json:"row"`
	Col    int    `json:"col"`
}

type variantView struct {
	Name      string        `json:"name"`
	Title     string        `json:"title"`
	Algebraic bool          `json:"algebraic"`
	Start     string        `json:"start"`
	Rules     string        `json:"rules"`
	Squares   []boardSquare `json:"squares"`
}

type configView struct {
	Variant  string        `json:"variant"`
	Variants []variantView `json:"variants"`
	Levels   int           `json:"levels"`
	Tables   int           `json:"tables"` // pieces the endgame tables hold (0: none)
	Threads  int           `json:"threads"`
}

var titles = map[string]string{
	"brazilian":  "Brazilian",
	"russian":    "Russian",
	"portuguese": "Portuguese (Damas Clássicas)",
}

// variantsInOrder are the variants the page offers.
var variantsInOrder = []*movegen.Variant{movegen.Brazilian, movegen.Russian, movegen.Portuguese}

// squaresOf lays out v's squares as its players see the board from White's
// side. Rio's board is the brazilian and russian one (a1 a playing square
// in White's bottom-left corner); portuguese is played on the mirrored
// board, its square 1 in White's bottom-right corner (rules.md), so its
// files are drawn right to left.
func squaresOf(v *movegen.Variant) []boardSquare {
	mirror := v == movegen.Portuguese
	var out []boardSquare
	for n := 1; n <= 32; n++ {
		s := v.Numbering.Square(n)
		col := movegen.File(s)
		if mirror {
			col = 7 - col
		}
		out = append(out, boardSquare{ID: int(s), Number: n, Name: v.SquareName(s, true), Row: movegen.Row(s), Col: col})
	}
	return out
}

func (s *Server) handleConfig(w http.ResponseWriter, r *http.Request) {
	c := configView{Variant: s.cfg.Variant.Name, Levels: search.MaxLevel, Threads: s.cfg.Threads}
	if s.tables != nil {
		c.Tables = s.tables.Pieces
	}
	for _, v := range variantsInOrder {
		start := v.Start()
		c.Variants = append(c.Variants, variantView{
			Name: v.Name, Title: titles[v.Name], Algebraic: v.Numbering.Algebraic,
			Start: v.FormatFEN(&start, false), Rules: game.RulesOf(v).Source, Squares: squaresOf(v),
		})
	}
	writeJSON(w, c)
}

// handleGame answers a game with its state (stateView).
func (s *Server) handleGame(w http.ResponseWriter, r *http.Request) {
	var req gameRequest
	if err := decodeJSON(w, r, &req); err != nil {
		fail(w, err)
		return
	}
	g, at, err := req.replay()
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, s.state(g, at))
}

// exportRequest is a game to write as PDN, with its tags and result.
type exportRequest struct {
	Game   gameRequest       `json:"game"`
	Tags   map[string]string `json:"tags"`
	Result string            `json:"result"`
	// Clocks are the mover's seconds left after each ply of a timed game
	// (null where none was kept), written as [%clk h:mm:ss] comments.
	Clocks []*float64 `json:"clocks,omitempty"`
}

// handleExport writes the game as PDN. The result is the one the rules
// give when the game ended by them; otherwise the one the page sends (a
// resignation or an agreed draw), or "*".
func (s *Server) handleExport(w http.ResponseWriter, r *http.Request) {
	var req exportRequest
	if err := decodeJSON(w, r, &req); err != nil {
		fail(w, err)
		return
	}
	req.Game.At = nil
	g, _, err := req.Game.replay()
	if err != nil {
		fail(w, err)
		return
	}
	res := g.Outcome().Result
	if res == game.Ongoing {
		switch req.Result {
		case "2-0", "1-0":
			res = game.WhiteWins
		case "0-2", "0-1":
			res = game.BlackWins
		case "1-1", "1/2-1/2":
			res = game.Draw
		case "", "*":
		default:
			fail(w, badf("result %q: expected 2-0, 0-2, 1-1 or *", text.Clip(req.Result, 80)))
			return
		}
	}
	if len(req.Tags) > 64 {
		fail(w, badf("%d tags: at most 64", len(req.Tags)))
		return
	}
	for _, name := range sortedKeys(req.Tags) {
		if !validTagName(name) {
			fail(w, badf("tag name %q: letters, digits and _ only", text.Clip(name, 80)))
			return
		}
		if strings.EqualFold(name, "Result") || strings.EqualFold(name, "FEN") || strings.EqualFold(name, "GameType") {
			continue // written from the game itself
		}
		g.Tags.Set(name, req.Tags[name])
	}
	if len(req.Clocks) > g.Ply() {
		fail(w, badf("%d clocks for %d moves", len(req.Clocks), g.Ply()))
		return
	}
	for i, c := range req.Clocks {
		if c == nil {
			continue
		}
		if math.IsNaN(*c) || *c < 0 || *c > maxClock {
			fail(w, badf("clock of move %d: %g seconds, expected 0-%d", i+1, *c, maxClock))
			return
		}
		g.Comments = append(g.Comments, game.Comment{Ply: i + 1, Text: clockComment(*c)})
	}
	slices.SortStableFunc(g.Comments, func(a, b game.Comment) int { return a.Ply - b.Ply })
	var b strings.Builder
	if err := g.WritePDN(&b, res); err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, map[string]string{"pdn": b.String()})
}

func validTagName(name string) bool { return isWord(name, 40, "_") }

// isWord reports whether s is 1 to max ASCII letters and digits, with the
// characters of extra too.
func isWord(s string, max int, extra string) bool {
	if s == "" || len(s) > max {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(extra, r)) {
			return false
		}
	}
	return true
}

// clockComment is a clock as PDN (and PGN) comments write it: [%clk
// h:mm:ss], tenths kept under a minute.
func clockComment(seconds float64) string {
	whole := int(seconds)
	text := fmt.Sprintf("[%%clk %d:%02d:%02d", whole/3600, whole/60%60, whole%60)
	if seconds < 60 {
		text += fmt.Sprintf(".%d", int(seconds*10)%10)
	}
	return text + "]"
}
