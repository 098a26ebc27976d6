#!/usr/bin/env bash
# Builds Benchmarks/libical/bench_libical.c into .build-bench/bench_libical
# (at the package root), installing libical-dev and pkg-config first if missing.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$root/.build-bench"

if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists libical 2>/dev/null; then
    echo "installing libical-dev and pkg-config..." >&2
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    if ! $sudo apt-get install -y -qq libical-dev pkg-config >/dev/null 2>&1; then
        $sudo apt-get update -qq >/dev/null
        $sudo apt-get install -y -qq libical-dev pkg-config >/dev/null
    fi
fi

mkdir -p "$out"
# shellcheck disable=SC2046
gcc -O2 -Wall -Wextra -o "$out/bench_libical" "$here/bench_libical.c" \
    $(pkg-config --cflags --libs libical)
echo "$out/bench_libical"
