// Package dxp speaks DXP (DamExchange) over TCP, on 8x8 boards, as
// shared/spec/dxp.md lays it out.
//
// It owns the messages and their framing (message.go: Parse, Write,
// Framer, Board), a DXP connection and Rio's play over it in both roles
// (session.go: ServeFollower follows the games a peer proposes, PlayGame
// proposes and plays one), and the initiator's side of a connection that a
// referee drives for another engine (peer.go: Dial, Peer). Whether Rio
// listens or connects is the caller's choice; every function here takes an
// established connection (Dial aside).
//
// Every game ends with exactly two GAMEENDs, one from each side: the side
// that ends the game sends one, the other answers it, and the answer is not
// answered (see liveGame.play).
package dxp
