"""Session 27 fresh-user trial (main 0854ba96), each finding as a user would expect, in both languages.

#1 'lmdeploy serve <model> --tp 2 …' (lmdeploy's shorthand, the model after ``serve``) lost its model and was
refused as a follow-up; #2 'cheapest card' compared only A100/H100/H200 (and, in CNY, opened with the H200's
missing price); #3 'what context can we get' sized an assumed 4K; #4 the recommended count's sentence said
'without full recompute' beside ``recommended_plan.recompute: "full"``, and ``max_samples`` was taken for the
dataset's size; #5 'Without full recompute: does not fit' offered nothing; #6 '<Llama-3-8B>' was read as a
tag and the question got the help; #7 '~10 users' was read as 10 at once in silence; #8 TRL GRPO at beta 0
was worded as keeping a reference model; #9 a family card ('华为的卡') was named in two lines.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from bot.core.priced_cards import priced_cards, unpriced_cards
from bot.parse import parse
from bot.parse.configs.positional import positional_model as _positional_model
from bot.textclean import strip_markup
from estimator.money_kinds import Currency


def ask(
    capsys: pytest.CaptureFixture[str], question: str, fmt: str = "json", *extra: str
) -> tuple[int, object]:
    rc = main(["ask", "--format", fmt, *extra, question])
    out = capsys.readouterr().out
    return rc, (json.loads(out) if fmt == "json" else out)


# -- #1 lmdeploy's shorthand launcher line ----------------------------------------------------------------


def test_lmdeploy_shorthand_names_its_model() -> None:
    assert _positional_model("lmdeploy", ["lmdeploy", "serve", "Qwen2.5-32B"]) == "Qwen2.5-32B"
    assert _positional_model("lmdeploy", ["lmdeploy", "serve", "api_server", "m"]) == "m"
    assert _positional_model("lmdeploy", ["lmdeploy", "chat", "internlm2_5-7b-chat"]) == "internlm2_5-7b-chat"
    assert _positional_model("lmdeploy", ["lmdeploy", "serve", "gradio"]) is None


@pytest.mark.parametrize(
    ("question", "model", "concurrency", "lang"),
    [
        (
            "lmdeploy serve internlm2_5-20b-chat with --tp 2 on 2 L40S, throughput for 32 concurrent "
            "requests?",
            "InternLM2.5-20B",
            32,
            "en",
        ),
        ("lmdeploy serve Qwen2.5-32B --tp 2 on 2 L40S", "Qwen2.5-32B", 16, "en"),  # 16: assumed
        (
            "用 lmdeploy serve Qwen2.5-32B --tp 2 在 2 张 L40S 上部署，32 并发吞吐多少？",
            "Qwen2.5-32B",
            32,
            "zh",
        ),
    ],
)
def test_a_launcher_line_with_a_flag_is_a_question(capsys, question, model, concurrency, lang) -> None:
    rc, out = ask(capsys, question)
    assert rc == 0
    req = out["request"]
    assert (req["model"], req["runtime"], req["tp"], req["gpu"], req["gpu_count"]) == (
        model,
        "lmdeploy",
        2,
        "L40S",
        2,
    )
    assert req["concurrency"] == concurrency
    assert out["lang"] == lang
    assert "keeps no history" not in out["reply"] and "没有历史" not in out["reply"]


# -- #2 the cheapest card ---------------------------------------------------------------------------------


def test_the_priced_cards_one_a_memory_class() -> None:
    """Priced in each currency (estimator/data/prices.toml), the cheapest of each memory class besides the
    A100 80G's: CNY has no A100 40G, H200 or B200 range (named), USD no H20 (named)."""
    cny = priced_cards("A100-SXM4-80GB", Currency.CNY, 5)
    # s34 #2: a class's other card follows where the limit leaves room (the A10 beside the RTX 4090)
    assert cny == ["RTX-4090", "V100-SXM2-32GB", "L40S", "H20-96GB", "A10"]
    assert unpriced_cards(["A100-SXM4-80GB", *cny], Currency.CNY) == [
        "A100-SXM4-40GB",
        "H200-SXM-141GB",
        "B200-HGX-180GB",
    ]
    usd = priced_cards("A100-SXM4-80GB", Currency.USD, 5)
    assert usd == ["RTX-4090", "V100-SXM2-32GB", "L40S", "A100-SXM4-40GB", "H200-SXM-141GB"]
    assert unpriced_cards(["A100-SXM4-80GB", *usd], Currency.USD) == ["H20-96GB"]
    # a 14B model's bf16 weights (29.4 GB) exceed 90 % of a 24 GiB card: no RTX 4090, the V100 and A10 first
    assert priced_cards("A100-SXM4-80GB", Currency.CNY, 5, 29.4e9)[:3] == ["V100-SXM2-32GB", "A10", "L40S"]


def test_cheapest_card_for_a_small_chatbot_is_the_rtx_4090(capsys) -> None:
    rc, out = ask(capsys, "cheapest card to run Mistral 7B inference for a chatbot with ~10 users")
    assert rc == 0
    assert out["request"]["gpu"] == "RTX-4090"
    assert out["report"]["inference"]["cost_per_month"] == {"low": 219.0, "high": 584.0, "currency": "USD"}
    compared = [c["gpu"] for c in out["report"]["comparisons"]]
    assert compared == ["A100-SXM4-80GB", "V100-SXM2-32GB", "L40S", "A100-SXM4-40GB", "H200-SXM-141GB"]
    lines = out["reply"].splitlines()
    assert lines[0].startswith("Cheapest for this load: RTX 4090 ($219 – $584 a month for 10 concurrent)")
    assert lines[1] == "Not compared, no USD price on file: H20"


def test_cheapest_card_in_chinese_opens_with_the_verdict(capsys) -> None:
    rc, out = ask(capsys, "公司200人用，部署一个14B的模型做知识库问答，最便宜用什么卡，每月多少钱")
    assert rc == 0
    lines = out["reply"].splitlines()
    assert lines[0].startswith(
        "按每条序列至少 25 token/s 计，这个负载最省钱：H20（20 条并发，每月 ¥5,110 – ¥10,950）"
    )
    assert lines[1] == "未参与比较（没有 CNY 租用价格）：A100 40G、H200 141G、B200"
    assert "无法判断哪个总费用最低" not in out["reply"]
    assert out["request"]["gpu"] == "H20-96GB"


# -- #3 the longest context asked -------------------------------------------------------------------------

TRIAL_3 = (
    "we want to serve Qwen2.5-Coder-32B with llama.cpp Q4_K_M on a single RTX 3090, what context can we get?"
)


@pytest.mark.parametrize(
    "question",
    [
        TRIAL_3,
        "Qwen2.5-7B on one 4090, how much context can it handle?",
        "用 llama.cpp Q4_K_M 在一张 RTX 3090 上跑 Qwen2.5-Coder-32B，能开多长上下文？",
        "一张4090部署Qwen2.5-7B，上下文最多多少",
    ],
)
def test_what_context_can_we_get_asks_the_longest(question) -> None:
    assert parse(question).request.context_asked is True


def test_the_longest_context_on_a_3090_is_answered(capsys) -> None:
    _, text = ask(capsys, TRIAL_3, "text")
    assert "longest context that fits: 18K" in text.splitlines()[0]
    _, zh = ask(
        capsys, "用 llama.cpp Q4_K_M 在一张 RTX 3090 上跑 Qwen2.5-Coder-32B，能开多长上下文？", "text"
    )
    assert "放得下的最长上下文：18K" in zh.splitlines()[0]


# -- #4 the recommended plan's sentence, max_samples as a cap ---------------------------------------------

LF_YAML = """model_name_or_path: Qwen/Qwen2.5-14B-Instruct
stage: sft
do_train: true
finetuning_type: lora
lora_rank: 64
lora_target: all
deepspeed: examples/deepspeed/ds_z2_config.json
dataset: alpaca_zh_demo
template: qwen
cutoff_len: 8192
packing: true
max_samples: 100000
per_device_train_batch_size: 2
gradient_accumulation_steps: 8
learning_rate: 1.0e-4
num_train_epochs: 3.0
bf16: true
"""


@pytest.fixture
def lf_yaml(tmp_path: Path) -> str:
    path = tmp_path / "lf.yaml"
    path.write_text(LF_YAML, encoding="utf-8")
    return str(path)


def test_the_recommended_count_says_its_recompute(capsys, lf_yaml) -> None:
    _, out = ask(capsys, "我有4张A800 80G，跑这个要多久？大概多少钱", "json", "--config", lf_yaml)
    rec = out["report"]["memory"]["recommended_plan"]
    assert (out["report"]["memory"]["recommended_gpus"], rec["recompute"]) == (2, "full")
    reply = out["reply"]
    assert "推荐 2 张——推荐的卡数开全量重计算，每张卡留出 ≥ 10% 的显存余量" in reply
    assert "不用全量重计算" not in reply
    _, en = ask(
        capsys,
        "I have 4 A800 80G, how long will this take and what will it cost?",
        "text",
        "--config",
        lf_yaml,
    )
    assert (
        "2 GPUs recommended — the recommended count keeps ≥ 10 % of each GPU free, with full recompute" in en
    )
    assert "runs without full recompute" not in en


def test_max_samples_beside_a_named_dataset_is_said_to_be_the_cap(capsys, lf_yaml, tmp_path) -> None:
    # s35-left2 #3: alpaca_zh_demo is LLaMA-Factory's own 1,000-row demo file (data/dataset_info.json), so
    # this config trains min(1,000, 100,000) = 1,000 samples (was pinned at the cap, 100,000); the cap is
    # said of a dataset that cannot be counted, here the user's own file.
    _, demo = ask(capsys, "我有4张A800 80G，跑这个要多久？", "json", "--config", lf_yaml)
    assert demo["request"]["num_samples"] == 1000
    lf_yaml = str(tmp_path / "own.yaml")
    Path(lf_yaml).write_text(LF_YAML.replace("alpaca_zh_demo", "my_support_logs"), encoding="utf-8")
    _, out = ask(capsys, "我有4张A800 80G，跑这个要多久？", "json", "--config", lf_yaml)
    assert out["request"]["num_samples"] == 100000
    assert {"text": "max_samples: 100000", "reason": "samples_cap"} in out["interpretation"]["ignored"]
    assert (
        "“max_samples: 100000”（这是假设：它是每个数据集最多读取的样本数上限，不是数据集的大小"
        in out["reply"]
    )
    _, en = ask(capsys, "I have 4 A800 80G, how long?", "text", "--config", lf_yaml)
    assert "“max_samples: 100000” (an assumption: a cap on the samples read from each dataset" in en


# -- #5 an alternative that does not fit is no alternative ------------------------------------------------


@pytest.mark.parametrize(
    ("question", "dropped"),
    [
        (
            "QLoRA Llama-3.1-70B on 2x4090, 20k samples of 1k tokens, how long?",
            "Without full recompute: does not",
        ),
        ("QLoRA 微调 Llama-3.1-70B，2 张 4090，2 万条 1k token 的样本，要多久？", "不用全量重计算：放不下"),
    ],
)
def test_no_alternative_that_only_does_not_fit(capsys, question, dropped) -> None:
    _, out = ask(capsys, question)
    alternatives = out["report"]["memory"]["alternatives"]
    assert [(a["change"], a["min_gpus"]) for a in alternatives] == [
        ("no_full_recompute", None)
    ]  # still in JSON
    assert out["report"]["memory"]["min_gpus"] == 4
    assert dropped not in out["reply"]


# -- #6 a model in angle brackets -------------------------------------------------------------------------


def test_a_placeholder_in_brackets_keeps_its_name() -> None:
    assert strip_markup("serve <llama3 8b> on 1 A100") == "serve  llama3 8b  on 1 A100"
    assert strip_markup("serve <Llama-3-8B> on 1 A100") == "serve <Llama-3-8B> on 1 A100"  # no tag: kept
    assert strip_markup("<b>serve</b> <h2>x</h2>") == " serve   x "  # tags, headings: still markup
    assert strip_markup("vllm serve <model> --tp 2") == "vllm serve   --tp 2"  # no digit: a bare placeholder


@pytest.mark.parametrize(
    ("question", "model", "head"),
    [
        (
            "serve <Llama-3-8B> on 1 A100 for 10 users",
            "Llama-3-8B",
            "Meta Llama 3 8B bf16 inference on 1 × A100 80G",
        ),
        ("部署 <Qwen2.5-7B> 到 1 张 A100，10 个用户", "Qwen2.5-7B", "Qwen2.5 7B bf16 推理，1 张 A100 80G"),
    ],
)
def test_a_model_in_angle_brackets_is_the_model(capsys, question, model, head) -> None:
    rc, out = ask(capsys, question)
    assert rc == 0
    assert out["request"]["model"] == model and out["request"]["concurrency"] == 10
    assert out["reply"].startswith(head)


def test_an_unknown_model_in_brackets_is_escaped(capsys) -> None:
    _, html = ask(capsys, "serve <Foo-9B&co> on 1 A100", "html")
    assert "<Foo" not in html


# -- #8 GRPO at TRL's beta 0: no reference, worded so ------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_grpo_without_a_reference_says_what_was_sized(capsys, lang) -> None:
    q = "TRL GRPO Qwen2.5-1.5B num_generations=16 max_completion_length=512 on 1 H100, 5000 prompts: time?"
    _, out = ask(capsys, q, "json", "--lang", lang)
    k = next(a for a in out["assumptions"] if a["field"] == "flops_per_param_token")
    assert (k["value"], k["why"]) == (8.0, "flops_no_reference")
    reply = out["reply"]
    if lang == "en":
        assert "no reference model is loaded (a KL coefficient of 0: TRL beta = 0.0)" in reply
        assert "No reference model is loaded" in reply
        assert "keeps a frozen reference model" not in reply and "DPO/GRPO/PPO add reference" not in reply
    else:
        assert "不加载参考模型（KL 系数为 0：TRL beta = 0.0）" in reply
        assert "放一份冻结的参考模型" not in reply


def test_grpo_with_a_reference_keeps_its_wording(capsys) -> None:
    # OpenRLHF builds a reference by default (--init_kl_coef 0.01, estimator/rl_reference.py)
    q = "GRPO Qwen2.5-1.5B with OpenRLHF, 16 generations, completion 512, 1 H100, 5000 prompts: time?"
    _, out = ask(capsys, q)
    k = next(a for a in out["assumptions"] if a["field"] == "flops_per_param_token")
    assert k["why"] == "flops_per_param_token"
    assert "keeps a frozen reference model" in out["reply"]


# -- #9 a family card, named once -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "head", "other"),
    [
        (
            "用4张华为的卡部署Qwen2.5-7B",
            "“华为的卡”是一个加速卡系列，不是具体型号：以下仅按 Ascend 910B 估算作参考——具体是哪一款？"
            "我目录里有：Ascend 910 / Ascend 910B / Ascend 910B4",  # s49-verdict: the 32 GB 910B4's family
            ("你的卡不在我的目录中", "找不到", "A100"),
        ),
        (
            "deploy Qwen2.5-7B on 4 Huawei cards",
            "“Huawei cards” names a family of accelerators, not one model: sized on Ascend 910B only for "
            "reference — which model is it?",
            ("No verdict for your card", "Could not find the GPU", "A100"),
        ),
    ],
)
def test_a_family_card_is_named_in_one_line(capsys, question, head, other) -> None:
    _, text = ask(capsys, question, "text")
    lines = [ln for ln in text.splitlines() if not ln.startswith(" ")]  # the visible part, not the details
    assert lines[1].startswith(head)  # s27b #2: sized on the family's flagship, said in the next line
    assert "4 × Ascend 910B" in lines[0] or "4 张 Ascend 910B" in lines[0]
    assert sum(("华为的卡" in ln or "Huawei cards" in ln) for ln in lines) == 1
    assert not any(o in ln for o in other for ln in lines)
