"""The conversational side: parse a question, answer it, render the reply, talk to Telegram.

Importing the package pauses Python's cyclic garbage collector while it loads the start-up aids
(:mod:`bot._module_finder`, :mod:`bot.regex_store`, :mod:`estimator`'s aids and pydantic with them), then
freezes what exists (``gc.freeze``: the modules, classes and functions loaded so far, which live as long as
the process) and turns the collector back on, as it was. Collections during those imports walked every
object loaded so far again and freed nothing of note: ~7.6M instructions of ``sizing-bot ask``'s ~1,025M
(callgrind, 2026-12-07, bench/RESULTS.md session 43). A caller that turned the collector off keeps it off
and nothing is frozen.
"""

import gc
import sys

_collecting = gc.isenabled()
gc.disable()
try:
    from bot._module_finder import install as _install_module_finder

    _install_module_finder()  # before the other modules of a start: see the module

    from bot.regex_store import install as _install_regex_store

    _install_regex_store()  # before the first re.compile of a start: see the module

    import estimator  # noqa: F401  # installs the start-up aids before pydantic builds anything
finally:
    if _collecting:
        gc.freeze()  # what is loaded so far lives as long as the process: later collections skip it
        gc.enable()

# httpx's own command line (``httpx.main``: click, rich and pygments, ~20 modules and ~1.5 MiB of the idle
# bot's RSS), which ``import httpx`` loads whenever they are installed and replaces by a stub on ImportError
# (which a ``None`` here raises): the bot's HTTP clients (PTB, Feishu, DingTalk, WeCom) never run it.
sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]
