package gui

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riodraughts/rio/internal/book"
	"github.com/riodraughts/rio/internal/eval"
	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/search"
	"github.com/rs/zerolog"
)

// The JSON the page reads, declared here field by field (not the
// package's own types) so that a renamed or dropped field fails a test.

type squareJSON struct {
	ID   int    `json:"id"`
	Num  int    `json:"num"`
	Name string `json:"name"`
	Row  int    `json:"row"`
	Col  int    `json:"col"`
}

type variantJSON struct {
	Name      string       `json:"name"`
	Title     string       `json:"title"`
	Algebraic bool         `json:"algebraic"`
	Start     string       `json:"start"`
	Rules     string       `json:"rules"`
	Squares   []squareJSON `json:"squares"`
}

type configJSON struct {
	Variant  string        `json:"variant"`
	Variants []variantJSON `json:"variants"`
	Levels   int           `json:"levels"`
	Tables   int           `json:"tables"`
	Threads  int           `json:"threads"`
}

type moveJSON struct {
	Move     string `json:"move"`
	Text     string `json:"text"`
	Num      string `json:"num"`
	From     int    `json:"from"`
	To       int    `json:"to"`
	Path     []int  `json:"path"`
	Captured []int  `json:"captured"`
}

type pieceJSON struct {
	Sq    int    `json:"sq"`
	Color string `json:"color"`
	King  bool   `json:"king"`
}

type stateJSON struct {
	Variant     string      `json:"variant"`
	Start       string      `json:"start"`
	Ply         int         `json:"ply"`
	Moves       []moveJSON  `json:"moves"`
	FEN         string      `json:"fen"`
	Side        string      `json:"side"`
	Board       []pieceJSON `json:"board"`
	Legal       []moveJSON  `json:"legal"`
	Result      string      `json:"result"`
	Reason      string      `json:"reason"`
	Final       string      `json:"final"`
	FinalReason string      `json:"finalReason"`
	Rule        string      `json:"rule"`
}

type scoreJSON struct {
	Value float64 `json:"value"`
	White float64 `json:"white"`
	Text  string  `json:"text"`
	Win   int     `json:"win"`
}

type searchJSON struct {
	Move  moveJSON  `json:"move"`
	Score scoreJSON `json:"score"`
	Depth int       `json:"depth"`
	Nodes int64     `json:"nodes"`
	Time  float64   `json:"time"`
	Book  bool      `json:"book"`
}

type lineJSON struct {
	Score scoreJSON  `json:"score"`
	PV    []moveJSON `json:"pv"`
}

type analysisJSON struct {
	Depth int        `json:"depth"`
	Nodes int64      `json:"nodes"`
	Lines []lineJSON `json:"lines"`
	Table string     `json:"table"`
	Done  bool       `json:"done"`
}

type importedJSON struct {
	Number  int               `json:"number"`
	Variant string            `json:"variant"`
	FEN     string            `json:"fen"`
	Moves   []string          `json:"moves"`
	Tags    map[string]string `json:"tags"`
	Result  string            `json:"result"`
	Error   string            `json:"error"`
}

type importJSON struct {
	Games []importedJSON `json:"games"`
	More  int            `json:"more"`
}

// gameReq is the game the page sends.
type gameReq struct {
	Variant string   `json:"variant"`
	FEN     string   `json:"fen,omitempty"`
	Moves   []string `json:"moves"`
	At      *int     `json:"at,omitempty"`
}

type searchReq struct {
	Tab      string  `json:"tab"`
	Game     gameReq `json:"game"`
	Level    int     `json:"level,omitempty"`
	MoveTime float64 `json:"movetime,omitempty"`
	Book     bool    `json:"book,omitempty"`
}

func intp(n int) *int { return &n }

// harness is a server on an httptest listener, its port set as the one
// served.
type harness struct {
	t      *testing.T
	s      *Server
	srv    *httptest.Server
	host   string // 127.0.0.1:port
	port   string
	client *http.Client
}

func newHarness(t *testing.T, cfg Config) *harness {
	t.Helper()
	if cfg.HashMiB == 0 {
		cfg.HashMiB = 16
	}
	return serve(t, New(cfg, zerolog.Nop()))
}

// serve serves s, which a test may have changed before (its tab set's
// newEngine, say).
func serve(t *testing.T, s *Server) *harness {
	t.Helper()
	srv := httptest.NewServer(s.Handler())
	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	_, port, err := net.SplitHostPort(u.Host)
	if err != nil {
		t.Fatal(err)
	}
	s.SetPort(port)
	t.Cleanup(func() {
		s.tabs.stopAll()
		srv.Close()
	})
	return &harness{t: t, s: s, srv: srv, host: u.Host, port: port, client: srv.Client()}
}

// do sends a request and returns the status and body.
func (h *harness) do(req *http.Request) (int, []byte) {
	h.t.Helper()
	resp, err := h.client.Do(req)
	if err != nil {
		h.t.Fatalf("%s %s: %v", req.Method, req.URL.Path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		h.t.Fatalf("%s %s: reading the answer: %v", req.Method, req.URL.Path, err)
	}
	return resp.StatusCode, b
}

// direct runs a request through the handler, without a connection.
func (h *harness) direct(method, path, contentType string, body []byte) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, path, bytes.NewReader(body))
	r.Host = h.host
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	w := httptest.NewRecorder()
	h.s.Handler().ServeHTTP(w, r)
	return w
}

func (h *harness) request(method, path, contentType string, body []byte) *http.Request {
	h.t.Helper()
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, h.srv.URL+path, r)
	if err != nil {
		h.t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	return req
}

// post sends v as JSON (or as it is when it is a string or []byte).
func (h *harness) post(path string, v any) (int, []byte) {
	h.t.Helper()
	var body []byte
	switch b := v.(type) {
	case string:
		body = []byte(b)
	case []byte:
		body = b
	default:
		var err error
		if body, err = json.Marshal(v); err != nil {
			h.t.Fatal(err)
		}
	}
	return h.do(h.request("POST", path, "application/json", body))
}

// ok posts v and decodes the 200 answer into out.
func (h *harness) ok(path string, v any, out any) {
	h.t.Helper()
	code, body := h.post(path, v)
	if code != http.StatusOK {
		h.t.Fatalf("POST %s %s: %d %s", path, clipBody(v), code, body)
	}
	if err := json.Unmarshal(body, out); err != nil {
		h.t.Fatalf("POST %s: answer %s: %v", path, body, err)
	}
}

// wantError checks an error answer: the code, a JSON {"error"} naming
// every one of has.
func wantError(t *testing.T, what string, code int, body []byte, wantCode int, has ...string) {
	t.Helper()
	if code != wantCode {
		t.Errorf("%s: status %d, want %d (%s)", what, code, wantCode, body)
		return
	}
	var e struct {
		Error string `json:"error"`
	}
	if err := json.Unmarshal(body, &e); err != nil || e.Error == "" {
		t.Errorf("%s: error body %q is not {\"error\": message} (%v)", what, body, err)
		return
	}
	for _, s := range has {
		if !strings.Contains(e.Error, s) {
			t.Errorf("%s: error %q does not mention %q", what, e.Error, s)
		}
	}
}

func clipBody(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 200 {
		return string(b[:200]) + "..."
	}
	return string(b)
}

func (h *harness) game(req gameReq) stateJSON {
	h.t.Helper()
	var st stateJSON
	h.ok("/api/game", req, &st)
	return st
}

func mustPosition(t *testing.T, v *movegen.Variant, fen string) movegen.Position {
	t.Helper()
	p, err := v.ParsePosition(fen)
	if err != nil {
		t.Fatalf("%s %q: %v", v.Name, fen, err)
	}
	return p
}

// genMoves is movegen's list of the legal moves of p in protocol notation,
// sorted.
func genMoves(v *movegen.Variant, p *movegen.Position) []string {
	var buf [movegen.MaxMoves]movegen.Move
	var out []string
	for _, m := range v.Generate(p, buf[:0]) {
		out = append(out, v.FormatMove(m))
	}
	slices.Sort(out)
	return out
}

// legalSet is the distinct protocol moves of a state's legal list, sorted.
func legalSet(ms []moveJSON) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Move)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// playSome plays up to n plies of v from fen, each a legal move chosen
// by a fixed rule (so the games are the same every run), stopping when
// the game ends. It returns the moves in protocol notation and the game.
func playSome(t *testing.T, v *movegen.Variant, fen string, n int) ([]string, *game.Game) {
	t.Helper()
	if fen == "" {
		fen = "startpos"
	}
	g := game.New(v, mustPosition(t, v, fen))
	var moves []string
	var buf [movegen.MaxMoves]movegen.Move
	for i := 0; i < n && g.Outcome().Result == game.Ongoing; i++ {
		p := g.Position()
		legal := v.Generate(&p, buf[:0])
		m := legal[(i*5+3)%len(legal)]
		moves = append(moves, v.FormatMove(m))
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return moves, g
}

func TestConfig(t *testing.T) {
	h := newHarness(t, Config{})
	code, body := h.do(h.request("GET", "/api/config", "", nil))
	if code != http.StatusOK {
		t.Fatalf("GET /api/config: %d %s", code, body)
	}
	var c configJSON
	if err := json.Unmarshal(body, &c); err != nil {
		t.Fatal(err)
	}
	if c.Variant != "brazilian" {
		t.Errorf("default variant %q, want brazilian", c.Variant)
	}
	if c.Levels != search.MaxLevel || c.Threads != 1 || c.Tables != 0 {
		t.Errorf("levels %d threads %d tables %d, want %d 1 0", c.Levels, c.Threads, c.Tables, search.MaxLevel)
	}
	var names []string
	for _, vv := range c.Variants {
		names = append(names, vv.Name)
	}
	if !slices.Equal(names, []string{"brazilian", "russian", "portuguese"}) {
		t.Fatalf("variants %v, want brazilian russian portuguese", names)
	}
	byNum := map[string]map[int]squareJSON{}
	for _, vv := range c.Variants {
		v := movegen.VariantByName(vv.Name)
		if vv.Title == "" || vv.Rules == "" {
			t.Errorf("%s: title %q rules %q", vv.Name, vv.Title, vv.Rules)
		}
		if vv.Algebraic != v.Numbering.Algebraic {
			t.Errorf("%s: algebraic %v", vv.Name, vv.Algebraic)
		}
		if p := mustPosition(t, v, vv.Start); p != v.Start() {
			t.Errorf("%s: start %q is not the initial position", vv.Name, vv.Start)
		}
		if len(vv.Squares) != 32 {
			t.Errorf("%s: %d squares, want 32", vv.Name, len(vv.Squares))
			continue
		}
		cells, ids, nums := map[[2]int]bool{}, map[int]bool{}, map[int]squareJSON{}
		parity := (vv.Squares[0].Row + vv.Squares[0].Col) % 2
		for _, sq := range vv.Squares {
			if sq.Row < 0 || sq.Row > 7 || sq.Col < 0 || sq.Col > 7 {
				t.Errorf("%s: square %d at row %d col %d is off the board", vv.Name, sq.Num, sq.Row, sq.Col)
			}
			if cells[[2]int{sq.Row, sq.Col}] {
				t.Errorf("%s: two squares at row %d col %d", vv.Name, sq.Row, sq.Col)
			}
			cells[[2]int{sq.Row, sq.Col}] = true
			if ids[sq.ID] {
				t.Errorf("%s: id %d twice", vv.Name, sq.ID)
			}
			ids[sq.ID] = true
			if _, dup := nums[sq.Num]; dup || sq.Num < 1 || sq.Num > 32 {
				t.Errorf("%s: number %d twice or out of 1-32", vv.Name, sq.Num)
			}
			nums[sq.Num] = sq
			if (sq.Row+sq.Col)%2 != parity {
				t.Errorf("%s: square %d (row %d col %d) is not on the colour of the others", vv.Name, sq.Num, sq.Row, sq.Col)
			}
			if s := v.Numbering.Square(sq.Num); int(s) != sq.ID {
				t.Errorf("%s: square %d has id %d, movegen says %d", vv.Name, sq.Num, sq.ID, s)
			}
			if sq.Row != movegen.Row(movegen.Square(sq.ID)) {
				t.Errorf("%s: square %d on row %d, movegen says %d", vv.Name, sq.Num, sq.Row, movegen.Row(movegen.Square(sq.ID)))
			}
			if sq.Name == "" {
				t.Errorf("%s: square %d has no name", vv.Name, sq.Num)
			}
		}
		byNum[vv.Name] = nums
		// White starts at the bottom of the drawn board, Black at the top.
		start := v.Start()
		for n, sq := range nums {
			s := movegen.Square(sq.ID)
			switch {
			case start.Pieces[movegen.White].Has(s) && sq.Row < 5:
				t.Errorf("%s: white man of square %d drawn on row %d", vv.Name, n, sq.Row)
			case start.Pieces[movegen.Black].Has(s) && sq.Row > 2:
				t.Errorf("%s: black man of square %d drawn on row %d", vv.Name, n, sq.Row)
			}
		}
	}
	check := func(variant string, num, row, col int, name string) {
		t.Helper()
		sq, ok := byNum[variant][num]
		if !ok {
			return
		}
		if sq.Row != row || sq.Col != col || (name != "" && sq.Name != name) {
			t.Errorf("%s square %d: %q at row %d col %d, want %q at row %d col %d", variant, num, sq.Name, sq.Row, sq.Col, name, row, col)
		}
	}
	check("brazilian", 29, 7, 0, "a1")
	check("brazilian", 1, 0, 1, "b8")
	check("brazilian", 32, 7, 6, "g1")
	check("russian", 29, 7, 0, "a1")
	check("russian", 1, 0, 1, "b8")
	// Portuguese is played on the mirrored board: square 1 in White's
	// bottom right corner.
	check("portuguese", 1, 7, 7, "1")
	check("portuguese", 32, 0, 0, "32")
	// The playing squares are the dark ones: a1 (row 7 col 0) on the
	// brazilian board, the bottom right corner on the portuguese.
	if sq, ok := byNum["portuguese"][1]; ok && (sq.Row+sq.Col)%2 != 0 {
		t.Errorf("portuguese squares on odd row+col")
	}
	if sq, ok := byNum["brazilian"][29]; ok && (sq.Row+sq.Col)%2 != 1 {
		t.Errorf("brazilian squares on even row+col")
	}

	// Another start variant.
	h2 := newHarness(t, Config{Variant: movegen.Portuguese})
	code, body = h2.do(h2.request("GET", "/api/config", "", nil))
	if err := json.Unmarshal(body, &c); code != 200 || err != nil || c.Variant != "portuguese" {
		t.Errorf("config with Variant portuguese: %d %s", code, body)
	}
}

func TestPageServed(t *testing.T) {
	h := newHarness(t, Config{})
	resp, err := h.client.Get(h.srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET /: %d", resp.StatusCode)
	}
	if got := resp.Header.Get("Cache-Control"); got != "no-cache" {
		t.Errorf("GET /: Cache-Control %q, want no-cache", got)
	}
	for k, want := range map[string]string{"X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"} {
		if got := resp.Header.Get(k); got != want {
			t.Errorf("GET /: %s %q, want %q", k, got, want)
		}
	}
}

func TestGameStart(t *testing.T) {
	h := newHarness(t, Config{})
	for _, v := range variantsInOrder {
		for _, fen := range []string{"", "startpos"} {
			st := h.game(gameReq{Variant: v.Name, FEN: fen})
			start := v.Start()
			want := genMoves(v, &start)
			if len(want) != 7 {
				t.Errorf("%s: movegen gives %d moves at the start, want 7", v.Name, len(want))
			}
			if got := legalSet(st.Legal); !slices.Equal(got, want) || len(st.Legal) != len(want) {
				t.Errorf("%s: legal %v, want %v", v.Name, got, want)
			}
			if st.Variant != v.Name || st.Ply != 0 || len(st.Moves) != 0 || st.Side != "white" {
				t.Errorf("%s: variant %q ply %d moves %d side %q", v.Name, st.Variant, st.Ply, len(st.Moves), st.Side)
			}
			if st.Result != "*" || st.Final != "*" || st.Reason != "" {
				t.Errorf("%s: result %q final %q reason %q at the start", v.Name, st.Result, st.Final, st.Reason)
			}
			if st.FEN != v.FormatFEN(&start, false) || st.Start != st.FEN {
				t.Errorf("%s: fen %q start %q", v.Name, st.FEN, st.Start)
			}
			if len(st.Board) != 24 {
				t.Errorf("%s: %d pieces on the board", v.Name, len(st.Board))
			}
			for _, pc := range st.Board {
				c := movegen.White
				if pc.Color == "black" {
					c = movegen.Black
				}
				if !start.Pieces[c].Has(movegen.Square(pc.Sq)) || pc.King {
					t.Errorf("%s: piece %+v is not in the start position", v.Name, pc)
				}
			}
			for _, m := range st.Legal {
				if len(m.Path) != 0 || len(m.Captured) != 0 || m.Text == "" || m.Num == "" {
					t.Errorf("%s: quiet move %+v", v.Name, m)
				}
			}
		}
	}
}

func TestGameReplayAndCursor(t *testing.T) {
	h := newHarness(t, Config{})
	for _, v := range variantsInOrder {
		moves, g := playSome(t, v, "startpos", 12)
		if len(moves) != 12 {
			t.Fatalf("%s: game ended after %d plies", v.Name, len(moves))
		}
		st := h.game(gameReq{Variant: v.Name, Moves: moves})
		end := g.Position()
		if st.Ply != 12 || len(st.Moves) != 12 || st.FEN != v.FormatFEN(&end, false) {
			t.Errorf("%s: ply %d, %d moves, fen %q; want 12, 12, %q", v.Name, st.Ply, len(st.Moves), st.FEN, v.FormatFEN(&end, false))
		}
		for i, m := range st.Moves {
			if m.Move != moves[i] {
				t.Errorf("%s: move %d is %q, sent %q", v.Name, i+1, m.Move, moves[i])
			}
		}
		if got, want := legalSet(st.Legal), genMoves(v, &end); !slices.Equal(got, want) {
			t.Errorf("%s: legal at the end %v, want %v", v.Name, got, want)
		}
		for _, at := range []int{0, 1, 5, 12} {
			sa := h.game(gameReq{Variant: v.Name, Moves: moves, At: intp(at)})
			p := g.PositionAt(at)
			if sa.Ply != at || sa.FEN != v.FormatFEN(&p, false) {
				t.Errorf("%s at %d: ply %d fen %q, want %q", v.Name, at, sa.Ply, sa.FEN, v.FormatFEN(&p, false))
			}
			if len(sa.Moves) != 12 {
				t.Errorf("%s at %d: %d moves in the record, want the whole game", v.Name, at, len(sa.Moves))
			}
			if got, want := legalSet(sa.Legal), genMoves(v, &p); !slices.Equal(got, want) {
				t.Errorf("%s at %d: legal %v, want %v", v.Name, at, got, want)
			}
			if side := colorName(p.Side); sa.Side != side {
				t.Errorf("%s at %d: side %q, want %q", v.Name, at, sa.Side, side)
			}
			if len(sa.Board) != p.Occupied().Count() {
				t.Errorf("%s at %d: %d pieces, want %d", v.Name, at, len(sa.Board), p.Occupied().Count())
			}
		}
	}
	// Moves in other notations are accepted and come back in protocol
	// notation.
	st := h.game(gameReq{Variant: "brazilian", Moves: []string{"c3-b4"}})
	if len(st.Moves) != 1 || st.Moves[0].Move != "22-17" || st.Moves[0].Text != "c3-b4" || st.Moves[0].Num != "22-17" {
		t.Errorf("c3-b4: %+v", st.Moves)
	}
}

func TestGameErrors(t *testing.T) {
	h := newHarness(t, Config{})
	// A game Black loses at once: White's man takes Black's last piece.
	overFEN := "W:W22:B18"
	p := mustPosition(t, movegen.Brazilian, overFEN)
	capture := genMoves(movegen.Brazilian, &p)
	if len(capture) != 1 {
		t.Fatalf("%s: moves %v, want one capture", overFEN, capture)
	}
	twoMoves, _ := playSome(t, movegen.Brazilian, "startpos", 2)
	tooMany := make([]string, maxGameMoves+1)
	for i := range tooMany {
		tooMany[i] = []string{"22-17", "9-13"}[i%2]
	}
	cases := []struct {
		name string
		body string
		ct   string
		code int
		has  []string
	}{
		{"unknown variant", `{"variant":"checkers"}`, "", 400, []string{"checkers"}},
		{"no variant", `{}`, "", 400, []string{"variant"}},
		{"bad FEN", `{"variant":"brazilian","fen":"W:W33:B1"}`, "", 400, []string{"33"}},
		{"bad FEN side", `{"variant":"russian","fen":"X:W21:B1"}`, "", 400, []string{"position"}},
		{"illegal move", fmt.Sprintf(`{"variant":"brazilian","moves":[%q,"32-28"]}`, twoMoves[0]), "", 400, []string{"move 2", "32-28"}},
		{"garbage move", `{"variant":"brazilian","moves":["22-17","hello"]}`, "", 400, []string{"move 2", "hello"}},
		{"at past the end", fmt.Sprintf(`{"variant":"brazilian","moves":[%q,%q],"at":3}`, twoMoves[0], twoMoves[1]), "", 400, []string{"ply 3"}},
		{"at negative", `{"variant":"brazilian","at":-1}`, "", 400, []string{"ply -1"}},
		{"unknown field", `{"variant":"brazilian","colour":"white"}`, "", 400, []string{"colour"}},
		{"wrong type", `{"variant":"brazilian","moves":"22-17"}`, "", 400, []string{"JSON"}},
		{"two values", `{"variant":"brazilian"} {"variant":"brazilian"}`, "", 400, []string{"more than one"}},
		{"empty body", ``, "", 400, []string{"JSON"}},
		{"wrong content type", `{"variant":"brazilian"}`, "text/plain", 400, []string{"content type"}},
		{"form content type", `variant=brazilian`, "application/x-www-form-urlencoded", 400, []string{"content type"}},
		{"too many moves", func() string { b, _ := json.Marshal(gameReq{Variant: "brazilian", Moves: tooMany}); return string(b) }(), "", 400, []string{"at most"}},
		{"move after the end", fmt.Sprintf(`{"variant":"brazilian","fen":%q,"moves":[%q,"18-22"]}`, overFEN, capture[0]), "", 400, []string{"move 2", "over"}},
	}
	for _, c := range cases {
		ct := c.ct
		if ct == "" {
			ct = "application/json"
		}
		code, body := h.do(h.request("POST", "/api/game", ct, []byte(c.body)))
		wantError(t, c.name, code, body, c.code, c.has...)
	}
	// The capture itself is fine and ends the game.
	st := h.game(gameReq{Variant: "brazilian", FEN: overFEN, Moves: capture})
	if st.Result != "2-0" || st.Final != "2-0" || st.Reason == "" || len(st.Legal) != 0 {
		t.Errorf("after %s: result %q final %q reason %q legal %v", capture[0], st.Result, st.Final, st.Reason, st.Legal)
	}
	// The body limit, to the byte (through the handler: a refused body
	// closes a real connection only after a delay).
	pad := func(n int) []byte {
		b := []byte(`{"variant":"brazilian","fen":"`)
		b = append(b, bytes.Repeat([]byte(" "), n-len(b)-2)...)
		return append(b, `"}`...)
	}
	if w := h.direct("POST", "/api/game", "application/json", pad(maxJSONBody)); w.Code != 200 {
		t.Errorf("a body of %d bytes: %d %s", maxJSONBody, w.Code, w.Body)
	}
	w := h.direct("POST", "/api/game", "application/json", pad(maxJSONBody+1))
	wantError(t, "body too big", w.Code, w.Body.Bytes(), 413, "larger")
	// A content type with parameters is JSON still.
	code, body := h.do(h.request("POST", "/api/game", "application/json; charset=utf-8", []byte(`{"variant":"brazilian"}`)))
	if code != 200 {
		t.Errorf("application/json; charset=utf-8: %d %s", code, body)
	}
}

// pathGroups groups p's legal captures by their from and to squares, each
// with every path it can be played by (movegen's view).
func pathGroups(v *movegen.Variant, p *movegen.Position) map[[2]int][]string {
	var buf [movegen.MaxMoves]movegen.Move
	groups := map[[2]int][]string{}
	for _, m := range v.Generate(p, buf[:0]) {
		if !m.IsCapture() {
			continue
		}
		for _, path := range v.CapturePaths(p, m) {
			k := [2]int{int(m.From()), int(m.To())}
			groups[k] = append(groups[k], fmt.Sprint(path))
		}
	}
	return groups
}

func TestCaptureChoices(t *testing.T) {
	h := newHarness(t, Config{})
	cases := []struct {
		v    *movegen.Variant
		fen  string
		what string
	}{
		// A man goes round the four black men either way (brazilian and
		// russian men capture backward).
		{movegen.Brazilian, "W:We3:Bd4,f4,d6,f6", "man's loop"},
		{movegen.Russian, "W:We3:Bd4,f4,d6,f6", "man's loop"},
		// A king's captures from 1 to 31 taking different pieces.
		{movegen.Brazilian, "W:WK1:B6,14,18,26", "king, different pieces"},
		// A king round a loop, three moves ending on its own square.
		{movegen.Brazilian, "W:WK26:B14,15,22,23", "king's loop"},
	}
	for _, c := range cases {
		p := mustPosition(t, c.v, c.fen)
		groups := pathGroups(c.v, &p)
		shared := 0
		for _, paths := range groups {
			if len(paths) > 1 {
				shared++
			}
		}
		if shared == 0 {
			t.Fatalf("%s %s (%s): no two captures share from and to squares: %v", c.v.Name, c.fen, c.what, groups)
		}
		st := h.game(gameReq{Variant: c.v.Name, FEN: c.fen})
		got := map[[2]int][]string{}
		seen := map[string]bool{}
		for _, m := range st.Legal {
			if len(m.Path) == 0 || m.Path[len(m.Path)-1] != m.To {
				t.Errorf("%s %s: capture %s has path %v not ending on %d", c.v.Name, c.fen, m.Move, m.Path, m.To)
			}
			if len(m.Captured) == 0 {
				t.Errorf("%s %s: capture %s lists no captured piece", c.v.Name, c.fen, m.Move)
			}
			k := [2]int{m.From, m.To}
			path := fmt.Sprint(m.Path)
			if seen[fmt.Sprint(k, path)] {
				t.Errorf("%s %s: path %s from %d to %d listed twice", c.v.Name, c.fen, path, m.From, m.To)
			}
			seen[fmt.Sprint(k, path)] = true
			got[k] = append(got[k], path)
			// The move the page sends back is the one movegen has.
			mv, err := c.v.ParseMove(&p, m.Move)
			if err != nil || int(mv.From()) != m.From || int(mv.To()) != m.To {
				t.Errorf("%s %s: %q does not name a legal move from %d to %d (%v)", c.v.Name, c.fen, m.Move, m.From, m.To, err)
				continue
			}
			var caps []int
			for b := mv.Captured(); b != 0; b &= b - 1 {
				caps = append(caps, int(b.First()))
			}
			if !slices.Equal(caps, m.Captured) {
				t.Errorf("%s %s: %s captured %v, movegen says %v", c.v.Name, c.fen, m.Move, m.Captured, caps)
			}
		}
		for k, want := range groups {
			g := slices.Clone(got[k])
			slices.Sort(g)
			slices.Sort(want)
			if !slices.Equal(g, want) {
				t.Errorf("%s %s (%s): from %d to %d paths %v, want %v", c.v.Name, c.fen, c.what, k[0], k[1], g, want)
			}
		}
		if len(got) != len(groups) {
			t.Errorf("%s %s: legal has %d (from, to) pairs, movegen %d", c.v.Name, c.fen, len(got), len(groups))
		}
		// Captures of different pieces between the same squares are told
		// apart in the notation too.
		texts := map[string][]int{}
		for _, m := range st.Legal {
			texts[m.Text] = m.Captured
		}
		for _, m := range st.Legal {
			if caps := texts[m.Text]; !slices.Equal(caps, m.Captured) {
				t.Errorf("%s %s: %q names captures of %v and of %v", c.v.Name, c.fen, m.Text, caps, m.Captured)
			}
		}
	}
}

func TestWholeGames(t *testing.T) {
	h := newHarness(t, Config{})
	const plyCap = 400
	for _, v := range variantsInOrder {
		t.Run(v.Name, func(t *testing.T) {
			var moves []string
			var st stateJSON
			for {
				st = h.game(gameReq{Variant: v.Name, Moves: moves})
				if st.Result != "*" || len(moves) >= plyCap {
					break
				}
				var ans searchJSON
				h.ok("/api/search", searchReq{Tab: "t1", Game: gameReq{Variant: v.Name, Moves: moves}, Level: 1 + len(moves)%2, Book: true}, &ans)
				if !slices.Contains(legalSet(st.Legal), ans.Move.Move) {
					t.Fatalf("ply %d: Rio played %q, not among %v", len(moves)+1, ans.Move.Move, legalSet(st.Legal))
				}
				if (ans.Depth < 1 && !ans.Book) || ans.Score.Text == "" {
					t.Errorf("ply %d: depth %d score %+v", len(moves)+1, ans.Depth, ans.Score)
				}
				if len(moves) == 0 && !ans.Book {
					t.Errorf("the start: searched (%+v), not the built-in book's move", ans)
				}
				moves = append(moves, ans.Move.Move)
			}
			if st.Result == "*" {
				t.Fatalf("no result after %d plies", len(moves))
			}
			if st.Reason == "" || st.Final != st.Result || st.FinalReason != st.Reason || len(st.Legal) != 0 {
				t.Errorf("end: result %q reason %q final %q %q legal %v", st.Result, st.Reason, st.Final, st.FinalReason, st.Legal)
			}
			// The rules say so too.
			g := game.New(v, v.Start())
			for _, m := range moves {
				if _, err := g.PlayText(m); err != nil {
					t.Fatal(err)
				}
			}
			o := g.Outcome()
			if o.Result.PDN() != st.Result || o.Reason != st.Reason {
				t.Errorf("the API says %s (%s), the game %s (%s)", st.Result, st.Reason, o.Result.PDN(), o.Reason)
			}
			t.Logf("%s: %s after %d plies: %s", v.Name, st.Result, len(moves), st.Reason)
			// The server will not search a game that is over.
			code, body := h.post("/api/search", searchReq{Tab: "t1", Game: gameReq{Variant: v.Name, Moves: moves}, Level: 1})
			wantError(t, "search after the end", code, body, 400, "over")
		})
	}
}

// TestMoveCountDraw plays from a few kings until a move-count rule draws,
// and checks the rule is shown while it counts.
func TestMoveCountDraw(t *testing.T) {
	h := newHarness(t, Config{})
	cases := []struct {
		v   *movegen.Variant
		fen string
	}{
		{movegen.Brazilian, "W:WK30,K31:BK2"},
		{movegen.Russian, "W:WK30,K31:BK2"},
		{movegen.Portuguese, "W:WK29,K32:BK4,K1"},
	}
	for _, c := range cases {
		var moves []string
		var st stateJSON
		ruled, lastRule, lastLeft := false, "", 0
		seen := map[string]bool{}
		for len(moves) < 200 {
			st = h.game(gameReq{Variant: c.v.Name, FEN: c.fen, Moves: moves})
			if st.Result != "*" {
				break
			}
			if st.Rule != "" {
				// "name: drawn in N plies", N one less each ply.
				name, n, ok := parseRule(st.Rule)
				if !ok {
					t.Fatalf("%s: rule note %q", c.v.Name, st.Rule)
				}
				if ruled && name == lastRule && n != lastLeft-1 {
					t.Errorf("%s ply %d: %q after %d plies left", c.v.Name, len(moves), st.Rule, lastLeft)
				}
				ruled, lastRule, lastLeft = true, name, n
			}
			// Shuffle the kings: the first quiet move in movegen's order
			// that leaves the other side no capture.
			seen[st.FEN] = true
			m := quietMove(t, c.v, st.FEN, seen)
			moves = append(moves, m)
		}
		if st.Result != "1-1" || st.Reason == "" {
			t.Errorf("%s %s: result %q (%s) after %d plies, want a draw by a rule", c.v.Name, c.fen, st.Result, st.Reason, len(moves))
		}
		if !ruled {
			t.Errorf("%s %s: drawn by %q, but no rule was shown counting", c.v.Name, c.fen, st.Reason)
		}
		if lastLeft != 1 || !strings.HasPrefix(st.Reason, lastRule) {
			t.Errorf("%s: the last note was %q with %d plies left, then drawn by %q", c.v.Name, lastRule, lastLeft, st.Reason)
		}
		if strings.Contains(st.Reason, "repetition") {
			t.Errorf("%s %s: drawn by %q, want a move-count rule", c.v.Name, c.fen, st.Reason)
		}
		t.Logf("%s: %s after %d plies %v", c.v.Name, st.Reason, len(moves), moves)
	}
}

// parseRule reads a rule note: "name: drawn in N plies".
func parseRule(note string) (string, int, bool) {
	i := strings.LastIndex(note, ": drawn in ")
	if i < 0 {
		return "", 0, false
	}
	var n int
	if _, err := fmt.Sscanf(note[i:], ": drawn in %d plies", &n); err != nil || n <= 0 {
		return "", 0, false
	}
	return note[:i], n, true
}

// quietMove returns a quiet move of fen after which the other side has a
// move and no capture, to a position not in seen if it can (the first in
// movegen's order), or else the first legal move.
func quietMove(t *testing.T, v *movegen.Variant, fen string, seen map[string]bool) string {
	t.Helper()
	p := mustPosition(t, v, fen)
	var buf, next [movegen.MaxMoves]movegen.Move
	legal := v.Generate(&p, buf[:0])
	choice := ""
	for _, m := range legal {
		q := p.Play(m)
		if m.IsCapture() || v.HasCapture(&q) || len(v.Generate(&q, next[:0])) == 0 {
			continue
		}
		if !seen[v.FormatFEN(&q, false)] {
			return v.FormatMove(m)
		}
		if choice == "" {
			choice = v.FormatMove(m)
		}
	}
	if choice == "" {
		choice = v.FormatMove(legal[0])
	}
	return choice
}

func TestGuard(t *testing.T) {
	h := newHarness(t, Config{})
	try := func(name, host string, hdr map[string]string, want int) {
		t.Helper()
		req := h.request("GET", "/api/config", "", nil)
		if host != "" {
			req.Host = host
		}
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		code, body := h.do(req)
		if want == 200 {
			if code != 200 {
				t.Errorf("%s: %d %s, want 200", name, code, body)
			}
			return
		}
		wantError(t, name, code, body, want)
	}
	wrongPort := "1"
	if h.port == "1" {
		wrongPort = "2"
	}
	try("own host", "", nil, 200)
	try("localhost", "localhost:"+h.port, nil, 200)
	try("LOCALHOST", "LOCALHOST:"+h.port, nil, 200)
	try("ipv6", "[::1]:"+h.port, nil, 200)
	try("DNS name", "evil.example:"+h.port, nil, 403)
	try("localhost subdomain", "localhost.evil.example:"+h.port, nil, 403)
	try("wrong port", "127.0.0.1:"+wrongPort, nil, 403)
	try("no port", "127.0.0.1", nil, 403)
	try("foreign origin", "", map[string]string{"Origin": "http://evil.example"}, 403)
	try("null origin", "", map[string]string{"Origin": "null"}, 403)
	try("https origin", "", map[string]string{"Origin": "https://" + h.host}, 403)
	try("origin with another port", "", map[string]string{"Origin": "http://127.0.0.1:" + wrongPort}, 403)
	try("cross-site fetch", "", map[string]string{"Sec-Fetch-Site": "cross-site"}, 403)
	// Another port's page on localhost is same-site but not this origin;
	// its <img> or EventSource requests carry no Origin.
	try("same-site, no origin", "", map[string]string{"Sec-Fetch-Site": "same-site"}, 403)
	try("address typed by the user", "", map[string]string{"Sec-Fetch-Site": "none"}, 200)
	try("own origin", "", map[string]string{"Origin": "http://" + h.host, "Sec-Fetch-Site": "same-origin"}, 200)
	try("localhost origin", "localhost:"+h.port, map[string]string{"Origin": "http://localhost:" + h.port}, 200)
	// The guard covers the POST API too: another site cannot start a
	// search.
	req := h.request("POST", "/api/search", "application/json", []byte(`{"tab":"x","game":{"variant":"brazilian"},"level":1}`))
	req.Header.Set("Origin", "http://evil.example")
	code, body := h.do(req)
	wantError(t, "foreign search", code, body, 403)
	if h.s.tabs.lookup("x") != nil {
		t.Errorf("a refused request made a tab")
	}
}

// stream is a live analysis read as Server-Sent Events.
type sseStream struct {
	cancel context.CancelFunc
	events chan analysisJSON // closed when the stream ends
	errs   chan error
}

// analyse opens an analysis stream and checks it started.
func (h *harness) analyse(q url.Values) *sseStream {
	h.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", h.srv.URL+"/api/analyse?"+q.Encode(), nil)
	if err != nil {
		h.t.Fatal(err)
	}
	resp, err := h.client.Do(req)
	if err != nil {
		cancel()
		h.t.Fatal(err)
	}
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		cancel()
		h.t.Fatalf("analyse %s: %d %s %s", q.Encode(), resp.StatusCode, resp.Header.Get("Content-Type"), b)
	}
	st := &sseStream{cancel: cancel, events: make(chan analysisJSON, 100), errs: make(chan error, 100)}
	go func() {
		defer resp.Body.Close()
		defer close(st.events)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		event, data := "", ""
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if event == "analysis" {
					var a analysisJSON
					if err := json.Unmarshal([]byte(data), &a); err != nil {
						st.errs <- fmt.Errorf("event data %q: %v", data, err)
					} else {
						st.events <- a
					}
				} else if event != "" {
					st.errs <- fmt.Errorf("unexpected event %q", event)
				}
				event, data = "", ""
			case strings.HasPrefix(line, ":"): // comment
			case strings.HasPrefix(line, "event: "):
				event = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				data += strings.TrimPrefix(line, "data: ")
			default:
				st.errs <- fmt.Errorf("unexpected line %q", line)
			}
		}
	}()
	h.t.Cleanup(cancel)
	return st
}

// next waits for the next report; false when the stream ended.
func (st *sseStream) next(t *testing.T, timeout time.Duration) (analysisJSON, bool) {
	t.Helper()
	select {
	case a, ok := <-st.events:
		return a, ok
	case <-time.After(timeout):
		t.Fatalf("no analysis report within %v", timeout)
		return analysisJSON{}, false
	}
}

// ended waits for the stream to end, skipping the reports still coming.
func (st *sseStream) ended(timeout time.Duration) bool {
	deadline := time.After(timeout)
	for {
		select {
		case _, ok := <-st.events:
			if !ok {
				return true
			}
		case <-deadline:
			return false
		}
	}
}

func (st *sseStream) checkErrs(t *testing.T) {
	t.Helper()
	for {
		select {
		case err := <-st.errs:
			t.Error(err)
		default:
			return
		}
	}
}

// waitIdle polls until the tab has no search running.
func waitIdle(t *testing.T, s *Server, tab string, timeout time.Duration) {
	t.Helper()
	tb := s.tabs.lookup(tab)
	if tb == nil {
		t.Fatalf("tab %q does not exist", tab)
	}
	for end := time.Now().Add(timeout); tb.busy(); {
		if time.Now().After(end) {
			t.Fatalf("tab %q still searching %v after its stream closed", tab, timeout)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func analyseQuery(tab, variant string, moves []string, lines int) url.Values {
	q := url.Values{"tab": {tab}, "variant": {variant}, "moves": {strings.Join(moves, " ")}}
	if lines > 0 {
		q.Set("lines", fmt.Sprint(lines))
	}
	return q
}

func TestAnalysisStream(t *testing.T) {
	h := newHarness(t, Config{})
	v := movegen.Brazilian
	moves, g := playSome(t, v, "startpos", 4)
	root := g.Position()
	legal := genMoves(v, &root)
	if len(legal) < 3 {
		t.Fatalf("only %d legal moves after %v", len(legal), moves)
	}
	st := h.analyse(analyseQuery("a", v.Name, moves, 3))
	if tb := h.s.tabs.lookup("a"); tb == nil || !tb.busy() {
		t.Fatalf("tab a is not searching while its stream is open")
	}
	var reports []analysisJSON
	for len(reports) < 2 || reports[len(reports)-1].Depth <= reports[0].Depth {
		a, ok := st.next(t, 5*time.Second)
		if !ok {
			t.Fatalf("stream ended after %d reports", len(reports))
		}
		reports = append(reports, a)
		if len(reports) > 50 {
			t.Fatalf("the depth does not grow: %+v", reports)
		}
	}
	for i, a := range reports {
		if i > 0 && a.Depth < reports[i-1].Depth {
			t.Errorf("report %d at depth %d after depth %d", i, a.Depth, reports[i-1].Depth)
		}
		if a.Done || a.Nodes <= 0 {
			t.Errorf("report %d: done %v nodes %d", i, a.Done, a.Nodes)
		}
		if len(a.Lines) != 3 {
			t.Errorf("report %d: %d lines, want 3", i, len(a.Lines))
		}
		firsts := map[string]bool{}
		for j, l := range a.Lines {
			if l.Score.Text == "" || len(l.PV) == 0 {
				t.Errorf("report %d line %d: score %+v pv %v", i, j+1, l.Score, l.PV)
				continue
			}
			if !slices.Contains(legal, l.PV[0].Move) {
				t.Errorf("report %d line %d starts with %q, not a legal move %v", i, j+1, l.PV[0].Move, legal)
			}
			if firsts[l.PV[0].Move] {
				t.Errorf("report %d: two lines start with %s", i, l.PV[0].Move)
			}
			firsts[l.PV[0].Move] = true
			// The whole line is playable.
			line := slices.Clone(moves)
			for _, m := range l.PV {
				line = append(line, m.Move)
			}
			if code, body := h.post("/api/game", gameReq{Variant: v.Name, Moves: line}); code != 200 {
				t.Errorf("report %d line %d is not playable: %s", i, j+1, body)
			}
		}
	}
	st.checkErrs(t)
	st.cancel()
	waitIdle(t, h.s, "a", time.Second)
	if !st.ended(time.Second) {
		t.Errorf("stream still open after its request was cancelled")
	}
}

func TestAnalysisReplaced(t *testing.T) {
	h := newHarness(t, Config{})
	first := h.analyse(analyseQuery("b", "russian", nil, 1))
	if _, ok := first.next(t, 5*time.Second); !ok {
		t.Fatal("first stream ended at once")
	}
	// The same tab starts another analysis: the first stream ends.
	second := h.analyse(analyseQuery("b", "russian", []string{"c3-d4"}, 2))
	if !first.ended(2 * time.Second) {
		t.Fatal("the first analysis goes on after its tab started another")
	}
	a, ok := second.next(t, 5*time.Second)
	if !ok || len(a.Lines) != 2 {
		t.Fatalf("second stream: %+v %v", a, ok)
	}
	// It analyses the position after c3-d4: Black's moves.
	p := mustPosition(t, movegen.Russian, "startpos")
	p = p.Play(mustMove(t, movegen.Russian, &p, "c3-d4"))
	if !slices.Contains(genMoves(movegen.Russian, &p), a.Lines[0].PV[0].Move) {
		t.Errorf("second stream's line %v is not from the position after c3-d4", a.Lines[0].PV[0].Move)
	}
	if tb := h.s.tabs.lookup("b"); !tb.busy() {
		t.Errorf("tab b not searching during its second analysis")
	}
	second.cancel()
	waitIdle(t, h.s, "b", time.Second)
	first.checkErrs(t)
	second.checkErrs(t)
}

func mustMove(t *testing.T, v *movegen.Variant, p *movegen.Position, text string) movegen.Move {
	t.Helper()
	m, err := v.ParseMove(p, text)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return m
}

func TestAnalysisErrors(t *testing.T) {
	h := newHarness(t, Config{})
	p := mustPosition(t, movegen.Brazilian, "W:W22:B18")
	capture := genMoves(movegen.Brazilian, &p)
	cases := []struct {
		name string
		q    url.Values
		has  string
	}{
		{"lines 9", analyseQuery("a", "brazilian", nil, 9), "lines"},
		{"lines 0", url.Values{"tab": {"a"}, "variant": {"brazilian"}, "lines": {"0"}}, "lines"},
		{"lines x", url.Values{"tab": {"a"}, "variant": {"brazilian"}, "lines": {"x"}}, "lines"},
		{"game over", url.Values{"tab": {"a"}, "variant": {"brazilian"}, "fen": {"W:W22:B18"}, "moves": {capture[0]}}, "over"},
		{"bad at", url.Values{"tab": {"a"}, "variant": {"brazilian"}, "at": {"one"}}, "at"},
		{"at past the end", url.Values{"tab": {"a"}, "variant": {"brazilian"}, "at": {"1"}}, "ply 1"},
		{"bad variant", url.Values{"tab": {"a"}, "variant": {"spanish"}}, "spanish"},
		{"illegal move", url.Values{"tab": {"a"}, "variant": {"brazilian"}, "moves": {"22-17 22-18"}}, "move 2"},
		{"bad tab", url.Values{"tab": {"a b"}, "variant": {"brazilian"}}, "tab"},
		{"no tab", url.Values{"variant": {"brazilian"}}, "tab"},
	}
	for _, c := range cases {
		code, body := h.do(h.request("GET", "/api/analyse?"+c.q.Encode(), "", nil))
		wantError(t, c.name, code, body, 400, c.has)
	}
	if h.s.tabs.lookup("a") != nil {
		t.Errorf("a refused analysis made a tab")
	}
	// At a ply before the end it analyses the position shown.
	q := url.Values{"tab": {"a"}, "variant": {"brazilian"}, "fen": {"W:W22:B18"}, "moves": {capture[0]}, "at": {"0"}}
	st := h.analyse(q)
	a, ok := st.next(t, 5*time.Second)
	if !ok || len(a.Lines) != 1 || a.Lines[0].PV[0].Move != capture[0] {
		t.Errorf("analysis at ply 0: %+v", a)
	}
	st.cancel()
	waitIdle(t, h.s, "a", time.Second)
}

func TestStop(t *testing.T) {
	h := newHarness(t, Config{})
	var ans map[string]bool
	h.ok("/api/stop", map[string]string{"tab": "nobody"}, &ans)
	if ans["stopped"] {
		t.Errorf("stop of an unknown tab: %v", ans)
	}
	st := h.analyse(analyseQuery("s", "portuguese", nil, 2))
	if _, ok := st.next(t, 5*time.Second); !ok {
		t.Fatal("stream ended at once")
	}
	h.ok("/api/stop", map[string]string{"tab": "s"}, &ans)
	if !ans["stopped"] {
		t.Errorf("stop of a running analysis: %v", ans)
	}
	waitIdle(t, h.s, "s", time.Second)
	if !st.ended(time.Second) {
		t.Errorf("the stream goes on after stop")
	}
	h.ok("/api/stop", map[string]string{"tab": "s"}, &ans)
	if ans["stopped"] {
		t.Errorf("second stop: %v", ans)
	}
	for _, bad := range []string{`{"tab":""}`, `{"tab":"a b"}`, `{"tab":"` + strings.Repeat("x", 65) + `"}`, `{"tab":"s","x":1}`} {
		code, body := h.post("/api/stop", bad)
		wantError(t, "stop "+bad, code, body, 400)
	}
	h.ok("/api/stop", map[string]string{"tab": strings.Repeat("x", 64)}, &ans)
	st.checkErrs(t)
}

// export asks for the PDN of a game.
func (h *harness) export(g gameReq, tags map[string]string, result string) string {
	h.t.Helper()
	var out struct {
		PDN string `json:"pdn"`
	}
	h.ok("/api/pdn/export", map[string]any{"game": g, "tags": tags, "result": result}, &out)
	if out.PDN == "" {
		h.t.Fatalf("export of %+v: empty PDN", g)
	}
	return out.PDN
}

func (h *harness) importPDN(query, text string) importJSON {
	h.t.Helper()
	code, body := h.do(h.request("POST", "/api/pdn/import"+query, "text/plain", []byte(text)))
	if code != 200 {
		h.t.Fatalf("import: %d %s\n%s", code, body, text)
	}
	var out importJSON
	if err := json.Unmarshal(body, &out); err != nil {
		h.t.Fatal(err)
	}
	return out
}

func TestPDNRoundTrip(t *testing.T) {
	h := newHarness(t, Config{})
	gameTypes := map[string]string{"brazilian": "26", "russian": "25", "portuguese": "28"}
	var all []string
	var sent []gameReq
	for _, v := range variantsInOrder {
		for _, from := range []string{"startpos", "midgame"} {
			fen := ""
			if from == "midgame" {
				_, g := playSome(t, v, "startpos", 9)
				p := g.Position()
				fen = v.FormatFEN(&p, false)
			}
			moves, g := playSome(t, v, fen, 30)
			if len(moves) < 10 {
				t.Fatalf("%s: only %d moves", v.Name, len(moves))
			}
			req := gameReq{Variant: v.Name, FEN: fen, Moves: moves}
			tags := map[string]string{"Event": "Rio test \"quoted\"", "White": "Rio", "Black": "Tester", "Round": "3"}
			pdn := h.export(req, tags, "")
			if !strings.Contains(pdn, `[GameType "`+gameTypes[v.Name]) {
				t.Errorf("%s: no GameType %s tag in\n%s", v.Name, gameTypes[v.Name], pdn)
			}
			if hasFEN := strings.Contains(pdn, "[FEN "); hasFEN != (fen != "") {
				t.Errorf("%s from %s: FEN tag %v in\n%s", v.Name, from, hasFEN, pdn)
			}
			wantResult := g.Outcome().Result.PDN()
			// Import without telling the variant: the GameType tag does.
			out := h.importPDN("", pdn)
			if len(out.Games) != 1 {
				t.Fatalf("%s: %d games imported", v.Name, len(out.Games))
			}
			ig := out.Games[0]
			start := g.Start()
			if ig.Variant != v.Name || ig.FEN != v.FormatFEN(&start, false) || !slices.Equal(ig.Moves, moves) || ig.Error != "" {
				t.Errorf("%s from %s: imported %+v\nwant fen %q moves %v", v.Name, from, ig, v.FormatFEN(&start, false), moves)
			}
			if ig.Number != 1 || ig.Result != wantResult {
				t.Errorf("%s: number %d result %q, want 1 %q", v.Name, ig.Number, ig.Result, wantResult)
			}
			for k, val := range tags {
				if ig.Tags[k] != val {
					t.Errorf("%s: tag %s = %q, want %q", v.Name, k, ig.Tags[k], val)
				}
			}
			// The page loads it back as it came.
			st := h.game(gameReq{Variant: ig.Variant, FEN: ig.FEN, Moves: ig.Moves})
			if st.Ply != len(moves) || st.Start != ig.FEN {
				t.Errorf("%s: reloaded ply %d start %q", v.Name, st.Ply, st.Start)
			}
			all = append(all, pdn)
			sent = append(sent, req)
		}
	}
	// Every game of a file, numbered.
	out := h.importPDN("", strings.Join(all, "\n"))
	if len(out.Games) != len(sent) || out.More != 0 {
		t.Fatalf("%d games of %d imported (more %d)", len(out.Games), len(sent), out.More)
	}
	for i, ig := range out.Games {
		if ig.Number != i+1 || ig.Variant != sent[i].Variant || !slices.Equal(ig.Moves, sent[i].Moves) || ig.Error != "" {
			t.Errorf("game %d: number %d variant %s %d moves error %q", i+1, ig.Number, ig.Variant, len(ig.Moves), ig.Error)
		}
	}
}

func TestPDNResults(t *testing.T) {
	h := newHarness(t, Config{})
	p := mustPosition(t, movegen.Brazilian, "W:W22:B18")
	capture := genMoves(movegen.Brazilian, &p)
	// The rules' result overrides the page's.
	over := gameReq{Variant: "brazilian", FEN: "W:W22:B18", Moves: capture}
	pdn := h.export(over, nil, "0-2")
	if ig := h.importPDN("", pdn).Games[0]; ig.Result != "2-0" || !strings.Contains(pdn, `[Result "2-0"]`) {
		t.Errorf("game Black lost exported as %q:\n%s", ig.Result, pdn)
	}
	// An ongoing game takes the page's: resignations and agreed draws.
	for sent, want := range map[string]string{"": "*", "*": "*", "1-0": "2-0", "2-0": "2-0", "0-1": "0-2", "0-2": "0-2", "1-1": "1-1", "1/2-1/2": "1-1"} {
		pdn := h.export(gameReq{Variant: "russian", Moves: []string{"c3-d4"}}, nil, sent)
		if ig := h.importPDN("", pdn).Games[0]; ig.Result != want {
			t.Errorf("result %q exported as %q, want %q:\n%s", sent, ig.Result, want, pdn)
		}
	}
	// The page cannot override what the game says it is.
	pdn = h.export(gameReq{Variant: "russian"}, map[string]string{"GameType": "26", "FEN": "W:W1:B2", "Result": "2-0"}, "")
	ig := h.importPDN("", pdn).Games[0]
	if ig.Variant != "russian" || ig.Result != "*" || ig.FEN != h.game(gameReq{Variant: "russian"}).Start {
		t.Errorf("tags overriding the game: %+v\n%s", ig, pdn)
	}
	// A tag value cannot break out of its quotes.
	inject := "x\"]\n[FEN \"W:W1:B2\"]\n\n1. 22-17 *"
	pdn = h.export(gameReq{Variant: "brazilian", Moves: []string{"22-17", "9-13"}}, map[string]string{"Event": inject}, "")
	if out := h.importPDN("", pdn); len(out.Games) != 1 || len(out.Games[0].Moves) != 2 || out.Games[0].FEN != h.game(gameReq{Variant: "brazilian"}).Start || !strings.HasPrefix(out.Games[0].Tags["Event"], "x\"]") {
		t.Errorf("tag %q exported as\n%s\nimported %+v", inject, pdn, out)
	}
	bad := []struct {
		name string
		body any
		code int
		has  string
	}{
		{"bad result", map[string]any{"game": gameReq{Variant: "brazilian"}, "result": "3-0"}, 400, "result"},
		{"bad tag name", map[string]any{"game": gameReq{Variant: "brazilian"}, "tags": map[string]string{"a b": "x"}}, 400, "tag"},
		{"illegal move", map[string]any{"game": gameReq{Variant: "brazilian", Moves: []string{"22-19"}}}, 400, "move 1"},
		{"unknown field", map[string]any{"game": gameReq{Variant: "brazilian"}, "colour": 1}, 400, "colour"},
		{"too many tags", map[string]any{"game": gameReq{Variant: "brazilian"}, "tags": func() map[string]string {
			m := map[string]string{}
			for i := range 65 {
				m[fmt.Sprint("T", i)] = "x"
			}
			return m
		}()}, 400, "tags"},
	}
	for _, c := range bad {
		code, body := h.post("/api/pdn/export", c.body)
		wantError(t, "export: "+c.name, code, body, c.code, c.has)
	}
}

func TestPDNImportErrors(t *testing.T) {
	h := newHarness(t, Config{})
	v := movegen.Brazilian
	moves, _ := playSome(t, v, "startpos", 2)
	p := v.Start()
	if _, err := v.ParseMove(&p, "32-28"); err == nil {
		t.Fatal("32-28 is legal at the start")
	}
	good := h.export(gameReq{Variant: "brazilian", Moves: moves}, map[string]string{"Event": "good"}, "")
	broken := fmt.Sprintf("[Event \"broken\"]\n[GameType \"26\"]\n\n1. %s %s 2. 32-28 *\n", moves[0], moves[1])
	out := h.importPDN("", good+"\n"+broken+"\n"+good)
	if len(out.Games) != 3 {
		t.Fatalf("%d games imported, want 3: %+v", len(out.Games), out)
	}
	for i, ig := range out.Games {
		if ig.Number != i+1 {
			t.Errorf("game %d numbered %d", i+1, ig.Number)
		}
		if (ig.Error != "") != (i == 1) {
			t.Errorf("game %d: error %q", i+1, ig.Error)
		}
		if !slices.Equal(ig.Moves, moves) {
			t.Errorf("game %d: moves %v, want %v", i+1, ig.Moves, moves)
		}
	}
	if e := out.Games[1].Error; !strings.Contains(e, "32-28") {
		t.Errorf("the broken game's error %q does not name 32-28", e)
	}
	// Games without a GameType: the query says which variant.
	rus := "1. c3-d4 f6-e5 2. d4:f6 g7:e5 *\n"
	if ig := h.importPDN("?variant=russian", rus).Games[0]; ig.Variant != "russian" || len(ig.Moves) != 4 || ig.Error != "" {
		t.Errorf("russian without GameType: %+v", ig)
	}
	if ig := h.importPDN("", "1. 22-17 *\n").Games[0]; ig.Variant != "brazilian" || len(ig.Moves) != 1 {
		t.Errorf("the server's variant for a game without GameType: %+v", ig)
	}
	code, body := h.do(h.request("POST", "/api/pdn/import?variant=spanish", "text/plain", []byte(rus)))
	wantError(t, "unknown variant", code, body, 400, "spanish")
	// An unsupported GameType is that game's error.
	if ig := h.importPDN("", "[GameType \"20\"]\n1. 32-28 *\n").Games[0]; ig.Error == "" {
		t.Errorf("international game imported: %+v", ig)
	}
	for name, text := range map[string]string{"empty": "", "blank": " \n\t\n"} {
		code, body := h.do(h.request("POST", "/api/pdn/import", "text/plain", []byte(text)))
		wantError(t, "import "+name, code, body, 400, "empty")
	}
	// 4 MiB, to the byte.
	padded := []byte(good + strings.Repeat(" ", maxPDNBody-len(good)))
	if w := h.direct("POST", "/api/pdn/import", "text/plain", padded); w.Code != 200 {
		t.Errorf("a PDN of %d bytes: %d %s", len(padded), w.Code, w.Body)
	}
	w := h.direct("POST", "/api/pdn/import", "text/plain", append(padded, ' '))
	wantError(t, "import over 4 MiB", w.Code, w.Body.Bytes(), 413)
	// A file of more games than an import lists.
	many := h.importPDN("", strings.Repeat("1. 22-17 *\n", maxImportGames+3))
	if len(many.Games) != maxImportGames || many.More != 3 || many.Games[maxImportGames-1].Number != maxImportGames {
		t.Errorf("%d games imported, more %d; want %d and 3", len(many.Games), many.More, maxImportGames)
	}
}

func TestDraw(t *testing.T) {
	h := newHarness(t, Config{})
	type drawJSON struct {
		Accept *bool     `json:"accept"`
		Score  scoreJSON `json:"score"`
	}
	cases := []struct {
		name   string
		g      gameReq
		accept bool
	}{
		{"start", gameReq{Variant: "brazilian"}, true},
		// Rio, to move, has three kings against a man.
		{"three kings", gameReq{Variant: "brazilian", FEN: "W:WK29,K30,K31:B4"}, false},
		// Rio, to move, has the man.
		{"lone man", gameReq{Variant: "portuguese", FEN: "B:WK1,K2,K3:B30"}, true},
	}
	for _, c := range cases {
		var d drawJSON
		h.ok("/api/draw", searchReq{Tab: "d", Game: c.g}, &d)
		if d.Accept == nil || *d.Accept != c.accept {
			t.Errorf("%s: accept %v (score %+v), want %v", c.name, d.Accept, d.Score, c.accept)
		}
		if !c.accept && d.Score.Value <= float64(drawMargin)/100 {
			t.Errorf("%s: score %+v, not ahead", c.name, d.Score)
		}
	}
	code, body := h.post("/api/draw", searchReq{Tab: "a b", Game: gameReq{Variant: "brazilian"}})
	wantError(t, "draw with a bad tab", code, body, 400, "tab")
}

func TestGraph(t *testing.T) {
	h := newHarness(t, Config{})
	moves, _ := playSome(t, movegen.Russian, "startpos", 6)
	var out struct {
		Scores []float64 `json:"scores"`
	}
	h.ok("/api/graph", searchReq{Tab: "g", Game: gameReq{Variant: "russian", Moves: moves}}, &out)
	if len(out.Scores) != len(moves)+1 {
		t.Errorf("%d scores for %d moves, want %d", len(out.Scores), len(moves), len(moves)+1)
	}
	for i, s := range out.Scores {
		if s < -100 || s > 100 {
			t.Errorf("score %d = %v", i, s)
		}
	}
	// A game White won ends at +100, from White's side whoever moved.
	p := mustPosition(t, movegen.Brazilian, "W:W22:B18")
	capture := genMoves(movegen.Brazilian, &p)
	h.ok("/api/graph", searchReq{Tab: "g", Game: gameReq{Variant: "brazilian", FEN: "W:W22:B18", Moves: capture}}, &out)
	if !slices.Equal(out.Scores, []float64{100, 100}) {
		t.Errorf("graph of a won game: %v, want [100 100]", out.Scores)
	}
	p = mustPosition(t, movegen.Brazilian, "B:W22:B18")
	h.ok("/api/graph", searchReq{Tab: "g", Game: gameReq{Variant: "brazilian", FEN: "B:W22:B18"}}, &out)
	if len(out.Scores) != 1 || out.Scores[0] != -100 {
		t.Errorf("graph of a position Black wins at once: %v, want [-100]", out.Scores)
	}
	for _, c := range []struct {
		name string
		req  any
	}{
		{"bad tab", searchReq{Tab: "", Game: gameReq{Variant: "russian"}}},
		{"illegal move", searchReq{Tab: "g", Game: gameReq{Variant: "russian", Moves: []string{"c3-c4"}}}},
		{"bad variant", searchReq{Tab: "g", Game: gameReq{Variant: "x"}}},
	} {
		code, body := h.post("/api/graph", c.req)
		wantError(t, "graph: "+c.name, code, body, 400)
	}
}

func TestSearchErrors(t *testing.T) {
	h := newHarness(t, Config{})
	cases := []struct {
		name string
		req  any
		has  string
	}{
		{"level 11", searchReq{Tab: "t", Game: gameReq{Variant: "brazilian"}, Level: 11}, "level"},
		{"level -1", searchReq{Tab: "t", Game: gameReq{Variant: "brazilian"}, Level: -1}, "level"},
		{"movetime -1", searchReq{Tab: "t", Game: gameReq{Variant: "brazilian"}, MoveTime: -1}, "movetime"},
		{"movetime 1e9", searchReq{Tab: "t", Game: gameReq{Variant: "brazilian"}, MoveTime: 1e9}, "movetime"},
		{"bad tab", searchReq{Tab: "a b", Game: gameReq{Variant: "brazilian"}, Level: 1}, "tab"},
		{"long tab", searchReq{Tab: strings.Repeat("t", 65), Game: gameReq{Variant: "brazilian"}, Level: 1}, "tab"},
		{"no tab", searchReq{Game: gameReq{Variant: "brazilian"}, Level: 1}, "tab"},
		{"bad game", searchReq{Tab: "t", Game: gameReq{Variant: "brazilian", FEN: "W:W:B:X"}, Level: 1}, "position"},
		{"unknown field", `{"tab":"t","game":{"variant":"brazilian"},"depth":3}`, "depth"},
	}
	for _, c := range cases {
		code, body := h.post("/api/search", c.req)
		wantError(t, "search: "+c.name, code, body, 400, c.has)
	}
	// A search by time answers in about that time.
	var ans searchJSON
	t0 := time.Now()
	h.ok("/api/search", searchReq{Tab: strings.Repeat("t", 64), Game: gameReq{Variant: "portuguese"}, MoveTime: 0.05}, &ans)
	if el := time.Since(t0); el > 2*time.Second {
		t.Errorf("a 0.05 s search took %v", el)
	}
	start := movegen.Portuguese.Start()
	if !slices.Contains(genMoves(movegen.Portuguese, &start), ans.Move.Move) || ans.Nodes <= 0 || ans.Book {
		t.Errorf("search answer %+v", ans)
	}
	// With book, the start is answered from the built-in book, a move
	// within 4 hundredths of its best.
	ans = searchJSON{}
	h.ok("/api/search", searchReq{Tab: "t", Game: gameReq{Variant: "portuguese"}, MoveTime: 5, Book: true}, &ans)
	choices := book.Builtin(movegen.Portuguese).Lookup(&start)
	if !ans.Book || ans.Nodes != 0 || !slices.ContainsFunc(choices, func(c book.Choice) bool {
		return movegen.Portuguese.FormatMove(c.Move) == ans.Move.Move && c.Score >= choices[0].Score-4
	}) {
		t.Errorf("book answer %+v, want one of %d book moves", ans, len(choices))
	}
	// With one legal move, Rio plays it.
	p := mustPosition(t, movegen.Brazilian, "W:W22:B18")
	h.ok("/api/search", searchReq{Tab: "t", Game: gameReq{Variant: "brazilian", FEN: "W:W22:B18"}, MoveTime: 0.05}, &ans)
	if want := genMoves(movegen.Brazilian, &p); ans.Move.Move != want[0] || ans.Score.Win <= 0 {
		t.Errorf("only move: %+v, want %s winning", ans, want[0])
	}
}

func TestTabs(t *testing.T) {
	h := newHarness(t, Config{MaxTabs: 2})
	search := func(tab string) {
		t.Helper()
		var ans searchJSON
		h.ok("/api/search", searchReq{Tab: tab, Game: gameReq{Variant: "brazilian"}, Level: 1}, &ans)
	}
	have := func(want ...string) {
		t.Helper()
		for _, id := range []string{"t1", "t2", "t3", "t4", "t5"} {
			if got := h.s.tabs.lookup(id) != nil; got != slices.Contains(want, id) {
				t.Errorf("tab %s exists: %v, want tabs %v", id, got, want)
			}
		}
	}
	search("t1")
	search("t2")
	have("t1", "t2")
	search("t3") // t1 is the least recently used
	have("t2", "t3")
	search("t2")
	search("t4") // t3 is now
	have("t2", "t4")
	// A tab that is searching is not evicted, even when it is the oldest.
	st := h.analyse(analyseQuery("t2", "brazilian", nil, 1))
	if _, ok := st.next(t, 5*time.Second); !ok {
		t.Fatal("stream ended")
	}
	search("t4")
	search("t5") // t2 is older but busy
	have("t2", "t5")
	// Every tab searching: a new one is refused, not given another's
	// engine.
	st5 := h.analyse(analyseQuery("t5", "brazilian", nil, 1))
	if _, ok := st5.next(t, 5*time.Second); !ok {
		t.Fatal("stream ended")
	}
	code, body := h.post("/api/search", searchReq{Tab: "t1", Game: gameReq{Variant: "brazilian"}, Level: 1})
	wantError(t, "a third tab while two search", code, body, http.StatusServiceUnavailable, "too many")
	code, body = h.do(h.request("GET", "/api/analyse?"+analyseQuery("t3", "brazilian", nil, 1).Encode(), "", nil))
	wantError(t, "a third analysis while two search", code, body, http.StatusServiceUnavailable, "too many")
	have("t2", "t5")
	// The tab whose search ended first is the one to go.
	st5.cancel()
	waitIdle(t, h.s, "t5", time.Second)
	st.cancel()
	waitIdle(t, h.s, "t2", time.Second)
	search("t1")
	have("t1", "t2")
	// Bad ids.
	for _, id := range []string{"a b", strings.Repeat("x", 65), "", "tab/1", "é"} {
		code, body := h.post("/api/search", searchReq{Tab: id, Game: gameReq{Variant: "brazilian"}, Level: 1})
		wantError(t, fmt.Sprintf("tab %q", id), code, body, 400, "tab")
	}
	have("t1", "t2")
}

// TestGraphTooManyTabs: /api/graph answers a full tab set like the other
// searches do (503), not as a server error.
func TestGraphTooManyTabs(t *testing.T) {
	h := newHarness(t, Config{MaxTabs: 1})
	st := h.analyse(analyseQuery("a", "brazilian", nil, 1))
	if _, ok := st.next(t, 5*time.Second); !ok {
		t.Fatal("stream ended")
	}
	code, body := h.post("/api/graph", searchReq{Tab: "b", Game: gameReq{Variant: "brazilian"}})
	wantError(t, "graph while another tab searches", code, body, http.StatusServiceUnavailable, "too many")
	st.cancel()
}

// The tests below show bugs found while writing these tests, fixed
// since: each fails if its bug comes back.

// TestBadSearchKeepsTabs: a search refused for its limits must not make a
// tab, let alone evict another.
func TestBadSearchKeepsTabs(t *testing.T) {
	h := newHarness(t, Config{MaxTabs: 2})
	var ans searchJSON
	h.ok("/api/search", searchReq{Tab: "t1", Game: gameReq{Variant: "brazilian"}, Level: 1}, &ans)
	h.ok("/api/search", searchReq{Tab: "t2", Game: gameReq{Variant: "brazilian"}, Level: 1}, &ans)
	code, body := h.post("/api/search", searchReq{Tab: "t3", Game: gameReq{Variant: "brazilian"}, Level: 99})
	wantError(t, "level 99", code, body, 400, "level")
	if h.s.tabs.lookup("t1") == nil || h.s.tabs.lookup("t3") != nil {
		t.Errorf("a refused search evicted t1 (%v) or made t3 (%v)", h.s.tabs.lookup("t1") == nil, h.s.tabs.lookup("t3") != nil)
	}
}

// TestGraphStoppedByAnotherSearch: a graph whose search the tab stops
// (it started an analysis) answers 409 errReplaced, like the other
// searches, not a 200 with the scores it has. The graph is held in its
// first search (by the evaluation) until the analysis has claimed the tab,
// so that it cannot finish first.
func TestGraphStoppedByAnotherSearch(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	h := newHarness(t, Config{Eval: func(v *movegen.Variant, p *movegen.Position) int {
		once.Do(func() { close(entered) })
		<-release
		return eval.Learned(v, p)
	}})
	moves, _ := playSome(t, movegen.Russian, "startpos", 60)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel() // ends the analysis
	go func() {
		defer close(release)
		select {
		case <-entered:
		case <-time.After(10 * time.Second):
			t.Error("the graph never started searching")
			return
		}
		tb := h.s.tabs.lookup("g")
		tb.mu.Lock()
		graph := tb.done // a claim of the tab replaces it
		tb.mu.Unlock()
		h.startLong(ctx, "analyse", "g")
		for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(time.Millisecond) {
			tb.mu.Lock()
			newer := tb.done != graph
			tb.mu.Unlock()
			if newer {
				return
			}
		}
		t.Error("the analysis never claimed the tab")
	}()
	code, body := h.post("/api/graph", searchReq{Tab: "g", Game: gameReq{Variant: "russian", Moves: moves}})
	wantError(t, "graph stopped by an analysis", code, body, http.StatusConflict, errReplaced.Error())
}

// TestImportPastTheEnd: a PDN game that goes on after the rules ended it
// must come with an error and the moves up to the end, since /api/game
// will not load moves after the end.
func TestImportPastTheEnd(t *testing.T) {
	h := newHarness(t, Config{})
	// Drawn by the 5-move rule after ply 10 (TestMoveCountDraw), then two
	// more plies.
	pdn := "[GameType \"26\"]\n[FEN \"W:WK30,K31:BK2\"]\n1. 30-21 2-6 2. 21-3 6-1 3. 3-7 1-5 4. 7-2 5-1 5. 2-9 1-5 6. 9-2 5-1 *\n"
	ig := h.importPDN("", pdn).Games[0]
	code, body := h.post("/api/game", gameReq{Variant: ig.Variant, FEN: ig.FEN, Moves: ig.Moves})
	if code != 200 {
		t.Errorf("imported game %+v (error %q) does not load: %d %s", ig.Moves, ig.Error, code, body)
	}
	if len(ig.Moves) != 10 || ig.Error == "" {
		t.Errorf("imported %d moves, error %q; want the 10 before the end and an error", len(ig.Moves), ig.Error)
	}
}
