"""Round 21 of the real questions, Chinese (issue 24; tests/data/real_questions/zh_r21.json): kinds of writing
the r21work half showed the parser missing, each read for its axis and tested through the CLI
(``sizing-bot ask --format json``):

- a weight width written with a plural 'bits' ('13B 4bits 的模型', '4 bits 量化'): the 4-bit weights, as
  '4bit' was (bot.parse.precision_words.PRECISION_RE);
- a card's memory said as an upper bound before the card's words ('8G 以下的 GPU 显存', '12G 以内的显卡'): the
  card's memory (bot.parse.bound_memory); a lower bound ('8G 以上的显存') is no card's;
- a bare 内存 in a hardware line that lists the CPU before it ('CPU i5，内存 16G') or says the card's memory
  apart ('显卡 3060 12G'): the host's memory (bot.parse.prose_forms.host_memory);
- a retrieval model's joined name with an underscore part or no digit ('foo-reranker-base_v2',
  'bar-embedding-large'): the model, named as typed (bot.parse.verb_names);
- one card that failed, then one count tried ('单卡 OOM …我试了一下可以加载到三张卡上'): the counts tried, a
  range from one card (bot.parse.counts_tried);
- the most load a setup reached, after the load's noun ('并发量不到 50', '并发数最多 20'): the concurrency
  (bot.parse.role_left.L_CONC).

Round 22 (tests/data/real_questions/zh_r22.json, its r22work half), the same way:

- a card outside the catalog as Chinese messages write it: Moore Threads' 'X300' after its maker's name (no
  'x 300' count, bot.parse.normalize) and its two-digit 'S80', Hygon's 'DCU' without a model, Rockchip's
  'RK3588', a Xiaomi phone ('小米 14 Pro'): named as typed, never an A100 (bot.parse.lexicon.UNKNOWN_GPU_RE);
  'RK3588，16G 内存' is that device's memory (bot.parse.unified_ram);
- '是哪个微调版本，本地部署…' asks which tuned release is served: no fine-tuning (bot.parse.words);
- a joined name before '这个模型' ('Foo-Net 这个模型'), and a retrieval model's name anywhere in the message
  ('bge-large-zh-v1.5 是用 … 加载的'), named as typed; the tool in the job's means slot ('用 FlagEmbedding
  部署 bge-…') is no model (bot.parse.verb_names);
- a size glued after a catalog name that states none ('DeepSeek-R1-16b'): a release of its own size, named
  as typed, never the 671B DeepSeek-R1 (bot.parse.models);
- a length trained up to, in a message that names a length ('max_length 超过 1 万就 OOM，我想训到 40000'):
  the length sized (bot.parse.phrasing_zh); steps or epochs trained up to are none;
- a long-context release by its suffix ('chatglm2-32k', 'Qwen2.5-7B-Instruct-1M'): sized as its model and
  named as typed, the suffix no number (bot.parse.context_release; substitution ``long_context_release``).

The sentences are written for these tests (none is from the real-question corpus)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.cli_run import ignored_pairs


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    """The JSON answer of ``sizing-bot ask --format json TEXT``."""
    from bot.cli import main

    assert main(["ask", "--format", "json", text]) in (0, 2)
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("text", "precision"),
    [
        ("部署 Qwen2-14B 4bits 的模型要多少显存？", "int4"),
        ("用 8 bits 量化部署 Qwen2-7B 够不够？", "int8"),
    ],
)
def test_a_plural_bits_width_is_the_weights(
    capsys: pytest.CaptureFixture[str], text: str, precision: str
) -> None:
    assert ask(capsys, text)["request"]["precision"] == precision


def test_a_bits_count_without_a_width_digit_is_no_precision(capsys: pytest.CaptureFixture[str]) -> None:
    assert ask(capsys, "部署 Qwen2-7B 需要多少显存？日志里写着 32 bits")["request"]["precision"] != "int2"


@pytest.mark.parametrize(
    ("text", "memory"),
    [
        ("6G 以下的 GPU 显存能推理 Qwen2-1.5B 吗？", 6.0),
        ("12G 以内的显卡能不能跑 Qwen2-7B？", 12.0),
        ("24GB 之内的卡能微调 Qwen2-7B 吗？", 24.0),
    ],
)
def test_a_card_memory_said_as_an_upper_bound_is_the_cards(
    capsys: pytest.CaptureFixture[str], text: str, memory: float
) -> None:
    assert ask(capsys, text)["request"]["gpu_memory_gib"] == memory


@pytest.mark.parametrize(
    "text",
    ["部署 Qwen2-7B 是不是需要 16G 以上的显存？", "10G 以下的模型哪个最适合部署在 4090 上？"],
)
def test_a_lower_bound_or_a_model_size_is_no_card_memory(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    answer = ask(capsys, text)
    assert answer["request"]["gpu_memory_gib"] in (None, 24.0)  # 24: the 4090's own


@pytest.mark.parametrize(
    "text",
    [
        "电脑 CPU i5-12400，内存 16G，显卡 3060，推理 Qwen2-7B 有多慢？",
        "显卡 3060 12G，内存 16G，推理 Qwen2-7B 有多慢？",
    ],
)
def test_a_bare_ram_in_a_hardware_line_is_the_hosts(capsys: pytest.CaptureFixture[str], text: str) -> None:
    answer = ask(capsys, text)
    assert answer["request"]["host_memory_gib"] == 16.0 or (
        "host_memory: 16 GB",
        "all_on_gpu",
    ) in ignored_pairs(answer)
    assert answer["request"]["gpu_memory_gib"] != 16.0


def test_a_bare_ram_beside_a_card_alone_stays_the_cards(capsys: pytest.CaptureFixture[str]) -> None:
    """'显卡 3090，内存 24G': no CPU listed nor card memory said apart: 24G may be the card's."""
    answer = ask(capsys, "显卡 3090，内存 24G，推理 Qwen2-7B 有多慢？")
    assert answer["request"]["host_memory_gib"] is None
    assert not any(item.startswith("host_memory") for item, _ in ignored_pairs(answer))


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("为什么 foo-reranker-base_v2 在 Xinference 下部署要占 3G 显存？", "foo-reranker-base_v2"),
        ("bar-embedding-large 部署要多少显存？", "bar-embedding-large"),
    ],
)
def test_a_retrieval_models_joined_name_is_named_as_typed(
    capsys: pytest.CaptureFixture[str], text: str, name: str
) -> None:
    assert ask(capsys, text)["interpretation"]["unknown_model"] == name


def test_a_joined_setting_word_is_no_model(capsys: pytest.CaptureFixture[str]) -> None:
    assert ask(capsys, "multi-node 在 8 卡上部署要多少显存？")["interpretation"]["unknown_model"] is None


def test_one_card_failed_then_one_count_tried_is_a_range(capsys: pytest.CaptureFixture[str]) -> None:
    answer = ask(capsys, "单卡部署 Qwen2-14B 总是 OOM。我试了一下可以加载到三张卡上，但是很慢。")
    assert (answer["request"]["gpu_count"], answer["request"]["gpu_count_max"]) == (1, 3)


def test_one_card_that_ran_then_a_count_tried_is_no_range(capsys: pytest.CaptureFixture[str]) -> None:
    answer = ask(capsys, "单卡能跑 Qwen2-7B，我试了一下加载到两张卡上")
    assert answer["request"]["gpu_count_max"] is None


def test_the_bare_kind_word_is_no_name(capsys: pytest.CaptureFixture[str]) -> None:
    """'reranker' alone names the kind of model; the name after the job word is the model's."""
    assert ask(capsys, "用 decoder_only reranker 微调 Bazmodel-7B 要多少显存？")["interpretation"][
        "unknown_model"
    ] == ("Bazmodel-7B")


@pytest.mark.parametrize(
    ("text", "load"),
    [
        ("两张 4090 部署 Qwen2-7B，并发量不到 40，正常吗？", 40),
        ("一张 L40S 推理 Qwen2-7B，并发数最多 12，怎么提升？", 12),
    ],
)
def test_the_most_load_a_setup_reached_is_the_load(
    capsys: pytest.CaptureFixture[str], text: str, load: int
) -> None:
    assert ask(capsys, text)["request"]["concurrency"] == load


def test_a_time_after_a_bare_load_word_and_bound_is_no_load(capsys: pytest.CaptureFixture[str]) -> None:
    assert ask(capsys, "并发不到 3 秒就超时，部署 Qwen2-7B 怎么办？")["request"]["concurrency"] != 3


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("用摩尔线程 X300 能跑 Qwen2.5-7B 吗？", "摩尔线程 X300"),
        ("MTT S80 跑 Qwen2.5-7B 够吗？", "MTT S80"),
        ("Qwen2.5-7B 能部署到海光 DCU 上吗？", "海光 DCU"),
        ("DCU 服务器上能跑 Qwen2.5-7B 吗？", "DCU"),
        ("RK3576 开发板跑 Qwen2.5-1.5B 要多少内存？", "RK3576"),
        ("小米 15 Ultra 上跑 Qwen2.5-1.5B 快吗？", "小米 15 Ultra"),
    ],
)
def test_a_card_outside_the_catalog_is_named_as_typed(
    capsys: pytest.CaptureFixture[str], text: str, card: str
) -> None:
    assert ask(capsys, text)["interpretation"]["unknown_gpu"] == card


def test_a_size_after_a_phone_makers_name_is_no_phone(capsys: pytest.CaptureFixture[str]) -> None:
    assert ask(capsys, "小米 7B 模型怎么部署？")["interpretation"]["unknown_gpu"] is None


def test_a_count_glued_after_x_is_still_a_count(capsys: pytest.CaptureFixture[str]) -> None:
    """Only after Moore Threads' name is 'X300' a card: 'A100 x8' is eight A100s."""
    assert ask(capsys, "A100 x8 跑 Qwen2.5-72B 要多久？")["request"]["gpu_count"] == 8


def test_a_soc_boards_ram_is_its_memory(capsys: pytest.CaptureFixture[str]) -> None:
    answer = ask(capsys, "RK3588，16G 内存，能跑 Qwen2.5-3B 吗？")
    assert (answer["request"]["gpu"], answer["request"]["gpu_memory_gib"]) == ("RK3588", 16.0)


def test_which_tuned_release_is_served_is_no_fine_tuning(capsys: pytest.CaptureFixture[str]) -> None:
    assert ask(capsys, "这个是哪个微调版本？本地部署要多少显存？")["request"]["stage"] == "inference"


def test_a_tuned_release_trained_again_is_a_fine_tuning(capsys: pytest.CaptureFixture[str]) -> None:
    assert ask(capsys, "这个微调版本再微调一次要多少显存？")["request"]["stage"] == "finetune"


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("用 4090 能跑 Foo-Net 这个模型吗？", "Foo-Net"),
        ("bge-large-zh-v1.5 是用 FlagEmbedding 加载的，T4 够吗？", "bge-large-zh-v1.5"),
        ("用 FlagEmbedding 部署 bge-small-zh 要多少显存？", "bge-small-zh"),
        ("DeepSeek-R1-16b 部署要多少显存？", "DeepSeek-R1-16b"),
    ],
)
def test_a_name_the_catalog_lacks_is_named_as_typed(
    capsys: pytest.CaptureFixture[str], text: str, name: str
) -> None:
    assert ask(capsys, text)["interpretation"]["unknown_model"] == name


def test_a_glued_size_sizes_that_release(capsys: pytest.CaptureFixture[str]) -> None:
    assert ask(capsys, "DeepSeek-R1-16b 部署要多少显存？")["request"]["params_total"] == 16e9


def test_a_catalog_name_with_its_size_stays_the_catalogs(capsys: pytest.CaptureFixture[str]) -> None:
    model = ask(capsys, "DeepSeek-R1-32b 部署要多少显存？")["request"]["model"]
    assert model == "DeepSeek-R1-Distill-Qwen-32B"


@pytest.mark.parametrize(
    ("text", "length"),
    [
        ("用 8 张 A800 全参微调 Qwen2.5-7B，max_length 超过 1 万就 OOM，我想训到 40000。", 40000),
        ("cutoff_len 4096 能跑，上下文想训练到 64k 要几张卡？", 65536),
    ],
)
def test_a_length_trained_up_to_is_the_length(
    capsys: pytest.CaptureFixture[str], text: str, length: int
) -> None:
    assert ask(capsys, text)["request"]["seq_len"] == length


@pytest.mark.parametrize(
    "text", ["max_length 2048，训到 3000 步要多久？", "上下文 8k，训到 2 个 epoch 要多久？"]
)
def test_steps_or_epochs_trained_up_to_are_no_length(capsys: pytest.CaptureFixture[str], text: str) -> None:
    assert ask(capsys, text)["request"]["seq_len"] in (2048, 8192)


@pytest.mark.parametrize(
    ("text", "typed", "used"),
    [
        ("chatglm2-32k 推理 16k 的文本要多少显存？", "chatglm2-32k", "ChatGLM2-6B"),
        ("Qwen2.5-7B-Instruct-1M 推理要多少显存？", "Qwen2.5-7B-Instruct-1M", "Qwen2.5-7B"),
    ],
)
def test_a_long_context_release_is_its_model_named_as_typed(
    capsys: pytest.CaptureFixture[str], text: str, typed: str, used: str
) -> None:
    answer = ask(capsys, text)
    assert answer["request"]["model"] == used
    assert {"typed": typed, "used": used, "reason": "long_context_release"} in answer["interpretation"][
        "substitutions"
    ]
    assert not any(item.startswith(("-32k", "-1m")) for item, _ in ignored_pairs(answer))
