package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/riodraughts/rio/internal/protocol/hub"
	"github.com/riodraughts/rio/internal/version"
)

func runHub(ctx context.Context, env *Env, args []string) error {
	var co common
	fs := newFlags(lookup("hub"), env, &co)
	if _, err := parse(fs, args, &co); err != nil {
		return err
	}
	id := hub.Rio()
	if r, ok := env.Stdin.(io.Writer); ok && isTerminal(r) {
		// A person at a terminal, not a GUI: say what this is, on stderr
		// (stdout belongs to the protocol).
		fmt.Fprintf(env.Stderr, "Rio %s speaks the Hub protocol on stdin (type hub, or quit); engine help lists the commands, engine gui opens the board in a browser.\n", version.Version)
	}
	return hub.Run(ctx, env.Stdin, env.Stdout, id, env.Log)
}
