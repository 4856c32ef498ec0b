"""What every front end shares (Telegram, Feishu, a web page, the tests' in-memory adapter).

Nothing here imports a platform's library: identities (:mod:`bot.chat.ids`), the adapter interface
and the neutral inbound/outbound values (:mod:`bot.chat.adapter`), the seam that answers them
(:mod:`bot.chat.seam`), command texts, adapter wording, the flood gate, log redaction and the
contact line.
"""
