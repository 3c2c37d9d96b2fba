// Package protocol speaks the engine's two wire protocols.
//
// Hub (hub.go) is Scan's line protocol on stdin/stdout, spoken to Hub GUIs,
// lidraughts-bot and pydraughts: one goroutine reads lines, the search runs
// in its own goroutines, and a single writer puts every answer on stdout,
// one flushed line at a time. The line syntax (command, then key=value or
// bare-word arguments, values double-quoted when they hold a space or '=')
// is the small unit in line.go.
package protocol
