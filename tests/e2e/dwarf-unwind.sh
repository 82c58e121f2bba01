#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember unwinds --call-graph dwarf stack copies from CFI alone: a workload
# built without frame pointers (tests/workloads/dwarfpaths.c, -O2
# -fomit-frame-pointer here), its debuginfo in a separate file (debuglink),
# libc (no frame pointers either) in the chain. On perf's and ember's
# recordings: the stacks perf script shows, and at least 90 % of the leaf
# samples unwound to main. Then bad input, each with the frames that can be
# had, one warning at most, no crash: a stripped binary, a truncated stack
# copy, registers missing from the mask, a binary gone since the recording,
# a corrupt .eh_frame.
. "$(dirname "$0")/../lib/e2e.sh"

dwarf_suite_needs python3 cc objcopy strip || exit 0
CMP="$TOP/tests/tools/dwarf-compare.py"
cd "$TMP" || exit 1

# the workload, its debuginfo apart: .symtab and .eh_frame stay in the binary
cc -O2 -g -fomit-frame-pointer -o dwarfpaths "$TOP/tests/workloads/dwarfpaths.c" &&
	objcopy --only-keep-debug dwarfpaths dwarfpaths.debug &&
	strip --strip-debug dwarfpaths &&
	objcopy --add-gnu-debuglink=dwarfpaths.debug dwarfpaths || {
	fail build "cannot build the workload"
	exit 0
}
if readelf -S dwarfpaths | grep -q debug_info; then
	fail split-debuginfo "the binary still has its .debug_info"
else
	pass split-debuginfo
fi

# compared NAME PERF-SCRIPT EMBER-SCRIPT
compared() {
	local out
	if out=$(python3 "$CMP" script "$2" "$3"); then
		pass "$1"
	else
		fail "$1" "$out"
	fi
}

# Of the samples whose first frame is in FN, how many reach main, in %;
# and how many pass through libc on the way.
reach_main() { # SCRIPT FN
	awk -v fn="$2" '
		/^[^\t]/ { leaf = ""; next }
		/^\t/ && leaf == "" { leaf = $2; sub(/\+0x.*/, "", leaf); main = 0; libc = 0
			if (leaf == fn) n++ }
		/^\t/ && leaf == fn && $2 ~ /^main\+/ && !main { main = 1; m++ }
		/^\t/ && leaf == fn && /libc\.so/ && !libc { libc = 1; l++ }
		END { printf "%d %d %d\n", n, n ? 100 * m / n : 0, l }' "$1"
}

"$PERF" record -q --call-graph dwarf -o perf.data -- ./dwarfpaths 700 >/dev/null 2>&1
"$EMBER" record -q --call-graph dwarf -o ember.data -- ./dwarfpaths 700 >/dev/null 2>&1
for who in perf ember; do
	"$PERF" script -i $who.data >$who.perf-script 2>/dev/null
	"$EMBER" script -i $who.data >$who.ember-script 2>$who.ember-err
	compared "$who-script-like-perf" $who.perf-script $who.ember-script
	# (lost chunks, a loaded machine's, are not the unwinder's business)
	expect_eq "$who-script-no-unwind-warning" \
		"$(grep -c -e 'unwind' -e 'registers missing' $who.ember-err)" 0
	for fn in inner by_value; do
		read -r n pct libc < <(reach_main $who.ember-script $fn)
		read -r pn ppct plibc < <(reach_main $who.perf-script $fn)
		if [ "$n" -ge 10 ] && [ "$pct" -ge 90 ]; then
			pass "$who-$fn-reaches-main"
		else
			fail "$who-$fn-reaches-main" "$pct % of $n samples (perf: $ppct % of $pn)"
		fi
	done
	# qsort calls by_value: libc's frames sit between it and main
	read -r n pct libc < <(reach_main $who.ember-script by_value)
	if [ "$libc" -gt 0 ] && [ "$libc" -ge $((n * 9 / 10)) ]; then
		pass "$who-libc-in-chain"
	else
		fail "$who-libc-in-chain" "$libc of $n by_value samples have libc frames"
	fi
	# report -g: perf's entries and chains, inline frames included
	for order in callee caller; do
		"$PERF" report --stdio --no-children -g "folded,0,$order" -i $who.data \
			>$who.perf-report-$order 2>/dev/null
		"$EMBER" report --stdio --no-children -g "folded,0,$order" -i $who.data \
			>$who.ember-report-$order 2>/dev/null
		if out=$(python3 "$CMP" report $who.perf-report-$order $who.ember-report-$order); then
			pass "$who-report-$order-like-perf"
		else
			fail "$who-report-$order-like-perf" "$out"
		fi
	done
	# children as perf's default, at several --max-stack: an inline
	# function of one name sitting in two symbols is two entries (perf's
	# _sort__sym_cmp), each counted once per sample under its own
	for ms in 127 3 2; do
		"$PERF" report --stdio -g none --max-stack $ms -i $who.data \
			>$who.perf-children-$ms 2>/dev/null
		"$EMBER" report --stdio -g none --max-stack $ms -i $who.data \
			>$who.ember-children-$ms 2>/dev/null
		if out=$(python3 "$CMP" entries $who.perf-children-$ms $who.ember-children-$ms); then
			pass "$who-report-children-max-stack-$ms"
		else
			fail "$who-report-children-max-stack-$ms" "$out"
		fi
	done
	# each inline level's own source line (the call site for an outer one)
	# and " (inlined)" after the line, however the fields are chosen
	for fl in ip,sym,srcline ip,sym,dso,srcline ip,sym; do
		"$PERF" script -F $fl -i $who.data >$who.perf-$fl 2>/dev/null
		"$EMBER" script -F $fl -i $who.data >$who.ember-$fl 2>/dev/null
		check "$who-script-fields-$fl" cmp $who.perf-$fl $who.ember-$fl
	done
	# each inline level keyed and shown with its own line: -g address
	# ("NAME file:line (inlined)") and --sort srcline (entries from 1 %)
	for opt in "--no-children -g address" "--children -g address" "--sort srcline -g none"; do
		tag=$(echo "$opt" | tr -d ' -')
		"$PERF" report --stdio $opt --percent-limit 1 -i $who.data 2>/dev/null |
			grep -v -e '^# (Tip' -e '^#$' >$who.perf-$tag
		"$EMBER" report --stdio $opt --percent-limit 1 -i $who.data 2>/dev/null |
			grep -v -e '^# (Tip' -e '^#$' >$who.ember-$tag
		if [ "$tag" = childrengaddress ]; then
			# entries whose percentages tie: in any order (dwarf-compare.py)
			check "$who-report-$tag" python3 "$CMP" ties $who.perf-$tag $who.ember-$tag
		else
			check "$who-report-$tag" cmp $who.perf-$tag $who.ember-$tag
		fi
	done
	# --no-inline: one frame per unwound address, named after its symbol
	"$PERF" script --no-inline -i $who.data >$who.perf-noinline 2>/dev/null
	"$EMBER" script --no-inline -i $who.data >$who.ember-noinline 2>/dev/null
	if grep -q '(inlined)' $who.perf-noinline; then
		fail "$who-script-no-inline" "perf printed inline frames with --no-inline"
	else
		check "$who-script-no-inline" cmp $who.perf-noinline $who.ember-noinline
	fi
	"$PERF" report --stdio --no-inline -g folded -i $who.data 2>/dev/null |
		grep -v -e '^# (Tip' -e '^#$' >$who.perf-report-noinline
	"$EMBER" report --stdio --no-inline -g folded -i $who.data 2>/dev/null |
		grep -v -e '^# (Tip' -e '^#$' >$who.ember-report-noinline
	check "$who-report-no-inline" cmp $who.perf-report-noinline $who.ember-report-noinline
	# the report and the flame graph get the same stacks
	if "$EMBER" report --stdio --no-children --sort sym -g caller -i $who.data 2>/dev/null |
		grep -q -- '---.*main'; then
		pass "$who-report-unwinds"
	else
		fail "$who-report-unwinds" "no main in ember report's chains"
	fi
	# --inline on top: the levels perf script prints "(inlined)" stay as they
	# are (addr2line cannot read "inlined"), the others are expanded
	"$EMBER" flamegraph -q --folded --inline -i $who.data | sort >$who.folded-inline
	"$EMBER" collapse --inline $who.perf-script 2>/dev/null | sort >$who.collapsed-inline
	check "$who-flamegraph-inline-as-collapse" cmp $who.folded-inline $who.collapsed-inline
	"$EMBER" flamegraph -q --folded -i $who.data | sort >$who.folded
	"$EMBER" collapse $who.ember-script | sort >$who.collapsed
	if grep -q ';main;outer;middle;inner ' $who.folded && cmp -s $who.folded $who.collapsed; then
		pass "$who-flamegraph-unwinds"
	else
		fail "$who-flamegraph-unwinds" "$(diff $who.folded $who.collapsed | head -3)"
	fi
done

# A stripped binary: no symbols, but .eh_frame unwinds it all the same.
cp dwarfpaths stripped && strip --strip-all --remove-section=.gnu_debuglink stripped
"$PERF" record -q -N --call-graph dwarf -o stripped.data -- ./stripped 300 >/dev/null 2>&1
"$PERF" script -i stripped.data >stripped.perf-script 2>/dev/null
"$EMBER" script -i stripped.data >stripped.ember-script 2>stripped.err
expect_eq stripped-exit "$?" 0
compared stripped-script-like-perf stripped.perf-script stripped.ember-script
deep=$(awk '/^[^\t]/ { if (u >= 4) d++; u = 0; next } /stripped\)$/ { u++ }
	END { if (u >= 4) d++; print d + 0 }' stripped.ember-script)
if [ "$deep" -gt 10 ]; then
	pass stripped-unwinds
else
	fail stripped-unwinds "$deep samples with 4 frames or more in the stripped binary"
fi

# A truncated stack copy: 64 bytes hold a frame or two; the rest is lost.
"$PERF" record -q --call-graph dwarf,64 -o short.data -- ./dwarfpaths 300 >/dev/null 2>&1
"$PERF" script -i short.data >short.perf-script 2>/dev/null
"$EMBER" script -i short.data >short.ember-script 2>short.err
expect_eq short-exit "$?" 0
compared short-script-like-perf short.perf-script short.ember-script

# Registers missing from the mask: perf reads them as 0 and so do we, the
# CFA rules here need ip and sp only. One warning.
"$PERF" record -q --call-graph dwarf --user-regs=ip,sp -o regs.data -- ./dwarfpaths 300 \
	>/dev/null 2>&1
"$PERF" script -i regs.data >regs.perf-script 2>/dev/null
"$EMBER" script -i regs.data >regs.ember-script 2>regs.err
expect_eq regs-exit "$?" 0
compared regs-script-like-perf regs.perf-script regs.ember-script
expect_eq regs-one-warning "$(grep -c 'registers missing' regs.err)" 1

# A binary gone since the recording (and in no build-id cache: a build-id
# of its own, recorded with -N): its samples get no user frame (perf's
# rule: the ip's module cannot be reported), the others theirs. One
# warning.
# unique_copy PATH: the workload, with a build-id no cache has
unique_copy() {
	cc -O2 -fomit-frame-pointer -o "$1" "$TOP/tests/workloads/dwarfpaths.c" \
		-Wl,--build-id=0x$( (date +%s%N; echo "$1 $$") | sha1sum | cut -c1-40)
}
mkdir -p gone && unique_copy gone/dwarfpaths
"$PERF" record -q -N --call-graph dwarf -o gone.data -- ./gone/dwarfpaths 300 >/dev/null 2>&1
rm -rf gone
"$PERF" script -i gone.data >gone.perf-script 2>/dev/null
"$EMBER" script -i gone.data >gone.ember-script 2>gone.err
expect_eq gone-exit "$?" 0
compared gone-script-like-perf gone.perf-script gone.ember-script
# (a loaded machine's recording may have lost the binary's mmap: no map, no module)
if "$PERF" script --show-mmap-events -i gone.data 2>/dev/null | grep -q 'MMAP.*gone/dwarfpaths'; then
	expect_eq gone-one-warning "$(grep -c 'cannot unwind through' gone.err)" 1
else
	skip gone-one-warning "the recording has no mmap of the binary (lost under load)"
fi

# A corrupt .eh_frame (every byte 0xff after the recording): no crash, and
# each sample keeps at least its sampled frame.
unique_copy corrupt
"$PERF" record -q -N --call-graph dwarf -o corrupt.data -- ./corrupt 300 >/dev/null 2>&1
read -r off size < <(readelf -SW corrupt | awk '$2 == ".eh_frame" { print "0x" $5, "0x" $6 }')
off=$((off)) size=$((size))
python3 - corrupt "$off" "$size" <<'EOF'
import sys
path, off, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with open(path, "r+b") as f:
    f.seek(off)
    f.write(b"\xff" * size)
EOF
"$EMBER" script -i corrupt.data >corrupt.ember-script 2>corrupt.err
expect_eq corrupt-exit "$?" 0
frameless=$(awk '/^[^\t]/ { if (hdr && !f) n++; hdr = 1; f = 0; next } /^\t/ { f++ }
	END { if (hdr && !f) n++; print n + 0 }' corrupt.ember-script)
"$PERF" script -i corrupt.data 2>/dev/null | awk '/^[^\t]/ { if (hdr && !f) n++; hdr = 1; f = 0; next }
	/^\t/ { f++ } END { if (hdr && !f) n++; print n + 0 }' >corrupt.perf-frameless
expect_eq corrupt-frameless-like-perf "$frameless" "$(cat corrupt.perf-frameless)"
