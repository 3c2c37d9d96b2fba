// The exported entry points: __stdcall (WINAPI) on 32-bit Windows, the
// platform's one convention elsewhere. Each forwards to the Go function
// of the same name with a rio_ prefix (main.go), which checks and
// recovers; the 32-bit DLL is linked with -Wl,--kill-at (build.sh) so that the names
// stay undecorated (getmove, not _getmove@32).
#include "cbapi.h"
#include "_cgo_export.h"

CB_EXPORT int CB_CALL getmove(int board[8][8], int color, double maxtime, char str[1024],
	int *playnow, int info, int moreinfo, struct CBmove *move)
{
	return rio_getmove((int *)board, color, maxtime, str, playnow, info, moreinfo, move);
}

CB_EXPORT int CB_CALL enginecommand(char *command, char reply[1024])
{
	return rio_enginecommand(command, reply);
}

CB_EXPORT int CB_CALL islegal(int board[8][8], int color, int from, int to, struct CBmove *move)
{
	return rio_islegal((int *)board, color, from, to, move);
}
