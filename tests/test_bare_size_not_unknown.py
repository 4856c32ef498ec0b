"""Trial s22 #7: a size typed without a family ('pretraining 7B on 500B tokens', 'pretrain 1B model')
was reported as 'Could not find the model “7B”' while '13B model on 3T tokens' was not: a bare size is a
generic dense model of that size, with no unknown name to report; a name the catalog lacks ('Foo-7B') is
still named; '-5 tokens' is named as not positive. Both languages."""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def ask(capsys, text: str) -> dict:
    assert main(["ask", "--format", "json", text]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    "text,params",
    [
        ("A100 vs H100 for pretraining 7B on 500B tokens, deadline 3 weeks, which is cheaper?", 7e9),
        ("pretrain 1B model -5 tokens on 8 H100", 1e9),
        ("用H100预训练7B，5000亿token，对比A100哪个便宜", 7e9),
    ],
)
def test_a_bare_size_is_a_generic_model_not_an_unknown_name(capsys, text, params):
    out = ask(capsys, text)
    assert out["request"]["params_total"] == params
    assert out["interpretation"]["unknown_model"] is None
    assert "Could not find the model" not in out["reply"] and "没找到模型" not in out["reply"]


def test_a_negative_token_count_is_named(capsys):
    out = ask(capsys, "pretrain 1B model -5 tokens on 8 H100")
    assert {"text": "-5", "reason": "nonpositive"} in out["interpretation"]["ignored"]


def test_an_unknown_name_with_a_size_is_still_named(capsys):
    out = ask(capsys, "train Foo-7B on 100B tokens on 8 H100")
    assert out["interpretation"]["unknown_model"] == "Foo-7B"
    # s24 review #8: a name sized by its typed size is said so, as typed, without a "Did you mean" list
    assert "Sized “Foo-7B” with a generic shape of its size (7B): it is not in my catalog." in out["reply"]
    assert "Did you mean" not in out["reply"]
