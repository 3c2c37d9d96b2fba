//go:build !amd64

package tt

import "unsafe"

// prefetch does nothing where there is no prefetch instruction written
// for the architecture: Probe then waits for the memory as before.
func prefetch(p unsafe.Pointer) {}
