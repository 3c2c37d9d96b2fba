/* A CheckerBoard stand-in for the engine DLLs under wine (wine_test.go
 * cross-compiles it with mingw-w64, 64- and 32-bit, and runs it).
 *
 *   host probe
 *       prints "ProcessPrng: present" or "ProcessPrng: missing": whether
 *       this wine has the function Go's runtime needs at start-up
 *       (bcryptprimitives.c is the stand-in for one that lacks it).
 *   host DLL GAMETYPE [PLAYNOW_MS]
 *       loads DLL with LoadLibrary as CheckerBoard does, resolves getmove,
 *       enginecommand and islegal (__stdcall on 32-bit, undecorated names,
 *       cbapi.h), and checks: the name and the game type GAMETYPE (25
 *       russian, 26 brazilian); get movelist and islegal in a capture
 *       position whose legal captures differ between the two; whole games
 *       of the engine against itself through getmove, every move checked
 *       against get movelist of the position before it (islegal when the
 *       list is refused); and that a long search stops within PLAYNOW_MS
 *       (default 1000) of *playnow being set.
 *
 * One line per check, "ok ..." or "FAIL ...", then "PASS" or "FAIL n
 * checks"; the exit status is 0 only when every check passed. Squares are
 * placed on board[x][y] by this file's own copy of cb_interface.h's
 * numbertocoors, as in testdata/harness.c.
 */
#include <windows.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cbapi.h"

typedef int(CB_CALL *getmove_fn)(int[8][8], int, double, char[1024], int *, int, int, struct CBmove *);
typedef int(CB_CALL *command_fn)(char *, char[1024]);
typedef int(CB_CALL *islegal_fn)(int[8][8], int, int, int, struct CBmove *);
typedef BOOL(WINAPI *prng_fn)(PBYTE, SIZE_T);

enum { CB_WHITE = 1, CB_BLACK = 2, CB_MAN = 4, CB_KING = 8 };

static getmove_fn gm;
static command_fn ec;
static islegal_fn il;
static int failures;

static void check(int ok, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	printf("%s ", ok ? "ok" : "FAIL");
	vprintf(fmt, ap);
	printf("\n");
	fflush(stdout);
	va_end(ap);
	if (!ok)
		failures++;
}

static void coors(int n, int *x, int *y)
{
	n--;
	*y = n / 4;
	*x = 2 * (3 - n % 4);
	if (*y % 2)
		(*x)++;
}

static int number(int x, int y) { return 4 * (y + 1) - x / 2; }

static int *at(int b[8][8], int n)
{
	int x, y;
	coors(n, &x, &y);
	return &b[x][y];
}

static void start_board(int b[8][8])
{
	memset(b, 0, sizeof(int[8][8]));
	for (int n = 1; n <= 12; n++)
		*at(b, n) = CB_BLACK | CB_MAN;
	for (int n = 21; n <= 32; n++)
		*at(b, n) = CB_WHITE | CB_MAN;
}

/* fen writes the position as a FEN with square numbers, "W:W21,K22:B1". */
static void fen(int b[8][8], int color, char *out)
{
	out += sprintf(out, "%c", color == CB_WHITE ? 'W' : 'B');
	for (int c = CB_WHITE; c <= CB_BLACK; c++) {
		out += sprintf(out, ":%c", c == CB_WHITE ? 'W' : 'B');
		int first = 1;
		for (int n = 1; n <= 32; n++) {
			int v = *at(b, n);
			if (!(v & c))
				continue;
			out += sprintf(out, "%s%s%d", first ? "" : ",", v & CB_KING ? "K" : "", n);
			first = 0;
		}
	}
}

/* One move of a get movelist reply. */
struct listed {
	int jumps, oldpiece, newpiece, from, to;
	int del[12];
};

/* parse_movelist reads "movelist N,<move>;<move>;..." where a move is
 * jumps,oldpiece,newpiece,from,to then, for each jump, the landing square,
 * the captured square and the captured piece. It returns the number of
 * moves, or -1 when the reply is not of that form. */
static int parse_movelist(const char *reply, struct listed *moves, int max)
{
	const char *p = reply;
	if (strncmp(p, "movelist ", 9) != 0)
		return -1;
	p += 9;
	char *end;
	long count = strtol(p, &end, 10);
	if (end == p || count < 0 || count > max)
		return -1;
	p = end;
	if (count == 0)
		return *p == 0 ? 0 : -1;
	if (*p++ != ',')
		return -1;
	for (int i = 0; i < count; i++) {
		int v[5 + 3 * 12], n = 0;
		for (;;) {
			long x = strtol(p, &end, 10);
			if (end == p || n == (int)(sizeof v / sizeof v[0]))
				return -1;
			v[n++] = (int)x;
			p = end;
			if (*p == ',') {
				p++;
				continue;
			}
			if (*p == ';') {
				p++;
				break;
			}
			return -1;
		}
		if (n < 5 || v[0] < 0 || v[0] > 11 || n != 5 + 3 * v[0])
			return -1;
		struct listed *m = &moves[i];
		m->jumps = v[0];
		m->oldpiece = v[1];
		m->newpiece = v[2];
		m->from = v[3];
		m->to = v[4];
		for (int j = 0; j < m->jumps; j++)
			m->del[j] = v[5 + 3 * j + 1];
	}
	return *p == 0 ? (int)count : -1;
}

/* apply plays a listed move on b. */
static void apply(int b[8][8], const struct listed *m)
{
	*at(b, m->from) = 0;
	for (int j = 0; j < m->jumps; j++)
		*at(b, m->del[j]) = 0;
	*at(b, m->to) = m->newpiece;
}

/* movelist asks the engine for the legal moves of b; -1 when it refuses
 * (more moves than CheckerBoard lists) or answers out of form. */
static int movelist(int b[8][8], int color, struct listed *moves, int max, char *reply)
{
	char cmd[256];
	strcpy(cmd, "get movelist ");
	fen(b, color, cmd + strlen(cmd));
	if (ec(cmd, reply) != 1)
		return -1;
	return parse_movelist(reply, moves, max);
}

/* played checks the board getmove left (after) and its CBmove against the
 * position before: it must be one legal move's result, with that move's
 * from, to and jumps. It returns an empty string or what is wrong. */
static const char *played(int before[8][8], int color, int after[8][8], const struct CBmove *cbm,
	const struct listed *moves, int n)
{
	static char why[256];
	int from = number(cbm->from.x, cbm->from.y), to = number(cbm->to.x, cbm->to.y);
	if (n < 0) {
		/* No list: islegal decides, and its move must give the board. */
		struct CBmove lm;
		int copy[8][8];
		memcpy(copy, before, sizeof copy);
		if (!il(copy, color, from, to, &lm)) {
			sprintf(why, "islegal refuses %d-%d", from, to);
			return why;
		}
		struct listed m = {lm.jumps, lm.oldpiece, lm.newpiece, from, to, {0}};
		for (int j = 0; j < lm.jumps && j < 12; j++)
			m.del[j] = number(lm.del[j].x, lm.del[j].y);
		memcpy(copy, before, sizeof copy);
		apply(copy, &m);
		if (memcmp(copy, after, sizeof copy) == 0 && lm.jumps == cbm->jumps)
			return "";
		sprintf(why, "the board after %d-%d is not islegal's", from, to);
		return why;
	}
	for (int i = 0; i < n; i++) {
		int copy[8][8];
		memcpy(copy, before, sizeof copy);
		apply(copy, &moves[i]);
		if (memcmp(copy, after, sizeof copy) != 0)
			continue;
		if (moves[i].from != from || moves[i].to != to || moves[i].jumps != cbm->jumps ||
			moves[i].newpiece != cbm->newpiece || moves[i].oldpiece != cbm->oldpiece) {
			sprintf(why, "CBmove %d-%d jumps %d pieces %d/%d, the board's move is %d-%d jumps %d pieces %d/%d",
				from, to, cbm->jumps, cbm->oldpiece, cbm->newpiece, moves[i].from, moves[i].to,
				moves[i].jumps, moves[i].oldpiece, moves[i].newpiece);
			return why;
		}
		return "";
	}
	sprintf(why, "the board after CBmove %d-%d is no legal move's", from, to);
	return why;
}

static double now_ms(void)
{
	static LARGE_INTEGER freq;
	LARGE_INTEGER t;
	if (!freq.QuadPart)
		QueryPerformanceFrequency(&freq);
	QueryPerformanceCounter(&t);
	return (double)t.QuadPart * 1e3 / (double)freq.QuadPart;
}

static void commands(int gametype)
{
	char reply[1024];
	int r = ec("name", reply);
	check(r == 1 && strcmp(reply, "Rio") == 0, "enginecommand name: %d \"%s\"", r, reply);
	r = ec("get gametype", reply);
	check(r == 1 && atoi(reply) == gametype, "get gametype: %d \"%s\", want %d", r, reply, gametype);
	r = ec("get protocolversion", reply);
	check(r == 1 && strcmp(reply, "2") == 0, "get protocolversion: %d \"%s\"", r, reply);
}

/* The capture position: white's men on 21-23 can take 22x6 or 22x8 (two
 * men) or 23x16 (three). Russian lets white choose any of the three;
 * brazilian, with the majority rule, only 23x16. */
static void captures(int gametype)
{
	static const char *pos = "W:W21,22,23:B10,11,18";
	int b[8][8];
	memset(b, 0, sizeof b);
	for (int n = 21; n <= 23; n++)
		*at(b, n) = CB_WHITE | CB_MAN;
	*at(b, 18) = *at(b, 11) = *at(b, 10) = CB_BLACK | CB_MAN;
	char cmd[256], reply[1024];
	fen(b, CB_WHITE, cmd);
	check(strcmp(cmd, pos) == 0, "FEN of the capture position: %s", cmd);

	struct listed moves[64];
	int n = movelist(b, CB_WHITE, moves, 64, reply);
	struct {
		int from, to, jumps, russian_only;
	} want[] = {{22, 6, 2, 1}, {22, 8, 2, 1}, {23, 16, 3, 0}};
	int nwant = gametype == 25 ? 3 : 1, found = 0;
	for (int i = 0; i < n; i++)
		for (int w = 0; w < 3; w++)
			if (moves[i].from == want[w].from && moves[i].to == want[w].to && moves[i].jumps == want[w].jumps &&
				(gametype == 25 || !want[w].russian_only))
				found++;
	check(n == nwant && found == nwant, "get movelist %s: %d moves, %d expected found (\"%s\")", pos, n, found, reply);

	int copy[8][8];
	struct CBmove m;
	memcpy(copy, b, sizeof copy);
	memset(&m, 0, sizeof m);
	int r = il(copy, CB_WHITE, 23, 16, &m);
	check(r == 1 && m.jumps == 3 && number(m.from.x, m.from.y) == 23 && number(m.to.x, m.to.y) == 16 &&
			memcmp(copy, b, sizeof b) == 0,
		"islegal 23x16: %d, jumps %d, board unchanged %d", r, m.jumps, memcmp(copy, b, sizeof b) == 0);
	r = il(copy, CB_WHITE, 22, 8, &m);
	check(r == (gametype == 25), "islegal 22x8 (two men, legal in russian only): %d", r);
	r = il(copy, CB_WHITE, 21, 17, &m);
	check(r == 0, "islegal 21-17 (a capture is compulsory): %d", r);

	/* getmove in the position plays a legal capture. */
	char str[1024] = "";
	int playnow = 0;
	struct CBmove cbm;
	memset(&cbm, 0, sizeof cbm);
	r = gm(copy, CB_WHITE, 0.1, str, &playnow, 0, 0, &cbm);
	const char *why = played(b, CB_WHITE, copy, &cbm, moves, n);
	check(*why == 0, "getmove in %s: result %d, %d-%d %s", pos, r, number(cbm.from.x, cbm.from.y),
		number(cbm.to.x, cbm.to.y), why);
}

/* The slowest getmove of the games. */
static struct {
	double ms, maxtime;
	int game, ply;
	char fen[128];
} slowest;

/* game plays one game of the engine against itself from the start, every
 * move checked; it returns the plies played. */
static int game(int index, double maxtime, int maxplies)
{
	int b[8][8], color = CB_WHITE, ply;
	start_board(b);
	char result[64] = "no result";
	for (ply = 0; ply < maxplies; ply++) {
		struct listed moves[64];
		char reply[1024];
		int n = movelist(b, color, moves, 64, reply);
		if (n == 0) {
			sprintf(result, "%s has no move", color == CB_WHITE ? "white" : "black");
			break;
		}
		int before[8][8];
		memcpy(before, b, sizeof b);
		char str[1024] = "";
		int playnow = 0;
		struct CBmove cbm;
		memset(&cbm, 0, sizeof cbm);
		double t0 = now_ms();
		/* info bit 0 (CB_RESET_MOVES) on a game's first move, as the GUI does. */
		int r = gm(b, color, maxtime, str, &playnow, ply == 0 ? 1 : 0, 0, &cbm);
		double took = now_ms() - t0;
		if (took > slowest.ms) {
			slowest.ms = took;
			slowest.maxtime = maxtime;
			slowest.game = index;
			slowest.ply = ply + 1;
			fen(before, color, slowest.fen);
		}
		const char *why = played(before, color, b, &cbm, moves, n);
		if (*why) {
			char f[256];
			fen(before, color, f);
			check(0, "game %d ply %d in %s: getmove returned %d: %s (status \"%s\")", index, ply + 1, f, r, why, str);
			return ply;
		}
		color = color == CB_WHITE ? CB_BLACK : CB_WHITE;
	}
	check(1, "game %d: %d plies, every move legal (%s)", index, ply, result);
	return ply;
}

static HANDLE pressed;
static volatile LONG playnow_flag;
static double pressed_at;

static DWORD WINAPI press(LPVOID arg)
{
	(void)arg;
	Sleep(300);
	pressed_at = now_ms();
	InterlockedExchange(&playnow_flag, 1);
	return 0;
}

/* playnow: a 60-second search stopped by setting *playnow from another
 * thread, as the GUI's Play now does. */
static void playnow(double bound_ms)
{
	int b[8][8];
	start_board(b);
	char str[1024] = "";
	struct CBmove cbm;
	memset(&cbm, 0, sizeof cbm);
	/* The start is in the built-in book, which answers at once: searched. */
	char said[1024];
	check(ec("set book 0", said) == 1, "set book 0: \"%s\"", said);
	playnow_flag = 0;
	pressed = CreateThread(NULL, 0, press, NULL, 0, NULL);
	if (!pressed) {
		check(0, "playnow: CreateThread: error %lu", GetLastError());
		return;
	}
	gm(b, CB_WHITE, 60, str, (int *)&playnow_flag, 0, 0, &cbm);
	double took = now_ms() - pressed_at;
	WaitForSingleObject(pressed, INFINITE);
	ec("set book 2", said);
	CloseHandle(pressed);
	int before[8][8];
	start_board(before);
	struct listed moves[64];
	char reply[1024];
	int n = movelist(before, CB_WHITE, moves, 64, reply);
	const char *why = played(before, CB_WHITE, b, &cbm, moves, n);
	check(playnow_flag == 1 && took <= bound_ms && *why == 0, "playnow: getmove returned %.1f ms after *playnow was set (bound %.0f ms) %s",
		took, bound_ms, why);
}

static int probe(void)
{
	HMODULE m = LoadLibraryExA("bcryptprimitives.dll", NULL, LOAD_LIBRARY_SEARCH_SYSTEM32);
	prng_fn f = m ? (prng_fn)(void (*)(void))GetProcAddress(m, "ProcessPrng") : NULL;
	unsigned char buf[16];
	printf("ProcessPrng: %s\n", f && f(buf, sizeof buf) ? "present" : "missing");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "probe") == 0)
		return probe();
	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: host probe | host DLL GAMETYPE [PLAYNOW_MS]\n");
		return 2;
	}
	int gametype = atoi(argv[2]);
	double bound = argc == 4 ? atof(argv[3]) : 1000;
	double t0 = now_ms();
	HMODULE lib = LoadLibraryA(argv[1]);
	check(lib != NULL, "LoadLibrary %s: %.0f ms (error %lu)", argv[1], now_ms() - t0, lib ? 0 : GetLastError());
	if (!lib)
		goto done;
	gm = (getmove_fn)(void (*)(void))GetProcAddress(lib, "getmove");
	ec = (command_fn)(void (*)(void))GetProcAddress(lib, "enginecommand");
	il = (islegal_fn)(void (*)(void))GetProcAddress(lib, "islegal");
	check(gm && ec && il, "GetProcAddress getmove %d enginecommand %d islegal %d (%d-bit)", gm != NULL, ec != NULL,
		il != NULL, (int)(8 * sizeof(void *)));
	if (!gm || !ec || !il)
		goto done;
	commands(gametype);
	captures(gametype);
	int plies = 0;
	for (int i = 1; i <= 2; i++)
		plies += game(i, i == 1 ? 0.05 : 0.1, 100);
	/* The engine keeps within maxtime; the bound's slack is for wine and a
	 * loaded machine. */
	check(slowest.ms < 1000, "getmove in the games: %d plies, slowest %.0f ms (game %d ply %d, maxtime %.2f s, %s)",
		plies, slowest.ms, slowest.game, slowest.ply, slowest.maxtime, slowest.fen);
	playnow(bound);
done:
	if (failures) {
		printf("FAIL %d checks\n", failures);
		return 1;
	}
	printf("PASS\n");
	return 0;
}
