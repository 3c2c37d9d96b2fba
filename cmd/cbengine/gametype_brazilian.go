//go:build brazilian

package main

import "github.com/riodraughts/rio/internal/protocol/cb"

// gameType is what the library plays: brazilian, for build.sh's
// rio-cb64-brazilian.dll and rio-cb32-brazilian.dll (-tags brazilian).
const gameType = cb.GameTypeBrazilian
