"""The Python our templates compile to, with Jinja's commonest runtime calls written in place.

A reply's Jinja code spent about a third of its interpreted steps in helpers it calls per value
(session 12, opcode counts over the corpus): ``environment.getattr`` (~127 calls a reply: ``L.best``,
``t.gpus`` …), ``context.call`` of our gettext (~34), ``escape`` of each ``{{ … }}`` (~47, half of
them Markup from our filters) and ``resolve`` of each name a frame reads (~54).
:class:`ReplyCodeGenerator` writes the same operations so that the
common case needs no Python call; every other case reaches the very helper Jinja would have called, so
the text is the same:

- ``x.name`` (a literal name that is no dict attribute, :data:`_DICT_NAMES`): the item of a plain
  ``dict`` that has that key, else ``environment.getattr`` (which for such a dict would have returned
  that item: :meth:`bot.render.env.ReplyEnvironment.getattr`, and Jinja's own, try the item next);
- ``_("…", k=v)`` / ``gettext("…", k=v)`` (one positional argument, literal keywords): a
  :func:`bot.render.env.remembered_gettext` function's lookup (:data:`DIRECT`) called with the
  message and keyword dict (as :meth:`bot.render.env.ReplyContext.call` does), else
  :func:`gettext_call` (``context.call``);
- ``resolve('name')`` at a frame's start: ``context.resolve_or_missing``'s two dict look-ups;
- ``{{ value }}`` when autoescaping: a Markup value as it is (what ``escape`` returns for one), else
  ``escape(value)``.

:data:`CODEGEN_TAG` is part of each compiled template's checksum (:class:`bot.render.env.CompiledTemplates`),
so bytecode written by another generator is compiled afresh instead of loaded.
"""

from __future__ import annotations

from types import FunctionType
from typing import Any

from jinja2 import compiler, idtracking, nodes
from jinja2.compiler import CodeGenerator, Frame

HOOKS = (
    "enter_frame",
    "get_resolve_func",
    "visit_Getattr",
    "visit_Call",
    "_output_child_pre",
    "_output_child_post",
)
"""The code generator's methods :class:`ReplyCodeGenerator` overrides or calls (private to Jinja, tested
with 3.1.6: pyproject.toml pins ``jinja2>=3.1.6,<3.2``)."""

optimizeconst: Any = getattr(compiler, "optimizeconst", lambda f: f)
VAR_LOAD_RESOLVE = getattr(idtracking, "VAR_LOAD_RESOLVE", None)


def hooks_present(generator: type = CodeGenerator) -> bool:
    """Whether Jinja's code generator has every private hook and name :class:`ReplyCodeGenerator` needs
    (:data:`HOOKS`, ``optimizeconst``, ``VAR_LOAD_RESOLVE``); without them Jinja's own is used."""
    return (
        hasattr(compiler, "optimizeconst")
        and VAR_LOAD_RESOLVE is not None
        and all(callable(getattr(generator, name, None)) for name in HOOKS)
    )


_DICT_NAMES = frozenset(dir(dict))
"""The attributes a plain dict has (methods, dunders): ``t.items`` is the method, as in Jinja."""

_GETTEXT_NAMES = frozenset({"_", "gettext"})
"""Template names our environments bind to the catalog's gettext (:func:`bot.render.env._environment`)."""

DIRECT: dict[Any, Any] = {}
"""Filled by :mod:`bot.render.env`: each remembered gettext function → its (autoescape, message,
variables) lookup."""


def gettext_call(context: Any, fn: Any, message: Any, variables: dict[str, Any], **extra: Any) -> Any:
    """``fn(message, **variables)`` as the template's ``context.call`` makes it: a remembered gettext
    gets the keyword dict as it is (no ``**`` packing); anything else goes through ``context.call``
    with the loop and block variables Jinja passes (``extra``)."""
    direct = DIRECT.get(fn) if type(fn) is FunctionType else None
    if direct is not None:
        return direct(context.eval_ctx.autoescape, message, variables)
    return context.call(fn, message, **variables, **extra)


class ReplyCodeGenerator(CodeGenerator):
    """Jinja's code generator with item access, gettext calls and Markup output written in place
    (module docstring). Async and sandboxed environments get Jinja's code unchanged."""

    def _plain(self) -> bool:
        return not (self.environment.is_async or self.environment.sandboxed)

    def enter_frame(self, frame: Frame) -> None:
        """Jinja's frame start, with each ``x = resolve('name')`` (``context.resolve_or_missing``:
        the context's own variables, then its parent's, else ``missing``) written out as those
        two dict look-ups: a reply resolved ~54 names, each a Python call."""
        if not self._plain() or self.get_resolve_func() != "resolve":
            super().enter_frame(frame)
            return
        loads = frame.symbols.loads
        resolved = {target: param for target, (action, param) in loads.items() if action == VAR_LOAD_RESOLVE}
        frame.symbols.loads = {target: load for target, load in loads.items() if target not in resolved}
        try:
            super().enter_frame(frame)
        finally:
            frame.symbols.loads = loads
        for target, param in resolved.items():
            key = repr(param)
            found = f"context.vars[{key}] if {key} in context.vars"
            self.writeline(f"{target} = {found} else context.parent.get({key}, missing)")

    @optimizeconst
    def visit_Getattr(self, node: nodes.Getattr, frame: Frame) -> None:
        if not self._plain() or node.attr in _DICT_NAMES:
            super().visit_Getattr(node, frame)
            return
        key = repr(node.attr)
        self.write("(_g[" + key + "] if type(_g := ")
        self.visit(node.node, frame)
        self.write(f") is dict and {key} in _g else environment.getattr(_g, {key}))")

    @optimizeconst
    def visit_Call(self, node: nodes.Call, frame: Frame, forward_caller: bool = False) -> None:
        gettext = (
            self._plain()
            and not forward_caller
            and isinstance(node.node, nodes.Name)
            and node.node.name in _GETTEXT_NAMES
            and len(node.args) == 1
            and node.dyn_args is None
            and node.dyn_kwargs is None
        )
        if not gettext:
            super().visit_Call(node, frame, forward_caller=forward_caller)
            return
        # the lookup itself when `_` is a remembered gettext; else gettext_call. The arguments are
        # written once (a nested `_()` in a keyword would otherwise double the code at each level) and
        # evaluated first into one tuple, assigned after any nested call's own names are done with.
        self.write("(_d(context.eval_ctx.autoescape, *_a) if (_a := (")
        self._gettext_arguments(node, frame)
        self.write(")) and type(_f := ")
        self.visit(node.node, frame)
        self.write(
            ") is FunctionType and (_d := DIRECT.get(_f)) is not None else gettext_call(context, _f, *_a"
        )
        if frame.loop_frame:
            self.write(", _loop_vars=_loop_vars")
        if frame.block_frame:
            self.write(", _block_vars=_block_vars")
        self.write("))")

    def _gettext_arguments(self, node: nodes.Call, frame: Frame) -> None:
        """``message, {'key': value, …},`` of a gettext call."""
        self.visit(node.args[0], frame)
        self.write(", {")
        for kwarg in node.kwargs:
            self.write(f"{kwarg.key!r}: ")
            self.visit(kwarg.value, frame)
            self.write(", ")
        self.write("},")

    def _output_child_pre(self, node: nodes.Expr, frame: Frame, finalize: Any) -> None:
        if frame.eval_ctx.volatile or not frame.eval_ctx.autoescape or not self._plain():
            super()._output_child_pre(node, frame, finalize)
            return
        self.write("(_e if type(_e := ")
        if finalize.src is not None:
            self.write(finalize.src)

    def _output_child_post(self, node: nodes.Expr, frame: Frame, finalize: Any) -> None:
        if frame.eval_ctx.volatile or not frame.eval_ctx.autoescape or not self._plain():
            super()._output_child_post(node, frame, finalize)
            return
        if finalize.src is not None:
            self.write(")")
        self.write(") is Markup else escape(_e))")


CODE_GENERATOR: type[CodeGenerator] = ReplyCodeGenerator if hooks_present() else CodeGenerator
"""The reply environments' code generator: ours, or Jinja's own where its private hooks are missing
(the text is the same: tests/test_render_codegen.py)."""

CODEGEN_TAG = "reply-codegen-4" if CODE_GENERATOR is ReplyCodeGenerator else "jinja-code"
"""Changes whenever the code written changes (:class:`ReplyCodeGenerator`'s, or Jinja's own)."""
