"""A launched script that generates text, not one that trains (round 28 en, issue 24): 'torchrun
--nproc_per_node 1 example_text_completion.py --ckpt_dir llama-2-7b/ --max_seq_len 128 --max_batch_size 4',
'python generate.py …', 'torchrun run_inference.py …'.

A command read by :func:`bot.parse.configs.launch_line.read_launch` is a training command: its stage is
implied ``finetune`` and a bare PyTorch launch is plain DDP (:mod:`bot.parse.ddp_launch`). Before, Meta's own
reference scripts for Llama (``example_text_completion.py`` / ``example_chat_completion.py``, launched with
``torchrun``) were sized as a fine-tuning run with DDP. A script whose file name says it generates, infers,
completes, chats or serves — and says nothing of training — is a serving job: stage ``inference``, and the
generator's two capacities are read as what they allocate (meta-llama/llama ``llama/generation.py``
``Llama.build(max_seq_len, max_batch_size)``: the KV cache holds ``max_batch_size`` sequences of up to
``max_seq_len`` tokens) — ``--max_seq_len`` the context sized (``max_model_len``), ``--max_batch_size`` the
sequences served at once (``concurrency``), as TensorRT-LLM's flags of the same names are read
(:data:`bot.parse.configs.meaning`). Such a script runs the model's PyTorch code at its released precision,
eagerly, as Hugging Face's ``generate`` does: the runtime sized is ``transformers`` unless the message names
another (an implied value, :func:`bot.parse.configs.merge.with_stack`) — before, a personal card's default,
llama.cpp with quantized weights, said 'fits' of a 7B whose fp16 run had run out of memory on 12 GB.

Gated at the call site: only a command read with the PyTorch launcher's vocabulary (``torchrun``, its
``torch.distributed`` forms).
"""

from __future__ import annotations

import re
from typing import Any

SCRIPT_RE = re.compile(r"(?<![\w./\-])(?:[\w.\-]+/)*(?P<name>[\w.\-]+)\.py\b")
"""The file name of a Python script in a command ('example_text_completion.py', 'scripts/generate.py')."""
INFER_NAME_RE = re.compile(
    r"(?:^|[_\-.])(?:infer(?:ence)?|generat(?:e|ion)|completions?|chat|predict(?:ion)?|serve|server|demo)"
    r"(?:$|[_\-.])",
    re.IGNORECASE,
)
"""Words of a script that generates ('example_chat_completion', 'generate', 'run_inference', 'chat_demo')."""
TRAIN_NAME_RE = re.compile(r"train|tun(?:e|ing)|sft|dpo|ppo|grpo|rlhf|lora|pretrain|distill", re.IGNORECASE)
"""Words of a script that trains ('train_chat.py', 'finetune_generation.py', 'sft_chat.py'): never serving."""
GENERATOR_FLAG_RE = re.compile(r"--(?:max_batch_size|max_gen_len)\b")
"""Flags only a generator takes (meta-llama/llama ``example.py``: ``Llama.build(max_seq_len,
max_batch_size)``, ``generate(max_gen_len)``); a trainer's batch flag is another ('--micro_batch_size')."""


TRAINING_WORDS_RE = re.compile(
    r"(?<![\w/.-])(?:fine[\s-]?tun(?:e|es|ed|ing)|finetun(?:e|es|ed|ing)|q?lora|sft|epochs?"
    r"|train(?:s|ed|ing)?(?!\s*(?:data|sets?|samples|examples|corpus|split)\b))(?![\w./-])"
    r"|tokens? to train|微调|训练(?!数据|集|样本|语料)",
    re.IGNORECASE,
)
"""A training job stated in the message ('then finetune Llama-2-7B with LoRA', 'SFT for 3 epochs', '再微调'):
the generating script is then one step of the user's pipeline, and the stage stays training (s34 fixe).
Not a flag or path ('--lora_weights', 'data/train.jsonl') nor the data a generator writes ('training data',
'训练数据')."""


def inference_script(text: str) -> str | None:
    """The file name (without '.py') of the first script in ``text`` that generates (see the module
    docstring), or None when the first script named trains or says neither."""
    m = SCRIPT_RE.search(text)
    if m is None:
        return None
    name = m.group("name")
    if TRAIN_NAME_RE.search(name):
        return None
    # s37 round 33: a script whose name says neither ('example.py', LLaMA 1's) generates when its flags are
    # only a generator's ('--max_batch_size', '--max_gen_len'; meta-llama/llama example.py and generation.py)
    return name if INFER_NAME_RE.search(name) or GENERATOR_FLAG_RE.search(text, m.end()) else None


def read_inference_launch(cfg: Any, text: str) -> bool:
    """Make ``cfg`` (a launch read as training) the serving job its script is, when
    :func:`inference_script` finds one in ``text``; True when it did."""
    if inference_script(text) is None or TRAINING_WORDS_RE.search(text):
        return False
    cfg.implied.pop("stage", None)
    cfg.values["stage"] = "inference"
    cfg.implied.setdefault("runtime", "transformers")  # PyTorch model code at the release precision
    if cfg.used.get("max_seq_len") == "seq_len" and "max_model_len" not in cfg.values:
        cfg.values["max_model_len"] = cfg.values["seq_len"]  # the KV cache's length (module docstring)
    for item in [k for k in cfg.unused if k.lstrip("-").startswith("max_batch_size: ")]:
        key, _, value = item.partition(": ")
        value = value.rstrip("?!.,;")  # s37: the flag ends the question ('--max_batch_size=12?')
        if value.isdigit() and int(value) > 0:
            del cfg.unused[item]
            cfg.set(key, "concurrency", int(value))
    return True
