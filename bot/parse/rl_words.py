"""RL sampling said without 'per prompt': the number of responses sampled for each prompt.

GRPO samples a group of responses per prompt (Shao et al. 2024, DeepSeekMath §4.1: group size G; TRL
``GRPOConfig.num_generations``, verl ``actor_rollout_ref.rollout.n``). In a training question,
'5k prompts 8 generations', 'group size 8', '采样 8 条', '8 个回复' is that count: a sampling setting,
never data and never a second value of another setting. The sizing has no field for it (named, with its
reason)."""

from __future__ import annotations

from typing import Any

from bot.parse.regex import rc

RL_GENERATIONS_RE = rc(
    r"(?<![\d.,])(?P<g>\d{1,3})(?![\d.]|,\d)\s*(?:generations|completions|rollout\s+samples)\b"
    r"|\bgroup[\s_\-]*size\s*(?:of\s*|=\s*|:\s*)?(?P<s>\d{1,3})(?![\d.]|,\d)"
    r"|(?:采样|生成|组大小|组内)\s*(?P<z>\d{1,3})\s*(?:个|条|次|组)?(?:回复|回答|样本|结果)?(?!\s*(?:[\d.万千亿]|[kmb](?![a-z])|tokens?))"
    r"|(?<![\d.])(?P<y>\d{1,3})\s*(?:个|条)\s*(?:回复|回答|采样|生成)(?![\d])"
    r"|(?<![a-z_.])rollouts?\s*(?:n\s*(?:=|:|：)?\s*)?(?P<u>\d{1,3})\s*(?:个|条|次)(?![\d万千])"
)
"""Generations per prompt in a training question, said alone ('8 generations', 'group size 8',
'采样 8 条', '8 个回复', 'rollout 8 条': verl users' words for ``rollout.n``), never a data size
('生成1亿token', s43 q09_zh); the count is the group ``g``/``s``/``z``/``y``/``u`` (a count with 条/个
after 'rollout' is the group, never the data)."""
RL_GENERATION_GROUPS = ("g", "s", "z", "y", "u")

_QUANT_WORD = (
    r"(?:gptq|awq|quantiz\w*|quantis\w*|quant|量化|int[48]|nf4|fp4|bnb|bitsandbytes|exllama\w*|marlin"
    r"|w[48]a(?:8|16)|[48][\s\-]?bits?)"
)
_GROUP_KEY = r"(?:分组大小|组大小|group[\s_\-]*size|groupsize)"
_NOT_RL = r"(?!grpo|ppo|rloo|dapo|gspo|rl\b|强化|rollout|sampl|采样|回复)"
_GAP = rf"(?:{_NOT_RL}[^\d,.;!?，。；！？\n]){{0,30}}?[,，(（]?(?:{_NOT_RL}[^\d.;!?。；！？\n]){{0,6}}?"
"""Between a quantization word and 'group size': a few words of one clause, no number, no RL word."""
_IS = r"\s*(?:=|:|：|of|is|为|是)?\s*"
QUANT_GROUP_RE = rc(
    rf"(?:(?P<k>q[\s_\-]*group[\s_\-]*size)|{_QUANT_WORD}{_GAP}(?P<kq>{_GROUP_KEY})){_IS}(?P<q>\d{{1,4}})(?![\d.])"
    rf"|(?P<ka>{_GROUP_KEY}){_IS}(?P<a>\d{{1,4}})(?![\d.])\s*(?:(?:for|in|of|on|with|的)\s*)?(?:(?:the|a|an|its)\s+)?{_QUANT_WORD}"
)
"""A quantization's group size (GPTQ/AWQ ``group_size``, AutoAWQ ``q_group_size``: the weights sharing one
scale; GPTQ, Frantar et al. 2023; AWQ, Lin et al. 2024) said beside a quantization word ('GPTQ group size
128', 'AWQ（4-bit，group size 128）', '量化组大小 128'): a weight-format setting, never GRPO's group. Only
the key and its number are the group size's (:func:`group_span`): the format word beside them is the
precision reader's ('int4 with group size 128' is int4; s34-gen: it was masked with the group size)."""


def group_span(m: Any) -> tuple[int, int]:
    """The span of a :data:`QUANT_GROUP_RE` match's key and number, without the quantization word."""
    key = next(g for g in ("k", "kq", "ka") if m.group(g) is not None)
    return m.start(key), m.end("q" if m.group("q") is not None else "a")


COMPLETION_AFTER_RE = rc(
    r"(?<![\w.])(?P<n>\d[\d,]*\s*k?)\s*(?:-\s*)?(?:tokens?\s+(?:of\s+)?)?(?:max(?:imum)?\s+|最大\s*|最长\s*)?"
    r"(?:completion|resp(?:onse)?|generation|rollout)(?:\s+(?:lengths?|len\b|tokens?)|\s*(?:长度|token))"
)
"""RL generation length with the number first ('1024 max completion tokens', '2k completion length',
'1024-token max completion', '1024 最大生成 token'; trial s21 #6): the number read as
:data:`COMPLETION_RE` reads the noun-first forms (``n``), trl's
``max_completion_length``."""
THEN_MAX = r"[,，]\s*(?=最长|最多|up\s+to|at\s+most)"
"""A comma, then the maximum of the generation word before it ('rollout, 最长1024 token')."""
COMPLETION_RE = rc(
    r"(?<![a-z_])(?:resp(?:onse)?s?|completions?|generations?|outputs?|rollouts?|回复|回答|生成|输出|补全)\s*"
    r"(?:(?:lengths?|len\b)\s*)?"
    rf"(?:{THEN_MAX}|of\s+|up\s+to\s+|at\s+most\s+|最长\s*|最多\s*|长度\s*|最大\s*|为\s*|是\s*|:\s*)*"
    r"(?P<n>\d[\d,]*\s*k?)(?![\d.])(?!\s*(?:条|组|对|份|万|千|个(?!\s*tokens?)))\s*(?:个\s*)?(?:tokens?)?"
)
"""RL generation length ('responses up to 32k tokens', '回复最长 8k', '回答最长2048个token', '生成长度 1024'):
part of each sequence; never a count ('回答 5000 条'), nor the tail of a key ('num_generations 是 6': TRL's
completions per prompt, once read as a 6-token completion); after a comma only with a maximum ('每个prompt 8条
rollout，最长1024 token': the rollout's longest, trial s24-2 #8, never the sequence's). Moved from
bot.parse.prose_vocab (s24: that module is at its line limit)."""
