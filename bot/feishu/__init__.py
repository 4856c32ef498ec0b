"""Feishu / Lark platform: protocol pieces (codec, long-connection client, HTTP API).

Nothing here imports the bot's core, render layer or Telegram adapter; see README.md.
"""
