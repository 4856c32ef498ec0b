"""Session 45 (s45-speed): ``sizing-bot ask`` start-up (issue 23 item 7; bench/RESULTS.md "Session 45")."""

from __future__ import annotations

import importlib
import sys

import pytest


def test_the_finders_plain_modules_answer_path_from_their_class_and_stay_plain_modules() -> None:
    """bot._module_finder._Module: a plain module the finder loads has ``__path__ == ()`` from its class
    (``from module import name`` then finds one instead of building an AttributeError), and the import
    system still treats it as a plain module: no submodule search, the standard errors, and a top-level
    module on ``sys.path`` (``json``) is never taken for a submodule of it."""
    from bot._module_finder import _Module

    module = importlib.import_module("bot.parse.numbers")
    assert type(module) is _Module and module.__path__ == () and "__path__" not in vars(module)
    assert module.__spec__.submodule_search_locations is None and module.__package__ == "bot.parse"
    with pytest.raises(ModuleNotFoundError, match=r"^No module named 'bot\.parse\.numbers\.json'"):
        importlib.import_module("bot.parse.numbers.json")
    assert "bot.parse.numbers.json" not in sys.modules
    with pytest.raises(ImportError, match=r"^cannot import name 'no_such_name' from 'bot\.parse\.numbers'"):
        from bot.parse.numbers import no_such_name  # noqa: F401
    from bot.parse.numbers import scan_numbers

    assert scan_numbers is module.scan_numbers


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
