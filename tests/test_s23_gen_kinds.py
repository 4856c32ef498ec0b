"""Session 23 (issue 24, part gen): fault kinds of the working splits, read by general mechanisms. Every
sentence here was written for these tests (none from the real-question corpus); each kind has sentences
it must read, in both languages, and sentences it must not misread.

- A config key typed with a typo ('max_seq_lenght: 4096', 'tensor_paralel_size=4'): read as the key it
  misspells by the general key–value reader (bot/parse/close_keys.py, bot/parse/generic_values.py).
- A serving engine's TP × PP with no GPU count ('vllm … --tensor-parallel-size 8'): that many GPUs
  (bot/parse/engine_world.py; vLLM ParallelConfig.world_size = PP × TP). Working split: en-149.
- A node-form count ('2 nodes, each with 8 A100', 'num_nodes = 4, gpus_per_node = 8') whose count is not
  the one sized: its machine size kept (bot/parse/node_shape.py). en16-016, en15-011.
- A memory before an accelerator noun other than 'GPU' ('eight 64GB NPUs', '八张 64G 的 NPU'): the card's
  (bot/parse/role_left.py R_MEM_GPU). en16-017.
- One chip said as '单芯', '单颗', '单芯片' (bot/parse/words.py SINGLE_CARD_RE); the user's own single
  card sized when another party's count is named ('really need two … on a single Spark'). zh15-029, en-144.
- An adapter switch ('--use_peft' of TRL, '--use-delta' of CPM-Bee): a LoRA run (bot/parse/stage_key.py).
  zh16-030.
- A KV cache's dtype named ('the KV cache dtype is torch.float16', 'kv cache 的数据类型是 torch.bfloat16'):
  its kv_precision (bot/parse/kv_cache_types.py).
"""

from __future__ import annotations

import json

import pytest

from bot.cli import ask


def _answer(text: str) -> dict:
    return json.loads(ask(text, None, "json")[0])


def _request(text: str) -> dict:
    return _answer(text)["request"]


def _unread(answer: dict) -> list[str]:
    items = (answer.get("interpretation") or {}).get("ignored") or []
    return [i["text"] for i in items if i.get("reason") == "unread"]


TYPO_KEYS = [
    ("Full fine-tune Qwen2.5-7B on 8 A100 80G, max_seq_lenght: 4096", "seq_len", 4096),
    (
        "Full fine-tune Qwen2.5-7B on 8 A100 80G with gradient_accumalation_steps=16 and batch 1",
        "global_batch",
        128,
    ),
    ("LoRA on Llama-3-8B with one A100, lora_rnak: 64", "lora_rank", 64),
    ("Serve Qwen2.5-72B with vLLM on 4 H100, tensor_paralel_size=4", "tp", 4),
    ("Full fine-tune Qwen2.5-7B on 8 H100, per_device_train_bacth_size: 4", "batch_size", 4),
    ("全参微调 Qwen2.5-7B，8 张 A100 80G，max_seq_lenght 设为 4096", "seq_len", 4096),
    ("全参微调 Qwen2.5-7B，8 张 A100 80G，cutoff_lenght 为 8192", "seq_len", 8192),
    ("全参微调 Qwen2.5-7B，8 张 H100，per_device_train_batchsize 设为 4", "batch_size", 4),
    ("用 vLLM 在 4 张 H100 上部署 Qwen2.5-72B，tensor_parralel_size 设成 4", "tp", 4),
]


@pytest.mark.parametrize(("text", "field", "value"), TYPO_KEYS)
def test_a_config_key_typed_with_a_typo_is_read_as_the_key_it_misspells(
    text: str, field: str, value: int
) -> None:
    assert _request(text)[field] == value


@pytest.mark.parametrize(
    ("text", "raw"),
    [
        ("Serve Qwen2.5-72B with vLLM on 4 H100, block_size 16", "16"),  # vLLM's own key, not 'batch_size'
        ("全参微调 Qwen2.5-7B，8 张 A100 80G，eval_batch_size 设为 16", None),  # a key the tools know
        ("Full fine-tune Qwen2.5-7B on 8 A100 80G, lora_alpha: 32", None),  # known: not 'lora_rank'
        ("全参微调 Qwen2.5-7B，8 张 A100，max_len_x 设为 4096", "4096"),  # too short to correct
    ],
)
def test_a_known_or_short_key_is_never_bent_into_its_neighbour(text: str, raw: str | None) -> None:
    answer = _answer(text)
    req = answer["request"]
    assert req["batch_size"] in (None, 1) and req["lora_rank"] is None
    assert req["seq_len"] in (None, 2048, 4096) and (raw is None or raw in _unread(answer))


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("Serving GLM-4.5-Air with vllm --tensor-parallel-size 4. How much KV room?", 4),
        ("vllm serve Qwen/Qwen2.5-72B-Instruct --tensor-parallel-size 4, how much KV cache room?", 4),
        (
            "python -m sglang.launch_server --model-path Qwen/Qwen2.5-72B-Instruct --tp-size 8, users?",
            8,
        ),
        ("用 sglang 部署 Qwen2.5-72B，tp 4，能支持多少并发？", 4),
        ("lmdeploy serve api_server Qwen/Qwen2.5-72B-Instruct --tp 4 能支持多少并发？", 4),
        ("用 vllm 部署 Qwen2.5-72B，--tensor-parallel-size 2 --pipeline-parallel-size 2，KV 能放多少？", 4),
    ],
)
def test_a_serving_engines_tp_times_pp_is_its_gpu_count_when_none_is_said(text: str, count: int) -> None:
    assert _request(text)["gpu_count"] == count


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("Megatron pretrain Llama 70B with TP 8 PP 4 on 1T tokens", None),  # training: DP × TP × PP
        ("用 vllm 在 8 张 A100 上部署 Qwen2.5-72B，tensor-parallel-size 4", 8),  # the count said stays
        ("Serve Qwen2.5-7B with vLLM on 2 A100 with --tensor-parallel-size 2", 2),
    ],
)
def test_a_training_layout_or_a_stated_count_is_not_replaced(text: str, count: int | None) -> None:
    assert _request(text)["gpu_count"] == count


@pytest.mark.parametrize(
    ("text", "count", "per_node"),
    [
        (
            "Fine-tune Llama-2-70B on 2 nodes, each with 8 A100. Fits on one node? Over the 16 GPUs?",
            16,
            8,
        ),
        (
            "GRPO on Qwen3-235B-A22B needs 64 GPUs, but the script uses num_nodes = 4, gpus_per_node = 8.",
            64,
            8,
        ),
        (
            "LoRA of Qwen2.5-72B on 4 nodes with 4 H100 each. Fits on one GPU? We have 16 GPUs in all.",
            16,
            4,
        ),
        ("全参微调 Qwen2.5-72B，2机8卡，单机放得下吗？一共 16 张卡怎么切分？", 16, 8),
        ("全参微调 Qwen2.5-72B，4 机 8 卡。至少需要 64 张卡吗？", 64, 8),
        ("全参微调 Qwen2.5-72B，2 台机器每台 4 张 H100，单机放得下吗？一共 8 张卡", 8, 4),
    ],
)
def test_the_machine_size_of_a_node_count_is_kept_when_another_count_is_sized(
    text: str, count: int, per_node: int
) -> None:
    req = _request(text)
    assert (req["gpu_count"], req["gpus_per_node"]) == (count, per_node)


@pytest.mark.parametrize(
    "text",
    [
        "Fine-tune Llama-2-70B on 16 H100s; someone else used 3 nodes with 8 GPUs each.",  # 24: not 16 whole
        "全参微调 Qwen2.5-72B，用 6 张卡；别人是 4 机 4 卡。",  # 4 per node does not divide 6
    ],
)
def test_a_machine_size_that_does_not_divide_the_count_is_not_kept(text: str) -> None:
    req = _request(text)
    assert req["gpus_per_node"] is None or req["gpu_count"] % req["gpus_per_node"] == 0


@pytest.mark.parametrize(
    ("text", "memory"),
    [
        ("I'm training GRPO with TRL on eight 64GB NPUs with num_generations=8.", 64),
        ("Training GRPO on 8 x 64GB NPUs.", 64),
        ("Full fine-tune Qwen2.5-7B on four 32GB accelerators", 32),
        ("训练 GRPO，用八张 64G 的 NPU", 64),
        ("用 4 张 32G 的 NPU 微调 Qwen2.5-7B", 32),
        ("全参微调 Qwen2.5-7B，8 张 64GB NPU，够吗", 64),
    ],
)
def test_a_memory_before_an_npu_or_accelerator_is_the_cards(text: str, memory: int) -> None:
    assert _request(text)["gpu_memory_gib"] == memory


@pytest.mark.parametrize(
    "text",
    [
        "Fine-tune Qwen2.5-7B on 8 NPUs; the dataset is 64GB.",  # data, not a card
        "用 8 张 NPU 微调 Qwen2.5-7B，数据 64GB",
    ],
)
def test_a_data_size_beside_npus_is_not_a_card_memory(text: str) -> None:
    assert _request(text)["gpu_memory_gib"] != 64


@pytest.mark.parametrize(
    "text",
    [
        "QwQ-32B 用单芯 1684x 能跑吗？编译成 Int4",
        "单颗 910B 能推理 Qwen2.5-32B 吗",
        "Qwen2.5-7B 单芯片推理要多少显存",
        "Does gpt-oss-120b really need two DGX Spark nodes? Shouldn't it fit on a single Spark?",
        "Does Qwen2.5-72B really need two H100s? Shouldn't it fit on a single H100 in int4?",
    ],
)
def test_one_chip_said_in_words_is_one_gpu(text: str) -> None:
    assert _request(text)["gpu_count"] == 1


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("单芯性能太差，8 卡训练 Qwen2.5-7B 要多久", 8),  # a chip's speed, not the count
        ("Pretrain a 7B model on 1T tokens with 64 H100s; a single node is 8 of them", 64),
    ],
)
def test_single_chip_words_do_not_override_a_count(text: str, count: int) -> None:
    assert _request(text)["gpu_count"] == count


@pytest.mark.parametrize(
    "text",
    [
        "Fine-tune Qwen2.5-7B on one A100 40G with use_peft=True",
        "DPO on Qwen2.5-7B with TRL, --use_peft, 8 H100",
        "SFT of Llama-3-8B on 2 4090s: --use_peft --per_device_train_batch_size 1",
        "微调 Qwen2.5-7B，一张 A100 40G，--use-delta --batch-size 1",
        "微调 Qwen2.5-7B，一张 A100 40G，use_peft 设为 true",
        "用 TRL 做 SFT，Qwen2.5-14B，两张 A100，--use_peft",
    ],
)
def test_an_adapter_switch_makes_the_run_a_lora_run(text: str) -> None:
    assert _request(text)["method"] == "lora"


@pytest.mark.parametrize(
    "text",
    [
        "Fine-tune Qwen2.5-7B on one A100 40G with use_peft=False",
        "全参微调 Qwen2.5-7B，一张 A100 40G，use_delta: false",
        "全参微调 Qwen2.5-7B，8 张 A100，--use_peft",  # 'full' said in words stays
    ],
)
def test_an_adapter_switch_set_false_or_against_full_words_is_not_lora(text: str) -> None:
    assert _request(text)["method"] == "full"


@pytest.mark.parametrize(
    ("text", "kv"),
    [
        ("Serving Qwen2.5-7B, the KV cache dtype is torch.float16, 128k context: how much memory?", "fp16"),
        ("Serving Llama-3-8B with vLLM, KV cache data type: bfloat16, 32 users at 8k", "bf16"),
        ("Serve Qwen2.5-14B on one L40S; kv_cache dtype = float16; 16 concurrent users", "fp16"),
        ("部署 Qwen2.5-7B，kv cache 的数据类型是 torch.bfloat16，128k 上下文要多少内存", "bf16"),
        ("用 vllm 部署 Qwen2.5-14B，KV 缓存数据类型为 fp16，并发 16", "fp16"),
        ("部署 Llama-3-8B，KV cache 数据类型：bfloat16，32 个用户", "bf16"),
    ],
)
def test_the_kv_caches_dtype_named_is_its_precision(text: str, kv: str) -> None:
    assert _request(text)["kv_precision"] == kv


@pytest.mark.parametrize(
    "text",
    [
        "Serving Qwen2.5-7B in torch.bfloat16 with a 128k context",  # the weights' dtype, not the cache's
        "部署 Qwen2.5-7B，权重数据类型是 torch.float16，kv cache 要多少",
    ],
)
def test_a_weights_dtype_is_not_the_kv_caches(text: str) -> None:
    assert _request(text)["kv_precision"] is None


@pytest.mark.parametrize(
    "text",
    [
        "Naive fine-tuning of a 7B model on one A100: how much VRAM?",  # no switch at all: full
        "微调 Qwen2.5-7B 要几张 A100？",
    ],
)
def test_a_fine_tuning_without_an_adapter_switch_stays_full(text: str) -> None:
    assert _request(text)["method"] == "full"
