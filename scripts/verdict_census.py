"""verdict_census.py [yes|borderline|no ...] [--groups]: the OOM runs of the rounds' WORKING halves whose
verdict on the asker's setup is the one named ('yes' — "fits" — by default), one line each: id, what was
sized (stage, method, model, card × count, runtime, tool, length, batch, ZeRO), the likely / high memory per
GPU against the card's usable memory (training) or the serving figures (weights + workspace + KV a GPU
against the runtime's budget), what the sizing assumed, and the thread's outcome note. ``--groups`` adds a
count by cause (the rule order of tests/test_verdict_outcomes.py's grouping: host-side or engine-build
outcome, card assumed, count assumed, vision-language model, RL / preference, generic shape, length
assumed, everything stated).

The census of tests/test_verdict_outcomes.py (``ROUNDS_CEILING``), listed: it reads the same records
(:func:`tests.test_verdict_outcomes._round_records`: every ``rNwork`` half, never a ``*test`` half, never
round 8) and never prints a held-out record. Run from the tree root with its venv:
``.venv/bin/python scripts/verdict_census.py --groups``.
"""

from __future__ import annotations

import os
import re
import sys
from collections import Counter
from typing import Any

sys.path.insert(0, os.getcwd())

from tests.real_questions import HELD_OUT_WHOLE, answer_json, round_tag
from tests.test_verdict_outcomes import _round_records, _verdict_at_asked

GIB = 2.0**30
VL_RE = re.compile(r"VL|Vision|LLaVA|InternVL|Skywork-R1V|MiniCPM-V|CogVLM", re.I)
HOST_RE = re.compile(r"host|RAM\b|CPU memory|system memory|内存(?!.*显存)|ray oom|build|unified memory", re.I)
RL_ALGORITHMS = ("dpo", "ppo", "grpo", "orpo", "kto", "simpo", "online_dpo", "rloo", "reward")


def cause(rec: dict[str, Any], req: dict[str, Any]) -> str:
    """The first rule that holds, in the order of the module docstring."""
    note = f"{rec['outcome'].get('note') or ''} {rec['outcome'].get('per') or ''}"
    assumed = set(req.get("assumed_fields") or ())
    algorithm = str(req.get("algorithm") or "").lower()
    if rec["outcome"].get("per") in ("host", "node", "system") or HOST_RE.search(note):
        return "host_or_build"
    if "gpu" in assumed:
        return "card_assumed"
    if "gpu_count" in assumed:
        return "count_assumed"
    images = req.get("images_per_request") or req.get("images_per_sample")
    if VL_RE.search(str(req.get("model") or "")) or images:
        return "multimodal"
    if any(a in algorithm for a in RL_ALGORITHMS):
        return "rl_or_preference"
    if not req.get("model"):
        return "generic_shape"
    if "seq_len" in assumed:
        return "length_assumed"
    return "stated"


def memory_line(report: dict[str, Any]) -> str:
    """Training: likely / high per GPU of the usable memory; serving: weights + workspace a GPU, the KV
    capacity against the context asked."""
    inf = report.get("inference") or {}
    if inf:
        per_gpu = (inf.get("bytes_per_gpu") or 0) / GIB
        usable = (inf.get("usable_bytes_per_gpu") or 0) / GIB
        kv = inf.get("kv_capacity_tokens")
        return f"{per_gpu:.1f} of {usable:.1f} GiB a GPU, KV {kv} tokens for {inf.get('context_tokens')}"
    mem = report.get("memory") or {}
    usable = (mem.get("usable_bytes") or 0) / GIB
    likely, high = (mem.get("per_gpu_bytes") or 0) / GIB, (mem.get("per_gpu_bytes_high") or 0) / GIB
    return f"{likely:.1f} / {high:.1f} of {usable:.1f} GiB a GPU"


def main(argv: list[str]) -> None:
    wanted = [a for a in argv if not a.startswith("--")] or ["yes"]
    groups: Counter[str] = Counter()
    for rec in _round_records():
        assert round_tag(rec["id"]) not in HELD_OUT_WHOLE  # never a round held out whole
        if rec["outcome"]["kind"] != "oom":
            continue
        answer = answer_json(rec["text"])
        report, req = answer.get("report") or {}, answer.get("request") or {}
        verdict = _verdict_at_asked(report)
        if verdict not in wanted:
            continue
        why = cause(rec, req)
        groups[why] += 1
        setup = (
            f"{req.get('stage')} {req.get('method') or ''} {req.get('model')}"
            f" {req.get('gpu')}×{req.get('gpu_count')}"
            f" rt={req.get('runtime')} tool={req.get('training_tool')} L={req.get('seq_len')}"
            f" b={req.get('batch_size')} z={req.get('zero_stage')}"
        )
        assumed = ",".join(a for a in req.get("assumed_fields") or () if a in ("gpu", "gpu_count", "seq_len"))
        print(
            f"{rec['id']:9} {verdict:10} {why:16} {setup} | {memory_line(report)} | assumed {assumed or '-'}"[
                :400
            ]
        )
        print(f"{'':9} outcome: {(rec['outcome'].get('note') or '')[:160]}")
    if "--groups" in argv:
        print(", ".join(f"{k} {v}" for k, v in groups.most_common()), f"— {sum(groups.values())} in all")


if __name__ == "__main__":
    main(sys.argv[1:])
