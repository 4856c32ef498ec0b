"""The prose beside a training config, read as of the config's stage (session 25, trial2 #7).

A LLaMA-Factory or axolotl YAML pasted with 'dataset ~120M tokens, single A10G 24GB on AWS. how long and
will it fit?' and no stage word: read alone, 'will it fit' with no model makes that prose a serving
question, whose training tokens are dropped ('120m' named as unread), although the config is a
fine-tuning run. The config's stage is the stage of its prose, so the prose is read again with that stage
said in front; :func:`bot.parse.configs.merge.with_stack` still takes the stage from the config (the
word is not in the user's text).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.parse import ParseResult
    from bot.parse.configs import StackConfig

STAGE_WORDS = {
    "finetune": "fine-tune: ",
    "pretrain": "pretrain: ",
    "continued_pretrain": "continued pretraining: ",
}
"""The word put in front of the prose for each training stage a config implies."""


def training_prose(stack: StackConfig, parsed: ParseResult, text: str) -> str | None:
    """``text`` with the config's training stage said in front when its prose alone was read as serving
    (a guess, no stage word) and a training figure of it was left unread; else None (read as it is).
    YAML configs only (LLaMA-Factory, axolotl, torchtune): a launcher command's prose (verl's, with its
    rollout words) keeps its own reading. A length the prose alone read as a serving context is read
    again too (s28 trial H1: '平均每条1200 token' beside a LLaMA-Factory YAML with ``stage: sft`` is each
    sample's length, not a sequence length that disagrees with ``cutoff_len``)."""
    stage = stack.values.get("stage", stack.implied.get("stage"))
    word = STAGE_WORDS.get(str(getattr(stage, "value", stage)))
    if word is None or stack.format != "yaml" or parsed.request.stage != "inference" or parsed.stage_word:
        return None
    if "stage" in stack.values and "seq_len" not in parsed.found:
        return None  # the config's own stage word: its prose is re-read only for a length (s28 H1)
    if not any(why == "unread" for _, why in parsed.unused_numbers) and "seq_len" not in parsed.found:
        return None
    return word + text
