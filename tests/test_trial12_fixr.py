"""s12 trial (fresh user) fixes A11, A12 and B3, asserted through ``sizing-bot ask --format json``.

A11. Gradient checkpointing the user states costs one more forward pass per token at every GPU count
     ((k + 2) / k of the compute, Korthikanti et al. 2022 §5): the GPU-hours, the cost and every row of
     the GPUs → days table pay it. It read "129 A100-hours: one GPU for 8 days" (129 h is 5.4 days) and
     the 2-GPU row dropped the stated recompute (2.7 days: a 3× speed-up from 1 to 2 GPUs).
A12. A budget per day rents GPUs at the headline's GPU-hours (472, not the 354 before recomputation) and
     never fewer GPUs than hold the model (it said "4 – 10 cards" where 8 are needed).
B3.  The bot's own LLaMA-Factory recipe says which ZeRO stage its ``ds_config.json`` holds
     ("# ds_config.json: ZeRO-3"), and pasted back the reader uses it: no "no setting" for the
     ``deepspeed:`` line, no warning that the YAML runs without DeepSpeed. The measured-MFU note names
     the FLOPs per token it converted at (4·N for LoRA, not 6·N).
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def ask(capsys, *args: str) -> dict:
    capsys.readouterr()
    assert main(["ask", "--format", "json", *args]) == 0
    return json.loads(capsys.readouterr().out)


CHECKPOINTING = [
    "LoRA Qwen2.5-14B rank 32, ZeRO-2, 8192-token sequences, 40000 samples, 3 epochs, "
    "gradient checkpointing on",
    "LoRA 微调 Qwen2.5-14B，秩 32，ZeRO-2，序列长度 8192，4 万条样本，3 个 epoch，开梯度检查点",
]


@pytest.mark.parametrize("question", CHECKPOINTING)
def test_stated_checkpointing_is_paid_in_the_hours_and_every_row(capsys, question) -> None:
    out = ask(capsys, question)
    assert out["request"]["recompute"] == "full"
    report = out["report"]
    hours = report["gpu_hours"]["likely"]
    assert hours == pytest.approx(193.0, abs=0.5)  # 128.7 A100-hours at 40 % MFU × 1.5 (k = 4); was 129
    rows = {r["gpus"]: r["likely"] for r in report["days_table"]}
    assert rows[1] == pytest.approx(hours / 24, rel=1e-6)  # 8.04 days: the hours on one GPU
    assert rows[2] == pytest.approx(hours / 48, rel=1e-6)  # 4.02 days, was 2.7 (recompute dropped)
    assert report["mfu"]["likely"] == pytest.approx(0.40 / 1.5, rel=1e-3)
    codes = {a["field"]: a for a in out["assumptions"]}
    assert codes["recompute_time"]["why"] == "recompute_time_stated"
    assert "recompute_time_fewest" not in codes


def test_the_pasted_yaml_with_checkpointing_agrees_too(capsys, tmp_path) -> None:
    config = tmp_path / "lf.yaml"
    config.write_text(
        "model_name_or_path: Qwen/Qwen2.5-14B-Instruct\nstage: sft\ndo_train: true\nfinetuning_type: lora\n"
        "lora_rank: 32\nlora_target: q_proj,v_proj\ndeepspeed: examples/deepspeed/ds_z2_config.json\n"
        "cutoff_len: 8192\nmax_samples: 40000\nper_device_train_batch_size: 2\n"
        "gradient_accumulation_steps: 16\nnum_train_epochs: 3.0\nbf16: true\ngradient_checkpointing: true\n"
    )
    out = ask(capsys, "--config", str(config))
    report = out["report"]
    hours = report["gpu_hours"]["likely"]
    assert hours == pytest.approx(193.0, abs=0.5)
    assert report["days_table"][0]["gpus"] == 1 and report["days_table"][0]["likely"] == pytest.approx(
        hours / 24
    )
    assert "193 A100-hours: one GPU for 8 days" in out["reply"]


DAILY = [
    "我们 2机8卡 A800，想全量微调 Qwen2.5-32B，样本大概 5 万条，每条几千 token，3 个 epoch，"
    "用 ZeRO-3 加梯度检查点。预算每天 3000 元，要跑几天？",
    "Two nodes of 8 A800 each. Full fine-tune Qwen2.5-32B on 50k samples of about 5,000 tokens each, "
    "3 epochs, ZeRO-3 with gradient checkpointing. Our budget is 3000 yuan per day. How many days?",
]


@pytest.mark.parametrize("question", DAILY)
def test_a_daily_budget_rents_enough_gpus_at_the_headline_hours(capsys, question) -> None:
    out = ask(capsys, question)
    report = out["report"]
    assert report["memory"]["min_gpus"] == 8
    (note,) = [w for w in report["warnings"] if w["code"] == "daily_budget"]
    p = note["params"]
    assert p["gpu_hours"] == report["cost"]["billed_gpu_hours"] == 472  # was 354 (before recomputation)
    assert p["gpus_low"] == 8 and p["gpus_high"] == 10  # was 4 – 10: 4 A800 do not hold the model
    assert p["price_cap"] == pytest.approx(3000 / 24 / 8)  # ¥15.62: the most 8 cards may cost a day's budget
    assert (p["price_low"], p["price_high"]) == (
        12,
        28,
    )  # the catalog's range, kept beside the cap (s13 review 14)
    assert p["hours_low"] == pytest.approx(47.2) and p["hours_high"] == pytest.approx(59.0)


FEW = [
    (
        "全量微调 Qwen2.5-32B，A800，7.5亿 token，ZeRO-3 加梯度检查点。预算每天 1000 元，要跑几天？",
        "最多同时全天租 3 张卡",
    ),
    (
        "Full fine-tune Qwen2.5-32B on A800, 750M tokens, ZeRO-3 with gradient checkpointing. "
        "Budget 1000 yuan per day. How many days?",
        "rents at most 3 GPUs around the clock",
    ),
]


@pytest.mark.parametrize(("question", "words"), FEW)
def test_a_daily_budget_that_rents_too_few_gpus_says_so(capsys, question, words) -> None:
    out = ask(capsys, question)
    (note,) = [w for w in out["report"]["warnings"] if w["code"].startswith("daily_budget")]
    assert note["code"] == "daily_budget_few"  # was daily_budget: "rents 1 – 3 cards" that cannot hold it
    assert note["params"]["gpus_high"] == 3 and note["params"]["min_gpus"] == 8
    assert words in out["reply"] and "8" in out["reply"]


RECIPE = [  # s43 fixverdict #1: on 2 cards the plan is TP 2 now (ZeRO-3 was borderline, 80.3 GiB high)
    (
        "LoRA Qwen2.5-14B on 4 A100 80GB, 4k context, 200M tokens",
        "I ran the bot's recipe below on 4 A100 80GB and it reports 4,200 tokens/s per GPU. "
        "How long for 200M tokens?",
        "(4·N per token)",
    ),
    (
        "用 4 张 A100 80GB LoRA 微调 Qwen2.5-14B，4k 上下文，2 亿 token",
        "我按下面这份配置在 4 张 A100 80GB 上跑了，每卡吞吐 4200 tokens/s。训练 2亿 token 要多久？",
        "（每 token 4·N）",
    ),
]


@pytest.mark.parametrize(("first", "second", "k_words"), RECIPE)
def test_the_bots_own_llamafactory_recipe_pasted_back_keeps_its_zero_stage(
    capsys, first, second, k_words
) -> None:
    capsys.readouterr()
    assert main(["ask", "--recipe", "llamafactory", first]) == 0
    text = capsys.readouterr().out
    yaml = text.split("```yaml\n", 1)[1].split("```", 1)[0]
    assert "deepspeed: ds_config.json\n# ds_config.json: ZeRO-3\n" in yaml
    out = ask(capsys, second + "\n" + yaml)
    assert out["request"]["zero_stage"] == 3
    assert not [u for u in out["stack_config"]["unused"] if u.startswith("deepspeed:")]
    assert not [w for w in out["report"]["warnings"] if "deepspeed" in json.dumps(w).lower()]
    (mfu,) = [w for w in out["report"]["warnings"] if w["code"] == "measured_mfu_unusual"]
    assert mfu["params"]["k"] == 4  # 4,200 tokens/s × 4 × 14.7B = 247 TFLOPS: LoRA's 4·N
    assert k_words in out["reply"]


# D1. A card not in the catalog, sized by its memory: the unit was doubled ("48 GiB (51.5 GB) GiB").
UNKNOWN_CARD = [
    ("serve Qwen2.5-7B on 2 Biren BR104 48GB, 10 users", "sized as a 48 GiB (51.5 GB) card by memory alone"),
    ("用 2 张 MLU370 48G 部署 Qwen2.5-7B，10 个用户", "只按 48 GiB (51.5 GB) 显存估算"),
]


@pytest.mark.parametrize(("question", "words"), UNKNOWN_CARD)
def test_an_unknown_cards_memory_is_said_with_one_unit(capsys, question, words) -> None:
    out = ask(capsys, question)
    assert words in out["reply"]
    assert "GB) GiB" not in out["reply"]


# D2. "DeepSpeed" in the prose beside a pasted DeepSpeed config: listed as used and as not used.
DEEPSPEED_PROSE = [
    "用这个 DeepSpeed 配置全量微调 Qwen2.5-7B，4 张 4090，1 亿 token，要多久？",
    "Full fine-tune Qwen2.5-7B with this DeepSpeed config on 4 RTX 4090, 100M tokens. How long?",
]


@pytest.mark.parametrize("question", DEEPSPEED_PROSE)
def test_a_tool_used_through_its_config_is_not_also_not_used(capsys, tmp_path, question) -> None:
    config = tmp_path / "ds.json"
    config.write_text(
        json.dumps(
            {
                "train_batch_size": "auto",
                "train_micro_batch_size_per_gpu": 4,
                "gradient_accumulation_steps": 8,
                "bf16": {"enabled": True},
                "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu", "pin_memory": True}},
            }
        )
    )
    out = ask(capsys, "--config", str(config), question)
    tool = [i["reason"] for i in out["interpretation"]["ignored"] if i["text"] == "training_tool: DeepSpeed"]
    assert tool == ["settings_applied"]  # was ["no_field", "settings_applied"]
    assert out["request"]["zero_stage"] == 3 and out["request"]["offload"] is True
    # s23: a Chinese reply says the field by its label ('训练框架：DeepSpeed'); s24 trial #18: an English one
    # too ('training framework: DeepSpeed', no longer the key 'training_tool')
    said = out["reply"].count("training framework: DeepSpeed") + out["reply"].count("训练框架：DeepSpeed")
    assert said == 1 and "training_tool: DeepSpeed" not in out["reply"]


def test_the_used_reasons_agree_between_core_and_render() -> None:
    from bot.core.ignored_reasons import USED_REASONS as core_used
    from bot.render.understood import USED_REASONS as render_used

    assert core_used == render_used


# C1. vLLM needs compute capability 7.0 or higher (vLLM's installation docs, Requirements); the P40 is
# Pascal (6.1). The answer said "fits" with no word about it.
PASCAL_VLLM = [
    ("serve Llama-3.1-8B with vLLM on 4 Tesla P40, 20 users at 4k context", "vLLM does not run on Tesla P40"),
    ("用 vLLM 在 4 张 Tesla P40 上部署 Llama-3.1-8B，20 个用户，4k 上下文", "vLLM 不支持 Tesla P40"),
]


@pytest.mark.parametrize(("question", "words"), PASCAL_VLLM)
def test_vllm_on_a_pascal_card_is_said_not_to_run(capsys, question, words) -> None:
    out = ask(capsys, question)
    (note,) = [w for w in out["report"]["warnings"] if w["code"] == "runtime_unsupported_gpu"]
    assert note["params"] == {"gpu": "Tesla P40", "runtime": "vLLM", "generation": "Pascal"}
    assert words in out["reply"] and "7.0" in out["reply"]


@pytest.mark.parametrize(
    "question",
    [
        "serve Llama-3.1-8B with vLLM on 4 V100, 20 users at 4k context",  # Volta: 7.0
        "serve Llama-3.1-8B with llama.cpp on a Tesla P40, 4k context",  # llama.cpp runs on Pascal
    ],
)
def test_supported_cards_and_runtimes_get_no_such_note(capsys, question) -> None:
    out = ask(capsys, question)
    assert not [w for w in out["report"]["warnings"] if w["code"] == "runtime_unsupported_gpu"]


# C2. verl rollouts were decoded at TRL's 8 sequences per GPU when the question gave no batch: verl
# generates the whole step at once (data.train_batch_size, 1024 prompts by default) on vLLM engines.
VERL_PPO = [
    "我们想用 verl 做 PPO，Qwen2.5-14B 做 actor，2 机 8 卡 H100，数据 5 万条，"
    "每条 prompt 512 token，回复 2048，问要多久。",
    "We want PPO with verl on Qwen2.5-14B as the actor, 2 nodes of 8 H100, 50k prompts of 512 tokens, "
    "responses up to 2048 tokens. How long?",
]


@pytest.mark.parametrize("question", VERL_PPO)
def test_verl_rollouts_decode_its_default_step_at_once(capsys, question) -> None:
    out = ask(capsys, question)
    roll = out["report"]["rollout"]
    assert roll["decode_tp"] == 1
    # 1,024 prompts × 1 completion ÷ 16 GPUs = 64 wanted; was 8. s42 trial #6: verl's engine takes its own
    # default 0.5 of each H100 (verl rollout.yaml), not vLLM's 0.9: its KV room beside the 29.5 GB of
    # weights holds 26 sequences of 2,560 tokens, so 24.3 decode GPU-hours (was 12.9 at 0.9; 67.5 at 8)
    assert roll["decode_batch"] == 26
    assert roll["gpu_hours"] < 30
    (assumed,) = [a for a in out["assumptions"] if a["field"] == "rollout_prompts_per_step"]
    assert assumed["value"] == 1024 and assumed["why"] == "verl_train_batch_default"


def test_trl_rollouts_decode_their_share_of_the_generation_batch(capsys) -> None:
    out = ask(
        capsys,
        "GRPO on Qwen2.5-7B with TRL, 8 generations per prompt, completions up to 1024 tokens, "
        "10k prompts, 8 H100",
    )
    # TRL's generation_batch_size = per_device × processes × steps_per_generation (= gradient accumulation):
    # the step's sequences on each GPU (trl grpo_config.py @f2cd577; s24 trial #10: the step the plan trains).
    # s27-trgen: that step is TRL's own, per_device_train_batch_size 8 × 8 GPUs × accumulation 1 = 64
    # sequences, 8 a GPU — not the SFT default of 128 (16 a GPU); not verl's whole default step
    assert out["report"]["rollout"]["decode_batch"] == 8
    (step,) = [a for a in out["assumptions"] if a["field"] == "global_batch"]
    assert (step["value"], step["why"]) == (64, "rl_tool_global_batch")
    assert not [a for a in out["assumptions"] if a["field"] == "rollout_prompts_per_step"]


# B4. A verl script (FSDP actor: fsdp_config.*) was planned at TP 4 × DP 2 with ZeRO-1, and its batch
# line counted data.train_batch_size (prompts) as sequences: 1,024 where the step trains 1,024 × 5.
VERL_SCRIPT = (
    "python3 -m verl.trainer.main_ppo algorithm.adv_estimator=grpo data.train_batch_size=1024 "
    "data.max_prompt_length=1024 data.max_response_length=1024 "
    "actor_rollout_ref.model.path=Qwen/Qwen2.5-7B-Instruct "
    "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=1 "
    "actor_rollout_ref.model.enable_gradient_checkpointing=True "
    "actor_rollout_ref.actor.fsdp_config.param_offload=False actor_rollout_ref.rollout.n=5 "
    "trainer.n_gpus_per_node=8 trainer.nnodes=1"
)


@pytest.mark.parametrize(
    "lead",
    [
        "We run this verl script on 8 H100. Does it fit?",
        "我们用下面的 verl 脚本在 8 张 H100 上跑，放得下吗？",
    ],
)
def test_a_verl_script_is_data_parallel_with_its_whole_step_batch(capsys, lead) -> None:
    out = ask(capsys, lead + "\n" + VERL_SCRIPT)
    plan = out["report"]["memory"]["plan"]
    assert (plan["tp"], plan["pp"], plan["dp"], plan["zero_stage"]) == (1, 1, 8, 3)  # was TP 4 × DP 2, ZeRO-1
    assert plan["global_batch_sequences"] == 1024 * 5  # was 1,024
    (zero,) = [a for a in out["assumptions"] if a["field"] == "zero_stage"]
    assert zero["why"] == "tool_default_zero" and zero["value"] == 3


# A11 (without a config). The plan recomputes below the count that keeps the activations (4 here), but
# only the fewest GPUs' row paid it: "1 GPU → 2 days, 2 GPUs → 0.65 days" (3× from 1 to 2 GPUs).
FEWEST_RECOMPUTE = [
    "QLoRA Llama-3.3-70B on 50M tokens, 4k context. How many days?",
    "QLoRA 微调 Llama-3.3-70B，5000 万 token，4k 上下文，要几天？",
]


@pytest.mark.parametrize("question", FEWEST_RECOMPUTE)
def test_every_row_below_the_count_that_keeps_activations_pays_recompute(capsys, question) -> None:
    out = ask(capsys, question)
    report = out["report"]
    (alt,) = [a for a in report["memory"]["alternatives"] if a["change"] == "no_full_recompute"]
    # s24 trial #13: QLoRA keeps to data parallelism (bitsandbytes 4-bit + PEFT/FSDP-QLoRA, no Megatron TP),
    # which does not split activations: no count keeps the 4K activations (was 4 GPUs at TP 4), so every
    # row pays full recompute, (4 + 2) / 4 = ×1.5, in the GPU-hours themselves
    assert alt["min_gpus"] is None
    rows = {r["gpus"]: r["likely"] for r in report["days_table"]}
    base = report["gpu_hours"]["likely"] / 24
    assert rows[1] == pytest.approx(base)
    assert rows[2] == pytest.approx(base / 2)  # 2 GPUs still recompute
    assert rows[4] == pytest.approx(base / 4)
    (assumed,) = [a for a in out["assumptions"] if a["field"] == "recompute_time"]
    assert assumed["why"] == "recompute_time_every" and assumed["value"] == 1.5
