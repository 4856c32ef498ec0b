"""The conversational side: parse a question, answer it, render the reply, talk to Telegram."""

from bot.regex_store import install as _install_regex_store

_install_regex_store()  # before the first re.compile of a start: see the module

import estimator  # noqa: E402, F401  # installs the start-up aids before pydantic builds anything
