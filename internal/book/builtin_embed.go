//go:build !rionobook

package book

import (
	"embed"

	"github.com/riodraughts/rio/internal/movegen"
)

// The built-in books, one per variant, grown by the README's recipe
// (engine book build; "Opening book") and checked by TestBuiltin.
//
//go:embed builtin/*.riob
var builtinFiles embed.FS

func builtinData(v *movegen.Variant) ([]byte, bool) {
	data, err := builtinFiles.ReadFile("builtin/" + v.Name + ".riob")
	if err != nil {
		panic("book: no built-in book for " + v.Name)
	}
	return data, true
}
