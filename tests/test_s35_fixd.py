"""Session 35 s35-fixd: findings of a fresh-user trial of the merged tree."""

from __future__ import annotations

import pytest

from bot.parse import parse
from bot.parse.family_version import family_ladder
from bot.parse.model_index import _model_index

# --- #1 a family named alone beside a card: its sizes include distills and lite releases --------------


def test_deepseek_alone_lists_r1_distills_and_lite() -> None:
    """'4090能跑deepseek吗' listed only V3.2-Exp/V3.1/V3/V2.5 (the four newest releases, all ≥ 236B). The
    catalog's DeepSeek sizes (estimator/data/models/deepseek.toml) include the R1 distills (1.5B–70B:
    what `ollama run deepseek-r1` pulls) and V2-Lite (15.7B): they are sized, smallest first."""
    ids = parse("4090能跑deepseek吗").model_suggestions
    for mid in (
        "DeepSeek-R1-Distill-Qwen-1.5B",
        "DeepSeek-R1-Distill-Qwen-7B",
        "DeepSeek-R1-Distill-Llama-8B",
        "DeepSeek-R1-Distill-Qwen-14B",
        "DeepSeek-V2-Lite",
        "DeepSeek-R1-Distill-Qwen-32B",
        "DeepSeek-R1-Distill-Llama-70B",
        "DeepSeek-V3.2-Exp",
    ):
        assert mid in ids
    assert ids[0] == "DeepSeek-R1-Distill-Qwen-1.5B"  # 1.78e9, the smallest kept
    assert ids[-1] == "DeepSeek-V3.2-Exp"  # 671e9: one of the four 671B releases, the newest
    assert "DeepSeek-V3" not in ids and "DeepSeek-R1" not in ids  # same size as V3.2-Exp: one kept


@pytest.mark.parametrize(
    ("question", "family"),
    [("4090能跑deepseek吗", "deepseek"), ("which llama fits on a 3060 12GB?", "llama")],
)
def test_family_alone_ladder_in_both_languages(question: str, family: str) -> None:
    """Both languages read the same ladder: the family's sizes, at most ten, smallest first, no two of
    one size."""
    from estimator import catalog

    ids = parse(question).model_suggestions
    assert ids == family_ladder(_model_index().keys, family)
    sizes = [catalog.models()[i].params_total for i in ids]
    assert sizes == sorted(sizes) and len(set(sizes)) == len(sizes) and 2 <= len(ids) <= 10


def test_release_named_keeps_its_own_sizes() -> None:
    """A release named ('qwen2.5') is not widened to the family: its own sizes only (s30)."""
    ids = parse("4090能跑qwen2.5哪个").model_suggestions
    assert ids and all(i.startswith("Qwen2.5-") for i in ids)


def test_family_alone_not_asked_which_fits_keeps_suggestions() -> None:
    """Without a which-fits question the family's four newest releases stay the suggestions (s30)."""
    assert "DeepSeek-R1-Distill-Qwen-7B" not in parse("deepseek 微调要多少显存").model_suggestions


def test_deepseek_on_4090_answer_names_what_fits() -> None:
    """The reply lists sizes that fit a 24 GB 4090 instead of 'no size fits': the 7B distill in bf16
    (7.61e9 × 2 B = 15.2 GB of weights, under the card's 24 GB) fits; V3.2-Exp (671e9 × ~4.8 bits ≈
    400 GB at Q4_K_M) does not."""
    from bot.core.pipeline import Context, answer
    from bot.render.renderer import render

    result = answer("4090能跑deepseek吗", Context(), None)
    rows = {r.model: r for r in result.family_fits.sizes}
    r7 = rows["DeepSeek-R1-Distill-Qwen-7B"]
    assert r7.fits and r7.weight_format == "bf16" and r7.required_bytes > 7.61e9 * 2
    assert not rows["DeepSeek-V3.2-Exp"].fits
    text = render(result, "text")
    assert "没有一个尺寸放得下" not in text and "• DeepSeek-R1-Distill-Qwen-7B：放得下（bf16" in text


# --- #2 the layout's reason follows where its stages really are ------------------------------------


def _plan(tp: int, pp: int, dp: int = 1):
    from types import SimpleNamespace

    return SimpleNamespace(offload=False, tp=tp, pp=pp, dp=dp, ep=1, zero_stage=0, recompute="none")


@pytest.mark.parametrize(
    ("tp", "pp", "per_node", "key"),
    [
        (2, 2, 8, "tp_pp_one_node"),  # 4 cards: one 8-GPU node, no stage crosses machines
        (1, 4, 8, "pp_one_node"),
        (8, 2, 8, "tp_pp"),  # 16 cards: two nodes, PP crosses them
        (2, 2, 2, "tp_pp"),  # 4 cards on 2-GPU nodes: two machines
        (1, 2, 1, "pp"),  # one GPU per node: each stage its own machine
        (2, 2, 4, "tp_pp_one_node"),  # 4 of a 4-GPU node
    ],
)
def test_reason_key_by_placement(tp: int, pp: int, per_node: int, key: str) -> None:
    from bot.render.plan_text import plan_reason_key

    assert plan_reason_key(_plan(tp, pp), True, per_node) == key  # type: ignore[arg-type]


def test_four_a100_reason_says_one_machine_both_languages() -> None:
    """'4张A100 40G' full fine-tuning GLM-4-9B: TP 2 × PP 2 is 4 GPUs, inside one 8-GPU A100 node
    (gpus.toml gpus_per_node 8): the reason no longer says PP crosses machines."""
    from bot.core.pipeline import Context, answer
    from bot.render.renderer import render

    zh = render(answer("想全参微调GLM-4-9B，手上4张A100 40G，能行吗", Context(), None), "text")
    en = render(answer("full fine-tune GLM-4-9B on 4x A100 40GB, will it work?", Context(), None), "text")
    assert "跨机" not in zh and "TP 2 × PP 2 都在一台机器内（NVLink）" in zh
    assert "across nodes" not in en and "TP 2 × PP 2, all inside one node (NVLink)" in en


# --- #3 the layout's reason names the real largest term; tools that can run the layout shown ----------

Q72_8X4090 = "Qwen2.5-72B用LoRA微调，8张4090够不够？"


def test_tp_reason_does_not_call_logits_the_largest_part() -> None:
    """LoRA on Qwen2.5-72B over 8 PCIe 4090s: TP 8; per GPU the frozen weights are 72.7e9 × 2 B / 8 =
    18.2 GB (16.9 GiB), the logits 0.47 GB. ZeRO-3 would shard the weights as far, so TP is there for
    the logits, which are not 'the largest part of the memory'."""
    from bot.core.pipeline import Context, answer
    from bot.render.fmt import fmt_for
    from bot.render.plan_text import tp_part_key

    report = answer(Q72_8X4090, Context(), None).report
    m = report.memory
    assert m.plan.tp == 8 and m.breakdown["weights"] == pytest.approx(72.7e9 * 2 / 8, rel=0.01)
    key, extra = tp_part_key(report, fmt_for("en"))
    assert key == "tp_no_nvlink_unsharded" and extra["part"] == "logits"


def test_tools_for_a_tp_layout_can_run_it_both_languages() -> None:
    """LLaMA-Factory and torchtune run data parallelism only (the --recipe says LLaMA-Factory cannot run
    TP 8): a TP 8 LoRA plan recommends Megatron/NeMo (or DeepSpeed AutoTP at ZeRO 0–2), not them."""
    from bot.core.pipeline import Context, answer
    from bot.render.advice import framework_keys
    from bot.render.renderer import render

    result = answer(Q72_8X4090, Context(), None)
    keys = framework_keys(result.report)
    assert "llamafactory" not in keys and "torchtune" not in keys and "megatron_tp" in keys
    zh = render(result, "text")
    assert "显存里最大的一项" not in zh and "用 LLaMA-Factory：" not in zh and "Megatron-LM 或 NeMo" in zh
    en = render(answer("LoRA fine-tune Qwen2.5-72B on 8x RTX 4090, enough?", Context(), None), "text")
    assert "the largest part of the memory" not in en and "LLaMA-Factory for LoRA" not in en


def test_tools_for_a_data_parallel_lora_keep_llamafactory() -> None:
    """A LoRA run that data parallelism carries (Qwen2.5-7B on one A100 80G) keeps LLaMA-Factory."""
    from bot.core.pipeline import Context, answer
    from bot.render.advice import framework_keys

    result = answer("LoRA fine-tune Qwen2.5-7B on 1 A100 80GB", Context(), None)
    assert result.report.memory.plan.tp == 1 and "llamafactory" in framework_keys(result.report)


# --- #4 the user's own cards fit only another method: its time on them ----------------------------


@pytest.mark.parametrize(
    ("question", "line"),
    [
        (
            "DPO训练qwen2.5 7b，2万对偏好数据，2张4090要跑多久",
            "• 改用 LoRA：2 张；在你的 2 张上约 2.6 小时（5.2 卡·时）",
        ),
        (
            "DPO on qwen2.5 7b, 20k preference pairs, 2x 4090, how long?",
            "• LoRA instead: 2 GPUs; on your 2 GPUs ≈ 2.6 h",
        ),
    ],
)
def test_dpo_lora_time_on_the_users_cards(question: str, line: str) -> None:
    """Full DPO needs 8 RTX 4090s; LoRA fits the user's 2. DPO's FLOPs are (6 + 2)·N·D full and
    (4 + 2)·N·D with adapters (estimator.compute.flops_per_param_token: the reference model's forward
    adds 2ND), so LoRA's GPU-hours are the shown estimate's × 6/8, and on 2 cards half of that."""
    from bot.core.pipeline import Context, answer
    from bot.render.renderer import render

    result = answer(question, Context(), None)
    report = result.report
    lora = next(a for a in report.memory.alternatives if a.change == "lora")
    assert lora.min_gpus == 2 and report.request.gpu_count == 2
    assert lora.gpu_hours == pytest.approx(report.gpu_hours.likely * 6 / 8, rel=1e-9)
    assert line in render(result, "text")


def test_alternative_time_only_where_the_method_is_changed_to_fit() -> None:
    """No time on an alternative when the user's own method already fits their cards."""
    from bot.core.pipeline import Context, answer

    report = answer("LoRA fine-tune Qwen2.5-7B on 1 A100 80GB, 1B tokens", Context(), None).report
    assert all(a.gpu_hours is None for a in report.memory.alternatives)


# --- #5 misreads: emphasis marks around a config value --------------------------------------------


@pytest.mark.parametrize(
    ("typed", "plain"),
    [
        ("lora_alpha: *32*", "lora_alpha: 32"),  # emphasis around a value
        ("*Qwen2.5-7B* 微调", "Qwen2.5-7B 微调"),
        ("**70B** on 8*A100", "70B on 8*A100"),  # a product keeps its mark
        ("2**70 and 2 * 8", "2**70 and 2 * 8"),  # a power, a spaced product
        ("a*b*c", "a*b*c"),
    ],
)
def test_single_emphasis_unwrapped(typed: str, plain: str) -> None:
    from bot.parse.plain_forms import plain_forms

    assert plain_forms(typed) == plain


@pytest.mark.parametrize(
    "question",
    [
        "LoRA fine-tune Llama-3.1-8B on 1 A100, lora_r: 16, lora_alpha: *32*",
        "用 LoRA 微调 Llama-3.1-8B，1 张 A100，lora_alpha: *32*",
    ],
)
def test_emphasised_alpha_is_read_as_alpha(question: str, capsys: pytest.CaptureFixture[str]) -> None:
    """'lora_alpha: *32*' was ignored as "“32” (no word said what it is)"; it is LoRA alpha 32, which
    does not change memory (reported as not sized, like 'lora_alpha: 32')."""
    import json

    from bot.cli import main

    main(["ask", "--format", "json", question])
    ignored = json.loads(capsys.readouterr().out)["interpretation"]["ignored"]
    assert {"text": "lora_alpha: 32", "reason": "not_sized"} in ignored
    assert all(i["text"] != "32" for i in ignored)
