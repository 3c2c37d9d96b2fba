package tests

import (
	"bufio"
	"encoding/json"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// engine gui serves the board on a free loopback port, prints its address,
// answers the API only under that address, and stops on an interrupt.
func TestGuiServes(t *testing.T) {
	cmd := engineCommand(t, "gui", "--no-open", "--variant", "portuguese", "--egdb-pieces", "0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`).FindString(sc.Text()); m != "" {
				urls <- m
			}
		}
	}()
	var url string
	select {
	case url = <-urls:
	case <-time.After(20 * time.Second):
		t.Fatal("engine gui printed no address")
	}

	resp, err := http.Get(url + "api/config")
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Variant  string
		Variants []struct{ Name string }
	}
	err = json.NewDecoder(resp.Body).Decode(&cfg)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 || cfg.Variant != "portuguese" || len(cfg.Variants) != 3 {
		t.Fatalf("config: status %d, %+v, %v", resp.StatusCode, cfg, err)
	}
	page, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	page.Body.Close()
	if page.StatusCode != 200 || !strings.HasPrefix(page.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("page: status %d, type %q", page.StatusCode, page.Header.Get("Content-Type"))
	}

	// The same server under a DNS name (a rebinding attack's) is refused.
	req, _ := http.NewRequest("GET", url+"api/config", nil)
	req.Host = "rebind.example" + url[strings.LastIndex(url, ":"):len(url)-1]
	bad, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	bad.Body.Close()
	if bad.StatusCode != http.StatusForbidden {
		t.Fatalf("Host %s: status %d, want 403", req.Host, bad.StatusCode)
	}

	cmd.Process.Signal(os.Interrupt)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("engine gui after an interrupt: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("engine gui did not stop on an interrupt")
	}
}

// engine gui --export writes the static board's page files, marks the
// page to run Rio in its worker with the variant asked for, names the
// browser engine's files it cannot write, and refuses a folder it cannot
// create.
func TestGuiExport(t *testing.T) {
	dir := t.TempDir() + "/site"
	r := run(t, "", "gui", "--export", dir, "--variant", "portuguese")
	if r.code != 0 || !strings.Contains(r.stdout, "gui export dir="+dir+" variant=portuguese") {
		t.Fatalf("gui --export: code %d, out %q, err %q", r.code, r.stdout, r.stderr)
	}
	for _, f := range []string{"index.html", "js/main.js", "js/board.js", "style.css", "board-worker.js"} {
		if _, err := os.Stat(dir + "/" + f); err != nil {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	page, _ := os.ReadFile(dir + "/index.html")
	if !strings.Contains(string(page), `<meta name="rio-worker" content="board-worker.js?variant=portuguese">`) {
		t.Errorf("index.html is not marked for the worker:\n%s", page)
	}
	if !strings.Contains(r.stderr, "board.wasm") || !strings.Contains(r.stderr, "cmd/wasm/build.sh") {
		t.Errorf("the missing engine files are not named: %q", r.stderr)
	}
	blocker := t.TempDir() + "/file"
	os.WriteFile(blocker, []byte("x"), 0o644)
	if r := run(t, "", "gui", "--export", blocker+"/sub"); r.code == 0 || r.stderr == "" {
		t.Errorf("export under a file: code %d, err %q", r.code, r.stderr)
	}
}
