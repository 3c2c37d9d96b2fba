//go:build !js

package search

import "time"

// yieldHost reports false and does nothing where the search has threads of its own: the GUI's
// reader runs beside it (see worker.poll).
func (w *worker) yieldHost(time.Duration) bool { return false }
