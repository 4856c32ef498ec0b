"""Session 35 fix c: serving answers found by a fresh-user trial.

Item 1: every option of one comparison is sized at the same load (bot.core.compared_load): the stated
one, else the largest default among the options (16 sequences, estimator.defaults.SERVE_CONCURRENCY,
over a GeForce card's 1, SERVE_CONCURRENCY_PERSONAL), an assumption with its reason."""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer


def _loads(text: str) -> list[tuple[str | None, int, list[str]]]:
    a = answer(text)
    rows = a.compared or [a.report]
    return [
        (r.request.gpu, r.inference.concurrency, [x.why for x in r.assumptions if x.field == "concurrency"])
        for r in rows
    ]


@pytest.mark.parametrize(
    "text",
    [
        "部署qwen3-8b给客服用，用L20还是4090，多少钱一个月",
        "部署qwen3-8b，用4090还是L20",
        "serve qwen3-8b: RTX 4090 or L40S?",
    ],
)
def test_compared_cards_share_one_load(text: str) -> None:
    rows = _loads(text)
    assert {c for _, c, _ in rows} == {16}, rows  # the serving default, not the 4090's personal 1
    four = [w for g, _, w in rows if g == "RTX-4090"]
    assert four and all(w == ["compared_load"] for w in four), rows  # assumed, with its reason
    assert all(w == ["serve_concurrency"] for g, _, w in rows if g != "RTX-4090"), rows


def test_a_stated_load_is_every_options_own() -> None:
    rows = _loads("部署qwen3-8b，8并发，用4090还是L20")
    assert {c for _, c, _ in rows} == {8} and all(not w for _, _, w in rows), rows


def test_personal_cards_alone_keep_their_default() -> None:
    rows = _loads("serve qwen3-8b: RTX 4090 or RTX 3090?")  # no service default among them: one sequence
    assert {c for _, c, _ in rows} == {1}, rows
    assert all(w == ["serve_concurrency_personal"] for _, _, w in rows), rows


def test_the_reason_is_worded_in_both_languages() -> None:
    from bot.render.renderer import render

    en = render(answer("serve qwen3-8b: RTX 4090 or L40S?"), "plain")
    zh = render(answer("部署qwen3-8b，用4090还是L20"), "plain")
    assert "one load for every option compared" in en
    assert "对比的各个方案按同一负载计" in zh
