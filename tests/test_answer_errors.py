"""An estimator bug never reaches the user as a traceback: the reply apologises, the log has it."""

import logging

import bot.core.pipeline as pipeline
from bot.render.renderer import render


def test_estimator_failure_gives_a_polite_reply(monkeypatch, caplog):
    def broken(request):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(pipeline, "estimate", broken)
    with caplog.at_level(logging.ERROR, logger="bot.core.pipeline"):
        a = pipeline.answer("7B模型1万亿token要多少A100")
    assert a.report is None
    text = render(a, "text")
    assert "抱歉" in text and "boom" not in text and "Traceback" not in text
    assert "ZeroDivisionError" in caplog.text
