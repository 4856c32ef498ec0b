"""Session 34, verdicts against real runs ("fits" said of runs that ran out of memory): DeepSpeed-Chat
step 1's own defaults where the message states none (:func:`bot.parse.script_reads.vocab_dschat`).

DeepSpeedExamples applications/DeepSpeed-Chat/training/step1_supervised_finetuning/main.py ``parse_args``:
``--per_device_train_batch_size`` default 16, ``--max_seq_len`` default 512, ``--gradient_checkpointing``
``action='store_true'`` (off unless passed); its launch scripts set none of them
(training_scripts/opt/single_gpu/run_1.3b.sh). Sized before at micro-batch 1 × 2,048 tokens (OPT's own
context) with the search's selective recompute, the one-GPU run "fits"; at the script's 16 × 512 with
every activation kept it does not.

Hand-worked for facebook/opt-1.3b (catalog: 1.3e9 parameters, vocabulary 50,272) on one A100 40GB:
weights 2 B × 1.3e9 = 2.6e9; AdamW with fp32 master weights 12 B × 1.3e9 = 15.6e9 (ZeRO §3, K = 12); the
fp32 loss over the vocabulary at 12 bytes a logit (estimator.transients.FP32_LOSS_BYTES_PER_LOGIT, likely:
bf16 logits 2 + fp32 copy 4 + fp32 log-softmax 4 + its gradient's share) for 16 × 512 tokens:
16 × 512 × 50,272 × 12 = 4,941,938,688 bytes.
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from tests.test_verdict_outcomes import _verdict_at_asked

PARAMS = 1.3e9
VOCAB = 50_272
LOGITS = 16 * 512 * VOCAB
assert LOGITS == 411_828_224
LOSS_BYTES = 12 * LOGITS
assert LOSS_BYTES == 4_941_938_688


def _ask(capsys, question: str, fmt: str = "json") -> dict | str:
    main(["ask", "--format", fmt, "--", question])
    out = capsys.readouterr().out
    return json.loads(out) if fmt == "json" else out


READ = [
    "DeepSpeed-Chat step 1 with facebook/opt-1.3b on a single A100 40G runs out of memory: how much memory "
    "does the 1.3b need?",
    "用 DeepSpeed-Chat 第一步 SFT 微调 opt-1.3b，单卡 A100 40G 显存不够，需要多少显存？",
    "Step 1 of DeepSpeed Chat (supervised fine-tuning) of OPT-1.3B on one A100 40GB: does it fit?",
]


@pytest.mark.parametrize("question", READ)
def test_deepspeed_chat_step1_is_sized_at_its_main_py_defaults(capsys, question):
    answer = _ask(capsys, question)
    req = answer["request"]
    assert (req["batch_size"], req["seq_len"], req["recompute"]) == (16, 512, "none")
    ignored = answer["interpretation"]["ignored"]
    assert {"text": "script: DeepSpeed-Chat step 1 main.py", "reason": "script_defaults"} in ignored
    memory = answer["report"]["memory"]
    assert memory["min_plan"]["micro_batch"] == 16 and memory["min_plan"]["recompute"] == "none"
    assert memory["breakdown"]["logits"] == LOSS_BYTES
    assert memory["breakdown"]["weights"] == 2 * PARAMS == 2_600_000_000
    assert answer["request"]["gpu_count"] == 1 and _verdict_at_asked(answer["report"]) == "no"


@pytest.mark.parametrize("question", READ[:2])
def test_the_defaults_are_named_in_both_languages(capsys, question):
    text = _ask(capsys, question, "text")
    assert "per_device_train_batch_size 16" in text and "max_seq_len 512" in text
    assert ("默认值" if question.startswith("用") else "step-1 main.py defaults") in text


NOT_READ = [
    # a batch, a length or checkpointing the message states itself: none of the defaults
    "DeepSpeed-Chat step 1 with facebook/opt-1.3b, --per_device_train_batch_size 4 --max_seq_len 512, on a "
    "single A100 40G: memory?",
    "DeepSpeed-Chat step 1, opt-1.3b, --gradient_checkpointing, one A100 40G: does it fit?",
    "DeepSpeed-Chat 第一步 微调 opt-1.3b，上下文 1024，单卡 A100 40G 够吗？",
    # step 3 (PPO) has other scripts and defaults; DeepSpeed alone is not DeepSpeed-Chat
    "DeepSpeed-Chat step 3 PPO with opt-1.3b actor and opt-350m critic on one A100 40G: memory?",
    "Full fine-tune opt-1.3b with DeepSpeed ZeRO-2, step 1 of my plan, on one A100 40G: does it fit?",
]


@pytest.mark.parametrize("question", NOT_READ)
def test_stated_settings_other_steps_and_plain_deepspeed_keep_their_own(capsys, question):
    answer = _ask(capsys, question)
    assert all(i["reason"] != "script_defaults" for i in answer["interpretation"]["ignored"])
    assert answer["request"]["batch_size"] != 16
