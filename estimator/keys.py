"""A closed set of string keys with an enum's reading API, made without ``enum``'s class machinery.

The ledger's reason keys (:class:`estimator.reasons.Why`, ~170 of them), its word values
(:class:`estimator.reasons.Word`) and the note codes (:class:`bot.render.note_codes.NoteCode`) are
read as enums are: ``Why.tiny_job`` is a ``str`` equal to ``"tiny_job"``, ``for key in Why``,
``Why("tiny_job")`` (``ValueError`` for an unknown string), ``key in Why``, ``isinstance(key, Why)``,
``key.value`` and ``key.name``. No pydantic field is typed with them (the report keeps plain strings),
so nothing else of ``enum`` is used. ``enum.EnumType`` builds each member through ``_EnumDict``'s
checks, ``_proto_member.__set_name__`` and the value and name maps: ~48k instructions a member, 14M of
a plain ``sizing-bot ask`` for these three (callgrind, bench/RESULTS.md session 28 part s28-spstart);
:class:`KeysType` makes each member with one ``str.__new__``.

A member is an instance of its class (a ``str`` subclass): equal and hashing as its string, printed and
formatted as its string, written to JSON as its string; only ``repr`` names the class
(``<Why.tiny_job: 'tiny_job'>``, as an enum's). Its ``value`` and ``_value_`` are the plain string,
``name`` and ``_name_`` its attribute name, all plain attributes as on an enum member.
"""

from collections.abc import Iterator
from typing import Any


class KeysType(type):
    """Metaclass of :class:`Keys`: each public class attribute holding a ``str`` becomes a member."""

    _members: dict[str, Any]
    _by_value: dict[str, Any]

    def __new__(mcs, name: str, bases: tuple[type, ...], ns: dict[str, Any]) -> "KeysType":
        values = {k: v for k, v in ns.items() if not k.startswith("_") and type(v) is str}
        cls = super().__new__(mcs, name, bases, {k: v for k, v in ns.items() if k not in values})
        members = {}
        for key, value in values.items():
            member = members[key] = str.__new__(cls, value)
            member.value = member._value_ = value  # attributes, as an enum member's: no call to read
            member.name = member._name_ = key
            type.__setattr__(cls, key, member)
        by_value = {str.__str__(m): m for m in members.values()}
        type.__setattr__(cls, "_members", members)
        type.__setattr__(cls, "_by_value", by_value)
        if len(by_value) != len(members):
            raise ValueError(f"{name}: two members share a value")
        return cls

    def __iter__(cls) -> Iterator[Any]:
        return iter(cls._members.values())

    def __len__(cls) -> int:
        return len(cls._members)

    def __contains__(cls, value: object) -> bool:
        return isinstance(value, str) and value in cls._by_value

    def __call__(cls, value: str) -> Any:
        """The member whose string is ``value``; ``ValueError`` when none is (as ``Enum(value)``)."""
        try:
            return cls._by_value[value]
        except (KeyError, TypeError):
            raise ValueError(f"{value!r} is not a valid {cls.__name__}") from None

    def __setattr__(cls, key: str, value: Any) -> None:
        raise AttributeError(f"cannot reassign members of {cls.__name__}")


class Keys(str, metaclass=KeysType):
    """Base of a key set (see the module): subclass it with ``name = "value"`` attributes."""

    value: str
    """the key as a plain ``str`` (also ``_value_``, as an enum member)"""
    name: str
    """the member's attribute name (also ``_name_``)"""

    def __repr__(self) -> str:
        return f"<{type(self).__name__}.{self.name}: {self.value!r}>"

    __str__ = str.__str__
    __format__ = str.__format__
