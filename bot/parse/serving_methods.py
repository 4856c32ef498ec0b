"""Speculative decoding and expert parallelism said in a serving question's words (trial s43 #3/#4:
'speculative decoding with Llama-3.2-1B as the draft', '用投机解码（EAGLE-3）', 'with SGLang, expert
parallelism', '用EP专家并行'). Neither is modelled (their reasons and sources:
:mod:`bot.parse.configs.serve_flag_reasons`): each is named as not used with that reason, never dropped in
silence nor left for the reply's 'no word said what it is'."""

from __future__ import annotations

from bot.parse.configs.serve_flag_reasons import EXPERT_PARALLEL_FLAGS, SPECULATIVE_FLAG_RE
from bot.parse.field_steps import SERVING_METHOD_CUES
from bot.parse.regex import rc

SPECULATIVE_RE = rc(
    r"speculative[\s\-_]+decod\w*|spec(?:ulative)?[\s\-_]+decode|投机(?:解码|采样|推理)|推测解码"
    r"|(?<![a-z])(?:eagle[\s\-]?\d?|medusa)(?![a-z])|draft[\s\-_]+model|草稿模型"
)
"""The method's names: 'speculative decoding', '投机解码' / '投机采样', '推测解码', EAGLE(-1/2/3) (Li et al.
2024) and Medusa (Cai et al. 2024) drafts."""
EXPERT_PARALLEL_RE = rc(r"expert[\s\-_]+parallel\w*|专家并行")
"""'expert parallelism', '专家并行' (the flags of a pasted command are read there)."""
CUES = SERVING_METHOD_CUES
"""The call site's literal gate (declared once, in :mod:`bot.parse.field_steps`, which tests them before it
loads this module): a message with none of them pays no search."""


TYPED_NAME_RE = rc(r"(?i)(?<![a-z])(?:eagle(?:[\s\-]?\d)?|medusa)(?![a-z\d])")
"""The draft method's name as the user typed it ('EAGLE-3'), which the normalizer wrote as one word."""


def serving_methods(s: str, named: list[tuple[str, str]], raw: str = "") -> None:
    """Name speculative decoding (``speculative_not_modelled``) and expert parallelism (``expert_parallel``)
    in ``named`` when the normalized serving question ``s`` says them and no pasted flag named them; a
    draft method's name as typed in ``raw`` (the message)."""
    said = {text.split(":")[0].replace("_", "-") for text, _ in named}  # the pasted flags' own tables
    words = [" ".join(m.group(0).split()) for m in SPECULATIVE_RE.finditer(s)]
    if words and not any(SPECULATIVE_FLAG_RE.match(k) for k in said):
        method = next((w for w in words if w.startswith(("eagle", "medusa"))), words[0])  # its name first
        typed = TYPED_NAME_RE.search(raw) if method.startswith(("eagle", "medusa")) else None
        method = typed.group(0) if typed else method
        named.append((method, "speculative_not_modelled"))
    if words or said & {"--speculative-config", "--speculative-model", "--model-draft", "-md"}:
        _draft_named(s, named)
    m = EXPERT_PARALLEL_RE.search(s)
    if m is not None and not said & (EXPERT_PARALLEL_FLAGS | {"expert-parallel"}):  # s47: its degree named
        named.append((" ".join(m.group(0).split()), "expert_parallel"))


DRAFT_CUES = ("draft", "草稿", "drafter", "小模型")
"""The words that make a second model the draft of the speculative decoding said ('Llama-3.2-1B as the
draft', '草稿模型用 Qwen2.5-0.5B', '用 0.5B 小模型做投机解码')."""


def _draft_named(s: str, named: list[tuple[str, str]]) -> None:
    """A second model named as another setup (``other_setup``, bot.parse.asides) in a message that says
    speculative decoding and calls a model its draft (:data:`DRAFT_CUES`) is that draft: its reason becomes
    ``speculative_draft`` (s43 fixserve2 #2: 'Llama-3.2-1B as the draft model' was 'another setup in your
    message'). vLLM runs the draft on the target's GPUs with the target's TP unless
    draft_tensor_parallel_size says otherwise (vLLM docs, 'Speculative Decoding'; SpeculativeConfig), so
    its memory is this answer's, not a second setup's."""
    if not any(cue in s for cue in DRAFT_CUES):
        return
    for i, (text, why) in enumerate(named):
        if why == "other_setup" and text.startswith("model: "):
            named[i] = (text, "speculative_draft")
