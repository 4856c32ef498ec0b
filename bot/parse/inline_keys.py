"""Config keys written in prose (issue 24, round 4): one reader for every training-config key the pasted
config reader knows (:data:`bot.parse.configs.training.HANDLERS`: LLaMA-Factory, HF Trainer / TRL, axolotl,
torchtune, DeepSpeed keys), in the forms people write them inside a sentence — ``key: value``,
``key=value``, ``--key value``, ``key value`` — so a key learned for pasted configs is read everywhere,
through the same handler (never a second, drifting rule per key). It reads what the prose rules
(:mod:`bot.parse.settings`) left: a key they read is masked before this runs, and a field they set is not
set again.

Trainer logs are read by the same table through their labels (:data:`LOG_LABELS`): Hugging Face
Trainer's and Unsloth's start-of-training banner ('Num examples = 1,000', 'Num Epochs = 3',
'Instantaneous batch size per device = 4', 'Total train batch size (w. parallel, distributed &
accumulation) = 32', 'Gradient Accumulation steps = 4'; transformers/trainer.py ``_inner_training_loop``,
unsloth's banner prints the same names).

What a key sets that the sizing has no field for is named (the handler's ``unused`` reasons), never
dropped in silence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from bot.parse.configs.meaning import short_forms
from bot.parse.configs.model import StackConfig
from bot.parse.configs.training import HANDLERS, TOOL_HANDLERS, tool_of
from bot.parse.configs.yamlish import scalar
from bot.parse.normalize import mask
from bot.parse.regex import rc
from bot.parse.tool_keys import tool_key_not_sized

_VALUE = (
    r"(?P<v>\[[^\]\n]{0,160}\]|(?:true|false|none|null)(?![a-z0-9_])|\d[\d,_]*(?:\.\d+)?(?:e-?\d+)?(?![a-z0-9_.])"
    r"|[a-z][a-z0-9_./\-]*[a-z0-9])"
)
KEY_VALUE_RE = rc(
    r"(?<![a-z0-9_.\-])(?P<dash>--)?(?P<k>[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)*)(?P<sep>\s*[:=]\s*|\s+)" + _VALUE
)
"""'lora_target_linear: true', 'max_samples=1000', '--lora_target all', 'pure_bf16 true'."""

STEP_KEYS = frozenset({"max_steps", "max-steps"})
"""Hugging Face ``TrainingArguments.max_steps`` written in prose ('max_steps 1000', '--max_steps=500'): the
optimizer steps, written back as 'N steps' for :mod:`bot.parse.steps` (steps × micro-batch × accumulation ×
GPUs become the samples; before, named as not sized and no time given: s29 trial #2)."""

LOG_LABELS: dict[str, str] = {
    "num gpus": "",  # Unsloth's banner: the GPU count (written as 'N gpus' for the count rules)
    "num examples": "max_samples",
    "num epochs": "num_train_epochs",
    "instantaneous batch size per device": "per_device_train_batch_size",
    "batch size per device": "per_device_train_batch_size",
    "total train batch size": "train_batch_size",
    "total batch size": "train_batch_size",
    "gradient accumulation steps": "gradient_accumulation_steps",
}
"""A trainer's banner label → the config key it prints (transformers/trainer.py ``_inner_training_loop``)."""
LOG_LABEL_RE = rc(
    r"(?<![a-z])(?P<k>"
    + "|".join(sorted((k.replace(" ", r"\s+") for k in LOG_LABELS), key=len, reverse=True))
    + r")(?:\s*\([^)\n]{0,60}\))?\s*[=:]\s*(?P<v>\d[\d,]*)(?![\d.])"
)
_NOT_HERE = frozenset({"stage", "rl", "deepspeed", "dtype", "optimizer._component_"})
"""Keys the prose rules read with their own context (the stage words, a DeepSpeed file name, a dtype
beside a model), or that need a whole config around them."""
_GATE = re.compile(
    r"[a-z0-9]_[a-z]|--[a-z]|[a-z]\.[a-z]|(?<![a-z])r\s*[:=]\s*\d"
    r"|\b(?:bf16|fp16|optim|optimizer|fsdp|epochs)\s*[:=]|num\s+(?:examples|epochs|gpus)"
    r"|batch\s+size\s+per|accumulation\s+steps|total\s+(?:train\s+)?batch"
)


@dataclass
class Inline:
    """What :func:`read_inline_keys` found: request fields, the accumulation, names, the masked text."""

    s: str
    fields: dict[str, Any] = field(default_factory=dict)
    accumulation: int | None = None
    unused: list[tuple[str, str]] = field(default_factory=list)
    read: list[float] = field(default_factory=list)
    """The numbers of keys a handler used: a field may be computed from them ('--actor_num_nodes 4' ×
    '--actor_num_gpus_per_node 8' = 32 GPUs), so they are read, never left behind (bot.parse.left_behind)."""


def _key(m: re.Match[str]) -> str | None:
    """The handler key a match writes, or None. A space alone separates a key only when it looks like one
    ('--lora_target all', 'pure_bf16 true'), never two words of a sentence ('stage dpo'); after a space a
    word value needs the flag's dashes ('max_seq_length that works' is prose). A nested key may be
    written by its tail ('rollout.n 8': verl's actor_rollout_ref.rollout.n; meaning.short_forms)."""
    key = m.group("k").replace("-", "_")
    key = short_forms().get(key, key)
    if key == "batch_size" and _GLOBAL_BEFORE_RE.search(m.string, 0, m.start()):
        key = "train_batch_size"  # r18: 'global BATCH_SIZE=384': sequences per step (DeepSpeed's key)
    if key == "train_samples":  # round 22: Megatron-LM's --train-samples (TRAIN_SAMPLES=): sequences trained
        key = "max_train_samples"  # over the run, the samples as run_clm.py's key counts them
    if key == "block_size" and _RUN_CLM_RE.search(m.string):
        key = "max_seq_len"  # run_clm.py: group_texts cuts the data into blocks of block_size tokens
    if key not in HANDLERS or key in _NOT_HERE:
        return None
    if key == "dataset" and not _demo_named(m.group("v")):  # 'custom dataset: 8*A800' is prose (s35 #3)
        return None
    spaced = not m.group("sep").strip()
    if spaced and not (m.group("dash") or "_" in key or "." in key):
        return None
    if spaced and not m.group("dash") and m.group("v")[0].isalpha() and m.group("v") not in _WORDS:
        return None
    if m.group("v")[0].isalpha() and _COUNTED_RE.search(m.string, 0, m.start()):
        return None  # '2 epochs: will it fit': the count is before the word, prose (trial s16 #3)
    return key


def _demo_named(value: str) -> bool:
    """Whether a prose ``dataset`` value names LLaMA-Factory demo files only ('alpaca_zh_demo'), the one
    kind of value the key sizes (:mod:`bot.parse.configs.demo_datasets`)."""
    from bot.parse.configs.demo_datasets import DEMO_ROWS, dataset_names

    names = dataset_names(value.rstrip(",，;；"))
    return bool(names) and all(name.lower() in DEMO_ROWS for name in names)


_COUNTED_RE = re.compile(r"\d\s*$")
_GLOBAL_BEFORE_RE = re.compile(r"(?:global|effective|全局)\s*$")
"""A batch key after 'global' ('global BATCH_SIZE=384'): the global batch, not the micro-batch."""


_RUN_CLM_RE = re.compile(r"run_[cm]lm|max_train_samples|nanogpt")
"""transformers' examples/pytorch/language-modeling/run_clm.py (and run_mlm.py, and the copies that keep its
``max_train_samples``): there ``block_size`` is the length of every training sample, the data being
concatenated and cut into blocks of that many tokens (``group_texts``), so it is the sequence length and
the tokens per sample (review s25 item 4). s44 round 40 (en40-016): nanoGPT's too (karpathy/nanoGPT
train.py ``block_size = 1024`` is GPTConfig's context length, the tokens of every sample it draws), with
nanoGPT named. Elsewhere (vLLM's
``--block-size 16``) it is the KV cache's block of tokens, never a sequence length: read as a length only
beside these."""

_WORDS = frozenset({"true", "false", "none", "null"})
_PACK_CUE_RE = re.compile(r"pack|打包|拼接")
"""Sample packing's cue (:mod:`bot.parse.packing_words`; a plain compiled pattern: its search is C)."""


def _keyed(s: str) -> list[tuple[str | None, re.Match[str]]]:
    """Each ``key value`` match with its handler key; a word and a space that are no key ('trl
    reshard_after_forward false') are searched again from the word after them, so the key they
    would hide is read."""
    out, pos = [], 0
    while m := KEY_VALUE_RE.search(s, pos):
        key = _key(m)
        out.append((key, m))
        pos = m.end() if key or m.group("sep").strip() else m.start("v")
    return out


def _value(text: str) -> Any:
    return scalar(text.replace(",", "") if text[0].isdigit() else text)


def _fields(key: str, value: Any, flat: dict[str, Any]) -> StackConfig:
    """What ``key: value`` sets, through the pasted-config handler of ``key``."""
    cfg = StackConfig(tool="inline", format="prose")
    handler = TOOL_HANDLERS.get((tool_of(flat) or "", key)) or HANDLERS[key]  # 'swift rlhf … --max_length'
    if value == "auto":
        cfg.skip(key, value, "auto_value")
    elif not handler(cfg, key, value, flat):
        cfg.skip(key, value, "bad_value")
    return cfg


def read_inline_keys(s: str, taken: dict[str, Any]) -> Inline:
    """The config keys left in the normalized text ``s``. A key whose field the prose read already
    (``taken``) is left to the prose rules, as written (a value changed later, 'cutoff_len 降到 1000')."""
    out = Inline(s)
    if _PACK_CUE_RE.search(s):  # s31: '--packing_samples', '开了 packing', 'without packing'
        from bot.parse.packing_words import packing_said  # imported when used: rare (start-up)

        out.fields["packing"] = packing_said(s)
    if not _GATE.search(s):
        return out
    found: list[tuple[str, Any, int, int]] = []
    for m in LOG_LABEL_RE.finditer(s):
        label, n = re.sub(r"\s+", " ", m.group("k")), int(m.group("v").replace(",", ""))
        if label == "num gpus":  # 'Num GPUs = 2': written as a count the count rules read
            out.s = out.s[: m.start()] + f"{n} gpus".ljust(m.end() - m.start()) + out.s[m.end() :]
        else:
            found.append((LOG_LABELS[label], n, m.start(), m.end()))
    keyed = _keyed(s)
    found += [(k, _value(m.group("v")), m.start(), m.end()) for k, m in keyed if k]
    for m in (m for k, m in keyed if not k and tool_key_not_sized(m)):  # 'learning_rate 2e-5': named
        steps = m.group("v").rstrip(",").replace(",", "")  # '1000，' (a Chinese comma, normalized)
        if m.group("k") in STEP_KEYS and steps.isdigit():  # s29 trial #2: for the steps reader
            out.s = out.s[: m.start()] + f"{steps} steps".ljust(m.end() - m.start()) + out.s[m.end() :]
            continue
        out.unused.append((f"{m.group('k')}: {m.group('v')}", "not_sized"))
        out.s = mask(out.s, m.start(), m.end(), " ")
    flat: dict[str, Any] = {}
    for key, value, _, _ in found:
        flat.setdefault(key, value)  # the first of a key said twice; the other stays for the prose
    given = dict(flat)  # the values a handler reads beside its key, whichever was read first
    for key, value, start, end in found:
        if flat.get(key) is not value:
            continue
        cfg = _fields(key, value, given)
        if any(taken.get(f) is not None and taken[f] != v for f, v in cfg.values.items()):
            if key.endswith("reshard_after_forward"):  # a stated FSDP strategy says otherwise: named
                out.unused.append((f"{key}: {str(value).lower()}", "sharding_conflict"))
                out.s = mask(out.s, start, end, " ")
            continue  # the prose read another value: left to its rules (a value changed later)
        out.fields.update(cfg.values)
        out.accumulation = out.accumulation or cfg.accumulation
        out.unused += list(cfg.unused.items())
        if key in cfg.used and isinstance(value, int | float) and not isinstance(value, bool):
            out.read.append(float(value))
        out.s = mask(out.s, start, end, " ")
        flat[key] = object()  # read once
    return out
