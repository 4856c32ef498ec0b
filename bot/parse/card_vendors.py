"""The vendors of cards outside the catalog (moved out of :mod:`bot.parse.lexicon`, round 22 zh, to keep
that module within the house limit of 500 lines): an unknown card's vendor words pick its suggestions
(:func:`bot.parse.gpus.gpu_suggestions`)."""

from __future__ import annotations

from bot.parse.regex import LazyPattern, rc

UNKNOWN_GPU_VENDORS: list[tuple[LazyPattern, str]] = [
    # vendors with no card in the catalog: the suggestions fall back to the default GPU and its relatives
    (
        rc(
            r"沐曦|metax|昆仑|kunlun|燧原|enflame|海光|hygon|dcu|^rk\d|小米|红米|xiaomi|redmi|天数|iluvatar|tenstorrent"
            r"|trainium|inferentia|ipu|算能|sophgo|sophon|^bm\d|^sg\d"
        ),
        "—",
    ),
    (rc(r"intel|arc"), "Intel"),
    (rc(r"mtt|moore|摩尔"), "Moore Threads"),
    (rc(r"biren|壁仞|^br\d"), "Biren"),
    (rc(r"鲲鹏|kunpeng|昇腾|ascend|华为|huawei"), "Huawei"),
    (rc(r"apple|^m[1-4]"), "Apple"),
    (rc(r"rtx|gtx|^\d{4}"), "NVIDIA"),
    (rc(r"mi\d|amd"), "AMD"),
    (rc(r"tpu"), "Google"),
    (rc(r"gaudi"), "Intel"),
]
"""Words that tell an unknown card's vendor: its suggestions come from that vendor's catalog cards."""
