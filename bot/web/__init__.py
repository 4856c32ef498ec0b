"""The web page and the JSON API (``sizing-bot serve``): one Starlette application on the same
pipeline as the CLI and the bots (:func:`bot.web.app.create_app`).

Stateless: a follow-up carries its conversation in the URL (``?q=那H100呢&prev=<earlier question>``),
so every answer is a link people can share and any worker can answer any request.
"""
