"""The arguments of :class:`dtype_lattice.Lattice`, checked before the
library reads them.

Python would read several wrong inputs as something else without a word: a
string as the list of its letters, a dict as the list of its keys, the keys
``1`` and ``'1'`` as one node, ``None`` as the node ``'None'``, a weak or
mapped label that no edge mentions as a new node. Each is refused here with
the argument it came in and what to write instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np


def _what(value: Any) -> str:
    """The value and its type, as an error message shows them."""
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{text} (of type {type(value).__name__})"


def _label(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise TypeError(
            f"Lattice: {where} {_what(value)}, not a label: labels are strings (write "
            f"{str(value)!r} if that is the label meant)")
    return value


def _edges(edges: Any) -> list[tuple[str, list[str]]]:
    if not isinstance(edges, Mapping):
        raise TypeError(
            f"Lattice: edges is {_what(edges)}, not a dict of lists: map each node to the "
            "nodes it promotes to, as in {'int8': ['int16'], 'int16': []}")
    out = []
    for key, targets in edges.items():
        key = _label(key, "edges has the key")
        if isinstance(targets, (str, bytes)):
            raise TypeError(
                f"Lattice: the value of {key!r} is the string {targets!r}, not a list of "
                f"labels: write [{targets!r}] for one edge")
        if isinstance(targets, Mapping):
            raise TypeError(
                f"Lattice: the value of {key!r} is a dict, not a list of labels: write "
                f"{list(targets)!r} for its keys")
        if not isinstance(targets, (list, tuple)):
            raise TypeError(
                f"Lattice: the value of {key!r} is {_what(targets)}, not a list of labels: "
                "write [] for a node that promotes to nothing")
        out.append((key, [_label(t, f"the list of {key!r} holds") for t in targets]))
    return out


def _labels_of(edges: list[tuple[str, list[str]]]) -> set[str]:
    return {label for key, targets in edges for label in (key, *targets)}


def _unknown(label: str, argument: str) -> ValueError:
    verb = "maps" if argument == "dtypes" else "names"
    return ValueError(
        f"Lattice: {argument} {verb} {label!r}, which no edge mentions: name only nodes of "
        f"edges (a key, or in a list), or add {label!r}: [] to edges for a node without "
        "edges")


def _dtype_name(label: str, value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, np.dtype):
        return str(value)
    if isinstance(value, type) and issubclass(value, np.generic):
        return np.dtype(value).name
    raise TypeError(
        f"Lattice: dtypes maps {label!r} to {_what(value)}, not a dtype: give a dtype name "
        "such as 'int8', a NumPy dtype or a scalar type such as np.int8")


def _dtypes(dtypes: Any, nodes: set[str]) -> list[tuple[str, str]] | None:
    if dtypes is None:
        return None
    if not isinstance(dtypes, Mapping):
        raise TypeError(
            f"Lattice: dtypes is {_what(dtypes)}, not a dict: map labels to dtype names, as "
            "in {'i*': 'int64'}")
    out = []
    for label, value in dtypes.items():
        label = _label(label, "dtypes has the key")
        if label not in nodes:
            raise _unknown(label, "dtypes")
        out.append((label, _dtype_name(label, value)))
    return out


def _weak(weak: Any, nodes: set[str]) -> list[str] | None:
    if weak is None:
        return None
    if isinstance(weak, (str, bytes)):
        raise TypeError(
            f"Lattice: weak is the string {weak!r}, not a list of labels: write [{weak!r}] "
            "for one weak node")
    if isinstance(weak, Mapping):
        raise TypeError(
            f"Lattice: weak is a dict, not a list of labels: write {list(weak)!r} for its "
            "keys")
    if not isinstance(weak, (list, tuple, set, frozenset)):
        raise TypeError(f"Lattice: weak is {_what(weak)}, not a list of labels")
    out = []
    for label in weak:
        label = _label(label, "weak holds")
        if label not in nodes:
            raise _unknown(label, "weak")
        out.append(label)
    return out


def lattice_arguments(edges: Any, dtypes: Any, weak: Any, name: Any) -> dict[str, Any]:
    """The arguments as the native ``Lattice`` takes them, or the error
    naming the first bad one."""
    if name is not None and not isinstance(name, str):
        raise TypeError(f"Lattice: name is {_what(name)}, not a string")
    read = _edges(edges)
    nodes = _labels_of(read)
    return {"edges": read, "dtypes": _dtypes(dtypes, nodes), "weak": _weak(weak, nodes),
            "name": name}


def pair(highlight: Any, method: str) -> tuple[str, str] | None:
    """``highlight`` as a pair of labels, or None."""
    if highlight is None:
        return None
    if isinstance(highlight, (str, bytes)) or not isinstance(highlight, (tuple, list)) \
            or len(highlight) != 2:
        raise TypeError(
            f"Lattice.{method}: highlight is {_what(highlight)}, not a pair of labels: "
            "write ('int8', 'uint8')")
    a, b = highlight
    return (_label(a, f"{method}: highlight holds"), _label(b, f"{method}: highlight holds"))


def label_argument(value: Any, method: str, argument: str) -> str:
    """A node label given to ``method``."""
    if not isinstance(value, str):
        raise TypeError(
            f"Lattice.{method}: {argument} is {_what(value)}, not a label: labels are "
            f"strings (write {str(value)!r} if that is the label meant)")
    return value
