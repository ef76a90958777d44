"""The report of a program's promotions, and the two ways to make one:
``dl.record()`` around code and ``dl.promotions(fn, *args)``.

The library judges, compares, sorts, filters and words the report
(``dtype_lattice::design::promotions``); this module hands it the calls the
recorder saw (``_record``) and renders its JSON as HTML for notebooks.
"""

from __future__ import annotations

import functools
import importlib
import importlib.abc
import json
import linecache
import os
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from html import escape
from typing import Any

from . import _native
from ._report import _STYLE, _kind_class


def compare_specs(compare: str | Sequence[str]) -> list[str]:
    """The policies ``compare`` names, in the library's full form: a
    comma-separated string (``"numpy,torch"``) or a sequence of names
    (``("numpy", "jax:x64=true")``). ``ValueError`` names a bad one."""
    if isinstance(compare, str):
        return _native.parse_policy_list(compare) if compare.strip() else []
    specs = []
    for spec in compare:
        if not isinstance(spec, str):
            raise TypeError(f"compare takes policy names as strings, not {spec!r}")
        specs.append(_native.parse_policy_spec(spec))
    return specs


def _file(name: str) -> str:
    """A recorded file name as the report shows it: a real file's absolute
    path, any other name (``<stdin>``, a notebook cell's) as it is."""
    return os.path.abspath(name) if os.path.isfile(name) else name


def _calls(recorder: Any) -> list[tuple]:
    """A recorder's calls as the library's ``promotions`` reads them. Each
    recorder (``_record`` for JAX, ``_record_torch`` for PyTorch) keys its
    calls by ``(site, payload)``, the payload ``(operation, operands,
    result, refusal, settings, keywords)`` and, for a framework with 0-d
    tensors, the positions of those, then, where it reads them, the values
    of its Python scalar operands (``None`` for the others); it names its
    ``framework`` and reads its settings (``settings_of``)."""
    out = []
    framework = recorder.framework
    for ((file, line, function), payload), count in list(recorder.calls.items()):
        name, operands, result, error, settings, keywords, *rest = payload
        zero_dim = list(rest[0]) if rest else []
        values = list(rest[1]) if len(rest) > 1 else []
        out.append((_file(file), line, function, linecache.getline(file, line).strip(),
                    name, list(operands), result, error, recorder.settings_of(settings), count,
                    keywords, (framework, zero_dim, values)))
    return out


class Promotions:
    """A program's promotions, riskiest first: each entry a site (file,
    line, function, code line), the operation and its operands, the calls
    counted, JAX's result, whether it promotes, whether it is an implicit
    promotion (one ``jax_numpy_dtype_promotion="strict"`` refuses), the
    design notebook's criteria its result violates, and each compared
    policy's answer, flagged where it differs from JAX's or fails.

    Made by :func:`record` and :func:`promotions`. ``entries`` are the
    library's JSON objects (``to_json()`` gives all of it); ``str()`` is the
    library's text, and notebooks show a table. :meth:`filter` chooses what
    to show; by default the entries that promote nothing and differ from no
    compared policy are left out (``filter(noops=True)`` shows them).
    """

    def __init__(self, compare: list[str], recorders: Sequence[Any] = ()) -> None:
        self.compare = compare
        self._recorder: list[Any] | None = list(recorders) if recorders else None
        self._all: Any = None  # the library's report, once recording ended
        self._options: dict[str, Any] = {}
        self._view: Any = None
        #: Calls left out: operands of JAX's extended dtypes (PRNG keys),
        #: of dtypes the library does not know (PyTorch's quantized ones).
        self.skipped = 0
        #: The frameworks recorded, by registry name (``jax``, ``torch``).
        self.frameworks = [recorder.framework for recorder in recorders]

    def _finish(self) -> None:
        recorders, self._recorder = self._recorder or [], None
        self.skipped = sum(recorder.skipped for recorder in recorders)
        calls = [call for recorder in recorders for call in _calls(recorder)]
        compiled = sum(getattr(recorder, "compiled", 0) for recorder in recorders)
        self._all = _native.promotions(calls, self.compare, compiled)

    def _native_view(self) -> Any:
        if self._view is None:
            if self._recorder is not None:
                raise RuntimeError(
                    "the report is being recorded: read it after the with block ends")
            self._view = self._all.filter(**self._options)
        return self._view

    def filter(self, *, differences: bool = False, criterion: str | None = None,
               under: str | os.PathLike[str] | None = None, implicit: bool = False,
               noops: bool = False) -> Promotions:
        """The report of the entries that: a compared policy answers
        otherwise or refuses (``differences``); violate ``criterion``
        (``"dropped_component"``, ``"overflow"``, ``"precision_loss"``,
        ``"wider_than_inputs"``); were made in a file under the path
        ``under``; are ``implicit`` promotions; with ``noops``, also those
        that promote nothing and differ nowhere. Filters choose from the
        whole recording: they do not add up over calls of ``filter``."""
        if self._recorder is not None:
            raise RuntimeError("the report is being recorded: filter it after the with "
                               "block ends")
        view = Promotions(self.compare)
        view._all, view.skipped, view.frameworks = self._all, self.skipped, self.frameworks
        view._options = {
            "differences": differences, "criterion": criterion,
            "under": None if under is None else os.path.abspath(os.fspath(under)),
            "implicit": implicit, "noops": noops,
        }
        view._native_view()  # a bad criterion fails here, not when shown
        return view

    @property
    def data(self) -> dict[str, Any]:
        """The report as the library's JSON (Python objects)."""
        return self._native_view().to_json()

    @property
    def entries(self) -> list[dict[str, Any]]:
        """The entries, riskiest first (fields as ``to_json()`` has them)."""
        return self.data["entries"]

    @property
    def calls(self) -> int:
        """How many calls the entries count."""
        return self.data["calls"]

    def to_json(self, indent: int | None = 2) -> str:
        """The report as JSON text (see ``data``)."""
        return json.dumps(self.data, indent=indent)

    def __len__(self) -> int:
        return len(self._native_view())

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(self.entries)

    def __str__(self) -> str:
        return self._native_view().text()

    def __repr__(self) -> str:
        if self._recorder is not None:
            return "<dtype_lattice Promotions (recording)>"
        return f"<dtype_lattice Promotions: {len(self)} entries, {self.calls} calls>"

    def _repr_html_(self) -> str:
        data = self.data
        heading = str(self).split("\n", 1)[0]
        compared = data["compared"]
        head = "".join(f"<th>{escape(c)}</th>" for c in
                       ["calls", "where", "code", "operation", "result", "judgement",
                        *compared])
        rows = "".join(_row(entry) for entry in data["entries"])
        note = ("result: the type the operands are promoted to (\u2192 what the operation "
                "then gives, where that differs), a reduction's or PyTorch's what the "
                "framework returned (and the type it computes in, where another); "
                "<i>italic</i>: weak (a Python scalar); 0d: a PyTorch 0-d tensor; "
                "implicit: strict JAX refuses it; red: differs from the framework that "
                "ran it, or refused")
        return (f"{_STYLE}<div class='dl'><table class='dl-table'><caption>"
                f"{escape(heading)}</caption><tr>{head}</tr>{rows}</table>"
                f"<div class='dl-note'>{note}</div></div>")


def _typed(value: dict, zero_dim: bool = False) -> str:
    """An operand or result as HTML: its dtype, italic when weak, marked
    ``0d:`` when a 0-d tensor."""
    name = escape(value["dtype"])
    if zero_dim:
        return f"0d:{name}"
    return f"<i>{name}</i>" if value["weak"] else name


def _row(entry: dict) -> str:
    site = entry["site"]
    where = (f"<span title='{escape(site['file'])}'>{escape(os.path.basename(site['file']))}"
             f":{site['line']}</span><div class='dl-note'>{escape(site['function'])}</div>")
    given = entry["keywords"]
    operands = ", ".join([_typed(o, i in entry["zero_dim"])
                          for i, o in enumerate(entry["operands"])]
                         + ([f"dtype={escape(given['dtype'])}"] if given["dtype"] else [])
                         + (["promote_integers=False"]
                            if given["promote_integers"] is False else []))
    result = entry["result"]
    if "error" in result:
        shown = (f"<td class='dl-bad' title='{escape(result['error']['message'])}'>"
                 f"refused</td>")
    else:
        gives = entry["gives"]
        then = ""
        if gives is not None and gives.get("dtype") != result["dtype"]:
            # What the operation then gives (true_divide of ints: a float).
            then = " \u2192 " + ("refused" if "error" in gives else _typed(gives))
        if entry["computes_in"]:
            # A reduction's accumulator, where it is not the result's type.
            then += f" <span class='dl-note'>(computes in {escape(entry['computes_in'])})</span>"
        shown = (f"<td class='{_kind_class(result['dtype'], result['weak'])}'>"
                 f"{_typed(result)}{then}</td>")
    judgement = ([("<b class='dl-bad'>implicit</b>")] if entry["implicit"] else []) + \
        [escape(c.replace("_", " ")) for c in entry["criteria"]]
    answers = "".join(_answer(a, entry["framework"]) for a in entry["compared"])
    return (f"<tr><td>{entry['count']}</td><td class='dl-l'>{where}</td>"
            f"<td class='dl-l'>{escape(site['code'])}</td>"
            f"<td class='dl-l'>{escape(entry['operation'])}({operands})</td>{shown}"
            f"<td class='dl-l'>{', '.join(judgement)}</td>{answers}</tr>")


def _answer(answer: dict, framework: str) -> str:
    value, reference = answer["answer"], answer["reference"]
    own = "refused" if "error" in reference else reference["dtype"]
    title = f"{answer['policy']}, {answer['question']}; {framework}: {own}"
    if "error" in value:
        title += f"; {value['error']['type']}: {value['error']['message']}"
        return f"<td class='dl-bad' title='{escape(title)}'>refused</td>"
    cls = " class='dl-bad'" if answer["differs"] else ""
    return f"<td{cls} title='{escape(title)}'>{_typed(value)}</td>"


#: The frameworks ``record()`` can record, by module name, each with its
#: recorder's module and how to install it.
RECORDABLE = {"jax": ("_record", "pip install 'dtype-lattice[jax]'"),
              "torch": ("_record_torch", "pip install torch"),
              "numpy": ("_record_numpy", "pip install numpy")}


class _StartAfter(importlib.abc.Loader):
    """A framework's loader, which starts the framework's recorder once the
    framework's package has run (its names all defined)."""

    def __init__(self, loader: Any, started: Callable[[], None]) -> None:
        self._loader = loader
        self._started = started

    def create_module(self, spec: Any) -> Any:
        return self._loader.create_module(spec)

    def exec_module(self, module: Any) -> None:
        self._loader.exec_module(module)
        # The package's own loader, for whatever reads it later.
        module.__loader__ = self._loader
        if module.__spec__ is not None:
            module.__spec__.loader = self._loader
        self._started()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loader, name)


class _OnImport(importlib.abc.MetaPathFinder):
    """Starts each framework's recorder when the program imports it, not
    before: a script that sets ``XLA_FLAGS`` or ``JAX_ENABLE_X64`` before
    its ``import jax`` gets the JAX it asked for, and a framework the
    program never imports is never imported."""

    def __init__(self, pending: dict[str, Callable[[], None]]) -> None:
        self._pending = pending

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        started = self._pending.pop(fullname, None)
        if started is None:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                if spec.loader is not None:
                    spec.loader = _StartAfter(spec.loader, started)
                return spec
        return None


class Recording:
    """``with dl.record(...) as report:``: records while the block runs
    and fills ``report`` when it ends, restoring every framework's
    functions even when the block raises. Records NumPy (modules imported
    from under ``numpy_roots``), and JAX and PyTorch: at once if the
    process has imported them, else from the moment the block imports
    them (what ``python -m dtype_lattice promotions`` relies on: the script
    imports its frameworks itself, after whatever it sets up first)."""

    def __init__(self, compare: str | Sequence[str],
                 numpy_roots: Sequence[str | os.PathLike[str]] | None = None) -> None:
        self._compare = compare_specs(compare)
        self._report: Promotions | None = None
        self._numpy_roots = None if numpy_roots is None else [os.fspath(r) for r in numpy_roots]
        self._hook: _OnImport | None = None

    def _start(self, name: str) -> Any:
        module = importlib.import_module(f".{RECORDABLE[name][0]}", __package__)
        return module.start(self._numpy_roots) if name == "numpy" else module.start()

    def _start_later(self, name: str) -> None:
        """Starts ``name``'s recorder as the program imports it; one that
        cannot start (a JAX release recording was not checked against) is
        named in a warning, and the import goes on."""
        report = self._report
        if report is None or report._recorder is None:
            return
        try:
            recorder = self._start(name)
        except Exception as err:  # noqa: BLE001 - the program's import must go on
            warnings.warn(f"dtype_lattice.record() does not record {name}: {err}",
                          RuntimeWarning, stacklevel=2)
            return
        report._recorder.append(recorder)
        report.frameworks.append(recorder.framework)

    def __enter__(self) -> Promotions:
        if self._report is not None:
            raise RuntimeError("this record() was used already: call dl.record() again")
        # (A module set to None in sys.modules is one Python refuses to import.)
        # NumPy, which this package imports itself, is recorded from the
        # start; JAX and PyTorch now where the process imported them, else
        # when it does.
        arrays = [name for name in RECORDABLE if name != "numpy"]
        imported = [name for name in arrays if sys.modules.get(name) is not None]
        later = [name for name in arrays if name not in imported and name not in sys.modules]
        recorders: list[Any] = []
        try:
            for name in imported:
                recorders.append(self._start(name))
            try:
                recorders.append(self._start("numpy"))
            except Exception as err:
                raise RuntimeError(f"NumPy cannot be recorded ({err}): "
                                   f"{RECORDABLE['numpy'][1]}") from err
        except BaseException:
            for recorder in reversed(recorders):
                recorder.stop()
            raise
        self._report = Promotions(self._compare, recorders)
        if later:
            self._hook = _OnImport({name: functools.partial(self._start_later, name)
                                    for name in later})
            sys.meta_path.insert(0, self._hook)
        return self._report

    def __exit__(self, *exc_info: object) -> None:
        if self._hook is not None:
            try:
                sys.meta_path.remove(self._hook)
            except ValueError:
                pass
            self._hook = None
        report = self._report
        if report is None or report._recorder is None:
            return
        try:
            # The last started first: each puts back what it found.
            errors = []
            for recorder in reversed(report._recorder):
                try:
                    recorder.stop()
                except Exception as err:  # noqa: BLE001 - raised after all stopped
                    errors.append(err)
            if errors:
                raise errors[0]
        finally:
            report._finish()


def record(compare: str | Sequence[str] = (), *,
           numpy_roots: Sequence[str | os.PathLike[str]] | None = None) -> Recording:
    """Records the promotions JAX (eager or traced, see
    ``dtype_lattice._record``), PyTorch (eager, see
    ``dtype_lattice._record_torch``) and NumPy (see
    ``dtype_lattice._record_numpy``) make while a ``with`` block runs, and
    compares each with the policies named in ``compare``: a port's answers,
    each operand as the compared framework would receive it. NumPy's
    operations are seen in the modules imported during the block from under
    ``numpy_roots`` (the current directory by default), whose source is
    rewritten as they are imported; code compiled before, the block's own
    included, is not. Recordings do not nest."""
    return Recording(compare, numpy_roots)


def promotions(fn: Callable[..., Any], *args: Any, compare: str | Sequence[str] = (),
               **kwargs: Any) -> Promotions:
    """The promotions of ``fn(*args, **kwargs)``, traced with
    ``jax.make_jaxpr`` (nothing is computed)."""
    import jax

    with record(compare) as report:
        jax.make_jaxpr(fn)(*args, **kwargs)
    return report
