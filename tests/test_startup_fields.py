"""Issue 23 item 7, start-up: the fields of our models come from the build's store
(``estimator/_fields.pickle``, see :mod:`estimator._field_store`) instead of pydantic collecting them at
every start; each model's fields are the ones pydantic collects, the answers are the same with and
without the store, and a model declared otherwise than when stored is collected by pydantic."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from estimator import _field_store as fs

ROOT = Path(__file__).resolve().parents[1]
QUESTION = "7B模型1万亿token要多少A100"

FIELDS_TEXT = (
    "def fields_text():  # functions without their addresses (two processes)\n"
    "    import re\n"
    "    from pydantic import BaseModel\n"
    "    from pydantic.fields import FieldInfo\n"
    "    seen, todo = {}, [BaseModel]\n"
    "    while todo:\n"
    "        for sub in todo.pop().__subclasses__():\n"
    "            todo.append(sub)\n"
    "            if sub.__module__.startswith(('bot.', 'estimator.')):\n"
    "                seen[sub.__module__ + ':' + sub.__qualname__] = [\n"
    "                    (n, [(s, re.sub(' at 0x[0-9a-f]+', '', repr(getattr(i, s, None))))\n"
    "                         for s in FieldInfo.__slots__])\n"
    "                    for n, i in sub.__pydantic_fields__.items()]\n"
    "    return seen\n"
)

RUN = (
    "import sys, json, estimator._field_store as s\n"
    "if sys.argv[1] == 'without':\n"
    "    s.FIELDS_FILE = '/nonexistent/_fields.pickle'; s._entries = {}\n"
    "hits = []; real = s._stored_fields\n"
    "s._stored_fields = lambda cls: (lambda f: hits.append(f is not None) or f)(real(cls))\n"
    "from bot.cli import main\ncode = main(sys.argv[2:])\n"
    + FIELDS_TEXT
    + "print(json.dumps([sum(hits), fields_text()]), file=sys.stderr)\nsys.exit(code)"
)


def _run(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SIZING_BOT_")}
    cmd = [sys.executable, "-c", code, *args]
    return subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_ask_answers_the_same_with_the_same_fields_with_and_without_the_store() -> None:
    for fmt in ("text", "json"):
        stored = _run(RUN, "with", "ask", "--format", fmt, QUESTION)
        plain = _run(RUN, "without", "ask", "--format", fmt, QUESTION)
        assert stored.returncode == plain.returncode == 0, stored.stderr[-2000:] + plain.stderr[-2000:]
        assert "A100" in stored.stdout and stored.stdout == plain.stdout
        hits, fields = json.loads(stored.stderr.splitlines()[-1])
        plain_hits, plain_fields = json.loads(plain.stderr.splitlines()[-1])
        assert plain_hits == 0 and fields == plain_fields  # every slot of every FieldInfo
        assert "budget_period" in dict(fields["estimator.request:SizingRequest"])
        if os.path.exists(fs.FIELDS_FILE):  # built by the install (pip install -e .)
            assert hits >= 45  # of the 52 models a plain `ask` makes


def test_a_stored_field_keeps_the_class_bodys_own_default_objects() -> None:
    code = (
        "import estimator._field_store as s\nfrom estimator.catalog import GpuSpec\n"
        "from bot.core.interpretation import Interpretation\n"
        "info = Interpretation.model_fields['ignored']\n"
        "factory = info.default_factory\n"
        "print(factory.__module__, factory.__name__, 'ignored' in vars(Interpretation),"
        " GpuSpec.model_fields['gpus_per_node'].default)\n"
    )
    done = _run(code)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["estimator.factories", "empty_list", "False", "8"]


PROBE = (
    "import sys, types, pydantic, estimator._field_store as s\n"
    "s.FIELDS_FILE = sys.argv[1]; s._entries = None\n"
    "if sys.argv[2] == 'store':\n    s.start_recording()\n"
    "hits = []; real = s._stored_fields\n"
    "s._stored_fields = lambda cls: (lambda f: hits.append(f is not None) or f)(real(cls))\n"
    "module = types.ModuleType('estimator._probe'); sys.modules[module.__name__] = module\n"
    "exec('from __future__ import annotations\\nfrom typing import Literal\\n'\n"
    "     'from pydantic import BaseModel, Field\\n'\n"
    "     'Mode = Literal[' + sys.argv[4] + ']\\n'\n"
    "     'class Probe(BaseModel):\\n'\n"
    "     '    n: int = Field(default=1, le=' + sys.argv[3] + ')\\n'\n"
    "     '    mode: Mode = \"a\"\\n', module.__dict__)\n"
    "Probe = module.Probe\n"
    "if sys.argv[2] == 'store':\n"
    "    print(s.write_fields(sys.argv[1]))\n"
    "else:\n"
    "    for kw in ({'n': 7}, {'mode': 'b'}):\n"
    "        try:\n"
    "            Probe(**kw); print('valid', hits)\n"
    "        except pydantic.ValidationError:\n"
    "            print('invalid', hits)\n"
)


def test_a_model_declared_otherwise_than_stored_is_collected_by_pydantic(tmp_path: Path) -> None:
    path = str(tmp_path / "fields.pickle")
    done = _run(PROBE, path, "store", "10", "'a'")
    assert done.returncode == 0 and done.stdout.split() == ["1"], done.stderr[-2000:]
    as_stored = _run(PROBE, path, "use", "10", "'a'")
    assert as_stored.stdout.splitlines() == ["valid [True]", "invalid [True]"], as_stored.stderr[-2000:]
    bound = _run(PROBE, path, "use", "5", "'a'")  # the bound changed since: the stored le=10 must not be used
    assert bound.stdout.splitlines() == ["invalid [False]", "invalid [False]"], bound.stderr[-2000:]
    alias = _run(PROBE, path, "use", "10", "'a', 'b'")  # the alias the annotation names changed
    assert alias.stdout.splitlines() == ["valid [False]", "valid [False]"], alias.stderr[-2000:]


def test_a_file_for_another_pydantic_is_not_used(tmp_path: Path, monkeypatch) -> None:
    import pickle

    path = tmp_path / "fields.pickle"
    path.write_bytes(pickle.dumps((("cpython-311", "1.0.0", "0.0.1"), {"x:Y": ("", b"")})))
    monkeypatch.setattr(fs, "FIELDS_FILE", str(path))
    monkeypatch.setattr(fs, "_entries", None)
    assert fs._load() == {}
    path.write_bytes(b"\x80\x05not a store")  # nor a damaged one
    monkeypatch.setattr(fs, "_entries", None)
    assert fs._load() == {}
