/* A stand-in bcryptprimitives.dll for wine releases without one (issue 23).
 *
 * Programs and DLLs built with Go 1.22 or later, rio-cb64.dll, rio-cb32.dll
 * and engine.exe among them, call ProcessPrng from bcryptprimitives.dll
 * when the Go runtime starts; Windows 10 and later have it, wine has it
 * since its 8.13 development release (9.0 stable). Under an older wine
 * (Debian 12's wine 8.0) the runtime stops with "fatal error:
 * bcryptprimitives.dll not found" before the engine runs. This DLL exports
 * ProcessPrng alone and takes the bytes from BCryptGenRandom (bcrypt.dll,
 * which every wine has), the system's preferred generator.
 *
 * Build (mingw-w64, Debian: apt-get install gcc-mingw-w64):
 *   x86_64-w64-mingw32-gcc -shared -O2 -o bcryptprimitives.dll bcryptprimitives.c -lbcrypt
 *   i686-w64-mingw32-gcc -shared -O2 -Wl,--kill-at -o bcryptprimitives.dll bcryptprimitives.c -lbcrypt
 * (--kill-at: the 32-bit __stdcall export keeps its plain name, which is
 * the one Go's runtime asks GetProcAddress for.)
 *
 * Go loads the DLL with LoadLibraryEx(LOAD_LIBRARY_SEARCH_SYSTEM32), so it
 * goes into the wine prefix's system directory: drive_c/windows/system32
 * for the 64-bit one, drive_c/windows/syswow64 for the 32-bit one under a
 * 64-bit prefix (system32 in a 32-bit prefix). Windows itself never needs
 * it: do not install it there.
 */
#include <windows.h>
#include <bcrypt.h>

/* Named in the DLL, so that a copy in a prefix can be told from wine's
 * own (wine_test.go looks for it). */
__attribute__((used)) static const char mark[] = "Rio's stand-in bcryptprimitives.dll";

/* The largest piece one BCryptGenRandom call takes (its length is a ULONG,
 * SIZE_T may be wider). */
#define PIECE 0x40000000u

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T size)
{
	while (size > 0) {
		ULONG n = size > PIECE ? PIECE : (ULONG)size;
		if (!BCRYPT_SUCCESS(BCryptGenRandom(NULL, data, n, BCRYPT_USE_SYSTEM_PREFERRED_RNG)))
			return FALSE;
		data += n;
		size -= n;
	}
	return TRUE;
}

BOOL WINAPI DllMain(HINSTANCE dll, DWORD reason, LPVOID reserved)
{
	(void)reserved;
	if (reason == DLL_PROCESS_ATTACH)
		DisableThreadLibraryCalls(dll);
	return TRUE;
}
