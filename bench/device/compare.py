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
    """The run as a user would ask it (English), its accumulation of 1 said: unsaid, the answer's plan
    accumulates to its 128-sequence step and sizes the gradients it holds (s35 fixe #1)."""
    method = "LoRA fine-tune" if row["method"] == "lora" else "full fine-tune"
    gc = "on" if row["gradient_checkpointing"] else "off"
    lora = ", lora rank 16, all linear" if row["method"] == "lora" else ""
    return (
        f"{method} {row['model']} on 1 H200, seq {row['seq_len']}, micro batch {row['micro_batch']}, "
        f"gradient checkpointing {gc}{lora}, no deepspeed, gradient accumulation 1"
    )  # the runs stepped after every micro-batch (finetune_memory.py: opt.step(), zero_grad; s35 fixe #1)


def rows() -> list[tuple[str, dict, float]]:
    """Every measured row of the result files: (the run's AdamW variant, the row, its CUDA context GiB)."""
    out = []
    for path in sorted(HERE.glob("*.json")):
        data = json.loads(path.read_text())
        meta = data["meta"]
        variant = meta.get("optimizer_variant") or ("fused" if "fused=True" in meta["optimizer"] else "?")
        out += [(variant, row, meta["context_gib"]) for row in data["rows"]]
    return out


def main() -> int:
    from collections import Counter

    from bot.cli import ask

    counts: Counter = Counter()
    print(f"{'AdamW':<8}{'run':<40}{'measured':>9}{'low':>7}{'likely':>8}{'high':>7}  in band  verdict")
    for variant, row, context in rows():
        report = json.loads(ask(question(row), "en", "json")[0])["report"]
        mem = report.get("memory") or {}
        low, likely, high = (
            mem.get(k) or 0.0 for k in ("per_gpu_bytes_low", "per_gpu_bytes", "per_gpu_bytes_high")
        )
        verdict = report.get("feasible")
        gc = int(row["gradient_checkpointing"])
        label = f"{row['model']} {row['method']} s{row['seq_len']} b{row['micro_batch']} gc{gc}"
        if row["outcome"] == "ran":
            got = row["peak_reserved_gib"] + context
            inside = low / GIB <= got <= high / GIB
            counts["ran"] += 1
            counts["ran_in_band"] += inside
            counts["ran_yes_or_borderline"] += verdict in ("yes", "borderline")
            shown, band = f"{got:9.1f}", "yes" if inside else "NO"
        else:
            counts["oom"] += 1
            counts[f"oom_{verdict}"] += 1
            shown, band = f"{'OOM':>9}", "-"
        figures = f"{low / GIB:7.1f}{likely / GIB:8.1f}{high / GIB:7.1f}"
        print(f"{variant:<8}{label:<40}{shown}{figures}  {band:>7}  {verdict}")
    print(
        f"ran: {counts['ran_in_band']}/{counts['ran']} inside the band, "
        f"{counts['ran_yes_or_borderline']}/{counts['ran']} 'yes' or 'borderline'; "
        f"OOM: {counts['oom_no']}/{counts['oom']} 'no', {counts['oom_borderline']} 'borderline', "
        f"{counts['oom_yes']} 'yes'"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
