"""Issue 23 item 7, `ask` start-up (session 29, s29-spstart): the code of every ``namedtuple``'s ``__new__``
(``collections``' ``eval`` of ``'lambda _cls, a, b: _tuple_new(_cls, (a, b))'``, ~46 in a plain ``ask``,
~250k instructions each) is taken from the build's stored code or compiled once a process
(estimator._dataclass_code._eval); the classes behave as before."""

from __future__ import annotations

import collections
import typing

from estimator import _dataclass_code as dc


def test_namedtuple_new_is_compiled_once_a_text_and_behaves_as_before() -> None:
    assert collections.eval is dc._eval  # type: ignore[attr-defined]  # installed by `import estimator`
    first = collections.namedtuple("First", "alpha beta", defaults=(2,))
    second = collections.namedtuple("Second", ["alpha", "beta"])
    assert first.__new__.__code__ is second.__new__.__code__  # one text, one code
    text = "lambda _cls, alpha, beta: _tuple_new(_cls, (alpha, beta))"
    assert first.__new__.__code__ == compile(text, "<string>", "eval", dont_inherit=True).co_consts[0]
    assert first(1) == (1, 2) and first(1).beta == 2 and repr(second(3, 4)) == "Second(alpha=3, beta=4)"
    assert first._make([5, 6]) == (5, 6) and first.__new__.__defaults__ == (2,)
    assert first.__new__.__doc__ == "Create new instance of First(alpha, beta)"


def test_typing_namedtuple_classes_keep_their_fields_defaults_and_errors() -> None:
    class Row(typing.NamedTuple):
        gpus: int
        name: str = "A100"

    assert Row(8) == (8, "A100") and Row(8, "H100").name == "H100" and Row._fields == ("gpus", "name")
    try:
        Row()  # type: ignore[call-arg]
    except TypeError as exc:
        assert "gpus" in str(exc)
    else:  # pragma: no cover - a defect
        raise AssertionError("a missing field must raise")


def test_other_evals_in_collections_are_pythons_own() -> None:
    local = 40  # noqa: F841  # read by the evaluated text
    assert dc._eval("local + 2") == 42  # no namespace: the caller's frame, as eval's own
    assert dc._eval("  1 + 1", {}) == 2  # leading blanks dropped, as eval drops them
    assert dc._eval(compile("3", "<x>", "eval"), {}) == 3  # a code object runs as given


def test_typing_inspection_checks_run_from_stored_code_and_answer_as_before() -> None:
    import subprocess
    import sys

    probe = (
        "import sys, estimator._dataclass_code as d; texts = []; real = d._exec\n"
        "d._exec = lambda s, g=None, l=None: texts.append(s) or real(s, g, l)\n"
        "assert d._ExecFinder in sys.meta_path\n"
        "import typing, typing_extensions, typing_inspection.typing_objects as t\n"
        "assert d._ExecFinder not in sys.meta_path and 'exec' not in vars(t)\n"
        "assert t.is_annotated(typing.Annotated) and t.is_literal(typing_extensions.Literal)\n"
        "assert not t.is_literal(int) and t.is_typealiastype(typing_extensions.TypeAliasType('X', int))\n"
        "assert t.is_annotated.__annotations__ == {'obj': typing.Any, 'return': bool}\n"
        "print(len(texts), sum(s in d._stored for s in texts))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    made, stored = map(int, done.stdout.split())
    assert made >= 30  # typing_inspection 0.4 makes 33 checks from text
    assert stored in (0, made)  # all from the build's store (pip install -e .), or none without one
