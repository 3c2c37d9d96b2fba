// Command engine is Rio's single binary: the Hub engine GUIs start, the
// DXP player, and the command-line tools (perft, moves, ...). It only
// builds the logger and hands the command line to internal/cli.
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/riodraughts/rio/internal/cli"
	"github.com/rs/zerolog"
)

func main() {
	args := os.Args[1:]
	// Logs go to stderr only; stdout belongs to the protocols and to the
	// machine-read lines.
	log := zerolog.New(zerolog.ConsoleWriter{Out: os.Stderr, NoColor: true}).
		Level(cli.LogLevelFromArgs(args)).With().Timestamp().Logger()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	env := &cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Log: log}
	code := cli.Run(ctx, env, args)
	stop()
	os.Exit(code)
}
