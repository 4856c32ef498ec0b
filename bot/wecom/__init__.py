"""WeCom (企业微信) smart robot (智能机器人) over its long connection: client, cards, adapter, serve.

``client.py`` and ``card.py`` are protocol code only (no ``bot.core`` pipeline, no render layer, no
Telegram); the adapter and serve modules wire them to the neutral seam (``bot/chat``). ``sizing-bot
run`` (``bot/run.py``) loads this package only when ``WECOM_BOT_ID`` and ``WECOM_BOT_SECRET`` are set.
"""
