"""Issue 23 item 7, ``sizing-bot ask`` start-up in a source tree (s50-startup): a store of core schemas that
an editable or source-tree build wrote records each source file's name, size and modification time
(:mod:`estimator.source_stamp`); a start whose files are as stamped uses the stored schemas of models
declared in them without making their declaration texts (~22M instructions), and any file edited, added
or removed since, or a model declared outside the stamped folders, is compared as before."""

from __future__ import annotations

import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

from estimator import source_stamp
from tests.startup_probe import ask_loaded

ROOT = Path(__file__).resolve().parents[1]

PROBE = (
    "import sys, os, importlib.util, pydantic, estimator._schema_store as s, estimator.source_stamp as st\n"
    "path, mode, root, where = sys.argv[1:5]\n"
    "st.SOURCE_ROOTS += (os.path.join(root, 'estimator'),)  # this tree's modules and the probe's\n"
    "s.SCHEMAS_FILE = path; s._recording = mode == 'store'\n"
    "spec = importlib.util.spec_from_file_location('estimator._probe_file', where)\n"
    "module = importlib.util.module_from_spec(spec); sys.modules[spec.name] = module\n"
    "spec.loader.exec_module(module)\n"
    "if mode == 'store':\n"
    "    module.Probe(n=1); print(s.write_schemas(path))\n"
    "else:\n"
    "    texts = []; text = s.declaration_text\n"
    "    s.declaration_text = lambda c: texts.append(c.__name__) or text(c)\n"
    "    built = []; real = s._finish\n"
    "    s._finish = lambda cls, *a: built.append(cls.__name__) or real(cls, *a)\n"
    "    try:\n"
    "        module.Probe(n=7); print('valid', built, texts)\n"
    "    except pydantic.ValidationError:\n"
    "        print('invalid', built, texts)\n"
)

DECLARED = "from pydantic import BaseModel, Field\n\n\nclass Probe(BaseModel, defer_build=True):\n"


def _declare(path: Path, bound: int, when: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(DECLARED + f"    n: int = Field(default=1, le={bound:>2})\n", encoding="utf-8")
    os.utime(path, ns=(when, when))


def _run(store: Path, mode: str, root: Path, where: Path) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SIZING_BOT_")}
    cmd = [sys.executable, "-c", PROBE, str(store), mode, str(root), str(where)]
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip().splitlines()[-1]


def test_a_stamped_tree_uses_its_store_and_an_edited_declaration_is_still_caught(tmp_path: Path) -> None:
    tree, store = tmp_path / "tree", tmp_path / "schemas.pickle"
    module = tree / "estimator" / "_probe_file.py"
    _declare(module, 10, 1_700_000_000_000_000_000)
    assert int(_run(store, "store", tree, module)) >= 1
    # as stamped: the stored schema, no declaration text made
    assert _run(store, "use", tree, module) == "valid ['Probe'] []"
    # the bound edited (the same size, 'le= 5'; a later time): compared, and built by pydantic as declared now
    _declare(module, 5, 1_700_000_001_000_000_000)
    assert _run(store, "use", tree, module) == "invalid [] ['Probe']"
    # edited back (the same text, another time): compared, and found the same
    _declare(module, 10, 1_700_000_002_000_000_000)
    assert _run(store, "use", tree, module) == "valid ['Probe'] ['Probe']"


def test_a_model_declared_in_a_file_the_stamp_lacks_is_compared(tmp_path: Path) -> None:
    tree, store = tmp_path / "tree", tmp_path / "schemas.pickle"
    module = tree / "estimator" / "_probe_file.py"
    _declare(module, 10, 1_700_000_000_000_000_000)
    assert int(_run(store, "store", tree, module)) >= 1
    added = tree / "estimator" / "_probe_added.py"  # the same text in a file added since the build
    _declare(added, 10, 1_700_000_000_000_000_000)
    assert _run(store, "use", tree, added) == "valid ['Probe'] ['Probe']"
    elsewhere = tmp_path / "other" / "_probe_file.py"  # or outside the stamped folders
    _declare(elsewhere, 10, 1_700_000_000_000_000_000)
    assert _run(store, "use", tree, elsewhere) == "valid ['Probe'] ['Probe']"
    assert _run(store, "use", tree, module) == "valid ['Probe'] []"  # the stamped file: from the store


def test_the_stamp_follows_sources_and_only_sources(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(source_stamp, "SOURCE_ROOTS", (str(tmp_path / "bot"), str(tmp_path / "estimator")))
    models = tmp_path / "estimator" / "models.py"
    _declare(models, 10, 1_700_000_000_000_000_000)
    (tmp_path / "estimator" / "data").mkdir()
    (tmp_path / "estimator" / "data" / "_compiled.json").write_text("{}", encoding="utf-8")  # not a source
    (tmp_path / "estimator" / "__pycache__").mkdir()
    (tmp_path / "estimator" / "__pycache__" / "models.cpython-311.pyc").write_bytes(b"\0")
    first = source_stamp.sources_stamp()
    assert len(first) == 1
    os.utime(models, ns=(1, 1_700_000_000_000_000_001))  # a nanosecond later
    assert source_stamp.sources_stamp() != first
    _declare(models, 10, 1_700_000_000_000_000_000)
    assert source_stamp.sources_stamp() == first
    _declare(models, 20, 1_700_000_000_000_000_000)  # another text of the same size and time: Python's own
    assert source_stamp.sources_stamp() == first  # bytecode cache would not see it either


def test_the_stamp_checks_each_module_imported_since(tmp_path: Path, monkeypatch) -> None:
    module = types.ModuleType("estimator._probe_stamp")
    module.__file__ = str(tmp_path / "estimator" / "_probe_stamp.py")
    _declare(Path(module.__file__), 10, 1_700_000_000_000_000_000)
    stamp = source_stamp.Stamp(source_stamp.sources_stamp())  # this tree's files, and not the probe's
    assert stamp.holds("estimator.source_stamp") and not stamp.holds("estimator._probe_stamp")
    monkeypatch.setitem(sys.modules, module.__name__, module)  # imported since: not stamped
    assert not stamp.holds("estimator.source_stamp") and stamp.stored is None
    roots = (str(tmp_path / "estimator"), *source_stamp.SOURCE_ROOTS)
    monkeypatch.setattr(source_stamp, "SOURCE_ROOTS", roots)
    stamp = source_stamp.Stamp(source_stamp.sources_stamp())
    assert stamp.holds("estimator._probe_stamp") and stamp.holds("estimator.source_stamp")
    _declare(Path(module.__file__), 10, 1_700_000_003_000_000_000)  # edited: checked once, so no longer
    assert stamp.holds("estimator._probe_stamp")  # looked at (the process runs what it imported) ...
    again = source_stamp.Stamp(source_stamp.sources_stamp())  # ... the next build's stamp holds again,
    assert again.holds("estimator._probe_stamp")
    monkeypatch.setattr(source_stamp, "SOURCE_ROOTS", roots[1:])  # and a stamp without the probe's folder
    assert not source_stamp.Stamp(source_stamp.sources_stamp()).holds("estimator.source_stamp")


def test_this_tree_s_store_is_stamped_and_a_wheel_s_is_not() -> None:
    """The build writes the stamp into an editable or source-tree store, never a wheel's (trusted anyway)."""
    import inspect

    from estimator import _schema_store

    source = inspect.getsource(_schema_store.write_schemas)
    assert '"sources": None if trusted else sources_stamp()' in source


# Three length readers a plain question never reaches are imported on their first call, behind their gates
# (bot.parse.length_gates); what they read is read as before. Sentences of this session, both languages.
LENGTH_READ = [
    ("Long-context SFT of Mistral-7B at 96k or more on 8 H200, how long?", "long_context", "seq_len", 96000),
    ("Mistral-7B 长上下文微调，96k 以上，8 张 H200 要多久？", "long_context", "seq_len", 96000),
    ("Serving Mistral-7B on an L40S for a contract of about 12K tokens: does it fit?", "doc_length",
     "prompt_tokens", 12000),
    ("部署 Mistral-7B 审合同，合同大约 12000 token，一张 L40S 够吗？", "doc_length", "prompt_tokens", 12000),
    ("Serving Mistral-7B with vLLM on one L40S, it says you requested 24000 tokens. What do I need?",
     "too_long", "prompt_tokens", 24000),
    ("vLLM 部署 Mistral-7B，一张 L40S，报错（24000 > 16384），要多少显存？", "too_long", "prompt_tokens",
     24000),
]  # fmt: skip


@pytest.mark.parametrize(("text", "reader", "field", "value"), LENGTH_READ)
def test_a_length_reader_is_imported_when_its_cue_is_there(
    text: str, reader: str, field: str, value: int
) -> None:
    import json

    reply, loaded = ask_loaded((f"bot.parse.{reader}",), "--format", "json", text)
    assert json.loads(reply)["request"][field] == value and loaded == [f"bot.parse.{reader}"]


LENGTH_NOT_READ = [
    # no cue (a plain question), or a cue with no length beside it: nothing read as the length
    ("Pretrain a 7B model on 1T tokens, how many A100?", "seq_len", 4096),
    ("7B 模型 1 万亿 token 预训练要多少 A100？", "seq_len", 4096),
    ("Serving Mistral-7B on one L40S for long documents, 32 users: does it fit?", "prompt_tokens", None),
    ("部署 Mistral-7B 处理长文档，32 个用户，一张 L40S 够吗？", "prompt_tokens", None),
]


@pytest.mark.parametrize(("text", "field", "value"), LENGTH_NOT_READ)
def test_no_length_read_without_one(text: str, field: str, value: int | None) -> None:
    from bot.cli import ask

    assert json_request(ask(text, None, "json")[0])[field] == value


def json_request(reply: str) -> dict:
    import json

    return json.loads(reply)["request"]
