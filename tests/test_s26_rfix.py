"""Session 26 design review of the merged tree (rfix): a model's size '310B' is no Ascend card, a named
non-AdamW optimizer is never swapped by a fit change, fused AdamW is offered only over a stated foreach
AdamW, and 'Huawei cards' name a family (the Ascend line), never the A100 silently."""

from __future__ import annotations

import json

import pytest

from tests.cli_run import ignored_pairs


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict:
    from bot.cli import main

    assert main(["ask", "--format", "json", text]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    "text",
    [
        "部署一个310B的模型需要几张H100",
        "serve a 310b model, how many H100",
        "MiMo-V2-Flash 是 310B 的模型，部署需要几张H100",
        "how many H100 to serve 310B params in bf16?",
    ],
)
def test_a_size_of_310b_is_the_model_not_an_ascend_card(capsys, text: str) -> None:
    """Round 20 read '310B' as Huawei's Ascend 310B card and dropped the size: a '310B' before a model
    or parameter word (or alone) is 310e9 parameters, sized on the H100 the user named (16 in bf16:
    620 GB of weights, TP=8 × PP=2, as s26-int answered)."""
    answer = ask(capsys, text)
    assert answer["request"]["params_total"] == pytest.approx(310e9)
    assert answer["interpretation"]["unknown_gpu"] is None
    assert answer["request"]["gpu"] == "H100-SXM5-80GB"


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("用 310B 卡跑 Qwen2-7B 推理够吗？", "310B"),
        ("华为 310B 跑 Qwen2-7B 推理够吗？", "华为 310B"),
        ("Can an Atlas 310P serve Qwen2-7B?", "Atlas 310P"),
        ("Can a 310P3 card serve Qwen2-7B?", "310P3"),
    ],
)
def test_an_ascend_310_in_a_card_position_is_still_named_as_typed(capsys, text: str, card: str) -> None:
    """The round-20 reads stay: a 310 card by its member digit, after the line word, before a card word."""
    answer = ask(capsys, text)
    assert answer["interpretation"]["unknown_gpu"] == card
    assert answer["request"]["params_total"] == pytest.approx(7.62e9)  # Qwen2-7B's config, not 310B


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("用华为的卡部署 Qwen2-7B 要几张？", "华为的卡"),
        ("用 4 张华为显卡部署 Qwen2-7B 够吗？", "华为显卡"),
        ("How many huawei cards to serve Qwen2-7B?", "huawei cards"),
        ("We have 8 Huawei NPUs, can they serve Qwen2-72B?", "Huawei NPUs"),
    ],
)
def test_huawei_cards_name_a_family(capsys, text: str, name: str) -> None:
    """Huawei's accelerator cards are its Ascend line (bot.parse.accelerator_family): named as typed and
    asked which model, the Ascend members offered, never sized silently as the reference A100."""
    from bot.cli import main

    assert ask(capsys, text)["interpretation"]["unknown_gpu"] == name
    lang = "zh" if "华为" in text else "en"
    assert main(["ask", "--lang", lang, text]) == 0
    out = capsys.readouterr().out
    family = "是一个加速卡系列" if lang == "zh" else "names a family of accelerators"
    assert family in out and "Ascend 910B" in out


@pytest.mark.parametrize(
    "text",
    [
        "Full fine-tune Qwen2.5-7B on one H200 with optim adafactor, without gradient checkpointing, "
        "seq 2048, micro batch 2",
        "用一张 H200 全参微调 Qwen2.5-7B，优化器用 adafactor，不开梯度检查点，序列长度 2048，micro batch 2",
        "Full fine-tune Qwen2.5-7B on one H200 with the Lion optimizer, without gradient checkpointing, "
        "seq 2048, micro batch 2",
    ],
)
def test_no_adamw_change_over_an_optimizer_the_user_named(capsys, text: str) -> None:
    """The sizing has AdamW's states only (the named optimizer is listed as not used), but the change it
    offers must not swap the user's optimizer for 8-bit or fused AdamW: the next change that reaches the
    card is offered instead (ZeRO-Offload of the states; unstated, 8-bit AdamW comes first:
    tests/test_s26_est.py)."""
    answer = ask(capsys, text)
    named = answer["request"]["optimizer_other"]
    assert named in ("adafactor", "lion")
    assert (f"optimizer: {named}", "no_field") in ignored_pairs(answer)
    settings = [c["setting"] for c in answer["report"]["memory"]["fit_change"]]
    assert settings and not {"optimizer", "optimizer_impl"} & set(settings)


@pytest.mark.parametrize(("optim", "family"), [("adafactor", "adafactor"), ("paged_lion_8bit", "lion")])
def test_a_pasted_optim_of_another_optimizer_is_kept_from_the_fit_change(
    capsys, optim: str, family: str
) -> None:
    """The same in a pasted LLaMA-Factory config: ``optim: adafactor`` is named as not used (no field, not
    a bad value: transformers OptimizerNames has it) and no AdamW change is offered over it."""
    config = (
        "Full fine-tune on one H200, will it fit?\n```yaml\nmodel_name_or_path: Qwen/Qwen2.5-7B\nstage: sft\n"
        f"finetuning_type: full\noptim: {optim}\ncutoff_len: 2048\nper_device_train_batch_size: 2\n```\n"
    )
    answer = ask(capsys, config)
    assert answer["request"]["optimizer_other"] == family
    assert (f"optim: {optim}", "no_field") in ignored_pairs(answer)
    settings = [c["setting"] for c in answer["report"]["memory"]["fit_change"]]
    assert settings and not {"optimizer", "optimizer_impl"} & set(settings)


def test_fused_adamw_is_not_offered_over_an_unstated_optimizer(capsys) -> None:
    """Unstated, the HF Trainer runs fused AdamW on torch >= 2.8 (transformers v4.56.0
    src/transformers/training_args.py:1296-1301): the band's likely figure has no foreach copy and the
    fit change does not offer what the user may already run; stated ``adamw_torch`` (foreach), it does
    (the 4 B per parameter copy of the second moments: high end 82.6 -> 69.7 GiB, tests/test_s26_est.py).
    s36: the plan's step of ~4M tokens is 1,024 micro-batches of one 4,096-token sequence on the one GPU, and
    the fp32 gradients it accumulates are held at the loss's peak (estimator.late_gradients
    ``accumulated_gradients``): + 2 B × 3e9 parameters, × the band's 1.15 at the high end = 6.43 GiB:
    69.73 -> 76.16 GiB (it had been sized as a run stepping after every micro-batch)."""
    base = "1 H100 pretrain 3B on 300B tokens how long"
    unstated = ask(capsys, base)["report"]["memory"]["fit_change"]
    assert "optimizer_impl" not in [c["setting"] for c in unstated]
    stated = ask(capsys, base.replace("how long", "with optim adamw_torch, how long"))["report"]["memory"]
    assert stated["fit_change"][0]["setting"] == "optimizer_impl"
    assert stated["fit_change"][0]["per_gpu_bytes_high"] / 2**30 == pytest.approx(
        69.73 + 1.15 * 6e9 / 2**30, abs=0.05
    )


@pytest.mark.parametrize(
    ("lang", "text", "said"),
    [
        (
            "en",
            "Llama-3.1-70B AWQ on 2 RTX 4090 at 32k context with vLLM, monthly cost?",
            "; on 16 × RTX 4090, which start at 32K (TP=4): $3,504 – $9,344 per month; $3.61–9.63 per "
            "million output tokens at 16 concurrent",
        ),
        (
            "zh",
            "用 vLLM 在 2 张 RTX 4090 上跑 Llama-3.1-70B AWQ，32k 上下文，每月多少钱？",
            "（按 16 张 RTX 4090 计，它们能在 32K 下启动，TP=4）",
        ),
    ],
)
def test_a_setup_that_does_not_start_is_not_priced_as_if_it_ran(
    capsys, lang: str, text: str, said: str
) -> None:
    """2 × RTX 4090 cannot start vLLM at max_model_len 32,768 (the KV cache holds 12,048 tokens after the
    39.8 GB of AWQ weights): the headline says so first, then prices the setup the answer sized, named —
    16 cards, TP 4 (the fewest that start at 32K) × 4 copies for the 16 sequences assumed — never a load
    on the 2 GPUs the headline just said cannot start."""
    from bot.cli import main

    assert main(["ask", "--lang", lang, text]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert said in head and head.index("max_model_len") < head.index(said)
