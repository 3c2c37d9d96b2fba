// Command engine is Rio's single binary: the Hub engine GUIs start, the
// DXP player, and the command-line tools (perft, moves, ...). It only
// builds the logger and hands the command line to internal/cli.
package main

import (
	"context"
	"os"
	"os/signal"
	"time"

	"github.com/riodraughts/rio/internal/cli"
	"github.com/rs/zerolog"
)

func main() {
	args := os.Args[1:]
	zerolog.TimeFieldFormat = time.RFC3339Nano
	// Logs go to stderr only; stdout belongs to the protocols and to the
	// machine-read lines.
	log := zerolog.New(zerolog.ConsoleWriter{Out: os.Stderr, NoColor: true, TimeFormat: "15:04:05.000"}).
		Level(cli.LogLevelFromArgs(args)).With().Timestamp().Logger()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	env := &cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Log: log}
	code := cli.Run(ctx, env, args)
	stop()
	os.Exit(code)
}
