"""What every command of the kits does first: check the Python version, make the output safe on any terminal,
and turn a crash into one plain sentence.

The kits' entry scripts (every ``evaluate.py`` and ``validate.py``) run :func:`require_python` before anything
that needs Python 3.7, so this module must itself parse and run on old Pythons (2.7, 3.6): old syntax only (no
f-strings, no keyword-only arguments, no ``print`` statement or function call with several arguments), and
only what 2.7 has, ASCII source. A validator runs it from its path (``exec`` of its source in a namespace
``{"__name__": "evalkit_entry", "PROGRAM": "validate.py"}``: nothing imported from the scoring program yet, nothing
left in ``sys.modules``), which checks the Python at once; the scoring program imports it as ``evalkit.entry``.
"""
import io
import os
import sys

#: The oldest Python the scoring program and the starting kits run on (the platforms' images have 3.7+).
MINIMUM = (3, 7)
#: The exit status of a command that could not run (usage error): 2 for every kit command.
USAGE = 2
#: The exit status of a crash of the command itself (a bug): 3 for every kit command.
INTERNAL = 3


def python_problem(program, version_info=None, executable=None, minimum=MINIMUM):
    """The message for a Python older than ``minimum``, or None when this Python is recent enough.

    >>> python_problem("validate.py", (3, 11, 2)) is None
    True
    >>> print(python_problem("validate.py", (3, 6, 15, "final", 0), "/usr/bin/python3"))  # doctest: +NORMALIZE_WHITESPACE
    validate.py needs Python 3.7 or newer; this is Python 3.6.15 (/usr/bin/python3), so nothing was run. Run it
    with a newer Python: python3.12 validate.py ... (python3 --version says which version python3 is; any 3.7 or
    newer will do).
    """
    version = tuple(version_info if version_info is not None else sys.version_info)
    if version[:2] >= tuple(minimum):
        return None
    shown = ".".join(str(part) for part in version[:3])
    return ("%s needs Python %d.%d or newer; this is Python %s (%s), so nothing was run. Run it with a newer "
            "Python: python3.12 %s ... (python3 --version says which version python3 is; any %d.%d or newer "
            "will do)." % (program, minimum[0], minimum[1], shown, executable or sys.executable or "python",
                            program, minimum[0], minimum[1]))


def require_python(program, version_info=None, stream=None):
    """Stop with :data:`USAGE` and a plain message (never a traceback) on a Python older than :data:`MINIMUM`."""
    problem = python_problem(program, version_info)
    if problem is not None:
        stream = stream or sys.stderr
        stream.write(safe_text(problem, stream) + "\n")
        sys.exit(USAGE)


def safe_text(text, stream):
    """``text`` written so that ``stream``'s encoding can take it (a character it lacks becomes its escape)."""
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        text.encode(encoding)
        return text
    except (UnicodeError, LookupError):
        return text.encode(encoding if _known(encoding) else "ascii", "backslashreplace").decode(
            encoding if _known(encoding) else "ascii")


def _known(encoding):
    """Whether Python knows the codec ``encoding``."""
    try:
        "".encode(encoding)
        return True
    except LookupError:
        return False


def tolerant_streams(streams=None):
    """Let stdout and stderr write any character, as an escape when their encoding lacks it (a Windows
    redirect, ``LC_ALL=C``, ``PYTHONIOENCODING=ascii``) instead of stopping with an encoding error."""
    for stream in streams or (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="backslashreplace")
        except (AttributeError, ValueError, io.UnsupportedOperation):
            pass


def run(main, program, what="the scoring program", args=()):
    """Run ``main(*args)`` as a command: streams made tolerant, ``SystemExit`` kept (argparse's usage errors
    exit with 2), Ctrl-C is status 130, and any other exception one plain sentence and :data:`INTERNAL`
    (``EVALKIT_DEBUG=1`` shows the traceback). Returns the exit status."""
    require_python(program)
    tolerant_streams()
    try:
        return main(*args)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else USAGE
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # a bug of the command: said briefly, never a traceback
        if os.environ.get("EVALKIT_DEBUG"):
            raise
        detail = str(exc).replace("\n", " ")
        detail = detail if len(detail) <= 300 else detail[:300] + "..."
        sys.stderr.write(safe_text("Internal error of %s (%s: %s). Your submission may be fine; please report this "
                                   "to the organisers.\n" % (what, type(exc).__name__, detail), sys.stderr))
        return INTERNAL


# Run from a kit's path (a validator's namespace names its PROGRAM): the check comes at once, before the kit
# imports anything that needs Python 3.7.
if __name__ == "evalkit_entry" and globals().get("PROGRAM"):
    require_python(globals()["PROGRAM"])
