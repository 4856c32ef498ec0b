"""A software release's number beside its name ('FlashAttention-2', 'flash attention 2', 'torch 2', 'CUDA
12', 'xformers 0.0.23', 'transformers 4.46'): part of the name, never a count or a setting, so not named
'no word said what it is' (trial s48b #5: '… Liger kernel, FlashAttention-2, DeepSpeed ZeRO-3 …' listed
"2" as unused). Loaded on first use, behind :data:`bot.parse.cue_words.VERSION_CUES` at its call site
(bot.parse.assemble). Pure; never raises."""

from __future__ import annotations

from bot.parse.regex import rc

VERSION_RE = rc(
    r"(?<![a-z0-9])(?:flash[\s\-_]*(?:attn|attention)|flashattention|cuda|cudnn|nccl|rocm|pytorch|torch"
    r"|xformers|transformers|peft|trl|bitsandbytes|triton|driver|驱动)"
    r"[\s\-_]*(?:version\s*|版本\s*)?v?(?P<v>\d{1,3}(?:\.\d{1,3}){0,2})(?![\d.]|\s*(?:张|卡|台|x\b|×|gpus?\b|cards?\b))"
)
"""A release number right after a library's, a toolkit's or a driver's name, as the normalized (lower-case)
text writes it: one to three dotted parts, not followed by a count's unit ('torch 2 张卡' stays a count)."""


def versions_named(s: str, out: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """``out`` (the numbers named as not used, as typed, with why) without the 'unread' ones that are a
    release number of a name in the normalized text ``s`` (:data:`VERSION_RE`); every other item kept."""
    numbers = {m.group("v") for m in VERSION_RE.finditer(s)}
    return [u for u in out if not (u[1] == "unread" and u[0].strip() in numbers)] if numbers else out
