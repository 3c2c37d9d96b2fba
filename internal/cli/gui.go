package cli

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/riodraughts/rio/internal/egdb"
	"github.com/riodraughts/rio/internal/gui"
	"github.com/riodraughts/rio/internal/movegen"
	"github.com/riodraughts/rio/internal/tt"
)

// runGui serves the browser board until interrupted.
func runGui(ctx context.Context, env *Env, args []string) error {
	var co common
	fs := newFlags(lookup("gui"), env, &co)
	listen := fs.String("listen", "127.0.0.1:0", "address to serve on (port 0: any free port); keep it on loopback unless you mean to share the engine")
	noOpen := fs.Bool("no-open", false, "print the address only; do not open a browser")
	threads := fs.Int("threads", 1, "search threads per search")
	hash := fs.Int("hash", 64, fmt.Sprintf("transposition table of each tab in MiB (%d-%d)", tt.MinMiB, tt.MaxMiB))
	egdbPieces := fs.Int("egdb-pieces", egdb.DefaultPieces, fmt.Sprintf("endgame tables up to this many pieces (0: none; above %d they come from --egdb-path)", egdb.DefaultPieces))
	egdbPath := fs.String("egdb-path", "", "directory of tables made by engine egdb build")
	var ef evalFlags
	fs.StringVar(&ef.name, "eval", "learned", "evaluation: learned (pattern weights) or classic (hand-made)")
	export := fs.String("export", "", "write the board as static files into this directory (a page that runs Rio in the browser, no server) and exit")
	v, err := parse(fs, args, &co)
	if err != nil {
		return err
	}
	if *export != "" {
		missing, err := gui.Export(*export, v)
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "gui export dir=%s variant=%s\n", *export, v.Name)
		if len(missing) > 0 {
			fmt.Fprintf(env.Stderr, "%s: %v missing: bash cmd/wasm/build.sh %s builds them (a native binary does not carry the browser engine)\n", *export, missing, *export)
		}
		return nil
	}
	switch {
	case *threads < 1 || *threads > maxThreads():
		return usagef("--threads %d out of range 1-%d", *threads, maxThreads())
	case *hash < tt.MinMiB || *hash > tt.MaxMiB:
		return usagef("--hash %d out of range %d-%d", *hash, tt.MinMiB, tt.MaxMiB)
	case *egdbPieces < 0 || *egdbPieces > egdb.MaxPieces:
		return usagef("--egdb-pieces %d out of range 0-%d", *egdbPieces, egdb.MaxPieces)
	case *egdbPieces > egdb.DefaultPieces && *egdbPath == "":
		return usagef("--egdb-pieces %d needs --egdb-path (tables of more than %d pieces are built with engine egdb build)", *egdbPieces, egdb.DefaultPieces)
	}
	evalFn, err := ef.evaluator(v) // learned and classic serve every variant; this reads v's weights now
	if err != nil {
		return err
	}
	if ef.name == "learned" {
		evalFn = nil // the server's default: each variant's own weights
	}
	cfg := gui.Config{Variant: v, Threads: *threads, HashMiB: *hash, Eval: evalFn}
	if *egdbPieces > 0 {
		t := egdb.NewTables(*egdbPieces, *egdbPath)
		t.Threads, t.Cache = 1, egdb.DefaultCache()
		t.Report = func(v *movegen.Variant, db *egdb.DB, took time.Duration, err error) {
			if err != nil {
				fmt.Fprintf(env.Stderr, "endgame tables: %v (the built-in ones serve instead)\n", err)
			} else if db != nil {
				env.Log.Info().Str("variant", v.Name).Int("pieces", db.Pieces).Dur("took", took).Msg("endgame tables ready")
			}
		}
		cfg.Tables = t
	}
	l, err := net.Listen("tcp", *listen)
	if err != nil {
		return usagef("--listen %s: %v", *listen, err)
	}
	url := "http://" + l.Addr().String() + "/"
	fmt.Fprintf(env.Stderr, "Rio's board: %s (Ctrl-C stops)\n", url)
	if !*noOpen {
		if err := gui.OpenBrowser(ctx, url); err != nil {
			fmt.Fprintf(env.Stderr, "could not open a browser (%v): open %s yourself\n", err, url)
		}
	}
	srv := gui.New(cfg, env.Log)
	return srv.Serve(ctx, l)
}
