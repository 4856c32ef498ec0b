"""The conversational side: parse a question, answer it, render the reply, talk to Telegram."""

import estimator  # noqa: F401  # installs the start-up aids before pydantic builds anything
