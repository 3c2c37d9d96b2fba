package gui

import (
	"net/http"
	"strings"
	"testing"
	"time"
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
	// 1+0: with 2 s left Rio moves in well under a tenth of it.
	var ans searchJSON
	t0 := time.Now()
	h.ok("/api/search", map[string]any{"tab": "t", "game": gameReq{Variant: "russian"}, "clock": map[string]float64{"time": 2, "inc": 0}}, &ans)
	if el := time.Since(t0); el > time.Second || ans.Move.Move == "" {
		t.Errorf("2 s left: answered %+v after %v", ans, el)
	}
	// With 0.05 s left it still answers a legal move at once.
	t0 = time.Now()
	h.ok("/api/search", map[string]any{"tab": "t", "game": gameReq{Variant: "russian"}, "clock": map[string]float64{"time": 0.05, "inc": 0}}, &ans)
	if el := time.Since(t0); el > 500*time.Millisecond {
		t.Errorf("0.05 s left: answered after %v", el)
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
