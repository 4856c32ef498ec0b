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
            r"|trainium|inferentia|neuroncore|ipu|算能|sophgo|sophon|^bm\d|^sg\d|天垓|智铠|思元|曦云|云燧|cerebras|sambanova"
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

MORE_CARDS = (
    r"(?:天垓|智铠)[\s\-]*\d{2,3}(?![0-9])|思元[\s\-]*\d{3}[a-z]?(?![0-9])|曦云[\s\-]*[a-z]\d{2,4}(?![0-9])"
    r"|云燧[\s\-]*[a-z]\d{1,3}(?![0-9])|(?:算能|sophgo)[\s\-]*sc\d{1,2}(?![0-9])"
    r"|(?:intel[\s\-]*(?:data[\s\-]*center[\s\-]*)?(?:gpu[\s\-]*)?|gpu[\s\-]*)max[\s\-]*1[15][05]0(?![0-9])"
    r"|cerebras(?:[\s\-]*(?:cs|wse)[\s\-]*\d)?|(?:sambanova[\s\-]*)?sn\d{2}l(?![a-z0-9])"
    r"|(?<![a-z0-9])(?:bi|mr)[\s\-]v\d{2,3}(?![0-9])"  # Iluvatar BI-V100 / MR-V100, never NVIDIA's V100
    # round 28 en: AMD's Radeon RX gaming cards but the catalog's 7900 XTX ('an AMD RX 7900 XT', 'RX 6800')
    r"|(?<![a-z0-9])(?:(?:amd[\s\-]*)?radeon[\s\-]*)?rx[\s\-]*\d{3,4}(?:[\s\-]*(?:xtx|xt|gre))?(?![a-z0-9])"
)
"""Session 33: accelerators written by their product line alone, with no maker's word (Iluvatar's 天垓 100 /
天垓 150 training and 智铠 100 inference cards, Cambricon's 思元 590 (MLU590), MetaX's 曦云 C500 / C550,
Enflame's 云燧 T20 / i20, Sophgo's SC7; Iluvatar's BI-V100 / BI-V150 / MR-V100, which the catalog's V100
took before: :func:`bot.parse.gpus._gpu_source` skips a name after 'BI-' / 'MR-'), Intel's Data Center GPU
Max 1100 / 1550 (before, 'Intel Max 1550' gave a count of 1,550 cards), Cerebras CS-2 / CS-3 (WSE) and
SambaNova's SN40L, AMD's Radeon RX gaming cards the catalog lacks (round 28 en: 'RX 7900 XT', 'RX 6800'):
named as typed, never the default card. A regex fragment joined into
:data:`bot.parse.lexicon.UNKNOWN_GPU_RE`; each first character is in that pattern's look-ahead."""
