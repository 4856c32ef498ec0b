"""Issue 24 (fresh-user trial): a card's own variant is priced at its own rate, or the reply names whose
rate it borrows; a context beyond the model's native window says what running it takes.

Sources: Lambda on-demand price list (1x A100 40GB SXM4 $1.29 → $1.48; techbytes.app, 2026-05-07; the
H100 PCIe entry was dropped in the review of session 15); Qwen2.5-72B-Instruct config.json
(max_position_embeddings 32768) and model card (YaRN, factor 4.0, original_max_position_embeddings
32768 → 131,072); Llama-2-13b config.json (max_position_embeddings 4096, no rope_scaling); vLLM docs
'Context Extension' (--hf-overrides), llama.cpp PR #2268 (--rope-scaling yarn, --rope-scale,
--yarn-orig-ctx)."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from estimator import catalog
from estimator.context_window import context_note, how_to_scale
from estimator.models import Currency
from estimator.request import Runtime
from estimator.variant_prices import variant_price


def _ask(capsys, *argv: str) -> dict:
    main(["ask", "--format", "json", *argv])
    return json.loads(capsys.readouterr().out)


def _text(capsys, *argv: str) -> str:
    main(["ask", *argv])
    return capsys.readouterr().out


def _price(data: dict) -> str:
    return next(a["value"] for a in data["assumptions"] if a["field"] == "price_per_gpu_hour")


def _warning(data: dict, code: str) -> dict | None:
    return next((w for w in data["report"]["warnings"] if w["code"] == code), None)


FT_40 = {
    "en": "full fine-tune Qwen2.5-7B on 8x A100 40GB, 10k samples, 3 epochs, how much will it cost",
    "zh": "用8张A100 40GB全参微调Qwen2.5-7B，1万条样本，3个epoch，要多少钱",
}


def test_a100_40gb_has_its_own_usd_rate(capsys):
    data = _ask(capsys, FT_40["en"])
    assert data["request"]["gpu"] == "A100-SXM4-40GB"
    assert _price(data) == "1.29–1.48 USD"  # Lambda's 40GB list, not the 80GB's $1.2–2.5
    assert _warning(data, "price_other_variant") is None


def test_a100_40gb_in_cny_names_the_80gb_rate_it_borrows(capsys):
    data = _ask(capsys, FT_40["zh"])
    assert _price(data) == "15–30 CNY"
    note = _warning(data, "price_other_variant")
    assert note is not None and "A100 SXM4 80GB" in note["params"]["priced"]
    text = _text(capsys, FT_40["zh"])
    assert "A100 SXM4 40GB 在这个币种下的单独价格" in text and "A100 SXM4 80GB" in text


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a100_80gb_keeps_its_range_without_a_note(capsys, lang):
    question = {"en": "full fine-tune Qwen2.5-7B on 8x A100 80GB, 10k samples, cost?", "zh": FT_40["zh"]}[
        lang
    ]
    data = _ask(capsys, question.replace("40GB", "80GB"))
    assert _price(data) == ("1.2–2.5 USD" if lang == "en" else "15–30 CNY")
    assert _warning(data, "price_other_variant") is None


def test_h100_pcie_borrows_the_sxm_usd_range_and_says_so(capsys):
    """Review of session 15: Lambda's PCIe-only $2.49–2.86 (two dates of one vendor via an aggregator) made
    the slower card look dearer than the SXM range ($1.5–3.5, several vendors); with no like-for-like source
    for both variants the PCIe entry is dropped, and the reply names that the SXM range is used."""
    pcie = _ask(capsys, "serve Llama-3-70B on 8x H100 PCIe, cost per month")
    sxm = _ask(capsys, "serve Llama-3-70B on 8x H100 SXM, cost per month")
    assert _price(pcie) == _price(sxm) == "1.5–3.5 USD"
    note = _warning(pcie, "price_other_variant")
    assert note is not None and "H100 SXM5 80GB" in note["params"]["priced"]
    assert _warning(sxm, "price_other_variant") is None


def test_h100_pcie_in_cny_borrows_the_sxm_range_and_says_so(capsys):
    text = _text(capsys, "用8张H100 PCIe部署Llama-3-70B，每月多少钱")
    assert "H100 PCIe 80GB 在这个币种下的单独价格" in text and "H100 SXM5 80GB" in text


def test_every_variant_price_names_catalog_cards():
    """A price entry's variants are catalog ids of its family; a family's variants each get a range."""
    gpus = catalog.gpus()
    for entry in catalog.price_entries():
        for gpu_id in entry.gpus:
            assert gpus[gpu_id].family == entry.family, gpu_id


# -- a context beyond the native window -------------------------------------------------------------

QWEN_128K = {
    "zh": "Qwen2.5-72B 128K 上下文部署，用vLLM，需要几张H100",
    "en": "serve Qwen2.5-72B with 128k context on vLLM, how many H100",
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_qwen25_128k_needs_yarn_and_says_how_in_vllm(capsys, lang):
    data = _ask(capsys, QWEN_128K[lang])
    assert data["request"]["seq_len"] == 131072  # the KV cache is sized at the stated context
    note = _warning(data, "rope_scaling_needed")
    assert note is not None
    assert (note["params"]["window"], note["params"]["extended"], note["params"]["factor"]) == (
        32768,
        131072,
        "4",
    )
    how = note["params"]["how"]
    assert how.startswith("vLLM: --hf-overrides") and '"original_max_position_embeddings":32768' in how
    assert "--max-model-len 131072" in how
    text = _text(capsys, "--lang", lang, QWEN_128K[lang])
    assert ("原生支持 32,768 token" in text) if lang == "zh" else ("runs 32,768 tokens natively" in text)


def test_qwen25_within_native_window_has_no_note(capsys):
    data = _ask(capsys, "serve Qwen2.5-72B with 16k context on vLLM, how many H100")
    assert _warning(data, "rope_scaling_needed") is None
    assert _warning(data, "beyond_context_window") is None


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_llama2_13b_at_32k_was_not_trained_for_it(capsys, lang):
    question = {
        "en": "serve Llama-2-13B at 32k context with vLLM on A100",
        "zh": "用vLLM在A100上部署Llama-2-13B，32k上下文",
    }
    data = _ask(capsys, question[lang])
    note = _warning(data, "beyond_context_window")
    assert note is not None and note["params"]["window"] == 4096 and note["params"]["length"] == 32768
    assert _warning(data, "rope_scaling_needed") is None
    text = _text(capsys, "--lang", lang, question[lang])
    assert (
        ("没有按 32,768 token 训练过" in text) if lang == "zh" else ("not trained for 32,768 tokens" in text)
    )


def test_runtime_switches_for_yarn():
    qwen = catalog.model("Qwen2.5-72B")
    assert (qwen.native_context, qwen.rope_scaling, qwen.rope_scaling_factor) == (32768, "yarn", 4.0)
    assert how_to_scale(qwen, Runtime.llama_cpp, 131072) == (
        "llama.cpp: --rope-scaling yarn --rope-scale 4 --yarn-orig-ctx 32768 -c 131072"
    )
    assert how_to_scale(qwen, Runtime.sglang, 65536).startswith("SGLang: --json-model-override-args")
    assert '"rope_scaling": {"rope_type":"yarn"' in how_to_scale(qwen, None, 65536)
    # beyond the documented 131,072: not trained for it
    assert context_note(qwen, 262144, None) == (
        "beyond_context_window",
        {"model": "Qwen2.5 72B", "window": 131072, "length": 262144},
    )


def test_kept_variant_price_is_the_scanned_one():
    """The kept answers (issue 23 item 7) equal a fresh scan, for every catalog card in both currencies."""
    from estimator.variant_prices import _FOUND, _scanned

    for gpu in catalog.gpus().values():
        for currency in (Currency.CNY, Currency.USD):
            expected = _scanned(gpu, currency, catalog.price_entries())
            assert variant_price(gpu, currency) == expected  # scanned, kept
            assert variant_price(gpu, currency) == expected  # kept
    assert {key[0] for key in _FOUND} <= catalog.gpus().keys()


def test_variant_price_of_an_unknown_card_is_not_kept():
    from estimator.variant_prices import _FOUND

    a100 = catalog.gpus()["A100-SXM4-40GB"]
    typed = a100.model_copy(update={"id": "A100-typed-by-user"})
    assert variant_price(typed, Currency.CNY) is not None  # the family's range (another variant's)
    assert not [key for key in _FOUND if key[0] == "A100-typed-by-user"]


def test_variant_price_follows_a_reloaded_price_list(monkeypatch):
    gpu = catalog.gpus()["A100-SXM4-80GB"]
    before = variant_price(gpu, Currency.CNY)
    assert before is not None
    monkeypatch.setattr(catalog, "price_entries", lambda: ())  # another list: nothing priced
    assert variant_price(gpu, Currency.CNY) is None
