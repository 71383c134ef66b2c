"""The leak audit of a build (part of ``make check``): nothing a participant can reach reveals a hidden gold.

What participants can reach, as the platforms really behave (docs/organisers.md): every page, the starting kit,
every phase's public data from the first day, the test input once the test phase opens, and the outputs of the
scoring of any submission (stdout and stderr, ``scores.*``, ``detailed_results.*``: both platforms may show them
to anyone). A phase's reference data is not reachable, except the development reference, which the starting kit
carries on purpose. For every CodaLab bundle of a build (its Codabench twin has the same members) and every phase
whose gold is hidden (its ``phase.json``), four rules:

- ``audit.report``: the bundle's own scoring program, run as the workers run it on a few submissions (a trivial
  one, and the build's baseline for the phase), must write the same outputs against the phase's reference and
  against a *scrambled* twin of it (same inputs, other gold): once numbers are masked, any difference is text that
  depends on the gold, i.e. a leak.
- ``audit.gold-strings``: the gold strings of the hidden reference that appear nowhere a participant can look
  (lemmas, gap fillers, gold sentences...) must not appear in those outputs either.
- ``audit.public-gold``: no hidden gold item may be recoverable from what participants can reach (the reference
  copied into public data, gap-filling sentences readable from another task's public input...). A phase whose
  gold is declared public (a practice phase) gets a note instead.
- ``audit.early-release``: the test input (written apart by the bundle builder) must not be reachable before the
  test phase opens: not in a page, a starting kit or a public data of the bundle.

Each kind says, in its item side (``kind.items``, :class:`evalkit.items.Items`), how its reference is scrambled,
which of its strings are secret and what an item of its gold looks like in public text; items are addressed by
their position in the file, the split's unit, whatever a report calls them.
"""
import collections
import hashlib
import io
import json
import os
import re
import shutil
import tempfile
import xml.etree.ElementTree as ElementTree
import zipfile

from organiser import bundle, feedback, split
from evalkit import scoring
from evalkit.items import dump, normal

#: The outputs of a scoring run a participant may see, and how they are compared.
OUTPUT_FILES = ("scores.txt", "scores.json", "detailed_results.json", "detailed_results.html")
#: Masked before two outputs are compared: numbers (scores, counts, chart geometry) and hex digests.
_NUMBER = re.compile(r"[0-9a-f]{8,}|[-+]?\d+(?:[.,]\d+)*(?:[eE][-+]?\d+)?")
_TAG = re.compile(r"<[^<>]*>")
_WORD = re.compile(r"\w+", re.U)
#: A secret string shorter than this is too common to mean anything when found.
MIN_SECRET = 4
#: An atom of the test input shorter than this is too common to say anything about an early release.
MIN_DISTINCTIVE = 16
#: The share of a test input file's distinctive atoms reachable before the test phase opens that fails the audit.
EARLY_SHARE = 0.5
#: How many examples a failure quotes.
EXAMPLES = 3


# --------------------------------------------------------------------------- what participants can reach

def atoms(data, into=None):
    """The set of normalised strings of a file's bytes (recursing into zips) that text found in it can be matched
    against: its lines, blank-line separated blocks, tab-separated fields, the value of ``# text =`` lines, the
    whole text, and for JSON every string value and the canonical text of every list element down to depth 2."""
    found = set() if into is None else into
    for member in files_of(data):
        _text_atoms(member.decode("utf-8", "replace"), found)
    found.discard("")
    return found


def named_files(label, data):
    """``(path, bytes)`` of every file ``data`` holds (as :func:`files_of`), ``path`` its members' names after
    ``label`` joined by ``!``."""
    if data[:4] == b"PK\x03\x04":
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                members = [(info.filename, archive.read(info)) for info in archive.infolist() if not info.is_dir()]
        except (zipfile.BadZipFile, RuntimeError, NotImplementedError):
            members = None
        if members is not None:
            for name, member in members:
                for found in named_files("%s!%s" % (label, name), member):
                    yield found
            return
    yield label, data


def files_of(data):
    """The bytes of every file ``data`` holds: its members when it is a zip (recursively), else itself."""
    for _, found in named_files("", data):
        yield found


def _text_atoms(text, found):
    """Add the atoms of one file's ``text`` to ``found`` (see :func:`atoms`)."""
    found.add(normal(text))
    _json_atoms(text, found)
    for block in re.split(r"\n\s*\n", text):
        found.add("\n".join(normal(line) for line in block.strip().split("\n")))
    for line in text.split("\n"):
        found.add(normal(line))
        if line.startswith("# text ="):
            found.add(normal(line[len("# text ="):]))
        for field in line.split("\t"):
            found.add(normal(field))
        if line.strip().startswith(("{", "[")):
            _json_atoms(line, found)


def _json_atoms(text, found):
    """Add the atoms of ``text`` read as JSON (nothing when it is not JSON)."""
    try:
        value = json.loads(text)
    except ValueError:
        return
    found.add(dump(value))
    _walk(value, found, 0)


def _walk(value, found, depth):
    """String values and, down to depth 2, the canonical text of list elements and of the values of mappings."""
    if isinstance(value, str):
        found.add(normal(value))
    elif isinstance(value, list):
        for item in value:
            if depth < 2:
                found.add(dump(item))
            _walk(item, found, depth + 1)
    elif isinstance(value, dict):
        for item in value.values():
            if depth < 2 and isinstance(item, (list, dict)):
                found.add(dump(item))
            _walk(item, found, depth + 1)


def words(texts):
    """Every word (``\\w+``) and normalised line of ``texts``."""
    found = set()
    for text in texts:
        found.update(_WORD.findall(text))
        found.update(normal(line) for line in text.split("\n"))
    return found


def bundle_reachable(members, competition):
    """``{label: bytes}``: what participants can reach of a v1.5 bundle before the test phase opens: its pages,
    its competition.yaml (the phases' descriptions), every phase's starting kit and public data (the test phase's
    is the placeholder)."""
    reachable = {"competition.yaml": members.get("competition.yaml", b"")}
    for member in (competition.get("html") or {}).values():
        if member in members:
            reachable[member] = members[member]
    for phase in (competition.get("phases") or {}).values():
        for key in ("starting_kit", "public_data"):
            if phase.get(key) in members:
                reachable[phase[key]] = members[phase[key]]
    return reachable


def split_development(reachable, competition):
    """``(development, other)``: the reachable files split into the development phase's material (its starting kit
    and public data: the development gold, the train and dev files, example submissions) and everything else
    (pages, phase descriptions, the test phase's public data), each ``{label: bytes}``."""
    development, other = {}, {}
    phases = competition.get("phases") or {}
    first = phases[min(phases)] if phases else {}
    development_members = set(first.get(key) for key in ("starting_kit", "public_data") if first.get(key))
    for label, data in reachable.items():
        (development if label in development_members else other)[label] = data
    return development, other


# --------------------------------------------------------------------------- the kinds' items

def item_side(task):
    """The item side of ``task``'s kind (:class:`evalkit.items.Items`): how its gold is scrambled, which of its
    strings are secret and what an item of its gold looks like in public text."""
    return scoring.KINDS[task.kind].items


def gold_items(task, data):
    """``{index: (label, texts)}`` of one reference file's items that have a gold, as they would read in public text
    (the item side's ``public_texts``; an item without any, a redacted or unscored one, is left out). ``index`` is
    the item's position, the split's unit."""
    items_of = item_side(task)
    found = {}
    for index, item in enumerate(items_of.read(data)):
        texts = [text for text in items_of.public_texts(item, task) if text]
        if texts:
            found[index] = (items_of.label(index, item), texts)
    return found


# --------------------------------------------------------------------------- the audit

class Finding(object):
    """One failure (or note) of the audit: ``rule``, ``where`` and ``text``, as organiser.check reports them."""

    def __init__(self, rule, where, text, note=False):
        self.rule, self.where, self.text, self.note = rule, where, text, note


def reference_files(decl, names):
    """``[(member name, task, lang)]`` of a reference zip's members that are the declaration's reference files."""
    by_name = bundle.declared_reference_files(decl)
    return [(name,) + by_name[name] for name in names if name in by_name]


def scrambled_reference(decl, reference_zip):
    """The reference zip with every reference file's gold scrambled (its kind's ``items.scramble``), or None when no
    kind of it can be scrambled."""
    with zipfile.ZipFile(io.BytesIO(reference_zip)) as archive:
        members = dict((info.filename, archive.read(info)) for info in archive.infolist() if not info.is_dir())
    changed = False
    for name, task, lang in reference_files(decl, list(members)):
        scrambled = item_side(task).scramble(members[name], task, lang)
        if scrambled is not None:
            changed = changed or scrambled != members[name]
            members[name] = scrambled
    if not changed:   # nothing to compare against: the report rule cannot run
        return None
    return bundle.zip_bytes(members)


def outputs(process, output):
    """``{name: text}`` of a run: stdout, stderr and every output file a participant may see."""
    found = {}
    if not isinstance(process, str):
        found["stdout"] = process.stdout.decode("utf-8", "replace")
        found["stderr"] = process.stderr.decode("utf-8", "replace")
        found["exit status"] = str(process.returncode)
    else:
        found["error"] = process
    for name in OUTPUT_FILES:
        path = os.path.join(output, name)
        if os.path.isfile(path):
            with open(path, "rb") as handle:
                found[name] = handle.read().decode("utf-8", "replace")
    return found


def masked(name, text):
    """``text`` as compared: numbers and digests masked; a page's text without its tags."""
    if name.endswith(".html"):
        text = _TAG.sub(" ", text)
    text = text.replace(os.sep, "/")
    return normal(_NUMBER.sub("#", text))


def first_difference(real, scrambled):
    """The first output whose masked text differs between the two runs, with the differing words; None."""
    for name in sorted(set(real) | set(scrambled)):
        a, b = masked(name, real.get(name, "")), masked(name, scrambled.get(name, ""))
        if a != b:
            only = sorted(set(a.split(" ")) ^ set(b.split(" ")))[:6]
            return "%s differs (words in one run only: %s)" % (name, ", ".join(only) or "order")
    return None


def run_outputs(check, program, reference, submission, workdir, timeout):
    """The outputs of one CodaLab-style run of ``program`` on ``submission`` against ``reference``."""
    process, output, _ = check.execute("codalab", program, reference, submission, workdir, timeout)
    found = outputs(process, output)
    return dict((name, text.replace(workdir, "<run>")) for name, text in found.items())


def audit_phase(check, decl, competition, members, number, submissions, reachable_words, reachable,
                timeout=600):
    """The findings of one phase of a bundle (its gold hidden): reports, gold strings, public gold."""
    findings = []
    phase = competition["phases"][number]
    where = "phase %s (%s)" % (number, phase.get("label"))
    reference = members[phase["reference_data"]]
    with zipfile.ZipFile(io.BytesIO(reference)) as archive:
        names = archive.namelist()
        files = dict((name, archive.read(name)) for name in names)
    practice = bundle.is_practice(phase)
    findings.extend(public_gold(decl, files, where, reachable, practice))
    if practice:
        return findings
    scrambled = scrambled_reference(decl, reference)
    if scrambled is None:
        findings.append(Finding("audit.report", where, "OPTIONAL: the gold of this phase's reference could not be "
                                "scrambled (no kind of it has an items.scramble, or it has no gold to change): the "
                                "report rule did not run", note=True))
    workdir = tempfile.mkdtemp(prefix="audit-")
    try:
        seen = []
        for label, submission in submissions:
            real = run_outputs(check, members[phase["scoring_program"]], reference, submission, workdir, timeout)
            seen.extend(real.values())
            if scrambled is None:
                continue
            other = run_outputs(check, members[phase["scoring_program"]], scrambled, submission, workdir, timeout)
            difference = first_difference(real, other)
            if difference:
                findings.append(Finding("audit.report", where, "the report on %s depends on the gold beyond the "
                                        "scores: %s" % (label, difference)))
        findings.extend(gold_strings(decl, files, where, seen, reachable_words))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return findings


#: The share of a reference file's items that may repeat, with the same gold, an item of the development data
#: (sentences that occur in several splits of a corpus) before the audit takes the file for a copy.
DUPLICATE_SHARE = 0.5


def public_gold(decl, files, where, reachable, practice):
    """``audit.public-gold``: hidden gold items found in what participants can reach. ``reachable``:
    ``(development atoms, other atoms)``; a reference with a ``split.json`` (a part of a split test phase) has gold
    for the items it lists only. An item found outside the development data (the test input, a page,
    a public data file) fails; items that repeat development items fail only when they are at least
    :data:`DUPLICATE_SHARE` of the file (below, a note: sentences shared by two splits of a corpus)."""
    development, other = reachable
    findings = []
    split = feedback.parse_split(files[feedback.SPLIT_FILE].decode("utf-8"), feedback.SPLIT_FILE) \
        if feedback.SPLIT_FILE in files else None
    for name, task, lang in reference_files(decl, list(files)):
        every = gold_items(task, files[name])
        # A copy of the file is judged on all its items, redacted ones included (a natural repeat has no redacted
        # twin in the development data); what is reported are the items with gold: a part's listed ones only.
        copied = len([1 for _, texts in every.values() if any(text in development for text in texts)]) >= \
            DUPLICATE_SHARE * max(1, len(every))
        items = [item for _, item in sorted(every.items())]
        if split is not None and name in split["files"]:   # a redacted item has no gold: only the scored ones
            scored = set(split["files"][name].get("indices") or [])
            items = [item for index, item in sorted(every.items()) if index in scored]
        leaked = [item for item, texts in items if any(text in other for text in texts if text)]
        repeated = [item for item, texts in items if item not in leaked and any(text in development for text in texts
                                                                                  if text)]
        copied = copied and bool(repeated)
        if leaked or copied:
            found = leaked + (repeated if copied else [])
            text = "%d of %d gold items of %s can be read from what participants can reach (%s%s)" % (
                len(found), len(items), name, ", ".join(found[:EXAMPLES]), ", ..." if len(found) > EXAMPLES else "")
            if practice:
                findings.append(Finding("audit.public-gold", where, "PRACTICE: %s: the phase is labelled a practice "
                                        "phase" % text, note=True))
            else:
                findings.append(Finding("audit.public-gold", where, text + ": exclude them from the scoring or build "
                                        "the phase from gold that participants cannot see"))
        elif repeated:
            findings.append(Finding("audit.public-gold", where, "OPTIONAL: %d of %d gold items of %s repeat, with the "
                                    "same gold, an item of the development data (%s): sentences the corpus has in "
                                    "both splits" % (len(repeated), len(items), name,
                                                     ", ".join(repeated[:EXAMPLES])), note=True))
    return findings


def gold_strings(decl, files, where, seen, reachable_words):
    """``audit.gold-strings``: secret gold strings (nowhere reachable) found in the outputs ``seen``."""
    secrets = set()
    for name, task, lang in reference_files(decl, list(files)):
        secrets.update(normal(s) for s in item_side(task).secrets(files[name], task, lang))
    secrets = set(s for s in secrets if len(s) >= MIN_SECRET and s not in reachable_words)
    if not secrets:
        return []
    shown = words(seen)
    leaked = sorted(secrets & shown)
    if not leaked:
        return []
    return [Finding("audit.gold-strings", where, "%d hidden gold string(s) appear in what the scoring program "
                    "shows: %s" % (len(leaked), ", ".join(repr(s) for s in leaked[:EXAMPLES])))]


def early_release(test_inputs, before):
    """``audit.early-release``: each test input file's distinctive atoms reachable before the test phase opens
    (``before``: the atom sets of what participants reach before it, any of them)."""
    findings = []
    for label, data in test_inputs.items():
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            for info in archive.infolist():
                if info.is_dir():
                    continue
                distinctive = set(a for a in atoms(archive.read(info)) if len(a) >= MIN_DISTINCTIVE
                                  and not _NUMBER.fullmatch(a))
                if not distinctive:
                    continue
                early = set(a for a in distinctive if any(a in reached for reached in before))
                share = len(early) / float(len(distinctive))
                if share >= EARLY_SHARE:
                    findings.append(Finding("audit.early-release", "%s: %s" % (label, info.filename),
                                            "%.0f%% of its text (%d of %d distinctive lines) is reachable before the "
                                            "test phase opens: the test input must be in no page, starting kit or "
                                            "public data of the bundle" % (100 * share, len(early), len(distinctive))))
    return findings


def audit_bundle(check, decl, path, test_inputs, submissions_dir, report=print, timeout=600):
    """Every audit rule on the CodaLab bundle at ``path`` with the build's ``test_inputs`` (``{label: zip bytes}``)."""
    _, members, competition, _ = check.read_bundle(path)
    if competition is None:
        return []
    if check.is_codabench_v2(competition):   # audited through its CodaLab twin (codabench_twin, run by check)
        return []
    before = bundle_reachable(members, competition)
    development, other = split_development(before, competition)
    development_atoms, other_atoms = set(), set()
    for data in development.values():
        atoms(data, development_atoms)
    for data in other.values():
        atoms(data, other_atoms)
    findings = early_release(test_inputs, (development_atoms, other_atoms))
    hidden = hidden_phases(check, decl, competition, members)
    if not hidden:
        report("  no phase with a hidden gold to audit (the test reference pending, or every gold public); the test "
               "input reachable nowhere before the test phase opens: %s"
               % ("ok" if not [f for f in findings if not f.note] else "LEAK"))
        return findings
    for data in test_inputs.values():   # once the test phase opens, its input is reachable too
        atoms(data, other_atoms)
    reachable_words = words(member.decode("utf-8", "replace") for data in list(before.values()) +
                            list(test_inputs.values()) for member in files_of(data))
    subtask = check.declared_subtask(competition, decl) or check._subtask_from_name(path, decl)
    for number in hidden:
        phase = competition["phases"][number]
        name = check._reference_name(phase["reference_data"])
        chosen = check.choose_submission(submissions_dir, subtask, name,
                                         check.declarations.wording(decl.COMPETITION_ID)["phase_splits"])
        probe = tempfile.mkdtemp(prefix="audit-ref-")
        try:
            check._extract(members[phase["reference_data"]], probe)
            submissions = [("a trivial submission", check.trivial_submission(probe, decl))]
        finally:
            shutil.rmtree(probe, ignore_errors=True)
        if chosen:
            submissions.append((os.path.basename(chosen), chosen))
        found = audit_phase(check, decl, competition, members, number, submissions, reachable_words,
                            (development_atoms, other_atoms), timeout)
        practice = bundle.is_practice(phase)
        report("  audit phase %s %-22s %s, %s" % (
            number, phase.get("label"), "public gold only (a practice phase)" if practice else
            "%d run(s)" % (2 * len(submissions)), "ok" if not [f for f in found if not f.note] else "LEAK"))
        findings.extend(found)
    return findings


def hidden_phases(check, decl, competition, members):
    """The numbers of the phases whose reference holds the declaration's reference files and whose gold is hidden,
    or which are labelled practice phases (their gold is public: only ``audit.public-gold`` runs there)."""
    found = []
    for number in sorted(competition["phases"]):
        phase = competition["phases"][number]
        reference = members.get(phase.get("reference_data"))
        if reference is None:
            continue
        with zipfile.ZipFile(io.BytesIO(reference)) as archive:
            names = archive.namelist()
            policy = bundle.zipped_policy(archive) or {}
        if check.bundle_module.is_pending_reference(names) or not reference_files(decl, names):
            continue
        if policy.get("gold") == "public" and not bundle.is_practice(phase):
            continue
        found.append(number)
    return found


def _file_digests(root, skip=None):
    """``{sha256: relative path}`` of every file under ``root`` (the ``skip`` folder left out)."""
    found = {}
    skip = os.path.abspath(skip) if skip else None
    for folder, subfolders, files in os.walk(root):
        if skip and (os.path.abspath(folder) == skip or os.path.abspath(folder).startswith(skip + os.sep)):
            subfolders[:] = []
            continue
        for name in files:
            path = os.path.join(folder, name)
            with open(path, "rb") as handle:
                found.setdefault(hashlib.sha256(handle.read()).hexdigest(), os.path.relpath(path, root))
    return found


#: The folder a data folder may keep its test gold in, apart from its public files (the kit's samples do): the
#: only folder inside the release that is not taken for something participants download.
KEPT_APART = "test_gold"


#: The files of the test gold the reference builder did not build the test phase from (``{path: why}``, at the root
#: of the build's reference folder; organiser/builders.py): not gold, whatever they hold.
UNUSED_TEST_GOLD = "test_gold_unused.json"


def unused_test_gold(manifest):
    """The paths (relative to the test gold) of :data:`UNUSED_TEST_GOLD` in the build's reference folder."""
    path = os.path.join(manifest.get("reference") or "", UNUSED_TEST_GOLD)
    if not os.path.isfile(path):
        return set()
    with open(path, encoding="utf-8") as handle:
        return set(json.load(handle))


def release_gold(manifest):
    """``audit.public-gold`` on the build's own inputs: a test gold (``test_gold`` of the build's manifest) that is a
    folder of the release participants download (its ``data``; a folder named :data:`KEPT_APART` excepted), or
    whose files are files of that release, is public. The files the test phase was not built from
    (:data:`UNUSED_TEST_GOLD`: a language's test files left as released) do not count."""
    gold, data = manifest.get("test_gold"), manifest.get("data")
    if not (gold and data and os.path.isdir(gold) and os.path.isdir(data)):
        return []
    inside = os.path.abspath(gold).startswith(os.path.abspath(data) + os.sep)
    if inside and os.path.basename(os.path.normpath(gold)) != KEPT_APART:
        return [Finding("audit.public-gold", "test gold %s" % gold, "the test gold is a folder of the release "
                        "participants download (%s): this gold is public; build the test phase from gold that "
                        "participants cannot see" % os.path.relpath(gold, data))]
    public, unused = _file_digests(data, skip=gold), unused_test_gold(manifest)
    same = sorted((path, public[digest]) for digest, path in _file_digests(gold).items()
                  if digest in public and path.replace(os.sep, "/") not in unused)
    if not same:
        return []
    return [Finding("audit.public-gold", "test gold %s" % gold, "%d file(s) of the test gold are files of the release "
                    "participants download (%s): this gold is public; build the test phase from gold that "
                    "participants cannot see" % (len(same), ", ".join("%s = %s" % pair for pair in same[:EXAMPLES])))]


def read_test_inputs(dist, manifest):
    """``{label: zip bytes}`` of the test inputs a build wrote apart (``test_input`` of its manifest)."""
    found = {}
    for relative in manifest.get("test_input") or []:
        path = os.path.join(dist, relative)
        if os.path.isfile(path):
            with open(path, "rb") as handle:
                found[relative] = handle.read()
    return found


# --------------------------------------------------------------------------- the private part of the test gold

def indexed_items(decl, name, data):
    """``{index: (label, texts)}`` of one reference file's gold items (:func:`gold_items`)."""
    task, _ = bundle.declared_reference_files(decl)[name]
    return gold_items(task, data)


def folder_files(decl, folder):
    """``{reference file name: bytes}`` of the declaration's reference files in ``folder``."""
    found = {}
    for name in bundle.declared_reference_files(decl):
        path = os.path.join(folder, *name.split("/"))
        if os.path.isfile(path):
            with open(path, "rb") as handle:
                found[name] = handle.read()
    return found


def private_gold(decl, private_dir):
    """``{reference file name: {index: (label, texts)}}``: the gold items of the private part, read from the
    organisers' ``REF/private/<phase>`` (its ``split.json`` lists the scored items: the private part, or every item
    in modes blind and full)."""
    split = feedback.read_split(private_dir) or {}
    found = {}
    for name, data in folder_files(decl, private_dir).items():
        items = indexed_items(decl, name, data)
        entry = (split.get("files") or {}).get(name)
        scored = set(entry.get("indices") or []) if entry else set(items)
        found[name] = dict((index, item) for index, item in items.items() if index in scored)
    return found


def uploaded_files(dist, manifest):
    """``{label: bytes}`` of every file a build uploads or hands out: its bundles (both platforms), reference zips,
    test input and public data, and starting kit."""
    found = {}
    for platform in sorted((manifest.get("bundles") or {})):
        for name in manifest["bundles"][platform]:
            found[os.path.join("bundles", name)] = None
    for folder in ("reference", "public_data"):
        if os.path.isdir(os.path.join(dist, folder)):
            for name in sorted(os.listdir(os.path.join(dist, folder))):
                if name.endswith(".zip"):
                    found[os.path.join(folder, name)] = None
    for relative in list(manifest.get("test_input") or []) + [bundle.STARTING_KIT_MEMBER]:
        found[relative] = None
    for relative in list(found):
        path = os.path.join(dist, relative)
        if os.path.isfile(path):
            with open(path, "rb") as handle:
                found[relative] = handle.read()
        else:
            del found[relative]
    return found


SplitAudit = collections.namedtuple("SplitAudit", "findings lines")


def audit_split(decl, dist, manifest, phase=bundle.OFFICIAL_PHASE):
    """``audit.private-gold`` and ``audit.public-part`` on a build whose test reference is split (issue 23):

    - ``audit.private-gold``: no file the build uploads or hands out (:func:`uploaded_files`: bundles, reference
      zips, test input and public data, starting kit, every zip inside them) holds a gold item of the private part
      (:func:`private_gold`, read from the organisers' ``REF/private/<phase>``), as the audit reads an item in
      public text (its kind's ``items.public_texts``); an item whose gold is the same as a public item's is noted, not failed;
    - ``audit.public-part``: the uploaded test reference of each subtask (``reference/<subtask>-<phase>.zip``) can
      score only the public part: every item its ``split.json`` does not list is redacted (its text is not the
      gold's), its counts are its items', and the public and private parts do not overlap.

    Returns :class:`SplitAudit` (``findings``, ``lines``: what it did, for ``make check``'s output).
    """
    reference_dir = manifest.get("reference")
    if not reference_dir or not os.path.isdir(os.path.join(reference_dir, phase)):
        return SplitAudit([], ["split audit: no %s reference in this build: nothing to audit" % phase])
    public_split = feedback.read_split(os.path.join(reference_dir, phase))
    if public_split is None:
        return SplitAudit([], ["split audit: the %s reference has no %s: its whole gold is uploaded (mode %s, as "
                               "before issue 23)" % (phase, feedback.SPLIT_FILE, feedback.FULL)])
    mode = public_split["mode"]
    private_dir = feedback.private_folder(reference_dir, phase)
    if not os.path.isdir(private_dir):
        return SplitAudit([Finding("audit.private-gold", private_dir, "the %s reference is split (mode %s) but the "
                                   "organisers' part %s is missing: rebuild the reference" % (phase, mode, private_dir))],
                          [])
    secret = private_gold(decl, private_dir)
    findings, lines = [], []
    state_path, state = split.state_of(reference_dir)
    if state_path and state is None:
        findings.append(Finding("audit.split-state", state_path, "the split state that drew this build's split is "
                                "missing: restore it from its backup before the next build (without it the next build "
                                "draws a new split, and the two public parts together reveal more of the test gold)"))
    elif state is not None:
        lines.append(state.summary())
    seed = state.data["seed"].encode("utf-8") if state is not None else None
    if seed is not None and len(seed) < split.MIN_SEED:   # a short seed would be "found" in every file
        lines.append("split audit: the split's seed is too short (%d characters) to look for in the uploaded files"
                     % len(seed))
        seed = None
    public_texts = set()
    uploads = uploaded_files(dist, manifest)
    for relative, data in uploads.items():
        if relative.startswith("reference" + os.sep) and relative.endswith("-%s.zip" % phase):
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                members = dict((n, archive.read(n)) for n in archive.namelist())
            for name, items in _public_items(decl, members).items():
                public_texts.update(text for _, texts in items.values() for text in texts if text)
    if mode == feedback.FULL:
        count = sum(len(items) for items in secret.values())
        lines.append("split audit: mode full: the whole test gold (%d items) is uploaded by the organisers' choice; "
                     "teams see their test scores" % count)
        return SplitAudit(findings, lines)
    development = set()
    for relative, data in uploads.items():   # the development gold is public (the starting kit carries it)
        if relative.startswith("reference" + os.sep) and relative.endswith("-%s.zip" % bundle.DEVELOPMENT_PHASE):
            atoms(data, development)
    wanted, shared, repeated = {}, 0, 0
    for name, items in secret.items():
        for index, (label, texts) in items.items():
            texts = [text for text in texts if text]
            if texts and all(text in public_texts for text in texts):
                shared += 1      # the same item, with the same gold, is in the public part too
            elif any(text in development for text in texts):
                repeated += 1    # the corpus has it in the development data too: public whatever the split
            else:
                for text in texts:
                    wanted.setdefault(text, (name, label))
    seen, scanned, places = set(), 0, {}
    for relative, data in sorted(uploads.items(), key=lambda item: (not item[0].startswith("reference"), item[0])):
        for member_name, member in named_files(relative, data):
            digest = hashlib.sha256(member).digest()
            if digest in seen:
                continue
            seen.add(digest)
            scanned += 1
            if seed and seed in member:
                findings.append(Finding("audit.split-state", member_name, "this uploaded file holds the split's seed "
                                        "(from %s): with it anyone can tell the private items; draw the split anew "
                                        "(make NEW_SPLIT=1) and keep the state file out of every folder that is "
                                        "uploaded" % state_path))
            member_atoms = atoms(member)
            for text in wanted:
                if text in member_atoms:
                    places.setdefault(member_name, set()).add(wanted[text])
    for member_name, found in sorted(places.items()):
        items = sorted(found)
        findings.append(Finding("audit.private-gold", member_name, "%d gold item(s) of the private part can be read "
                                "from this uploaded file (%s): it must hold the public part only" % (
                                    len(items), ", ".join("%s %s" % item for item in items[:EXAMPLES]))))
    total = sum(len(items) for items in secret.values())
    lines.append("split audit: mode %s: %d private gold item(s) in %d file(s) of %s, searched in %d uploaded file(s) "
                 "(%d distinct files inside them: bundles, reference zips, public data, starting kit): %s%s%s" % (
                     mode, total, len(secret), private_dir, len(uploads), scanned,
                     "found in %d file(s)" % len(places) if places else "none found",
                     "; %d have the same gold as a public item (not a leak)" % shared if shared else "",
                     "; %d repeat an item of the development data (public whatever the split; audit.public-gold notes "
                     "them)" % repeated if repeated else ""))
    for relative, data in sorted(uploads.items()):
        if relative.startswith("reference" + os.sep) and relative.endswith("-%s.zip" % phase):
            found, line = public_part(decl, relative, data, secret, mode)
            findings.extend(found)
            lines.append(line)
    return SplitAudit(findings, lines)


def _public_items(decl, members):
    """``{name: {index: (label, texts)}}`` of the public items of an uploaded test reference (``{member: bytes}``):
    the items its ``split.json`` lists."""
    split = feedback.parse_split(members[feedback.SPLIT_FILE].decode("utf-8"), feedback.SPLIT_FILE) \
        if feedback.SPLIT_FILE in members else {"files": {}}
    found = {}
    for name, task, lang in reference_files(decl, list(members)):
        items = indexed_items(decl, name, members[name])
        entry = split["files"].get(name) or {}
        listed = set(entry.get("indices") or [])
        found[name] = dict((index, item) for index, item in (items or {}).items() if index in listed)
    return found


def public_part(decl, relative, data, secret, mode):
    """``(findings, line)`` of ``audit.public-part`` on one uploaded test reference zip (see :func:`audit_split`)."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        members = dict((n, archive.read(n)) for n in archive.namelist() if not n.endswith("/"))
    if feedback.SPLIT_FILE not in members:
        return [Finding("audit.public-part", relative, "no %s: the scoring program would score every item of it"
                        % feedback.SPLIT_FILE)], "%s: no %s" % (relative, feedback.SPLIT_FILE)
    split = feedback.parse_split(members[feedback.SPLIT_FILE].decode("utf-8"), relative)
    findings, listed_total, items_total, unit = [], 0, 0, split.get("unit") or "items"
    for name, task, lang in reference_files(decl, list(members)):
        entry = (split.get("files") or {}).get(name)
        if entry is None:
            findings.append(Finding("audit.public-part", "%s: %s" % (relative, name), "not in its %s: the scoring "
                                    "program would score every item of it" % feedback.SPLIT_FILE))
            continue
        listed = set(entry.get("indices") or [])
        if mode == feedback.BLIND and listed:
            findings.append(Finding("audit.public-part", "%s: %s" % (relative, name), "a blind phase lists %d scored "
                                    "item(s): it must list none" % len(listed)))
        if int(entry.get("scored", -1)) != len(listed) or any(not 0 <= i < int(entry.get("items", 0))
                                                               for i in listed):
            findings.append(Finding("audit.public-part", "%s: %s" % (relative, name), "its %s says %s scored of %s "
                                    "but lists %d indices (or one out of range)" % (
                                        feedback.SPLIT_FILE, entry.get("scored"), entry.get("items"), len(listed))))
        uploaded = indexed_items(decl, name, members[name]) or {}
        private = secret.get(name, {})
        overlap = sorted(listed & set(private))
        if overlap:
            findings.append(Finding("audit.public-part", "%s: %s" % (relative, name), "%d item(s) are in both the "
                                    "public and the private part (%s)" % (len(overlap), ", ".join(
                                        private[i][0] for i in overlap[:EXAMPLES]))))
        kept = [private[index][0] for index in sorted(private) if index not in listed and index in uploaded
                and set(t for t in uploaded[index][1] if t) & set(t for t in private[index][1] if t)]
        if kept:
            findings.append(Finding("audit.public-part", "%s: %s" % (relative, name), "%d item(s) outside the public "
                                    "part keep their gold (%s): they would be scored on the platform" % (
                                        len(kept), ", ".join(kept[:EXAMPLES]))))
        listed_total += len(listed)
        items_total += int(entry.get("items", 0))
    if mode == feedback.BLIND:
        line = "%s: blind: no item scored; %s" % (relative, "all %d %s redacted" % (items_total, unit) if not findings
                                                   else "%d problem(s)" % len(findings))
    else:
        line = "%s: public part: %d of %d %s; %s" % (relative, listed_total, items_total, unit, "every other item "
                                                      "redacted" if not findings else "%d problem(s)" % len(findings))
    return findings, line


def codabench_twin(check, path, paths, report=print):
    """The leak audit of a native Codabench bundle: its members must be its CodaLab twin's (``<stem>.zip``, one of
    ``paths``, audited by :func:`audit_bundle`), its ``competition.yaml`` aside; says what it did and what the v2 file
    sets that bears on leaks (the test phase's ``hide_output``, detailed results off the leaderboard, the leaderboard
    rule). A finding when there is no twin or a member differs (then nothing proves that bundle leaks nothing)."""
    suffix = bundle.CODABENCH_SUFFIX + ".zip"
    twin = path[:-len(suffix)] + ".zip"
    if twin not in paths or not os.path.isfile(twin):
        report("  not audited: no CodaLab twin %s in this check" % os.path.basename(twin))
        return [Finding("audit.codabench-twin", path, "no CodaLab twin %s in this check: its members were not "
                        "audited" % os.path.basename(twin))]
    _, mine, competition, _ = check.read_bundle(path)
    _, theirs, _, _ = check.read_bundle(twin)
    differ = sorted(name for name in set(mine) | set(theirs) if name != bundle.YAML_MEMBER
                    and mine.get(name) != theirs.get(name))
    if differ:
        report("  not audited: %d member(s) differ from its CodaLab twin %s" % (len(differ), os.path.basename(twin)))
        return [Finding("audit.codabench-twin", path, "%d member(s) differ from its CodaLab twin %s (%s): they were "
                        "not audited" % (len(differ), os.path.basename(twin), ", ".join(differ[:EXAMPLES])))]
    competition = competition or {}
    phases = competition.get("phases") or []
    hidden = [str(p.get("name")) for p in phases if isinstance(p, dict) and p.get("hide_output")]
    board = (competition.get("leaderboards") or [{}])[0]
    report("  audited with its CodaLab twin %s, audited above: the same %d members (pages, scoring program, reference, "
           "public data, starting kit) byte for byte, but competition.yaml; the v2 file hides the outputs of %s, %s "
           "detailed results from the leaderboard, leaderboard rule %s" % (
               os.path.basename(twin), len(mine) - 1, ", ".join(hidden) or "no phase",
               "links no" if competition.get("show_detailed_results_in_leaderboard") is False else "LINKS",
               board.get("submission_rule", "Add")))
    return []
