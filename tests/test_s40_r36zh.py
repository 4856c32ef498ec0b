"""Round 36 zh (s40-r36zh): readers for the misses of r36work zh, each on sentences of our own (must-read and
must-not-misread), both languages where the form exists. Values are the ones the sentences state."""

from __future__ import annotations

from typing import Any

import pytest

from tests.real_questions import answer_json


def _ask(text: str) -> tuple[dict[str, Any], list[tuple[str, str]], dict[str, Any]]:
    a = answer_json(text)
    ignored = [(i["text"], i["reason"]) for i in a["interpretation"].get("ignored") or []]
    return a["request"], ignored, a


# --- a load tester's concurrent threads are the load ('并发线程 100 个', '64 concurrent threads') -------


@pytest.mark.parametrize(
    ("text", "load"),
    [
        ("用 jmeter 测试，我设置并发线程 100 个，用 7B 模型能否提升并发量？", 100),
        ("用 jmeter 压测 Qwen2.5-7B，并发线程数设为 50，单卡 4090 够吗？", 50),
        ("With 64 concurrent threads in JMeter, how many A10 do I need for a 7B model?", 64),
    ],
)
def test_concurrent_threads_are_the_load(text: str, load: int) -> None:
    req, _, _ = _ask(text)
    assert req["stage"] == "inference" and req["concurrency"] == load


def test_bare_thread_count_is_no_load() -> None:
    """'线程数 8' (a CPU thread count) is not a concurrency: it stays unread, the default load is sized."""
    req, ignored, _ = _ask("线程数 8，7B 模型推理要几张卡？")
    assert req["concurrency"] != 8 and ("8", "unread") in ignored


# --- --max_gen_len is the RL completion length (minimind's train_grpo.py) ------------------------------


@pytest.mark.parametrize(
    ("text", "length", "gens"),
    [
        (
            "train_grpo.py 在 8GB 的 GPU 上 OOM，参数 --batch_size 2 --num_generations 4 --max_gen_len 256",
            256,
            4,
        ),
        ("GRPO 训练 Qwen2.5-1.5B，max_gen_len 设成 1024，num_generations 8，一张 A100 够吗？", 1024, 8),
    ],
)
def test_max_gen_len_is_the_completion(text: str, length: int, gens: int) -> None:
    req, _, _ = _ask(text)
    assert req["algorithm"] == "grpo" and req["max_completion_length"] == length
    assert req["num_generations"] == gens


def test_max_gen_len_in_serving_is_named() -> None:
    """Meta's example script's --max_gen_len when serving: the training-only field is named, never dropped."""
    req, ignored, _ = _ask(
        "用 llama 的 example_text_completion.py 推理 Llama-2-7B，--max_gen_len 64，4090 能跑吗？"
    )
    assert req["stage"] == "inference" and req.get("max_completion_length") is None
    assert ("max_completion_length: 64", "training_only") in ignored


# --- a name before whether the job is supported ('OCRFlux 是否支持多卡部署') --------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [("OCRFlux 是否支持多卡部署？", "OCRFlux"), ("FooOCR 能否单卡推理？4090 够吗", "FooOCR")],
)
def test_name_before_can_it_be_served(text: str, name: str) -> None:
    _, _, a = _ask(text)
    assert a["interpretation"]["unknown_model"] == name


@pytest.mark.parametrize(
    ("text", "runtime"), [("vLLM 是否支持多卡部署？", "vLLM"), ("Ollama 支持多卡推理吗？", "Ollama")]
)
def test_engine_before_can_it_be_served_is_no_model(text: str, runtime: str) -> None:
    req, _, a = _ask(text)
    assert req["runtime"] == runtime and a["interpretation"]["unknown_model"] is None


def test_card_before_can_it_be_served_is_no_model() -> None:
    req, _, a = _ask("H20 是否支持多卡部署？")
    assert req["gpu"] == "H20-96GB" and a["interpretation"]["unknown_model"] is None


# --- letters glued after a family's version: one name ('glm-4v-9b') ----------------------------------


def test_glued_vision_release_named_whole() -> None:
    req, _, a = _ask("部署 glm-4v-9b 需要多少显存？")
    assert a["interpretation"]["unknown_model"] == "glm-4v-9b" and req["params_total"] == 9e9


def test_glued_vision_release_beside_its_text_sibling() -> None:
    """'glm-4v-9b … glm-4-9b': the first sized as typed, the second (a catalog release) named, not 'glm-4'."""
    _, ignored, a = _ask("glm-4v-9b 支持在 910B 上部署么？期望实现 910B 上部署 glm-4-9b。")
    assert a["interpretation"]["unknown_model"] == "glm-4v-9b"
    assert ("model: glm-4-9b", "other_setup") in ignored


@pytest.mark.parametrize(
    ("text", "model"), [("部署 glm-4-9b", "GLM-4-9B"), ("部署 qwen2.5vl-7b", "Qwen2.5-VL-7B")]
)
def test_catalog_releases_unchanged(text: str, model: str) -> None:
    req, _, _ = _ask(text)
    assert req["model"] == model


# --- an ordinal card says which card, never how many ('第一张卡', '第二张卡', '第 2 块 GPU') -------------


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("双卡 4090 部署 Qwen2-7B，总是跑在第一张卡上", 2),
        ("我有 4 张 A100，vLLM 部署 Qwen2-7B 总是只用到第一张卡", 4),
        ("第 2 块 GPU 一直空着，8 张 A100 部署 Qwen2-72B", 8),
        ("4090 跑 InternVL 的 Int8 版本，lmdeploy 似乎不支持双卡运行，总是运行在第一张卡上", 2),
    ],
)
def test_ordinal_card_is_no_count(text: str, count: int) -> None:
    req, _, _ = _ask(text)
    assert req["gpu_count"] == count


@pytest.mark.parametrize("text", ["部署 Qwen2-7B，第二张卡没有用起来", "部署 Qwen2-7B，显存全堆在第一张卡上"])
def test_ordinal_card_alone_sets_no_count(text: str) -> None:
    req, _, _ = _ask(text)
    assert req.get("gpu_count") is None


def test_ordinal_step_still_a_step_label() -> None:
    req, ignored, _ = _ask("第一步 SFT 用 2 张 A100")
    assert req["gpu_count"] == 2 and ("第一步", "step_label") in ignored


# --- the asker's own effort days are no deadline ('研究了两天', 'spent 2 days trying') -----------------


@pytest.mark.parametrize(
    ("text", "typed"),
    [
        ("研究了两天本地运行 Int8 版本，4090 还是跑不起来", "两天"),
        ("折腾了三天，还是没法在 4090 上部署 Qwen2-7B", "三天"),
        ("I spent 2 days trying to serve Qwen2-7B on a 4090 and it still OOMs", "2 days"),
    ],
)
def test_effort_days_are_no_deadline(text: str, typed: str) -> None:
    req, ignored, _ = _ask(text)
    assert req.get("deadline_days") is None and req.get("hours") is None
    assert (typed, "observed") in ignored


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("我想两天内微调完 Qwen2-7B，需要几张 A100？", "deadline_days", 2.0),
        ("在 8 张 A100 上训练了两天，还差多少？", "hours", 48.0),
        ("8 张 H100 跑了 3 天，花了多少钱？", "hours", 72.0),
        ("试了两天还是 OOM，两天内要在 4 张 A100 上微调完 Qwen2-7B 来得及吗？", "deadline_days", 2.0),
    ],
)
def test_deadlines_and_runs_unchanged(text: str, field: str, value: float) -> None:
    req, _, _ = _ask(text)
    assert req[field] == value


# --- a compared card keeps its stated memory (report.comparisons[].gpu_memory_gib) ----------------------


@pytest.mark.parametrize(
    "text",
    [
        "我只有一张 24 GB 的 RTX 3090，或者更现实点——一张 12 GB 的 3060 Ti，能用 LoRA 微调 Llama-3-8B 吗？",
        "I only have one 24 GB RTX 3090, or a 12 GB 3060 Ti. Can I LoRA fine-tune Llama-3-8B?",
    ],
)
def test_compared_card_carries_its_stated_memory(text: str) -> None:
    req, _, a = _ask(text)
    assert req["gpu"] == "RTX-3090" and req["gpu_memory_gib"] == 24.0
    rows = a["report"]["comparisons"]
    assert [(r["gpu"], r["gpu_memory_gib"]) for r in rows] == [("RTX-3060-Ti", 12.0)]


def test_compared_card_without_a_memory_has_none() -> None:
    _, _, a = _ask("A100 和 H100 哪个训练 Llama-3-8B 更快？")
    assert [r["gpu_memory_gib"] for r in a["report"]["comparisons"]] == [None]


def test_scorer_reads_each_cards_memory_in_its_row() -> None:
    """The scorer rule: a list of stated memories is understood when each is the sized card's or a compared
    card's row's; a memory neither holds is not."""
    from tests.real_questions import key_understood

    answer = {"request": {"gpu_memory_gib": 24.0}, "report": {"comparisons": [{"gpu_memory_gib": 12.0}]}}
    assert key_understood("gpu_memory_gib", [24, 12], answer)
    assert not key_understood("gpu_memory_gib", [24, 16], answer)


# --- a family, then its sizes listed as versions in the next clause ('DeepSeek R1 部署，14B 和 32B') ---


@pytest.mark.parametrize(
    ("text", "model", "other"),
    [
        (
            "DeepSeek R1 本地部署，14B 和 32B 这两个版本最少分别需要多少显存？",
            "DeepSeek-R1-Distill-Qwen-14B",
            "32B",
        ),
        ("Qwen2.5 部署，7B 和 14B 两个版本分别要多少显存？", "Qwen2.5-7B", "14B"),
        ("For Qwen2.5 serving: the 7B and 14B versions, how much VRAM each?", "Qwen2.5-7B", "14B"),
    ],
)
def test_sizes_listed_as_versions_of_the_family(text: str, model: str, other: str) -> None:
    req, ignored, _ = _ask(text)
    assert req["model"] == model and (f"model: {other}", "other_setup") in ignored


def test_sizes_after_a_card_are_no_release() -> None:
    """'4090 本地部署，7B 和 14B 这两个版本': a card before the clause is no family; no model is made up."""
    req, _, _ = _ask("4090 本地部署，7B 和 14B 这两个版本哪个合适？")
    assert req.get("model") is None and req["params_total"] == 7e9 and req["gpu"] == "RTX-4090"
