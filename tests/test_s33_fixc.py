"""Session 33, part fixc: findings of the fresh-user trial of the merged tree.

1. One answer, one story also where the serving command is pasted (``--config``) or its memory share is
   stated in prose: TGI ``--cuda-memory-fraction``, vLLM ``--gpu-memory-utilization``, SGLang
   ``--mem-fraction-static``. The headline's GPU count is the detail lines', the JSON's and the price's;
   the KV cache line counts the sequences those GPUs hold (estimator.serving: a raised share re-sized at
   the sequences held when no load is stated; one data-centre GPU answered in FP8 on that GPU where only
   FP8 weights fit it, as several GPUs already were, s28 H2).
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from tests.test_s33_left import HOURS_A_MONTH, _kv_line


def _run(capsys, question: str, config: str | None, fmt: str = "text") -> str:
    extra = ["--config", config] if config else []
    main(["ask", "--format", fmt, *extra, "--", question])
    return capsys.readouterr().out


SERVERS = {
    "tgi": "text-generation-launcher --model-id meta-llama/Meta-Llama-3-8B-Instruct "
    "--cuda-memory-fraction 0.5 --max-total-tokens 8192\n",
    "vllm": "vllm serve Qwen/Qwen2.5-7B-Instruct --gpu-memory-utilization 0.5 --max-model-len 8192\n",
    "sglang": "python -m sglang.launch_server --model-path Qwen/Qwen2.5-7B-Instruct "
    "--mem-fraction-static 0.5 --context-length 8192\n",
}

PASTED = [
    ("tgi", "serve this on one L4"),
    ("tgi", "在一张 L4 上部署这个"),
    ("vllm", "serve this on one L4"),
    ("vllm", "用一张 L4 跑这个服务"),
    ("sglang", "serve this on a single L4"),
    ("sglang", "在一张 L4 上部署这个"),
]

SHARE_STATED = [
    "serve Qwen2.5-7B-Instruct with vLLM, --gpu-memory-utilization 0.5, 8k context, on one L4",
    "用 vLLM 在一张 L4 上部署 Qwen2.5-7B-Instruct，gpu-memory-utilization 0.5，上下文 8k",
    "TGI on one L4, --cuda-memory-fraction 0.5, serving Llama 3 8B at 8k context",
    "用 TGI 在一张 L4 上部署 Llama 3 8B，cuda-memory-fraction 0.5，上下文 8k",
    "SGLang --mem-fraction-static 0.5 on one L4 serving Qwen2.5-7B-Instruct",
    "Qwen2.5-72B on one H200 with vLLM",  # only FP8 weights fit one data-centre GPU
]


def _one_plan(capsys, question: str, config: str | None) -> tuple[dict, str]:
    out = json.loads(_run(capsys, question, config, "json"))
    inf = out["report"]["inference"]
    text = _run(capsys, question, config)
    kv, held = _kv_line(text)
    assert f"({inf['kv_precision']})" in kv or f"（{inf['kv_precision']}）" in kv
    assert held in (None, inf["concurrency"]), kv  # the KV line's load is the JSON's
    assert inf["concurrency"] <= max(1, inf["max_concurrency"])  # never more than the GPUs hold
    assert inf["serving_gpus"] == inf["recommended_gpus"] == inf["tp"] * inf["pp"] * inf["replicas"] == 1
    if inf.get("cost_per_month"):
        low = next(a["value"] for a in out["assumptions"] if a["field"] == "price_per_gpu_hour")
        per_gpu = float(low.split("–")[0]) * HOURS_A_MONTH
        assert round(inf["cost_per_month"]["low"] / per_gpu) == 1  # priced on the one GPU
    first = text.splitlines()[0]
    assert "1 × " in first or "1 张" in first, first
    for line in text.splitlines():  # no other count anywhere: no 2- or 4-GPU layout beside it
        assert not line.startswith(("• On 2 GPUs", "• On 4 GPUs", "• 2 张卡", "• 4 张卡")), line
        assert "sized with TP" not in line and "改按 TP" not in line, line
    return out, text


@pytest.mark.parametrize(("server", "question"), PASTED)
def test_a_pasted_server_command_answers_for_one_gpu_count(capsys, tmp_path, server, question):
    path = tmp_path / f"{server}.sh"
    path.write_text(SERVERS[server])
    out, _ = _one_plan(capsys, question, str(path))
    assert out["request"]["gpu_memory_utilization"] == 0.5


@pytest.mark.parametrize("question", SHARE_STATED)
def test_a_stated_share_answers_for_one_gpu_count(capsys, question):
    _one_plan(capsys, question, None)


def test_tgi_raised_share_holds_the_one_sequence_it_counts(capsys, tmp_path):
    path = tmp_path / "tgi.sh"
    path.write_text(SERVERS["tgi"])
    out, text = _one_plan(capsys, "serve this on one L4", str(path))
    inf = out["report"]["inference"]
    assert out["report"]["feasible_reason"] == "stated_share"
    # 1 L4 at share 0.9: 24 GiB × 0.9 − 16.06 GB − 1.3 GB workspace ≈ 1.1 GiB: one 8K bf16 sequence (1 GiB)
    assert inf["concurrency"] == inf["max_concurrency"] == inf["priced_concurrency"] == 1
    assert inf["kv_bytes_total"] == 128 * 1024 * 8192  # 128 KiB a token × 8K × 1, was × 16 = 17.2 GB
    assert [a["value"] for a in out["assumptions"] if a["field"] == "concurrency"] == [1]
    assert "I assumed 16" not in text


# 2. A Trainer script launched by torchrun and given with --config is no TRL: TrainingArguments' own
# scheduler, logging, saving and evaluation flags name no tool (bot/parse/configs/script_tool)

TRAINER_FLAGS = [
    "--lr_scheduler_type cosine --warmup_ratio 0.03 --logging_steps 1 --save_strategy steps --report_to none",
    "--weight_decay 0.0 --warmup_steps 100 --save_total_limit 2 --seed 42 --tf32 True",
    "--torch_dtype bfloat16 --attn_implementation flash_attention_2 --eval_strategy no",
]


@pytest.mark.parametrize(
    "question", ["full fine-tune on 8 A100 80G, does it fit?", "8 张 A100 80G 全参微调够吗"]
)
@pytest.mark.parametrize("flags", TRAINER_FLAGS)
def test_a_trainer_script_given_as_config_is_pytorch_ddp(capsys, tmp_path, question, flags):
    path = tmp_path / "tr.sh"
    path.write_text(
        f"torchrun --nproc_per_node 8 train.py --model_name_or_path Qwen/Qwen2.5-7B --bf16 True {flags}\n"
    )
    out = json.loads(_run(capsys, question, str(path), "json"))
    assert out["request"]["training_tool"] == "PyTorch DDP"  # as prose reads a plain torchrun line
    first = _run(capsys, question, str(path)).splitlines()[0]
    assert "TRL" not in first and "PyTorch DDP" in first, first


def test_trls_own_flags_still_name_trl_in_a_config(capsys, tmp_path):
    path = tmp_path / "sft.sh"
    path.write_text("torchrun --nproc_per_node 8 sft.py --model_name_or_path Qwen/Qwen2.5-7B --packing True "
                    "--lr_scheduler_type cosine\n")  # fmt: skip
    out = json.loads(_run(capsys, "full fine-tune on 8 A100 80G", str(path), "json"))
    assert out["request"]["training_tool"] == "TRL"  # SFTConfig's --packing is TRL's own


# 3. A time of training steps with no model asks for the model, in the question's language, not the help;
# a step count with no stage word is a fine-tuning run (bot/parse/stage_steps.steps_stage)

ASKS_MODEL = {
    "en": "To size this I need the model: its size or its name",
    "zh": "要估算这个，我需要知道模型：它的大小或名字",
}


@pytest.mark.parametrize(
    ("question", "lang"),
    [
        ("8 张 A100 跑一千步要多久", "zh"),
        ("4 张 4090 跑 2000 步大概多久", "zh"),
        ("8 张 H100 每步多久", "zh"),
        ("how long for 1000 steps on 8 A100?", "en"),
        ("how long does each step take on 4 H100?", "en"),
    ],
)
def test_a_step_time_without_a_model_asks_for_the_model(capsys, question, lang):
    text = _run(capsys, question, None)
    assert text.startswith(ASKS_MODEL[lang]), text[:200]


@pytest.mark.parametrize(
    "question", ["Qwen2.5-7B on 8 A100, how long for 1000 steps?", "Qwen2.5-7B 8 张 A100 跑一千步要多久"]
)
def test_steps_with_a_model_are_timed_as_fine_tuning(capsys, question):
    out = json.loads(_run(capsys, question, None, "json"))
    assert out["request"]["stage"] == "finetune"  # was inference: '跑' / no stage word
    assert out["request"]["tokens"] == 1000 * 128 * 2048  # steps × fine-tuning batch 128 × 2,048 (s33 #2)
    assert out["report"]["gpu_hours"] is not None


# 4. 'max / longest context for …', '最大上下文长度' on stated hardware ask the longest context one sequence
# holds (bot/parse/words.ASKS_CONTEXT_RE); the sizing of that answer under FP8-only weights is left open


@pytest.mark.parametrize(
    "question",
    [
        "max context for Qwen2.5-7B on one L40S with vLLM",
        "longest context for Llama 3 8B on a single A10G?",
        "Qwen2.5-7B 一张 L40S 用 vLLM 最大上下文长度是多少",
        "Llama 3 8B 一张 A10G 最长上下文窗口",
    ],
)
def test_max_context_for_is_read_as_asked(capsys, question):
    out = json.loads(_run(capsys, question, None, "json"))
    assert out["request"]["context_asked"] is True
