"""Session 26 est: estimator and front-end leftovers of session 25 (closing note 'Left', trial 2)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from estimator import catalog
from estimator.late_gradients import late_gradients
from estimator.models import Plan
from estimator.setup import Layout, TrainingSetup


@pytest.mark.parametrize("model", ["Qwen3-30B-A3B", "Qwen3-235B-A22B"])
def test_qwen3_moe_context_is_their_config_length(model: str) -> None:
    """The April 2025 Qwen3 MoE releases say max_position_embeddings 40960 in config.json, like the dense
    Qwen3 (source in qwen.toml): that is the length vLLM starts at without YaRN; the card's 32,768 stays the
    native length YaRN scales from (factor 4 → 131,072)."""
    spec = catalog.model(model)
    assert spec.max_context == 40960
    assert spec.native_context == 32768 and spec.rope_scaling_factor == 4.0


def test_late_gradients_reads_the_plans_ep() -> None:
    """Both a Plan and a search Layout carry ``ep``: one process at ZeRO-0 gets the 2 B/param gradient
    credit at EP 1 and none at EP 2 (expert parallelism is more than one process)."""
    setup = TrainingSetup()
    one = Layout(1, 1, 1, 0, "full", 1, False)
    assert late_gradients(setup, one, 1e9) == 2e9
    assert late_gradients(setup, one._replace(ep=2), 1e9) == 0.0
    plan = Plan(tp=1, pp=1, dp=1, zero_stage=0, recompute="full", micro_batch=1, offload=False)
    assert late_gradients(setup, plan, 1e9) == 2e9
    assert late_gradients(setup, plan.model_copy(update={"ep": 2}), 1e9) == 0.0


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict:
    from bot.cli import main

    assert main(["ask", "--format", "json", text]) == 0
    return json.loads(capsys.readouterr().out)


SHORT_EN = (
    "Serve Qwen3-32B with vLLM, L40S vs H100, 4 GPUs, 200 concurrent users at 32k context, monthly cost?"
)
SHORT_ZH = "用vLLM部署Qwen3-32B，L40S和H100比较，4张卡，并发200，上下文32k，每月多少钱"


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (
            SHORT_EN,
            "None of these holds 200 concurrent; the most of it for the money: L40S (12 of 200 for "
            "$2,336 – $4,672 a month)",
        ),
        (
            SHORT_ZH,
            "这几种都撑不住 200 条并发；同样的钱撑得最多的是：L40S（每月 ¥14,600 – ¥35,040，撑住 200 条中的 "
            "12 条）",
        ),
    ],
)
def test_no_option_holds_the_load_says_so_and_ranks_by_load_per_money(
    capsys: pytest.CaptureFixture[str], text: str, line: str
) -> None:
    """Qwen3-32B bf16 at 32K on 4 GPUs: 4 × L40S hold 12 of 200 sequences, 4 × H100 25 (KV 256 KiB/token;
    12, was 11, since s26-trfix sizes vLLM's V1 start-up profile, a smaller workspace than V0's).
    Neither holds the stated 200, so the answer says so first and names the most sequences per money
    (bot.core.serving_rank.cheapest_of): in USD the L40S's 12 / $3,504 (middle of its month) ties the
    H100's 25 / $7,300 (87,600 both ways) and the tie goes to the cheaper month; in CNY the L40S's
    12 / ¥24,820 beats the H100's 25 / ¥80,300. Before, 'Cheapest
    for this load: L40S' named the cheaper month though it holds 11 of 200 (s25 closing note, Left)."""
    d = ask(capsys, text)
    assert d["reply"].splitlines()[0] == line


def test_an_option_that_holds_the_load_is_named_by_its_month(capsys: pytest.CaptureFixture[str]) -> None:
    """8 sequences at 8K: both hold them, so the cheaper month is named as before (trial s25 #4)."""
    d = ask(capsys, SHORT_EN.replace("200 concurrent users at 32k", "8 concurrent users at 8k"))
    head = "Cheapest for this load: L40S ($2,336 – $4,672 a month for 8 concurrent)"
    assert d["reply"].splitlines()[0] == head


def test_cheapest_of_names_none_when_no_option_holds_one_sequence() -> None:
    """The rule's last case: no option holds a single sequence of the stated load: none is named."""
    from bot.core.serving_rank import cheapest_of

    inf = SimpleNamespace(cost_per_month=SimpleNamespace(low=1.0, high=3.0), concurrency=8, max_concurrency=0)
    r = SimpleNamespace(
        memory=None, inference=inf, request=SimpleNamespace(concurrency=8, users=None), assumptions=[]
    )
    assert cheapest_of([r, r], [0, 1], [2.0, 2.0]) is None
    held = SimpleNamespace(**{**vars(r), "inference": SimpleNamespace(**{**vars(inf), "max_concurrency": 2})})
    assert cheapest_of([r, held], [0, 1], [2.0, 9.0]) == 1


DS2 = """Full fine-tune Llama-3.1-8B on 8x RTX 6000 Ada 48GB with this config, seq 4096, is memory ok?
{"train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 4, "bf16": {"enabled": true},
 "zero_optimization": {"stage": 2, "offload_optimizer": {"device": "none"}, "contiguous_gradients": true,
 "overlap_comm": true}, "gradient_clipping": 1.0}"""
GPT2_ZH = "全量微调GPT-2 (774M)，一张RTX 4090，不开梯度检查点，序列1024，micro batch 16，显存够吗"


@pytest.mark.parametrize(
    ("text", "subtitle"),
    [
        (DS2, "does not fit on 8 GPUs as set\nWith micro-batch 1 (more gradient accumulation): 8 GPUs"),
        (GPT2_ZH, "按现在的设置 1 张卡放不下（这样设置至少要 4 张）\n微批次改为 1（用更多梯度累积）：1 张"),
    ],
)
def test_chart_subtitle_says_what_the_headline_says(text: str, subtitle: str) -> None:
    """The web chart's subtitle follows the text's headline (estimator.fit_sanity, s25 plan3): their setting
    first, then the change; the fewest GPUs for their setting (216 for DS2: only the optimizer shard shrinks
    under ZeRO-2) only where the headline names it (GPT-2 774M: 4). It said '(at least 216 needed)'."""
    from bot.core.pipeline import answer
    from bot.render.chart import ChartContext
    from bot.render.chart_plots import _fit_verdict, _headline_fix
    from bot.render.fmt import fmt_for

    a = answer(text)
    m, lang = a.report.memory, a.lang
    f = fmt_for(lang)
    ctx = ChartContext(lang)
    fix = _headline_fix(a.report, m.plan_gpus, f)
    assert _fit_verdict(m, m.plan_gpus, False, f, ctx, fix) == subtitle


@pytest.mark.parametrize(
    "text",
    [
        "用SGLang部署Qwen3-235B-A22B，8张H20，上下文64k，能撑多少并发？",
        "Serve Qwen3-235B-A22B with SGLang on 8 H20 at 64k context: how many concurrent?",
    ],
)
def test_dingtalk_commands_copy_without_backslashes(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """DingTalk's Markdown subset documents no backslash escape, so CommonMark's ``rope\\_scaling`` showed
    (and copied) its backslash (trial s25b #11): the YaRN override is copyable as SGLang reads it."""
    from bot.cli import main

    assert main(["preview", "dingtalk", text]) == 0
    body = json.loads(capsys.readouterr().out)
    sent = json.dumps(body, ensure_ascii=False)
    assert '{\\"rope_scaling\\":{\\"rope_type\\":\\"yarn\\"' in sent
    assert "\\\\_" not in sent


@pytest.mark.parametrize(
    ("markdown", "shown"),
    [
        ("--hf-overrides '{\"rope\\_scaling\":{}}'", "--hf-overrides '{\"rope_scaling\":{}}'"),
        ("mem\\_fraction\\_static", "mem_fraction_static"),
        ("a \\| b \\~ c", "a | b ~ c"),
        ("\\# not a heading here \\# x", "\\# not a heading here # x"),
        ("\\> quote \\> mid", "\\> quote > mid"),
        ("\\*bold\\* \\_em\\_ \\[link\\]", "\\*bold\\* \\_em\\_ \\[link\\]"),
        ("`a\\_b` and x\\_y", "`a\\_b` and x_y"),
        ("\\\\_x", "\\\\_x"),
    ],
)
def test_dingtalk_keeps_only_the_escapes_its_subset_needs(markdown: str, shown: str) -> None:
    """An escape goes where the bare character starts no markup in DingTalk's subset (intraword ``_``,
    ``|``, ``~``, ``#``/``>`` past a line's start); one that could start markup stays (``*``, ``[``, a
    ``_`` that could open emphasis, a line-start ``#``); a code span and an escaped backslash are kept."""
    from bot.dingtalk.card import dingtalk_markdown

    assert dingtalk_markdown(markdown) == shown


PRETRAIN_3B = "4 * 8 H100 pretrain 3B on 300B tokens with ZeRO-0 and optim adamw_torch how long"
"""s26 rfix (review #3): fused AdamW is offered only over a stated foreach AdamW (``adamw_torch``)."""


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "en",
            "What to change: if you run adamw_torch (foreach): fused AdamW (optim: adamw_torch_fused) "
            "(the high end is then 69.7 GiB per GPU)",
        ),
        (
            "zh",
            "要改的设置：若你用的是 adamw_torch（foreach 版）："
            "改用 fused（融合）版 AdamW（optim: adamw_torch_fused）（这样每卡上限约 69.7 GiB）",
        ),
    ],
)
def test_fused_adamw_is_the_first_change_where_the_foreach_copy_is_the_excess(
    capsys: pytest.CaptureFixture[str], lang: str, said: str
) -> None:
    """3B pre-training at ZeRO-0 on H100s: likely 57.2 GiB, high end 82.6 GiB, whose excess over the 80 GiB
    card is AdamW's foreach copy of the second moments (4 B × ~3.5B parameters = 12.9 GiB; torch
    _multi_tensor_adam): fused AdamW removes it (82.6 → 69.7 GiB) at no compute cost, so it comes before
    gradient checkpointing (which costs ~1/3 more compute)."""
    from bot.cli import main

    assert main(["ask", "--lang", lang, PRETRAIN_3B]) == 0
    assert said in capsys.readouterr().out


@pytest.mark.parametrize(
    ("text", "first"),
    [
        # no tool named (the HF Trainer's optim): 8-bit states (6 of 12 B) before CPU offload
        (
            # one micro-batch a step: accumulating (the plan's 128 unsaid, s35 fixe #1) its fp32 gradients
            # put it at 166 GiB, past what 8-bit states alone bring under the card (offload first)
            "Full fine-tune Qwen2.5-7B on one H200 without gradient checkpointing, seq 2048, micro batch 2, "
            "gradient accumulation 1",
            "optimizer",
        ),
        # Megatron-LM picks no transformers optim: no optimizer change is offered
        (
            "Full fine-tune Qwen2.5-7B on one H200 with Megatron-LM, gradient checkpointing, seq 2048, "
            "micro batch 2",
            None,
        ),
    ],
)
def test_8bit_adamw_is_offered_only_where_the_tool_takes_it(capsys, text: str, first: str | None) -> None:
    """8-bit AdamW (bitsandbytes ``adamw_bnb_8bit``) is a fit change for a tool that takes a transformers
    ``optim`` name (estimator.training_tools.ToolLimits.optim_by_name), never for Megatron-LM."""
    changes = ask(capsys, text)["report"]["memory"]["fit_change"]
    settings = [c["setting"] for c in changes]
    if first is None:
        assert not {"optimizer", "optimizer_impl"} & set(settings)
    else:
        assert settings[0] == first and changes[0]["value"] == "adamw_8bit"


def test_fit_change_optimizer_gate_bounds_the_saving() -> None:
    """optimizer_reach: fused AdamW saves at most foreach's copy (4 B per parameter with fp32 states) and
    8-bit AdamW that plus 6 B of states, each × 1.15 (the band's high-end fragmentation): a change that
    saves less than the excess is not sized."""
    from estimator.fit_change import optimizer_reach

    setup, plan = TrainingSetup(), Plan(tp=1, pp=1, dp=1, zero_stage=0, recompute="full", micro_batch=1)
    gib = 2**30
    assert optimizer_reach(1e9, setup, plan, None) == (True, True)
    assert optimizer_reach(1e9, setup, plan, 4e9 * 1.15 - 1) == (True, True)
    assert optimizer_reach(1e9, setup, plan, 4e9 * 1.15 + 1) == (False, True)
    assert optimizer_reach(1e9, setup, plan, 10e9 * 1.15 + 1) == (False, False)
    assert optimizer_reach(1e9, setup, plan, -gib) == (True, True)
