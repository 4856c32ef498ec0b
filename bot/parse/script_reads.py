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
'DeepSpeed-Chat step 1 with facebook/opt-1.3b OOMs' (s34 verdict): DeepSpeed-Chat's step-1 script
(DeepSpeedExamples applications/DeepSpeed-Chat/training/step1_supervised_finetuning/main.py ``parse_args``)
defaults to ``--per_device_train_batch_size 16`` and ``--max_seq_len 512``, and turns gradient
checkpointing on only with ``--gradient_checkpointing`` (``action='store_true'``); its launch scripts set
none of these (training_scripts/opt/single_gpu/run_1.3b.sh: ``--gradient_accumulation_steps 8 --lora_dim
128 --zero_stage $ZERO_STAGE``). A message naming that step and stating no batch, length nor checkpointing
is sized at those defaults — micro-batch 16 × 512 tokens, activations kept — named among what is used
('script_defaults'); anything of them the message writes leaves all three to it.
DeepSpeed-Chat's step 3 (s48 verdict, issue 24 items 3–4): its engine loads four models on every GPU — the
actor, a reference, the critic and the reward model (DeepSpeedExamples applications/DeepSpeed-Chat
dschat/rlhf/rlhf_engine.py ``DeepSpeedRLHFEngine.__init__`` @144e9137: ``self.ref =
self._init_ref(actor_model_name_or_path=…)``, a second ``create_hf_model`` of the actor's checkpoint), and
``convert_linear_layer_to_lora`` is applied to the actor alone (``_init_actor``: ``if
self.args.actor_lora_dim > 0``): with LoRA the reference is a whole copy of the base, not the base with its
adapters switched off as TRL's PEFT path runs it. A message naming that step (or PPO / RLHF with
DeepSpeed-Chat) is read as ``reference_copy``, named among what is used ('script_reference'), unless it
offloads the reference (``--offload_reference_model``: the copy then sits in host memory).
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
DSCHAT_STEP1_RE = rc(
    r"deepspeed[\s\-_]*chat\b.{0,40}?(?:step[\s\-_]*1\b|第\s*(?:1|一)\s*步|sft\b|supervised|监督)"
    r"|(?:step[\s\-_]*1\b|第\s*(?:1|一)\s*步).{0,40}?deepspeed[\s\-_]*chat\b"
)
"""DeepSpeed-Chat's step 1 as people name it ('DeepSpeed-Chat step 1', 'deepspeed chat 的第一步 SFT',
'step1 of DeepSpeed-Chat'); step 2 (the reward model, pairs) and step 3 (PPO) have other scripts."""
DSCHAT_LATER_RE = rc(
    r"step[\s\-_]*[23]\b|第\s*(?:2|3|二|三)\s*步|\bppo\b|reward|critic|\bactor\b|奖励|评论|价值模型"
)
"""A later step named anywhere in the message: step 2 (the reward model: step2_reward_model_finetuning) or
step 3 (PPO: step3_rlhf_finetuning, its ``--actor_model_name_or_path`` / ``--critic_model_name_or_path``);
their own scripts have other defaults, so step 1's are not applied (s34 fixe)."""
DSCHAT_OWN_RE = rc(
    r"batch|\bseq|\blen(?:gth)?\b|max_len|checkpoint|context|\btokens?\b|上下文|长度|批|\d\s*k\b"
)
"""Words of a batch, a length or checkpointing the message states itself: then none of the defaults."""
DSCHAT_STEP1_DEFAULTS = {"batch_size": 16, "seq_len": 512, "recompute": "none"}
"""step1_supervised_finetuning/main.py: ``--per_device_train_batch_size`` 16, ``--max_seq_len`` 512,
``--gradient_checkpointing`` off (store_true)."""


DSCHAT_STEP3_RE = rc(
    r"deepspeed[\s\-_]*chat\b.{0,60}?(?:step[\s\-_]*3\b|第\s*(?:3|三)\s*步|\bppo\b|\brlhf\b)"
    r"|(?:step[\s\-_]*3\b|第\s*(?:3|三)\s*步|\bppo\b|\brlhf\b).{0,60}?deepspeed[\s\-_]*chat\b"
)
"""DeepSpeed-Chat's step 3 as people name it ('DeepSpeed-Chat step 3 (PPO)', 'deepspeed-chat 第三步',
'RLHF with DeepSpeed-Chat'); step 1 (SFT) and step 2 (the reward model) train one model."""
DSCHAT = "DeepSpeed-Chat"
"""The tool as bot.parse.stack_words names it."""
TOOL_READ = {"script_defaults": DSCHAT, "script_reference": DSCHAT}
"""A script read's reason → the tool whose script it reads: that tool named beside it ('training_tool:
DeepSpeed-Chat', ``no_field``) is used through the script (bot.core.interpretation, s48 review B4)."""


def script_reads(out: Any, s: str) -> None:
    """The prose reader's hook (:func:`bot.parse.prose_vocab.read_vocabulary`, called for a training text
    with 'torch', 'finetune_hf' or 'deepspeed' in it): PyTorch's launcher (:func:`vocab_ddp`), ChatGLM3's
    fp32 load (:func:`vocab_fp32`) and DeepSpeed-Chat step 1's defaults (:func:`vocab_dschat`)."""
    if "torch" in s:
        vocab_ddp(out, s)
    if "finetune_hf" in s:
        vocab_fp32(out, s)
    if "chat" in s:
        vocab_dschat(out, s)
        vocab_dschat_reference(out, s)


def vocab_dschat_reference(out: Any, s: str) -> None:
    """``reference_copy`` where the normalized training text ``s`` runs DeepSpeed-Chat's step 3
    (:data:`DSCHAT_STEP3_RE`) and does not offload its reference model; named among what is used
    (``unused`` reason 'script_reference')."""
    if "deepspeed" not in s or DSCHAT_STEP3_RE.search(s) is None:
        return
    from bot.parse.dschat_critic import critic_flags  # DeepSpeed-Chat step 3 only (s49 leftovers #3)

    critic_flags(out)
    if "offload_reference" in s:
        return
    out.fields.setdefault("reference_copy", True)
    out.unused.append((f"script: {DSCHAT} step 3", "script_reference"))


def vocab_dschat(out: Any, s: str) -> None:
    """DeepSpeed-Chat step 1's ``main.py`` defaults (:data:`DSCHAT_STEP1_DEFAULTS`) where the normalized
    training text ``s`` names that step and states no batch, length nor checkpointing; named among what
    is used (``unused`` reason 'script_defaults')."""
    if DSCHAT_STEP1_RE.search(s) is None or DSCHAT_OWN_RE.search(s) or "deepspeed" not in s:
        return
    if DSCHAT_LATER_RE.search(s):  # 'after step 1 finished, step 3 PPO …': not step 1's main.py
        return
    if any(k in out.fields for k in DSCHAT_STEP1_DEFAULTS):
        return
    out.fields.update(DSCHAT_STEP1_DEFAULTS)
    out.unused.append((f"script: {DSCHAT} step 1 main.py", "script_defaults"))


def vocab_fp32(out: Any, s: str) -> None:
    """``precision`` 'fp32' where the normalized training text ``s`` runs ChatGLM3's finetune_hf.py and
    states no precision; the script is named among what is used (``unused`` reason 'script_fp32')."""
    m = FP32_SCRIPT_RE.search(s)
    if m is None or "precision" in out.fields or GLM_RE.search(s) is None or PRECISION_RE.search(s):
        return  # a precision written anywhere ('bf16', 'fp16=False', 'int4') is the user's own
    out.fields["precision"] = "fp32"
    out.unused.append((f"script: {m.group('script')}", "script_fp32"))
