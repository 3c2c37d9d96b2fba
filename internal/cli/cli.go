// Package cli implements Rio's command line: it parses each subcommand's
// flags, runs it, and maps failures to the exit statuses of the contract in
// shared/spec/cli.md (0 success, 2 bad usage or input, with one line on
// stderr). cmd/engine only builds the logger and calls Run.
//
// Machine-read output lines (perft's last line, moves' list) are written to
// the given stdout exactly as the contract spells them; everything for
// people goes to stderr or to the logger.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/riodraughts/rio/internal/movegen"
	"github.com/rs/zerolog"
)

// Env is what a command may touch: its streams and the logger.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Log    zerolog.Logger
}

// usageError marks bad usage or bad input: exit status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// command is one subcommand.
type command struct {
	name    string
	summary string
	usage   string
	run     func(ctx context.Context, env *Env, args []string) error
}

var commands []*command

func init() {
	commands = []*command{
		{"hub", "speak the Hub protocol on stdin/stdout (the default with no command)", "engine [hub]", runHub},
		{"perft", "count legal move sequences to a depth", "engine perft --depth N [--divide] [--fen F] [--threads T]", runPerft},
		{"moves", "list the legal moves of a position", "engine moves [--fen F]", runMoves},
		{"pdn", "replay the games of a PDN file and adjudicate each", "engine pdn FILE [--variant V for games without GameType]", runPDN},
		{"analyze", "search a position (or every position of a file) and print the best move",
			"engine analyze [--fen F] [--moves \"...\"] [--depth N | --movetime S | --nodes N] [--multipv K] [--level 1-10 [--seed S] [--book builtin|none|FILE [--book-margin N]]] [--threads T] [--hash MB] [--eval learned|classic] [--eval-file W] [--json] [--file F [--shard i/n]]", runAnalyze},
		{"annotate", "analyse every game of a PDN file: scores, ?!/?/?? marks, better moves, a summary per side",
			"engine annotate FILE.pdn [--movetime S | --depth N | --nodes N] [--threads T] [--hash MB] [--games 3,7-9] [--shard i/n] [--thresholds 0.3,0.7,1.5] [--eval E] [--eval-file W] [--json] [--out OUT.pdn]", runAnnotate},
		{"dxp", "play DXP (DamExchange) games over TCP, as follower or initiator",
			"engine dxp --listen ADDR [--initiator] | --connect ADDR [--follower] [--games N --minutes M --moves N --openings FILE --pdn OUT] [--book builtin|none|FILE] [--book-margin N] [--egdb-path D] [--egdb-pieces N] [--eval E] [--eval-file W]", runDXP},
		{"match", "play a match between two engines (Hub commands or DXP addresses): Elo, LOS, SPRT",
			"engine match [--engine1 CMD] [--engine2 CMD] [--games N] [--tc 10+0.1 [--tc2 B+I] | --movetime S | --depth N | --nodes N] [--concurrency N] [--openings F] [--pdn OUT] [--sprt \"elo0=0 elo1=5\"]", runMatch},
		{"egdb", "build or verify endgame tables on disk", "engine egdb build|verify [--variant V] [--pieces N] --dir D [--threads T]", runEgdb},
		{"selfplay", "play Rio against itself and write quiet positions with results for engine tune",
			"engine selfplay --variant V --games N [--nodes K | --depth D | --movetime S] [--openings F] [--random-plies R] [--random-moves P] [--balanced N] [--threads T] [--seed S] [--shard i/n] [--eval E] --out FILE", runSelfplay},
		{"book", "build an opening book by Rio's own searches, or show a position's book moves",
			"engine book build --variant V --out FILE [--plies N] [--positions K] [--nodes N | --movetime S] [--threads T] [--dropout D] [--window W] [--ballots=false] | engine book probe --variant V [--fen F] [--moves \"...\"] FILE|builtin", runBook},
		{"tune", "fit the learned evaluation's weights to selfplay positions (logistic regression)",
			"engine tune --variant V --data FILE... --out W [--layout 1-4] [--epochs E] [--l2 X] [--lambda L] [--seed S] [--threads T] [--validation 0.1] [--init W0 [--freeze-patterns | --network]]", runTune},
		{"rescore", "search the positions of a selfplay file again, deeper, and write them with the new scores (for engine tune's --lambda)",
			"engine rescore --variant V --data FILE --out OUT [--nodes N | --depth D] [--games G] [--shard i/n] [--threads T] [--eval E] [--eval-file W] [--resume]", runRescore},
		{"gui", "serve a board in the browser to play and analyse with Rio",
			"engine gui [--listen 127.0.0.1:0] [--no-open] [--variant V] [--threads T] [--hash MB] [--egdb-path D] [--egdb-pieces N] [--eval learned|classic] | engine gui --export DIR [--variant V]", runGui},
		{"bench", "search the built-in positions; the last line is the build's signature", "engine bench [--depth N] [--threads T] [--hash MB] [--eval learned|classic] [--eval-file W] [--features +Name,-Name]", runBench},
		{"version", "print version, commit and Go version", "engine version", runVersion},
		{"help", "describe the commands", "engine help [command]", runHelp},
	}
}

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// Run runs the command line args (without the program name) and returns
// the exit status.
func Run(ctx context.Context, env *Env, args []string) int {
	name := "hub" // GUIs start engines with no arguments, or with hub
	if len(args) > 0 {
		name = args[0]
		args = args[1:]
	}
	if name == "-h" || name == "--help" || name == "-help" {
		name = "help"
	}
	c := lookup(name)
	if c == nil {
		fmt.Fprintf(env.Stderr, "engine: unknown command %q; try engine help\n", name)
		return 2
	}
	err := c.run(ctx, env, args)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	}
	fmt.Fprintf(env.Stderr, "engine %s: %s\n", c.name, oneLine(err.Error()))
	var ue usageError
	if errors.As(err, &ue) {
		return 2
	}
	return 1
}

// oneLine keeps an error message on one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " ")
}

// common holds the flags every command takes.
type common struct {
	variant  string
	logLevel string
}

// cmdFlags is a command's flag set and its help printer.
type cmdFlags struct {
	*flag.FlagSet
	help func()
}

// newFlags returns a flag set for c with the common flags; -h prints the
// command's usage and flags to stdout.
func newFlags(c *command, env *Env, co *common) *cmdFlags {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&co.variant, "variant", "brazilian", "rules: "+movegen.VariantNames())
	fs.StringVar(&co.logLevel, "log-level", "error", "log level on stderr: trace debug info warn error disabled")
	// The flag package calls Usage on every parse error; only -h shows it
	// (see parse), errors stay one line.
	fs.Usage = func() {}
	return &cmdFlags{fs, func() {
		fmt.Fprintf(env.Stdout, "usage: %s\n\n%s.\n\nflags:\n", c.usage, c.summary)
		fs.SetOutput(env.Stdout)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}}
}

// parse parses args, turning flag errors into usage errors, and resolves
// the variant. No positional argument is allowed (see parseArgs).
func parse(fs *cmdFlags, args []string, co *common) (*movegen.Variant, error) {
	return parseArgs(fs, args, co, 0)
}

// parseArgs is parse allowing up to maxArgs positional arguments after the
// flags (fs.Args()).
func parseArgs(fs *cmdFlags, args []string, co *common, maxArgs int) (*movegen.Variant, error) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.help()
			return nil, err
		}
		return nil, usageError{err}
	}
	if fs.NArg() > maxArgs {
		return nil, usagef("unexpected argument %q", fs.Arg(maxArgs))
	}
	if _, err := ParseLogLevel(co.logLevel); err != nil {
		return nil, usageError{err}
	}
	v := movegen.VariantByName(co.variant)
	if v == nil {
		return nil, usagef("unknown variant %q (want one of: %s)", co.variant, movegen.VariantNames())
	}
	return v, nil
}

// ParseLogLevel reads a --log-level value.
func ParseLogLevel(s string) (zerolog.Level, error) {
	l, err := zerolog.ParseLevel(strings.ToLower(s))
	if err != nil || s == "" {
		return zerolog.Disabled, fmt.Errorf("bad --log-level %q (want trace, debug, info, warn, error or disabled)", s)
	}
	return l, nil
}

// LogLevelFromArgs finds the --log-level flag in a command line before the
// command parses it, so main can build the logger first. A missing or bad
// value gives the quiet default (the command reports a bad value itself).
func LogLevelFromArgs(args []string) zerolog.Level {
	for i, a := range args {
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "log-level" {
			continue
		}
		if !hasValue && i+1 < len(args) {
			value = args[i+1]
		}
		if l, err := ParseLogLevel(value); err == nil {
			return l
		}
	}
	return zerolog.ErrorLevel
}

func runHelp(_ context.Context, env *Env, args []string) error {
	if len(args) > 0 {
		c := lookup(args[0])
		if c == nil {
			return usagef("unknown command %q", args[0])
		}
		return c.run(context.Background(), env, []string{"-h"})
	}
	w := env.Stdout
	fmt.Fprintln(w, "Rio, a draughts engine for brazilian, portuguese and russian draughts.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "usage: engine <command> [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Every command takes --variant brazilian|portuguese|russian (default brazilian)")
	fmt.Fprintln(w, "and --log-level (logs go to stderr). Positions (--fen) are a PDN FEN such as")
	fmt.Fprintln(w, "W:W21,22,K30:B1,2,K5, a Hub position string, or startpos.")
	fmt.Fprintln(w, "engine <command> -h describes a command's flags.")
	return nil
}

// openInput opens a file named on the command line, "-" being stdin; a
// file that cannot be opened is bad input.
func openInput(env *Env, file string) (io.Reader, func(), error) {
	if file == "-" {
		return env.Stdin, func() {}, nil
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, nil, usageError{err}
	}
	return f, func() { f.Close() }, nil
}

// parseFileArg parses the flags of a command that takes one file (or - for
// stdin), given before the flags or after them.
func parseFileArg(fs *cmdFlags, args []string, co *common, name string) (*movegen.Variant, string, error) {
	var file string
	if len(args) > 0 && (args[0] == "-" || !strings.HasPrefix(args[0], "-")) {
		file, args = args[0], args[1:]
	}
	v, err := parseArgs(fs, args, co, 1)
	if err != nil {
		return nil, "", err
	}
	if fs.NArg() == 1 {
		if file != "" {
			return nil, "", usagef("unexpected argument %q", fs.Arg(0))
		}
		file = fs.Arg(0)
	}
	if file == "" {
		return nil, "", usagef("no PDN file given (engine %s FILE, - for stdin)", name)
	}
	return v, file, nil
}
