package cli

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
)

// Version is Rio's release version; the release build may set it with
// -ldflags "-X github.com/riodraughts/rio/internal/cli.Version=...".
var Version = "0.1.0-dev"

// Commit returns the VCS revision the binary was built from, or "unknown"
// (for instance when built with -buildvcs=false).
func Commit() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		rev, dirty := "", false
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
		if rev != "" {
			if len(rev) > 12 {
				rev = rev[:12]
			}
			if dirty {
				rev += "-dirty"
			}
			return rev
		}
	}
	return "unknown"
}

func runVersion(_ context.Context, env *Env, args []string) error {
	var co common
	fs := newFlags(lookup("version"), env, &co)
	if _, err := parse(fs, args, &co); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "rio %s commit %s %s\n", Version, Commit(), runtime.Version())
	return nil
}
