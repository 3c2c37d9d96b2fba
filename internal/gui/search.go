package gui

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/riodraughts/rio/internal/book"
	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/search"
	"github.com/riodraughts/rio/internal/text"
)

func (s *Server) newEngine() *search.Engine {
	e := search.NewEngine(s.cfg.HashMiB, s.log)
	e.Eval = s.cfg.Eval
	e.Tables = s.tables
	return e
}

// prepareTables starts making the tables ready when the game nears them.
func (s *Server) prepareTables(g *game.Game) {
	if p := g.Position(); s.tables != nil && p.Occupied().Count() <= s.tables.Pieces+4 {
		s.tables.For(g.Variant)
	}
}

// scoreView is a search score for people: Value in men for the side to
// move, White the same from White's side (the graph's), and Text as every
// host shows it (search.ScoreText: "+0.35", "win in 7 plies").
type scoreView struct {
	Value float64 `json:"value"`
	White float64 `json:"white"`
	Text  string  `json:"text"`
	// Win is the plies to a forced end (search.MateIn): positive when the
	// side to move wins, negative when it loses, 0 when none is seen.
	Win int `json:"win,omitempty"`
}

func viewScore(score int, side movegen.Color) scoreView {
	sv := scoreView{Value: float64(score) / 100, Text: search.ScoreText(score)}
	if n, ok := search.MateIn(score); ok {
		sv.Win = n
		sv.Value = 100
		if score < 0 {
			sv.Value = -100
		}
	}
	sv.White = sv.Value
	if side == movegen.Black {
		sv.White = -sv.Value
	}
	return sv
}

// lineView is one principal variation: moves in the page's two notations.
type lineView struct {
	Score scoreView  `json:"score"`
	PV    []moveView `json:"pv"`
}

// viewLine writes pv from p up to its first move that is not legal (a
// line the table cut short).
func viewLine(v *movegen.Variant, p movegen.Position, score int, pv []movegen.Move) lineView {
	l := lineView{Score: viewScore(score, p.Side), PV: []moveView{}}
	for _, m := range v.LegalPrefix(&p, pv) {
		l.PV = append(l.PV, viewMove(v, &p, m, nil))
		p = p.Play(m)
	}
	return l
}

// searchRequest asks for Rio's move in a game: at a level (1-10), or at
// full strength for MoveTime seconds (1 when neither is given).
type searchRequest struct {
	Tab      string      `json:"tab"`
	Game     gameRequest `json:"game"`
	Level    int         `json:"level"`
	MoveTime float64     `json:"movetime"`
	// Rio is the side Rio plays, for a draw offer ("": the side to move).
	Rio string `json:"rio,omitempty"`
	// Clock is Rio's clock in a timed game: its time left and the
	// increment in seconds. Rio then budgets its move as Hub's level
	// time= inc= makes it (MoveTime is not used); a level still caps it.
	Clock *clockRequest `json:"clock,omitempty"`
	// Book lets Rio answer from its built-in book (a move within
	// book.DefaultMargin of the best, so that games vary), as a bot over Hub
	// does: the page asks it for Rio's moves in a game.
	Book bool `json:"book,omitempty"`
}

type clockRequest struct {
	Time float64 `json:"time"`
	Inc  float64 `json:"inc"`
}

// maxClock bounds a clock's seconds (10 hours).
const maxClock = 36000

type searchAnswer struct {
	Move  moveView  `json:"move"`
	Score scoreView `json:"score"`
	Depth int       `json:"depth"`
	Nodes int64     `json:"nodes"`
	Time  float64   `json:"time"`
	// Book says the move came from the opening book (no search).
	Book bool `json:"book,omitempty"`
}

// limits checks the request's strength.
func (req *searchRequest) limits() (search.Limits, search.Options, error) {
	if req.Level < 0 || req.Level > search.MaxLevel {
		return search.Limits{}, search.Options{}, badf("level %d out of range 0-%d", req.Level, search.MaxLevel)
	}
	if math.IsNaN(req.MoveTime) || req.MoveTime < 0 || req.MoveTime > 600 {
		return search.Limits{}, search.Options{}, badf("movetime %g: expected 0-600 seconds", req.MoveTime)
	}
	if c := req.Clock; c != nil {
		if math.IsNaN(c.Time) || c.Time < 0 || c.Time > maxClock || math.IsNaN(c.Inc) || c.Inc < 0 || c.Inc > maxClock {
			return search.Limits{}, search.Options{}, badf("clock time %g inc %g: expected 0-%d seconds", c.Time, c.Inc, maxClock)
		}
		seconds := func(f float64) time.Duration { return time.Duration(f * float64(time.Second)) }
		// The page credits the increment after the move (Fischer, as on
		// lidraughts); the engine counts it as credited before (Hub's
		// level time= inc=): of the time left, the increment's share is
		// passed as that increment, so Rio never budgets what it has not.
		inc := min(c.Inc, c.Time)
		lim := search.Limits{HasClock: true, Time: seconds(c.Time - inc), Inc: seconds(inc)}
		return lim, search.Options{Level: req.Level}, nil
	}
	mt := req.MoveTime
	if mt == 0 {
		mt = 1
	}
	lim := search.Limits{MoveTime: time.Duration(mt * float64(time.Second))}
	return lim, search.Options{Level: req.Level}, nil
}

// claimTab claims the tab id for a search of r (tabSet.claim), answering
// the error itself: 503 when every tab is searching, 400 for a bad id.
func (s *Server) claimTab(w http.ResponseWriter, r *http.Request, id string) (context.Context, *search.Engine, func(), bool) {
	ctx, e, end, err := s.tabs.claim(r.Context(), id)
	switch {
	case err == errTooManyTabs:
		httpError(w, http.StatusServiceUnavailable, err)
	case err != nil:
		fail(w, err)
	}
	return ctx, e, end, err == nil
}

// errReplaced answers a search stopped because its tab started another
// while the page still waits.
var errReplaced = errors.New("stopped: this tab started another search")

// searchGame checks a search request and replays its game to the ply
// shown.
func (s *Server) searchGame(w http.ResponseWriter, r *http.Request, req *searchRequest) (*game.Game, bool) {
	if err := decodeJSON(w, r, req); err != nil {
		fail(w, err)
		return nil, false
	}
	if _, _, err := req.limits(); err != nil {
		fail(w, err) // before a tab is made for it
		return nil, false
	}
	if req.Rio != "" && req.Rio != "white" && req.Rio != "black" {
		fail(w, badf("rio %q: expected white or black", text.Clip(req.Rio, 80)))
		return nil, false
	}
	g, at, err := req.Game.replay()
	if err != nil {
		fail(w, err)
		return nil, false
	}
	g = upTo(g, at)
	if o := g.Outcome(); o.Result != game.Ongoing {
		fail(w, badf("the game is over: %s", o.Reason))
		return nil, false
	}
	return g, true
}

// handleSearch plays Rio's move. The search stops if the page goes away
// (the request's context) or the tab starts another.
func (s *Server) handleSearch(w http.ResponseWriter, r *http.Request) {
	var req searchRequest
	g, ok := s.searchGame(w, r, &req)
	if !ok {
		return
	}
	lim, opt, _ := req.limits() // checked by searchGame
	opt.Threads = s.cfg.Threads
	ctx, e, end, ok := s.claimTab(w, r, req.Tab)
	if !ok {
		return
	}
	// The tab is claimed for a book move too: a request of a tab stops
	// that tab's search, whatever answers it.
	if req.Book {
		rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 0x677569))
		if c, ok := book.Builtin(g.Variant).Play(g, book.DefaultMargin, rng); ok {
			end()
			p := g.Position()
			writeJSON(w, searchAnswer{Move: viewMove(g.Variant, &p, c.Move, nil), Score: viewScore(c.Score, p.Side), Book: true})
			return
		}
	}
	s.prepareTables(g)
	res := e.Run(ctx, g, lim, opt, nil)
	replaced := ctx.Err() != nil // before end, which cancels ctx
	end()
	if r.Context().Err() != nil {
		return // the page is gone
	}
	if replaced {
		httpError(w, http.StatusConflict, errReplaced)
		return
	}
	if res.Move == movegen.NoMove {
		fail(w, badf("no legal move"))
		return
	}
	p := g.Position()
	writeJSON(w, searchAnswer{
		Move: viewMove(g.Variant, &p, res.Move, nil), Score: viewScore(res.Score, p.Side),
		Depth: res.Depth, Nodes: res.Nodes, Time: res.Time.Seconds(),
	})
}

// drawMargin is how much Rio may be ahead, in hundredths of a man, and
// still accept a draw.
const drawMargin = 25

// handleDraw answers a draw offer to Rio (the side rio, or the side to
// move): it accepts unless a short search finds Rio better off than
// drawMargin.
func (s *Server) handleDraw(w http.ResponseWriter, r *http.Request) {
	var req searchRequest
	g, ok := s.searchGame(w, r, &req)
	if !ok {
		return
	}
	ctx, e, end, ok := s.claimTab(w, r, req.Tab)
	if !ok {
		return
	}
	res := e.Run(ctx, g, search.Limits{MoveTime: 500 * time.Millisecond, Depth: 16}, search.Options{Threads: s.cfg.Threads}, nil)
	replaced := ctx.Err() != nil // before end, which cancels ctx
	end()
	if r.Context().Err() != nil {
		return
	}
	if replaced {
		httpError(w, http.StatusConflict, errReplaced)
		return
	}
	p := g.Position()
	rioScore := res.Score // the search's score is the side to move's
	if req.Rio != "" && req.Rio != colorName(p.Side) {
		rioScore = -rioScore
	}
	writeJSON(w, map[string]any{"accept": rioScore <= drawMargin, "score": viewScore(res.Score, p.Side)})
}

// graphDepth is the depth of the searches that score every position of a
// game for the evaluation graph.
const graphDepth = 8

// handleGraph scores every position of a game, from White's side, with
// short searches: the evaluation graph. Final positions get their result.
func (s *Server) handleGraph(w http.ResponseWriter, r *http.Request) {
	var req searchRequest
	if err := decodeJSON(w, r, &req); err != nil {
		fail(w, err)
		return
	}
	req.Game.At = nil
	full, _, err := req.Game.replay()
	if err != nil {
		fail(w, err)
		return
	}
	ctx, e, end, ok := s.claimTab(w, r, req.Tab)
	if !ok {
		return
	}
	defer end()
	scores := make([]float64, 0, full.Ply()+1)
	g := game.New(full.Variant, full.Start())
	for i := 0; ; i++ {
		p := g.Position()
		switch o := g.Outcome(); o.Result {
		case game.WhiteWins:
			scores = append(scores, 100)
		case game.BlackWins:
			scores = append(scores, -100)
		case game.Draw:
			scores = append(scores, 0)
		default:
			res := e.Run(ctx, g, search.Limits{Depth: graphDepth}, search.Options{Threads: 1}, nil)
			scores = append(scores, viewScore(res.Score, p.Side).White)
		}
		if ctx.Err() != nil {
			if r.Context().Err() == nil {
				httpError(w, http.StatusConflict, errReplaced)
			}
			return
		}
		if i == full.Ply() {
			break
		}
		g.Play(full.Moves()[i])
	}
	writeJSON(w, map[string]any{"scores": scores})
}

// handleStop stops the tab's search (analysis switched off).
func (s *Server) handleStop(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Tab string `json:"tab"`
	}
	if err := decodeJSON(w, r, &req); err != nil {
		fail(w, err)
		return
	}
	if !validTabID(req.Tab) {
		fail(w, badf("tab %q: expected 1-64 letters, digits, - or _", text.Clip(req.Tab, 80)))
		return
	}
	stopped := false
	if t := s.tabs.lookup(req.Tab); t != nil && t.busy() {
		t.stop()
		stopped = true
	}
	writeJSON(w, map[string]bool{"stopped": stopped})
}
