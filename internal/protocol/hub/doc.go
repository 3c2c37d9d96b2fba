// Package hub speaks Hub, Scan's line protocol on stdin/stdout, to Hub
// GUIs, lidraughts-bot and pydraughts (shared/spec/hub.md).
//
// It owns a Hub session (Run, hub.go): its parameters, position, level and
// the search in progress. One goroutine reads lines, the search runs in
// its own goroutines, and a single writer puts every answer on stdout, one
// flushed line at a time. The same session runs in the browser
// (cmd/wasm), reading the Web Worker's messages instead of stdin; there the
// search gives the event loop a turn every 30 ms (internal/search) and the
// endgame tables are off (tables_js.go).
//
// Where Scan's hosts expect Scan's readings, the session reads as Scan
// does: tt-size up to 32 is the log2 of entries (TableMiB), and successive
// level commands add up until the next pos.
//
// It also owns the line syntax (line.go: ParseLine, Format), which both
// ends of the protocol use: the session reads commands with it, and the
// match referee (internal/match) reads the answers of the Hub engines it
// drives. A line is a command, then key=value or bare-word arguments,
// values double-quoted when they hold a space or '='.
//
// DXP, the other protocol, is internal/protocol/dxp; it shares nothing
// with Hub but the engine.
package hub
