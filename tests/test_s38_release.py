"""s38 release: which release of a model the name typed decides vLLM's window check.

vLLM derives max_model_len from the loaded repository's config.json ``max_position_embeddings`` and refuses a
longer --max-model-len unless rope scaling is set or VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 (vllm/config/model.py
``_get_and_verify_max_len``). Qwen/Qwen2.5-7B-Instruct's config.json says 32,768 (no rope_scaling); the base
Qwen/Qwen2.5-7B's says 131,072 (likewise 1.5B, 14B, 32B, 72B; 0.5B and 3B say 32,768 as their Instruct)."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from bot.core.followup import merge
from bot.core.pipeline import answer
from bot.parse import parse
from bot.render.renderer import render
from estimator import catalog
from estimator.ledger import Ledger, beyond_window
from estimator.request import Runtime


@pytest.mark.parametrize(
    ("text", "release"),
    [
        ("vllm serve Qwen/Qwen2.5-7B-Instruct, 64k context", "instruct"),
        ("部署 Qwen2.5-14B-Instruct，上下文 64k", "instruct"),
        ("gemma-2-9b-it on one 4090", "instruct"),
        ("glm-4-9b-chat 128k 上下文推理", "instruct"),
        ("serve Qwen/Qwen2.5-7B with vLLM", "base"),
        ("model_name_or_path: Qwen/Qwen2.5-14B\n推理要几张卡", "base"),
        ("部署 Qwen2.5-72B-Base 要几张卡", "base"),
        ("Qwen3-8B-Base 64k vllm", "base"),
        # must not misread: no release said
        ("serve qwen2.5 7b at 64k on vllm", None),
        ("部署 千问2.5 7b，64k 上下文", None),
        ("vllm serve /models/Qwen2.5-7B at 64k", None),  # a local folder, not a hub id
        ("vllm serve Qwen/Qwen3-8B at 64k", None),  # Qwen3's bare id is the post-trained release
        ("Qwen2.5-7B-Instruct-1M 部署", None),  # its own release, sized as another: its own window
        ("serve Llama-3-8B with vllm, 8k", None),
    ],
)
def test_the_release_typed_is_read(text: str, release: str | None) -> None:
    assert answer(text).request.release == release


def test_a_launch_commands_model_carries_its_release() -> None:
    base = answer("vllm serve Qwen/Qwen2.5-7B --max-model-len 65536 on one A100 80G")
    instruct = answer("vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 65536 on one A100 80G")
    folder = answer("vllm serve /data/Qwen2.5-7B --max-model-len 65536 on one A100 80G")
    assert (base.request.release, instruct.request.release, folder.request.release) == (
        "base",
        "instruct",
        None,
    )


def test_the_base_config_windows_cited() -> None:
    """Qwen/Qwen2.5-{1.5B,7B,14B,32B,72B}/config.json: max_position_embeddings 131072; 0.5B and 3B: 32768."""
    windows = {size: catalog.model(f"Qwen2.5-{size}").base_config_window for size in ("0.5B", "1.5B", "3B")}
    windows |= {
        size: catalog.model(f"Qwen2.5-{size}").base_config_window for size in ("7B", "14B", "32B", "72B")
    }
    assert windows == {"0.5B": None, "1.5B": 131072, "3B": None, "7B": 131072, "14B": 131072, "32B": 131072,
                       "72B": 131072}  # fmt: skip
    assert all(
        "config.json" in (catalog.model(f"Qwen2.5-{s}").base_config_source or "") for s in ("7B", "1.5B")
    )


def _codes(release: str | None, tokens: int, model: str = "Qwen2.5-7B") -> dict[str, dict]:
    ledger = Ledger()
    beyond_window(catalog.model(model), tokens, ledger, True, Runtime.vllm, release)
    return {n.code: n.params for n in ledger.notes}


def test_the_window_check_follows_the_release() -> None:
    assert _codes("instruct", 65536)["vllm_long_max_model_len"] == {"window": 32768, "length": 65536}
    assert "vllm_long_max_model_len" not in _codes("base", 65536)
    assert "vllm_long_max_model_len" not in _codes("base", 131072)
    assert _codes("base", 131073)["vllm_long_max_model_len"]["window"] == 131072  # past the base's own
    unsaid = _codes(None, 65536)
    assert "vllm_long_max_model_len" not in unsaid
    assert unsaid["release_config_windows"] == {"window": 32768, "max_model_len": 131072, "length": 65536}
    assert "vllm_long_max_model_len" not in _codes("instruct", 32768)  # within the Instruct's window
    # Qwen2.5 1.5B: the catalog's 32,768 (card); the base config.json's 131,072 starts, the Instruct's not
    assert "vllm_long_max_model_len" not in _codes("base", 65536, "Qwen2.5-1.5B")
    assert _codes("instruct", 65536, "Qwen2.5-1.5B")["vllm_long_max_model_len"]["window"] == 32768
    # a model with no base window cited: a typed 'base' changes nothing (Qwen2.5-3B: both 32,768)
    assert _codes("base", 65536, "Qwen2.5-3B") == _codes(None, 65536, "Qwen2.5-3B")


def test_an_rl_rollout_on_the_base_release_is_not_refused() -> None:
    """The base release at max_model_len 36,000 on one and two GPUs (a run that ran, TP 1 and 2)."""
    for tp in (1, 2):
        q = f"RLVR rollout with vLLM on Qwen/Qwen2.5-7B: GRPO, max_model_len 36000, tensor_parallel_size {tp}"
        a = answer(q)
        assert a.request.release == "base"
        assert not any(w.code == "vllm_long_max_model_len" for w in a.report.warnings)


def test_the_note_names_which_release_needs_what_in_both_languages() -> None:
    for q, words in (
        ("vllm serve Qwen2.5-7B --max-model-len 65536 on one A100 80G", ("Instruct", "32,768", "131,072")),
        (
            "vllm serve Qwen2.5-7B --max-model-len 65536，一张 A100 80G 够吗",
            ("Instruct 版", "32,768", "base 版"),
        ),
    ):
        a = answer(q)
        text = render(a, "text")
        assert a.report.feasible != "no" and all(w in text for w in words)
        assert "VLLM_ALLOW_LONG_MAX_MODEL_LEN" not in text.splitlines()[0]


def test_a_followup_on_another_model_drops_the_release() -> None:
    prev = parse("vllm serve Qwen/Qwen2.5-7B-Instruct 64k").request
    assert prev.release == "instruct"
    new, _ = merge(prev, {"model": "Qwen2.5-14B", "params_total": 14.7e9})
    assert new.release is None


def test_the_json_request_carries_the_release(capsys) -> None:
    main(["ask", "--format", "json", "vllm serve Qwen/Qwen2.5-7B --max-model-len 65536 on one A100 80G"])
    assert json.loads(capsys.readouterr().out)["request"]["release"] == "base"
