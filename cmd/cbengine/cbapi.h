/* The CheckerBoard engine API as Rio exports it (shared/spec/checkerboard.md;
 * the types are those of CheckerBoard's cb_interface.h). */
#ifndef RIO_CBAPI_H
#define RIO_CBAPI_H

#ifdef _WIN32
#define CB_EXPORT __declspec(dllexport)
#define CB_CALL __stdcall
#else
#define CB_EXPORT __attribute__((visibility("default")))
#define CB_CALL
#endif

struct coor {
	int x;
	int y;
};

struct CBmove {
	int jumps;
	int newpiece;
	int oldpiece;
	struct coor from, to;
	struct coor path[12];
	struct coor del[12];
	int delpiece[12];
};

CB_EXPORT int CB_CALL getmove(int board[8][8], int color, double maxtime, char str[1024],
	int *playnow, int info, int moreinfo, struct CBmove *move);
CB_EXPORT int CB_CALL enginecommand(char *command, char reply[1024]);
CB_EXPORT int CB_CALL islegal(int board[8][8], int color, int from, int to, struct CBmove *move);

#endif
