//go:build !brazilian

package main

import "github.com/riodraughts/rio/internal/protocol/cb"

// gameType is what the library plays: russian, unless it is built with
// -tags brazilian (gametype_brazilian.go). CheckerBoard asks an engine its
// game type and never sets it, so each game type is a library of its own.
const gameType = cb.GameTypeRussian
