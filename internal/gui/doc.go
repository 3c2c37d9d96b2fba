// Package gui serves Rio's board in the browser (engine gui): an embedded
// page (static/, plain HTML, CSS and JavaScript, no build step) and the
// JSON API it plays and analyses through.
//
// Every rule decision is Rio's own: the page sends a game as its start
// position and moves in protocol notation, and the server replays it with
// package game, answering with the board, the legal moves (each with its
// path of landing squares, so the page can let the user pick between
// captures that differ only in the pieces taken), the notation of every
// move and the result with its reason. The server keeps no game: a request
// carries all it needs, which lets any number of tabs play and lets the
// page restore its game after a reload from its own storage.
//
// Searches belong to tabs: a tab (an id the page makes up) owns an engine
// with its own transposition table, and a new search of a tab stops the one
// it had running. Live analysis is a Server-Sent Events stream whose search
// stops when the stream closes, so a closed tab stops searching.
//
// The server guards the engine from other sites (guard.go): it answers
// only requests whose Host is the address it serves (a literal IP or
// localhost, never a DNS name, which defeats DNS rebinding) and whose
// Origin, when sent, is that same address; bodies are bounded.
package gui
