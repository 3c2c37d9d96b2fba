// Package racebuild says whether the binary was built with the race
// detector (go build -race / go test -race), which slows code several
// times over. Tests that need a search or a solver to get somewhere
// within a time limit read Enabled to give that build longer; nothing
// outside tests should depend on it.
package racebuild
