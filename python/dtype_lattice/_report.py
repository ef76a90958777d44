"""Reports as Python objects that read well in a notebook.

The library computes every field; these classes name them and render them
(HTML through ``_repr_html_``, text through ``str``).
"""

from __future__ import annotations

from html import escape
from typing import Any, NamedTuple

# One style sheet for every report. Jupyter applies an output's <style> to
# the whole page, hence the dl- prefixes. The kind colours are the Hasse
# diagram's (SVG) fills, so a table reads like the drawing.
_STYLE = (
    "<style>.dl{font:13px/1.45 'DejaVu Sans',Helvetica,Arial,sans-serif;color:#222;"
    "margin-bottom:10px}"
    ".dl-table{border-collapse:collapse;font:12px 'DejaVu Sans Mono',Menlo,monospace}"
    ".dl-table td,.dl-table th{border:1px solid #d8d8d8;padding:2px 6px;text-align:center}"
    ".dl-table th{background:#f4f4f4}.dl-table td.dl-l{text-align:left}"
    ".dl-table td:first-child{white-space:nowrap}"
    ".dl-table caption{text-align:left;font:bold 13px 'DejaVu Sans',Helvetica,Arial,"
    "sans-serif;padding:0 0 4px}"
    ".dl-weak{font-style:italic}.dl-err{color:#aaa}.dl-zero{color:#999}"
    ".dl-ok{color:#1e7b45}.dl-bad{color:#c0392b}.dl-note{color:#666;font-size:12px}"
    ".dl-u{background:#d3e4f5}.dl-i{background:#d5efd0}.dl-f{background:#fde3c3}"
    ".dl-c{background:#e8d9f2}.dl-b{background:#ececec}.dl-w{background:#fff6bf}</style>")


def _pairs(count: int) -> str:
    return f"{count} pair" if count == 1 else f"{count} pairs"


def _kind_class(dtype: str, weak: bool) -> str:
    """The colour class of a result: weak, else its dtype's kind."""
    if weak:
        return "dl-w dl-weak"
    for prefix, cls in (("uint", "dl-u"), ("int", "dl-i"), ("float", "dl-f"),
                        ("bfloat", "dl-f"), ("complex", "dl-c"), ("bool", "dl-b")):
        if dtype.startswith(prefix):
            return cls
    return ""


class Ambiguity(NamedTuple):
    """A pair with common upper bounds but no least one: its minimal common
    upper bounds (the first 100) and how many it has in all."""
    pair: tuple[str, str]
    candidates: list[str]
    candidate_count: int

    def listed(self) -> str:
        """The candidates as a phrase, with how many are not listed."""
        unlisted = self.candidate_count - len(self.candidates)
        return ", ".join(self.candidates) + (f", and {unlisted} more" if unlisted else "")


class Difference(NamedTuple):
    """One cell where two policies' ``promote_types`` differ: the two types,
    each policy's answer (None where it refuses), and the dtypes of the
    cell that one policy lacks (``(dtype, "ours" | "theirs")``)."""
    row: str
    column: str
    ours: str | None
    theirs: str | None
    lacking: list[tuple[str, str]]


class Diff(list[Difference]):
    """The cells where two policies' ``promote_types`` differ: a list of
    :class:`Difference`, rendered as a table in notebooks."""

    def __init__(self, ours: str, theirs: str, cells: list[Difference]) -> None:
        super().__init__(cells)
        self.ours, self.theirs = ours, theirs

    def _repr_html_(self) -> str:
        def answer(value: str | None) -> str:
            return escape(value) if value is not None else "<i>refused</i>"
        rows = "".join(
            f"<tr><td>{escape(d.row)}</td><td>{escape(d.column)}</td>"
            f"<td>{answer(d.ours)}</td><td>{answer(d.theirs)}</td></tr>"
            for d in self)
        return (f"{_STYLE}<table class='dl-table'><caption>{len(self)} cells where "
                f"{escape(self.ours)} and {escape(self.theirs)} differ</caption>"
                f"<tr><th>row</th><th>column</th><th>{escape(self.ours)}</th>"
                f"<th>{escape(self.theirs)}</th></tr>{rows}</table>")


class CheckReport:
    """What ``Lattice.check`` found: ``is_lattice``, ``cycle``,
    ``ambiguous`` (``Ambiguity`` pairs with their ``candidates``),
    ``no_upper_bound`` (pairs), the counts, and the join's laws."""

    def __init__(self, name: str, data: dict) -> None:
        # `data` is the library's check, as `check --format json` prints it.
        self.name = name
        self.data = data
        self.is_lattice: bool = data["lattice"]
        self.cycle: list[str] | None = data["cycle"]
        self.ambiguous = [Ambiguity(tuple(a["pair"]), a["candidates"], a["candidate_count"])
                          for a in data["ambiguous"]]
        self.ambiguous_count: int = data["ambiguous_count"]
        self.no_upper_bound: list[tuple[str, str]] = [tuple(p) for p in data["no_upper_bound"]]
        self.no_upper_bound_count: int = data["no_upper_bound_count"]
        laws = data["laws"] or {}
        self.commutative: bool | None = laws.get("commutative")
        self.associative: bool | None = laws.get("associative")

    def lines(self) -> list[str]:
        verdict = "a lattice" if self.is_lattice else "not a lattice"
        out = [f"{self.name}: {verdict}"]
        if self.cycle:
            out.append("cycle: " + " -> ".join(self.cycle))
        for a in self.ambiguous:
            out.append(f"{a.pair[0]} and {a.pair[1]} have no least upper bound: "
                       f"candidates {a.listed()}")
        if self.ambiguous_count > len(self.ambiguous):
            out.append(f"... {self.ambiguous_count} ambiguous pairs in all")
        if self.no_upper_bound:
            shown = ", ".join(f"{a}/{b}" for a, b in self.no_upper_bound)
            out.append(f"{self.no_upper_bound_count} pairs with no upper bound: {shown}")
        return out

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def __repr__(self) -> str:
        return f"<CheckReport {self.name}: is_lattice={self.is_lattice}>"

    def _repr_html_(self) -> str:
        verdict = "a lattice" if self.is_lattice else "not a lattice"
        out = [f"{_STYLE}<div class='dl'><b class='{'dl-ok' if self.is_lattice else 'dl-bad'}'>"
               f"{escape(self.name)}: {verdict}</b>"]
        if self.cycle:
            # Back to the first node, so the loop reads as one.
            loop = " \u2192 ".join([*self.cycle, self.cycle[0]])
            out.append(f"<div>cycle: {escape(loop)}</div>")
        if self.ambiguous:
            rows = "".join(f"<tr><td>{escape(a.pair[0])}, {escape(a.pair[1])}</td>"
                           f"<td class='dl-l'>{escape(a.listed())}</td></tr>"
                           for a in self.ambiguous)
            more = self.ambiguous_count - len(self.ambiguous)
            out.append(f"<table class='dl-table'><caption>{_pairs(self.ambiguous_count)} "
                       "with no least upper bound</caption><tr><th>pair</th>"
                       f"<th>minimal common upper bounds</th></tr>{rows}</table>"
                       + (f"<div class='dl-note'>... and {more} more</div>" if more else ""))
        if self.no_upper_bound_count:
            shown = ", ".join(f"{a}/{b}" for a, b in self.no_upper_bound)
            etc = " ..." if self.no_upper_bound_count > len(self.no_upper_bound) else ""
            partial = " (a partial lattice: they do not promote)" if self.is_lattice else ""
            out.append(f"<div>{_pairs(self.no_upper_bound_count)} with no upper bound"
                       f"{partial}: {escape(shown)}{etc}</div>")
        elif not self.cycle and not self.ambiguous_count:
            out.append("<div>every pair has a join</div>")
        laws = [f"{'' if held else 'not '}{law}" for law, held
                in (("commutative", self.commutative), ("associative", self.associative))
                if held is not None]
        if laws:
            out.append(f"<div class='dl-note'>join, where defined: {', '.join(laws)}</div>")
        return "".join(out) + "</div>"


class Explanation:
    """Why two nodes join where they do: ``upper_bounds`` of each,
    ``common``, ``join``, ``paths`` and the ``outcome`` sentence."""

    def __init__(self, name: str, a: str, b: str, data: dict) -> None:
        # `data` is the library's explanation (`explain --format json`).
        self.name, self.inputs = name, (a, b)
        self.data = data
        first, second = data["inputs"]
        self.upper_bounds: tuple[list[str], list[str]] = (
            first["upper_bounds"], second["upper_bounds"])
        self.common: list[str] = data["common_upper_bounds"]
        self.join: str | None = data["join"]
        self.paths: tuple[list[str], list[str]] | None = (
            None if first["path"] is None else (first["path"], second["path"]))
        self.outcome: str = data["summary"]
        self.error: str | None = data["error"]["message"] if data["error"] else None

    def __str__(self) -> str:
        a, b = self.inputs
        out = [f"{a}: upper bounds {', '.join(self.upper_bounds[0])}",
               f"{b}: upper bounds {', '.join(self.upper_bounds[1])}",
               f"common: {', '.join(self.common) or 'none'}", self.outcome]
        if self.paths:
            out += [" -> ".join(path) for path in self.paths]
        return "\n".join(out)

    def __repr__(self) -> str:
        return f"<Explanation {self.inputs[0]} v {self.inputs[1]} = {self.join}>"

    def _repr_html_(self) -> str:
        return "<pre>" + escape(str(self)) + "</pre>"


CRITERIA = ["dropped_component", "overflow", "precision_loss", "wider_than_inputs"]


class AuditReport:
    """The design notebook's criteria: for each, the pairs
    ``(a, b, join)`` that violate it."""

    def __init__(self, data: dict) -> None:
        # `data` is the library's audit (`audit --format json`).
        self.data = data
        self.name: str = data["name"]
        self.pairs: int = data["pairs"]
        self.undefined: list[tuple[str, str]] = [tuple(p) for p in data["undefined"]]
        self.opaque: list[tuple[str, str]] = [tuple(p) for p in data["opaque"]]
        #: For each criterion, the pairs that violate it, as ``(a, b, join)``.
        self.findings: dict[str, list[tuple[str, str, str]]] = {
            c: [tuple(f) for f in found] for c, found in data["criteria"].items()}

    def __getitem__(self, criterion: str) -> list[tuple[str, str, str]]:
        return self.findings[criterion]

    def __str__(self) -> str:
        out = [f"{self.name}: {self.pairs} pairs"]
        for criterion, found in self.findings.items():
            out.append(f"{criterion}: {len(found)}")
        return "\n".join(out)

    def _repr_html_(self) -> str:
        rows = []
        for criterion, found in self.findings.items():
            shown = ", ".join(f"{a}+{b}\u2192{j}" for a, b, j in found[:5])
            shown += " ..." if len(found) > 5 else ""
            cls = "" if found else " class='dl-zero'"
            rows.append(f"<tr{cls}><td class='dl-l'>{escape(criterion.replace('_', ' '))}</td>"
                        f"<td>{len(found)}</td><td class='dl-l'>{escape(shown)}</td></tr>")
        notes = [f"{_pairs(len(self.undefined))} without a join"] if self.undefined else []
        if self.opaque:
            notes.append(f"{_pairs(len(self.opaque))} joining at a node without a dtype, "
                         "not judged")
        note = f"<div class='dl-note'>{escape('; '.join(notes))}</div>" if notes else ""
        return (f"{_STYLE}<div class='dl'><table class='dl-table'><caption>"
                f"{escape(self.name)}: {self.pairs} pairs of dtypes</caption><tr>"
                f"<th>criterion</th><th>pairs</th><th>examples</th></tr>{''.join(rows)}"
                f"</table>{note}</div>")


class Table:
    """A promotion table: ``types`` (row and column types), ``labels``
    (their short labels), ``cells[row][column]`` (``(dtype, weak)`` or the
    error message), ``short`` (each cell's short label, ``-`` for an error)
    and the ``legend`` of the labels."""

    def __init__(self, name: str, data: dict) -> None:
        # `data` is the library's table (`table --format json`).
        self.name = name
        self.data = data
        errors = [e["message"] for e in data["errors"]]
        self.types: list[str] = data["types"]
        self.labels: list[str] = data["labels"]
        self.cells: list[list[tuple[str, bool] | str]] = [
            [(c["dtype"], c["weak"]) if "dtype" in c else errors[c["error"]] for c in row]
            for row in data["cells"]]
        self.short: list[list[str]] = [[c["label"] for c in row] for row in data["cells"]]
        self.legend: list[tuple[str, str]] = [(l["label"], l["dtype"]) for l in data["legend"]]

    def __getitem__(self, key: tuple[str, str]) -> tuple[str, bool] | str:
        row, column = key
        return self.cells[self.types.index(row)][self.types.index(column)]

    def __str__(self) -> str:
        width = max(len(label) for row in [self.labels, *self.short] for label in row) + 1
        lines = [" " * width + "".join(f"{l:>{width}}" for l in self.labels)]
        for label, row in zip(self.labels, self.short):
            lines.append(f"{label:>{width}}" + "".join(f"{c:>{width}}" for c in row))
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{escape(l)}</th>" for l in self.labels)
        rows = []
        for label, row, shown in zip(self.labels, self.cells, self.short):
            cells = []
            for cell, text in zip(row, shown):
                if isinstance(cell, str):
                    cells.append(f"<td class='dl-err' title='{escape(cell)}'>-</td>")
                else:
                    dtype, weak = cell
                    title = dtype + (" (weak)" if weak else "")
                    cells.append(f"<td class='{_kind_class(dtype, weak)}' "
                                 f"title='{escape(title)}'>{escape(text)}</td>")
            rows.append(f"<tr><th>{escape(label)}</th>{''.join(cells)}</tr>")
        legend = ", ".join(f"{escape(l)} = {escape(n)}" for l, n in self.legend)
        return (f"{_STYLE}<div class='dl'><table class='dl-table'><caption>"
                f"{escape(self.name)}</caption><tr><th></th>{head}</tr>{''.join(rows)}"
                f"</table><div class='dl-note'>{legend}; <i>italic</i>: weak; "
                "-: no promotion</div></div>")

    def __repr__(self) -> str:
        return f"<Table {self.name}: {len(self.types)} x {len(self.types)}>"
