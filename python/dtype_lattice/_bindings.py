"""Names replaced while a patch or a recording is active, and put back.

``dl.patch_jax()`` and JAX's recording replace JAX's functions under the
module attributes JAX binds them to; PyTorch's recording replaces
functions of the ``torch`` module and methods and operators of
``torch.Tensor``. Each replacement is a :data:`Binding`; :func:`swap`
installs them and :func:`restore` puts back what each name held, which for
a class may be nothing of its own (``torch.Tensor.__add__`` is inherited
from PyTorch's C base class): the name is then deleted, so that lookups
reach the base class again exactly as before.

Restoring never overwrites a name that something else replaced while ours
was in force (that would undo someone else's change, and stopping there
would leave the framework patched for good): such names are returned,
left as they are, and named in a ``RuntimeWarning`` (:func:`warn_left`).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

#: What a name of a class held before ours when it held nothing of its own.
ABSENT: Any = object()

#: ``(owner, name, what it held, ours)``: one name replaced; the owner a
#: module or a class, what it held :data:`ABSENT` where a class inherited it.
Binding = tuple[Any, str, Any, Any]


def own(owner: Any, name: str) -> Any:
    """What ``owner`` itself holds under ``name`` (not what it inherits),
    or :data:`ABSENT`."""
    return vars(owner).get(name, ABSENT)


def mark(ours: Any, held: Any, live: Callable[[], bool]) -> Any:
    """Marks ``ours`` as our replacement of ``held`` (what the name held,
    possibly :data:`ABSENT`), in force while ``live()``: a later patch or
    recording takes a name that still holds it once it is not (put back
    there by whatever replaced it meanwhile, as ``monkeypatch`` does) as
    holding ``held``."""
    ours.__dict__["__dtype_lattice__"] = (held, live)
    return ours


def unwrap(obj: Any) -> Any:
    """``obj``, or what it replaced if it is one of our replacements no
    longer in force."""
    while True:
        marked = getattr(obj, "__dict__", {}).get("__dtype_lattice__")
        if marked is None or marked[1]():
            return obj
        obj = marked[0]


def inherited(owner: type, name: str) -> Any:
    """What a class's name resolves to past the class itself: the first
    base class's own object (a method descriptor is called unbound, with
    the instance first)."""
    for base in owner.__mro__[1:]:
        if name in vars(base):
            return vars(base)[name]
    raise AttributeError(f"{qualified(owner)} inherits no {name!r}")


def swap(bindings: list[Binding]) -> None:
    """Puts our objects under the names."""
    for owner, name, _, replacement in bindings:
        setattr(owner, name, replacement)


def restore(bindings: list[Binding]) -> list[str]:
    """Puts back what every name held where it still holds ours, and
    returns the ``owner.name`` of those something else replaced meanwhile,
    left as they are."""
    left = []
    for owner, name, original, ours in bindings:
        if own(owner, name) is not ours:
            left.append(f"{qualified(owner)}.{name}")
        elif original is ABSENT:
            delattr(owner, name)
        else:
            setattr(owner, name, original)
    return left


def qualified(owner: Any) -> str:
    """A module's name, or a class's as ``module.Class``."""
    if isinstance(owner, type):
        return f"{owner.__module__}.{owner.__qualname__}"
    return str(owner.__name__)


def warn_left(left: list[str], what: str, framework: str, stacklevel: int) -> None:
    """A ``RuntimeWarning`` naming the names :func:`restore` left."""
    if left:
        warnings.warn(
            f"{what} restored {framework}'s own functions except under {', '.join(left)}, "
            "which something else replaced while it was active and still holds; that was "
            f"left as it is (where it calls ours, ours now hands the call to {framework}'s). "
            f"Undo that replacement to put {framework}'s function back", RuntimeWarning,
            stacklevel=stacklevel + 1)
