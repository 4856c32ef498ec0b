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
  :func:`gettext_call` (``context.call``); ``_("…")`` alone (a literal message, no keywords) first
  reads the text that function remembers for it (:data:`ALONE`, no call at all), and with keywords
  whose values are all :data:`PLAIN_TYPES` the text it remembers for those values;
- ``resolve('name')`` at a frame's start: ``context.resolve_or_missing``'s two dict look-ups;
- ``{{ value }}`` when autoescaping: the text of what ``escape`` returns, by a C call for the commonest
  types (:data:`OUT`: a Markup's text as it is, a str by markupsafe's C escape), else ``escape(value)``
  (an output's pieces are only ever joined into one text, so a str does where Jinja has a Markup);
- ``value|b`` with a :func:`bot.render.html.tag` filter (:data:`bot.render.html.TAGS`) and a str or Markup
  value: the tags joined around the escaped value, as the filter joins them, else the filter itself;
- ``{% set x %}…{% endset %}`` and a ``{% filter %}`` block's text when autoescaping: ``Markup(text)``
  as ``str.__new__(Markup, text)`` (a joined text is a str: Markup's ``__new__`` only reads
  ``__html__``), and Jinja's ``identity(text)`` as the text itself when not.

:data:`CODEGEN_TAG` is part of each compiled template's checksum (:class:`bot.render.env.CompiledTemplates`),
so bytecode written by another generator is compiled afresh instead of loaded.
"""

from __future__ import annotations

from types import FunctionType, MappingProxyType
from typing import Any

from jinja2 import compiler, idtracking, nodes
from jinja2.compiler import CodeGenerator, Frame
from markupsafe import Markup
from markupsafe import escape as markup_escape

from bot.render.html import TAGS, _new_str, escape_str

HOOKS = (
    "enter_frame",
    "get_resolve_func",
    "visit_Getattr",
    "visit_If",
    "visit_Concat",
    "visit_Call",
    "_output_child_pre",
    "_output_child_post",
    "_filter_test_common",
    "push_assign_tracking",
    "pop_assign_tracking",
    "buffer",
    "blockvisit",
    "leave_frame",
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

STR_TYPES = frozenset({str, Markup})
"""The value types a :func:`bot.render.html.tag` filter's written-out code takes (else the filter's call)."""

PLAIN_TYPES = frozenset({str, int, Markup})
"""Variable types whose text is a function of type and value (a float is not: 0.0 == -0.0): a gettext's
text with such variables is remembered (:func:`bot.render.env.remembered_gettext`)."""

ALONE: dict[Any, Any] = {}
"""Filled by the gettext functions that remember their texts: each → its dict of (autoescape, message) →
the text ``_(message)`` gave (no variables), and (autoescape, message, variables' items, their types) →
the text with those plain variables; the written-out ``_("…")`` reads it before calling."""

OUT: dict[type, Any] = {Markup: str, str: escape_str}
"""What the written-out ``{{ value }}`` calls, by the value's type, for the text ``escape`` gives."""

LOOKED: dict[Any, Any] = {}
"""Filled by :mod:`bot.render.env`: each remembered gettext function → its message → translation dict
(a plain-text call with keywords is that translation ``%`` its variables: s33-sprender, ~19 frames a
text reply)."""


concat = "".join


def markup_concat(values: tuple[Any, ...]) -> str:
    """Jinja's ``markup_join`` (``a ~ b`` when autoescaping: jinja2/runtime.py @3.1.6) in one frame: each
    value as ``soft_str`` gives it (a str as it is, else ``str(value)``); with none of those a Markup
    (no ``__html__``), their plain concatenation; else one Markup of their escaped texts, as
    ``Markup("").join`` escapes each (a Markup kept, a str by markupsafe's C escape, else ``escape``).
    Jinja's took ~12 Python frames for a reply's ``sn ~ stage_settings`` (soft_str, join, escape …)."""
    texts = []
    marked = False
    for value in values:
        text = value if isinstance(value, str) else str(value)
        marked = marked or hasattr(text, "__html__")
        texts.append(text)
    if not marked:
        return concat(texts)
    escaped = []
    for text in texts:
        kind = type(text)
        escaped.append(text if kind is Markup else escape_str(text) if kind is str else markup_escape(text))
    return _new_str(Markup, concat(escaped))


NAMESPACE = {
    "markup_concat": markup_concat,
    "OUT": OUT,
    "new_str": _new_str,
    "escape_str": escape_str,
    "TAGS": TAGS,
    "STR_TYPES": STR_TYPES,
    "ALONE": ALONE,
    "LOOKED": LOOKED,
    "PLAIN_TYPES": PLAIN_TYPES,
    "NO_TEXTS": MappingProxyType({}),
}
"""The names :class:`ReplyCodeGenerator`'s code reads besides Jinja's (a template's module namespace
gets them: :class:`bot.render.env.ReplyTemplate`)."""

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


def truth_getattrs(test: nodes.Expr) -> list[nodes.Getattr]:
    """The ``x.name`` nodes of an ``{% if %}`` test whose value only decides the test's truth: the
    test itself, an ``and``/``or`` operand or a ``not`` operand of such a node (recursively). Any
    false value there gives the same branch, so a plain dict's missing key may read ``False`` in place
    of Jinja's undefined (s33-sprender: ~590 misses, three Python frames each, in 125 corpus replies:
    ``t.unfit_any``, ``m.batch.kept``, ``t.attention`` …). A test (``is defined``), a comparison or a
    filter reads the value itself: not these."""
    if isinstance(test, nodes.Getattr) and test.ctx == "load":
        return [test]
    if isinstance(test, nodes.And | nodes.Or):
        return truth_getattrs(test.left) + truth_getattrs(test.right)
    if isinstance(test, nodes.Not):
        return truth_getattrs(test.node)
    return []


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
        # where only the value's truth is read (truth_getattrs), a plain dict's missing key is False:
        # the undefined environment.getattr makes is false too (Undefined.__bool__), three frames
        missing = "False if type(_g) is dict else " if id(node) in self._truths else ""
        self.write(f") is dict and {key} in _g else {missing}environment.getattr(_g, {key}))")

    _truths: frozenset[int] = frozenset()

    @optimizeconst
    def visit_Concat(self, node: nodes.Concat, frame: Frame) -> None:
        """``a ~ b``: :func:`markup_concat` where Jinja writes ``markup_join`` (autoescaping, known at
        compile time), else Jinja's own."""
        if frame.eval_ctx.volatile or not frame.eval_ctx.autoescape or not self._plain():
            super().visit_Concat(node, frame)
            return
        self.write("markup_concat((")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write("))")

    def visit_If(self, node: nodes.If, frame: Frame) -> None:
        """Jinja's ``{% if %}``, with the ``x.name`` read only for its truth in each test
        (:func:`truth_getattrs`) known to :meth:`visit_Getattr`."""
        tests = (node.test, *(elif_.test for elif_ in node.elif_))
        self._truths = self._truths | {id(n) for test in tests for n in truth_getattrs(test)}
        super().visit_If(node, frame)

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
        message = node.args[0]
        # the eval context's autoescape: known here unless a block changes it at run time
        ae = "context.eval_ctx.autoescape" if frame.eval_ctx.volatile else repr(frame.eval_ctx.autoescape)
        alone = not node.kwargs and isinstance(message, nodes.Const) and type(message.value) is str
        if alone:  # the text this gettext remembers for the message, else the call below
            self.write("(_r if type(_f := ")
            self.visit(node.node, frame)
            self.write(f") is FunctionType and (_r := ALONE.get(_f, NO_TEXTS).get(({ae}, ")
            self.write(f"{message.value!r}))) is not None else ")
        # the lookup itself when `_` is a remembered gettext; else gettext_call. The arguments are
        # written once (a nested `_()` in a keyword would otherwise double the code at each level) and
        # evaluated first into one tuple, assigned after any nested call's own names are done with.
        # With keywords, the text remembered for these plain variables (the lookup's own key) first.
        remembered = bool(node.kwargs) and (frame.eval_ctx.volatile or frame.eval_ctx.autoescape)  # else none
        # plain text with keywords: the translation the lookup keeps (LOOKED) % the variables, as it does
        plain = bool(node.kwargs) and not remembered
        self.write("(_r if " if remembered else "(_lk % _a[1] if " if plain else f"(_d({ae}, *_a) if ")
        self.write("(_a := (")
        self._gettext_arguments(node, frame)
        self.write(")) and type(_f := ")
        self.visit(node.node, frame)
        self.write(") is FunctionType and ")
        if plain:
            self.write("(_lk := LOOKED.get(_f, NO_TEXTS).get(_a[0])) is not None")
            self.write(" else _d(False, *_a) if type(_f) is FunctionType and ")
        if remembered:
            self.write(
                "(_t := ALONE.get(_f)) is not None"
                " and all(map(PLAIN_TYPES.__contains__, (_ty := tuple(map(type, _a[1].values())))))"
                f" and (_r := _t.get(({ae}, _a[0], tuple(_a[1].items()), _ty)))"
                f" is not None else _d({ae}, *_a) if type(_f) is FunctionType and "
            )
        self.write("(_d := DIRECT.get(_f)) is not None else gettext_call(context, _f, *_a")
        if frame.loop_frame:
            self.write(", _loop_vars=_loop_vars")
        if frame.block_frame:
            self.write(", _block_vars=_block_vars")
        self.write("))" + (")" if alone else ""))

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
        self.write("OUT.get(type(_e := ")
        if finalize.src is not None:
            self.write(finalize.src)

    def _output_child_post(self, node: nodes.Expr, frame: Frame, finalize: Any) -> None:
        if frame.eval_ctx.volatile or not frame.eval_ctx.autoescape or not self._plain():
            super()._output_child_post(node, frame, finalize)
            return
        if finalize.src is not None:
            self.write(")")
        self.write("), escape)(_e)")

    @optimizeconst
    def visit_Filter(self, node: nodes.Filter, frame: Frame) -> None:
        """A tag filter on a value written in place (module docstring); a filter block's text as Markup
        without Markup's frame; any other filter as Jinja writes it."""
        plain = node.node is not None and not (node.args or node.kwargs or node.dyn_args or node.dyn_kwargs)
        if plain and self._plain() and self.environment.filters.get(node.name) in TAGS:
            name = self.filters[node.name]
            self.write(
                "(new_str(Markup, concat((_tg[0], _w if type(_w) is Markup else escape_str(_w), _tg[1])))"
            )
            self.write(" if ((_w := ")
            self.visit(node.node, frame)  # type: ignore[arg-type]
            self.write(
                f"), (_tg := TAGS.get({name})))[1] is not None and type(_w) in STR_TYPES else {name}(_w))"
            )
            return
        if (
            node.node is not None
            or frame.eval_ctx.volatile
            or not frame.eval_ctx.autoescape
            or not self._plain()
        ):
            super().visit_Filter(node, frame)
            return
        with self._filter_test_common(node, frame, True):
            self.write(f"new_str(Markup, concat({frame.buffer}))")

    def visit_AssignBlock(self, node: nodes.AssignBlock, frame: Frame) -> None:
        """Jinja's ``{% set x %}…{% endset %}`` (``CodeGenerator.visit_AssignBlock``) with the captured
        text made Markup by ``str.__new__`` when autoescaping and kept as it is when not (Jinja:
        ``(Markup if autoescape else identity)(text)``, two Python frames)."""
        if node.filter is not None or frame.eval_ctx.volatile or not self._plain():
            super().visit_AssignBlock(node, frame)
            return
        self.push_assign_tracking()
        block_frame = frame.inner()
        block_frame.require_output_check = False  # a set block always captures (as Jinja's)
        block_frame.symbols.analyze_node(node)
        self.enter_frame(block_frame)
        self.buffer(block_frame)
        self.blockvisit(node.body, block_frame)
        self.newline(node)
        self.visit(node.target, frame)
        text = f"concat({block_frame.buffer})"
        self.write(f" = new_str(Markup, {text})" if frame.eval_ctx.autoescape else f" = {text}")
        self.pop_assign_tracking(frame)
        self.leave_frame(block_frame)


CODE_GENERATOR: type[CodeGenerator] = ReplyCodeGenerator if hooks_present() else CodeGenerator
"""The reply environments' code generator: ours, or Jinja's own where its private hooks are missing
(the text is the same: tests/test_render_codegen.py)."""

CODEGEN_TAG = "reply-codegen-13" if CODE_GENERATOR is ReplyCodeGenerator else "jinja-code"
"""Changes whenever the code written changes (:class:`ReplyCodeGenerator`'s, or Jinja's own)."""
