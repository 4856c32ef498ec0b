"""A model named only inside a job script's file name (s34-gen2, issue 24: an unknown model keeps its name):
'sh finetune_cogagent_lora.sh', 'python train_foovlm.py', 'bash scripts/sft_minimind_full.sh'.

Projects ship one script a model and job, named job word first ('finetune_', 'train_', 'sft_', 'pretrain_',
'infer_', 'serve_'), then the model, then the method or setup ('_lora', '_ds', '_multi_gpu'). When no other
model is named (the caller, bot.parse.verb_names.job_named_model), the model part is the model the job is
about, named as typed; nothing is sized from it. Never a plain word nor a tool ('train_model.py',
'finetune_lora.sh', 'run_deepspeed.sh', 'train_tokenizer.py'): the part must be a name of four letters or
more that no English word list, method, tool or stage word holds (bot.parse.model_names.plain_name,
bot.parse.uncased_names.english_word). The caller's gate: '.sh' or '.py' in the message."""

from __future__ import annotations

from bot.parse.model_names import Typed, plain_name
from bot.parse.regex import rc
from bot.parse.uncased_names import english_word

SCRIPT_RE = rc(
    r"(?<![a-z0-9])(?:fine[_\-]?tune|finetuning|train|training|sft|pretrain|infer|inference|serve|deploy|eval)"
    r"[_\-](?P<name>[a-z][a-z0-9.]*?[a-z0-9])(?:[_\-][a-z0-9]+)*\.(?:sh|py)(?![a-z0-9])"
)
"""A job script's file name: a job word, the model's part, any setup parts, '.sh' or '.py'."""
NOT_MODEL_PARTS = frozenset((
    "model", "models", "data", "dataset", "datasets", "tokenizer", "reward", "critic", "policy", "actor",
    "script", "demo", "example", "examples", "config", "baseline", "main", "utils", "distributed", "multi",
    "single", "node", "nodes", "gpus", "mnist", "cifar", "imagenet", "full", "lora", "qlora", "deepspeed",
    "fsdp", "megatron", "accelerate", "hf", "clm", "mlm", "seq2seq", "chat", "vision", "text", "image",
))  # fmt: skip
"""Parts of script names that name a setup, a data set or a kind of model, never one model."""


def script_named_model(s: str, typed: Typed) -> tuple[int, int, str] | None:
    """(start, end, name as typed) of the model part of the first job script's name in ``s`` that is a
    name (see the module docstring); None when there is none."""
    for m in SCRIPT_RE.finditer(s):
        name = typed(m.group("name"))
        low = name.lower()
        if low in NOT_MODEL_PARTS or not plain_name(name) or english_word(low):
            continue
        return m.start("name"), m.end("name"), name
    return None
