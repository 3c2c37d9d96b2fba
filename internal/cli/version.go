package cli

import (
	"context"
	"fmt"
	"runtime"

	"github.com/riodraughts/rio/internal/version"
)

func runVersion(_ context.Context, env *Env, args []string) error {
	var co common
	fs := newFlags(lookup("version"), env, &co)
	if _, err := parse(fs, args, &co); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "rio %s commit %s %s\n", version.Version, version.Commit(), runtime.Version())
	return nil
}
