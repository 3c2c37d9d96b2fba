package tt

import "unsafe"

// prefetch asks the CPU to bring the cache line at p into every cache
// level (PREFETCHT0) and returns at once.
//
//go:noescape
func prefetch(p unsafe.Pointer)
