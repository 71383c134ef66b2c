"""Which declaration a tool works for: the top-level competition's, or one under ``competitions/<id>/``.

The top-level competition (the design card's ``competition.yaml``, ``scoring_program/``, ``pages/``) is
declared by the one module of ``scoring_program/`` that sets ``COMPETITION_ID``; a further competition by
``competitions/<id>/<id>.py``. The organiser's tools (bundle, pages, check) take their facts from here and
never import a competition by name.
"""
import importlib
import importlib.util
import os
import sys

from organiser import ROOT, SCORING_PROGRAM

COMPETITIONS = os.path.join(ROOT, "competitions")
_LOADED = {}


def top_level_id():
    """The id of the top-level competition: the ``scoring_program/<id>.py`` module that sets ``COMPETITION_ID``."""
    from evalkit.cli import declared_modules
    found = declared_modules(SCORING_PROGRAM)
    if len(found) != 1:
        raise RuntimeError("%s must hold exactly one declaration (a module setting COMPETITION_ID), found %s"
                           % (SCORING_PROGRAM, ", ".join(found) or "none"))
    return found[0]


def hosted_ids():
    """The ids of every hosted competition: the top-level one, then those of ``competitions/`` in name order."""
    found = [top_level_id()]
    if os.path.isdir(COMPETITIONS):
        found += [name for name in sorted(os.listdir(COMPETITIONS))
                  if os.path.isfile(os.path.join(COMPETITIONS, name, name + ".py"))]
    return found


def load(cid=None):
    """The declaration module of competition ``cid`` (None: the top-level one), loaded once."""
    cid = cid or top_level_id()
    if cid not in _LOADED:
        _LOADED[cid] = _load(cid)
    return _LOADED[cid]


def _load(cid):
    """Import the declaration of ``cid``, with the modules of its own scoring program first (:func:`own_modules`:
    its kinds, which the declaration imports by name), and register the kinds it declares
    (:func:`evalkit.kindspec.use`: a kind that lacks a part is refused, KindError, with the parts named)."""
    from evalkit import kindspec
    path = os.path.join(COMPETITIONS, cid, cid + ".py")
    if not os.path.isfile(path):
        module = importlib.import_module(cid)   # the top-level declaration, on sys.path with the scoring program
    else:
        for own in own_modules(cid):
            name = os.path.basename(own)[:-len(".py")]
            if name not in sys.modules:
                sys.modules[name] = load_path(name, own)
        module = load_path(cid, path)
    kindspec.use(module)
    return module


def own_modules(cid):
    """The paths of the modules a further competition's scoring program carries besides its declaration: every
    ``<id>_*.py`` of its folder (its own kinds and what they need; standard library only), in name order. They are
    bundled into its scoring program beside ``evalkit/`` and imported by name."""
    own = os.path.join(COMPETITIONS, cid)
    if not os.path.isdir(own):
        return []
    return [os.path.join(own, name) for name in sorted(os.listdir(own))
            if name.startswith(cid + "_") and name.endswith(".py")]


def load_path(name, path):
    """The Python file at ``path``, imported as module ``name`` (competitions reuse file names such as
    ``reference.py``: each gets a name of its own)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: The bundle- and page-side wording of a competition's subtasks, beside its ``competition.yaml``.
SUBTASKS_YAML = "subtasks.yaml"
_WORDING = {}


def folder(cid=None):
    """The folder a competition is declared in: the repository root for the top-level one (None when ``cid``
    is no hosted competition)."""
    cid = cid or top_level_id()
    own = os.path.join(COMPETITIONS, cid)
    if os.path.isfile(os.path.join(own, cid + ".py")):
        return own
    return ROOT if cid == top_level_id() else None


def wording(cid=None):
    """The competition's ``subtasks.yaml`` (``{"subtasks": {id: {...}}, "phase_splits": {...}, "sizes": {...}}``),
    read once;
    empty sections when it has none. What each key means is said in the top-level ``subtasks.yaml``."""
    cid = cid or top_level_id()
    if cid not in _WORDING:
        import yaml
        path = os.path.join(folder(cid) or "", SUBTASKS_YAML)
        data = {}
        if folder(cid) and os.path.isfile(path):
            with open(path, encoding="utf-8") as handle:
                data = yaml.safe_load(handle) or {}
        if not isinstance(data, dict) or not isinstance(data.get("subtasks") or {}, dict):
            raise RuntimeError("%s: expected a mapping with a `subtasks` mapping" % path)
        _WORDING[cid] = {"subtasks": data.get("subtasks") or {}, "phase_splits": data.get("phase_splits") or {},
                         "sizes": data.get("sizes") or {}, "organiser_notes": data.get("organiser_notes") or [],
                         "floor": data.get("floor") or {},
                         "path": path}
    return _WORDING[cid]


def subtask_wording(subtask, cid=None):
    """The wording of one subtask (its mapping in ``subtasks.yaml``; empty when it declares none)."""
    return wording(cid)["subtasks"].get(subtask) or {}


def extra_phases(subtask, cid=None):
    """The extra phases ``subtask`` declares (``extra_phases`` of its wording), in order."""
    return list(subtask_wording(subtask, cid).get("extra_phases") or [])


def generated_reference_files(cid=None):
    """The file names of the generated references of every extra phase (no scored reference files)."""
    return set(extra["reference_file"] for subtask in wording(cid)["subtasks"]
               for extra in extra_phases(subtask, cid) if extra.get("reference_file"))


def check_submission(reference_file, cid=None):
    """What ``make check`` submits to the extra phase whose generated reference is ``reference_file``
    (its ``check_submission``: fixed ``files`` and a ``per_language`` file), or None."""
    for subtask in wording(cid)["subtasks"]:
        for extra in extra_phases(subtask, cid):
            if extra.get("reference_file") == reference_file:
                return extra.get("check_submission")
    return None


# --------------------------------------------------------------------------- a hosted competition, as the tools see it

#: The optional module of a competition's builders folder that gives the bundle builder its own page values and
#: logo (``page_values(context)``, ``logo_png()``, ``build_warnings(context)``; see organiser/bundle.py).
HOOKS_MODULE = "bundle_hooks.py"


class Hosted(object):
    """Where everything of one hosted competition is, for the organiser's tools (one road for every competition).

    ``folder``: its bundle source (``competition.yaml``, ``subtasks.yaml``, ``schedule.yaml``, ``pages/``,
    ``starting_kit/``): the repository's top level for the top-level competition, ``competitions/<id>/`` for the
    others. ``builders``: its organiser-side builders (``reference.py``, ``baselines.py``, an optional
    ``bundle_hooks.py``), always ``competitions/<id>/``. ``program``: the folder holding its scoring program's
    ``evaluate.py``, declaration and ``metadata`` (``scoring_program/`` for the top-level one), zipped with
    ``scoring_program/evalkit``.
    """

    def __init__(self, cid=None):
        self.cid = cid or top_level_id()
        if self.cid not in hosted_ids():
            raise RuntimeError("no hosted competition %r (hosted: %s)" % (self.cid, ", ".join(hosted_ids())))
        self.declaration = load(self.cid)
        self.top_level = self.cid == top_level_id()
        self.folder = folder(self.cid)
        self.builders = os.path.join(COMPETITIONS, self.cid)
        self.program = SCORING_PROGRAM if self.top_level else self.folder
        self.source = os.path.join(self.folder, "competition.yaml")
        self.schedule = os.path.join(self.folder, "schedule.yaml")
        self.pages = os.path.join(self.folder, "pages")
        self.starting_kit = os.path.join(self.folder, "starting_kit")

    def out(self, root):
        """Its build folder under ``root`` (``dist``): ``root`` itself for the top-level competition, else
        ``root/<id>``."""
        return root if self.top_level else os.path.join(root, self.cid)

    def builder(self, name):
        """The path of its organiser-side builder ``name`` (``reference.py``, ``baselines.py``)."""
        return os.path.join(self.builders, name)

    def subtasks(self):
        """Its subtasks' ids, in declared order."""
        return list(self.declaration.SUBTASKS)

    def stem(self, subtask):
        """The file stem of a subtask's bundle: the id alone when the subtask is the competition itself
        (``lince``), else ``<id>-<subtask>`` (``st2024-constrained``)."""
        return self.cid if subtask == self.cid else "%s-%s" % (self.cid, subtask)

    def hooks(self):
        """Its ``bundle_hooks`` module (loaded once), or None when it has none."""
        if not hasattr(self, "_hooks"):
            path = os.path.join(self.builders, HOOKS_MODULE)
            self._hooks = None
            if os.path.isfile(path):
                self._hooks = load_path("%s_bundle_hooks" % self.cid, path)
        return self._hooks

    def hook(self, name, default=None):
        """The function ``name`` of its hooks module, or ``default``."""
        module = self.hooks()
        return getattr(module, name, default) if module is not None else default
