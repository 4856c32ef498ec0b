#!/usr/bin/env bash
# Mutation-testing benchmark of the estimator's math (issue #11, item 9). Not part of CI.
#
#   bash bench/mutation.sh              # full run, ~20 min on 2 cores; results in $MUTMUT_WORK
#   MUTMUT_BEFORE=1 bash bench/mutation.sh   # the same without tests/test_mutants.py
#   bash bench/mutation.sh compute      # only the mutants of estimator/compute.py
#   MUTMUT_MUTANTS=names.txt MUTMUT_TESTS="tests/a.py tests/b.py" bash bench/mutation.sh
#                                        # only the mutants named in the file, against other tests
#
# mutmut 3 never rewrites the sources: it writes mutated copies under ./mutants/ and switches them
# on one at a time through trampolines. We still run it in a throw-away copy of the work tree so that
# its config (setup.cfg), its mutants/ folder and its cache stay out of the repository.
# Summary: $MUTMUT_WORK/mutants/mutmut-cicd-stats.json; every mutant: $MUTMUT_WORK/results.txt;
# one mutant's diff: (cd $MUTMUT_WORK && $MUTMUT_VENV/bin/mutmut show NAME).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
VENV=${MUTMUT_VENV:-/tmp/mmvenv}
WORK=${MUTMUT_WORK:-/tmp/mutmut-work}
CHILDREN=${MUTMUT_CHILDREN:-2}
MUTMUT_VERSION=3.8.1

if [ ! -x "$VENV/bin/mutmut" ]; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q -e "$ROOT[test]" "mutmut==$MUTMUT_VERSION"
fi

# A fresh copy of the tracked and untracked (not ignored) files of the work tree.
rm -rf "$WORK"
mkdir -p "$WORK"
(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard \
    | tar --null -T - --ignore-failed-read -cf - 2>/dev/null) | tar -xf - -C "$WORK"
# ... and the build artifacts git ignores (hatch_build.py): compiled catalogs (.mo), templates, data.
(cd "$ROOT" && { find locales -name '*.mo'; ls -d templates/_compiled estimator/data/_compiled.json; } 2>/dev/null \
    || true) | (cd "$ROOT" && tar -T - -cf -) | tar -xf - -C "$WORK"

# Each test starts with the estimator's caches empty (plan.ordered_layouts is lru_cached, transients'
# per-shape memo): mutmut forks its workers from a process that ran the clean tests, and a warm cache
# would keep a mutant of a function called only beneath them from ever running (a false survivor).
cat >> "$WORK/tests/conftest.py" <<'PY'


@pytest.fixture(autouse=True)
def _mutmut_cold_caches():
    """bench/mutation.sh: the estimator's caches empty at the start of every test."""
    from estimator import plan, transients

    getattr(plan.ordered_layouts, "cache_clear", lambda: None)()
    transients._MEMO.clear()
PY

# The estimator's fast unit tests (~5 s in all); mutmut runs, with -x, only those that reach the
# mutated function. The killing tests of bench/mutation.md join them unless MUTMUT_BEFORE is set.
TESTS="tests/test_compute.py tests/test_memory.py tests/test_architecture.py tests/test_inference.py
tests/test_calibration.py tests/test_feasibility.py tests/test_serving_local.py tests/test_torchtune.py
tests/test_invariants.py tests/test_budget_size.py tests/test_catalog.py tests/test_time.py
tests/test_kv_per_token.py tests/test_memory_measured.py tests/test_memory_properties.py
tests/test_serving_layout.py tests/test_hf_config.py"
if [ -f "$WORK/tests/test_mutants.py" ] && [ -z "${MUTMUT_BEFORE:-}" ]; then
    TESTS="$TESTS tests/test_mutants.py"
fi
TESTS=${MUTMUT_TESTS:-$TESTS}

# The modules where the math lives (MUTMUT_MODULES to choose others); catalog/models/reasons/ledger/
# data are not mutated. Per-mutant timeout (CPU seconds): 2 × 5 × (the tests' own duration + 2 s).
MODULES=${MUTMUT_MODULES:-"compute memory memory_band plan inference serving training efficiency architecture
transients attention expert_parallel hf_config"}
write_config() {
    {
        echo "[mutmut]"
        echo "source_paths = estimator"
        echo "only_mutate ="
        for m in $MODULES; do
            echo "    estimator/$m.py"
        done
        echo "also_copy ="
        printf '    %s\n' bot templates locales README.md docs presales.example.toml babel.cfg
        echo "pytest_add_cli_args_test_selection ="
        printf '    %s\n' $TESTS
        echo "pytest_add_cli_args ="
        printf '    %s\n' -p no:cacheprovider
        echo "timeout_multiplier = 5.0"
        echo "timeout_constant = 2.0"
        echo "use_git_change_detection = false"
    } > "$WORK/setup.cfg"
}

cd "$WORK"
export CI=1  # tests/conftest.py: Hypothesis derandomized, so a survivor is a survivor on every run
only=()
if [ $# -gt 0 ]; then
    only=("estimator.$1.*")
elif [ -n "${MUTMUT_MUTANTS:-}" ]; then
    mapfile -t only < "$MUTMUT_MUTANTS"
fi

# 1. Every mutant, each in a worker forked from mutmut's main process (~9 mutants/s).
write_config
"$VENV/bin/mutmut" run --max-children "$CHILDREN" "${only[@]}" > "$WORK/run-fork.log" 2>&1

# 2. Workers forked from the main process inherit what the clean run left there: module constants
# computed at import (architecture.HIDDEN_FIT = _least_squares(...), which mutmut also attributes to
# the first test only) and, were the cold-cache fixture above missing, the caches of the layout search
# (_divisors, plan_preference, uneven_ok run only under plan.ordered_layouts). Their survivors are
# judged again the plain way (a warm cache or an import-time value can only hide a mutant, never
# kill one): `mutmut apply` writes it into the copy's source, the whole test selection runs with -x,
# the source is put back. Verdicts in $WORK/results-applied.txt; they replace mutmut's in the counts.
"$VENV/bin/mutmut" results --all true > "$WORK/results.txt"
: > "$WORK/results-applied.txt"
grep -E "estimator\.(plan\.x__divisors|plan\.x_plan_preference|plan\.x_uneven_ok|architecture\.x__least_squares)__" \
    "$WORK/results.txt" | { grep ": survived" || true; } | sed -E 's/^ *([^:]+):.*/\1/' |
while read -r name; do
    file="estimator/$(echo "$name" | cut -d. -f2).py"
    cp "$file" "$file.orig"
    "$VENV/bin/mutmut" apply "$name" > /dev/null
    if "$VENV/bin/python" -m pytest -x -q -p no:cacheprovider $TESTS > /dev/null 2>&1; then
        echo "    $name: survived" >> "$WORK/results-applied.txt"
    else
        echo "    $name: killed" >> "$WORK/results-applied.txt"
    fi
    mv "$file.orig" "$file"
done

# Counts per module (mutmut's verdicts, with those of step 2 in place of its own).
"$VENV/bin/python" - "$WORK/results.txt" "$WORK/results-applied.txt" <<'PY' | tee "$WORK/counts.txt"
import collections, re, sys
verdict = {}
for path in sys.argv[1:]:
    for line in open(path):
        m = re.match(r"\s*(estimator\.(\w+)\.\S+): (.+)$", line)
        if m:
            verdict[m[1]] = (m[2], m[3].strip())
counts = collections.defaultdict(collections.Counter)
for module, status in verdict.values():
    counts[module][status] += 1
    counts["all"][status] += 1
print(f"{'module':<16} {'mutants':>7} {'killed':>7} {'survived':>8} {'timeout':>7} {'other':>5}")
for module in sorted(counts, key=lambda k: (k == "all", k)):
    c = counts[module]
    other = sum(c.values()) - c["killed"] - c["survived"] - c["timeout"]
    print(f"{module:<16} {sum(c.values()):>7} {c['killed']:>7} {c['survived']:>8} {c['timeout']:>7} {other:>5}")
PY
