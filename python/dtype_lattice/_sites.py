"""Where in the user's code a recorded call was made: the first frame
outside the recording framework's packages and dtype-lattice. Shared by
every recorder (``_record`` for JAX, ``_record_torch`` for PyTorch), so
that a program mixing frameworks gets its calls located the same way.
"""

from __future__ import annotations

import os
from typing import Any, cast

#: A recorded call's site: ``(file, line, function)``.
Site = tuple[str, int, str]

UNKNOWN: Site = ("<unknown>", 0, "<unknown>")


class Sites:
    """Finds the user's frame above a framework's, remembering for each
    code object whether it is internal (the same code is asked again and
    again)."""

    def __init__(self, internal_dirs: tuple[str, ...]) -> None:
        self._dirs = internal_dirs
        # id(code) -> (whether internal, the code): by id, since hashing a
        # code object hashes its contents (constants included) on every
        # lookup; the code is kept so that its id stays its own.
        self._internal: dict[int, tuple[bool, Any]] = {}

    def user_frame(self, frame: Any) -> Any:
        """The first frame at or above ``frame`` outside the internal
        directories, or None."""
        internal = self._internal
        while frame is not None:
            code = frame.f_code
            known = internal.get(id(code))
            if known is None:
                known = internal[id(code)] = (code.co_filename.startswith(self._dirs), code)
            if not known[0]:
                return frame
            frame = frame.f_back
        return None

    @staticmethod
    def where(frame: Any) -> tuple[int, int] | None:
        """A frame :meth:`user_frame` returned (or None) as a recorder keeps
        it, cheap to hash: ``(id of its code, instruction offset)``."""
        return None if frame is None else (id(frame.f_code), frame.f_lasti)

    def site_of(self, where: tuple[int, int] | None) -> Site:
        """The site of what :meth:`where` gave."""
        return UNKNOWN if where is None else self.site_at(self._internal[where[0]][1], where[1])

    @staticmethod
    def site_at(code: Any, instruction: int) -> Site:
        """The site of the instruction at byte offset ``instruction`` of
        ``code``: what a recorder that kept ``(frame.f_code,
        frame.f_lasti)`` finds once the recording is read, since a frame's
        line number is decoded from the line table on each read and the
        offset is a field."""
        return (code.co_filename, line_at(code, instruction),
                getattr(code, "co_qualname", code.co_name))

    @staticmethod
    def site(frame: Any) -> Site:
        """A frame's file, line and function (qualified where Python knows
        it)."""
        if frame is None:
            return UNKNOWN
        code = frame.f_code
        return (code.co_filename, frame.f_lineno, getattr(code, "co_qualname", code.co_name))


def line_at(code: Any, instruction: int) -> int:
    """The line of the instruction at byte offset ``instruction`` of
    ``code``."""
    for start, end, line in code.co_lines():
        if start <= instruction < end and line is not None:
            return int(line)
    return int(code.co_firstlineno)


def package_dirs(*modules: Any) -> tuple[str, ...]:
    """The directories of packages loaded from files (their ``__file__``
    set), each ending with a separator, dtype-lattice's own among them."""
    import dtype_lattice

    return tuple(os.path.dirname(cast(str, module.__file__)) + os.sep
                 for module in (*modules, dtype_lattice))
