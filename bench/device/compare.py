"""Set the bot's answer beside the fine-tuning memory measured on the device machine (bench/device/results).

For each measured row (bench/device/finetune_memory.py) the bot is asked the run as a user would type it
("LoRA fine-tune Qwen2.5-7B on 1 H200, seq 2048, micro batch 1, gradient checkpointing on, lora rank 16, all
linear, no deepspeed"), through the same path as `sizing-bot ask --format json`. Printed per row: what was
measured (peak reserved + the CUDA context, i.e. what nvidia-smi shows; GiB), the answer's per-GPU band (low,
likely, high; GiB), whether the measurement lies in the band, the answer's verdict (`report.feasible`) and
whether it agrees with the outcome (ran → "yes"/"borderline", OOM → "no"). Nothing is fitted to these rows:
they are a held-apart check of the verdict and the band (run from the repository root:
`python bench/device/compare.py`).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

GIB = 2**30
HERE = Path(__file__).parent / "results"


def question(row: dict) -> str:
    """The run as a user would ask it (English)."""
    method = "LoRA fine-tune" if row["method"] == "lora" else "full fine-tune"
    gc = "on" if row["gradient_checkpointing"] else "off"
    lora = ", lora rank 16, all linear" if row["method"] == "lora" else ""
    return (
        f"{method} {row['model']} on 1 H200, seq {row['seq_len']}, micro batch {row['micro_batch']}, "
        f"gradient checkpointing {gc}{lora}, no deepspeed"
    )


def rows() -> tuple[list[dict], float]:
    """Every measured row of the result files, and the CUDA context (GiB) they report."""
    out, context = [], 0.0
    for path in sorted(HERE.glob("*.json")):
        data = json.loads(path.read_text())
        context = data["meta"]["context_gib"]
        out += data["rows"]
    return out, context


def main() -> int:
    from bot.cli import ask

    measured_rows, context = rows()
    inside = agree = ran = 0
    print(f"{'run':<44}{'measured':>9}{'low':>7}{'likely':>8}{'high':>7}  in band  verdict")
    for row in measured_rows:
        report = json.loads(ask(question(row), "en", "json")[0])["report"]
        mem = report.get("memory") or {}
        low, likely, high = (mem.get(k) or 0.0 for k in ("per_gpu_bytes_low", "per_gpu_bytes", "per_gpu_bytes_high"))
        verdict = report.get("feasible")
        label = f"{row['model']} {row['method']} s{row['seq_len']} b{row['micro_batch']} gc{int(row['gradient_checkpointing'])}"
        if row["outcome"] == "ran":
            ran += 1
            got = row["peak_reserved_gib"] + context
            ok = low / GIB <= got <= high / GIB
            inside += ok
            agrees = verdict in ("yes", "borderline")
            shown = f"{got:9.1f}"
        else:
            ok, agrees, shown = None, verdict == "no", f"{'OOM':>9}"
        agree += agrees
        band = "yes" if ok else ("-" if ok is None else "NO")
        print(f"{label:<44}{shown}{low / GIB:7.1f}{likely / GIB:8.1f}{high / GIB:7.1f}  {band:>7}  {verdict} {'' if agrees else '✗'}")
    print(f"measured inside the band: {inside}/{ran}; verdict agrees with the outcome: {agree}/{len(measured_rows)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
