"""Round 33 zh (s37-r33zh, issue 24): the readers built for what r33work missed at its freeze, each a way
people write, tested on sentences of our own in both languages where it applies (must read, must not
misread)."""

from __future__ import annotations

import pytest

from bot.parse.host_forms import ram_products
from tests.real_questions import answer_json


def _request(text: str) -> dict:
    return answer_json(text)["request"]


def _ignored(text: str) -> list[dict]:
    return answer_json(text)["interpretation"]["ignored"]


@pytest.mark.parametrize(
    ("text", "gib"),
    [
        ("当前使用 32C64G 的服务器，只有 CPU，跑 chatglm3-6b 很慢", 64.0),  # a cloud spec: cores, then RAM
        ("一台 8c32g 的云主机能用 CPU 跑 qwen2.5-7b 吗", 32.0),
        ("服务器 16核64G，一张 T4，部署 chatglm3-6b 行吗", 64.0),
        ("a server with 8c32g, can it serve qwen2.5 7b on cpu?", 32.0),
        ("WSL2 的 .wslconfig 里 memory=40GB，CPU 模式跑 ChatGLM2-6B 很慢", 40.0),  # a config's memory key
        ("docker run --memory=32g 跑 ollama qwen2.5:7b 够吗", 32.0),
        ("CPU 是 AMD Ryzen 7 4800H，内存 16G*2 DDR4，用 CPU 推理 ChatGLM-6B 很慢", 32.0),  # modules × size
        ("我的电脑内存 2x16GB DDR4，显卡 4060ti 16G，能跑 qwen2.5 7b 吗", 32.0),
        ("环境 V100 32G、内存 63G，用 cli_demo 运行 SUS-Chat-34B 被 kill 了", 63.0),  # the card said apart
        ("4090 24G，内存 64G，能跑 qwen2.5-32b 的 q4 吗", 64.0),
    ],
)
def test_host_memory_forms_are_read(text: str, gib: float) -> None:
    got = _request(text).get("host_memory_gib")
    named = [i["text"] for i in _ignored(text) if i["text"].startswith("host_memory:")]
    assert got == gib or f"host_memory: {gib:g} GB" in named


@pytest.mark.parametrize(
    ("text", "gpu_memory"),
    [
        ("8 张 A100，gpu_memory=80GB，max_memory 设多少", 80.0),  # a card's key: never the host's
        ("两张 4090 24G*2，能跑 qwen2.5 32b 吗", 24.0),  # cards times memory: the cards' products
        ("4090 内存 24G 能跑 qwen2.5-14b 吗", 24.0),  # 内存 right after a card: the card's
    ],
)
def test_card_memory_is_not_the_host(text: str, gpu_memory: float) -> None:
    request = _request(text)
    assert request.get("gpu_memory_gib") == gpu_memory
    assert not request.get("host_memory_gib")


def test_ram_products_only_beside_a_ram_word() -> None:
    assert ram_products("内存 16g*2 ddr4") == "内存 32g ddr4"
    assert ram_products("2x16gb ddr4 内存") == "32gb ddr4 内存"
    assert ram_products("64gb x 2 of ram") == "128gb of ram"
    assert ram_products("4090 24g*2，能跑吗") == "4090 24g*2，能跑吗"  # no RAM word: cards, left as written
    assert ram_products("显存 24g*2") == "显存 24g*2"


@pytest.mark.parametrize(
    ("text", "precision"),
    [
        ("用 CPU 推理 ChatGLM-6B（AutoModel.from_pretrained(...).float()）", "fp32"),  # torch Module.float
        ("model.bfloat16() then serve llama-3-8b on a 4090", "bf16"),
        ("AutoModel.from_pretrained('THUDM/chatglm-6b').half().cuda() 在 3060 12G 上能跑吗", "fp16"),
        ("model = AutoModel.from_pretrained(p).half().quantize(4).cuda() 需要多少显存", "int4"),
    ],
)
def test_cast_calls_are_the_weights_format(text: str, precision: str) -> None:
    assert _request(text).get("precision") == precision


def test_a_float_function_is_no_cast() -> None:
    assert _request("x = float(y)，7b 模型 4090 能跑吗").get("precision") != "fp32"


@pytest.mark.parametrize(
    ("text", "stage"),
    [
        ("用 LLaMA-Factory 的 cli_demo 运行 SUS-Chat-34B，V100 32G 够吗", "inference"),  # a chat demo serves
        ("python web_demo.py 跑 chatglm2-6b 需要多少显存", "inference"),
        ("GLM-4 的 trans_cli_demo.py 在 4090 上跑 glm-4-9b-chat 要多少显存", "inference"),
        ("running api_demo.py of LLaMA-Factory with qwen2.5-7b on one 3090, enough?", "inference"),
        ("用 ChatGLM3 的 finetune_demo 微调 chatglm3-6b，4090 够吗", "finetune"),  # the fine-tuning folder
        ("用 LLaMA-Factory 微调完，再用 cli_demo 测试 qwen2.5-7b，需要几张 3090", "finetune"),
    ],
)
def test_demo_scripts_serve(text: str, stage: str) -> None:
    assert _request(text).get("stage") == stage


@pytest.mark.parametrize(
    ("text", "zero"),
    [
        ("4 张 V100 32G 用 ds_stage2 的配置微调 7B 报显存不够", 2),  # Open-Llama's ds_stage2.yaml
        ("accelerate launch --config_file configs/accelerate_configs/ds_stage3.yaml 全参微调 llama-7b", 3),
        ("ds_z3_config.json 全参微调 qwen2.5-7b，8 张 4090", 3),
    ],
)
def test_deepspeed_stage_files(text: str, zero: int) -> None:
    assert _request(text).get("zero_stage") == zero


def test_a_stage_of_something_else_is_no_zero() -> None:
    assert _request("pipeline stage 2 用 8 张 A100 预训练 7B").get("zero_stage") is None


@pytest.mark.parametrize(
    "text",
    [
        "LOMO 说 8 张 3090 能全量微调 llama-65B，真的吗",
        "full fine-tuning llama-7b with AdaLomo on one 4090, how much memory?",
    ],
)
def test_lomo_is_named_as_an_optimizer(text: str) -> None:
    named = [i["text"] for i in _ignored(text)]
    assert any(t.startswith("optimizer:") and "lomo" in t for t in named)


@pytest.mark.parametrize(
    ("text", "seq"),
    [
        ("P40 24G 跑 ChatGLM2-6B，一个 Q+A 共计大概 1200 token 的 prompt 需要 5 分钟才回复", 1200),
        ("prompt and answer together are about 3000 tokens, qwen2.5-7b on a 4090, how many users?", 3000),
        ("输入加输出一共 4k tokens，部署 qwen2.5-14b 要几张 4090", 4096),
        ("prompt 2000 token，回答 500 token，7b 模型 4090 并发多少", 2500),  # parts apart: summed
    ],
)
def test_question_and_answer_together_is_the_sequence(text: str, seq: int) -> None:
    assert _request(text).get("seq_len") == seq


def test_a_data_total_is_no_sequence() -> None:
    request = _request("训练数据共计 10 亿 token，预训练 1B 模型要多久")
    assert request.get("tokens") == 1e9
    assert "seq_len" in request.get("assumed_fields", [])
