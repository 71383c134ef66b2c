"""The SCATE schema as the interpreter reads it, and the checks of a prediction against it.

:data:`TYPES` maps every entity type of the SCATE schema (``timenorm-schema.xml`` of the public release, the
schema the paper cites) to its properties: a choice among values (the interpreter's own tables of
:mod:`.scate` where it has one), a link to entities of given types, or a text value of a given form; which are
required, which hold one value only. ``tests/test_timenorm_schema.py`` checks it against the release's schema
file. :func:`check_document` reports what a prediction does outside it, since each of these costs score without
failing anything: a type outside the schema matches no gold entity, a misspelt property is not read, a missing
anchor leaves the expression without an interval, a span that cuts a word matches no gold span. One message per
class and file, with counts, the first positions and a "did you mean"; the checks never change a score.

>>> from .anafora import read_anafora
>>> doc = read_anafora(b'<data><annotations><entity><id>1</id><span>0,4</span><type>year</type>'
...                    b'<properties><value>1998</value></properties></entity></annotations></data>', "d.xml")
>>> [m.text for m in check_document(doc, "d.xml")]  # doctest: +NORMALIZE_WHITESPACE
["1 entity has a type outside the SCATE schema (it matches no gold entity and is not interpreted):
  'year' x1 (did you mean Year?); at entity 1 (line 1)"]
"""
import difflib
import re
from collections import OrderedDict

from ..messages import WARNING, Message, quoted
from .scate import MAX_DIGITS, _DECIMAL, _INTEGER, _digit_like, _CALENDAR, _DAYS, _MODIFIERS, _MONTHS, _PARTS_OF_DAY, _PERIOD_UNITS, _SEASONS


class Prop(object):
    """One property of an entity type: ``kind`` "choice" (``values``), "link" (``values``: the entity types it
    may name) or "text" (``values``: the name of its form in :data:`FORMS`); ``required``; ``many``: whether it
    may hold several values."""

    __slots__ = ("kind", "values", "required", "many")

    def __init__(self, kind, values, required, many=False):
        self.kind = kind
        self.values = tuple(values) if kind != "text" else values
        self.required = required
        self.many = many


def _choice(*values):
    return Prop("choice", values, True)


def _link(targets, many=False):
    return Prop("link", targets, False, many)


def _text(form):
    return Prop("text", form, True)


_REPEATING = ("Calendar-Interval", "Season-Of-Year", "Month-Of-Year", "Week-Of-Year", "Day-Of-Month", "Day-Of-Week",
              "Part-Of-Week", "Part-Of-Day", "Hour-Of-Day", "Minute-Of-Hour", "Second-Of-Minute", "Union",
              "Intersection", "Every-Nth")
_INTERVALS = ("Year", "Two-Digit-Year", "This", "Last", "Next", "Before", "After", "Between", "NthFromStart",
              "NthFromEnd", "Event")
_PERIODS = ("Period", "Sum", "Difference")
_ANCHORS = ("Link", "DocTime", "DocTime-Era", "DocTime-Year", "Unknown")
_SEMANTICS = ("Interval-Not-Included", "Interval-Included")
_INCLUDED = ("Not-Included", "Included")
_UNITS = ("Century", "Quarter-Century", "Decade", "Year", "Quarter-Year", "Month", "Week", "Day", "Hour", "Minute",
          "Second")


def _counted(*props):
    """``props`` followed by the Number and Modifier links every repeating interval has."""
    return list(props) + [("Number", _link(["Number"])), ("Modifier", _link(["Modifier"]))]


def _anchored(prefix=""):
    """The anchor of an operator: ``prefix``Interval-Type and ``prefix``Interval."""
    return [(prefix + "Interval-Type", _choice(*_ANCHORS)), (prefix + "Interval", _link(_INTERVALS))]


def _operator(semantics):
    return OrderedDict(([("Semantics", _choice(*_SEMANTICS))] if semantics else []) + _anchored() + [
        ("Period", _link(_PERIODS)), ("Repeating-Interval", _link(_REPEATING))])


def _nth():
    return OrderedDict(_anchored() + [("Value", _text("count")), ("Period", _link(_PERIODS)),
                                      ("Repeating-Interval", _link(_REPEATING))])


#: Entity type -> OrderedDict(property -> :class:`Prop`).
TYPES = OrderedDict([
    ("Period", OrderedDict(_counted(("Type", _choice(*(list(_PERIOD_UNITS) + ["Quarter-Centuries", "Quarter-Years",
                                                                              "Unknown"])))))),
    ("Calendar-Interval", OrderedDict(_counted(("Type", _choice(*list(_CALENDAR)))))),
    ("Season-Of-Year", OrderedDict(_counted(("Type", _choice(*(["Unknown"] + list(_SEASONS))))))),
    ("Month-Of-Year", OrderedDict(_counted(("Type", _choice(*_MONTHS)),
                                           ("Sub-Interval", _link(["Day-Of-Month"]))))),
    ("Week-Of-Year", OrderedDict(_counted(("Value", _text("week")),
                                          ("Sub-Interval", _link(["Day-Of-Week", "Part-Of-Week"], True))))),
    ("Day-Of-Month", OrderedDict(_counted(("Value", _text("day")),
                                          ("Sub-Interval", _link(["Part-Of-Day", "Hour-Of-Day"], True))))),
    ("Day-Of-Week", OrderedDict(_counted(("Type", _choice(*_DAYS)),
                                         ("Sub-Interval", _link(["Part-Of-Day", "Hour-Of-Day"], True))))),
    ("Part-Of-Week", OrderedDict(_counted(("Type", _choice("Weekdays", "Weekend"))))),
    ("Part-Of-Day", OrderedDict(_counted(("Type", _choice(*(["Dawn", "Day", "Noon", "Dusk", "Midnight", "Unknown"]
                                                            + list(_PARTS_OF_DAY))))))),
    ("AMPM-Of-Day", OrderedDict(_counted(("Type", _choice("AM", "PM"))))),
    ("Hour-Of-Day", OrderedDict(_counted(("Value", _text("hour")), ("AMPM-Of-Day", _link(["AMPM-Of-Day"])),
                                         ("Time-Zone", _link(["Time-Zone"])),
                                         ("Sub-Interval", _link(["Minute-Of-Hour"], True))))),
    ("Minute-Of-Hour", OrderedDict(_counted(("Value", _text("minute")),
                                            ("Sub-Interval", _link(["Second-Of-Minute"], True))))),
    ("Second-Of-Minute", OrderedDict(_counted(("Value", _text("minute"))))),
    ("Time-Zone", OrderedDict()),
    ("Year", OrderedDict([("Value", _text("year")),
                          ("Sub-Interval", _link(["Season-Of-Year", "Month-Of-Year", "Week-Of-Year"], True)),
                          ("Modifier", _link(["Modifier"]))])),
    ("Sum", OrderedDict([("Periods", _link(_PERIODS, True))])),
    ("Difference", OrderedDict([("Period1", _link(_PERIODS)), ("Period2", _link(_PERIODS))])),
    ("Union", OrderedDict([("Repeating-Intervals", _link(_REPEATING, True))])),
    ("Intersection", OrderedDict([("Intervals", _link(_INTERVALS, True)),
                                  ("Repeating-Intervals", _link(_REPEATING, True))])),
    ("Every-Nth", OrderedDict([("Value", _text("count")), ("Repeating-Interval", _link(_REPEATING))])),
    ("Two-Digit-Year", OrderedDict(_anchored() + [
        ("Value", _text("year")), ("Sub-Interval", _link(["Season-Of-Year", "Month-Of-Year", "Week-Of-Year"], True))])),
    ("This", OrderedDict(_anchored() + [("Period", _link(_PERIODS)), ("Repeating-Interval", _link(_REPEATING))])),
    ("Last", _operator(True)),
    ("Next", _operator(True)),
    ("Before", _operator(True)),
    ("After", _operator(True)),
    ("Between", OrderedDict(_anchored("Start-") + [("Start-Included", _choice(*_INCLUDED))] + _anchored("End-")
                            + [("End-Included", _choice(*_INCLUDED))])),
    ("NthFromStart", _nth()),
    ("NthFromEnd", _nth()),
    ("Number", OrderedDict([("Value", _text("number"))])),
    ("Modifier", OrderedDict([("Type", _choice(*sorted(_MODIFIERS)))])),
    ("Frequency", OrderedDict(_counted(("Type", _choice(*(_UNITS + ("Other",)))),
                                       ("Every", _link(("Frequency",) + _REPEATING))))),
    ("Event", OrderedDict()),
    ("PreAnnotation", OrderedDict()),
    ("NotNormalizable", OrderedDict()),
])

#: Every property name of the schema.
_PROPERTY_NAMES = frozenset(name for props in TYPES.values() for name in props)

#: Text forms: name -> (regular expression, integer range or None, what is expected).
FORMS = {
    "year": (r"[0-9]{1,4}[?]*", None, "1 to 4 characters: digits 0-9, then '?' for unknown digits (199?)"),
    "count": (r"[0-9]{1,%d}" % MAX_DIGITS, (1, None), "a whole number of at least 1 (digits 0-9)"),
    "day": (r"[0-9]{1,2}", (1, 31), "a day of the month, 1-31"),
    "hour": (r"[0-9]{1,2}", (0, 24), "an hour, 0-24"),
    "minute": (r"[0-9]{1,2}", (0, 59), "0-59"),
    "week": (r"[0-9]{1,2}", (0, 54), "a week of the year, 0-54"),
    "number": (None, None, "an integer or a decimal of at most %d digits 0-9, '?', or words" % MAX_DIGITS),
}

#: Other names participants give to schema types and properties (compared after :func:`_folded`).
ALIASES = {"nth": "NthFromStart", "season": "Season-Of-Year", "weekday": "Day-Of-Week", "day": "Day-Of-Month",
           "month": "Month-Of-Year", "hour": "Hour-Of-Day", "minute": "Minute-Of-Hour", "second": "Second-Of-Minute",
           "week": "Week-Of-Year", "ampm": "AMPM-Of-Day", "timezone": "Time-Zone", "duration": "Period",
           "calendar": "Calendar-Interval", "unit": "Calendar-Interval", "anchor": "Interval"}

#: At most this many distinct items and positions are named in one message.
SHOWN = 3


def _folded(name):
    """``name`` lower-cased without anything but letters and digits: "Day_of_week" and "DayOfWeek" fold alike."""
    return re.sub(r"[^0-9a-z]", "", name.lower())


def suggest(name, choices):
    """The one of ``choices`` that ``name`` most likely means (case, separators, :data:`ALIASES`, a close
    spelling), or "".

    >>> suggest("day_of_week", TYPES), suggest("value", ["Value", "Type"]), suggest("Intervall-Type", ["Interval-Type"])
    ('Day-Of-Week', 'Value', 'Interval-Type')
    """
    folded = dict((_folded(choice), choice) for choice in choices)
    key = _folded(name)
    if key in folded:
        return folded[key]
    alias = ALIASES.get(key)
    if alias in choices:
        return alias
    close = difflib.get_close_matches(key, list(folded), n=1, cutoff=0.8)
    return folded[close[0]] if close else ""


class ProblemClass(object):
    """One class of problem in one file: counts per item (with a suggestion) and the first positions."""

    def __init__(self, what):
        self.what = what
        self.count = 0
        self.items = OrderedDict()
        self.positions = []

    def add(self, entity, item, hint=""):
        self.count += 1
        self.items.setdefault(item, [0, hint])[0] += 1
        position = "entity %s (line %d)" % (entity.id, entity.line)
        if len(self.positions) <= SHOWN and position not in self.positions:
            self.positions.append(position)

    def message(self, file):
        shown = []
        for item, (count, hint) in list(self.items.items())[:SHOWN]:
            shown.append("%s x%d%s" % (item, count, " (did you mean %s?)" % hint if hint else ""))
        more = len(self.items) - SHOWN
        text = "%d %s: %s%s; at %s%s" % (
            self.count, self.what[0] if self.count == 1 else self.what[1], ", ".join(shown),
            ", and %d more" % more if more > 0 else "", ", ".join(self.positions[:SHOWN]),
            ", ..." if len(self.positions) > SHOWN else "")
        return Message(file, WARNING, self.positions[0], text)


_WHAT = OrderedDict([
    ("type", ("entity has a type outside the SCATE schema (it matches no gold entity and is not interpreted)",
              "entities have a type outside the SCATE schema (they match no gold entity and are not interpreted)")),
    ("property", ("property is not one of its entity type's in the SCATE schema (it is not interpreted, but composition "
                  "F1 compares every property of an entity, so its entity matches no gold entity there: remove it, or "
                  "name the schema's property)",
                  "properties are not ones of their entity type's in the SCATE schema (they are not interpreted, but "
                  "composition F1 compares every property of an entity, so an entity holding one matches no gold "
                  "entity there: remove them, or name the schema's properties)")),
    ("number", ("value of a numeric property is not written as the gold writes it (digits, no leading zero, no decimal "
                "part; composition F1 compares values as written)",
                "values of numeric properties are not written as the gold writes them (digits, no leading zero, no "
                "decimal part; composition F1 compares values as written)")),
    ("value", ("property value is not of the form the SCATE schema gives (it cannot be read as intended)",
               "property values are not of the form the SCATE schema gives (they cannot be read as intended)")),
    ("required", ("entity lacks a property the SCATE schema requires (it gets no interval)",
                  "entities lack a property the SCATE schema requires (they get no interval)")),
    ("blank", ("span starts or ends on whitespace (its offsets include the space before or after the word: a byte-level "
               "BPE tokenizer's offsets, trim_offsets=False?): strip the whitespace from the span (start it on the "
               "word's first character, end it after its last), do not shift the offsets",
               "spans start or end on whitespace (their offsets include the space before or after the word: a "
               "byte-level BPE tokenizer's offsets, trim_offsets=False?): strip the whitespace from each span (start "
               "it on the word's first character, end it after its last), do not shift the offsets")),
    ("punctuation", ("span includes punctuation at its edge that the gold leaves out (a whitespace tokenizer's tokens?): "
                     "end the span before it (an abbreviation's final '.', as in 'Aug.', stays)",
                     "spans include punctuation at their edges that the gold leaves out (a whitespace tokenizer's "
                     "tokens?): end each span before it, start it after it (an abbreviation's final '.', as in "
                     "'Aug.', stays)")),
    ("span", ("span starts or ends inside a word or on a space, or is empty (gold spans almost never do: is an "
              "offset off by one?)",
              "spans start or end inside a word or on a space, or are empty (gold spans almost never do: is an "
              "offset off by one?)")),
    ("placement", ("property is outside its entity's <properties> element or holds its value in an attribute (it is "
                   "not read: write <properties><Value>1998</Value></properties>)",
                   "properties are outside their entity's <properties> element or hold their value in an attribute "
                   "(they are not read: write <properties><Value>1998</Value></properties>)")),
    ("repeat", ("entity repeats an earlier entity of the file (same spans, type and properties, another id): a "
                "repeated time expression is one more that pairs with no gold one, and costs interval precision",
                "entities repeat an earlier entity of the file (same spans, type and properties, another id): a "
                "repeated time expression is one more that pairs with no gold one, and costs interval precision")),
])

#: The types of TimeML (TIMEX3 and its types, events, signals): a file that uses them is a TimeML annotation.
TIMEML_TYPES = frozenset(["TIMEX3", "DATE", "TIME", "DURATION", "SET", "EVENT", "SIGNAL", "MAKEINSTANCE", "TLINK",
                          "ALINK", "SLINK"])
#: Said once in the type class's message when a file uses :data:`TIMEML_TYPES`.
TIMEML_NOTE = (" %s %s TimeML: is this a TimeML annotation (such as the data's .TimeML.gold.completed.xml files)? A "
               "SCATE file annotates a date by its parts (Year, Month-Of-Year, Day-Of-Month...) linked by properties.")


def _is_number(value):
    return bool(_INTEGER.match(value) or _DECIMAL.match(value))


#: A link value written as a span (``16,20``) rather than an entity id.
_SPAN_LIKE = re.compile(r"^\s*[0-9]+\s*,\s*[0-9]+\s*(;\s*[0-9]+\s*,\s*[0-9]+\s*)*$")


def _same_number(value, document):
    """The one id of ``document`` whose first ``@``-part (Anafora's entity number) is the one of ``value`` when
    ``value`` is an Anafora id or a bare number naming no entity (``2@e@doc@gold`` or ``2`` for the entity
    ``2@e@doc@system``, ``2@e@doc@system`` for the entity ``2``), else "" (also when two ids have that number)."""
    if "@" not in value and not value.isdigit():
        return ""
    number = value.split("@", 1)[0]
    numbers = getattr(document, "ids_by_number", None)
    if numbers is None:
        numbers = {}
        for ident in document.by_id:
            key = ident.split("@", 1)[0]
            numbers[key] = "" if key in numbers else ident
        document.ids_by_number = numbers
    return numbers.get(number, "")


def _value_problem(prop, value, document):
    """(what is wrong, did-you-mean) for one value of ``prop``, or None when it fits."""
    if prop.kind == "choice":
        if value in prop.values:
            return None
        return "must be one of %s" % ", ".join(prop.values[:6]) + (", ..." if len(prop.values) > 6 else ""), \
            suggest(value, prop.values)
    if prop.kind == "link":
        target = document.by_id.get(value)
        if target is None:
            if _SPAN_LIKE.match(value):
                return "names no entity of the file (a link holds the <id> of the entity it names, not its span)", ""
            return "names no entity of the file", _same_number(value, document)
        if target.type in prop.values or target.type not in TYPES:
            return None
        return "names a %s, expected %s" % (target.type, " or ".join(prop.values[:4])
                                            + (" or ..." if len(prop.values) > 4 else "")), ""
    pattern, bounds, expected = FORMS[prop.values]
    if pattern is None:   # a Number: what the interpreter reads as a number, or words (a vague number)
        return ("expected %s" % expected, "") if _digit_like(value) and not _is_number(value) else None
    if re.match("(?:%s)$" % pattern, value, re.S):
        number = int(value) if bounds and value.isdigit() else None
        if number is None or (number >= bounds[0] and (bounds[1] is None or number <= bounds[1])):
            return None
    return "expected %s" % expected, ""


#: Number words and the digits the gold writes for them (a Number's or a count's Value).
NUMBER_WORDS = dict((word, str(n)) for n, word in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen "
    "eighteen nineteen twenty".split()))
NUMBER_WORDS.update({"thirty": "30", "forty": "40", "fifty": "50", "sixty": "60", "hundred": "100", "a dozen": "12",
                     "dozen": "12", "half": "0.5"})
_FLOAT = re.compile(r"^([0-9]+)\.0+$")


def numeric_reading(prop, value):
    """``(value as the gold writes it, form)`` for a value of a numeric property (:data:`FORMS`) written otherwise:
    with a decimal part of zeros (``1998.0``, a float of pandas: form "decimal part"), a leading zero (``07``:
    "leading zero"; not in a year, where ``05`` is a Two-Digit-Year), a number word (``three`` for a Number or a
    count: "number word"); else None.

    >>> [numeric_reading(TYPES[t]["Value"], v) for t, v in [("Year", "1998.0"), ("Day-Of-Month", "07"),
    ...                                                      ("Number", "three"), ("Two-Digit-Year", "05"), ("Number", "2.5")]]
    [('1998', 'decimal part'), ('7', 'leading zero'), ('3', 'number word'), None, None]
    """
    if prop.kind != "text":
        return None
    found = _FLOAT.match(value)
    if found:
        whole = found.group(1) if prop.values == "year" else found.group(1).lstrip("0") or "0"
        return whole, "decimal part"
    if prop.values != "year" and len(value) > 1 and value[0] == "0" and value.isdigit():
        return value.lstrip("0") or "0", "leading zero"
    if prop.values in ("number", "count") and value.strip().lower() in NUMBER_WORDS:
        return NUMBER_WORDS[value.strip().lower()], "number word"
    return None


def _check_properties(entity, props, document, found):
    """Report ``entity``'s properties outside ``props`` and values that do not fit, and what looks like a
    property but is not read (outside ``<properties>``, in an attribute); return the names of the schema properties
    that an unknown or misplaced property probably meant (not to report them missing too)."""
    meant = set()
    for name, where in entity.misplaced:
        hint = suggest(name, props)
        if hint or name in _PROPERTY_NAMES:   # an element of another kind (a note, say) is no property
            meant.add(hint)
            found["placement"].add(entity, "%s %s on %s" % (quoted(name, 40), where, entity.type),
                                   hint if hint != name else "")
    for name, values in entity.properties.items():
        prop = props.get(name)
        if prop is None:
            hint = suggest(name, props)
            meant.add(hint)
            found["property"].add(entity, "%s on %s" % (quoted(name, 40), entity.type), hint)
            continue
        if len(values) > 1 and not prop.many:
            found["value"].add(entity, "%s of %s: %d values, the schema allows one" % (name, entity.type, len(values)))
        for value in values:
            reading = numeric_reading(prop, value)
            if reading is not None:
                found["number"].add(entity, "%s of %s %s (%s)" % (name, entity.type, quoted(value, 40), reading[1]),
                                    "'%s'" % reading[0])
                found["number"].zeros = getattr(found["number"], "zeros", 0) + (reading[1] == "leading zero")
                continue
            problem = _value_problem(prop, value, document) or _short_year(entity, name, value)
            if problem is not None:
                found["value"].add(entity, "%s of %s %s: %s" % (name, entity.type, quoted(value, 40), problem[0]),
                                   problem[1])
    return meant


def _short_year(entity, name, value):
    """(what is wrong, did-you-mean) for a Year whose Value has one or two digits (the year 98 of our era, where
    the text says '98: a Two-Digit-Year, or 1998), else None."""
    if entity.type != "Year" or name != "Value" or not value.isdigit() or len(value) > 2:
        return None
    return ("a Year of %d digit(s) is the year %s of our era (write '98 as a Two-Digit-Year, or as the Year 1998)"
            % (len(value), value.lstrip("0") or "0"), "")


def _check_required(entity, props, meant, found):
    for name, prop in props.items():
        if prop.required and not entity.values(name) and name not in meant:
            found["required"].add(entity, "%s without %s" % (entity.type, name))
        if name.endswith("Interval-Type") and entity.values(name) == ["Link"]:
            linked = name[:-len("-Type")]
            if not entity.values(linked) and linked not in meant:
                found["required"].add(entity, "%s with %s Link without %s" % (entity.type, name, linked))


def _cuts(text, start, end):
    """Whether the span [start, end) of ``text`` is empty, starts or ends on a space, or cuts a run of letters
    (digits are not words here: the gold splits "19980303" into a year, a month and a day)."""
    if start >= end:
        return True
    if text[start].isspace() or text[end - 1].isspace():
        return True
    return ((0 < start and text[start - 1].isalpha() and text[start].isalpha())
            or (end < len(text) and text[end - 1].isalpha() and text[end].isalpha()))


#: Punctuation the SCATE gold leaves out of a span at its start or its end (a whitespace tokenizer keeps it: ``Friday,``
#: ``1998.`` ``(Monday)``); a final ``.`` only where it ends a sentence, not an abbreviation (:func:`edge_trim`).
EDGE_START = frozenset("([{\"\u201c")
EDGE_END = frozenset(",;:!?)]}\"\u201d")
#: Words of at most four letters that are no abbreviation (``May.`` ends a sentence); a longer word before a final
#: ``.`` is one, but for these abbreviations the gold writes (``Aug.``, ``Sept.``, ``Thurs.``, ``a.m.`` has dots inside).
_FULL_SHORT = frozenset(["may", "june", "july", "now", "day", "days", "week", "year", "noon", "date", "time", "ago",
                         "hour", "next", "last", "late", "eve"])
_LONG_ABBREVIATIONS = frozenset(["thurs", "sept"])


def _sentence_end(text, start, end):
    """Whether the ``.`` at ``end - 1`` of the span [start, end) ends a sentence rather than an abbreviation: after a
    digit (``1998.``), after a whole word (``Friday.``, ``May.``), not after ``Aug`` or ``a.m``."""
    word = end - 1
    while word > start and text[word - 1].isalpha():
        word -= 1
    letters = text[word:end - 1]
    if not letters:
        return end - 2 >= start and text[end - 2].isdigit()
    if word > start and text[word - 1] == ".":   # a.m., U.S.
        return False
    folded = letters.lower()
    return folded in _FULL_SHORT or (len(letters) >= 5 and folded not in _LONG_ABBREVIATIONS)


def edge_trim(text, start, end):
    """``(start, end, form)`` of the span [start, end) of ``text`` without the whitespace (form "whitespace") or the
    punctuation the gold leaves out (form "punctuation": :data:`EDGE_START`, :data:`EDGE_END`, a ``.`` that ends a
    sentence) at its edges, or None when it has none, or nothing would be left.

    >>> text = "on Friday, (Monday) Aug. 1998. a.m."
    >>> [edge_trim(text, s, e) for s, e in [(3, 10), (11, 19), (20, 24), (25, 30), (31, 35), (2, 9)]]
    [(3, 9, 'punctuation'), (12, 18, 'punctuation'), None, (25, 29, 'punctuation'), None, (3, 9, 'whitespace')]
    """
    new_start, new_end, form = start, end, None
    while new_start < new_end:
        if text[new_start].isspace():
            new_start, form = new_start + 1, form or "whitespace"
        elif text[new_end - 1].isspace():
            new_end, form = new_end - 1, form or "whitespace"
        elif text[new_start] in EDGE_START:
            new_start, form = new_start + 1, form or "punctuation"
        elif text[new_end - 1] in EDGE_END or (text[new_end - 1] == "." and _sentence_end(text, new_start, new_end)):
            new_end, form = new_end - 1, form or "punctuation"
        else:
            break
    if form is None or new_start >= new_end or end > len(text):
        return None
    return new_start, new_end, form


#: The classes :func:`check_document` reports by default: what costs score whatever is scored (entity
#: identification included). A missing required property costs only interval scores.
READING = ("type", "property", "number", "value", "blank", "punctuation", "span", "placement", "repeat", "phrase")


#: The span class's words when the spans were found counted on another text (said before: evalkit/timenorm/mends.py).
_EXPLAINED = ("span starts or ends inside a word or on a space, or is empty (this follows from the offsets counted on "
              "another text, the warning before)",
              "spans start or end inside a word or on a space, or are empty (this follows from the offsets counted on "
              "another text, the warning before)")


def check_document(document, file, classes=READING, explained=False):
    """The warnings for a prediction ``document`` read from ``file``: at most one :class:`Message` per class
    of ``classes`` (among "type", "property", "number", "value", "required", "blank", "punctuation", "span",
    "placement", "repeat", "phrase"; spans are checked against
    ``document.text`` when known). ``explained``: the file's offsets were found counted on another text (a
    warning said so before): the span class names that cause instead of guessing one."""
    found = OrderedDict((key, ProblemClass(_EXPLAINED if key == "span" and explained else what))
                        for key, what in _WHAT.items())
    text = document.text
    timeml, cut, seen = [], [], {}
    edges = not explained and text is not None and not _ends_too_far(document.entities, text)
    for entity in document.entities:
        props = TYPES.get(entity.type)
        if props is None:
            found["type"].add(entity, quoted(entity.type, 40), suggest(entity.type, TYPES)
                              if entity.type.upper() not in TIMEML_TYPES else "")
            if entity.type.upper() in TIMEML_TYPES and entity.type not in timeml:
                timeml.append(entity.type)
        else:
            meant = _check_properties(entity, props, document, found)
            _check_required(entity, props, meant, found)
        if text is not None:
            bad = []
            for start, end in entity.spans:
                trim = edge_trim(text, start, end) if edges else None
                if trim is not None and _cuts(text, trim[0], trim[1]):
                    trim = None   # a word cut besides: another mistake (a shift), said by the span class
                if trim is not None and trim[2] == "punctuation":
                    found["punctuation"].add(entity, "%d,%d %s" % (start, end, quoted(text[start:end], 30)),
                                             "%d,%d %s" % (trim[0], trim[1], quoted(text[trim[0]:trim[1]], 30)))
                elif trim is not None:
                    found["blank"].add(entity, "%d,%d %s" % (start, end, quoted(text[start:end], 30)),
                                       "%d,%d %s" % (trim[0], trim[1], quoted(text[trim[0]:trim[1]], 30)))
                elif _cuts(text, start, end):
                    bad.append((start, end))
            if bad:
                start, end = bad[0]
                found["span"].add(entity, "%d,%d %s" % (start, end, quoted(text[start:end], 30)))
                cut.extend(bad)
        key = _entity_key(entity, document)
        if key in seen:
            found["repeat"].add(entity, "%s %s (as entity %s)" % (entity.type, _span_text(entity), quoted(seen[key], 40)))
        else:
            seen[key] = entity.id
    if found["number"].count and found["number"].count == getattr(found["number"], "zeros", 0) < MIN_ZEROS:
        found["number"].count = 0   # a leading zero or two: the gold writes one now and then (an hour '07')
    if found["punctuation"].count < MIN_PUNCTUATION:
        found["punctuation"].count = 0
    messages = []
    for key in found:
        if key in classes and found[key].count:
            message = found[key].message(file)
            if key == "type" and timeml:
                message.text += TIMEML_NOTE % (", ".join(timeml[:4]), "is" if len(timeml) == 1 else "are")
            if key == "span" and text is not None and not explained:
                message.text += shifted_spans(text, cut)
            messages.append(message)
    if text is not None and "phrase" in classes:
        messages.extend(phrase_spans(document, file))
    return messages


#: The number-value class is said for leading zeros alone from this many on (the release's gold has one, an hour
#: '07', in 2138 spans); the punctuation class from this many spans on (the gold has none).
MIN_ZEROS = 2
MIN_PUNCTUATION = 2


def _ends_too_far(entities, text):
    """Whether spans end on whitespace (two at least) and none starts on it: end offsets one too far (inclusive
    ends, or 1 added to them), which the span class names, not whitespace kept by a tokenizer."""
    ends = 0
    for entity in entities:
        for start, end in entity.spans:
            if start < end <= len(text):
                if text[start].isspace():
                    return False
                ends += text[end - 1].isspace()
    return ends >= 2


def phrase_spans(document, file):
    """The warning when entities of different types share one span of several words (TimeML-style extents: every
    entity spans the whole time expression, 'last Friday' for Last and Day-Of-Week alike): the gold's entities of
    different types never do (each spans its own words), so all but one of each such group match no gold entity.
    [] when none do.

    >>> from .anafora import Document, Entity
    >>> entities = [Entity("1", "Last", "", [(0, 11)], {}), Entity("2", "Day-Of-Week", "", [(0, 11)], {})]
    >>> print(phrase_spans(Document(entities, "d", "last Friday"), "f.xml")[0].text.split(":")[0])
    2 of the 2 entities share a span of several words with entities of other types (1 span, such as 0,11 'last Friday' for Day-Of-Week, Last)
    """
    text = document.text
    groups = OrderedDict()
    for entity in document.entities:
        groups.setdefault(tuple(entity.spans), []).append(entity)
    shared = [(spans, group) for spans, group in groups.items() if len(set(e.type for e in group)) > 1
              and len(" ".join(text[s:e] for s, e in spans).split()) > 1]
    if not shared:
        return []
    count = sum(len(group) for _, group in shared)
    shown = "; ".join("%s %s for %s" % (_span_text(group[0]), quoted(" ".join(text[s:e] for s, e in spans), 40),
                                        ", ".join(sorted(set(e.type for e in group))))
                      for spans, group in shared[:SHOWN])
    first = shared[0][1][0]
    return [Message(file, WARNING, "entity %s (line %d)" % (first.id, first.line), (
        "%d of the %d entities share a span of several words with entities of other types (%d span%s, such as %s%s): "
        "does every entity span the whole time expression, as a TimeML TIMEX3 does? In SCATE each entity spans its "
        "own words ('last' for Last, 'Friday' for Day-Of-Week); the gold's entities of different types never share a "
        "span of several words, so all but one entity of each such span match no gold entity (identification and "
        "composition F1, and the intervals that need them): give each entity the span of its own words." % (
            count, len(document.entities), len(shared), "" if len(shared) == 1 else "s", shown,
            "; ..." if len(shared) > SHOWN else "")))]


def _span_text(entity):
    """The spans of ``entity`` as written in Anafora (``start,end;start,end``)."""
    return ";".join("%d,%d" % span for span in entity.spans)


def _entity_key(entity, document):
    """What makes two entities of ``document`` the same annotation: spans, type, and properties whose links are
    compared by the spans and type of the entity they name (ids aside)."""
    props = []
    for name in sorted(entity.properties):
        values = []
        for value in entity.properties[name]:
            target = document.by_id.get(value)
            values.append((target.type, tuple(target.spans)) if target is not None and target is not entity else value)
        props.append((name, tuple(values)))
    return tuple(entity.spans), entity.type, tuple(props)


#: The shifts :func:`shifted_spans` tries: a text stripped of its first characters, offsets from 1, ...
SHIFTS = (-3, -2, -1, 1, 2, 3)


def shifted_spans(text, spans):
    """A sentence to add to the span class's message when most of the ``spans`` that cut words would start and end
    on word boundaries shifted by one same number of characters (offsets counted in another text: one stripped of
    its leading blank lines, offsets from 1, end offsets inclusive), else "".

    >>> print(shifted_spans("  May 1998 and June", [(0, 3), (4, 8), (13, 17)]).split(":")[0])
     Shifted by +2 characters, 3 of these 3 spans would start and end on word boundaries
    >>> print(shifted_spans("May 1998 and June", [(0, 2), (4, 7), (13, 16)]).split(":")[0])
     With the end offset one further, 3 of these 3 spans would start and end on word boundaries
    >>> print(shifted_spans("May 1998 and June", [(0, 4), (4, 9), (13, 17)]).split(":")[0])
     With the end offset one nearer, 2 of these 3 spans would start and end on word boundaries
    """
    if len(spans) < 3:
        return ""
    best, fixed = 0, 0
    for delta in SHIFTS:
        count = sum(1 for s, e in spans if 0 <= s + delta < e + delta <= len(text) and not _cuts(text, s + delta, e + delta))
        if count > fixed:
            best, fixed = delta, count
    ends = sum(1 for s, e in spans if e + 1 <= len(text) and not _cuts(text, s, e + 1))
    nearer = sum(1 for s, e in spans if s < e - 1 and not _cuts(text, s, e - 1))
    if max(ends, nearer) >= fixed and 3 * max(ends, nearer) >= 2 * len(spans):   # a tie: the starts were right
        if nearer > ends:
            return (" With the end offset one nearer, %d of these %d spans would start and end on word boundaries: "
                    "does each end count one character too many (1 added to end offsets that already exclude the "
                    "last character)? Anafora's end offset is the first character after the span." % (
                        nearer, len(spans)))
        return (" With the end offset one further, %d of these %d spans would start and end on word boundaries: are "
                "the end offsets inclusive? Anafora's end offset is the first character after the span." % (
                    ends, len(spans)))
    if 3 * fixed < 2 * len(spans):
        return ""
    return (" Shifted by %+d characters, %d of these %d spans would start and end on word boundaries: are the offsets "
            "counted from the start of this document's text, from 0, and with the end excluded?%s" % (
                best, fixed, len(spans), BOM_NOTE.get(best, "")))


#: What :func:`shifted_spans` adds for the shifts a byte-order mark makes: counted as a character, or as UTF-8 bytes.
BOM_NOTE = dict((-width, " A byte-order mark (U+FEFF) at the start of the text counted as %s shifts every offset by "
                 "+%d: count on the text without it (Python: encoding='utf-8-sig')." % (what, width))
                for width, what in ((1, "a character"), (3, "three bytes of UTF-8")))
