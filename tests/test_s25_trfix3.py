"""Second trial of session 25 (trial2 #1, #2): cards a user types are sized as those cards.

- RTX 5090 D (32 GB, 1792 GB/s) and RTX 5090 D v2 (24 GB, 1344 GB/s), Radeon RX 7900 XTX (24 GB, 960 GB/s),
  Radeon RX 9070 XT (16 GB, 644.6 GB/s) and Moore Threads MTT S4000 (48 GB, 768 GB/s) are catalog cards
  (estimator/data/gpus.toml, each with its vendor page as source);
- a card still unknown and typed without its memory gets no verdict: the default card's figures are only
  a reference, and the headline says so first (design.md §8; bot/render/unknown_card.py).
"""

from __future__ import annotations

import pytest

from estimator import catalog
from tests.real_questions import answer_json


@pytest.mark.parametrize(
    ("gpu", "memory", "bandwidth"),
    [
        ("RTX-5090D", 32, 1792),  # 512-bit x 28 Gbps
        ("RTX-5090D-v2", 24, 1344),  # 384-bit x 28 Gbps
        ("Radeon-RX-7900-XTX", 24, 960),  # 384-bit x 20 Gbps
        ("Radeon-RX-9070-XT", 16, 644.6),  # AMD product page
        ("MTT-S4000", 48, 768),  # Moore Threads product page
    ],
)
def test_the_new_cards_carry_their_published_memory(gpu: str, memory: float, bandwidth: float) -> None:
    spec = catalog.gpu(gpu)
    assert (spec.memory_gib, spec.memory_bandwidth_gbps) == (memory, bandwidth)


def test_the_5090_d_tensor_rate_is_the_5090s_capped_by_its_ai_tops() -> None:
    """2375 / 3352 AI TOPS (Tom's Hardware 2025-08-12 spec table) x the RTX 5090's 209.5 = 148.4 TFLOPS."""
    assert catalog.gpu("RTX-5090D").peak_tflops_bf16 == pytest.approx(209.5 * 2375 / 3352, abs=0.05)


@pytest.mark.parametrize(
    ("question", "gpu"),
    [
        ("Can I run Qwen2.5-32B-AWQ on an RTX 5090 D v2 with vLLM at 16k context?", "RTX-5090D-v2"),
        ("5090D能跑Qwen2.5-32B-AWQ吗，vLLM，16k上下文", "RTX-5090D"),
        ("LoRA微调Qwen2.5-7B，4张摩尔线程MTT S4000，1亿token要多久", "MTT-S4000"),
        ("Can I serve Llama-3.1-8B on a Radeon RX 9070 XT with llama.cpp?", "Radeon-RX-9070-XT"),
        ("用llama.cpp在RX 7900 XTX 24G上跑Qwen2.5-32B Q4_K_M，速度多少", "Radeon-RX-7900-XTX"),
        ("Serve Qwen2.5-7B on a 7900XTX with Ollama: fits?", "Radeon-RX-7900-XTX"),
    ],
)
def test_the_typed_card_is_sized_never_an_a100(question: str, gpu: str) -> None:
    answer = answer_json(question)
    assert answer["request"]["gpu"] == gpu
    assert answer["interpretation"]["unknown_gpu"] is None
    assert "A100" not in answer["reply"].split("\n", 1)[0]
    assert not any(i["text"] in {"7900", "9070", "24"} for i in answer["interpretation"]["ignored"])


@pytest.mark.parametrize(
    ("question", "gpu"),
    [  # must not misread: the neighbours stay themselves
        ("Serve Qwen2.5-7B on one RTX 5090 with vLLM: fits?", "RTX-5090"),
        ("用一张 4090D 部署 Qwen2.5-7B，vLLM，够吗", "RTX-4090D"),
        ("Serve Qwen2.5-7B on one Radeon PRO W7900 with vLLM: fits?", "Radeon-PRO-W7900"),
    ],
)
def test_neighbouring_cards_stay_themselves(question: str, gpu: str) -> None:
    assert answer_json(question)["request"]["gpu"] == gpu


@pytest.mark.parametrize(
    ("question", "prefix"),
    [
        (
            "Can I run Qwen2.5-32B-AWQ on a Biren BR104 with vLLM at 16k context?",
            "No verdict for your card: it is not in my catalog and its memory was not given. "
            "For reference only — ",
        ),
        (
            "用vLLM在壁仞BR104上跑Qwen2.5-32B-AWQ，16k上下文",
            "你的卡不在我的目录中，也没有给出显存，无法判断它放不放得下。以下仅供参考——",
        ),
    ],
)
def test_an_unknown_card_without_memory_gets_no_verdict(question: str, prefix: str) -> None:
    answer = answer_json(question)
    assert answer["interpretation"]["unknown_gpu"] is not None
    assert answer["reply"].startswith(prefix)
    typed = answer["interpretation"]["unknown_gpu"]
    head, rest = answer["reply"].split("\n", 1)
    assert f"“{typed}”" in rest and typed not in head  # named as typed on the line below, not twice


@pytest.mark.parametrize(
    "question",
    [
        "Can I run Qwen2.5-32B-AWQ on a Biren BR104 32GB with vLLM at 16k context?",
        "用vLLM在壁仞BR104 32G上跑Qwen2.5-32B-AWQ，16k上下文",
    ],
)
def test_an_unknown_card_with_its_memory_keeps_its_verdict(question: str) -> None:
    """Sized by the stated memory (a verdict for that card): no reference prefix."""
    reply = answer_json(question)["reply"]
    assert "No verdict" not in reply and "仅供参考" not in reply
    assert "BR104" in reply.split("\n", 1)[0]


@pytest.mark.parametrize(
    ("question", "host"),
    [  # trial2 #3: '<card> 加 <N>G 内存', the size before the word (bot/parse/gpu_layers.py)
        ("llama.cpp跑Qwen3-30B-A3B Q4_K_M，单张3060 12G加64G内存，能跑多快", 64),
        ("llama.cpp跑Qwen3-30B-A3B Q4_K_M，单张3060 12G，64G内存，能跑多快", 64),
        ("llama.cpp跑Qwen3-30B-A3B Q4_K_M，内存 64G，单张3060，多快", 64),  # the older form still read
        ("llama.cpp runs Qwen3-30B-A3B Q4_K_M on one RTX 3060 12G plus 64GB RAM: how fast?", 64),
    ],
)
def test_the_hosts_memory_after_the_card_is_read(question: str, host: float) -> None:
    answer = answer_json(question)
    assert answer["request"]["host_memory_gib"] == host
    assert not any(i["text"] == "64" for i in answer["interpretation"]["ignored"])


def test_a_size_right_after_a_card_stays_the_cards_memory() -> None:
    """'一张 4090 24G内存': 24 GB is the card's (its VRAM), never 24 GiB of host RAM."""
    request = answer_json("ollama 跑 Qwen2.5-32B，一张 4090 24G内存够吗")["request"]
    assert (request["gpu_memory_gib"], request["host_memory_gib"]) == (24, None)


@pytest.mark.parametrize(
    ("question", "tip"),
    [  # trial2 #12: Llama-3.1-405B Q4_K_M, ≈ 245 GB of weights and KV cache, above the 192 GB of an M2 Ultra
        (
            "Ollama on a Mac Studio M2 Ultra 192GB running Llama-3.1-405B Q4 — tokens per second?",
            "This model needs more than the Mac's whole memory",
        ),
        (
            "Mac Studio M2 Ultra 192G 用 Ollama 跑 Llama-3.1-405B Q4，每秒多少 token",
            "超过了这台 Mac 的全部内存",
        ),
    ],
)
def test_a_model_beyond_the_macs_whole_memory_gets_no_speed(question: str, tip: str) -> None:
    reply = answer_json(question)["reply"]
    head = reply.split("\n", 1)[0]
    assert "token/s" not in head and "tokens/s" not in head
    assert tip in reply
    assert "If a model just misses" not in reply and "差一点放不下" not in reply


def test_a_model_that_just_misses_a_mac_keeps_its_speed_and_tip() -> None:
    """gpt-oss-20b mxfp4 (Ollama ships it only in MXFP4, ollama.com/library/gpt-oss): ≈ 12.9 GiB against the
    16 GB (14.9 GiB) of an M4 Pro Mac mini: raising the GPU's share can make room."""
    answer = answer_json("gpt-oss-20b with Ollama on a 16GB M4 Pro Mac mini, tokens per second?")
    assert answer["request"]["precision"] == "mxfp4"
    head = answer["reply"].split("\n", 1)[0]
    assert "does not fit" in head and "tokens/s" in head
    assert "If a model just misses" in answer["reply"]


def test_the_borderline_headline_in_chinese_puts_the_layout_after_the_verdict() -> None:
    """trial2 #14: '在 4 × A800（需要以约 1/3 的额外计算换显存） 上放得下' read as a card name with a bracket;
    the Chinese form is now that of the plain fit: 'N 张 GPU 放得下（…）'."""
    zh = answer_json("全量微调Qwen2.5-7B，DeepSpeed ZeRO-2，4张A800 80G，序列长度8192，每卡显存够不够")
    head = zh["reply"].split("\n", 1)[0]
    assert "4 张 A800 80G 放得下（需要以约 1/3 的额外计算换显存），每卡约" in head
    assert "） 上放得下" not in head
    en = answer_json("Full fine-tune Qwen2.5-7B, DeepSpeed ZeRO-2, 4 A800 80G, seq len 8192: memory per GPU?")
    assert "fits on 4 × A800 80G (≈ 1/3 more compute to save memory)" in en["reply"].split("\n", 1)[0]


@pytest.mark.parametrize(
    "question",
    [  # trial2 #13: a value said again, the same, is the value used, never 'a second value … used: 32k'
        "用vLLM部署Qwen2.5-7B，2张4090，" * 6,
        "How many H100 to serve Llama-3.1-70B at 32k? " * 6,
    ],
)
def test_the_same_value_said_again_is_not_a_second_value(question: str) -> None:
    answer = answer_json(question)
    assert not any(i["reason"] == "repeated" for i in answer["interpretation"]["ignored"])
    assert "使用的是" not in answer["reply"] and "a second value" not in answer["reply"]


def test_two_different_values_stay_named() -> None:
    """Must not misread: a different second value is still named, with the value used."""
    answer = answer_json("用vLLM部署Qwen2.5-7B，2张4090，用vLLM部署Qwen2.5-7B，4张4090")
    assert {"text": "4", "reason": "repeated"} in answer["interpretation"]["ignored"]
    assert "使用的是 2" in answer["reply"]


LF_YAML = """model_name_or_path: meta-llama/Meta-Llama-3-8B-Instruct
stage: sft
do_train: true
finetuning_type: lora
lora_rank: 16
cutoff_len: 4096
per_device_train_batch_size: 2
num_train_epochs: 3.0
bf16: true
"""
AXO_YAML = """base_model: Qwen/Qwen2.5-14B-Instruct
load_in_4bit: true
adapter: qlora
sequence_len: 8192
"""


@pytest.mark.parametrize(
    ("question", "gpu", "count", "lang"),
    [  # trial2 #7: a prose comment of a pasted YAML is the question, in its language
        (LF_YAML + "# 2张 RTX 4090，要多久", "RTX-4090", 2, "zh"),
        (AXO_YAML + "# single A10G 24GB on AWS. how long?", "A10G", 1, "en"),
    ],
)
def test_a_yaml_comment_in_prose_is_read(question: str, gpu: str, count: int, lang: str) -> None:
    answer = answer_json(question)
    assert (answer["request"]["gpu"], answer["request"]["gpu_count"], answer["lang"]) == (gpu, count, lang)


def test_a_commented_out_key_stays_a_config_line() -> None:
    """Must not misread: '# lora_rank: 64' is a line put aside, never prose (the rank stays the config's)."""
    answer = answer_json(LF_YAML + "# lora_rank: 64\n# 2张 RTX 4090，要多久")
    assert answer["request"]["lora_rank"] == 16


@pytest.mark.parametrize(
    "tail",
    [  # 'how long and will it fit?' beside a fine-tuning config keeps the token count and times it
        "dataset ~120M tokens, single A10G 24GB on AWS. how long and will it fit?",
        "# dataset ~120M tokens, single A10G 24GB on AWS. how long and will it fit?",
        "数据约 1.2 亿 token，一张 A10G 24GB，要多久，放得下吗？",
    ],
)
def test_the_token_count_beside_a_training_config_is_kept(tail: str) -> None:
    answer = answer_json(AXO_YAML + tail)
    assert answer["request"]["stage"] == "finetune"
    assert answer["request"]["tokens"] == 120e6
    assert not any(i["reason"] == "unread" for i in answer["interpretation"]["ignored"])


def test_an_authors_note_in_a_yaml_comment_is_not_prose() -> None:
    """Must not misread: a comment that asks nothing ('# learning rate is not sized here; 1.0e-5', our own
    recipes' notes) stays part of the config, its numbers never named as unread."""
    note = "# learning rate is not sized here; examples use 1.0e-5\n"
    answer = answer_json(LF_YAML + note + "# 2张 RTX 4090，要多久")
    assert answer["request"]["gpu_count"] == 2
    assert not any(i["text"] == "1.0e-5" for i in answer["interpretation"]["ignored"])
