"""The cards of one online-RL job counted by role, the rollout engine's first and the trainer's after ('2 张
h20 做推理（vllm server 模式），6 张 h20 训练', '2 cards for vllm rollout, 6 cards for training'): the job
holds both, so its GPU count is their sum, and the rollout share is named as such (round 17 zh: the first
count, 2, was sized as the job and the 6 named 'repeated').

Written as the forms :data:`bot.parse.count_forms.ROLLOUT_SHARE_RE` reads ('8 张 h20 ，其中 2 卡给 rollout'),
the convention of round 4: the cards given to the rollout engine are a share of the job's, never its count.
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

_CARD = (
    r"(?:张|块|个)?\s*(?P<card{i}>[a-z]{{1,5}}\s?-?\d{{2,4}}[a-z]{{0,4}})?\s*(?:卡|gpus?\b|cards?\b|npus?\b)?"
)
_VERB = (
    r"\s*(?:的)?\s*(?:来|去)?\s*(?:(?:is|are)\s+)?(?:(?:reserved|dedicated|used|kept|set\s+aside)\s+)?"
    r"(?:做|用于|用来|跑|负责|给|for|to|as|run(?:ning)?)?\s*(?:the\s+)?"
)  # r35 en: 'one GPU is reserved for vLLM generation'
ROLE_SPLIT_RE = rc(
    r"(?<![\d.x×*])(?P<a>\d{1,3}|\bone\b)\s*"
    + _CARD.format(i=1)
    + _VERB
    + r"(?:vllm|sglang|rollout|推理|采样|生成|inference|generation)[^。;；!?？！\d]{0,40}?"
    r"(?:[,，、;；]|\band\b|和|另外|其余|剩下的?)\s*(?:另外|其余|剩下的?|(?:the\s+)?(?:other|remaining|rest\s+of\s+the))?"
    r"\s*(?P<b>\d{1,3})\s*"
    + _CARD.format(i=2)
    + _VERB
    + r"(?:(?P<alg>grpo|ppo|dapo|rl)\s+)?(?:训练|train(?:ing|er)?\b|actor\b|policy\b)"  # r35: 'GRPO training'
)
"""'N cards for the rollout engine …, M cards for training': the two roles of one job (the rollout named
first). A card name may stand where the card word does ('2 张 h20'); the trainer's count must follow in the
same sentence."""
TRAINER_FIRST_RE = rc(
    r"(?<![\d.x×*])(?P<b>\d{1,3})\s*"
    + _CARD.format(i=2)
    + _VERB
    + r"(?:训练|train(?:ing|er)?\b|actor\b|policy\b)[^。;；!?？！\d]{0,40}?"
    r"(?:[,，、;；]|\band\b|和|另外|其余|剩下的?)\s*(?:另外|其余|剩下的?)?\s*(?P<a>\d{1,3})\s*"
    + _CARD.format(i=1)
    + _VERB
    + r"(?:vllm|sglang|rollout|推理|采样|生成|inference|generation)"
)
"""The same two roles, the trainer's named first ('4 GPUs for the actor, 4 for vLLM rollout', '4 张卡训练，
4 张卡给 vLLM 做 rollout'; s28): the job's N + M cards, M of them the rollout engine's."""
_TRAINER_WORDS = ("训练", "train", "actor", "policy")
_ROLLOUT_WORDS = ("vllm", "sglang", "rollout", "推理", "采样", "生成", "inference", "generation")
_TRAINER_CUE = re.compile("|".join(_TRAINER_WORDS)).search
_ROLLOUT_CUE = re.compile("|".join(_ROLLOUT_WORDS)).search


def role_split(s: str) -> str:
    """The normalized text ``s`` with each 'N for rollout …, M for training' written as the job's N + M
    cards of which N go to the rollout engine (:data:`ROLE_SPLIT_RE`); gated on a training word and a
    rollout word."""
    if not (_TRAINER_CUE(s) and _ROLLOUT_CUE(s)):  # C-level searches: no frame a message
        return s
    s = ROLE_SPLIT_RE.sub(_joined, s) if ROLE_SPLIT_RE.search(s) else s
    return TRAINER_FIRST_RE.sub(_joined, s) if "其中" not in s and TRAINER_FIRST_RE.search(s) else s


def _joined(m: re.Match[str]) -> str:
    if "其中" in m.string[max(0, m.start() - 8) : m.start()]:  # '8 张，其中 2 张给 vllm，6 张训练': 8 is said
        return m.group(0)
    a, b = 1 if m.group("a") == "one" else int(m.group("a")), int(m.group("b"))
    card = m.group("card1") or m.group("card2") or ""
    unit = f" 张 {card} " if card else " 张卡 "
    said = m.group(0)
    engine = next((e for e in ("vllm", "sglang") if e in said), "rollout")  # the engine named stays named
    alg = m.groupdict().get("alg")  # the algorithm written before 'training' stays said
    return f"{a + b}{unit}，其中 {a} 卡给 {engine} ，{b} 张训练 " + (f"{alg} " if alg else "")
