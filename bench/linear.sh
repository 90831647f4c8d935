#!/usr/bin/env bash
# `cardkit diff` and `cardkit migrate apply` are linear in their input: each
# input class is generated at three sizes (x1, x4, x16), run on the given
# binary, and the time of each size may be at most SLACK times its share of
# the smallest's (4x the input, at most 4*SLACK x the time); peak RSS is
# printed. The classes are the superlinear ones of the hostile-input review:
#   - rekey:   one set whose every uuid is replaced (re-keyed printings);
#   - chain:   N merges in one chain (old=i, new=i+1) applied to one reference;
#   - pointer: N references in a JSON file, 10 notices that match nothing;
#   - csv:     N references in a CSV, every one merged (--dry-run).
# Prints one line per class and exits 1 if one is slow.
#
# Usage: bench/linear.sh CARDKIT [SCALE]   (SCALE multiplies the sizes; 1 is
# 5,000 cards, 2,000 chained notices, 12,500 JSON references, 100,000 rows)
#        bench/linear.sh --gen CLASS N DIR (only the inputs, for hostile.sh)
set -uo pipefail
cd "$(dirname "$0")/.."
K=${1:?usage: bench/linear.sh CARDKIT [SCALE]}
SCALE=${2:-1}
SLACK=${SLACK:-3}
D=target/linear
mkdir -p "$D"
failed=0

# gen CLASS N DIR: the inputs of CLASS at size N in DIR.
gen() {
  python3 - "$@" <<'PY'
import json, os, sys, uuid
cls, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
os.makedirs(out, exist_ok=True)
def u(*parts):
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "/".join(map(str, parts))))
def notice(old, new):
    nid = u("notice", old, new)
    strategy, new = ("merge", json.dumps(new)) if new else ("delete", "null")
    return ('{"object":"migration","id":"%s","uri":"urn:uuid:%s","migration_strategy":"%s",'
            '"old_catalogA_id":"%s","new_catalogA_id":%s}' % (nid, nid, strategy, old, new))
if cls == "rekey":
    base = json.load(open("examples/valid/set.json"))
    card = base["cards"][0]
    for side in ("old", "new"):
        cards = []
        for i in range(n):
            c = dict(card)
            c["uuid"] = u(side, i)
            c["number"] = str(i + 1)
            c["name"] = "Card %d" % i
            c["identifiers"] = {"catalogAId": u("catalog", side, i)}
            cards.append(c)
        s = dict(base, cards=cards, tokens=[], sealedProduct=[], baseSetSize=n, totalSetSize=n)
        json.dump(s, open(os.path.join(out, side + ".json"), "w"))
elif cls == "chain":
    with open(os.path.join(out, "notices.jsonl"), "w") as f:
        for i in range(n):
            f.write(notice(u("id", i), u("id", i + 1)) + "\n")
    with open(os.path.join(out, "refs.csv"), "w") as f:
        f.write("catalog_id\n%s\n" % u("id", 0))
elif cls == "pointer":
    with open(os.path.join(out, "notices.jsonl"), "w") as f:
        for i in range(10):
            f.write(notice(u("none", i), u("other", i)) + "\n")
    with open(os.path.join(out, "refs.json"), "w") as f:
        f.write('{"cards": [\n')
        f.write(",\n".join('  {"name": "Card %d", "catalogAId": "%s"}' % (i, u("id", i)) for i in range(n)))
        f.write("\n]}\n")
elif cls == "csv":
    ids = [u("id", i) for i in range(100)]
    with open(os.path.join(out, "notices.jsonl"), "w") as f:
        for i, old in enumerate(ids):
            f.write(notice(old, u("new", i)) + "\n")
    with open(os.path.join(out, "refs.csv"), "w") as f:
        f.write("deck,name,catalog_id,quantity\n")
        f.writelines("deck %d,Card %d,%s,1\n" % (i % 7, i, ids[i % 100]) for i in range(n))
PY
}

if [ "$1" = --gen ]; then
  gen "$2" "$3" "$4"
  exit
fi

# cmd CLASS DIR: the command line of CLASS on the inputs in DIR.
cmd() {
  case $1 in
    rekey) echo diff --quiet --emit-migrations "$2/emitted.jsonl" "$2/old.json" "$2/new.json" ;;
    chain) echo migrate apply --migrations "$2/notices.jsonl" --column catalog_id --dry-run "$2/refs.csv" ;;
    pointer) echo migrate apply --migrations "$2/notices.jsonl" --pointer '/cards/*/catalogAId' --dry-run "$2/refs.json" ;;
    csv) echo migrate apply --migrations "$2/notices.jsonl" --column catalog_id --dry-run "$2/refs.csv" ;;
  esac
}

for spec in rekey:5000 chain:2000 pointer:12500 csv:100000; do
  class=${spec%%:*}
  base=$(( ${spec#*:} * SCALE ))
  times=() rss=()
  for m in 1 4 16; do
    n=$((base * m))
    dir=$D/$class-$n
    [ -d "$dir" ] || gen "$class" "$n" "$dir"
    # shellcheck disable=SC2046
    /usr/bin/time -f "%e %M" -o "$dir/time" "$K" $(cmd "$class" "$dir") > /dev/null 2> "$dir/err"
    code=$?
    read -r t kb < <(tail -n 1 "$dir/time")
    times+=("$t") rss+=("$((kb / 1024))")
    if [ "$code" -gt 1 ]; then
      echo "FAIL  $class at $n: exit $code: $(head -c 300 "$dir/err")"
      failed=1
    fi
  done
  verdict=$(awk -v a="${times[0]}" -v b="${times[1]}" -v c="${times[2]}" -v k="$SLACK" \
    'BEGIN { a = (a < 0.05 ? 0.05 : a); print (b <= a * 4 * k && c <= a * 16 * k) ? "ok" : "slow" }')
  line=$(printf '%-8s %8d x1,4,16: %6.2fs %6.2fs %6.2fs; %4s %4s %4s MB' "$class" "$base" \
    "${times[0]}" "${times[1]}" "${times[2]}" "${rss[0]}" "${rss[1]}" "${rss[2]}")
  if [ "$verdict" = ok ]; then echo "ok    linear $line"; else echo "FAIL  linear $line"; failed=1; fi
done
exit "$failed"
