// Package cb is Rio as a CheckerBoard engine: the C API of CheckerBoard's
// engine DLLs (shared/spec/checkerboard.md: getmove, enginecommand,
// islegal) with no cgo in it, so that all of it is tested with go test.
// The cgo exports are in cmd/cbengine, which only copies arguments in and
// out and recovers panics.
//
// It owns:
//   - the conversion between CheckerBoard's board[8][8] (board[x][y],
//     squares placed by cb_interface.h's numbertocoors for game types 25
//     and 26) and CBmove, and Rio's positions and moves (board.go);
//   - the engine state of one loaded library (Engine, engine.go): the
//     variant, the settings enginecommand sets, the game history of set
//     gamehist, the transposition table and the endgame tables kept
//     between calls. A command during a getmove is answered at once and
//     takes effect at the next getmove, which brings the table and the
//     tables up to the settings before it searches;
//   - enginecommand's parser and its exact replies (command.go);
//   - getmove's search driving: the time budget from maxtime, info and
//     moreinfo, the playnow poll, the progress string, the result code
//     (getmove.go); and islegal.
//
// Every entry point checks its input (colour, board contents, square
// numbers, command text) and answers an error code rather than panicking;
// the exports recover anyway.
package cb
