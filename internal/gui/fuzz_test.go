package gui

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/riodraughts/rio/internal/game"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/rs/zerolog"
)

// The fuzzers feed arbitrary bodies to the handlers: no panic, and every
// answer a 200 or a 4xx with a JSON error, never a 500. Seeds are below and
// in testdata/fuzz/<FuzzName>/. Run one with, for example,
//
//	go test -run XXX -fuzz FuzzGameRequest -fuzztime 1000000x ./internal/gui/

const fuzzHost = "127.0.0.1:8080"

func fuzzServer() *Server {
	s := New(Config{HashMiB: 1}, zerolog.Nop())
	s.SetPort("8080")
	return s
}

// serve runs one request through s's guarded handler.
func fuzzServe(s *Server, method, target, contentType string, body []byte) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, bytes.NewReader(body))
	r.Host = fuzzHost
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	w := httptest.NewRecorder()
	s.Handler().ServeHTTP(w, r)
	return w
}

// checkAnswer fails unless w is a 200 or a 4xx with a JSON error.
func checkAnswer(t *testing.T, what string, w *httptest.ResponseRecorder) {
	t.Helper()
	if ct := w.Header().Get("Content-Type"); ct != "application/json" {
		t.Fatalf("%s: content type %q", what, ct)
	}
	if w.Code == http.StatusOK {
		return
	}
	if w.Code < 400 || w.Code > 499 {
		t.Fatalf("%s: status %d: %s", what, w.Code, w.Body)
	}
	var e struct {
		Error string `json:"error"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil || e.Error == "" {
		t.Fatalf("%s: status %d with body %q", what, w.Code, w.Body)
	}
}

func FuzzGameRequest(f *testing.F) {
	for _, s := range []string{
		`{"variant":"brazilian"}`,
		`{"variant":"russian","moves":["c3-d4","f6-e5","d4xf6","g7xe5"],"at":2}`,
		`{"variant":"portuguese","fen":"W:WK1:B10,27","moves":["1x30"]}`,
		`{"variant":"brazilian","fen":"W:We3:Bd4,f4,d6,f6"}`,
		`{"variant":"brazilian","fen":"W:W22:B18","moves":["22x15","15-11"]}`,
		`{"variant":"russian","fen":"Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"}`,
		`{"variant":"brazilian","at":-1}`,
		`{"variant":"x","fen":"W:W33:B1","colour":1}`,
		`[1,2]`, `null`, `{"variant":"brazilian"} {}`,
	} {
		f.Add([]byte(s))
	}
	s := fuzzServer()
	f.Fuzz(func(t *testing.T, body []byte) {
		w := fuzzServe(s, "POST", "/api/game", "application/json", body)
		checkAnswer(t, "game", w)
		if w.Code != http.StatusOK {
			return
		}
		var st stateJSON
		if err := json.Unmarshal(w.Body.Bytes(), &st); err != nil {
			t.Fatalf("state %s: %v", w.Body, err)
		}
		if (st.Result == "*") != (len(st.Legal) > 0) {
			t.Fatalf("result %q with %d legal moves", st.Result, len(st.Legal))
		}
		if st.Ply < 0 || st.Ply > len(st.Moves) {
			t.Fatalf("ply %d of %d moves", st.Ply, len(st.Moves))
		}
		for _, m := range st.Legal {
			if len(m.Path) > 0 && m.Path[len(m.Path)-1] != m.To {
				t.Fatalf("legal %s: path %v does not end on %d", m.Move, m.Path, m.To)
			}
		}
		// The game as the server writes it loads back to the same
		// position.
		again := gameReq{Variant: st.Variant, FEN: st.Start, At: &st.Ply}
		for _, m := range st.Moves {
			again.Moves = append(again.Moves, m.Move)
		}
		b, _ := json.Marshal(again)
		w2 := fuzzServe(s, "POST", "/api/game", "application/json", b)
		var st2 stateJSON
		if w2.Code != http.StatusOK || json.Unmarshal(w2.Body.Bytes(), &st2) != nil {
			t.Fatalf("the server's own record %s does not load: %d %s", b, w2.Code, w2.Body)
		}
		if st2.FEN != st.FEN || st2.Ply != st.Ply || !slices.Equal(legalSet(st2.Legal), legalSet(st.Legal)) || st2.Result != st.Result {
			t.Fatalf("record %s loads as %s at ply %d, was %s at ply %d", b, st2.FEN, st2.Ply, st.FEN, st.Ply)
		}
	})
}

func FuzzImport(f *testing.F) {
	for _, s := range []string{
		"[Event \"x\"]\n[GameType \"26\"]\n\n1. 22-17 11-15 2. 17x10 7x14 *\n",
		"[GameType \"25\"]\n1. c3-d4 f6-e5 2. d4:f6 g7:e5 1-1\n\n[GameType \"28\"]\n[FEN \"W:WK1:B10,27\"]\n1. 1x30 2-0\n",
		"[GameType \"26\"]\n1. 22-17 11-15 2. 32-28 *\n",
		"1. 22-17 {a comment} (1. 21-17) 11-15 $1 *",
		"[GameType \"20\"]\n1. 32-28 *",
		"[Event \"unclosed\n1. 22-17",
		"% escape\n[GameType \"26\"]\n1. 22-17 ; rest\n*",
	} {
		f.Add(s)
	}
	s := fuzzServer()
	f.Fuzz(func(t *testing.T, text string) {
		w := fuzzServe(s, "POST", "/api/pdn/import", "text/plain", []byte(text))
		checkAnswer(t, "import", w)
		if w.Code != http.StatusOK {
			return
		}
		var out importJSON
		if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
			t.Fatalf("import answer %s: %v", w.Body, err)
		}
		if len(out.Games) == 0 {
			t.Fatalf("200 with no game: %s", w.Body)
		}
		for i, ig := range out.Games {
			if ig.Number != i+1 {
				t.Fatalf("game %d numbered %d", i+1, ig.Number)
			}
			if ig.Variant == "" {
				if ig.Error == "" {
					t.Fatalf("game %d has no variant and no error", ig.Number)
				}
				continue
			}
			if movegen.VariantByName(ig.Variant) == nil {
				t.Fatalf("game %d: variant %q", ig.Number, ig.Variant)
			}
			// What was read loads in the page.
			b, _ := json.Marshal(gameReq{Variant: ig.Variant, FEN: ig.FEN, Moves: ig.Moves})
			w2 := fuzzServe(s, "POST", "/api/game", "application/json", b)
			if w2.Code != http.StatusOK {
				t.Fatalf("imported game %d %s does not load: %d %s", ig.Number, b, w2.Code, w2.Body)
			}
		}
	})
}

// FuzzExport: any export request, with tags, a result and move clocks,
// gets a PDN that reads back to the same moves, or a 4xx naming the
// problem; never a panic.
func FuzzExport(f *testing.F) {
	for _, s := range []string{
		`{"game":{"variant":"brazilian","moves":["22-18","11-15"]},"tags":{"TimeControl":"180+2"},"result":"*","clocks":[179.5,null]}`,
		`{"game":{"variant":"russian","moves":["c3-d4"]},"result":"2-0","clocks":[9.25]}`,
		`{"game":{"variant":"portuguese"},"clocks":[1]}`,
		`{"game":{"variant":"brazilian","moves":["22-18"]},"clocks":[-1]}`,
		`{"game":{"variant":"brazilian","moves":["22-18"]},"clocks":[1e300]}`,
		`{"game":{"variant":"brazilian","moves":["22-18"]},"tags":{"a b":"x"}}`,
	} {
		f.Add([]byte(s))
	}
	s := fuzzServer()
	f.Fuzz(func(t *testing.T, body []byte) {
		w := fuzzServe(s, "POST", "/api/pdn/export", "application/json", body)
		checkAnswer(t, "export", w)
		if w.Code != http.StatusOK {
			return
		}
		var out struct {
			PDN string `json:"pdn"`
		}
		if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil || out.PDN == "" {
			t.Fatalf("export answer %s: %v", w.Body, err)
		}
		var req struct {
			Game struct {
				Moves []string `json:"moves"`
			} `json:"game"`
		}
		json.Unmarshal(body, &req)
		games, err := game.ReadPDN(strings.NewReader(out.PDN), movegen.Brazilian)
		if err != nil || len(games) != 1 || games[0].Err != nil {
			t.Fatalf("the export does not read back (%v):\n%s", err, out.PDN)
		}
		if got := games[0].Game.Ply(); got != len(req.Game.Moves) {
			t.Fatalf("read back %d moves, sent %d:\n%s", got, len(req.Game.Moves), out.PDN)
		}
	})
}
