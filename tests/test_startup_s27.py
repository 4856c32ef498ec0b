"""Issue 23 item 7, ``sizing-bot ask`` start-up (session 27, part s27-spstart; bench/RESULTS.md).

- ``secrets`` and ``base64``, which ``pydantic.types`` imports and reads only in ``Secret*.__eq__`` and the
  ``Base64*`` types, are :class:`estimator._lazy_stdlib.LazyModule` objects until a name of theirs is read:
  a plain ``ask`` never loads ``hmac``; the first read loads the real module, which then works as always.
- :class:`bot.core.answer.Answer` and :class:`bot.core.conversation.Turn` are plain dataclasses, so a plain
  ``ask`` (no ``--presales``) imports none of the pre-sales models (``bot.core.offer``: ``Offer``,
  ``Pricing``, ``Term``, ``Exchange``, ``Discount``, ``Monthly``; ``Localized``); a question with an offer
  still gets its offer lines and the JSON its ``offer``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import BaseModel

from tests.startup_probe import ask_loaded

ROOT = Path(__file__).resolve().parents[1]
PRESALES = ("bot.core.offer", "bot.settings.presales", "bot.settings.localized", "hmac")


@pytest.mark.parametrize(
    ("args", "seen"),
    [
        (("7B模型1万亿token要多少A100",), "A100"),
        (("serve Llama-3-70B on 4 H100 with vLLM, 32 users",), "H100"),
        (("--format", "json", "7B模型1万亿token要多少A100"), '"offer": null'),
    ],
)
def test_a_plain_question_imports_no_presales_model_and_no_hmac(args: tuple[str, ...], seen: str) -> None:
    reply, loaded = ask_loaded(PRESALES, *args)
    assert seen in reply and loaded == []


def test_a_question_with_an_offer_still_prices_it() -> None:
    toml = str(ROOT / "presales.example.toml")
    reply, loaded = ask_loaded(PRESALES, "--presales", toml, "--format", "json", "7B模型1万亿token要多少A100")
    offer = json.loads(reply)["offer"]
    assert offer is not None and offer["pricing"] is not None
    assert "bot.core.offer" in loaded and "bot.settings.presales" in loaded


_LAZY = """
import sys
import estimator
from pydantic import SecretStr
import pydantic.types as t
print(type(sys.modules["secrets"]).__name__, type(t.base64).__name__, "hmac" in sys.modules)
print(SecretStr("a") == SecretStr("a"), SecretStr("a") == SecretStr("b"))
print(type(sys.modules["secrets"]).__name__, t.secrets.token_hex is sys.modules["secrets"].token_hex)
print(t.base64.b64encode(b"sizing").decode())
"""


def test_the_lazy_modules_load_on_first_use_and_then_work_as_before() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SIZING_BOT_")}
    done = subprocess.run(
        [sys.executable, "-c", _LAZY], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split("\n")[:4] == [
        "LazyModule LazyModule False",
        "True False",  # SecretStr.__eq__ reads secrets.compare_digest: loads it
        "module True",  # the real module took its place; the lazy one holds its names
        "c2l6aW5n",
    ]


def test_answer_and_turn_are_plain_dataclasses_with_pydantic_s_copy() -> None:
    from dataclasses import is_dataclass

    from bot.core.answer import Answer
    from bot.core.conversation import Turn
    from bot.parse import parse

    assert is_dataclass(Answer) and not issubclass(Answer, BaseModel)
    assert is_dataclass(Turn) and not issubclass(Turn, BaseModel)
    parsed = parse("7B模型1万亿token要多少A100")
    a = Answer(parsed=parsed, report=None, lang="zh", changed=["gpu"])
    a.know(cheapest_index=1)
    kept = a.model_copy(update={"followup": True})
    assert kept.followup and not a.followup and kept.changed == ["gpu"] and kept.cheapest_index == 1
    assert a.model_copy(update={"report": None}).cheapest_index is None  # derived from the report: forgotten
    with pytest.raises(TypeError):
        Answer(parsed=parsed, report=None, lang="zh", colour="red")  # type: ignore[call-arg]
