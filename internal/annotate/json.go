package annotate

import (
	"encoding/json"
	"io"
	"math"

	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/search"
)

// JSONGame is the shape of a game in --json output: one object per game.
type JSONGame struct {
	Game    int    `json:"game"` // its number in the file, from 1
	Variant string `json:"variant,omitempty"`
	White   string `json:"white"`
	Black   string `json:"black"`
	Result  string `json:"result"` // as the file declares it
	// Stats are per side: "white" and "black".
	Stats map[string]JSONSide `json:"stats"`
	Moves []JSONMove          `json:"moves"`
	Error string              `json:"error,omitempty"`
}

// JSONSide is one side's summary.
type JSONSide struct {
	Moves        int     `json:"moves"`        // moves judged (with a choice)
	AverageLoss  float64 `json:"average_loss"` // men per judged move
	Inaccuracies int     `json:"inaccuracies"`
	Mistakes     int     `json:"mistakes"`
	Blunders     int     `json:"blunders"`
}

// JSONMove is one move. Moves are in the game's PDN notation.
type JSONMove struct {
	Ply  int    `json:"ply"` // from 1
	Side string `json:"side"`
	Move string `json:"move"`
	// Score is the value of the position reached, from White's view, in
	// men (a win in n plies: 100-n/100); Mate its plies to the end when it
	// is a forced result (negative: Black wins).
	Score  float64 `json:"score"`
	Mate   *int    `json:"mate,omitempty"`
	Depth  int     `json:"depth,omitempty"`
	Egdb   string  `json:"egdb,omitempty"` // the table value, from White's view
	Over   string  `json:"over,omitempty"` // the game is over after the move: why
	Forced bool    `json:"forced,omitempty"`
	// Best is the engine's move in the position before, PV its line;
	// Loss is what the move played lost against it, in men.
	Best string   `json:"best,omitempty"`
	PV   []string `json:"pv,omitempty"`
	Loss float64  `json:"loss"`
	NAG  string   `json:"nag"`
}

// ToJSON returns the JSON shape of a.
func ToJSON(a *Game) JSONGame {
	pg := &a.PDN
	out := JSONGame{Game: pg.Number, Result: pg.Declared.PDN(), Moves: []JSONMove{}, Stats: map[string]JSONSide{}}
	if a.Err != nil {
		out.Error = a.Err.Error()
	}
	if pg.Game == nil {
		return out
	}
	src := pg.Game
	v := src.Variant
	out.Variant, out.White, out.Black = v.Name, src.Tags.Get("White"), src.Tags.Get("Black")
	for c, name := range []string{"white", "black"} {
		s := &a.Sides[c]
		out.Stats[name] = JSONSide{Moves: s.Moves, AverageLoss: round2(s.AverageLoss()),
			Inaccuracies: s.NAGs[Inaccuracy], Mistakes: s.NAGs[Mistake], Blunders: s.NAGs[Blunder]}
	}
	style := game.PDNStyleOf(v)
	for i, m := range a.Moves {
		p := src.PositionAt(i)
		side := m.Side.Other() // to move after the move
		white := WhiteScore(&m.After, side)
		jm := JSONMove{Ply: m.Ply, Side: m.Side.String(), Move: v.FormatPDN(&p, m.Move, style),
			Score: float64(white) / 100, Depth: m.After.Depth, Forced: m.Forced(),
			Loss: float64(m.Loss) / 100, NAG: m.NAG.String()}
		if n, ok := search.MateIn(white); ok {
			jm.Mate = &n
		}
		switch m.After.Source {
		case FromTable:
			jm.Egdb = TableNote(m.After.Table, side)
		case GameOver:
			jm.Over = m.After.Over
		}
		if !m.Forced() && m.Before.Best != movegen.NoMove {
			jm.Best = v.FormatPDN(&p, m.Before.Best, style)
			q := p
			for _, pm := range m.Before.PV {
				jm.PV = append(jm.PV, v.FormatPDN(&q, pm, style))
				q = q.Play(pm)
			}
		}
		out.Moves = append(out.Moves, jm)
	}
	return out
}

// WriteJSON writes a as one line of JSON.
func WriteJSON(w io.Writer, a *Game) error {
	b, err := json.Marshal(ToJSON(a))
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }
