"""The competition's schedule (``schedule.yaml``): the one declaration every date comes from.

``load(path)`` reads and checks it and returns a :class:`Schedule`: for each phase (named like its
reference folder: ``dev``, ``test``, or an extra phase a subtask declares) the instant it opens and the
instant it closes (UTC, naive datetimes), the instant the results are notified and the later dates of the Timeline page. The
bundle builder writes the platforms' dates from it (:func:`codalab_dates`, :func:`codabench_dates`), the
pages show it, and ``organiser.platforms`` checks that what each platform derives from a bundle matches it.
"""
import collections
import datetime
import os

import yaml

from organiser import ROOT, declarations
from evalkit.messages import DataError

SCHEDULE_YAML = os.path.join(ROOT, "schedule.yaml")
#: The phases every competition has; the extra phases its subtasks declare follow them (:func:`phase_order`).
BASE_PHASES = ("dev", "test")
FORMATS = ("%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S")
#: How the bundles write an instant (both platforms parse it; quoted in the YAML, so never a YAML datetime).
PLATFORM_FORMAT = "%Y-%m-%d %H:%M:%S"
#: Codabench refuses a phase that starts when the previous one ends: it starts this much later there.
CODABENCH_GAP = datetime.timedelta(seconds=1)

Window = collections.namedtuple("Window", "opens closes")


class Schedule(object):
    """The checked schedule: ``phases`` ({name: Window}), ``results_notification``, ``later`` [(date, text)]."""

    def __init__(self, path, phases, results_notification, later):
        self.path = path
        self.phases = phases
        self.results_notification = results_notification
        self.later = later

    def window(self, name):
        """The Window of phase ``name``; a DataError naming the file when it is not declared."""
        if name not in self.phases:
            raise DataError(self.path, "phases", "no phase %r declared (declared: %s)"
                            % (name, ", ".join(self.phases) or "none"))
        return self.phases[name]


def parse_instant(value, path, where):
    """A naive UTC datetime from ``"YYYY-MM-DD HH:MM"`` (or with seconds, or a YAML date/datetime)."""
    if isinstance(value, datetime.datetime):
        return value.replace(tzinfo=None)
    if isinstance(value, datetime.date):
        return datetime.datetime.combine(value, datetime.time())
    for layout in FORMATS:
        try:
            return datetime.datetime.strptime(str(value).strip(), layout)
        except ValueError:
            continue
    raise DataError(path, where, 'expected a UTC time "YYYY-MM-DD HH:MM", got %r' % (value,))


def parse_day(value, path, where):
    """A date from ``YYYY-MM-DD`` (a YAML date or a string)."""
    if isinstance(value, datetime.date) and not isinstance(value, datetime.datetime):
        return value
    try:
        return datetime.datetime.strptime(str(value).strip(), "%Y-%m-%d").date()
    except ValueError:
        raise DataError(path, where, "expected a date YYYY-MM-DD, got %r" % (value,))


def _read(path):
    """The YAML mapping of ``path``."""
    try:
        with open(path, encoding="utf-8") as handle:
            data = yaml.safe_load(handle)
    except OSError as error:
        raise DataError(path, "", "cannot read the schedule: %s" % error)
    except yaml.YAMLError as error:
        raise DataError(path, "", "not valid YAML: %s" % str(error).replace("\n", " "))
    if not isinstance(data, dict) or not isinstance(data.get("phases"), dict):
        raise DataError(path, "", "expected a mapping with a `phases` mapping")
    return data


def phase_order():
    """The phase names a schedule may hold, in order: the base phases, then every hosted competition's extra
    phases (``extra_phases`` of its subtasks.yaml), each once."""
    order = list(BASE_PHASES)
    for cid in declarations.hosted_ids():
        for subtask in declarations.wording(cid)["subtasks"]:
            order += [extra["name"] for extra in declarations.extra_phases(subtask, cid) if extra["name"] not in order]
    return tuple(order)


def _phases(data, path):
    """``{name: Window}`` in :func:`phase_order`, each opening before it closes and when the previous one closes."""
    order = phase_order()
    unknown = [name for name in data["phases"] if name not in order]
    if unknown:
        raise DataError(path, "phases.%s" % unknown[0], "unknown phase (expected one of %s)" % ", ".join(order))
    phases = collections.OrderedDict()
    previous = None
    for name in order:
        if name not in data["phases"]:
            continue
        spec = data["phases"][name]
        if not isinstance(spec, dict) or "opens" not in spec or "closes" not in spec:
            raise DataError(path, "phases.%s" % name, "expected a mapping with `opens` and `closes`, got %r" % (spec,))
        window = Window(parse_instant(spec["opens"], path, "phases.%s.opens" % name),
                        parse_instant(spec["closes"], path, "phases.%s.closes" % name))
        if window.closes <= window.opens:
            raise DataError(path, "phases.%s.closes" % name, "closes (%s) must be after opens (%s)"
                            % (window.closes, window.opens))
        if previous is not None and window.opens != phases[previous].closes:
            raise DataError(path, "phases.%s.opens" % name,
                            "must be %s, when phase %s closes (on CodaLab a phase ends exactly when the next one "
                            "opens), got %s" % (phases[previous].closes, previous, window.opens))
        phases[name] = window
        previous = name
    if "dev" not in phases:
        raise DataError(path, "phases.dev", "the development phase must be declared")
    return phases


def load(path=SCHEDULE_YAML):
    """Read and check the schedule at ``path``; a DataError names the key and what was expected."""
    data = _read(path)
    phases = _phases(data, path)
    notification = parse_instant(data.get("results_notification"), path, "results_notification")
    last = list(phases.values())[-1].closes
    if notification < last:
        raise DataError(path, "results_notification", "must not be before the last phase closes (%s), got %s"
                        % (last, notification))
    later = []
    for index, item in enumerate(data.get("later") or []):
        if not isinstance(item, (list, tuple)) or len(item) != 2:
            raise DataError(path, "later[%d]" % index, "expected [YYYY-MM-DD, event], got %r" % (item,))
        later.append((parse_day(item[0], path, "later[%d]" % index), str(item[1])))
    return Schedule(path, phases, notification, later)


def platform_text(instant):
    """An instant as the bundles write it (``"YYYY-MM-DD HH:MM:SS"``)."""
    return instant.strftime(PLATFORM_FORMAT)


def human(instant):
    """An instant for the pages: ``15 January 2024, 12:00 UTC``."""
    return "%d %s, %s UTC" % (instant.day, instant.strftime("%B %Y"), instant.strftime("%H:%M"))


def codalab_dates(schedule, names):
    """What a CodaLab v1.5 bundle with phases ``names`` (in order) declares: ``([start_date], end_date)``.

    CodaLab has no phase end: a phase ends when the next starts and the last at the competition's end_date.
    """
    windows = [schedule.window(name) for name in names]
    return [platform_text(w.opens) for w in windows], platform_text(windows[-1].closes)


def codabench_dates(schedule, names):
    """What a Codabench v2 bundle with phases ``names`` (in order) declares: ``[(start, end)]``.

    Every phase ends at its declared instant; a phase that follows another starts CODABENCH_GAP after its
    declared instant (Codabench refuses a phase starting when the previous one ends), so no deadline moves.
    """
    result = []
    for index, name in enumerate(names):
        window = schedule.window(name)
        opens = window.opens + CODABENCH_GAP if index > 0 else window.opens
        result.append((platform_text(opens), platform_text(window.closes)))
    return result


#: A test phase's feedback modes (docs/test_feedback.md): the default, then the others.
FEEDBACK_MODES = ("public_private", "blind", "full")
DEFAULT_PUBLIC_FRACTION = 0.3


def test_feedback(path):
    """``{"mode", "public_fraction"}`` of the schedule at ``path`` (its optional ``test_feedback`` mapping): the
    mode defaults to ``public_private`` and the fraction to 0.3; a DataError names what is wrong."""
    spec = _read(path).get("test_feedback")
    if spec is None:
        spec = {}
    if not isinstance(spec, dict):
        raise DataError(path, "test_feedback", "expected a mapping with `mode` (and `public_fraction`), got %r"
                        % (spec,))
    unknown = sorted(set(spec) - set(["mode", "public_fraction", "contamination"]))
    if unknown:
        raise DataError(path, "test_feedback.%s" % unknown[0], "unknown key (expected mode, public_fraction, "
                                                                 "contamination)")
    mode = spec.get("mode", FEEDBACK_MODES[0])
    if mode not in FEEDBACK_MODES:
        raise DataError(path, "test_feedback.mode", "expected one of %s, got %r" % (", ".join(FEEDBACK_MODES), mode))
    fraction = spec.get("public_fraction", DEFAULT_PUBLIC_FRACTION)
    if isinstance(fraction, bool) or not isinstance(fraction, (int, float)) or not 0 < fraction < 1:
        raise DataError(path, "test_feedback.public_fraction", "expected a number between 0 and 1 (exclusive), got %r"
                        % (fraction,))
    return {"mode": mode, "public_fraction": float(fraction)}


#: The share of a test file's private part whose gold may be found in public data before ``make check`` fails.
DEFAULT_MAX_SHARE = 0.05
#: Fewer items of a file found with their gold never fail ``make check`` (a share of a few items is chance).
DEFAULT_MIN_ITEMS = 3


def contamination(path):
    """``{"max_share", "min_items", "acknowledged"}`` of the schedule at ``path`` (its optional
    ``test_feedback.contamination`` mapping, organiser/contamination.py): the share of a test file's private part
    whose gold may be found in public data (default :data:`DEFAULT_MAX_SHARE`), the number of such items below which
    a file never fails (default :data:`DEFAULT_MIN_ITEMS`), and what the organisers acknowledge beyond them (a list
    of reference files, ``<task folder>/<lang>`` or language codes: said on the pages, ``make check`` passes). A
    DataError names what is wrong."""
    spec = (_read(path).get("test_feedback") or {})
    spec = spec.get("contamination") if isinstance(spec, dict) else None
    if spec is None:
        spec = {}
    where = "test_feedback.contamination"
    if not isinstance(spec, dict):
        raise DataError(path, where, "expected a mapping with `max_share`, `min_items` and `acknowledged`, got %r"
                        % (spec,))
    unknown = sorted(set(spec) - set(["max_share", "min_items", "acknowledged"]))
    if unknown:
        raise DataError(path, "%s.%s" % (where, unknown[0]), "unknown key (expected max_share, min_items, "
                                                               "acknowledged)")
    share = spec.get("max_share", DEFAULT_MAX_SHARE)
    if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0 <= share <= 1:
        raise DataError(path, where + ".max_share", "expected a number from 0 to 1, got %r" % (share,))
    least = spec.get("min_items", DEFAULT_MIN_ITEMS)
    if isinstance(least, bool) or not isinstance(least, int) or least < 1:
        raise DataError(path, where + ".min_items", "expected a whole number of 1 or more, got %r" % (least,))
    acknowledged = spec.get("acknowledged") or []
    if not isinstance(acknowledged, list) or not all(isinstance(item, str) and item.strip() for item in acknowledged):
        raise DataError(path, where + ".acknowledged", "expected a list of reference files, <task>/<lang> or "
                                                       "language codes, got %r" % (acknowledged,))
    return {"max_share": float(share), "min_items": least, "acknowledged": [item.strip() for item in acknowledged]}
