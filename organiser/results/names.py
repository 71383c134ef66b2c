"""Team and user names are data: what identifies an entry, what is shown of it, and which entries could be confused.

An entry's identity is ``<kind>:<name>`` (``team:Owls``, ``user:Owls``, ``baseline:floor``): legacy CodaLab names
a team's entries ``"Team <name> "`` and a user's by the user name, so a team and a user of the same name are two
entries, never one. What is shown of a name (:func:`shown`) is one printable line (control and format characters,
lone surrogates written as visible escapes, at most :data:`MAX_NAME` characters); every output then escapes it for
its own format. Two entries whose names could be confused (the same after Unicode compatibility normalisation, case
folding and dropping accents, invisible characters and extra spaces; or rendered alike in the LaTeX or figure
labels) are reported (:func:`confusions`), and entries whose shown names are equal get a qualifier (``Owls
(team)``, ``Owls (user)``) so that no two rows of a table read the same.
"""
import unicodedata

from evalkit.messages import printable

#: At most this many characters of a name are shown (then an ellipsis and the name's length).
MAX_NAME = 120
KINDS = ("team", "user", "baseline")


def identity(kind, name):
    """The identity of an entry: ``kind`` (one of :data:`KINDS`) and the name exactly as the platform gives it."""
    return "%s:%s" % (kind, name)


def shown(name):
    """``name`` as one printable line of at most :data:`MAX_NAME` characters (see the module docstring).

    >>> shown("Owls\\n\\u202e=1+1")
    'Owls\\\\n\\\\u202e=1+1'
    """
    return printable(name, MAX_NAME)


def confusion_key(name):
    """What is left of ``name`` once what people cannot tell apart is gone: compatibility forms (NFKD), case,
    accents and other combining marks, control and format characters (zero-width spaces, direction marks), spaces.

    >>> confusion_key("  \\uff2fwls\\u200b ") == confusion_key("owls") == confusion_key("\\u00d6wls")
    True
    """
    decomposed = unicodedata.normalize("NFKD", name)
    kept = "".join(c for c in decomposed if unicodedata.category(c) not in ("Mn", "Me", "Cf", "Cc", "Cs"))
    return " ".join(kept.casefold().split())


def display_names(entries):
    """``{identity: shown name}`` for ``entries`` (``[(identity, kind, name)]``): :func:`shown`, with ``(kind)``
    appended where two entries would read the same, then ``#2``, ``#3``... should they still."""
    shown_names = dict((ident, shown(name)) for ident, kind, name in entries)
    kinds = dict((ident, kind) for ident, kind, name in entries)
    for group in _groups(shown_names):
        if len(set(kinds[ident] for ident in group)) > 1:
            for ident in group:
                shown_names[ident] = "%s (%s)" % (shown_names[ident], kinds[ident])
    for group in _groups(shown_names):
        for number, ident in enumerate(group[1:], 2):
            shown_names[ident] = "%s #%d" % (shown_names[ident], number)
    return shown_names


def _groups(values):
    """The identities sharing one value of ``values`` (``{identity: value}``), each group sorted, when several."""
    by_value = {}
    for ident in sorted(values):
        by_value.setdefault(values[ident], []).append(ident)
    return [group for group in by_value.values() if len(group) > 1]


def confusions(entries, renderings=()):
    """The warnings about entries that could be confused: ``entries`` is ``[(identity, kind, name, shown name)]``;
    two are confusable when their names have the same :func:`confusion_key`, or when one of ``renderings``
    (functions of the shown name: a LaTeX escape, a figure label) gives them the same text. One warning per group
    of confusable entries, naming each by its kind and name and saying how it is shown."""
    parent = dict((ident, ident) for ident, _, _, _ in entries)

    def root(ident):
        while parent[ident] != ident:
            parent[ident] = parent[parent[ident]]
            ident = parent[ident]
        return ident
    keys = [dict((ident, confusion_key(name)) for ident, _, name, _ in entries)]
    keys += [dict((ident, render(display)) for ident, _, _, display in entries) for render in renderings]
    for values in keys:
        for group in _groups(values):
            for ident in group[1:]:
                parent[root(ident)] = root(group[0])
    clusters = {}
    for ident, kind, name, display in entries:
        clusters.setdefault(root(ident), []).append("%s %s (shown as %s)" % (kind, _quote(name), _quote(display)))
    return ["entries that could be confused: %s; check that they are different participants" % ", ".join(sorted(c))
            for c in sorted(clusters.values()) if len(c) > 1]


def _quote(name):
    return "'%s'" % shown(name)
