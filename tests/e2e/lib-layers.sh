#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# libember's modules depend one way. Each lib/<module> may use only the
# modules before it in ORDER: their internal headers ("data/reader.h"),
# their public headers (<ember/perf-data.h>) and, once built, the functions
# their objects define. src/ reaches lib/ through <ember/...> alone, except
# lib/core's utility headers (see the Makefile's CFLAGS).
# A new module must be placed in ORDER; a public header belongs to the
# module that implements it (HEADER_OF).
. "$(dirname "$0")/../lib/e2e.sh"
cd "$TOP" || exit 1

ORDER=(core data event symbol trace probe synth collapse machine unwind session hist flame heatmap annotate
	syscall bpf systrace profile)
declare -A HEADER_OF=(
	[common]=core [perf-data]=data [event]=event [mmap]=event [workload]=event
	[symbol]=symbol [trace]=trace [probe]=probe [synth]=synth [collapse]=collapse [machine]=machine
	[session]=session [hist]=hist [flame]=flame [heatmap]=heatmap [annotate]=annotate
	[syscall]=syscall [bpf]=bpf [systrace]=systrace [systrace-summary]=systrace [profile]=profile
)
declare -A RANK
for i in "${!ORDER[@]}"; do RANK[${ORDER[$i]}]=$i; done

# every lib/ directory has its place, every public header its module
bad=
for d in lib/*/; do
	m=$(basename "$d")
	[ -n "${RANK[$m]:-}" ] || bad+=" lib/$m"
done
for h in include/ember/*.h; do
	n=$(basename "$h" .h)
	[ "$n" = ember ] || [ -n "${HEADER_OF[$n]:-}" ] || bad+=" $h"
done
[ -z "$bad" ] && pass every-module-placed || fail every-module-placed "not in ORDER/HEADER_OF:$bad"

# The module a quoted include of FILE names, as the compiler finds it
# (FILE's directory first, then -Ilib, then -Isrc): "lib/M", "src" or "".
where() { # FILE INCLUDE
	local dir=${1%/*}
	if [ -e "$dir/$2" ]; then
		case "$dir" in lib/*) dir=${dir#lib/}; echo "lib/${dir%%/*}" ;; *) echo src ;; esac
	elif [ -e "lib/$2" ]; then
		echo "lib/${2%%/*}"
	elif [ -e "src/$2" ]; then
		echo src
	fi
}

# 1. lib/<module>'s includes, internal and public
bad=
for f in lib/*/*.[ch]; do
	m=${f#lib/}
	m=${m%%/*}
	while IFS= read -r inc; do
		case "$inc" in
		'<ember/ember.h>')
			bad+=" $f:ember.h(all-of-libember)" ;;
		'<ember/'*)
			n=${inc#<ember/}
			n=${n%.h>}
			o=${HEADER_OF[$n]:-}
			[ -n "$o" ] && [ "${RANK[$o]}" -gt "${RANK[$m]}" ] && bad+=" $f:<ember/$n.h>($o)" ;;
		'"'*)
			n=${inc//\"/}
			w=$(where "$f" "$n")
			case "$w" in
			src) bad+=" $f:$n(src)" ;;
			lib/*)
				o=${w#lib/}
				[ "${RANK[$o]:-99}" -gt "${RANK[$m]}" ] && bad+=" $f:$n($o)" ;;
			esac ;;
		esac
	done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*\([<"][^>"]*[>"]\).*/\1/p' "$f")
done
[ -z "$bad" ] && pass lib-includes-go-down || fail lib-includes-go-down "includes of a module above:$bad"

# 2. a public header includes only the headers of its own module and those below
bad=
for h in include/ember/*.h; do
	n=$(basename "$h" .h)
	[ "$n" = ember ] && continue
	for inc in $(sed -n 's/^#include <ember\/\([a-z-]*\)\.h>.*/\1/p' "$h"); do
		o=${HEADER_OF[$inc]:-}
		{ [ "$inc" = ember ] || [ "${RANK[$o]:-99}" -gt "${RANK[${HEADER_OF[$n]}]}" ]; } &&
			bad+=" $h:<ember/$inc.h>"
	done
done
[ -z "$bad" ] && pass public-headers-go-down || fail public-headers-go-down "$bad"

# 3. src/ uses lib/ through public headers, and lib/core's utilities
bad=
for f in src/*.[ch] src/*/*.[ch]; do
	while IFS= read -r n; do
		w=$(where "$f" "$n")
		case "$w" in lib/core | src | "") ;; *) bad+=" $f:$n" ;; esac
	done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
done
[ -z "$bad" ] && pass src-uses-public-headers || fail src-uses-public-headers "lib-internal:$bad"

# 4. what the objects call: each module's undefined symbols, where they are defined
if ! command -v nm >/dev/null || [ ! -d "$BUILD/lib" ]; then
	skip lib-calls-go-down "no nm or no $BUILD/lib (build first)"
	exit 0
fi
objs() { # MODULE: the objects of its current sources
	local c
	for c in lib/"$1"/*.c; do
		[ -e "$c" ] && echo "$BUILD/${c%.c}.o"
	done
}
defs=$TMP/defs
for m in "${ORDER[@]}"; do
	mapfile -t o < <(objs "$m")
	[ ${#o[@]} -gt 0 ] && nm -g --defined-only "${o[@]}" 2>/dev/null |
		awk -v m="$m" 'NF == 3 { print $3, m }'
done | sort -u >"$defs"
bad=
for m in "${ORDER[@]}"; do
	mapfile -t o < <(objs "$m")
	[ ${#o[@]} -gt 0 ] || continue
	while read -r sym o; do
		[ "${RANK[$o]}" -gt "${RANK[$m]}" ] && bad+=" $m->$o($sym)"
	done < <(nm -u "${o[@]}" 2>/dev/null | awk 'NF == 2 { print $2 }' | sort -u | join - "$defs")
done
[ -z "$bad" ] && pass lib-calls-go-down || fail lib-calls-go-down "calls into a module above:$bad"

# 5. what the command calls in libember: its API, and lib/core's utilities
mapfile -t o < <(for c in src/*.c src/*/*.c; do echo "$BUILD/${c%.c}.o"; done)
bad=$(nm -u "${o[@]}" 2>/dev/null | awk 'NF == 2 { print $2 }' | sort -u | join - "$defs" |
	awk '$1 !~ /^ember_/ && $2 != "core" { printf " %s(%s)", $1, $2 }')
[ -z "$bad" ] && pass src-calls-public-api || fail src-calls-public-api "internal functions:$bad"
