"""What each platform makes of a bundle's competition.yaml: phase windows, leaderboard rule, detailed results.

Re-stated in our own code from the platforms' source (read, never copied):

- CodaLab Competitions (legacy, v1.5 only): ``CompetitionPhase.is_active`` accepts a submission while
  ``start_date <= now < next phase's start_date``; the last phase while ``now < competition.end_date``
  (no end_date: never closes). ``start_date`` and ``end_date`` are localized to UTC (a date is midnight). A
  finished submission goes onto the leaderboard, replacing the participant's entry, when the competition has
  ``force_submission_to_leaderboard`` or the phase is blind (``leaderboard_management_mode: hide_results``),
  unless the phase has ``force_best_submission_to_leaderboard``; otherwise only when the participant presses
  the button. A blind phase's leaderboard (with its "detailed results" links) is shown to organisers only.
- Codabench, v1.5 unpacker: a phase ends one day before the next starts; the last at the competition's
  ``end_date`` (else never). Its leaderboard rule is the model default ``Add`` (participants add submissions
  by hand); ``show_detailed_results_in_leaderboard`` defaults to true.
- Codabench, v2 unpacker: each phase has ``start`` and ``end``; phases must be sequential (the next starts
  strictly after the previous ends). A phase is active while ``start < now < end``. Every phase uses the
  first leaderboard, whose ``submission_rule`` ``Force_Last`` keeps each participant's last submission;
  ``show_detailed_results_in_leaderboard: false`` hides detailed results from the leaderboard.

Both Codabench unpackers turn dates with ``get_datetime``: a YAML date or datetime becomes midnight of its
day (the time of an unquoted YAML datetime is lost), a string is parsed.
"""
import collections
import datetime

PhaseWindow = collections.namedtuple("PhaseWindow", "number label reference opens closes")
PlatformView = collections.namedtuple("PlatformView", "platform unpacker phases official_rule details_hidden")

CODALAB, CODABENCH = "codalab", "codabench"
LAST, BEST, MANUAL = "last submission", "best submission", "added by the participant"
CODABENCH_RULES = {"Force_Last": LAST, "Force_Best": BEST, "Force_Latest_Multiple": "every submission"}


class PlatformError(Exception):
    """The platform would refuse the bundle (the message says why, as the platform would)."""


def _instant(value, codabench):
    """A naive UTC datetime as the platform reads a YAML date value (None stays None)."""
    if value is None or value == "null" or value == "":
        return None
    if isinstance(value, datetime.date):
        if codabench or not isinstance(value, datetime.datetime):
            return datetime.datetime.combine(value.date() if isinstance(value, datetime.datetime) else value,
                                             datetime.time())
        return value.replace(tzinfo=None)
    text = str(value).strip()
    for layout in ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d"):
        try:
            return datetime.datetime.strptime(text, layout)
        except ValueError:
            continue
    raise PlatformError("cannot read the date %r" % (value,))


def _reference(phase):
    """The reference folder name of a phase (``test`` for ``reference_data_test.zip``)."""
    member = str(phase.get("reference_data", ""))
    return member[len("reference_data_"):-len(".zip")] if member.startswith("reference_data_") else member


def codalab(competition):
    """The view of CodaLab Competitions (legacy) on a v1.5 competition.yaml."""
    if "version" in competition:
        raise PlatformError("CodaLab Competitions reads only v1.5 bundles (this one has `version:`)")
    numbers = sorted(competition["phases"])
    end = _instant(competition.get("end_date"), False)
    windows = []
    for index, number in enumerate(numbers):
        phase = competition["phases"][number]
        following = competition["phases"][numbers[index + 1]] if index + 1 < len(numbers) else None
        closes = _instant(following["start_date"], False) if following is not None else end
        windows.append(PhaseWindow(number, phase["label"], _reference(phase), _instant(phase["start_date"], False),
                                   closes))
    test = _official(competition["phases"])
    blind = test.get("leaderboard_management_mode") == "hide_results"
    if test.get("force_best_submission_to_leaderboard"):
        rule = BEST
    elif competition.get("force_submission_to_leaderboard") or blind:
        rule = LAST
    else:
        rule = MANUAL
    hidden = blind or not competition.get("enable_detailed_results", False)
    return PlatformView(CODALAB, "v1.5", windows, rule, hidden)


def _official(phases):
    """The phase whose leaderboard is the official result: the test phase, else the last one."""
    ordered = [phases[n] for n in sorted(phases)]
    tests = [phase for phase in ordered if _reference(phase) == "test"]
    return tests[0] if tests else ordered[-1]


def codabench(competition):
    """The view of Codabench on a competition.yaml (its v1.5 or its v2 unpacker, by ``version``)."""
    version = str(competition.get("version", "1"))
    if version in ("1", "1.5"):
        return _codabench_v15(competition)
    if version == "2":
        return _codabench_v2(competition)
    raise PlatformError("A suitable version could not be found for this competition (version %r)" % version)


def _codabench_v15(competition):
    """Codabench's V15Unpacker: ends one day before the next start, the leaderboard rule is Add."""
    phases = [competition["phases"][n] for n in sorted(competition["phases"], key=lambda n:
                                                         competition["phases"][n]["phasenumber"])]
    windows = []
    for index, phase in enumerate(phases):
        if index + 1 < len(phases):
            closes = _instant(phases[index + 1]["start_date"], True) - datetime.timedelta(days=1)
        else:
            closes = _instant(competition.get("end_date"), True)
        windows.append(PhaseWindow(index + 1, phase["label"], _reference(phase), _instant(phase["start_date"], True),
                                   closes))
    _sequential(windows)
    hidden = (not competition.get("enable_detailed_results", False)
              or not competition.get("show_detailed_results_in_leaderboard", True))
    return PlatformView(CODABENCH, "v1.5", windows, MANUAL, hidden)


def _codabench_v2(competition):
    """Codabench's V2Unpacker: explicit start/end, the first leaderboard's submission rule."""
    phases = sorted(competition["phases"], key=lambda p: p.get("index", 0))
    tasks = dict((task["index"], task) for task in competition.get("tasks", []))
    windows = []
    for index, phase in enumerate(phases):
        task = tasks.get((phase.get("tasks") or [None])[0], {})
        windows.append(PhaseWindow(index + 1, phase.get("name"), _reference(task), _instant(phase.get("start"), True),
                                   _instant(phase.get("end"), True)))
    _sequential(windows)
    boards = competition.get("leaderboards") or [{}]
    rule = CODABENCH_RULES.get(boards[0].get("submission_rule", "Add"), MANUAL)
    hidden = (not competition.get("enable_detailed_results", False)
              or not competition.get("show_detailed_results_in_leaderboard", True))
    return PlatformView(CODABENCH, "v2", windows, rule, hidden)


def _sequential(windows):
    """Codabench's phase-ordering check: every phase but the last ends, strictly before the next starts."""
    for index in range(1, len(windows)):
        before, after = windows[index - 1], windows[index]
        if before.closes is None:
            raise PlatformError("Phase: %s must have an end time because it has a phase after it." % before.label)
        if after.opens <= before.closes:
            raise PlatformError("Phases must be sequential: %s starts at %s, not after %s ends (%s)"
                                % (after.label, after.opens, before.label, before.closes))


def view(competition, platform):
    """The :class:`PlatformView` of ``platform`` (``codalab`` or ``codabench``) on ``competition``."""
    if platform == CODALAB:
        return codalab(competition)
    if platform == CODABENCH:
        return codabench(competition)
    raise ValueError("unknown platform %r" % platform)


def platform_of(competition):
    """The platform a bundle is built for: Codabench for ``version: 2``, CodaLab otherwise."""
    return CODABENCH if str(competition.get("version", "1")) == "2" else CODALAB


def schedule_failures(platform_view, schedule, gap):
    """``[text]``: each phase of the view must open and close at the schedule's instants.

    On Codabench a phase that follows another may open ``gap`` later (it refuses equal instants).
    """
    problems = []
    windows = platform_view.phases
    for index, window in enumerate(windows):
        if window.reference not in schedule.phases:
            problems.append("phase %s (%s): not in the schedule" % (window.number, window.label))
            continue
        declared = schedule.phases[window.reference]
        allowed = [declared.opens]
        if platform_view.platform == CODABENCH and index > 0:
            allowed.append(declared.opens + gap)
        if window.opens not in allowed:
            problems.append("phase %s (%s) opens at %s, the schedule says %s"
                            % (window.number, window.label, window.opens, declared.opens))
        if window.closes != declared.closes:
            problems.append("phase %s (%s) closes at %s on %s, the schedule says %s"
                            % (window.number, window.label, window.closes, platform_view.platform, declared.closes))
    return problems


# --------------------------------------------------------------------------- a v1.5 bundle uploaded to Codabench

#: The Codabench source these readings come from (``codalab/codabench``, commit c7dbc756 of 2026-03-13).
CODABENCH_SOURCE = "codabench@c7dbc756"
V15 = "src/apps/competitions/unpackers/v1.py"
#: The competition keys of a v1.5 ``competition.yaml`` that CodaLab reads and ``V15Unpacker.__init__`` does not
#: (it copies only title, has_registration, description, competition_docker_image, the detailed-results flags,
#: auto_run_submissions, make_*_available and end_date: v1.py lines 19-38), with what CodaLab does with them.
V15_DROPPED_COMPETITION_KEYS = (
    ("force_submission_to_leaderboard", "each team's last submission goes onto the leaderboard by itself"),
    ("disallow_leaderboard_modifying", "participants cannot choose their leaderboard entry"),
    ("anonymous_leaderboard", "the leaderboard shows no participant names"),
    ("enable_teams", "participants submit as teams"),
    ("hide_chart", "no chart of the scores on the home page"),
    ("enable_per_submission_metadata", "participants describe each submission"),
)
#: What CodaLab (legacy) defaults a phase's daily cap to when the bundle does not set it.
CODALAB_DAILY_CAP = 999
#: Codabench's defaults for a v1.5 phase (v1.py line 88: ``phase.get('max_submissions_per_day', 5)``; line 89:
#: ``phase.get('max_submissions', 100)``).
CODABENCH_V15_DAILY_CAP, CODABENCH_V15_TOTAL_CAP = 5, 100

Loss = collections.namedtuple("Loss", "what codalab codabench source")


def _when(instant):
    """``2024-01-15 12:00`` for a datetime (``never`` for None)."""
    return instant.strftime("%Y-%m-%d %H:%M") if instant is not None else "never"


def codabench_v15_losses(competition):
    """``[Loss]``: what Codabench's ``V15Unpacker`` makes of a v1.5 ``competition`` that CodaLab would run otherwise.

    Each :class:`Loss` names the setting (``what``), what CodaLab does with it, what Codabench does, and the source
    line of Codabench that says so (:data:`CODABENCH_SOURCE`). Read from the source, not copied:

    - v1.py lines 19-38: the competition keys it reads; any other (:data:`V15_DROPPED_COMPETITION_KEYS`) is dropped;
    - v1.py lines 83-94: the phase keys it reads; ``leaderboard_management_mode`` is not among them, so a
      ``hide_results`` test phase's leaderboard is shown while the phase runs;
    - v1.py lines 101-106: a phase ends one day before the next one starts (CodaLab: when the next starts);
    - v1.py lines 185-192 and ``src/apps/leaderboards/models.py`` line 28: the leaderboard is made without a
      ``submission_rule``, so it is the model default ``Add`` (participants add one submission by hand);
    - v1.py line 88: a phase without ``max_submissions_per_day`` gets 5 (CodaLab: 999); a phase that sets it keeps it;
    - v1.py lines 27 and 91: ``show_detailed_results_in_leaderboard`` defaults to true and ``hide_output`` to
      false, so the leaderboard links every entry's detailed results and a test phase's outputs are not hidden.
    """
    losses = []
    for key, meaning in V15_DROPPED_COMPETITION_KEYS:
        if competition.get(key):
            losses.append(Loss(key, meaning, "ignored", "%s lines 19-38" % V15))
    rule = codalab(competition).official_rule
    losses.append(Loss("leaderboard rule", rule, "Add: %s (the model default)" % MANUAL,
                       "%s lines 185-192; src/apps/leaderboards/models.py line 28" % V15))
    ordered = [competition["phases"][n] for n in sorted(competition["phases"],
                                                        key=lambda n: competition["phases"][n]["phasenumber"])]
    for phase in ordered:
        if phase.get("leaderboard_management_mode") == "hide_results":
            losses.append(Loss("%s: leaderboard_management_mode: hide_results" % phase["label"],
                               "the leaderboard is shown to organisers only while the phase runs",
                               "ignored: the leaderboard is public from the first submission", "%s lines 83-94" % V15))
    ours = codalab(competition).phases
    try:
        theirs = _codabench_v15(competition).phases
    except PlatformError as error:
        theirs = None
        losses.append(Loss("phase windows", "as declared", "refused: %s" % error, "%s lines 101-112" % V15))
    for index, window in enumerate(theirs or []):
        if window.closes != ours[index].closes:
            losses.append(Loss("%s ends" % window.label, _when(ours[index].closes),
                               "%s (one day before the next phase starts)" % _when(window.closes),
                               "%s lines 101-106" % V15))
    for phase in ordered:
        cap = phase.get("max_submissions_per_day")
        if cap is None:
            losses.append(Loss("%s: daily cap" % phase["label"], "%d (CodaLab's default)" % CODALAB_DAILY_CAP,
                               "%d (Codabench's default)" % CODABENCH_V15_DAILY_CAP, "%s line 88" % V15))
    if competition.get("enable_detailed_results") and competition.get("show_detailed_results_in_leaderboard",
                                                                          True):
        losses.append(Loss("detailed results", "linked from the leaderboard (hidden with a hide_results leaderboard)",
                           "linked from every leaderboard entry (show_detailed_results_in_leaderboard defaults to "
                           "true)", "%s line 27" % V15))
    for phase in ordered:
        if phase.get("leaderboard_management_mode") == "hide_results" and not phase.get("hide_output"):
            losses.append(Loss("%s: hide_output" % phase["label"], "not set (the leaderboard is hidden)",
                               "false: the outputs of its submissions are not hidden from other users",
                               "%s line 91" % V15))
    return losses


def kept_daily_caps(competition):
    """``[(phase label, cap)]``: the daily caps a v1.5 ``competition`` sets, which Codabench keeps (v1.py line 88)."""
    ordered = [competition["phases"][n] for n in sorted(competition["phases"])]
    return [(phase["label"], phase["max_submissions_per_day"]) for phase in ordered
            if phase.get("max_submissions_per_day") is not None]
