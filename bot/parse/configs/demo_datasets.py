"""LLaMA-Factory's demo datasets, counted (trial s35 #3: ``dataset: alpaca_zh_demo`` beside
``max_samples: 100000`` was sized as 100,000 samples; the file holds 1,000).

LLaMA-Factory registers each dataset it ships in ``data/dataset_info.json`` (name → ``file_name``), and
``max_samples`` truncates *each* dataset: ``max_samples = min(data_args.max_samples, len(dataset))``
(src/llamafactory/data/loader.py, ``_load_single_dataset``). A config naming only these demos therefore
trains Σ min(rows, max_samples) samples, and all their rows without a cap. A name not here (the user's
own file, a hub dataset) cannot be counted: the run is sized at the cap, said as an assumption
(``samples_cap``), as before.
"""

from __future__ import annotations

from typing import Any

DEMO_ROWS: dict[str, int] = {
    "alpaca_en_demo": 999,
    "alpaca_zh_demo": 1000,
    "identity": 91,
    "glaive_toolcall_en_demo": 300,
    "glaive_toolcall_zh_demo": 300,
    "dpo_en_demo": 300,
    "dpo_zh_demo": 300,
    "kto_en_demo": 300,
    "c4_demo": 300,
    "wiki_demo": 30,
    "mllm_demo": 6,
    "mllm_audio_demo": 3,
    "mllm_video_demo": 3,
    "mllm_video_audio_demo": 3,
}
"""Records in each demo file that ``data/dataset_info.json`` names, counted in hiyouga/LLaMA-Factory at
commit ff6d4d12 (2026-08-18): the JSON arrays' lengths (alpaca_en_demo.json 999, alpaca_zh_demo.json
1,000, identity.json 91, glaive_toolcall_{en,zh}_demo.json, dpo_{en,zh}_demo.json and kto_en_demo.json
300 each, mllm_demo.json 6, mllm_{audio,video,video_audio}_demo.json 3 each), c4_demo.jsonl's 300 lines
and wiki_demo.txt's 30 lines (a text dataset: one sample a line)."""


def dataset_names(value: Any) -> list[str]:
    """The dataset names of a ``dataset`` value: LLaMA-Factory's comma-separated list ('alpaca_zh_demo,
    identity'), or a YAML list."""
    items = value if isinstance(value, list) else str(value).split(",")
    return [str(item).strip() for item in items if str(item).strip()]


def demo_samples(value: Any, cap: int | None) -> int | None:
    """The samples a config trains when every dataset it names is a demo: Σ min(rows, cap) (each dataset
    truncated on its own), all the rows without a cap; None when a name is not a known demo."""
    names = dataset_names(value)
    rows = [DEMO_ROWS.get(name) for name in names]
    if not names or None in rows:
        return None
    return sum(min(r, cap) if cap else r for r in rows if r is not None)


def dataset_paths(value: Any) -> str | None:
    """axolotl's ``datasets`` entries (``- path: mhenrichsen/alpaca_2k_test`` / ``type: alpaca``,
    src/axolotl/utils/schemas/datasets.py SFTDataset.path) as their paths, comma-joined for the echo; None
    when no entry is a mapping with a path (LLaMA-Factory's names are echoed as written)."""
    items = value if isinstance(value, list) else [value]
    paths = [str(i["path"]) for i in items if isinstance(i, dict) and i.get("path")]
    return ", ".join(paths) or None
