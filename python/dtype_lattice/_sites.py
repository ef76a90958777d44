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
        self._internal: dict[Any, bool] = {}

    def user_frame(self, frame: Any) -> Any:
        """The first frame at or above ``frame`` outside the internal
        directories, or None."""
        internal = self._internal
        while frame is not None:
            code = frame.f_code
            inside = internal.get(code)
            if inside is None:
                inside = internal[code] = code.co_filename.startswith(self._dirs)
            if not inside:
                return frame
            frame = frame.f_back
        return None

    @staticmethod
    def site(frame: Any) -> Site:
        """A frame's file, line and function (qualified where Python knows
        it)."""
        if frame is None:
            return UNKNOWN
        code = frame.f_code
        return (code.co_filename, frame.f_lineno, getattr(code, "co_qualname", code.co_name))


def package_dirs(*modules: Any) -> tuple[str, ...]:
    """The directories of packages loaded from files (their ``__file__``
    set), each ending with a separator, dtype-lattice's own among them."""
    import dtype_lattice

    return tuple(os.path.dirname(cast(str, module.__file__)) + os.sep
                 for module in (*modules, dtype_lattice))
