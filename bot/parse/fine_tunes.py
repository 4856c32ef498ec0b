"""A named fine-tune sized as its base (s46 verdictmodel, issue 24 items 3–4): 'vicuna-13b-v1.5-16k' is a
Llama 2 13B fine-tune, not a model of unknown shape. A fine-tune (or a merge of fine-tunes) keeps its base's
config.json — layers, hidden size, attention and KV heads, FFN width — so its memory is its base's; before,
such a name was sized with the generic shape of its size (grouped KV: 148 KiB a token for a 13B, where
Llama 2 13B keeps 800 KiB, no grouped KV). The mention keeps the name as typed and is marked
:data:`FINE_TUNE`: the reply says which base was sized (``interpretation.substitutions``, reason
``fine_tune_base``). A context suffix ('-16k') is part of the name and sets the release's window
(bot.core.release_window), as for a long-context release (bot.parse.context_release).

Only families whose base every release of that size shares are in :data:`FAMILIES`; a fine-tune the table
lacks stays an unknown model, named as typed with the generic shape. Sources, per family:

- Vicuna: lmsys/FastChat docs/vicuna_weights_version.md — v1.5 (and v1.5-16k) fine-tuned from Llama 2, v1.3,
  v1.1 and v0 from LLaMA; lmsys/vicuna-13b-v1.5-16k config.json (LlamaForCausalLM, hidden 5120, 40 layers,
  40 heads, no num_key_value_heads, intermediate 13824, vocab 32000, rope_scaling linear 4.0); the catalog's
  LLaVA-1.5 entries read lmsys/vicuna-7b-v1.5 / -13b-v1.5 the same way. Vicuna-33B exists as v1.3 only
  (LLaMA 33B). No version typed: the latest, v1.5 (7B and 13B).
- Guanaco: Dettmers et al. 2023, QLoRA (arXiv:2305.14314) §5: Guanaco 7B/13B/33B/65B are QLoRA fine-tunes
  of LLaMA (timdettmers/guanaco-*-merged, LlamaForCausalLM).
- WizardLM: WizardLMTeam/WizardLM-13B-V1.2 model card ('trained from Llama-2 13b'), WizardLM-70B-V1.0
  ('trained from Llama-2 70b'); V1.0/V1.1 (7B, 13B, 30B) from LLaMA (Xu et al. 2023, WizardLM,
  arXiv:2304.12244); WizardLM-2 7B from Mistral-7B-v0.1 (its model card's base model).
- Zephyr: HuggingFaceH4/zephyr-7b-alpha and -beta model cards ('a fine-tuned version of
  mistralai/Mistral-7B-v0.1'); HuggingFaceH4/zephyr-7b-gemma-v0.1 model card ('a fine-tuned version of
  google/gemma-7b'; s46 review B2: it was sized as Mistral 7B).
- OpenChat: openchat/openchat_3.5 and openchat-3.5-0106 model cards (Mistral-7B-v0.1 base);
  openchat/openchat-3.6-8b-20240522 (Meta-Llama-3-8B base); openchat v3.2 13B (Llama 2 13B).
- Tulu 2: Ivison et al. 2023, Camels in a Changing Climate (arXiv:2311.10702): Tülu 2 7B/13B/70B fine-tune
  Llama 2.
- Xwin-LM: Xwin-LM/Xwin-LM-7B/13B/70B-V0.1 model cards ('built upon the Llama2 base models').
- MythoMax: Gryphe/MythoMax-L2-13b model card (a merge of Llama 2 13B fine-tunes, 'L2').
"""

from __future__ import annotations

import re
from typing import Protocol

FINE_TUNE = "fine_tune"
"""The mention's substitution: a fine-tune sized as its base model (bot.core.ignored_reasons)."""

_LLAMA1 = {7e9: "LLaMA-7B", 13e9: "LLaMA-13B", 33e9: "LLaMA-33B", 30e9: "LLaMA-33B", 65e9: "LLaMA-65B"}
_LLAMA2 = {7e9: "Llama-2-7B", 13e9: "Llama-2-13B", 70e9: "Llama-2-70B"}
_MISTRAL = {7e9: "Mistral-7B"}

FAMILIES: dict[str, tuple[tuple[str | None, dict[float, str]], ...]] = {
    "vicuna": ((r"v(?:0|1\.[0-3])(?![\d.])", _LLAMA1), (None, {**_LLAMA2, 33e9: "LLaMA-33B"})),
    "guanaco": ((None, _LLAMA1),),
    "wizardlm": (
        (r"wizardlm[\-_]?2(?![\d.])", _MISTRAL),
        (r"v1\.[01](?![\d.])", {**_LLAMA1, 70e9: "Llama-2-70B"}),
        (None, {7e9: "LLaMA-7B", 30e9: "LLaMA-33B", 13e9: "Llama-2-13B", 70e9: "Llama-2-70B"}),
    ),
    "zephyr": ((r"[\-_]gemma(?![a-z])", {7e9: "Gemma-7B"}), (None, _MISTRAL)),
    "openchat": ((None, {**_MISTRAL, 8e9: "Llama-3-8B", 13e9: "Llama-2-13B"}),),
    "tulu": ((r"tulu[\-_]?2(?![\d.])", _LLAMA2),),
    "xwin": ((None, _LLAMA2),),
    "mythomax": ((None, {13e9: "Llama-2-13B"}),),
}
"""Family word → (version pattern or None, size in parameters → the base's catalog id), first match wins;
sources in the module docstring. The base is decided by the size and the version together: WizardLM-70B-V1.0
is Llama 2 70B (s46 review B2: the V1.0 entry had no 70B and the name was left unknown)."""

_OTHER_BASE = re.compile(
    r"[\-_](?:gemma|qwen|llama|mistral|mixtral|yi|phi|falcon|deepseek|glm|internlm)"
).search
"""A word in a fine-tune's name naming another base family ('zephyr-7b-gemma'): when no version pattern of
the family names it, the family's default base is not this one: the name stays unknown (generic shape),
never a wrong base (s46 review B2)."""

_REST = re.compile(
    r"(?:[\-_](?!gptq|awq|gguf|int[48]|fp8|fp16|bf16|q[2-8]|exl2|bnb|[48]bit|nf4)[a-z0-9]+(?:\.\d+)*)*"
    r"(?![a-z0-9])",
    re.IGNORECASE,
)
"""The rest of a joined name after its tail ('-gemma-v0.1' of 'zephyr-7b-gemma-v0.1'): part of the name as
typed, echoed whole (s46 review B2: 'zephyr-7b' was echoed and '-gemma-v0.1' dropped); a weight format
glued after it ('-awq', '-gptq', '-int4') is no part of it: the format readers read it."""

STARTS = re.compile(r"(?:vicuna|guanaco|wizardlm|zephyr|openchat|tulu|xwin|mythomax)(?![a-z])").match
"""A name beginning with a family of :data:`FAMILIES` (matched in C: no frame for any other unknown name)."""
RELEASE_RE = re.compile(
    r"(?<![a-z0-9])(?:vicuna|guanaco|wizardlm|zephyr|openchat|tulu|xwin|mythomax)"
    r"[a-z0-9.\-_]{0,12}?\d+(?:\.\d+)?b(?![a-z0-9])"
)
"""s48 r44en: a fine-tune of :data:`FAMILIES` named with its size in normalized text ('vicuna-13b',
'wizardlm-2-7b', 'mythomax-l2-13b'): a released model, so 'train' it (the weak hint) is a fine-tuning, as
'train Qwen2.5-32B' is (bot.parse.stage_hints.tuning_only_stage); before, 'I have tried training vicuna-13b on
8xA100(40G)' was sized as a pre-training."""

_TAIL = re.compile(
    r"(?:[\-_](?:v\d+(?:\.\d+)*|\d{4}|alpha|beta|chat|instruct|hf|dpo|sft|merged|\d{1,4}k))*"
    r"(?![a-z0-9])",
    re.IGNORECASE,
)
"""What follows the size in a fine-tune's name: its version, tags and context suffix ('-v1.5-16k', '-V1.2',
'-beta'): part of the name as typed, never a number of the message."""


class _Mention(Protocol):
    start: int
    end: int
    text: str
    model_id: str | None
    size: float | None
    substitution: str | None


def base_of(name: str, size: float | None) -> str | None:
    """The catalog id of the base model a fine-tune ``name`` (lower case, its family first, as typed) of
    ``size`` parameters was trained from, or None when :data:`FAMILIES` does not know it."""
    fam = STARTS(name)
    if fam is None or size is None:
        return None
    for version, bases in FAMILIES[fam.group(0)]:
        if version is None and _OTHER_BASE(name, fam.end()):
            return None  # 'zephyr-7b-qwen': another base's word no entry names
        if version is None or re.search(version, name):
            return bases.get(size)
    return None


def fine_tune_base(s: str, mention: _Mention) -> int:
    """Mark ``mention`` (an unknown name glued to its size in the normalized text ``s``) as :data:`FINE_TUNE`
    of its base when the table knows it; its version, context suffix and any other joined words are added to
    its typed name either way (a name the table cannot place is named whole, with the generic shape); the end
    of the name in ``s``."""
    tail = _TAIL.match(s, mention.end)
    end = tail.end() if tail is not None else mention.end
    rest = _REST.match(s, end)
    end = rest.end() if rest is not None else end
    base = base_of(s[mention.start : end].lower(), mention.size)
    if base is not None:
        mention.model_id, mention.substitution = base, FINE_TUNE
    mention.text, mention.end = mention.text + s[mention.end : end], end  # the whole name as typed
    return end


GLUED_PREFIX = re.compile(r"(?<![a-z0-9/\-_.:\ue001])[a-z][a-z0-9]*(?:[\-_][a-z0-9]+(?:\.\d+)?)*[\-_]$")
"""A derivative's own words glued before a catalog name ('nous-hermes-' of 'Nous-Hermes-Llama2-13b',
'dolphin-2.6-' of 'dolphin-2.6-mistral-7b'): the tail of the text before the name, no organization ('/')
nor other model (masked) in it."""


class _Named(_Mention, Protocol):
    start: int


def glued_derivatives(s: str, mentions: list[_Named], typed_as: object) -> str:
    """``s`` with the words of each derivative glued before a catalog name masked, each such mention's typed
    name given them and marked :data:`FINE_TUNE` (the reply names it as typed and says its base was sized:
    before, 'Nous-Hermes-Llama2-13b' was named 'Llama2-13b' and 'dolphin-2.6-mistral-7b' named its '2.6'
    as a number not read). A mention already marked (a vision-language or long-context release) is left."""
    for mention in mentions:
        if (
            mention.start < 2
            or s[mention.start - 1] not in "-_"
            or not mention.model_id
            or mention.substitution
        ):
            continue
        m = GLUED_PREFIX.search(s, max(0, mention.start - 40), mention.start)
        if m is None:
            continue
        begin, old = m.start(), mention.start
        mention.text = typed_as(s[begin : old - 1]) + s[old - 1] + mention.text  # type: ignore[operator]
        mention.substitution = (
            FINE_TUNE  # its start kept: what precedes the name (a helper's key) reads as before
        )
        s = s[:begin] + " " * (old - begin) + s[old:]  # its words part of the name: no number of the message
    return s
