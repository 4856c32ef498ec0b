"""Phone-first polish (issue 18): clean Chinese replies, one money style, ranges low → high, a headline
never contradicted below, charts without invisible parts or half-empty axes, a font installed after
matplotlib's cache is found, and the Docker image's layers, port and health check."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from bot.core.pipeline import Context, answer
from bot.render.renderer import render
from bot.settings.presales import load_presales

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "presales.example.toml"
CORPUS = Path(__file__).resolve().parent / "data" / "questions.json"

# Latin words a Chinese reply may carry outside names: the field's terms as Chinese engineers write them,
# units, and flags or values of the tools (llama.cpp -ngl, PEFT "all-linear").
TERMS = {
    "token", "micro-batch", "logits", "bit", "bitsandbytes", "offload", "all-linear", "attention",
    "enable-dp-attention", "llama", "cpp", "rank", "epoch", "ngl", "torchtune", "days", "architecture",
    "all-to-all", "all-reduce",  # s31: the field's term, written so in Chinese too (TP × replicas reason)
}  # fmt: skip
MODULE_PATH = re.compile(r"\b(?:estimator|bot)\.[a-z_]+\b")


def _without_sources(text: str) -> str:
    """The text without its marked citations: "（来源：…）" with nested brackets, kept as written."""
    out, i = [], 0
    while (j := text.find("（来源：", i)) >= 0:
        out.append(text[i:j])
        depth, k = 0, j
        while k < len(text):
            depth += text[k] in "（("
            depth -= text[k] in "）)"
            if depth == 0:
                break
            k += 1
        i = k + 1
    return "".join(out) + text[i:]


def _chinese_questions() -> list[str]:
    questions = json.loads(CORPUS.read_text(encoding="utf-8"))
    texts = [q.get("text") or q.get("question") or "" for q in questions]
    return [t for t in texts if re.search(r"[\u4e00-\u9fff]", t)]


@pytest.mark.parametrize("with_offer", [False, True])
def test_chinese_replies_are_chinese(with_offer: bool) -> None:
    """Every corpus question in Chinese: no module path, and no English word outside names, units, the
    field's terms and marked sources (the offer's provider name is a name)."""
    presales = load_presales(EXAMPLE) if with_offer else None
    checked = 0
    for question in _chinese_questions():
        a = answer(question, Context(), None, presales)
        if not a.understood or a.lang != "zh":
            continue
        checked += 1
        text = render(a, "text")
        assert not MODULE_PATH.search(text), (question, MODULE_PATH.search(text))
        prose = _without_sources(text)
        # whole lowercase words only: not parts of names ("gpt-oss-120b", "Qwen2.5", "config.json")
        words = set(re.findall(r"(?<![\w.-])[a-z][a-z'-]+[a-z](?![\w.-])", prose)) - TERMS
        assert not words, (question, sorted(words))
    assert checked >= 50


def test_one_money_style_per_reply() -> None:
    """Money is exact everywhere in a reply ("¥1,402,245"), never next to a compact "¥119万"."""
    for question in (
        "7B模型1万亿token要多少A100",
        "A100和H100训练7B 1T token哪个便宜",
        "7B 1T tokens on H100",
    ):
        text = render(answer(question), "text")
        assert re.search(r"[¥$][\d,]{5,}", text), question
        assert not re.search(r"[¥$]\d+(?:\.\d+)?[万亿KMB]", text), question


def test_the_mfu_range_reads_low_to_high() -> None:
    a = answer("7B模型1万亿token要多少A100")
    line = next(x for x in render(a, "text").splitlines() if x.startswith("• GPU 时长"))
    gh, mfu = a.report.gpu_hours, a.report.mfu

    def pct(x: float) -> str:
        return f"{round(x * 100, 1):g}%"

    low, high = f"{round(gh.low):,}", f"{round(gh.high):,}"
    assert line.endswith(f"（MFU 40%；MFU {pct(mfu.high)} 时 {low}，{pct(mfu.low)} 时 {high}）")
    assert gh.low < gh.high and mfu.high > mfu.low  # the hours read low → high, each with its MFU


def test_the_headline_says_when_the_gpus_hold_fewer_sequences_than_assumed() -> None:
    """Llama 2 13B on one A100 40G: 26 GB of weights fit, but only 3 of the default 16 sequences of 4K
    (no GQA: KV 800 KiB per token = 40 layers × 40 KV heads × 128 × 2 × 2 B)."""
    zh = render(answer("部署Llama-2-13B，1张A100 40G够吗"), "text").splitlines()[0]
    assert zh == (
        "Meta Llama 2 13B fp16 推理，1 张 A100 40G：权重放得下，"
        "但 4K 上下文下只容得下假设的 16 条并发中的 3 条（TP=1）"
    )
    en = render(answer("Serve Llama-2-13B on one A100 40GB"), "text").splitlines()[0]
    assert "the weights fit, with room for 3 of the 16 concurrent sequences assumed at 4K" in en


def test_visible_widths_keep_every_part_and_the_total() -> None:
    from bot.render.chart_plots import MIN_VISIBLE_SHARE, visible_widths

    gib = 2**30
    values = [24.2 * gib, 0.9 * gib, 13.3 * gib, 0.3 * gib, 4.1 * gib]  # LoRA 13B: a 0.3 GiB part
    axis = 88 * gib
    widths = visible_widths(values, axis)
    assert min(widths) >= MIN_VISIBLE_SHARE * axis - 1
    assert sum(widths) == pytest.approx(sum(values))  # the bar still ends at the true total
    assert widths[2] == values[2] and widths[4] == values[4]  # only the largest part gives the room


def test_charts_use_their_axes() -> None:
    pytest.importorskip("matplotlib")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from bot.render import chart_plots
    from bot.render.chart import COLORS, PART_COLORS, ChartContext

    a = answer("部署Llama 3 70B，4张A100，100并发")
    fig = Figure()
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    chart_plots.serving(ax, a.report, ChartContext("en"))
    top = max(n for _, n in a.report.inference.concurrency_table)
    assert ax.get_ylim()[1] < 2 * top  # not an axis twice as tall as the data
    assert COLORS["total"] not in PART_COLORS.values()


def test_a_font_installed_after_matplotlibs_cache_is_found(monkeypatch, tmp_path) -> None:
    pytest.importorskip("matplotlib")
    import matplotlib
    from matplotlib import font_manager

    from bot.render import chart

    new = tmp_path / "FreshlyInstalled.ttf"
    shutil.copy(Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSerif.ttf", new)
    known = list(font_manager.findSystemFonts())
    monkeypatch.setattr(font_manager, "findSystemFonts", lambda *a, **k: [*known, str(new)])
    written = []
    monkeypatch.setattr(font_manager, "json_dump", lambda data, path: written.append(path))
    manager = font_manager.fontManager
    before = list(manager.ttflist)
    chart.font_manager_fresh.cache_clear()
    try:
        fresh = chart.font_manager_fresh()
        assert any(f.fname == str(new) for f in fresh.ttflist)
        assert written and str(written[0]).endswith(f"fontlist-v{font_manager.FontManager.__version__}.json")
    finally:
        manager.ttflist = before
        chart.font_manager_fresh.cache_clear()


def test_dockerfile_layers_port_and_health_check() -> None:
    text = (REPO / "Dockerfile").read_text(encoding="utf-8")
    final = text.split("\nFROM python:3.11-slim\n", 1)[1]
    deps = final.index("-r /tmp/requirements.txt")
    project = final.index("/wheels/*.whl")
    assert deps < project  # dependencies in their own layer, before the project's wheel
    assert "--no-deps /wheels/*.whl" in final
    assert re.search(r"^EXPOSE 8443$", final, re.M)
    # issue 22 item 15: the check probes the running bot (was: CMD ["sizing-bot", "health"], a
    # separate process answering the seed question, blind to a dead polling loop)
    assert re.search(r'^HEALTHCHECK .*CMD \["sizing-bot", "health", "--heartbeat"\]$', final, re.M)
    assert re.search(r"^ENV .*SIZING_BOT_HEARTBEAT=/tmp/\S+", final, re.M)
    # no dead wheel layer: the wheels are bind-mounted for the RUN that installs them, never copied
    assert "COPY --from=build" not in final and "rm -rf /deps" not in final
    assert "--mount=type=bind,from=build,source=/deps,target=/deps" in final
    assert "--mount=type=bind,from=build,source=/wheels,target=/wheels" in final
    assert text.startswith("# syntax=docker/dockerfile:1\n")  # RUN --mount needs BuildKit's frontend
    build = text.split("\nFROM python:3.11-slim\n", 1)[0]
    assert build.index("COPY pyproject.toml") < build.index("COPY . .")  # code changes keep the deps cached


def test_a_setting_not_used_is_named_in_chinese() -> None:
    """The JSON keeps 'zero_stage: 3' (the contract); a Chinese reply names the setting in Chinese, its
    key as a name beside it."""
    text = render(answer("Llama-3-70B 推理部署，4张H100，ZeRO-3"), "text")
    assert "未使用：“ZeRO 阶段（zero_stage）：3”（这是训练设置，而这是一个推理问题）。" in text
    assert "“zero_stage: 3”" in render(answer("Serve Llama-3-70B on 4 H100 with ZeRO-3"), "text")
