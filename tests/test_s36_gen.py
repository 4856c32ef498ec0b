"""Session 36, general readers (branch s36-gen, issue 24): the working splits' misses by kind, each read as a
way of writing in both languages and tested through the CLI (``sizing-bot ask --format json``):

- **a list of models or sizes in the sentence that asks** ('what card for 8B, 13B and 70B?', 'finetune
  2b、4b、8b 的模型？'): the list is one part of the sentence, not one clause per item
  (bot.parse.asked_model.LIST_RE): the asking part names them all, so the usual order decides (the model
  the message names first, a catalog name before a size) and each other size is named as not sized
  (``model: 13B``, other_setup); before, the last item alone read as the short last clause that asks and
  was sized. Two sizes with a bare comma between them stay two clauses ('7B，14B 能放下吗？');
- **a list of values after one key** ('a target concurrency of 5, 20 or 50', 'batch size 1, 2 or 4', '并发
  10、20 或 50'): the first is used as before, each further item is that key's other value, named
  ``concurrency: 20`` as another setup (other_setup) by the key–value grammar (bot.parse.generic_values
  ``_listed_field``); before, the items after the first were left unread. A number after a list word that
  is a count of something else ('8 epochs and 3 runs') stays as it was;
- **each request's prompt and reply, the token word after the first word** ('1500 input tokens and 300
  output', 'input token 1500, output token 300', '输入 token 1500，输出 token 300', '输入长度：2k，
  输出长度：512'):
  the prompt (``prompt_tokens``) and the sequence sized, prompt plus reply (bot.parse.request_shape); before,
  'input tokens' after the number was no form (the reply left unread, or the prompt lost with a rate of
  requests), nor a token word between 输入/输出 and the number (the prompt unread, the reply named as
  another setup);
- **both counts of one card tried, said with 和 and 都/也** ('单卡 A100 和双卡 A100 都会 OOM', '单卡和双卡
  A100 都 OOM', '一张和两张 A100 也不行', '单卡 4090 48G 和双卡 4090 48G 都一样'): the range the count
  rules read,
  sized from the smaller count up to the larger (``gpu_count`` … ``gpu_count_max``), as '单卡还是双卡 A100'
  was (bot.parse.count_choice ``ZH_BOTH``); before, the second count was dropped without a word. Two cards
  ('一张 A100 和两张 4090') or two counts of images ('一张图和两张图都') are no range;
- **one card, two memory sizes** ('a V100 16GB or 32GB', 'a V100 with 16 GB or 32 GB', 'A100 40G 还是 80G',
  'A100 40G 或 80G'): two cards, the first sized, the second compared in a row of its own
  (``report.comparisons``), as 'A100 40G 还是 A100 80G' was (bot.parse.count_choice ``MEMORY_CHOICE``);
  before, the second size was left unread. A host's memory after the second size ('24GB or 64GB of RAM') is
  not a card.

Each reader has sentences it must read and sentences it must leave as they were. The sentences are written
for these tests (none is from the real-question corpus)."""

from __future__ import annotations

import json
from typing import Any

import pytest


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    """The JSON answer of ``sizing-bot ask --format json TEXT``."""
    from bot.cli import main

    assert main(["ask", "--format", "json", text]) in (0, 2)
    return json.loads(capsys.readouterr().out)


def ignored(answer: dict[str, Any]) -> list[tuple[str, str]]:
    """(text, reason) of each item the answer names as not used."""
    return [(i["text"], i["reason"]) for i in answer["interpretation"]["ignored"]]


# -- a list of sizes in the asking sentence ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "model", "params", "named"),
    [
        # the named model is the list's first size: it is sized (Llama-3-8B is 8.03B in the catalog)
        (
            "Llama-3-8B LoRA on one 4090 OOMs; what card do I need for 8B, 13B and 70B?",
            "Llama-3-8B",
            8.03e9,
            ["model: 13B", "model: 70B"],
        ),
        (
            "Llama-3-8B 在一张 4090 上 LoRA 会 OOM，请问微调 8B、13B 和 70B 的模型各需要什么卡呢？",
            "Llama-3-8B",
            8.03e9,
            ["model: 13B", "model: 70B"],
        ),
        # no name: the first size of the list (before: 13B, the last clause '13B and 70B models …')
        ("How much VRAM do I need to fine-tune 7B, 13B and 70B models with LoRA?", None, 7e9, ["model: 13B"]),
        # an unknown name with its size, then the family's sizes listed: the name typed is sized (2B)
        (
            "FooVL 2B 在 8 张 RTX6000 上 LoRA 微调会 OOM，大概需要多少显存的卡才可以微调 2b、4b、8b 的模型？",
            None,
            2e9,
            ["model: 4b", "model: 8b"],
        ),
    ],
)
def test_a_list_of_sizes_is_one_part(
    capsys: pytest.CaptureFixture[str], text: str, model: str | None, params: float, named: list[str]
) -> None:
    a = ask(capsys, text)
    assert a["request"]["model"] == model
    assert a["request"]["params_total"] == pytest.approx(params)
    rows = [(r["setting"], r["value"]) for r in a["report"]["per_value"]]
    for n in named:
        if model is None:  # s39: with no model named, each size listed is sized in a row of its own
            assert ("params_total", float(n.split(": ")[1][:-1]) * 1e9) in rows
            assert (n, "other_setup") not in ignored(a)
        else:
            assert (n, "other_setup") in ignored(a)


@pytest.mark.parametrize(
    ("text", "params", "named"),
    [
        # two sizes, a bare comma between them: the last clause asks (unchanged)
        ("7B 没问题，14B 能放下吗？", 14e9, "model: 7B"),
        ("跑 7B，14B 能放下吗？", 14e9, "model: 7B"),
        ("13B 跑起来没问题，但 70B 微调要多大显存？", 70e9, "model: 13B"),
        ("Fine-tuning 7B works on my card, but what about 70B?", 70e9, "model: 7B"),
    ],
)
def test_two_clauses_stay_two(
    capsys: pytest.CaptureFixture[str], text: str, params: float, named: str
) -> None:
    a = ask(capsys, text)
    assert a["request"]["params_total"] == pytest.approx(params)
    assert (named, "other_setup") in ignored(a)


# -- a list of values after one key -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "field", "value", "named"),
    [
        (
            "Serving Qwen2.5-7B with vLLM on one 4090 for a target concurrency of 5, 20 or 50 requests at "
            "2048 tokens each: how much KV cache?",
            "concurrency",
            5,
            ["concurrency: 20", "concurrency: 50"],
        ),
        (
            "用 vLLM 在一张 4090 上部署 Qwen2.5-7B，并发数 10、20 或 50，"
            "每个请求 2048 tokens，KV cache 要多少？",
            "concurrency",
            10,
            ["50"],
        ),
        (
            "LoRA fine-tuning Llama-3-8B on one A100 with batch size 1, 2 or 4: which fits?",
            "batch_size",
            1,
            ["batch_size: 2", "batch_size: 4"],
        ),
        (
            "一张 A100 上 LoRA 微调 Llama-3-8B，batch size 设 2 或 4 哪个能放下？",
            "batch_size",
            2,
            ["batch_size: 4"],
        ),
    ],
)
def test_a_list_after_one_key(
    capsys: pytest.CaptureFixture[str], text: str, field: str, value: int, named: list[str]
) -> None:
    a = ask(capsys, text)
    assert a["request"][field] == value
    got = ignored(a)
    # s36-lists: each further value is sized in a row of its own (report.per_value), no longer sent away
    # as another setup to ask separately: the row, or (no row) the name
    rows = {(r["setting"], r["value"]) for r in a["report"]["per_value"]}
    for n in named:
        v = int(n.rpartition(":")[2])
        assert (field, v) in rows or any(t.endswith(n) and r == "other_setup" for t, r in got), got
        assert (field, v) not in rows or not any(t.endswith(n) for t, _ in got), got  # never both
    assert not [t for t, r in got if r == "unread"]


@pytest.mark.parametrize(
    ("text", "field", "value", "unread"),
    [
        # a count of something else after 'and' stays unread (no key before the list's first item)
        ("LoRA fine-tuning Llama-3-8B on one A100 with batch size 4, 8 epochs and 3 runs?", "epochs", 8, "3"),
        ("LoRA 微调 Llama-3-8B，batch size 8，4 张 A100 够吗？", "gpu_count", 4, None),
        (
            "Serving Qwen2.5-7B on one 4090 at concurrency 16, context 8192 and 2 replicas?",
            "seq_len",
            8192,
            None,
        ),
        ("部署 Qwen2.5-7B，并发 16，上下文 8192 和 3 个副本，一张 4090 够吗？", "concurrency", 16, None),
    ],
)
def test_no_list_no_change(
    capsys: pytest.CaptureFixture[str], text: str, field: str, value: int, unread: str | None
) -> None:
    a = ask(capsys, text)
    assert a["request"][field] == value
    got = ignored(a)
    assert not [
        t
        for t, r in got
        if r == "other_setup" and ":" in t and t.split(":")[0] in ("batch_size", "concurrency", "seq_len")
    ], got
    if unread is not None:
        assert (unread, "unread") in got


# -- each request's prompt and reply ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "prompt", "seq"),
    [
        # 1500 + 300 = 1800 tokens per sequence, 1500 of them prefilled
        ("Serving Llama-3.1-70B with 1500 input tokens and 300 output per request on H100s?", 1500, 1800),
        (
            "We need 1000 requests per hour on Llama-3.1-70B, avg 1500 input tokens and 300 output, "
            "how many H100?",
            1500,
            1800,
        ),
        ("Serving Llama-3.1-70B on H100s, input token 1500, output token 300, 20 users?", 1500, 1800),
        ("Llama-3.1-70B 部署在 H100 上，输入 token 1500，输出 token 300，20 并发要几张卡？", 1500, 1800),
        # '2k' as these forms read it (2000; '2k input, 512 output' reads 2000 + 512)
        ("Llama-3.1-70B 部署在 H100 上，输入长度：2k，输出长度：512，20 并发要几张卡？", 2000, 2512),
    ],
)
def test_prompt_and_reply_with_a_token_word(
    capsys: pytest.CaptureFixture[str], text: str, prompt: int, seq: int
) -> None:
    a = ask(capsys, text)
    assert a["request"]["prompt_tokens"] == prompt
    assert a["request"]["seq_len"] == seq
    assert not [t for t, r in ignored(a) if r == "unread"]


@pytest.mark.parametrize(
    ("text", "prompt", "seq"),
    [
        # forms read before: unchanged
        ("Llama-3.1-70B 部署在 H100 上，输入 1500 token 输出 300，20 并发要几张卡？", 1500, 1800),
        ("serving gemma-2-27b on 1x A100 80G, 50 concurrent users, 2k prompt + 512 output", 2000, 2512),
        ("Llama-3.1-70B 部署在 H100 上，输入长度 2048，20 并发要几张卡？", 2048, 2048),
        # a prompt alone: no reply added
        ("Serving Llama-3.1-70B on H100s with 1500 input tokens, and 3 replicas?", 1500, 1500),
    ],
)
def test_prompt_forms_read_before(
    capsys: pytest.CaptureFixture[str], text: str, prompt: int, seq: int
) -> None:
    a = ask(capsys, text)
    assert a["request"]["prompt_tokens"] == prompt
    assert a["request"]["seq_len"] == seq


# -- both counts of one card tried ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "gpu", "memory"),
    [
        ("Qwen2.5-32B 用 vLLM 部署，单卡 A100 和双卡 A100 都会 OOM，需要几张？", "A100-SXM4-80GB", None),
        ("Qwen2.5-32B 用 vLLM 部署，单卡和双卡 A100 都 OOM，需要几张卡？", "A100-SXM4-80GB", None),
        ("Qwen2.5-32B 用 vLLM 部署，一张和两张 A100 也不行，要几张？", "A100-SXM4-80GB", None),
        ("FooVL-28B 加载卡住，单卡 4090 48G 和双卡 4090 48G 都一样，需要几张卡？", "RTX-4090", 48.0),
        # English said the same with 'both … and' before (unchanged)
        (
            "Serving Qwen2.5-32B with vLLM: both 1 and 2 A100s OOM, how many do I need?",
            "A100-SXM4-80GB",
            None,
        ),
    ],
)
def test_both_counts_tried(
    capsys: pytest.CaptureFixture[str], text: str, gpu: str, memory: float | None
) -> None:
    r = ask(capsys, text)["request"]
    assert (r["gpu"], r["gpu_count"], r["gpu_count_max"], r["gpu_memory_gib"]) == (gpu, 1, 2, memory)


@pytest.mark.parametrize(
    ("text", "count"),
    [
        # two cards: no range of one card's counts
        ("Qwen2.5-32B 用 vLLM 部署，一张 A100 和两张 4090 都试过，哪个能跑？", 1),
        # images, not cards
        ("Qwen2-VL-7B 推理，一张图和两张图都会 OOM，单卡 4090 够吗？", 1),
        # one count with 和 … 都 elsewhere
        ("两张 A100 和 Qwen2.5-32B 都准备好了，用 vLLM 部署够吗？", 2),
        ("4 张 4090 跑 Qwen2.5-32B，显存和带宽也够吗？", 4),
    ],
)
def test_no_range_without_one_card(capsys: pytest.CaptureFixture[str], text: str, count: int) -> None:
    r = ask(capsys, text)["request"]
    assert (r["gpu_count"], r["gpu_count_max"]) == (count, None)


# -- one card, two memory sizes ---------------------------------------------------------------------------


def compared(answer: dict[str, Any]) -> list[str]:
    """The cards of the answer's comparison rows."""
    return [c["gpu"] for c in (answer.get("report") or {}).get("comparisons") or []]


@pytest.mark.parametrize(
    ("text", "gpu", "other"),
    [
        ("Can I fine-tune Llama-2-7B with LoRA on a V100 16GB or 32GB?", "V100-SXM2-16GB", "V100-SXM2-32GB"),
        (
            "Can I fine-tune Llama-2-7B with LoRA on a V100 with 16 GB or 32 GB?",
            "V100-SXM2-16GB",
            "V100-SXM2-32GB",
        ),
        ("LoRA 微调 Llama-2-7B，用 A100 40G 还是 80G？", "A100-SXM4-40GB", "A100-SXM4-80GB"),
        ("LoRA 微调 Llama-2-7B，A100 40G 或 80G 哪个够？", "A100-SXM4-40GB", "A100-SXM4-80GB"),
    ],
)
def test_one_card_two_memories(capsys: pytest.CaptureFixture[str], text: str, gpu: str, other: str) -> None:
    a = ask(capsys, text)
    assert a["request"]["gpu"] == gpu
    assert other in compared(a)
    assert not [t for t, r in ignored(a) if r == "unread"]


@pytest.mark.parametrize(
    ("text", "gpu", "memory", "host"),
    [
        # the host's memory after the second size: no second card
        ("Serving Qwen2.5-7B on one RTX 4090 24GB or 64GB of RAM for offload?", "RTX-4090", 24.0, 64.0),
        ("一张 4090 24G 或者 64G 内存够不够跑 Qwen2.5-7B？", "RTX-4090", 24.0, 64.0),
        # two cards named in full: as before
        ("LoRA 微调 Llama-2-7B，用 A100 40G 还是 A100 80G？", "A100-SXM4-40GB", 40.0, None),
        (
            "Can I fine-tune Llama-2-7B with LoRA on one A100 40GB, or do I need 2?",
            "A100-SXM4-40GB",
            40.0,
            None,
        ),
    ],
)
def test_no_second_card(
    capsys: pytest.CaptureFixture[str], text: str, gpu: str, memory: float, host: float | None
) -> None:
    a = ask(capsys, text)
    r = a["request"]
    assert (r["gpu"], r["gpu_memory_gib"], r["host_memory_gib"]) == (gpu, memory, host)
    assert len(compared(a)) <= 1
