#!/usr/bin/env bash
# Builds Rio's CheckerBoard engine libraries into DIR (default dist/cb):
#   rio-cb64.dll, rio-cb64-brazilian.dll   windows/amd64 (x86_64-w64-mingw32-gcc)
#   rio-cb32.dll, rio-cb32-brazilian.dll   windows/386, __stdcall (i686-w64-mingw32-gcc)
#   librio-cb.so                           linux, what the tests load
#   rio-cb.htm                             the help page ("help" names it)
# The plain DLLs play russian (game type 25), the -brazilian ones brazilian
# (26, built with -tags brazilian): CheckerBoard asks an engine its game
# type and never sets it.
# A Windows DLL whose cross compiler is missing is skipped with a message
# (Debian: apt-get install gcc-mingw-w64); each library built is checked
# to export getmove, enginecommand and islegal undecorated.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${1:-$root/dist/cb}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
cd "$root"

# exports FILE OBJDUMP: fails unless the three entry points are exported
# under their plain names.
exports() {
	local table
	table="$("$2" -p "$1")"
	for name in getmove enginecommand islegal; do
		if ! grep -qE "^[[:space:]]*\[[[:space:]]*[0-9]+\][[:space:]]+$name\$|[[:space:]]$name\$" <<<"$table"; then
			echo "build.sh: $1 does not export $name" >&2
			exit 1
		fi
	done
	if grep -qE '_?(getmove|enginecommand|islegal)@[0-9]+' <<<"$table"; then
		echo "build.sh: $1 exports decorated names" >&2
		exit 1
	fi
	echo "$1: exports getmove enginecommand islegal"
}

go build -trimpath -buildmode=c-shared -o "$out/librio-cb.so" ./cmd/cbengine
rm -f "$out/librio-cb.h"
if ! nm -D --defined-only "$out/librio-cb.so" | grep -qw getmove; then
	echo "build.sh: librio-cb.so does not export getmove" >&2
	exit 1
fi
echo "$out/librio-cb.so: built"

for target in amd64:x86_64-w64-mingw32:64 386:i686-w64-mingw32:32; do
	IFS=: read -r arch triple bits <<<"$target"
	if ! command -v "$triple-gcc" >/dev/null; then
		echo "build.sh: skipped rio-cb$bits.dll: no $triple-gcc (apt-get install gcc-mingw-w64)" >&2
		continue
	fi
	for variant in : brazilian:-brazilian; do # build tags:file suffix
		IFS=: read -r tags suffix <<<"$variant"
		dll="$out/rio-cb$bits$suffix.dll"
		ldflags=""
		[ "$arch" = 386 ] && ldflags="-Wl,--kill-at" # __stdcall names undecorated
		CGO_ENABLED=1 GOOS=windows GOARCH="$arch" CC="$triple-gcc" CGO_LDFLAGS="$ldflags" \
			go build -trimpath -buildmode=c-shared -tags "$tags" -o "$dll" ./cmd/cbengine
		rm -f "${dll%.dll}.h"
		objdump="$triple-objdump"
		command -v "$objdump" >/dev/null || objdump=objdump
		exports "$dll" "$objdump"
	done
done
cp cmd/cbengine/rio-cb.htm "$out/"
