"""Session 45 (s45-speed): ``sizing-bot ask`` start-up (issue 23 item 7; bench/RESULTS.md "Session 45")."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path

import pytest


def test_the_finders_plain_modules_hold_path_only_while_a_body_runs(tmp_path: Path) -> None:
    """bot._module_finder._Module: while a module body the finder's loader runs executes, its plain modules
    answer ``__path__ == ()`` from their class (``from module import name`` finds one instead of building an
    AttributeError); at rest they have none (a function's own import takes CPython's path: no Python frame
    more per message). Either way the import system treats them as plain modules: the spec, the standard
    errors, and a top-level module on ``sys.path`` (``json``) is never taken for a submodule of one."""
    from bot._module_finder import Loader, _Module

    module = importlib.import_module("bot.parse.numbers")
    assert type(module) is _Module and not hasattr(module, "__path__") and "__path__" not in _Module.__dict__
    assert module.__spec__.submodule_search_locations is None and module.__package__ == "bot.parse"
    source = tmp_path / "s45_probe.py"
    source.write_text(
        "import sys\n"
        "from bot.parse.numbers import scan_numbers\n"
        "SEEN = sys.modules['bot.parse.numbers'].__path__\n"
        "try:\n"
        "    import bot.parse.numbers.json\n"
        "except ModuleNotFoundError as exc:\n"
        "    MISSING = str(exc)\n"
        "try:\n"
        "    from bot.parse.numbers import no_such_name\n"
        "except ImportError as exc:\n"
        "    NO_NAME = str(exc)\n",
        encoding="utf-8",
    )
    spec = importlib.util.spec_from_loader("s45_probe", Loader("s45_probe", str(source)))
    probe = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(probe)
    assert probe.SEEN == () and probe.scan_numbers is module.scan_numbers
    assert probe.MISSING == "No module named 'bot.parse.numbers.json'"
    assert probe.NO_NAME.startswith("cannot import name 'no_such_name' from 'bot.parse.numbers'")
    assert "bot.parse.numbers.json" not in sys.modules
    assert "__path__" not in _Module.__dict__ and not hasattr(module, "__path__")  # at rest again
    with pytest.raises(ModuleNotFoundError, match=r"'bot\.parse\.numbers' is not a package"):
        importlib.import_module("bot.parse.numbers.json")


def test_the_catalogs_name_key_is_the_regex_substitution_it_replaced() -> None:
    """estimator.catalog._name_key: lower case without the characters ``[\\s\\-_]`` matches (every Unicode
    space ``str.isspace`` names, '-' and '_'), for every catalog name and for typed names with each space."""
    import re

    from estimator import catalog

    spaces = [chr(c) for c in range(sys.maxunicode + 1) if re.fullmatch(r"\s", chr(c))]
    assert len(spaces) == 29 and "\u3000" in spaces and "\x1c" in spaces
    names = [n for g in catalog.gpus().values() for n in (g.family, g.id, g.name, *g.aliases)]
    names += [f"{s}RTX{s}4090-_D{s}" for s in spaces] + ["H100 SXM5", "A100_80G-PCIe", "昇腾 910B", "", "--"]
    regex = re.compile(r"[\s\-_]+")
    assert [catalog._name_key(n) for n in names] == [regex.sub("", n).lower() for n in names]
    assert catalog._name_key("RTX\u30004090") == "rtx4090" and catalog._name_key("H100 SXM5") == "h100sxm5"
