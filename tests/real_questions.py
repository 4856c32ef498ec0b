"""Score the bot on real questions (tests/data/real_questions/): is every stated setting understood?

Each record (see tests/data/real_questions/README.md) carries ``stated``: what the asker said, keyed by
the JSON contract's ``request`` field names (plus settings the contract does not have yet, such as
``training_tool`` or ``max_model_len``). A stated key is *understood* when the answer's ``request``
holds the same value, or when the answer names it as not used (``interpretation.ignored``), as the
understanding contract allows (docs/design.md §8). A question is understood *in full* when every
stated key is.

The records are split once, by a hash of their id (:func:`split_of`), into a working split (two
thirds) and a frozen test split (one third) that is never inspected while the parser changes: its
score is reported at the end only (``python -m tests.real_questions --split test --score-only``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from tests.named_keys import item_names_key

DATA = Path(__file__).parent / "data" / "real_questions"

TEST_SHARE = 3
"""One record in TEST_SHARE goes to the frozen test split."""

ROUND2 = {"zh": "zh_r2.json", "en": "en_r2.json"}
"""Round 2 (gathered 2026-12-02 from threads not in round 1): half of it, by SHA-256 of the id, is the
frozen ``r2test`` split (its hash per language in ``frozen_r2_test_<lang>.sha256``), the other half
``r2work``. Round 1's splits (``work``, ``test``) never include these records."""
ROUND3 = {"zh": "zh_r3.json", "en": "en_r3.json"}
"""Round 3 (gathered 2026-12-02, threads in neither round 1 nor round 2), split like round 2: ``r3test``
frozen (``frozen_r3_test_<lang>.sha256``), ``r3work`` for work."""
ROUND4 = {"zh": "zh_r4.json", "en": "en_r4.json"}
"""Round 4 (gathered 2026-12-02, threads in no earlier round), split like round 2: ``r4test`` frozen
(``frozen_r4_test_<lang>.sha256``) before any parser change of that session, ``r4work`` for work."""
ROUND5 = {"zh": "zh_r5.json", "en": "en_r5.json"}
"""Round 5 (gathered 2026-12-02, threads in no earlier round), split like round 2: ``r5test`` frozen
(``frozen_r5_test_<lang>.sha256``) before any parser change of that session, ``r5work`` for work."""
ROUND6 = {"zh": "zh_r6.json", "en": "en_r6.json"}
"""Round 6 (gathered 2026-12-02, threads in no earlier round), split like round 2: ``r6test`` frozen
(``frozen_r6_test_<lang>.sha256``) before any parser change of that session, ``r6work`` for work."""
ROUND7 = {"zh": "zh_r7.json", "en": "en_r7.json"}
"""Round 7 (gathered 2026-12-02, threads in no earlier round), split like round 2: ``r7test`` frozen
(``frozen_r7_test_<lang>.sha256``) before any parser change of that session, ``r7work`` for work."""
ROUND8 = {"zh": "zh_r8.json", "en": "en_r8.json"}
"""Round 8 (gathered 2026-12-02, threads in no earlier round): held out whole — every record is
frozen (``frozen_r8_<lang>.sha256``) and scored with ``--split r8 --score-only`` only."""
ROUND9 = {"zh": "zh_r9.json", "en": "en_r9.json"}
"""Round 9 (gathered 2026-12-03, threads in no earlier round), split like round 2: ``r9test`` frozen
(``frozen_r9_test_<lang>.sha256``) before any parser change of that session, ``r9work`` for work."""
ROUND10 = {"zh": "zh_r10.json", "en": "en_r10.json"}
"""Round 10 (gathered 2026-12-03, threads in no earlier round), split like round 2: ``r10test`` frozen
(``frozen_r10_test_<lang>.sha256``) before any parser change of that session, ``r10work`` for work."""
ROUND11 = {"zh": "zh_r11.json", "en": "en_r11.json"}
"""Round 11 (gathered 2026-12-03, threads in no earlier round), split like round 2: ``r11test`` frozen
(``frozen_r11_test_<lang>.sha256``) before any parser change of that session, ``r11work`` for work."""
ROUND12 = {"zh": "zh_r12.json", "en": "en_r12.json"}
"""Round 12 (gathered 2026-12-03, threads in no earlier round), split like round 2: ``r12test`` frozen
(``frozen_r12_test_<lang>.sha256``) before any parser change of that session, ``r12work`` for work."""
ROUND13 = {"zh": "zh_r13.json", "en": "en_r13.json"}
ROUND14 = {"zh": "zh_r14.json", "en": "en_r14.json"}
ROUND15 = {"zh": "zh_r15.json", "en": "en_r15.json"}
ROUND16 = {"zh": "zh_r16.json", "en": "en_r16.json"}
ROUND17 = {"zh": "zh_r17.json", "en": "en_r17.json"}
ROUND18 = {"zh": "zh_r18.json", "en": "en_r18.json"}
ROUND19 = {"zh": "zh_r19.json", "en": "en_r19.json"}
ROUND20 = {"zh": "zh_r20.json", "en": "en_r20.json"}
ROUND21 = {"zh": "zh_r21.json", "en": "en_r21.json"}
ROUND22 = {"zh": "zh_r22.json", "en": "en_r22.json"}
ROUND23 = {"zh": "zh_r23.json", "en": "en_r23.json"}
ROUND24 = {"zh": "zh_r24.json", "en": "en_r24.json"}
ROUND25 = {"zh": "zh_r25.json", "en": "en_r25.json"}
ROUND26 = {"zh": "zh_r26.json", "en": "en_r26.json"}
ROUND27 = {"zh": "zh_r27.json", "en": "en_r27.json"}
ROUND28 = {"zh": "zh_r28.json", "en": "en_r28.json"}
ROUND29 = {"zh": "zh_r29.json", "en": "en_r29.json"}
ROUND30 = {"zh": "zh_r30.json", "en": "en_r30.json"}
ROUND31 = {"zh": "zh_r31.json", "en": "en_r31.json"}
ROUND32 = {"zh": "zh_r32.json", "en": "en_r32.json"}
ROUND33 = {"zh": "zh_r33.json", "en": "en_r33.json"}
ROUND34 = {"zh": "zh_r34.json", "en": "en_r34.json"}
ROUND35 = {"zh": "zh_r35.json", "en": "en_r35.json"}
ROUND36 = {"zh": "zh_r36.json", "en": "en_r36.json"}
ROUND37 = {"zh": "zh_r37.json", "en": "en_r37.json"}
ROUND38 = {"zh": "zh_r38.json", "en": "en_r38.json"}
ROUND39 = {"zh": "zh_r39.json", "en": "en_r39.json"}
ROUND40 = {"zh": "zh_r40.json", "en": "en_r40.json"}
ROUND41 = {"zh": "zh_r41.json", "en": "en_r41.json"}
ROUND42 = {"zh": "zh_r42.json", "en": "en_r42.json"}
ROUND43 = {"zh": "zh_r43.json", "en": "en_r43.json"}
ROUND44 = {"zh": "zh_r44.json", "en": "en_r44.json"}
ROUND45 = {"zh": "zh_r45.json", "en": "en_r45.json"}
ROUND46 = {"zh": "zh_r46.json", "en": "en_r46.json"}
ROUND47 = {"zh": "zh_r47.json", "en": "en_r47.json"}
ROUNDS = {
    "r2": ROUND2, "r3": ROUND3, "r4": ROUND4, "r5": ROUND5, "r6": ROUND6, "r7": ROUND7, "r8": ROUND8,
    "r9": ROUND9, "r10": ROUND10, "r11": ROUND11, "r12": ROUND12, "r13": ROUND13,
    "r14": ROUND14,
    "r15": ROUND15,
    "r16": ROUND16,
    "r17": ROUND17,
    "r18": ROUND18,
    "r19": ROUND19,
    "r20": ROUND20,
    "r21": ROUND21,
    "r22": ROUND22,
    "r23": ROUND23,
    "r24": ROUND24,
    "r25": ROUND25,
    "r26": ROUND26,
    "r27": ROUND27,
    "r28": ROUND28,
    "r29": ROUND29,
    "r30": ROUND30,
    "r31": ROUND31,
    "r32": ROUND32,
    "r33": ROUND33,
    "r34": ROUND34,
    "r35": ROUND35,
    "r36": ROUND36,
    "r37": ROUND37,
    "r38": ROUND38,
    "r39": ROUND39,
    "r40": ROUND40,
    "r41": ROUND41,
    "r42": ROUND42,
    "r43": ROUND43,
    "r44": ROUND44,
    "r45": ROUND45,
    "r46": ROUND46,
    "r47": ROUND47,
}  # fmt: skip
HELD_OUT_WHOLE = frozenset({"r8"})
"""Rounds held out whole (every record frozen in ``frozen_<tag>_<lang>.sha256``), not by halves: only
these skip the frozen-halves check (a stray whole-round hash file never turns it off for another round)."""


def split_of(record_id: str) -> str:
    """'test' for one id in three (by SHA-256 of the id, so the split never moves), else 'work'."""
    digest = hashlib.sha256(record_id.encode()).digest()
    return "test" if digest[0] % TEST_SHARE == 0 else "work"


def split_of_r2(record_id: str) -> str:
    """'r2test' for one round-2 id in two (by SHA-256 of the id), else 'r2work'."""
    return "r2test" if hashlib.sha256(record_id.encode()).digest()[0] % 2 == 0 else "r2work"


def _load(names: tuple[str, ...]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for name in names:
        path = DATA / name
        if path.exists():
            out.extend(json.loads(path.read_text(encoding="utf-8")))
    return out


def round_tag(split: str | None) -> str | None:
    """The round a split names ('r10' of 'r10work', 'r9' of 'r9test'), or None for round 1's splits."""
    m = re.match(r"r\d+", split or "")
    return m.group(0) if m and m.group(0) in ROUNDS else None


def records(split: str | None = None) -> list[dict[str, Any]]:
    """Every record of zh.json and en.json (or those of one split: 'work', 'test'); 'r2work' and
    'r2test' (or 'r2' for both) select round 2's records instead."""
    tag = round_tag(split)
    if split is not None and tag is not None:
        out = _load(tuple(ROUNDS[tag].values()))
        return [r for r in out if split == tag or f"{tag}{split_of_r2(r['id'])[2:]}" == split]
    out = _load(("zh.json", "en.json"))
    return [r for r in out if split is None or split_of(r["id"]) == split]


def _norm(text: object) -> str:
    return re.sub(r"[^0-9a-z\u4e00-\u9fff]+", "", str(text).lower())


def _close(a: object, b: object, rel: float = 0.05) -> bool:
    try:
        x, y = _float(a), _float(b)
    except (TypeError, ValueError):
        return _norm(a) == _norm(b)
    return abs(x - y) <= rel * max(abs(x), abs(y), 1e-12)


def _float(value: object) -> float:
    """A number, or a label written with a thousands suffix ('12k' of '12k 数据集': 12,000)."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*[kK]\s*", value) if isinstance(value, str) else None
    return float(m.group(1)) * 1000 if m else float(value)  # type: ignore[arg-type]


def _names_match(stated: object, got: object) -> bool:
    s, g = _norm(stated), _norm(got)
    return bool(s) and bool(g) and (s in g or g in s)


_VENDOR_WORDS = frozenset(
    ("nvidia", "geforce", "rtx", "gtx", "amd", "radeon", "intel", "arc", "huawei", "apple", "tesla",
     "instinct", "ascend", "摩尔线程", "mtt", "海光", "hygon", "小米", "xiaomi", "天数智芯", "天数",
     "iluvatar", "昆仑芯", "昆仑", "kunlunxin", "kunlun", "沐曦", "metax", "曦云", "寒武纪", "cambricon")
)  # fmt: skip
"""Maker and line words before a card's name ('NVIDIA A100', 'GeForce RTX 4090', 'Apple M5'): the same card
without them (as bot/parse/gpus.py reads 'nvidia a10'; a card not in the catalog typed '3080ti' is the
label's 'RTX 3080 Ti'). Round 20 zh: 'ascend' is Huawei's line word, as 'instinct' is AMD's ('Ascend
310P3' of a '310P3' named as typed). Round 22 zh: the makers of cards outside the catalog as the
messages write them, in Chinese or English ('摩尔线程 X300' is the label's 'MTT X300', '海光 DCU' its 'DCU',
'小米 14 Pro' its 'Xiaomi 14 Pro'). Round 24 zh: Iluvatar's two names ('天数智芯 Iluvatar BI-V150' is the
label's 'BI-V150'). Round 26 zh: Kunlunxin's names ('昆仑芯 P800' is the label's 'Kunlunxin P800'). Round 27
zh: MetaX's names and its line word ('沐曦 C500', '曦云 C500' are the label's 'MetaX C500'). Round 39
en: 'arc' is Intel's line word, as 'radeon' is AMD's ('Arc A770M' of an 'A770M' named as typed). Round 44
zh: Cambricon's names ('寒武纪 MLU590' is the label's 'MLU590'), and a Chinese maker word glued to the name
('寒武纪思元590' is the label's '思元590': :data:`_CJK_VENDORS`)."""

_FORM_FACTORS = ("pcie", "sxm", "nvl")
"""Board forms a stated card may name ('A100 PCIe', 'H100 NVL'): the card sized must be of that form."""

_CJK_VENDORS = tuple(sorted((v for v in _VENDOR_WORDS if not v.isascii()), key=len, reverse=True))
"""The Chinese maker words, longest first: one written glued to a card's name is cut off it."""


def _bare_card(name: object) -> str:
    """A card's name without maker words, lower case, spaces kept ('NVIDIA GeForce RTX 4090' → '4090')."""
    words = [w for w in re.split(r"[\s\-_]+", str(name or "").lower()) if w]
    while words and words[0] in _VENDOR_WORDS:
        words = words[1:]
    glued = next((v for v in _CJK_VENDORS if words and words[0].startswith(v) and words[0] != v), "")
    if glued:  # s48 round 44: '寒武纪思元590' is 思元590
        words[0] = words[0][len(glued) :]
    return " ".join(words)


def cards_match(stated: object, got: object) -> bool:
    """Whether the card sized (a catalog id, or a name as typed) is the card stated, exactly: the same
    catalog family (estimator.catalog.family_of: 'A100' is A100-SXM4-80GB or A100-PCIe-40GB, of the same
    board form when the label names one), or, for a card not in the catalog, the same name as typed. s24
    (issue 24): never by substring — 'H20' is no H200, 'A10' no A100, 'L4' no L40S, 'RTX 4090' no 4090D."""
    from estimator import catalog

    s, g = _bare_card(stated), _bare_card(got)
    if not s or not g:
        return False
    family = catalog.family_of(s) or catalog.family_of(str(stated))
    got_family = catalog.family_of(g) or catalog.family_of(str(got))
    if family is None and got_family and _APPLE_CHIP.fullmatch(s):  # s27: 'M2' in a label is Apple's
        family = catalog.family_of(f"Apple {s}")  # chip, which the catalog aliases only with its maker
    slice_ = _TPU_SLICE.fullmatch(s)  # s27: a Cloud TPU slice ('TPU v5e-64') is its chip's family
    if family is None and got_family and slice_:
        family = catalog.family_of(f"TPU v{slice_[1]}{(slice_[2] or '').replace('litepod', 'e')}")
    if family is None:  # not a catalog card: named as typed, in the plural as typed ('four 16GB MI50s')
        return _norm(g) in (_norm(s), _norm(s) + "s")
    if got_family != family:
        return False
    return all(f in _norm(g) for f in _FORM_FACTORS if f in _norm(s))


_TPU_SLICE = re.compile(r"tpu[\s\-]*v([2-6])(e|p|litepod)?[\s\-]\d{1,4}")
"""A Cloud TPU slice by its accelerator type ('TPU v5e-64'), after :func:`_bare_card`
(bot.parse.written_names.TPU_SLICE_RE reads it in a message)."""
_APPLE_CHIP = re.compile(r"m[1-5](?: (?:pro|max|ultra))?")
"""A bare Apple silicon chip as a label writes it ('M2', 'M1 Pro'), after :func:`_bare_card`."""


_SUFFIXES = re.compile(r"(chat|instruct|base|hf|awq|gptq|gguf|int4|int8|fp8)$")


_VARIANT_WORDS = frozenset(
    ("chat", "instruct", "base", "hf", "sft", "awq", "gptq", "gguf", "4bit", "8bit", "moe")
)
"""Variant words inside a name ('internlm2-chat-7b-sft', 'internlm-chat-20b-4bit'): the released model of
that name and size, as the trailing ones (:data:`_SUFFIXES`) are. Round 15 zh: 'moe' describes the
architecture of the release of that name and size ('qwen3-235B-moe' is Qwen3-235B-A22B, the only 235B
Qwen3), as 'instruct' describes its tuning."""


def _model_stem(name: object, v_version: bool = False) -> str:
    """A name without its variant words and suffixes; an MoE shape written experts last ('Mixtral 7bx8') is
    the catalog's experts-first form ('8x7b'). The possessive 的 between a family and its size ('Yi 的 6B',
    as typed and named by the reply) is no part of the name (round 13 zh: 'Yi 的 6B' missed 'Yi-6B'). With
    ``v_version``, a version typed apart with a 'v' is the version ('llama v2 13b' is Llama-2-13B, the release
    sized; round 25 en); the caller tries both, as 'MiniCPM-V 2.5' keeps its 'v'."""
    name = re.sub(r"(\d+)b\s*[x×*]\s*(\d+)(?![\d.])", r"\2x\1b", str(name).lower())
    words = re.split(r"[\s\-_/:的]+", name)
    words = [re.sub(r"^v(?=\d)", "", w) for w in words] if v_version else words  # round 25: 'llama v2'
    stem = _norm("".join(w for w in words if w not in _VARIANT_WORDS) or str(name))
    while (shorter := _SUFFIXES.sub("", stem)) != stem:
        stem = shorter
    return stem


def _model_understood(value: object, answer: dict[str, Any]) -> bool:
    """A bare size ("72B") is the parameter count; a name is the model sized, or the unknown model
    named as typed (suffixes such as -Chat, -Instruct, -AWQ aside; a family without a size matches
    any size of it), or a vision-language release named as typed while its language model is sized
    (s14: the reply says 'Qwen2.5-VL-72B is a vision-language model: sized as its language model')."""
    request = answer.get("request") or {}
    size = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([bBmM])\s*", str(value))
    if size:
        n = float(size.group(1)) * (1e9 if size.group(2) in "bB" else 1e6)
        return _close(n, request.get("params_total"), 0.1)
    stem = _model_stem(value)
    it = answer.get("interpretation") or {}
    vision = [s.get("typed") for s in it.get("substitutions") or [] if s.get("reason") in MODEL_NAMED_AS]
    for got in (request.get("model"), it.get("unknown_model"), *vision):  # s14: a VL release, named as typed
        for v_version in (False, True):
            stem, g = _model_stem(value, v_version), _model_stem(got, v_version) if got else ""
            sizeless = not re.search(r"\d+[bm]", stem)
            if stem and g and (stem in g or g in stem or (sizeless and g.startswith(stem))):
                return True
    stem = _model_stem(value)
    # s17: a catalog LLM the message calls a vision-language model ('the Qwen-2.5-72B vision-language model'
    # of 'Qwen2.5-VL-72B') is named as typed with the reason that it is the VL release (vision_language_llm)
    called = [
        x.get("typed") for x in it.get("substitutions") or [] if x.get("reason") == "vision_language_llm"
    ]
    if any(_model_stem(v) == stem.replace("vl", "", 1) for v in called if v and "vl" not in str(v).lower()):
        return True
    return _catalog_alias(value, request.get("model"))


MODEL_NAMED_AS = frozenset(
    {
        "vision_language_llm",
        "latest_release",
        "model_alias",
        "speech_llm",
        "long_context_release",
        "fine_tune_base",
    }
)
"""Substitution reasons that name the model as typed with the release sized instead
(bot/core/interpretation.py): a vision-language release sized as its language model (s14), a family and
size without a version sized as the latest release ('llama-70b': Llama-3.3-70B; docs/design.md §8: named,
never replaced silently), a name the catalog lists for another release ('llama 30b': LLaMA-33B). s16: the
latter two were scored as misses though the reply names the typed model and what was sized. Round 15 zh: a
speech release sized as its language model ('GLM-4-Voice': GLM-4-9B), named as the VL releases are.
Round 22 zh: a long-context release sized as its model ('chatglm3-32k': ChatGLM3-6B), named likewise. s46: a
fine-tune sized as its base ('vicuna-13b-v1.5-16k': Llama-2-13B, bot.parse.fine_tunes), named likewise."""


def _sizes_named(answer: dict[str, Any]) -> list[float]:
    """Model sizes of typed names the answer sized as another release and names as typed ('llama 30b' →
    LLaMA-33B, 'llama-70b' → Llama-3.3-70B: substitutions of MODEL_NAMED_AS). s16: a params_total stated
    with such a model is named, as the understanding contract asks. A model only listed as not sized
    (other_setup) gives no credit: its size was not used."""
    it = answer.get("interpretation") or {}
    typed = [
        str(s.get("typed", "")) for s in it.get("substitutions") or [] if s.get("reason") in MODEL_NAMED_AS
    ]
    return [n for n in (_nominal(t, False) for t in typed) if n is not None]


def _catalog_alias(value: object, model_id: object) -> bool:
    """Round 9: a name the catalog lists among the sized model's aliases is that model ('deepseek-r1 32B' is
    DeepSeek-R1-Distill-Qwen-32B: estimator/data/models/deepseek.toml, Ollama's tag deepseek-r1:32b)."""
    from estimator import catalog

    spec = catalog.models().get(str(model_id)) if model_id else None
    aliases = getattr(spec, "aliases", None) or []
    return bool(_norm(value)) and _norm(value) in {_norm(a) for a in aliases}


def _model_named(value: object, answer: dict[str, Any]) -> bool:
    """True when the answer names the model ``value`` among those it did not size ('model: 20B')."""
    for item in (answer.get("interpretation") or {}).get("ignored") or []:
        typed = str(item.get("text", "")).removeprefix("model: ") if isinstance(item, dict) else ""
        if typed and str(item.get("text")).startswith("model: "):
            named = {"request": {"model": typed, "params_total": _nominal(typed, False)}}
            if _model_understood(value, named):
                return True
    return False


PERCENT_KEYS = frozenset({"mfu", "gpu_memory_utilization"})
"""Keys the records hold as a fraction (estimator/request.py: 'fraction of dense peak'; vLLM's
gpu_memory_utilization) that people write as a percentage: a named 'N%' names the fraction N/100."""
_PERCENT_RE = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)\s*%")
_NUMBER_RE = re.compile(r"(?<![\d.])\d+(?:\.\d+)?(?:[eE]-?\d+)?(?![\d.])")
"""A number as written in an ignored item's text (no digit or point on either side)."""


_EN_NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
NUMBER_WORDS = {w: n for n, w in enumerate(_EN_NUMBERS)}
NUMBER_WORDS |= {w: n for n, w in enumerate("零一二三四五六七八九十")} | {"两": 2, "双": 2}
"""Counts written as words, as an ignored item may name them ('two', '两'; s48-workmiss: '双', a pair, as in
'双 4090', '双卡')."""


def _ignored(answer: dict[str, Any], value: object, key: str) -> bool:
    """True when the answer names ``value`` of the stated ``key`` among what it did not use, for a reason
    other than "unread": as written, or a number as typed with a thousands suffix ('128k' names 131072 or
    128000). s20 (issue 24): only items whose field or reason names that key's meaning count
    (tests/named_keys.py): 'host_memory: 121.7 GB' names no card memory, 'precision: fp8' no count of 8."""
    items = (answer.get("interpretation") or {}).get("ignored") or []
    # s16 review: an item the answer left "unread" (no word said what the number is) names a number it did
    # not understand, so it gives no credit (bot/core/ignored_reasons.py IGNORED_REASONS)
    items = [i for i in items if isinstance(i, dict) and i.get("reason") != "unread"]
    named = [item_names_key(i, key, value) for i in items]
    texts = " ".join(part for ok, part in named if ok)
    if key == "gpu":  # s24: a card as a whole name ('A10' is not named by 'A100', nor 'L4' by 'L40S')
        words = [re.escape(w) for w in _bare_card(value).split()]
        return (
            bool(words)
            and re.search(r"(?<![0-9a-z])" + r"[\s\-_]*".join(words) + r"(?![0-9a-z])", texts.lower())
            is not None
        )
    if not isinstance(value, int | float) or isinstance(value, bool):
        needle = _norm(value)
        return bool(needle) and needle in _norm(texts)
    # a number is named when a number written in the ignored texts is that number: '2' is not named by
    # '24' nor '2' by '0.2' (a digit inside another number named nothing)
    for m in _NUMBER_RE.finditer(re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", texts)):  # '8,192'; '1,2' is two
        if _close(value, float(m.group(0)), 1e-6):
            return True
    # s45-workmiss: a fraction named as the percentage typed ('0.96%' of MFU 0.0096)
    percents = _PERCENT_RE.finditer(texts) if key in PERCENT_KEYS else ()
    if any(_close(value, float(m.group(1)) / 100, 1e-6) for m in percents):
        return True
    words = re.findall(r"[a-z]+|[一二两双三四五六七八九十]", texts.lower())
    if any(NUMBER_WORDS.get(w) == value for w in words):  # 'two' named as typed
        return True
    for m in re.finditer(r"(?<![\w.])(\d+(?:\.\d+)?)\s*[kK](?![a-zA-Z])", texts):
        n = float(m.group(1))
        if _close(value, n * 1024, 0.01) or _close(value, n * 1000, 0.01):
            return True
    return False


def _word_used(key: str, value: Any, answer: dict[str, Any]) -> bool:
    """A stage, method, algorithm, precision, KV precision or recompute stated: sized as typed or by its
    format (split from key_understood)."""
    request = answer.get("request") or {}
    got = request.get(key)
    ok = got is not None and _norm(got) == _norm(value)
    # s16: one of the methods compared, each in a row of its own (docs/design.md §8: several options
    # in one question get one row each): 'qlora works, plain lora OOMs' sizes both
    ok = ok or (key == "method" and _norm(value) in {_norm(m) for m in request.get("methods") or []})
    # a fine-tuning with no algorithm is sized as SFT (estimator.training: req.algorithm or sft)
    ok = ok or (
        key == "algorithm" and _norm(value) == "sft" and got is None and request.get("stage") == "finetune"
    )
    # 'Q8' / 'q4' of llama.cpp or Ollama recorded as int8 / int4: the GGUF format of that width
    ok = ok or (key == "precision" and _norm(got) in GGUF_OF.get(_norm(value), ()))
    # s20: a bare GGUF width as typed ('at Q4', 'Q8') is the format the parser reads it as, Ollama's and
    # Hugging Face's default of that width (bot.parse.precision_words.PRECISION_MAP: q4 → Q4_K_M)
    ok = ok or (key == "precision" and _norm(got) == BARE_GGUF.get(_norm(value)))
    # a bit width named as typed ('precision: 8-bit' of '4-bit / 8-bit') names that integer format
    ok = ok or (
        key == "precision"
        and _norm(value) in BIT_WIDTH_OF
        and _ignored(answer, BIT_WIDTH_OF[_norm(value)], key)
    )
    # s32-fixh: EXL2/EXL3 bits per weight ('4bpw') are sized now, read into request.bits_per_weight
    bpw = str(value).lower().replace(" ", "")
    ok = ok or (
        key == "precision" and bpw.endswith("bpw") and _close(bpw[:-3], request.get("bits_per_weight"))
    )
    # pure bf16 (LLaMA-Factory --pure_bf16) is bf16 weights and optimizer states
    ok = ok or (
        key == "precision" and _norm(value) == "bf16" and got is None and bool(request.get("pure_bf16"))
    )
    return ok


def _list_understood(key: str, value: list[Any], answer: dict[str, Any], cards: object = None) -> bool:
    """Whether a stated list (several values of one setting) is used: a row per value, each model sized
    or named, each price in its own card's row, each tool used or named (split from key_understood)."""
    request = answer.get("request") or {}
    got = request.get(key)
    if key == "params_total":  # s43-workmiss: sizes labelled in billions ('7B' → 7), as key_understood
        value = [v * 1e9 if isinstance(v, int | float) and 0 < v < 1e5 else v for v in value]
    if key in ROW_KEYS and _rows_hold(key, value, answer):  # s36-lists: a row per value listed
        return True
    if key in ROW_KEYS and _rows_or_named(key, value, answer):  # s43-workmiss: a value said apart, named
        return True
    if key == "gpu_memory_gib" and got is not None:  # round 36 zh: each card's memory, the other in its row
        rows = [r.get("gpu_memory_gib") for r in (answer.get("report") or {}).get("comparisons") or []]
        if all(any(_close(v, m) for m in (got, *rows) if m is not None) for v in value):
            return True
    if key == "model":  # several models in one message: one sized, each other named as not sized
        sized = [v for v in value if _model_understood(v, answer) or _model_compared(v, answer)]
        sized += [v for v in value if v not in sized and _size_row(v, answer)]
        return bool(sized) and all(v in sized or _model_named(v, answer) for v in value)
    if key == "price_per_gpu_hour":  # s37: a price per card compared, each used in its card's row
        return _prices_used(value, answer, cards)
    if key == "precision" and all(_format_row(v, answer) for v in value):  # s39: a row per format
        return True
    if key == "gpu_count" and _count_and_other_setups(value, answer):
        return True
    if key not in ROW_KEYS and isinstance(got, int | float) and _value_and_other_setups(key, value, answer):
        return True
    if key == "concurrency" and _load_and_loads_set_aside(value, answer):
        return True
    if key in EACH_NAMED:  # two tools in one message: each used or named as not used
        return all(key_understood(key, v, answer) for v in value)
    if key == "method" and request.get("methods"):
        return {_norm(v) for v in value} <= {_norm(m) for m in request["methods"]}
    if key == "gpu_count" and len(value) == 2:  # '4 or 8 L40S': sized from the first, up to the last
        return got == value[0] and request.get("gpu_count_max") == value[1]
    if key == "lora_targets":  # round 27: a list of modules as typed ('W_pack') is that set, any case
        return _targets(value) == _targets(got)
    return any(key_understood(key, v, answer) for v in value) if key == "gpu" else got == value


NOT_THE_LOAD_REASONS = frozenset({"current_load", "per_card_load", "measured_load"})
"""Reasons that say a concurrency the user gave is no load to size: today's load beside the target
('5 个并发时就排队 … 撑住 8 个并发', '20 users now, 64 at peak': bot.parse.target_load), one card's observed
share (bot.parse.per_card_load), or s46-workmiss: another load of a sweep the user measured, beside its
figures ('96 tok/s at concurrency 1 to 772 tok/s at 16': bot.parse.measured_loads; the reply names it as a
load of their run, one load sized)."""


def _load_and_loads_set_aside(value: list[Any], answer: dict[str, Any]) -> bool:
    """s43 round 39: a list of concurrencies of which one is sized and each other is named as no load to size
    (:data:`NOT_THE_LOAD_REASONS`) is understood, as the understanding contract asks (docs/design.md §8: used,
    or named as not used and why). A list of loads compared ('并发 10、20、50 分别要几张卡') still needs a row
    per value (:data:`ROW_KEYS`): there every one is a load asked about."""
    got = (answer.get("request") or {}).get("concurrency")
    items = (answer.get("interpretation") or {}).get("ignored") or []
    aside = [i for i in items if isinstance(i, dict) and i.get("reason") in NOT_THE_LOAD_REASONS]
    named = " ".join(str(i.get("text")) for i in aside)
    nums = [float(n) for n in _NUMBER_RE.findall(named)]
    return (
        got is not None
        and any(_close(v, got) for v in value)
        and all(_close(v, got) or any(_close(v, n, 1e-6) for n in nums) for v in value)
    )


def key_understood(key: str, value: Any, answer: dict[str, Any], cards: object = None) -> bool:
    """Whether the stated ``key: value`` is used by (or named as not used in) ``answer`` (``cards``: the
    stated ``gpu``, whose order a list of prices follows)."""
    request = answer.get("request") or {}
    got = request.get(key)
    if isinstance(value, list):
        return _list_understood(key, value, answer, cards)
    if isinstance(value, dict) and {"min", "max"} & set(value):
        return got == value.get("min") and request.get("gpu_count_max") in (None, value.get("max"))
    if key == "model":
        ok = _model_understood(value, answer)
    elif key in ("gpu", "runtime"):
        ok = _names_match(value, got) if key == "runtime" else cards_match(value, got)
        # an unknown card named as typed, sized on another (docs/design.md §8: never replaced silently)
        ok = ok or (
            key == "gpu" and cards_match(value, (answer.get("interpretation") or {}).get("unknown_gpu"))
        )
        # an Ascend 910B by its SKU ('910B4', 'Ascend 910B3'): the 910B card (bot/parse/written_names.py)
        ok = ok or (key == "gpu" and cards_match(ASCEND_SKU.sub("910b", _norm(value)), got))
        # s35-fixa #5: a card name several cards share, with the memory read beside it ('RTX 6000 (96GB)'),
        # is the card of that name with that memory (the RTX PRO 6000 Blackwell; bot/parse/gpus.py SAME_NAME)
        mem = request.get("gpu_memory_gib")
        ok = ok or (key == "gpu" and bool(mem) and cards_match(f"{value} {mem:g}gb", got))
        # s31 fix B: an Atlas 800 (A2) server said as its 8 Ascend 910B (reason atlas_server, the reading
        # stated in the reply; bot/parse/atlas_servers.py) is the server the label names, used
        ok = ok or (key == "gpu" and got == "Ascend-910B" and _atlas_said(value, answer))
        # s20: another card the user named, sized in a row of its own (report.comparisons: 'the same
        # question on the other GPUs the user named', bot/core/answer.py) is used, not dropped
        ok = ok or (key == "gpu" and any(cards_match(value, g) for g in _compared_gpus(answer)))
    elif key == "tokens" and request.get("epochs") and isinstance(value, int | float) and got:
        # s36 round 32: the label's tokens are per epoch (estimator/request.py: 'D, training tokens (per
        # epoch)'); the answer's request holds the run's, tokens × epochs ('1B tokens for 8 epochs': 8B)
        # (review s36: only the run's total when epochs > 1 — per-epoch tokens there would time it short)
        ok = _close(value * request["epochs"], got) if request["epochs"] > 1 else _close(value, got)
    elif key == "max_model_len":  # a serving context in prose ('128k context') is the context sized
        serving = request.get("stage") == "inference" and request.get("max_model_len") is None
        ok = _close(value, got) or (serving and _close(value, request.get("seq_len")))
        # s37-left: a serving context listed in prose ('for 32k and for 128k context') gets a seq_len row each
        ok = ok or (serving and _rows_hold("seq_len", [value], answer))
    elif key == "gpu_memory_utilization":  # in a training question: the RL rollout engine's share (its field)
        training = request.get("stage") != "inference"
        ok = _close(value, got) or (training and _close(value, request.get("rollout_gpu_memory_utilization")))
    elif key == "lora_targets":  # LLaMA-Factory's 'all' is every linear layer: the contract's 'all-linear'
        ok = _targets(value) == _targets(got)
    elif key == "offload":
        ok = got is not None and _offload(got) == _offload(value)
        # llama.cpp's KV cache kept in CPU memory (-nkvo) is the contract's kv_offload false (s14-ngl)
        ok = ok or (_offload(value) is True and request.get("kv_offload") is False)
    elif key in ("stage", "method", "algorithm", "precision", "kv_precision", "recompute"):
        ok = _word_used(key, value, answer)
    elif key in ("params_total", "params_active"):  # '7B' said of Qwen2.5-7B (7.61B): the size its name says
        # s19: a size labelled in billions, as it is written ('3B' → 3; en_r13.json), is that many billion
        value = value * 1e9 if isinstance(value, int | float) and 0 < value < 1e5 else value
        nominal = _nominal(request.get("model"), key == "params_active")
        ok = got is not None and (_close(value, got) or (nominal is not None and _close(value, nominal)))
        ok = ok or (key == "params_total" and any(_close(value, n) for n in _sizes_named(answer)))
    elif key == "gpu_memory_gib":  # said with a catalog card ('24G 的 3090'): the card sized has it
        ok = got is not None and _close(value, got, 0.1)
        ok = ok or _close_memory_in_name(value, request.get("gpu"))
        ok = ok or _close(value, ((answer.get("report") or {}).get("hardware") or {}).get("memory_gib"), 0.1)
        ok = ok or any(_close_memory_in_name(value, g) for g in _compared_gpus(answer))  # s20: its own row
        no_report = not answer.get("report")  # s45: no model, so no report: the catalog card asked has it
        ok = ok or (no_report and _close(value, _catalog_memory(request.get("gpu")), 0.1))
    elif key == "batch_size" and request.get("stage") == "inference":
        # s37 round 33: a serving batch ('--max_batch_size=12' of a generator) is the sequences served at
        # once, the contract's concurrency (estimator/request.py: batch_size is a training micro-batch)
        # s37-rev: only a concurrency the user stated, never the assumed default (16)
        stated_load = "concurrency" not in (request.get("assumed_fields") or [])
        ok = _close(value, got) or (stated_load and _close(value, request.get("concurrency")))
    elif key == "max_completion_length":  # s46 round 42 zh: the output a request rate was sized with
        ok = (got is not None and _close(value, got)) or _rate_output(value, answer)
    elif key == "max_prompt_length":  # s41: the prompt sized ('MAX_INPUT_LENGTH 128' of TGI; an RL bound)
        ok = _close(value, got) or _close(value, request.get("prompt_tokens"), 0.0)
    elif key == "total_memory_gib":  # s41: the cards sized hold that total ('3*24 = 72 GB' on 3 × 24 GB)
        ok = _close(value, got) or _cards_total(value, answer)
    elif key == "gradient_accumulation":  # s20: with the micro-batch and GPUs known, used as the global batch
        ok = _close(value, got) or _accumulated(value, request)
    elif (
        key == "gpu_count"
    ):  # s17: a mixed rig sized on its largest card counts the cards it names as left out
        ok = got is not None and (_close(value, got) or value == got + _rig_left_out(answer))
        ok = ok or (got is not None and _rig_named(answer) > 0 and value + _rig_named(answer) == got)
    elif key == "tp":  # s42: one card sized holds the whole model, a tensor-parallel size of 1 by necessity
        ok = got is not None and _close(value, got)  # ('shouldn't it fit on a single Spark' labelled tp 1)
        ok = ok or (value == 1 and got is None and request.get("gpu_count") == 1)
    elif key == "optimizer":  # s43 round 39: Adam is sized as AdamW (bot.parse.written_settings
        # .SAME_AS_ADAMW): the same two moments per parameter, so the same memory; AdamW only decouples
        # the weight decay (Loshchilov & Hutter 2019, 'Decoupled Weight Decay Regularization'): no state
        ok = got is not None and (_close(value, got) or (_norm(value) == "adam" and got == "adamw"))
        ok = ok or (got is not None and _hf_optimizer(value) == got)  # s46: HF's name, the request's value
    elif key == "training_tool":  # s41 fixtrain: a fork used is each tool it joins, as the labels list them
        ok = got is not None and (_close(value, got) or _norm(value) in TOOL_FORKS.get(got, ()))
    else:
        ok = got is not None and _close(value, got)
    # s47-fixreview B6: a count offered ('两卡或三卡 3090 能部署吗'), sized in its own per-value row
    ok = ok or (key == "gpu_count" and isinstance(value, int | float) and _rows_hold(key, [value], answer))
    return ok or _ignored(answer, value, key)


def _hf_optimizer(value: Any) -> str | None:
    """The request's optimizer for an optimizer labelled by the trainer's own name ('adamw_torch',
    'paged_adamw_32bit' → 'adamw'), as the parser maps it (bot.parse.configs.training.OPTIMIZERS): the same
    states, so the same memory (s46 round 42: the label keeps what the asker typed)."""
    from bot.parse.configs.training import OPTIMIZERS

    return OPTIMIZERS.get(str(value).lower())


TOOL_FORKS = {"Megatron-DeepSpeed": ("megatronlm", "deepspeed")}
"""A training tool that is a fork of two (deepspeedai/Megatron-DeepSpeed: Megatron-LM with DeepSpeed's ZeRO
and pipeline engine), modelled under its own name since s41 (estimator.training_tools.MEGATRON_FAMILY): used,
it is each of the two the corpus labels it as ('megatron-deepspeed' → ["Megatron-LM", "DeepSpeed"], README
label correction en30-002)."""


def _rate_output(value: object, answer: dict[str, Any]) -> bool:
    """s46 round 42 zh (zh42-001: '最大输出 1024 token … 稳定服务 65 QPS'): an output length the answer sized
    a request rate with is used — the rate × the output per request is the tokens/s sized (reason
    ``rate_times_output``, written 'qps: 65 × 1,024 output tokens = 66,560 tokens/s' by
    bot.parse.rate_forms.rate_said)."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return False
    items = (answer.get("interpretation") or {}).get("ignored") or []
    said = f"× {value:,.0f} output tokens"
    rated = [i for i in items if isinstance(i, dict) and i.get("reason") == "rate_times_output"]
    return any(said in str(i.get("text")) for i in rated)


OTHER_SETUP_REASONS = frozenset({"other_setup", "config_differs"})
"""Reasons that say a value is another setup's than the one sized (bot/core/ignored_reasons.py)."""


def _count_and_other_setups(counts: list[Any], answer: dict[str, Any]) -> bool:
    """s41 (issue 24 item 4, two setups in one message): several GPU counts are understood when one is the
    count sized and each other is named as another setup's ('the README says 4 A100 80GB … on 8 A100 40GB',
    '6 A100 … torchrun --nproc_per_node=4'): the understanding contract (docs/design.md §8) for two setups.
    Counts offered as options ('4 or 8 L40S') still need their range or a row each (:data:`ROW_KEYS`)."""
    got = (answer.get("request") or {}).get("gpu_count")
    items = (answer.get("interpretation") or {}).get("ignored") or []
    other = [i for i in items if isinstance(i, dict) and i.get("reason") in OTHER_SETUP_REASONS]
    sized = [c for c in counts if _close(c, got, 0.0)]
    rest = [c for c in counts if not _close(c, got, 0.0)]
    # s46 round 42 zh: another card's count, sized in that card's comparison row ('一张 RTX 6000 Pro 还是 4 张
    # 3090': report.comparisons holds RTX 3090 × 4), is used as the s20 rule takes the card itself
    rows = (answer.get("report") or {}).get("comparisons") or []
    counts_in_rows = [r.get("gpu_count") for r in rows if isinstance(r, dict)]
    return bool(sized) and all(
        _ignored({"interpretation": {"ignored": other}}, c, "gpu_count")
        or any(_close(c, n, 0.0) for n in counts_in_rows)
        for c in rest
    )


def _value_and_other_setups(key: str, values: list[Any], answer: dict[str, Any]) -> bool:
    """s47-workmiss: several numbers of one setting, one per setup ('4 × H800 上 MFU 能到 46%，8 × 4090 上
    MFU 34%'), are understood as several GPU counts are (:func:`_count_and_other_setups`, the contract's
    two setups, docs/design.md §8): one is the value sized and each other is named as another setup's
    (:data:`OTHER_SETUP_REASONS`, a percentage naming its fraction as :func:`_ignored` reads it). Not for
    :data:`ROW_KEYS`: their lists are options that need a row each (the s16 review: '5, 20 or 50'
    concurrent), GPU counts having their own rule."""
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        return False
    got = (answer.get("request") or {}).get(key)
    items = (answer.get("interpretation") or {}).get("ignored") or []
    named = [i for i in items if isinstance(i, dict) and i.get("reason") in OTHER_SETUP_REASONS]
    sized = [v for v in values if _close(v, got, 1e-6)]
    return bool(sized) and all(
        v in sized or _ignored({"interpretation": {"ignored": named}}, v, key) for v in values
    )


def _cards_total(total: object, answer: dict[str, Any]) -> bool:
    """s41 (issue 24): whether the cards sized hold the stated total memory, count × each card's memory
    (the request's ``gpu_memory_gib``, else the sized card's, ``report.hardware.memory_gib``) within 10 %:
    the total used as the cards it is ('3*24 = 72 GB' sized on 3 × RTX 4090; 'my GPU memory is 120G' on one
    120 GB card)."""
    request = answer.get("request") or {}
    hardware = (answer.get("report") or {}).get("hardware") or {}
    each, count = request.get("gpu_memory_gib") or hardware.get("memory_gib"), request.get("gpu_count")
    numbers = isinstance(count, int | float) and isinstance(each, int | float)
    return numbers and _close(total, count * each, 0.1)


def _accumulated(steps: object, request: dict[str, Any]) -> bool:
    """Whether the global batch sized is the micro-batch × ``steps`` × the data-parallel degree: the request
    holds the stated accumulation there when the micro-batch and GPUs are known (estimator/request.py
    ``gradient_accumulation``: 'used as stated' only without them; global = micro × steps × DP)."""
    gb, mb = request.get("global_batch"), request.get("batch_size")
    dp = (request.get("gpu_count") or 1) // ((request.get("tp") or 1) * (request.get("pp") or 1)) or 1
    return isinstance(steps, int) and bool(gb and mb) and _close(gb, mb * steps * dp, 1e-6)


def _model_compared(value: object, answer: dict[str, Any]) -> bool:
    """s37 (issue 24): a model sized in a row of its own (``report.compared_models``: 'glm4-9b 和 qwen2.5-7b
    哪个…', 'phi-3 mini vs qwen2.5 3b') is used, as a card in ``report.comparisons`` is (s20; docs/design.md
    §8: several options in one question get one row each)."""
    rows = (answer.get("report") or {}).get("compared_models") or []
    return any(
        isinstance(r, dict) and _model_understood(value, {"request": r}) for r in rows if r.get("model")
    )


def _value_rows(answer: dict[str, Any], setting: str) -> list[Any]:
    """The values of ``answer``'s ``report.per_value`` rows of ``setting``."""
    rows = ((answer.get("report") or {}).get("per_value")) or []
    return [r.get("value") for r in rows if isinstance(r, dict) and r.get("setting") == setting]


def _size_row(value: object, answer: dict[str, Any]) -> bool:
    """s39 (issue 24): a model size listed ('7B/13B/70B 分别') sized in a row of its own
    (``report.per_value`` of ``params_total``), as a model compared is (docs/design.md §8)."""
    return any(
        _model_understood(value, {"request": {"params_total": g}})
        for g in _value_rows(answer, "params_total")
    )


def _format_row(value: object, answer: dict[str, Any]) -> bool:
    """s39 (issue 24): a weight format listed ('fp16、int8 还是 int4') sized in a row of its own
    (``report.per_value`` of ``precision``): the format of that row, as :func:`_word_used` reads one."""
    return any(
        _word_used("precision", value, {"request": {"precision": g}})
        for g in _value_rows(answer, "precision")
    )


def _priced_cards(answer: dict[str, Any]) -> list[tuple[object, object]]:
    """(card, price per GPU-hour as given) of the request and of each comparison row priced as given."""
    request = answer.get("request") or {}
    priced = [(request.get("gpu"), request.get("price_per_gpu_hour"))]
    for r in (answer.get("report") or {}).get("comparisons") or []:
        cost = r.get("cost") if isinstance(r, dict) else None
        if isinstance(cost, dict) and cost.get("price_source") == "given":
            priced.append((r.get("gpu"), cost.get("price_low")))
    return priced


def _prices_used(values: list[Any], answer: dict[str, Any], cards: object = None) -> bool:
    """s37: stated prices per GPU-hour are used when each card's row prices at its own price ('h100 at
    $2.5/hr vs a100 at $1.3/hr': the H100 row at 2.5, the A100 row at 1.3). s37-rev: with the cards stated
    in the same order, price i must be card i's row; otherwise each price takes a row of its own."""
    priced = _priced_cards(answer)
    if isinstance(cards, list) and len(cards) == len(values):
        return all(
            any(cards_match(card, g) and _close(v, p) for g, p in priced)
            for card, v in zip(cards, values, strict=True)
        )
    free = list(priced)
    for v in values:
        hit = next((e for e in free if _close(v, e[1])), None)
        if hit is None:
            return False
        free.remove(hit)
    return True


def _compared_gpus(answer: dict[str, Any]) -> list[str]:
    """The cards of the answer's comparison rows: the other cards the user named, each sized."""
    rows = (answer.get("report") or {}).get("comparisons") or []
    return [str(r.get("gpu")) for r in rows if isinstance(r, dict) and r.get("gpu")]


def _rig_left_out(answer: dict[str, Any]) -> int:
    """How many cards of one machine the answer names as left out of the sizing (``mixed_rig_largest``:
    'an RTX 5090 plus an RTX 3080' on llama.cpp is sized on the 5090, the 3080 named): with the cards sized,
    the machine's count the user stated (s17: the count was read, the design sizes fewer and says why).
    s33: a rig summed on a layer-splitting engine (``mixed_rig_sum``, session 19: 'my 3 GPUs (2x RTX 4090
    and 1x RTX 4070)' on Ollama is sized as 3 equal shares of their memory) names its other cards too; a label
    that counts the named card's own cards (2 RTX 4090) is then met by the whole rig's count (3)."""
    items = (answer.get("interpretation") or {}).get("ignored") or []
    return sum(isinstance(i, dict) and i.get("reason") == "mixed_rig_largest" for i in items)


def _rig_named(answer: dict[str, Any]) -> int:
    """How many other cards of one machine a summed rig names (``mixed_rig_sum``: :func:`_rig_left_out`)."""
    items = (answer.get("interpretation") or {}).get("ignored") or []
    return sum(isinstance(i, dict) and i.get("reason") == "mixed_rig_sum" for i in items)


ASCEND_SKU = re.compile(r"910b[1-4]c?$")
"""An Ascend 910B's SKU digit after its name, normalized ('ascend910b3', '910b4')."""


def _atlas_said(value: object, answer: dict[str, Any]) -> bool:
    """Whether ``answer`` says it read an Atlas server named ``value`` ('Atlas 800I A2') as its NPUs."""
    subs = (answer.get("interpretation") or {}).get("substitutions") or []
    name = _norm(value)
    return any(
        isinstance(s, dict) and s.get("reason") == "atlas_server" and name in _norm(s.get("typed"))
        for s in subs
    )


ROW_KEYS = ("gpu_count", "concurrency", "seq_len", "gpu_memory_gib", "batch_size", "params_total")
"""Keys whose list of values is understood when the answer gives every value a row of its own
(``report.per_value``, bot/core/per_value.py; s36-lists, issue 24): 'finetune on 1, 2 or 4 A100', '并发
10、20、50 分别要几张卡', 'at 8k, 32k and 128k context', 'batch size 1, 2 or 4', 'A2000 6GB 能跑吗？12GB 可以
吗？'. The s16 review kept concurrency lists out of :data:`EACH_NAMED` because the answer gave no row per
value; a row per value is that answer. A list not every value of which has a row is scored as before.
s43-workmiss: model sizes listed with no model named ('7B、14B、32B、70B 到底该选哪个', '7B / 13B 模型'),
which the answer has given a row each since s39 (README: report.per_value params_total), scored here
since s43."""


def _rows_or_named(key: str, values: list[Any], answer: dict[str, Any]) -> bool:
    """s43-workmiss: a list whose values the answer gives rows (two or more: the values listed together)
    while each other value, said apart as another run ('100、120、150 并发都通过 … 再做 50 并发的压测'), is
    named as not used: each value is used in a row or named, as the understanding contract asks
    (docs/design.md §8). With no rows at all the s16 review's rule stands (a named concurrency alone is not
    understood)."""
    rowed = [v for v in values if _rows_hold(key, [v], answer)]
    return len(rowed) >= 2 and all(v in rowed or _ignored(answer, v, key) for v in values)


def _rows_hold(key: str, values: list[Any], answer: dict[str, Any]) -> bool:
    """Whether ``answer``'s ``report.per_value`` has a row of setting ``key`` for each of ``values``."""
    rows = ((answer.get("report") or {}).get("per_value")) or []
    got = [r.get("value") for r in rows if isinstance(r, dict) and r.get("setting") == key]
    return bool(got) and all(any(_close(v, g, 0.03) for g in got) for v in values)


EACH_NAMED = (
    "training_tool", "runtime", "max_model_len", "precision", "stage", "zero_stage", "algorithm", "tp", "pp",
    "seq_len", "gpu_memory_gib", "batch_size", "global_batch", "method", "hours", "offload",
    "max_completion_length", "budget", "kv_precision",
)  # fmt: skip
"""Keys whose list of values names several tools, engine limits, weight formats, stages or ZeRO stages of
one message (two setups: "at 8-bit or 6-bit", "微调完推理跑得动吗", "OOMs at zero2 and zero3",
"sft 甚至是 dpo"): each is understood when it is the one used or is named as not used (the understanding
contract, docs/design.md §8). s46 round 42 zh: two output lengths
('生成 2048 和 8192 个 token'), each the output of a setup, used or named (bot.parse.listed_outputs); a
budget range in a currency the estimator does not price in ('预算 1–2.5 万欧元'), each end named with its
amount (bot.parse.foreign_money). Round 9: TP and PP degrees of two layouts ('TP4-PP1-DP2 … TP1-PP1-DP8'),
which a list label could never match before (the request holds one degree). Concurrency is not here (s16
review): the answer gives no row per concurrency, so a list of them is not understood until it does.
Round 32: training lengths and card memories of two setups ('15k 的上下文跑不起来，10K 的可以', 'A2000 6GB
能跑吗？12GB 可以吗？'), which a list label could never match (the request holds one length, one memory).
Round 37: micro-batches of two setups, the one tried and the one that ran ('batch 为 4 跑不了 … batch 只能设到
1'), likewise (the request holds one batch; a row per batch still counts first, :data:`ROW_KEYS`).
s43-workmiss: global batches of two setups ('batch size 1 (16 in total) … batch size 32 (256 in total)'),
methods of two setups ('用 LoRA … 据说要用 QLoRA 才跑得动') and the hours of two runs or stages ('一阶段大概 5
小时、二阶段 20 小时'), likewise: the request holds one global batch, one method, one known duration.
s45-workmiss: offload directions of two setups ('only starts with --cpu-offload-gb … without offloading?',
'with or without offloading to CPU'): the request holds one bool, the other direction named
('offload: cpu')."""


BIT_WIDTH_OF = {"int8": "8bit", "int4": "4bit"}
"""Integer weight formats by the bit width people write ('8-bit', '4 bit'), normalized."""


BARE_GGUF = {"q4": "q4km", "q5": "q5km", "q8": "q80", "q6": "q6k", "q3": "q3km", "q2": "q2k"}
"""A GGUF width written bare ('Q4'), normalized → the format it names by default (Q4_K_M, Q5_K_M, Q8_0; s47:
Q6_K, Q3_K_M, Q2_K, sized as themselves since bot.parse.precision_words.GGUF_EXACT)."""


GGUF_OF = {"int8": ("q80",), "int4": ("q4km", "q40")}
"""GGUF weight formats of a bit width (llama.cpp: Q8_0 is 8-bit, Q4_K_M and Q4_0 4-bit), normalized."""


def _targets(value: object) -> set[str]:
    """The LoRA target modules as a set; a comma list written as one label ('q_proj,v_proj', as
    LLaMA-Factory's lora_target is typed) is those modules, as the contract's list holds them."""
    items = value if isinstance(value, list) else str(value).split(",") if value else []
    return {"alllinear" if _norm(v) in ("all", "alllinear") else _norm(v) for v in items}


def _offload(value: object) -> bool | None:
    """Offload as the records state it (where to: 'cpu', 'nvme', 'none') and as the contract holds it
    (``request.offload``: CPU offload requested, a bool): 'cpu'/'nvme' is True, 'none' is False."""
    if isinstance(value, bool):
        return value
    word = _norm(value)
    return True if word in ("cpu", "nvme", "true") else False if word in ("none", "false", "gpu") else None


def _catalog_memory(gpu: object) -> float | None:
    """The catalog card's memory (GiB) when ``gpu`` is a catalog id, else None: '3070ti 8g' asked with no
    model has no report, and the card sized (RTX-3070-Ti) holds the 8 GB said (s45)."""
    from estimator import catalog

    try:
        return catalog.gpu(str(gpu)).memory_gib if gpu else None
    except (KeyError, ValueError, LookupError):
        return None


def _close_memory_in_name(gib: Any, gpu: object) -> bool:
    m = re.search(r"(\d+)\s*GB", str(gpu or ""), re.I)
    return m is not None and _close(gib, m.group(1), 0.1)


def score(record: dict[str, Any], answer: dict[str, Any]) -> list[str]:
    """The stated keys not understood (empty: understood in full)."""
    stated = record.get("stated") or {}
    return [
        k
        for k, v in stated.items()
        if not key_understood(k, v, answer, stated.get("gpu")) and not _sum_used(k, stated, answer)
    ]


def _sum_used(key: str, stated: dict[str, Any], answer: dict[str, Any]) -> bool:
    """A prompt and a completion length stated together are used when the sequence sized is their sum
    (TRL GRPO/DPO, verl: one sequence holds the prompt and its completion; s17: a served request's
    prompt_tokens and its output length, TensorRT-LLM's max_input_len + max_output_len, likewise); a
    completion length stated without a prompt length ('max_tokens 4096' of an RL rollout) is used when it
    is the sequence sized."""
    if key not in ("max_prompt_length", "max_completion_length"):
        return False
    prompt, completion = stated.get("max_prompt_length"), stated.get("max_completion_length")
    request = answer.get("request") or {}
    served = prompt is None and key == "max_completion_length" and isinstance(completion, int | float)
    if served and _served_output(completion, request):  # s44-workmiss: the output sized beside its prompt
        return True
    if prompt is None and key == "max_completion_length":  # s17: served, the prompt is prompt_tokens
        prompt = stated.get("prompt_tokens")
    seq = request.get("seq_len")
    if prompt is None and isinstance(completion, int | float):  # the completion alone: the sequence sized
        return _close(completion, seq, 0.0)
    if not isinstance(prompt, int | float) or not isinstance(completion, int | float):
        return False
    return _close(prompt + completion, seq, 0.0)


def _served_output(completion: float, request: dict[str, Any]) -> bool:
    """s44-workmiss: a served request's output length ('1k/1k ISL/OSL', with or without its prompt labelled as
    prompt_tokens) is used when the request sizes a prompt and a sequence whose difference it is: a
    served sequence is the prompt and its output (estimator/request.py: prompt_tokens is the 'prompt part of
    the serving context', seq_len; bot.parse.request_shape reads 'input length N and output length M'),
    within the scorer's 5 % ('1k' is 1000 or 1024 tokens, as :func:`_ignored` reads a 'k')."""
    prompt, seq = request.get("prompt_tokens"), request.get("seq_len")
    if request.get("stage") != "inference" or not isinstance(prompt, int | float) or not seq:
        return False
    return seq > prompt and _close(completion, seq - prompt)


def _nominal(model: object, active: bool) -> float | None:
    """The size a model's name says ('Qwen2.5-7B' → 7e9, 'Qwen3-30B-A3B' active → 3e9)."""
    pattern = (
        r"(?i)(?<![0-9.a-z])a(\d+(?:\.\d+)?)b" if active else r"(?i)(?<![0-9.ax])(\d+(?:\.\d+)?)b(?![a-z])"
    )
    m = re.search(pattern, str(model or ""))
    return float(m.group(1)) * 1e9 if m else None


def answer_json(text: str) -> dict[str, Any]:
    from bot.cli import ask

    out, _ = ask(text, None, "json")
    return json.loads(out)


def report(recs: list[dict[str, Any]], label: str, score_only: bool) -> None:
    """Print each record's misses (unless ``score_only``), the score per language and in all, and the keys
    missed most — for a corpus split or an axis stress set (tests/axes.py)."""
    full: Counter[str] = Counter()
    total: Counter[str] = Counter()
    missed: Counter[str] = Counter()
    for r in recs:
        misses = score(r, answer_json(r["text"]))
        total[r["lang"]] += 1
        full[r["lang"]] += not misses
        missed.update(misses)
        if misses and not score_only:
            print(f"{r['id']}: {', '.join(misses)} — {r['text'][:90]}")
    for lang in sorted(total):
        print(f"{label} {lang}: {full[lang]}/{total[lang]} understood in full")
    n, k = sum(total.values()), sum(full.values())
    print(f"{label} all: {k}/{n} = {k / max(n, 1):.1%}")
    if not score_only:
        print("keys missed most:", ", ".join(f"{k} {c}" for k, c in missed.most_common(12)))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "--split",
        choices=("work", "test", "all", *(f"{t}{s}" for t in ROUNDS for s in ("work", "test", ""))),
        default="work",
    )
    p.add_argument("--score-only", action="store_true", help="print only the scores (for the test split)")
    args = p.parse_args(argv)
    report(records(None if args.split == "all" else args.split), args.split, args.score_only)
    return 0


if __name__ == "__main__":
    sys.exit(main())
