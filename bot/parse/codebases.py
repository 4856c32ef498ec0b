"""A training codebase named by its repository's name (issue 24, round 13 zh): '用 chatglm_rlhf 训练 Reward
模型', '采用 Pai-Megatron-Patch 微调 Qwen-72B', '复现 Logic-RL 的 7B 模型', 'fine-tuning with my-sft-trainer'.

People run the training code of a paper or a blog as often as a known tool, and name it as its repository is
named: words joined by hyphens or underscores, one of them a training word (``rl``, ``rlhf``, ``grpo``,
``sft``, ``lora``, ``tuning``, ``trainer``, ``patch`` …). Written where a tool is written (after 用 / 使用 /
采用 / 基于 / 借助 / 复现, 'with', 'using', 'via', 'reproduce'), such a name is a training codebase: named as
typed and as not used (``no_field``: the sizing models no codebase's own limits), the job a fine-tuning of a
released model (as :data:`bot.parse.stack_words.FINE_TUNING_TOOLS` are), never a model of that name nor the
known tool inside its name ('Pai-Megatron-Patch' is Alibaba's codebase over Megatron, not Megatron-LM itself).

Not a codebase: a name with a size ('qwen2-7b-grpo' is a model made with GRPO), a name the tool table has
('llama-factory', 'ms-swift': :data:`bot.parse.stack_words.TRAINING_TOOLS`), a config key ('lora_rank',
'zero_stage': written after no tool verb, and each such key is one of the parts listed in
:data:`KEY_PARTS`).
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

TRAINING_PARTS = (
    "rl", "rlhf", "rlaif", "grpo", "ppo", "dpo", "sft", "lora", "qlora", "tuning", "tune", "finetune",
    "finetuning", "train", "trainer", "training", "patch", "align", "alignment", "recipes",
)  # fmt: skip
"""Words a training codebase's name holds (the repositories of rounds 1–13: chatglm_rlhf, Logic-RL,
ChatGLM-Efficient-Tuning, Chatglm_lora_multi-gpu, Pai-Megatron-Patch, simple_GRPO, mistral-finetune …). Not
'r1': 'deepseek-r1' is a model, and the R1 reproductions are the tool table's (written as one word first)."""

KEY_PARTS = frozenset((
    "r", "rank", "alpha", "dropout", "target", "targets", "modules", "stage", "type", "size", "steps",
    "len", "length", "epochs", "lr", "rate", "ratio", "bit", "bits", "4bit", "8bit", "num", "config",
))  # fmt: skip
"""Last parts of config keys ('lora_rank', 'zero_stage', 'sft_type', 'train_batch_size'): a key, no name."""

METHOD_WORDS = frozenset((*TRAINING_PARTS, "peft", "full", "adapter", "adapters", "hf", "zero"))
"""A name of method words only ('peft-lora', 'sft-lora', 'lora-sft') describes a method, not a codebase."""

_PART = "|".join(TRAINING_PARTS)
CODE_WORDS = (
    r"\s*(?:的\s*)?(?:官方\s*)?(?:示例|样例|训练)?\s*(?:代码|脚本|仓库|框架)"
    r"|'s\s+(?:example\s+)?(?:code|scripts?|repo)\b"
)
"""Words after a codebase's name that call it code (round 24 zh: '我看 Pai-Megatron-Patch 的示例代码写的是
bf16'; 'X's example scripts'): a name so followed is a codebase with no tool verb before it."""

OWNED_CODE = r"'s\s+(?:fine-?tuning|finetune|training|sft)\s+(?:code|scripts?|recipes?|repo)\b"
"""Round 27 en: a training job's code owned by a repository ('using Llama-X's fine-tuning code'): the name
before it is a codebase though no training word is in it (hyphen- or underscore-joined, as repositories
are named; a bare word such as "Meta's training code" names a maker, not a codebase)."""

CODEBASE_RE = rc(
    r"(?:(?P<verb>用|使用|采用|基于|借助|通过|复现|\bwith|\busing|\bvia|\breproduc(?:e|ing))\s*(?:the\s+)?"
    r"|(?<![a-z0-9\-_]))"
    rf"(?P<name>[a-z][a-z0-9]*(?:[\-_][a-z0-9]+)*[\-_](?:{_PART})(?:[\-_][a-z0-9]+)*"
    rf"|(?:{_PART})(?:[\-_][a-z0-9]+)+)(?![a-z0-9\-_.])(?(verb)|(?={CODE_WORDS}))"
    rf"|(?<![a-z0-9\-_.])(?P<owner>[a-z][a-z0-9]*(?:[\-_][a-z0-9]+)+)(?={OWNED_CODE})"
)
"""A hyphen- or underscore-joined name with a training word, right after a tool verb or right before words
that call it code (:data:`CODE_WORDS`; see the module docstring). One compiled search: the gate at each call
site. Every match holds '-' or '_' (each branch joins its words by one): the call sites test those two
characters first (s34: the search, ~9 µs a corpus message, tries every word start of a text without one)."""

_SIZE_PART = re.compile(r"\d+(?:\.\d+)?[bmk]|\d+x\d+b?")


def codebase_spans(s: str) -> list[tuple[int, int, str]]:
    """(start, end, name) of each training codebase the normalized text ``s`` names (module docstring).
    Callers search :data:`CODEBASE_RE` first (the gate)."""
    out = []
    for m in CODEBASE_RE.finditer(s):
        name = m.group("name") or m.group("owner")
        parts = re.split(r"[\-_]", name)
        if (
            parts[-1] in KEY_PARTS
            or any(_SIZE_PART.fullmatch(p) for p in parts)
            or METHOD_WORDS.issuperset(parts)
        ):
            continue
        group = "name" if m.group("name") else "owner"
        out.append((m.start(group), m.end(group), name))
    return out


RL_PARTS = frozenset(("rl", "rlhf", "rlaif", "grpo", "ppo"))
"""Parts that make a codebase an RL one (its vLLM, when named, is the rollout engine)."""


def rl_codebase(name: str) -> bool:
    """Whether the codebase ``name`` (as :func:`codebase_spans` gives it) is an RL post-training one."""
    return not RL_PARTS.isdisjoint(re.split(r"[\-_]", name))


GLUED_SUFFIXES = ("tune", "tuner", "trainer", "rlhf")
"""Training words a codebase's name ends with glued, no '-' or '_' between (s41-workmiss, issue 24 item 4:
'fine-tuned with mpttune', 'a full fine-tune with SlimTrainer', '用 mpttune 微调'): the cue each such name
holds, so a message without one skips the search."""
GLUED_RE = rc(
    r"(?:用|使用|采用|基于|借助|通过|\bwith|\busing|\bvia)\s*(?:the\s+)?"
    r"(?P<name>[a-z][a-z0-9]+(?:tune|tuner|trainer|rlhf))(?![a-z0-9\-_.])"
)
"""A one-word name that ends with a training word (:data:`GLUED_SUFFIXES`), right after a tool verb: a
training codebase named as typed, as the joined names of :data:`CODEBASE_RE` are."""
NOT_GLUED = frozenset(
    ("finetune", "pretune", "retune", "autotune", "seq2seqtrainer", "hftrainer", "customtrainer", "mytrainer",
     "sfttrainer", "dpotrainer", "grpotrainer", "ppotrainer", "rloortrainer", "rewardtrainer", "orpotrainer",
     "ktotrainer", "cpotrainer", "basetrainer", "opentrainer")
)  # fmt: skip
"""Words of that form that name no codebase: a verb ('retune', 'autotune'), the base ``Trainer`` class of
Hugging Face or one of TRL's trainer classes (trl/trainer/*_trainer.py: SFTTrainer, DPOTrainer …), a
generic 'my trainer' run together."""


def glued_codebases(s: str) -> list[tuple[int, int, str]]:
    """(start, end, name) of each training codebase the normalized text ``s`` names in one glued word after a
    tool verb (:data:`GLUED_RE`); callers test :data:`GLUED_SUFFIXES` in ``s`` first (the gate)."""
    return [
        (m.start("name"), m.end("name"), m.group("name"))
        for m in GLUED_RE.finditer(s)
        if m.group("name") not in NOT_GLUED
    ]
