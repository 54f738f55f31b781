#!/usr/bin/env bash
# Packs this machine's PostgreSQL server (Debian's postgresql-15: initdb, pg_ctl, postgres, psql, the server's
# modules and share files) with the shared libraries it needs into one compressed archive that travels with a
# device run, for the fleet benchmark on a GPU machine that has no PostgreSQL (perf/fleet_gpu_bench.sh).
#
#   perf/stage_postgres.sh [ARCHIVE]        # default stage/postgres.tar.xz
#
# The archive keeps Debian's layout under usr/ (the server finds its share and module folders relative to its
# own binary) and the libraries in lib/. Unpacked into DIR, it runs as
#   LD_LIBRARY_PATH=DIR/lib PROOFLINE_PG_BINDIR=DIR/usr/lib/postgresql/15/bin tests/fleet/pg_server.sh start S
set -euo pipefail
cd "$(dirname "$0")/.."
archive=${1:-stage/postgres.tar.xz}
bindir=/usr/lib/postgresql/15/bin
[[ -x $bindir/postgres ]] || { echo "stage_postgres: no PostgreSQL 15 server in $bindir" >&2; exit 1; }

tree=$(mktemp -d /tmp/proofline-pg-stage.XXXXXX)
trap 'rm -rf "$tree"' EXIT
mkdir -p "$tree/usr/lib/postgresql/15/bin" "$tree/usr/lib/postgresql/15/lib" "$tree/usr/share/postgresql" "$tree/lib"
programs=(initdb pg_ctl postgres psql)
for program in "${programs[@]}"; do cp -L "$bindir/$program" "$tree/usr/lib/postgresql/15/bin/"; done
# The server's own modules, without the JIT (LLVM alone is larger than the rest together; jit is off by default).
find /usr/lib/postgresql/15/lib -maxdepth 1 -name '*.so' ! -name 'llvmjit*' -exec cp -L {} "$tree/usr/lib/postgresql/15/lib/" \;
cp -rL /usr/share/postgresql/15 "$tree/usr/share/postgresql/"
# Every library the programs and modules load, except the C runtime the GPU machine has in a newer version.
for object in "$tree"/usr/lib/postgresql/15/bin/* "$tree"/usr/lib/postgresql/15/lib/*.so; do
  ldd "$object" | awk '/=> \// {print $3}'
done | sort -u | grep -vE '/(libc|libm|libdl|libpthread|librt|libstdc\+\+|libgcc_s|ld-linux[^/]*)\.so' |
  while read -r lib; do cp -L "$lib" "$tree/lib/"; done

mkdir -p "$(dirname "$archive")"
tar -C "$tree" -cJf "$archive.tmp" usr lib
mv "$archive.tmp" "$archive"
du -h "$archive"
