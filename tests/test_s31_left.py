"""Session 31 part s31-left: answers true to the job as typed (each item its own tests, both languages)."""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def _json(capsys, question: str) -> tuple[int, dict]:
    code = main(["ask", "--format", "json", question])
    return code, json.loads(capsys.readouterr().out)


# 1. A model-free per-card ceiling answer says in JSON what it answered (bot.contract._answered).


@pytest.mark.parametrize(
    ("question", "gpu"),
    [
        ("单卡 40 并发，要 200 并发要几张卡", None),
        ("one L40S handles 40 concurrent, how many for 200?", "L40S"),
    ],
)
def test_ceiling_answer_is_said_in_json(capsys, question, gpu):
    code, d = _json(capsys, question)
    assert code == 0 and d["understood"] is False  # nothing was sized
    assert d["answered"] == "ceiling"
    assert d["ceiling"] == {"per_card": 40, "load": 200, "cards": 5, "under": False, "gpu": gpu}


@pytest.mark.parametrize(
    "question", ["全参微调7B要几张A100", "How many H100s to serve Llama 3 70B for 100 users?"]
)
def test_sized_answer_says_sized_and_no_ceiling(capsys, question):
    _, d = _json(capsys, question)
    assert d["understood"] is True and d["answered"] == "sized" and d["ceiling"] is None


@pytest.mark.parametrize("question", ["今天天气怎么样", "what is the weather today"])
def test_not_understood_answers_nothing(capsys, question):
    code, d = _json(capsys, question)
    assert code == 2 and d["answered"] is None and d["ceiling"] is None


# 2. A family named beside a card lists its sizes with fits / does not fit (bot.core.family_fits).


def _answer(question: str):
    from bot.core.pipeline import Context, answer

    return answer(question, Context(), None)


@pytest.mark.parametrize(
    ("question", "largest", "too_big"),
    [
        ("千问3 在 3060 12G 上能跑哪个", "14B", "32B"),
        ("which Llama 3 fits on a 12 GB 3060?", "8B", "70B"),
        ("llama 3 在两张 3090 上 int4 能跑哪个", "70B", None),
    ],
)
def test_family_beside_a_card_lists_its_sizes(question, largest, too_big):
    result = _answer(question)
    fits = result.family_fits
    assert result.report is None and fits is not None
    assert fits.largest is not None and fits.largest.size == largest
    sizes = [s.size for s in fits.sizes]
    fitting = [s for s in fits.sizes if s.fits]
    assert all(s.fits for s in fits.sizes[: len(fitting)])  # those that fit come first
    if too_big:
        assert not next(s for s in fits.sizes if s.size == too_big).fits
    assert len(sizes) == len(set(sizes)) >= 2


def test_family_rows_agree_with_one_size_asked():
    """Each row is the answer the size asked alone gets: its weights and the fewest cards."""
    fits = _answer("which Llama 3 fits on a 12 GB 3060?").family_fits
    assert fits is not None
    alone = ("does Llama 3 8B fit on a 12 GB 3060?", "does Llama 3 70B fit on a 12 GB 3060?")
    for row, asked in zip(fits.sizes, alone, strict=True):
        inf = _answer(asked).report.inference
        assert (row.weight_format, row.min_gpus) == (inf.weight_format, inf.min_gpus)
    assert [(s.size, s.fits, s.weight_format) for s in fits.sizes] == [
        ("8B", True, "q8_0"),
        ("70B", False, "q4_k_m"),  # s31 fix C: one personal card runs 70B as GGUF Q4_K_M (was bf16)
    ]


def test_family_reply_and_json(capsys):
    from bot.render.renderer import render

    zh = render(_answer("千问3 在 3060 12G 上能跑哪个"), "text")
    assert zh.startswith("Qwen3 在 1 张 RTX 3060 上") and "放得下的最大尺寸是 14B（Q4_K_M 权重）" in zh
    assert (
        "• 32B：部分层放 CPU 内存可以跑（Q4_K_M" in zh
    )  # s31 fix C: runs with CPU offload (was 放不下, bf16)
    en = render(_answer("which Llama 3 fits on a 12 GB 3060?"), "text")
    # s31 fix C: 70B in the weights used on that card, with CPU offload (was "does not fit (bf16")
    assert "the largest that fits is 8B (Q8_0 weights)" in en and "• 70B: runs with CPU offload (Q4_K_M" in en
    code, d = _json(capsys, "which Llama 3 fits on a 12 GB 3060?")
    assert code == 0 and d["answered"] == "family_fits" and d["understood"] is False
    assert [(s["size"], s["fits"]) for s in d["family_fits"]["sizes"]] == [("8B", True), ("70B", False)]


@pytest.mark.parametrize(
    "question",
    [
        "Qwen3 在 4090 上微调哪个",
        "which Llama 3 should I fine-tune on a 4090?",
        "Qwen3 能跑吗",
        "does Llama 3 fit?",
        "serve qwen2.5 on 2 4090s",
        "llama3 推理要几张A100",
    ],
)
def test_family_without_card_or_for_training_is_not_listed(question):
    """A training question, no card, no "which fits" asked, or a count asked: the release's sizes are
    offered as before, none sized."""
    result = _answer(question)
    assert result.family_fits is None and result.report is None


@pytest.mark.parametrize(
    "question", ["千问3 14B 在 3060 12G 上能跑吗", "does Llama 3 8B fit on a 12 GB 3060?"]
)
def test_one_size_asked_is_sized_not_listed(question):
    result = _answer(question)
    assert result.report is not None and result.family_fits is None


# 3. A per-card ceiling said in prose with a GPU name ('a single A100 serves about 30 users', '一张 A100
# 大概能带 30 个用户') is a measurement when a target follows (bot.parse.per_card_load).


@pytest.mark.parametrize(
    ("question", "per_card", "load", "cards"),
    [
        ("a single A100 serves about 30 users, we need 300. how many?", 30, 300, 10),
        ("一张 A100 大概能带 30 个用户，我们需要 300 个用户，要几张", 30, 300, 10),
        ("一张 4090 能带 20 个并发，要带 100 个并发要几张", 20, 100, 5),
    ],
)
def test_prose_ceiling_with_a_card_name_is_read(capsys, question, per_card, load, cards):
    code, d = _json(capsys, question)
    assert code == 0 and d["answered"] == "ceiling"
    assert (d["ceiling"]["per_card"], d["ceiling"]["load"], d["ceiling"]["cards"]) == (per_card, load, cards)


def test_prose_ceiling_beside_a_model_sizes_the_target(capsys):
    _, d = _json(capsys, "a single A100 serves about 30 users of Qwen2.5-72B, we need 300. how many?")
    assert d["request"]["concurrency"] == 300
    assert {"text": "30", "reason": "per_card_load"} in d["interpretation"]["ignored"]


@pytest.mark.parametrize(
    "question",
    [
        "a single A100 serves Qwen2.5-7B to 30 users",
        "一张 A100 跑 Qwen2.5-14B 带 30 个用户",
        "a single H100 serving Llama 3 8B to 50 users, we need 64k context",
    ],
)
def test_one_card_and_its_load_alone_stay_the_load(question):
    """No second load: the users on one card are the load sized, not a ceiling."""
    from bot.parse import parse

    p = parse(question)
    assert p.request.concurrency in (30, 50) and not [u for u in p.unused_numbers if u[1] == "per_card_load"]


# 5. A TPU is counted in chips in the time and memory lines; TP × copies on the user's count says why.


def _text(question: str) -> str:
    from bot.render.renderer import render

    return render(_answer(question), "text")


def test_tpu_training_lines_count_chips_en():
    out = _text("pretrain a 7B model on 1T tokens on TPU v5p")
    assert "• Chip-hours: 84,726 TPU v5p-hours at 30% MFU" in out
    assert "• Memory: fits on at least 2 chips" in out and "per chip" in out
    assert "GPU-hours" not in out.split("\n\n")[1] and "at least 2 GPUs" not in out


def test_tpu_training_lines_count_chips_zh():
    out = _text("7B 模型 1 万亿 token 预训练，用 TPU v5e 要多久")
    assert "• 芯片时长：197,406 TPU v5e·时" in out and "• 显存：至少 12 颗芯片才放得下" in out
    assert "276 颗芯片时" in out and "每颗芯片约" in out and "GPU 时长" not in out


def test_gpu_training_keeps_gpu_words():
    out = _text("7B模型1万亿token要多少A100")
    assert "• GPU 时长：93,483 A100·时" in out and "芯片" not in out


@pytest.mark.parametrize(
    ("question", "line"),
    [
        (
            "serve Mixtral 8x22B on 8 H100",
            "• Why TP=4 × 2 replicas: one copy of the model with the load's KV cache fits on 4 GPUs",
        ),
        (
            "8 张 H100 部署 Mixtral 8x22B",
            "• 为什么是 TP=4 × 2 个副本：一份模型连同这个负载的 KV 缓存放得下 4 张卡",
        ),
    ],
)
def test_copies_on_the_users_count_say_why(question, line):
    out = _text(question)
    assert "TP=4 × 2 " in out.split("\n")[0] and line in out


def test_copies_of_one_gpu_say_no_all_reduce():
    out = _text("serve Qwen2.5-7B on 4 A100")
    assert "• Why 4 replicas: one copy of the model with the load's KV cache fits on one GPU" in out
    assert "within 1 GPU" not in out


@pytest.mark.parametrize(
    "question", ["serve Llama 3 70B on 2 H100", "部署 Mixtral 8x22B 100 并发要几张 H100"]
)
def test_one_copy_or_no_count_says_no_copies_line(question):
    out = _text(question)
    assert "Why TP=" not in out and "为什么是 TP=" not in out


# 6. 'N users' read as the load says so, with the head-count reading (README's users rule).


@pytest.mark.parametrize(
    ("question", "line"),
    [
        ("部署 Qwen2.5-14B 给 200 个用户用，要几张 A100", "已使用：“200”（按同时并发算；若是总人数"),
        (  # s33 fixd: 'a team of 200 users' is now a team's head count (users 200, tests/test_s33_fixd.py)
            "serve Qwen2.5-14B for 200 users on A100s",
            "Used: “200” (as sequences at once; if it counts people",
        ),
    ],
)
def test_users_read_as_at_once_say_so(capsys, question, line):
    _, d = _json(capsys, question)
    assert d["request"]["concurrency"] == 200 and d["request"]["users"] is None
    assert {"text": "200", "reason": "users_at_once"} in d["interpretation"]["ignored"]
    assert line in _text(question)


@pytest.mark.parametrize(
    "question",
    [
        "serve Qwen2.5-14B for 200 concurrent users on A100s",  # a load word: not either
        "部署 Qwen2.5-14B，200 个用户同时在线，要几张 A100",
        "serve Qwen2.5-14B for 200 employees on A100s",  # a head count: its own line (s21)
        "部署 Qwen2.5-14B 公司 200 人用，要几张 A100",
        "serve Qwen2.5-14B for 30 users on A100s",  # a small team: both readings are 30
    ],
)
def test_users_line_only_when_either_reading(capsys, question):
    _, d = _json(capsys, question)
    assert not [i for i in d["interpretation"]["ignored"] if i["reason"] == "users_at_once"]
