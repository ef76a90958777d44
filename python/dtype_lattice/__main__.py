"""``python -m dtype_lattice``: the package's command line.

``promotions SCRIPT [ARGS...]`` runs a Python script under
``dtype_lattice.record()`` and prints the promotions JAX, PyTorch and
NumPy made in it: each framework's recorder starts as the script imports
the framework (``Recording``), so the script's own set-up before its
imports holds, and its calls are recorded in whichever it uses. NumPy's are
seen in the
script and the modules it imports from its directory, run from rewritten
source (``_record_numpy``).
"""

from __future__ import annotations

import argparse
import os
import runpy
import sys
from collections.abc import Sequence

from . import _promotions, _record_numpy

_FORMATS = ("text", "json", "html")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m dtype_lattice",
        description="dtype-lattice's command line for Python programs.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    promotions = commands.add_parser(
        "promotions",
        help="run a Python script and report the dtype promotions JAX or PyTorch made in it",
        description=(
            "Runs SCRIPT with ARGS (as `python SCRIPT ARGS...` would, its own "
            "sys.argv) while recording every promotion JAX (eager or traced), "
            "PyTorch (eager) and NumPy (in the script and the modules it imports "
            "from its directory) make, whichever are installed, and prints the report: "
            "each line of the script that promotes, the framework, the operation "
            "and its operands, the framework's result, whether it is an implicit "
            "promotion (one jax_numpy_dtype_promotion='strict' refuses; JAX's calls), "
            "the design criteria it violates, and the compared policies' answers, "
            "each operand handed over as a port would; riskiest first. The options below may come before or after the script; the "
            "script gets every other argument, and everything after `--`."),
        epilog=(
            "Policies for --compare: any name `dtype-lattice --policy` takes "
            "(numpy, torch, tensorflow, array-api, ...), with settings after a "
            "colon (jax:x64=true, keras:keras_backend=jax+floatx=bfloat16), or "
            "settings alone for the script's own JAX configuration with those "
            "changed (strict, x64, explicit_x64_dtypes=allow). Example: python -m "
            "dtype_lattice promotions train.py --epochs 1 --compare numpy,strict"))
    promotions.add_argument("script", metavar="SCRIPT", help="the Python script to run")
    promotions.add_argument("args", metavar="ARGS", nargs="*",
                            help="the script's arguments (its sys.argv[1:])")
    promotions.add_argument("--compare", metavar="POLICIES", default="",
                            help="comma-separated policies to compare each promotion with")
    promotions.add_argument("--only-differences", action="store_true",
                            help="only the promotions a compared policy answers otherwise "
                                 "or refuses")
    promotions.add_argument("--implicit", action="store_true",
                            help="only implicit promotions")
    promotions.add_argument("--criterion", metavar="NAME",
                            help="only the promotions violating this criterion: "
                                 "dropped_component, overflow, precision_loss, "
                                 "wider_than_inputs")
    promotions.add_argument("--under", metavar="PATH",
                            help="only the lines in files under this path")
    promotions.add_argument("--all", action="store_true",
                            help="also the calls that promote nothing and differ nowhere")
    promotions.add_argument("--format", choices=_FORMATS, default="text",
                            help="text for a terminal (default), json for tools, html "
                                 "for a browser")
    promotions.add_argument("-o", "--output", metavar="FILE",
                            help="write the report to FILE instead of standard output")
    return parser


def _subcommand(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    return parser._subparsers._group_actions[0].choices["promotions"]  # type: ignore[union-attr, index]


def _split(parser: argparse.ArgumentParser, argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """``promotions``' own options, wherever they are before ``--``, and
    the script's arguments (the script's name first), in their order."""
    sub = _subcommand(parser)
    takes_value = {option: action.nargs != 0
                   for action in sub._actions for option in action.option_strings}
    ours: list[str] = []
    script: list[str] = []
    args = iter(argv)
    for arg in args:
        if arg == "--":
            script.extend(args)
            break
        option = arg.split("=", 1)[0]
        if script and option not in takes_value:
            script.append(arg)
        elif option in takes_value:
            ours.append(arg)
            if takes_value[option] and "=" not in arg:
                ours.append(next(args, ""))
        elif arg.startswith("-") and not script:
            ours.append(arg)  # unknown before the script: argparse says so
        else:
            script.append(arg)
    return ours, script


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line; returns the exit status (the script's, if it
    exits with one, else 0, or 1 when it raises)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = _parser()
    if argv[:1] != ["promotions"] or any(a in ("-h", "--help") for a in argv[1:2]):
        parser.parse_args(argv)  # help, or the error naming what is wrong
        return 2
    ours, script = _split(parser, argv[1:])
    options = parser.parse_args(["promotions", *ours, *script[:1]])
    sub = _subcommand(parser)
    path = os.path.abspath(options.script)
    try:
        # NumPy's operations are seen in the script and the modules it
        # imports from its own directory (their source rewritten).
        recording = _promotions.record(options.compare, numpy_roots=[os.path.dirname(path)])
    except ValueError as err:
        sub.error(f"--compare: {err}")
    try:
        # Before the script runs: a recording that cannot start (neither JAX
        # nor PyTorch installed, a JAX release it was not checked against)
        # is the command's error, not the script's.
        report = recording.__enter__()
    except Exception as err:  # noqa: BLE001 - whatever stops it, exit 2 naming it
        sub.error(f"cannot record {options.script}: {err}")
        raise  # not reached: error() exits
    status, failure = 0, None
    saved_argv, saved_path = sys.argv, list(sys.path)
    sys.argv = [options.script, *script[1:]]
    sys.path[0:0] = [os.path.dirname(path)]
    try:
        if os.path.isfile(path) and path.endswith(".py"):
            _record_numpy.run_script(path)
        else:
            runpy.run_path(path, run_name="__main__")
    except SystemExit as exit:
        status = exit.code if isinstance(exit.code, int) else (0 if exit.code is None else 1)
    except Exception as err:  # noqa: BLE001 - reported after the promotions
        status, failure = 1, err
    finally:
        sys.argv, sys.path[:] = saved_argv, saved_path
        recording.__exit__(None, None, None)
    try:
        shown = report.filter(differences=options.only_differences,
                              criterion=options.criterion, under=options.under,
                              implicit=options.implicit, noops=options.all)
    except ValueError as err:
        sub.error(f"--criterion: {err}")
    text = {"text": lambda: str(shown) + "\n", "json": lambda: shown.to_json() + "\n",
            "html": lambda: "<!DOCTYPE html><meta charset='utf-8'><title>promotions"
                            "</title>" + shown._repr_html_() + "\n"}[options.format]()
    if options.output:
        with open(options.output, "w", encoding="utf-8") as out:
            out.write(text)
    else:
        sys.stdout.write(text)
    if failure is not None:
        _print_failure(failure, path, options.script)
    return status


def _print_failure(failure: BaseException, path: str, script: str) -> None:
    """The script's exception, its traceback from the script's own first
    frame (as `python SCRIPT` would print it)."""
    import traceback

    tb = failure.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != path:
        tb = tb.tb_next
    print(f"\n{script} raised (its promotions until then are above):", file=sys.stderr)
    # Without the frames of this package's own helpers (the NumPy
    # recorder's, through which a rewritten line calls): the script's lines
    # as Python would show them.
    ours = os.path.dirname(os.path.abspath(__file__))
    shown = traceback.TracebackException.from_exception(
        failure.with_traceback(tb or failure.__traceback__))
    shown.stack = traceback.StackSummary.from_list(
        [frame for frame in shown.stack
         if os.path.dirname(os.path.abspath(frame.filename)) != ours])
    sys.stderr.write("".join(shown.format()))


if __name__ == "__main__":
    sys.exit(main())
