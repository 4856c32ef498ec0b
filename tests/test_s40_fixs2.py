"""Session 40 fixs2: serving answers from a fresh-user trial, second wave.

1. A card written in prose on the same line as a pasted serving command, after a flag that takes no value
   ('… --trust-remote-code on 8xH200, how many users?'): the flag took 'on' as its value (llama.cpp's
   '-fa on' keeps that reading), and the comma after '8xH200' ended the command *after* the card, so the
   card was read as a positional word of the command and the answer was sized on the default A100. A
   bare word closed by a comma after the command's flags is the sentence again
   (bot.parse.configs.command_end).
2. Trial item 8: SGLang's assumed default --mem-fraction-static misses the user's count (DeepSeek-V3 on
   8 × H20 'at least 16'): where 0.9 (SGLang's DeepSeek guide on one 8 × H20 node) holds the weights on
   their count, a note says so with the sequences it holds, what it leaves for activations and CUDA graphs,
   and that it is tight (estimator.sglang_raise).
3. Trial item 18: a job under a day is charted in hours (under an hour, minutes), its points worded as the
   reply's text words them (bot.render.chart_labels.time_label); an assumed deadline the chart does not draw
   no longer stretches its axis. A context at which no sequence fits reads "does not fit", not "→ 0".
"""

from __future__ import annotations

import pytest

from bot.parse import parse
from bot.parse.configs import command_end
from bot.render.renderer import render

SGLANG = "python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8 --trust-remote-code"
VLLM = "vllm serve Qwen/Qwen2.5-72B-Instruct --tensor-parallel-size 4 --enforce-eager"


@pytest.mark.parametrize(
    ("question", "gpu", "count", "concurrency"),
    [
        (f"{SGLANG} on 8xH200, how many users?", "H200-SXM-141GB", 8, None),
        (f"{SGLANG} on 8xH200, 64 concurrent users, how many tokens/s?", "H200-SXM-141GB", 8, 64),
        (f"{VLLM} on 4xH100, how many users?", "H100-SXM5-80GB", 4, None),
        (f"{VLLM} on 4xH100; how many users?", "H100-SXM5-80GB", 4, None),
        (f"{VLLM} 在 4xH100 上，64 并发，吞吐多少？", "H100-SXM5-80GB", 4, 64),
        (f"{SGLANG} 跑在 8xH200，能支持多少用户？", "H200-SXM-141GB", 8, None),
    ],
)
def test_card_in_prose_beside_a_command(question: str, gpu: str, count: int, concurrency: int | None) -> None:
    req = parse(question).request
    assert (req.gpu, req.gpu_count) == (gpu, count)
    assert req.concurrency == concurrency


def test_command_end_before_a_bare_word_a_comma_closes() -> None:
    line = f"{VLLM} on 4xH100, how many users?"
    assert line[: command_end(line, 0)].rstrip() == f"{VLLM} on"
    # a flag's value closed by a comma stays in the command (round 7)
    line = "vllm serve m --max-model-len 8192, how much memory?"
    assert line[: command_end(line, 0)] == "vllm serve m --max-model-len 8192"
    # a positional word before any flag stays too ('vllm serve llama3, …')
    line = "vllm serve llama3, how much memory?"
    assert line[: command_end(line, 0)] == "vllm serve llama3"
    # a file or key=value word after the flags is the command's own
    line = "llama-server -fa on model.gguf, how fast?"
    assert line[: command_end(line, 0)] == "llama-server -fa on model.gguf"


# -- 3. the chart's time unit and the concurrency table's empty rows (trial item 18) -------------------
# Qwen2.5-7B LoRA on 2 × RTX 4090, 10k samples × 512 tokens = 5.12M tokens: the reply says "约 39 分钟
# （30–63 分钟）"; its chart said '1 张 → 0.055 天' on a days axis reaching 50 (an assumed deadline it never
# drew). Drawn in hours (the longest figure, 1 GPU at the band's high end, is 2.1 hours: over an hour), the
# points worded as the text words them.
SHORT_ZH = "Qwen2.5-7B LoRA 微调 两张4090 1万条数据要多久"
SHORT_EN = "Qwen2.5-7B LoRA fine-tune on 2x RTX 4090, 10k samples, how long?"


def _chart(question: str):
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    from bot.core.pipeline import answer
    from bot.render import chart, chart_plots

    result = answer(question)
    ax = Figure().add_subplot()
    chart_plots.training(ax, result.report, chart.ChartContext(result.lang))
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    return result, ax, legend


@pytest.mark.parametrize(
    ("question", "axis", "yours", "one"),
    [
        (SHORT_ZH, "小时（日历时间）", "你的 2 张 → 39 分钟", "1 张 → 1.3 小时"),
        (SHORT_EN, "Hours (wall clock)", "Your 2 GPUs → 39 minutes", "1 GPUs → 1.3 hours"),
    ],
)
def test_a_short_job_is_charted_in_hours(question: str, axis: str, yours: str, one: str) -> None:
    result, ax, legend = _chart(question)
    likely_days = {r.gpus: r.days.likely for r in result.report.days_table}
    assert round(likely_days[2] * 24 * 60) == 39  # the reply's '约 39 分钟'
    assert ax.get_ylabel() == axis
    assert yours in legend and one in legend
    assert ("约 39 分钟" if result.lang == "zh" else "about 39 minutes") in render(
        result, "text"
    ).splitlines()[0]
    # the curve is in hours: 2 GPUs at 39.3 minutes = 0.655 hours
    (xs, ys) = ax.get_lines()[0].get_data()
    assert dict(zip(xs, ys, strict=True))[2] == pytest.approx(likely_days[2] * 24)
    # no undrawn (assumed) deadline stretches the axis: its top is the band's high × 2.4 head-room
    assert ax.get_ylim()[1] == pytest.approx(max(r.days.high for r in result.report.days_table) * 24 * 2.4)


def test_a_long_job_stays_in_days() -> None:
    _, ax, legend = _chart("7B模型1万亿token要多少A100")
    assert ax.get_ylabel() == "天数（日历时间）"
    assert "136 张 → 30 天内（约 29 天）" in legend


@pytest.mark.parametrize(
    ("question", "row"),
    [
        # s41 fixt #10: vLLM serving Qwen2.5-72B-Instruct-AWQ lists no 128K row (past config.json's 32,768,
        # which vLLM refuses): the English case is Ollama's, which lists it
        ("ollama run qwen2.5:32b on my mac m2 max 64g, how fast?", "128K → does not fit"),
        ("ollama run qwen2.5:32b 我的 mac m2 max 64g 能跑多快", "128K → 放不下"),
    ],
)
def test_a_context_no_sequence_fits_is_said_so(question: str, row: str) -> None:
    from bot.core.pipeline import answer

    result = answer(question)
    assert result.report.inference.concurrency_table[-1][1] == 0  # 128K: no sequence fits
    for fmt in ("text", "markdown"):
        lines = [line.strip() for line in render(result, fmt).splitlines()]
        assert row in lines
        assert "128K → 0" not in lines


# -- 2. SGLang's --mem-fraction-static raised on the user's count (trial item 8) ----------------------
# DeepSeek-V3 fp8 on 8 × H20 (SGLang's default 0.79 leaves 74.3 GiB of 94.0: 'does not fit, at least 16').
# With 0.9 (SGLang's DeepSeek guide, one 8 × H20 node): free 100.97 GB × 0.9 − 672.85 GB / 8 = 6.77 GB of
# pool per GPU ÷ 70,272 B per token = 96,352 tokens → 19 sequences of 5,000 on plain TP (the latent on every
# rank), × 8 = 154 with --enable-dp-attention; 10.1 GB left per GPU, 21.2 GB at the default. The same
# question with '--mem-fraction-static 0.9' stated is sized at 19 (room for 19 at 5,000), as the note says.
H20_EN = "DeepSeek-V3 on 8x H20 with SGLang, 64 concurrent, 4k in / 1k out. throughput?"
H20_ZH = "DeepSeek-V3 用 SGLang 部署在 8 张 H20 上，64 并发，输入 4k 输出 1k，吞吐多少？"


def _notes(question: str) -> tuple[list, str]:
    from bot.core.pipeline import answer

    result = answer(question)
    return [w for w in result.report.warnings if w.code.startswith("sglang_raised")], render(result, "text")


def test_raised_fraction_named_for_the_users_count() -> None:
    (note,), text = _notes(H20_EN)
    assert note.code == "sglang_raised_fraction_dp"
    p = note.params
    assert (p["fraction"], p["gpus"], p["concurrency"], p["dp_concurrency"], p["context"]) == (
        0.9,
        8,
        19,
        154,
        5000,
    )
    assert p["left_bytes"] / 1e9 == pytest.approx(10.1, abs=0.05)
    assert p["default_left_bytes"] / 1e9 == pytest.approx(21.2, abs=0.05)
    assert "With --mem-fraction-static 0.9" in text and "154 with --enable-dp-attention" in text
    assert "tight" in text
    (zh,), zh_text = _notes(H20_ZH)
    assert zh.params == p
    assert "把 --mem-fraction-static 调到 0.9" in zh_text and "约 19 条 5,000 token 的序列" in zh_text


def test_raised_fraction_agrees_with_the_flag_stated() -> None:
    from bot.core.pipeline import answer

    stated = answer(H20_EN.replace("SGLang,", "SGLang --mem-fraction-static 0.9,"))
    assert stated.report.inference.max_concurrency == 19
    assert not [w for w in stated.report.warnings if w.code.startswith("sglang_raised")]  # the user's own


@pytest.mark.parametrize(
    "question",
    [
        "DeepSeek-V3 on 8x H200 with SGLang, 64 concurrent",  # fits at the default: nothing to raise
        "DeepSeek-V3 on 4x H20 with SGLang, 64 concurrent",  # 0.9 does not hold the weights either
        "DeepSeek-V3 on 8x H20 with vLLM, 64 concurrent",  # not SGLang's flag
    ],
)
def test_raised_fraction_not_said(question: str) -> None:
    assert _notes(question)[0] == []
