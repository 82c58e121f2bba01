#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Installs the Debian packages ember's build and tests need, when missing.
# As root it runs apt-get (update first); otherwise it prints the exact line.
set -eu

PACKAGES=(
	build-essential pkg-config
	libelf-dev libdw-dev libtraceevent-dev libzstd-dev
	libcapstone-dev libbpf-dev libncurses-dev libiberty-dev libc6-dbg
	bpftool					# BPF skeletons (lib/*/*.bpf.c), with clang
	linux-perf python3 procps
	clang libclang-rt-14-dev valgrind	# fuzzing (libFuzzer), sanitizers, memcheck
	chromium nodejs				# the flame graph's browser test (playwright-core)
	time strace				# bench peak memory; the unprivileged-user checks
	tmux					# drives the report browser in its e2e suite (report-tui)
	debuginfod				# serves debuginfo to the unwinder's test (elfutils)
	hotspot					# its hotspot-perfparser reads our files (pulls Qt, KDE: ~100 pkgs)
)

missing=()
for p in "${PACKAGES[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

line="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" != 0 ]; then
	echo "ember needs: ${missing[*]}" >&2
	echo "run as root: apt-get update && $line" >&2
	exit 1
fi
echo "deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
$line -qq >/dev/null
