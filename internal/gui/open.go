package gui

import (
	"context"
	"os/exec"
	"runtime"
)

// OpenBrowser opens url with the platform's opener: xdg-open on Linux and
// the BSDs, open on macOS, the URL handler on Windows. It does not wait for
// the browser.
func OpenBrowser(ctx context.Context, url string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.CommandContext(ctx, "open", url)
	case "windows":
		cmd = exec.CommandContext(ctx, "rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.CommandContext(ctx, "xdg-open", url)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait() // reap it
	return nil
}
