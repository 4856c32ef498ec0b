"""The conversational side: parse a question, answer it, render the reply, talk to Telegram."""

import sys

from bot._module_finder import install as _install_module_finder

_install_module_finder()  # before the other modules of a start: see the module

from bot.regex_store import install as _install_regex_store  # noqa: E402

_install_regex_store()  # before the first re.compile of a start: see the module

import estimator  # noqa: E402, F401  # installs the start-up aids before pydantic builds anything

# httpx's own command line (``httpx.main``: click, rich and pygments, ~20 modules and ~1.5 MiB of the idle
# bot's RSS), which ``import httpx`` loads whenever they are installed and replaces by a stub on ImportError
# (which a ``None`` here raises): the bot's HTTP clients (PTB, Feishu, DingTalk, WeCom) never run it.
sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]
