"""Session 34 (s34-spans), issue 23 item 7: the answer's and the render's time without a different answer.

One answer rendered in several dialects (or again in the same one) builds its reply context once
(:data:`bot.render.renderer.KEPT_CONTEXTS`): the context reads the answer and its language, never the
dialect, so every reply is the one a fresh answer gets; the byte-identical corpus replies are checked by
``bench/answers_dump.py same`` (bench/RESULTS.md)."""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.render import renderer
from bot.render.renderer import KEPT_CONTEXTS, render
from tests.cli_run import CORPUS_QUESTIONS
from tests.test_parse_render_speed import python_calls

FORMATS = ("html", "text", "markdown")

OWN = [
    "7B模型1万亿token要多少A100",
    "Can I QLoRA a 70B on two 4090s?",
    "全参微调Qwen2.5-14B要几张A100 80G？",
    "部署70B推理需要几张A100，100并发，32k上下文",
    "Llama-3-70B full fine-tune on A100 vs H100, which is cheaper?",
    "预算100万，能训多大的模型？",
]


@pytest.mark.parametrize("order", [FORMATS, FORMATS[::-1]])
def test_one_answer_in_every_dialect_renders_as_fresh_answers_do(order) -> None:
    """Each reply of one answer rendered in turn (its context kept after the first) equals the reply of a
    fresh answer in that dialect alone, in either order, over the corpus and sentences of our own (a
    comparison of two cards, a serving load, an inverse budget, both languages)."""
    for text in [*CORPUS_QUESTIONS, *OWN]:
        one = answer(text)
        for fmt in order:
            renderer._CONTEXTS.clear()
            alone = render(answer(text), fmt)
            assert render(one, fmt) == alone, (text, fmt)
        assert render(one, order[0]) == render(answer(text), order[0]), text  # again in the first


def test_a_kept_context_is_found_by_the_answer_itself_and_bounded() -> None:
    """Another answer to the same question is not the kept one (identity, not equality): its context is
    built afresh; the kept contexts never exceed :data:`KEPT_CONTEXTS`, the latest kept."""
    renderer._CONTEXTS.clear()
    answers = [answer(OWN[i % len(OWN)]) for i in range(KEPT_CONTEXTS + 3)]
    for a in answers:
        render(a, "html")
        assert len(renderer._CONTEXTS) <= KEPT_CONTEXTS
    assert [kept[0] for kept in renderer._CONTEXTS.values()] == answers[-KEPT_CONTEXTS:]
    again = answer(OWN[0])
    assert id(again) not in renderer._CONTEXTS or renderer._CONTEXTS[id(again)][0] is again
    render(again, "text")
    assert renderer._CONTEXTS[id(again)][0] is again


def test_the_second_and_third_dialect_of_an_answer_render_the_template_only() -> None:
    """Python calls of html, text and Markdown of one fresh answer, a reply each, over the 125 corpus
    questions: at da31aba7 (the context built per render) 908.9 (below the three dialects' own 290.3 +
    282.7 + 383.1: the answer's derived facts are made on its first render); here 466.9 (-48.6 %): the
    context is built once; a single fresh render makes the same 290.3 calls as before. Bound: 466.9 + 1 %."""
    for fmt in FORMATS:  # warm: templates, catalogs, remembered numbers
        for q in CORPUS_QUESTIONS:
            render(answer(q), fmt)

    def three(a) -> None:
        for fmt in FORMATS:
            render(a, fmt)

    fresh = [answer(q) for q in CORPUS_QUESTIONS]
    calls = sum(python_calls(three, a) for a in fresh) / len(fresh)
    assert calls < 471.5, calls
    fresh = [answer(q) for q in CORPUS_QUESTIONS]
    assert sum(python_calls(render, a, "html") for a in fresh) / len(fresh) < 292.6  # one dialect: as before
