"""DingTalk (钉钉) platform: Stream-mode connection, robot OpenAPI, adapter, ``sizing-bot run`` wiring.

The protocol modules (``stream.py``, ``api.py``) import nothing of the bot's core; see README.md.
"""
