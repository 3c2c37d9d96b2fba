package cli

import (
	"context"
	"fmt"
	"slices"

	"github.com/riodraughts/rio/internal/movegen"
)

func runMoves(_ context.Context, env *Env, args []string) error {
	var co common
	fs := newFlags(lookup("moves"), env, &co)
	fen := fs.String("fen", "startpos", "position: PDN FEN, Hub string or startpos")
	v, err := parse(fs, args, &co)
	if err != nil {
		return err
	}
	p, err := v.ParsePosition(*fen)
	if err != nil {
		return usagef("--fen: %v", err)
	}
	var buf [movegen.MaxMoves]movegen.Move
	moves := v.Generate(&p, buf[:0])
	names := make([]string, len(moves))
	for i, m := range moves {
		names[i] = v.FormatMove(m)
	}
	slices.Sort(names)
	for _, n := range names {
		fmt.Fprintln(env.Stdout, n)
	}
	return nil
}
