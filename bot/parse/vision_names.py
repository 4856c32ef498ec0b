"""Vision-language releases and old aliases named for a catalog LLM (issue 24, s14).

- **A VL release** ('Qwen3-VL-235B-A22B', 'Qwen2.5-VL-72B', 'qwen2vl-7b'): the language model of the
  same family, version and size plus a vision encoder. The catalog has the language models, not the
  vision towers, so the mention is the LLM the release is built on (the family pass with the '-VL' tag
  taken out: 'qwen3-235b-a22b' → Qwen3-235B-A22B, its 235B total / 22B active shape), with substitution
  :data:`VISION_LANGUAGE`: the reply names the LLM sized and says the vision encoder is not counted.
  Before, 'Qwen3-VL-235B-A22B' was an unknown model sized as a generic dense 22B shape. A release the
  catalog has whole ('Qwen2.5-VL-7B', its vision tower in ``[model.vision]``, s31) is that entry, with
  no substitution.
- **A catalog LLM called a vision-language model** ('the Qwen-2.5-72B vision-language model', 'Qwen2.5 72B
  多模态版'): the same substitution, so the reply never sizes the plain LLM without saying so.
- **An alias** ('llama 30b', 'LLaMA-30B'): Meta's LLaMA (v1) 30B is the release the catalog lists as
  LLaMA-33B (32.5B parameters: Touvron et al. 2023, Table 2 lists 32.5B; the checkpoints were published
  as 'llama-30b'). Substitution :data:`ALIAS`: the reply says which release was sized.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from bot.parse.regex import rc

if TYPE_CHECKING:
    from bot.parse.models import ModelMention

VISION_LANGUAGE = "vision_language"
ALIAS = "alias"
SPEECH = "speech"
SAME_ARCHITECTURE = "same_architecture"

VL_NAME_RE = rc(
    r"(?<![a-z0-9.\-_/])(?P<base>[a-z][a-z]*[\-_ ]?\d+(?:\.\d+)?)[\-_ ]?vl[\-_ ]?"
    r"(?P<size>\d+(?:\.\d+)?b(?:[\-_]a\d+(?:\.\d+)?b)?)(?![a-z0-9])"
    r"(?:[\-_](?:instruct|thinking|chat|base))*"
)
"""'qwen3-vl-235b-a22b', 'qwen2.5-vl-72b-instruct', 'qwen2-vl-7b' (normalized text): a base LLM name, the
'-VL' tag, its size (and active size), and release tags after it (a quantization tag, '-AWQ', is left
for the precision reader)."""
VL_WORDS_AFTER_RE = rc(
    r"[\s\-_(（]*(?:vision[\s\-]*language|multi[\s\-]?modal|vlm|vl(?![a-z0-9])|多模态|视觉语言|图文)"
)
"""A catalog LLM's name followed by a vision-language word: 'Qwen-2.5-72B vision-language model'."""
SPEECH_WORDS_AFTER_RE = rc(r"[\-_ ]?(?P<w>voice|audio|speech|tts|asr)(?![a-z])")
"""A catalog LLM's name joined to a speech word ('GLM-4-Voice', 'Qwen2-Audio'): the speech release built on
that LLM (GLM-4-Voice is GLM-4-9B with a speech tokenizer and decoder: zai-org/GLM-4-Voice README). Round 15
zh: 'GLM-4-Voice' was sized as GLM-4-9B without a word, the name read only up to 'glm-4'."""
VL_BUILT_ON_RE = rc(
    r"[\s\-_]*(?:moe\s+|的\s*)?(?:version\s+of\s+(?:the\s+)?)?(?P<vl>(?:video[\s\-_]*)?llava|internvl|cogvlm"
    r"|instructblip|minigpt[\s\-_]*4|sphinx|mplug[\s\-_]*owl|idefics)(?![a-z])"
)
"""s37-models (issue 24): a catalog LLM named as the base of a vision-language model ('the qwen-7b LLaVA
model', 'the Mixtral MoE version of SPHINX', 'Qwen2.5-7B 的 LLaVA'): that VL model is the LLM plus a
vision encoder (LLaVA: Liu et al. 2023 §4; SPHINX-MoE: Mixtral-8x7B, Alpha-VLLM/LLaMA2-Accessory), so
the LLM is sized and the VL model named as typed with :data:`VISION_LANGUAGE`."""
VARIANT_AFTER_RE = rc(r"[\-_](?P<w>vision|coder|math|omni|embedding)(?![a-z0-9])")
"""s38: a variant word glued after a model's name ('mistral-7b-vision', 'qwen2.5-7b-coder',
'Llama-3.2-11B-Vision', 'qwen2.5-7b-omni'): a release of its own (vision, code, math, omni-modal,
embedding), never the catalog LLM whose name it ends with. A catalog name that lacks the word is refused:
the model is unknown, named as typed with the word, sized by its size as a generic shape, the catalog
release that carries the word (or the near name) suggested.
The '-VL' tag and speech words keep their own readings above."""
ALIASES = {"LLaMA-33B": rc(r"\b30b")}
"""Catalog ids whose releases are also known by another size: the pattern that size matches as typed."""
SAME_ARCHITECTURES = {"DeepSeek-V3.2-Exp": rc(r"exp")}
"""s47-cat: catalog ids whose entry is one release of an architecture another release shares, and the tag
that release's name has: a name typed without it is the other release, sized as the catalog's and said
(substitution :data:`SAME_ARCHITECTURE`). DeepSeek-V3.2 (2025-12-01) has DeepSeek-V3.2-Exp's architecture
(deepseek-ai/DeepSeek-V3.2 model card, 'How to Run Locally': 'The model structure of DeepSeek-V3.2 and
DeepSeek-V3.2-Speciale are the same as DeepSeek-V3.2-Exp')."""


def vision_language_names(
    s: str, family: re.Pattern[str], family_mention: object, whole_name: object = None
) -> list[tuple[int, int, ModelMention]]:
    """(start, end, mention) of each VL release in the normalized text ``s`` whose language model the
    family pattern ``family`` and reader ``family_mention`` (:func:`bot.parse.models._family_mention`)
    find in the catalog; the mention's text is the name as written, its substitution
    :data:`VISION_LANGUAGE`. A VL name whose LLM the catalog lacks is left to the later passes (named
    as typed, sized with a generic shape)."""
    if "vl" not in s:
        return []
    out = []
    for m in VL_NAME_RE.finditer(s):
        llm = f"{m.group('base')}-{m.group('size')}"
        fm = family.fullmatch(llm)
        mention = family_mention(llm, fm) if fm else None  # type: ignore[operator]
        if mention is None or mention.model_id is None:
            continue
        mention.start, mention.end = m.start(), m.end()
        mention.text = " ".join(m.group(0).split())
        mention.substitution = VISION_LANGUAGE
        vl = whole_name(mention.text) if whole_name is not None else None  # type: ignore[operator]
        if vl is not None:  # the release itself is in the catalog, its vision tower with it (s31)
            mention.model_id, mention.substitution = vl, None
        out.append((m.start(), m.end(), mention))
    return out


def mark_substitutions(
    s: str, mentions: list[ModelMention], typed: Callable[[str], str] | None = None
) -> None:
    """Set :data:`VISION_LANGUAGE` on a catalog LLM followed by a vision-language word, :data:`SPEECH` on
    one joined to a speech word (:data:`SPEECH_WORDS_AFTER_RE`), :data:`ALIAS` on a release typed by its
    other name (:data:`ALIASES`) and :data:`SAME_ARCHITECTURE` on another release of a catalog entry's
    architecture (:data:`SAME_ARCHITECTURES`), where no other substitution is set."""
    for mm in mentions:
        if mm.substitution is not None:
            continue
        if s[mm.end : mm.end + 1] in ("-", "_") and (v := VARIANT_AFTER_RE.match(s, mm.end)):
            _variant(mm, v, typed)  # gated by the glued '-'/'_': a name ending there pays nothing
            continue
        if mm.model_id is None:
            continue
        if VL_WORDS_AFTER_RE.match(s, mm.end):
            mm.substitution = VISION_LANGUAGE
        elif ("l" in s or "sphinx" in s or "owl" in s) and (vl := VL_BUILT_ON_RE.match(s, mm.end)):
            mm.substitution = VISION_LANGUAGE  # 'the qwen-7b LLaVA model': LLaVA, named as typed (s37)
            mm.text = typed(vl.group("vl")) if typed is not None else vl.group("vl")
        elif speech := SPEECH_WORDS_AFTER_RE.match(s, mm.end):
            mm.substitution, mm.text = SPEECH, f"{mm.text}-{speech.group('w')}"  # named as typed
        elif mm.model_id in ALIASES and ALIASES[mm.model_id].search(mm.text.lower()):
            mm.substitution = ALIAS
        elif mm.model_id in SAME_ARCHITECTURES and not SAME_ARCHITECTURES[mm.model_id].search(
            mm.text.lower()
        ):
            mm.substitution = SAME_ARCHITECTURE  # 'DeepSeek-V3.2': the -Exp release's architecture, said


def _variant(mm: ModelMention, v: re.Match[str], typed: Callable[[str], str] | None) -> None:
    """Name ``mm`` with the variant word ``v`` glued after it, as typed, and refuse a catalog release whose
    id lacks that word (:data:`VARIANT_AFTER_RE`); the releases that carry it are suggested first."""
    word = v.group("w")
    joined = f"{mm.text}{v.group(0)}"
    mm.text, mm.end = (typed(joined) if typed is not None else joined), v.end()
    if mm.model_id is None or word in mm.model_id.lower():
        return
    from estimator import catalog

    near, size = mm.model_id, mm.model_id.lower().rsplit("-", 1)[-1]
    family = mm.model_id.split("-", 1)[0].lower()
    low = {i: i.lower() for i in catalog.models()}
    carry = [i for i, x in low.items() if word in x and x.startswith(family) and x.endswith(size)]
    mm.model_id, mm.suggestions = None, [*carry[:3], near]
