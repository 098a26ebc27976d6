#!/usr/bin/env bash
# Builds Benchmarks/sqlite/bench_sqlite.c into .build-bench/bench_sqlite (at the package
# root) against the system SQLite that GRDB uses (libsqlite3-dev, installed if missing).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$root/.build-bench"

if ! dpkg-query -W -f='${Status}' libsqlite3-dev 2>/dev/null | grep -q "install ok installed"; then
    echo "installing libsqlite3-dev..." >&2
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq >/dev/null
    $sudo apt-get install -y -qq libsqlite3-dev >/dev/null
fi

mkdir -p "$out"
gcc -O2 -Wall -Wextra -o "$out/bench_sqlite" "$here/bench_sqlite.c" -lsqlite3
echo "$out/bench_sqlite"
