#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember's main job on a bundled workload. Today: count it with ember stat.
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
echo "# ember stat on tests/workloads/hotloop (a known CPU-bound program)" >&2
"$BUILD/ember" stat -- "$BUILD/workloads/hotloop" 200
