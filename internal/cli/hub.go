package cli

import (
	"context"

	"github.com/riodraughts/rio/internal/protocol/hub"
)

func runHub(ctx context.Context, env *Env, args []string) error {
	var co common
	fs := newFlags(lookup("hub"), env, &co)
	if _, err := parse(fs, args, &co); err != nil {
		return err
	}
	id := hub.Identity{Name: "Rio", Version: Version, Author: "Rio developers", Country: "Brazil"}
	return hub.Run(ctx, env.Stdin, env.Stdout, id, env.Log)
}
