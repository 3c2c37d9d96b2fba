package gui

import (
	"context"
	"embed"
	"errors"
	"io/fs"
	"net"
	"net/http"
	"time"

	"github.com/riodraughts/rio/internal/egdb"
	"github.com/riodraughts/rio/internal/eval"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/search"
	"github.com/rs/zerolog"
)

//go:embed static
var static embed.FS

// Config is what engine gui passes on.
type Config struct {
	// Variant is the one a new page starts with.
	Variant *movegen.Variant
	// Threads per search; HashMiB is each tab's table.
	Threads, HashMiB int
	// Tables are the endgame tables (nil: none).
	Tables *egdb.Tables
	// Eval scores positions; eval.Learned when nil.
	Eval eval.Func
	// MaxTabs bounds the tabs holding an engine (8 when 0): the least
	// recently used idle one gives its table up to a new tab.
	MaxTabs int
}

// Server is the GUI's HTTP server.
type Server struct {
	cfg    Config
	log    zerolog.Logger
	tables *egdb.Tables
	tabs   *tabSet
	// port is the port served, which requests' Host must name ("" in tests
	// that serve on an httptest listener until Listen sets it).
	port string
	mux  *http.ServeMux
}

// New returns a server; Handler serves it.
func New(cfg Config, log zerolog.Logger) *Server {
	if cfg.Variant == nil {
		cfg.Variant = movegen.Brazilian
	}
	cfg.Threads = max(cfg.Threads, 1)
	if cfg.HashMiB <= 0 {
		cfg.HashMiB = 64
	}
	if cfg.Eval == nil {
		cfg.Eval = eval.Learned
	}
	if cfg.MaxTabs <= 0 {
		cfg.MaxTabs = 8
	}
	s := &Server{cfg: cfg, log: log, tables: cfg.Tables}
	s.tabs = newTabSet(cfg.MaxTabs, func() *search.Engine { return s.newEngine() })
	s.routes()
	return s
}

func (s *Server) routes() {
	mux := http.NewServeMux()
	assets, _ := fs.Sub(static, "static")
	mux.Handle("GET /", noStore(http.FileServerFS(assets)))
	mux.HandleFunc("GET /api/config", s.handleConfig)
	mux.HandleFunc("POST /api/game", s.handleGame)
	mux.HandleFunc("POST /api/search", s.handleSearch)
	mux.HandleFunc("POST /api/draw", s.handleDraw)
	mux.HandleFunc("POST /api/graph", s.handleGraph)
	mux.HandleFunc("GET /api/analyse", s.handleAnalyse)
	mux.HandleFunc("POST /api/stop", s.handleStop)
	mux.HandleFunc("POST /api/pdn/import", s.handleImport)
	mux.HandleFunc("POST /api/pdn/export", s.handleExport)
	s.mux = mux
}

// noStore keeps the browser from caching the page across versions of the
// binary.
func noStore(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		h.ServeHTTP(w, r)
	})
}

// Handler is the server's handler, guarded (guard.go).
func (s *Server) Handler() http.Handler { return s.guard(s.mux) }

// Local is the API without the network guard, for a caller in the same
// process that no other site can reach: the static board's worker
// (cmd/wasm/board), which hands it the page's requests as messages.
func (s *Server) Local() http.Handler { return s.mux }

// SetPort sets the port requests must name in their Host.
func (s *Server) SetPort(port string) { s.port = port }

// Serve serves on l until ctx ends, then stops every search and closes.
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	_, port, err := net.SplitHostPort(l.Addr().String())
	if err != nil {
		return err
	}
	s.port = port
	srv := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		// No write timeout: analysis streams for as long as the tab
		// watches.
		IdleTimeout: 2 * time.Minute,
		ErrorLog:    nil,
		BaseContext: func(net.Listener) context.Context { return ctx },
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	s.tabs.stopAll()
	shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	srv.Shutdown(shut)
	if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
