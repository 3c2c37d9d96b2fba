// Package version holds Rio's release version and the source revision a
// binary was built from: the one answer every host (the command line, the
// Hub session, the browser worker) gives when asked who it is.
package version

import "runtime/debug"

// Version is Rio's release version; the release build may set it with
// -ldflags "-X github.com/riodraughts/rio/internal/version.Version=...".
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
