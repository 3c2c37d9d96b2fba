package gui

import (
	"net/http"
	"strings"
	"testing"
)

// A timed game's move: Rio budgets it from its clock (time left and
// increment) through the engine's time management, well inside the time
// left; bad clocks are refused by name.
func TestSearchClock(t *testing.T) {
	h := newHarness(t, Config{})
	for _, c := range []struct {
		name, body string
	}{
		{"negative time", `{"tab":"t","game":{"variant":"brazilian"},"clock":{"time":-1,"inc":0}}`},
		{"huge inc", `{"tab":"t","game":{"variant":"brazilian"},"clock":{"time":60,"inc":1e9}}`},
		{"not a number", `{"tab":"t","game":{"variant":"brazilian"},"clock":{"time":"x","inc":0}}`},
	} {
		code, body := h.post("/api/search", c.body)
		wantError(t, "clock: "+c.name, code, body, http.StatusBadRequest)
	}
	// 1+0: with 2 s left Rio searches well under a tenth of it (its own
	// time, after a first search has read the weights, which is slow
	// under the race detector).
	var ans searchJSON
	h.ok("/api/search", searchReq{Tab: "t", Game: gameReq{Variant: "russian"}, MoveTime: 0.01}, &ans) // the weights read
	h.ok("/api/search", map[string]any{"tab": "t", "game": gameReq{Variant: "russian"}, "clock": map[string]float64{"time": 2, "inc": 0}}, &ans)
	if ans.Time > 0.3 || ans.Move.Move == "" {
		t.Errorf("2 s left: answered %+v after %.3f s of search", ans, ans.Time)
	}
	// With 0.05 s left it still answers a legal move at once.
	h.ok("/api/search", map[string]any{"tab": "t", "game": gameReq{Variant: "russian"}, "clock": map[string]float64{"time": 0.05, "inc": 0}}, &ans)
	if ans.Time > 0.1 || ans.Move.Move == "" {
		t.Errorf("0.05 s left: answered %+v after %.3f s of search", ans, ans.Time)
	}
}

// The export writes the moves' clocks as [%clk] comments and refuses more
// clocks than moves or a clock out of range.
func TestExportClocks(t *testing.T) {
	h := newHarness(t, Config{})
	g := gameReq{Variant: "brazilian", Moves: []string{"22-18", "11-15", "18x11"}}
	var out struct {
		PDN string `json:"pdn"`
	}
	h.ok("/api/pdn/export", map[string]any{"game": g, "tags": map[string]string{"TimeControl": "180+2"}, "result": "*",
		"clocks": []any{179.5, 178.25, nil}}, &out)
	for _, want := range []string{`[TimeControl "180+2"]`, "c3-d4 {[%clk 0:02:59]}", "f6-e5 {[%clk 0:02:58]}", "d4xf6 *"} {
		if !strings.Contains(out.PDN, want) {
			t.Errorf("export lacks %q:\n%s", want, out.PDN)
		}
	}
	h.ok("/api/pdn/export", map[string]any{"game": g, "result": "*", "clocks": []any{9.25}}, &out)
	if !strings.Contains(out.PDN, "{[%clk 0:00:09.2]}") {
		t.Errorf("tenths under a minute:\n%s", out.PDN)
	}
	code, body := h.post("/api/pdn/export", map[string]any{"game": g, "result": "*", "clocks": []any{1, 2, 3, 4}})
	wantError(t, "4 clocks for 3 moves", code, body, http.StatusBadRequest, "clocks")
	code, body = h.post("/api/pdn/export", map[string]any{"game": g, "result": "*", "clocks": []any{-1}})
	wantError(t, "a negative clock", code, body, http.StatusBadRequest, "clock")
}
