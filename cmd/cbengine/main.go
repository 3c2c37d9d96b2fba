// Command cbengine is Rio as a CheckerBoard engine library: built with
// -buildmode=c-shared it is the DLL (rio-cb64.dll, rio-cb32.dll) that
// CheckerBoard loads from its engines folder, or librio-cb.so on Linux for
// the tests. It exports getmove, enginecommand and islegal (shim.c, with
// __stdcall on 32-bit Windows); everything else is internal/protocol/cb.
// A library plays one game type, russian (25), or brazilian (26) when
// built with -tags brazilian (gametype_*.go). build.sh builds the Windows
// DLLs of both and the Linux library, and checks their exports.
//
// This file only moves the C arguments in and out: a null pointer is
// refused, a command is read up to cb.MaxCommand bytes, replies are cut to
// the 1024-byte buffers, and no Go panic crosses the C boundary.
package main

// The 32-bit DLL is linked with CGO_LDFLAGS=-Wl,--kill-at (build.sh), so
// that the __stdcall exports keep their plain names; cgo refuses the flag
// in a #cgo line.

/*
#include "cbapi.h"
*/
import "C"

import (
	"sync/atomic"
	"unsafe"

	"github.com/riodraughts/rio/internal/protocol/cb"
)

// Sizes the Go mirrors must share with C.
var (
	_ [unsafe.Sizeof(cb.CBMove{}) - C.sizeof_struct_CBmove]byte
	_ [C.sizeof_struct_CBmove - unsafe.Sizeof(cb.CBMove{})]byte
	_ [unsafe.Sizeof(cb.Board{}) - 64*C.sizeof_int]byte
	_ [64*C.sizeof_int - unsafe.Sizeof(cb.Board{})]byte
)

// engine is the one engine of the loaded library.
var engine = cb.New(gameType)

func main() {} // a library: CheckerBoard calls the exports

// writeC copies s, cut to size-1 bytes, into the C buffer buf of size
// bytes, NUL-terminated.
func writeC(buf *C.char, size int, s string) {
	if buf == nil {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(buf)), size)
	n := copy(b[:size-1], s)
	b[n] = 0
}

// readC reads the C string at p, at most limit bytes (without its NUL);
// it reports false when no NUL came within limit.
func readC(p *C.char, limit int) (string, bool) {
	base := unsafe.Pointer(p)
	for n := 0; n <= limit; n++ {
		if *(*byte)(unsafe.Add(base, n)) == 0 {
			return string(unsafe.Slice((*byte)(base), n)), true
		}
	}
	return string(unsafe.Slice((*byte)(base), limit)), false
}

//export rio_getmove
func rio_getmove(board *C.int, color C.int, maxtime C.double, str *C.char, playnow *C.int, info, moreinfo C.int, move *C.struct_CBmove) (result C.int) {
	defer func() {
		if r := recover(); r != nil {
			writeC(str, cb.ReplySize, "Rio: internal error")
			result = cb.ResultUnknown
		}
	}()
	if board == nil {
		writeC(str, cb.ReplySize, "Rio: no board")
		return cb.ResultUnknown
	}
	b := (*cb.Board)(unsafe.Pointer(board))
	var mv cb.CBMove
	req := cb.Request{Color: int(color), MaxTime: float64(maxtime), Info: int(info), MoreInfo: int(moreinfo)}
	if playnow != nil {
		flag := (*int32)(unsafe.Pointer(playnow))
		req.PlayNow = func() bool { return atomic.LoadInt32(flag) != 0 }
	}
	if str != nil {
		req.Status = func(s string) { writeC(str, cb.ReplySize, s) }
	}
	if move == nil {
		// Without a move to fill the board is not changed either: the GUI
		// could not tell what was played.
		copyB := *b
		b = &copyB
	}
	r := engine.GetMove(b, req, &mv)
	if move != nil {
		*(*cb.CBMove)(unsafe.Pointer(move)) = mv
	}
	return C.int(r)
}

//export rio_enginecommand
func rio_enginecommand(command *C.char, reply *C.char) (handled C.int) {
	defer func() {
		if r := recover(); r != nil {
			writeC(reply, cb.ReplySize, "error: internal error")
			handled = 0
		}
	}()
	if command == nil {
		writeC(reply, cb.ReplySize, "error: no command")
		return 0
	}
	text, ok := readC(command, cb.MaxCommand)
	if !ok {
		writeC(reply, cb.ReplySize, "error: command longer than the engine reads")
		return 0
	}
	r, ok := engine.Command(text)
	writeC(reply, cb.ReplySize, r)
	if ok {
		return 1
	}
	return 0
}

//export rio_islegal
func rio_islegal(board *C.int, color, from, to C.int, move *C.struct_CBmove) (legal C.int) {
	defer func() {
		if r := recover(); r != nil {
			legal = 0
		}
	}()
	if board == nil {
		return 0
	}
	b := *(*cb.Board)(unsafe.Pointer(board)) // islegal never changes the board
	var mv cb.CBMove
	if !engine.IsLegal(&b, int(color), int(from), int(to), &mv) {
		return 0
	}
	if move != nil {
		*(*cb.CBMove)(unsafe.Pointer(move)) = mv
	}
	return 1
}
