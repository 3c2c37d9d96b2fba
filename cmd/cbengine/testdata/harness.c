/* Test harness for librio-cb.so (cbengine_test.go builds and drives it):
 * loads the library with dlopen and calls its three exports as
 * CheckerBoard does, one request a line on stdin, one answer a line on
 * stdout. Squares are placed on board[x][y] by its own copy of
 * cb_interface.h's numbertocoors (default branch), so that the test checks
 * the library's orientation from outside.
 *
 *   c <command>                      -> R <ret> <reply, newlines as |>
 *   g <color> <maxtime> <info> <moreinfo> <32 codes by square number>
 *                                    -> M <ret> <32 codes> <jumps> <from> <to> <path...> | <status>
 *   l <color> <from> <to> <32 codes> -> L <ret> <jumps> <from> <to> <board unchanged 0|1>
 *   p                                -> P <ms from playnow to return>
 *   b                                -> B <results of calls with bad input>
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../cbapi.h"

typedef int (*getmove_fn)(int[8][8], int, double, char[1024], int *, int, int, struct CBmove *);
typedef int (*command_fn)(char *, char[1024]);
typedef int (*islegal_fn)(int[8][8], int, int, int, struct CBmove *);

static getmove_fn gm;
static command_fn ec;
static islegal_fn il;

static void coors(int n, int *x, int *y)
{
	n--;
	*y = n / 4;
	*x = 2 * (3 - n % 4);
	if (*y % 2)
		(*x)++;
}

static int number(int x, int y) { return 4 * (y + 1) - x / 2; }

static int read_board(char **p, int b[8][8])
{
	memset(b, 0, sizeof(int[8][8]));
	for (int n = 1; n <= 32; n++) {
		char *end;
		long v = strtol(*p, &end, 10);
		if (end == *p)
			return 0;
		*p = end;
		int x, y;
		coors(n, &x, &y);
		b[x][y] = (int)v;
	}
	return 1;
}

static void print_board(int b[8][8])
{
	for (int n = 1; n <= 32; n++) {
		int x, y;
		coors(n, &x, &y);
		printf(" %d", b[x][y]);
	}
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static volatile int playnow;
static double set_at;

static void *press(void *arg)
{
	(void)arg;
	usleep(300000);
	set_at = now_ms();
	__atomic_store_n(&playnow, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static void start_board(int b[8][8])
{
	memset(b, 0, sizeof(int[8][8]));
	for (int n = 1; n <= 32; n++) {
		int x, y;
		coors(n, &x, &y);
		if (n <= 12)
			b[x][y] = 2 | 4;
		else if (n >= 21)
			b[x][y] = 1 | 4;
	}
}

static void bad_input(void)
{
	char str[1024], reply[1024];
	int b[8][8], pn = 0;
	struct CBmove m;
	start_board(b);
	printf("B");
	printf(" %d", gm(NULL, 1, 0.01, str, &pn, 0, 0, &m));
	printf(" %d", gm(b, 7, 0.01, str, &pn, 0, 0, &m));
	int g[8][8];
	for (int i = 0; i < 64; i++)
		((int *)g)[i] = rand();
	printf(" %d", gm(g, 1, 0.01, str, &pn, 0, 0, &m));
	printf(" %d", gm(b, 1, 0.01, NULL, NULL, 0, 0, NULL)); /* no str, playnow, move */
	printf(" %d", ec(NULL, reply));
	printf(" %d", ec("name", NULL));
	size_t big = 1 << 20;
	char *longcmd = malloc(big + 1);
	memset(longcmd, 'x', big);
	memcpy(longcmd, "set gamehist ", 13);
	longcmd[big] = 0;
	printf(" %d", ec(longcmd, reply));
	free(longcmd);
	printf(" %d", ec("get movelist B:W1:B", reply));
	printf(" [%s]", reply);
	printf(" %d", il(NULL, 1, 22, 18, &m));
	printf(" %d", il(b, 1, -5, 99, &m));
	printf(" %d", il(b, 9, 22, 18, &m));
	printf(" %d", il(g, 1, 22, 18, &m));
	printf(" %d", il(b, 1, 22, 18, NULL));
	printf(" %d", ec("name", reply));
	printf(" [%s]\n", reply);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: harness librio-cb.so\n");
		return 2;
	}
	void *lib = dlopen(argv[1], RTLD_NOW);
	if (!lib) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return 1;
	}
	gm = (getmove_fn)dlsym(lib, "getmove");
	ec = (command_fn)dlsym(lib, "enginecommand");
	il = (islegal_fn)dlsym(lib, "islegal");
	if (!gm || !ec || !il) {
		fprintf(stderr, "missing export\n");
		return 1;
	}
	static char line[1 << 20];
	while (fgets(line, sizeof line, stdin)) {
		line[strcspn(line, "\n")] = 0;
		char *p = line + 1;
		if (line[0] == 'c') {
			char reply[1024];
			int r = ec(line + 2, reply);
			for (char *q = reply; *q; q++)
				if (*q == '\n')
					*q = '|';
			printf("R %d %s\n", r, reply);
		} else if (line[0] == 'g') {
			int color = (int)strtol(p, &p, 10);
			double maxtime = strtod(p, &p);
			int info = (int)strtol(p, &p, 10);
			int more = (int)strtol(p, &p, 10);
			int b[8][8];
			if (!read_board(&p, b)) {
				printf("error bad board\n");
				continue;
			}
			char str[1024] = "";
			int pn = 0;
			struct CBmove m;
			memset(&m, 0, sizeof m);
			int r = gm(b, color, maxtime, str, &pn, info, more, &m);
			printf("M %d", r);
			print_board(b);
			printf(" %d %d %d", m.jumps, number(m.from.x, m.from.y), number(m.to.x, m.to.y));
			for (int i = 1; i <= m.jumps && i < 12; i++)
				printf(" %d", number(m.path[i].x, m.path[i].y));
			printf(" | %s\n", str);
		} else if (line[0] == 'l') {
			int color = (int)strtol(p, &p, 10);
			int from = (int)strtol(p, &p, 10);
			int to = (int)strtol(p, &p, 10);
			int b[8][8], before[8][8];
			if (!read_board(&p, b)) {
				printf("error bad board\n");
				continue;
			}
			memcpy(before, b, sizeof b);
			struct CBmove m;
			memset(&m, 0, sizeof m);
			int r = il(b, color, from, to, &m);
			printf("L %d %d %d %d %d\n", r, m.jumps, number(m.from.x, m.from.y), number(m.to.x, m.to.y),
				memcmp(before, b, sizeof b) == 0);
		} else if (line[0] == 'p') {
			int b[8][8];
			start_board(b);
			char str[1024];
			struct CBmove m;
			pthread_t t;
			playnow = 0;
			pthread_create(&t, NULL, press, NULL);
			gm(b, 1, 60, str, (int *)&playnow, 0, 0, &m);
			double took = now_ms() - set_at;
			pthread_join(t, NULL);
			printf("P %.1f\n", took);
		} else if (line[0] == 'b') {
			bad_input();
		} else {
			printf("error unknown request\n");
		}
		fflush(stdout);
	}
	return 0;
}
