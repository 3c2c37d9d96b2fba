package book

import (
	"sync"

	"github.com/riodraughts/rio/internal/movegen"
)

var builtin sync.Map // *movegen.Variant -> *Book

// Builtin returns v's built-in book, read on first use; nil in a build
// without books (the tag rionobook: the browser's Hub worker, which only
// analyses). Every host plays from it unless told otherwise (Hub
// book-file, CheckerBoard set bookfile, --book), in games that began at
// the start position (Play). A damaged embedded file
// is a mistake of the build that TestBuiltin catches, so it panics.
func Builtin(v *movegen.Variant) *Book {
	if b, ok := builtin.Load(v); ok {
		return b.(*Book)
	}
	data, ok := builtinData(v)
	if !ok {
		return nil
	}
	recs, err := Decode(data, v)
	if err != nil {
		panic("book: built-in book for " + v.Name + ": " + err.Error())
	}
	actual, _ := builtin.LoadOrStore(v, &Book{Variant: v, records: recs, fromStart: true})
	return actual.(*Book)
}

// Spec names a book the way the command line and the hosts' settings do:
// "builtin" is v's built-in book, "none" (or "") no book, anything else
// a file made by engine book build.
func Spec(spec string, v *movegen.Variant) (*Book, error) {
	switch spec {
	case "", "none":
		return nil, nil
	case "builtin":
		return Builtin(v), nil
	}
	return Load(spec, v)
}
