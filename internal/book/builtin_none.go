//go:build rionobook

package book

import "github.com/riodraughts/rio/internal/movegen"

// A build without books: Builtin is nil for every variant.
func builtinData(*movegen.Variant) ([]byte, bool) { return nil, false }
