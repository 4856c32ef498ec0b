"""Readers of a training script named in prose, gated by one C-level cue each (s32, s33).

'torchrun … finetune.py': PyTorch's launcher, plain DDP (:func:`bot.parse.ddp_launch.vocab_ddp`, s32).
'python finetune_hf.py data/ THUDM/chatglm3-6b configs/ptuning_v2.yaml' (s33 verdict2, item d): ChatGLM3's
official fine-tuning script loads the model with ``AutoModelForCausalLM.from_pretrained(model_dir,
trust_remote_code=True, …)`` and no ``torch_dtype`` for every method it runs — PREFIX_TUNING (P-tuning
v2), LORA and full (THUDM/ChatGLM3 finetune_demo/finetune_hf.py ``load_tokenizer_and_model``
@034cc3878b4e3549e484f2525ba8f2565ed95439), and its configs set neither ``fp16`` nor ``bf16``
(finetune_demo/configs/ptuning_v2.yaml @af9be9e0). transformers before v5 then loads the weights in
``torch.get_default_dtype()``, float32 (``PreTrainedModel.from_pretrained``: "torch_dtype … If not
specified, the model will get loaded in torch.float (fp32)"), whatever the checkpoint's own dtype. Read as
precision fp32 (the frozen base at 4 bytes a weight: :attr:`estimator.setup.TrainingSetup.frozen_bytes`),
named among what is used ('script_fp32'), unless the message writes a precision itself
(:data:`bot.parse.precision_words.PRECISION_RE`).
"""

from __future__ import annotations

from typing import Any

from bot.parse.ddp_launch import vocab_ddp
from bot.parse.precision_words import PRECISION_RE
from bot.parse.regex import rc

FP32_SCRIPT_RE = rc(r"(?<![\w./-])(?:[\w.-]+/)*(?P<script>finetune_hf\.py)\b")
"""ChatGLM3's finetune_demo script as a command names it ('python finetune_hf.py', 'demo/finetune_hf.py')."""
GLM_RE = rc(r"chatglm3|glm3|chatglm")
"""The ChatGLM model the script fine-tunes: another repository's 'finetune_hf.py' is not this one."""


def script_reads(out: Any, s: str) -> None:
    """The prose reader's hook (:func:`bot.parse.prose_vocab.read_vocabulary`, called for a training text
    with 'torch' or 'finetune_hf' in it): PyTorch's launcher (:func:`vocab_ddp`) and ChatGLM3's fp32 load
    (:func:`vocab_fp32`)."""
    if "torch" in s:
        vocab_ddp(out, s)
    if "finetune_hf" in s:
        vocab_fp32(out, s)


def vocab_fp32(out: Any, s: str) -> None:
    """``precision`` 'fp32' where the normalized training text ``s`` runs ChatGLM3's finetune_hf.py and
    states no precision; the script is named among what is used (``unused`` reason 'script_fp32')."""
    m = FP32_SCRIPT_RE.search(s)
    if m is None or "precision" in out.fields or GLM_RE.search(s) is None or PRECISION_RE.search(s):
        return  # a precision written anywhere ('bf16', 'fp16=False', 'int4') is the user's own
    out.fields["precision"] = "fp32"
    out.unused.append((f"script: {m.group('script')}", "script_fp32"))
