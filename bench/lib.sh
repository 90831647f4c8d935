# What the bench scripts share, sourced from the repository's root: where
# the inputs live and how they are made, the binary measured, one run timed,
# and the median. Each catalog is made once under target/bench-data and kept
# for the next run; a catalog's name says what it is made from, so that two
# scripts never measure different bytes under one name.

SHARED=${CARDKIT_SHARED:-../shared}
DATA=target/bench-data
mkdir -p "$DATA"

# The path of a generated catalog of MB megabytes (seed 1), made when
# missing by ../shared/bench/make_allprintings.py:
#   catalog MB            from the corpus's BRO set, in the spec's names:
#                         the catalog the speed tables are measured on;
#   catalog MB upstream   the same in the publishers' names;
#   catalog MB mixed      from every raw set of the corpus and BRO, in the
#                         spec's names: records of every kind that name each
#                         other, as the reference checks read them.
catalog() {
  local mb=$1 from=${2:-bro} out sets
  local bro=$SHARED/corpus/raw/set/mightstone_set_BRO.json
  local args=(--size-mb "$mb" --seed 1)
  case $from in
    bro) out=$DATA/catalog-$mb.json sets=("$bro") args+=(--neutral) ;;
    upstream) out=$DATA/catalog-$mb-upstream.json sets=("$bro") ;;
    mixed) out=$DATA/mixed-$mb.json sets=("$SHARED"/corpus/raw/set/jsonsets_*.json "$bro") args+=(--neutral) ;;
    *) echo "catalog: no catalog made from '$from'" >&2; return 1 ;;
  esac
  if [ ! -f "$out" ]; then
    python3 "$SHARED/bench/make_allprintings.py" "${sets[@]}" "${args[@]}" -o "$out.part" >&2
    mv "$out.part" "$out"
  fi
  echo "$out"
}

# Sets CARDKIT to the binary measured: CARDKIT=path measures that one (an
# earlier build, say); else the release build, built first.
cardkit_binary() {
  if [ -z "${CARDKIT:-}" ]; then
    cargo build --release -q -p cardkit-cli
    CARDKIT=target/release/cardkit
  fi
}

# Runs a command once, its output thrown away; prints "wall-seconds
# CPU-seconds peak-RSS-KB": the wall time from a monotonic clock, the CPU
# time (user and system) as the kernel accounts the finished child, and its
# peak RSS as /usr/bin/time reads it (the child's own, not that of the
# process that started it). A failing command is measured all the same.
once() {
  python3 - /usr/bin/time -f %M "$@" <<'EOF'
import os, subprocess, sys, time
start = time.perf_counter()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
peak = child.stderr.read().split()[-1].decode()
# The child's own accounting (not this process's children's, which may
# hold those of a launcher that exec'd this Python).
_, _, usage = os.wait4(child.pid, 0)
wall = time.perf_counter() - start
print(f"{wall:.4f} {usage.ru_utime + usage.ru_stime:.4f} {peak}")
EOF
}

# The median of the numbers on standard input (the upper one of an even
# count).
median() {
  sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

# One line on the machine and its load, to head a table.
machine() {
  echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr), load $(cut -d ' ' -f 1-3 /proc/loadavg); $(date -u +%Y-%m-%d)"
}
