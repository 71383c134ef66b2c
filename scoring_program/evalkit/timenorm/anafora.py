"""A safe reader for Anafora XML annotation files.

Anafora files are small XML documents (``<data><annotations><entity>...``). The reader refuses any document type
declaration (so no DTD, no internal or external entity can be declared, hence no "billion laughs" and no external
entity fetch), refuses references to undeclared entities (expat reports them), and bounds the file size, the
element count and the nesting depth. Every problem raises :class:`evalkit.messages.DataError` naming the file,
the position (line and column, or the entity id) and what was expected versus what was found.
"""
import re
import xml.parsers.expat

from ..loading import read_bounded
from ..messages import DataError, quoted

MAX_BYTES = 20 * 1024 * 1024
MAX_ELEMENTS = 500000
MAX_DEPTH = 32
MAX_SPANS = 64


class Element(object):
    """A minimal XML element: tag, children, text (concatenated character data), source line and attributes
    (``{name: value}``, what a file that writes values as attributes is told about)."""

    __slots__ = ("tag", "children", "parts", "line", "attributes")

    def __init__(self, tag, line, attributes=None):
        self.tag = tag
        self.children = []
        self.parts = []
        self.line = line
        self.attributes = attributes or {}

    @property
    def text(self):
        """The element's own character data, stripped."""
        return "".join(self.parts).strip()

    def find_all(self, tag):
        """Children with this tag, in document order."""
        return [child for child in self.children if child.tag == tag]


def _refuse(name, what):
    def handler(*args):
        raise _Refused(what)
    handler.__name__ = name
    return handler


class _Refused(Exception):
    pass


def parse_xml(data, file):
    """Parse ``data`` (bytes) into an :class:`Element` tree, refusing DTDs and entities.

    >>> parse_xml(b"<data><a>1</a></data>", "x.xml").children[0].text
    '1'
    """
    if len(data) > MAX_BYTES:
        raise DataError(file, "", "expected at most %d bytes, got %d" % (MAX_BYTES, len(data)))
    if not data.strip():
        raise DataError(file, "whole file", "expected Anafora XML (<data><annotations>...), got an empty file (%d "
                        "bytes)" % len(data))
    parser = xml.parsers.expat.ParserCreate()
    parser.SetParamEntityParsing(xml.parsers.expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.StartDoctypeDeclHandler = _refuse("doctype", "a document type declaration (DTD)")
    parser.EntityDeclHandler = _refuse("entity", "an entity declaration")
    parser.ExternalEntityRefHandler = _refuse("external", "an external entity reference")
    root_holder = []
    stack = []
    closed = []   # (tag, line) of the root element's end
    count = [0]

    def start(tag, attributes):
        count[0] += 1
        if count[0] > MAX_ELEMENTS:
            raise _Refused("more than %d elements" % MAX_ELEMENTS)
        if len(stack) >= MAX_DEPTH:
            raise _Refused("elements nested deeper than %d" % MAX_DEPTH)
        element = Element(tag, parser.CurrentLineNumber, attributes)
        if stack:
            stack[-1].children.append(element)
        else:
            root_holder.append(element)
        stack.append(element)

    def end(tag):
        stack.pop()
        if not stack:
            closed.append((tag, parser.CurrentLineNumber))

    def chars(text):
        if stack:
            stack[-1].parts.append(text)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    try:
        parser.Parse(data, True)
    except _Refused as error:
        where = "line %d, column %d" % (parser.CurrentLineNumber, parser.CurrentColumnNumber + 1)
        raise DataError(file, where, "expected plain Anafora XML, got %s (refused)" % error)
    except xml.parsers.expat.ExpatError as error:
        where = "line %d, column %d" % (error.lineno, error.offset + 1)
        after = (" (the root element <%s> ended on line %d: the file goes on after it; two documents in one file, or "
                 "a stray end tag?)" % (closed[0][0], closed[0][1])) if closed else ""
        raise DataError(file, where, "expected well-formed XML without entities, got: %s%s"
                        % (xml.parsers.expat.ErrorString(error.code), after or _error_cause(data, error)))
    return root_holder[0]


#: The five entities XML itself defines; any other (``&nbsp;``, ``&eacute;``) is an HTML one.
_XML_ENTITIES = ("amp", "lt", "gt", "quot", "apos")


def _error_cause(data, error):
    """What most likely made expat fail on ``data`` when it is not the XML itself (bytes in another encoding
    than the one declared or implied, an HTML entity), as a sentence to append, or ""."""
    if error.code == xml.parsers.expat.errors.codes.get(xml.parsers.expat.errors.XML_ERROR_UNDEFINED_ENTITY):
        found = re.search(br"&([A-Za-z][A-Za-z0-9]*);", data)
        if found and found.group(1).decode("ascii") not in _XML_ENTITIES:
            return (" (&%s; is an HTML entity: XML knows only &amp; &lt; &gt; &quot; &apos;; write the character "
                    "itself, or &#160;)" % found.group(1).decode("ascii"))
        return ""
    utf16 = _utf16(data)
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    if not utf16 and head and head != b"<":
        return (" (the file does not start with '<' but with %s: it is not XML; is it the document's text, or "
                "another format (JSON, TSV)? Each file holds Anafora XML, <data><annotations><entity>...)"
                % quoted(data.lstrip(b"\xef\xbb\xbf \t\r\n")[:20].decode("utf-8", "replace"), 30))
    declared = re.search(br"<\?xml[^>]*encoding\s*=\s*[\"']([A-Za-z0-9._-]+)",
                         data[:200].decode("utf-16-le" if utf16 == "UTF-16LE" else "utf-16-be", "replace")
                         .encode("ascii", "replace") if utf16 else data[:200])
    name = declared.group(1).decode("ascii") if declared else ""
    if utf16 and not name.lower().startswith("utf-16"):
        return (" (the file is %s, but its XML declaration says encoding=%s: write it in UTF-8, or declare "
                "encoding='UTF-16')" % (utf16, quoted(name, 30) if name else "nothing, so UTF-8"))
    if (declared and name.lower().replace("_", "-") not in ("utf-8", "utf8")) or utf16 or data[:3] == b"\xef\xbb\xbf":
        return ""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as err:
        return (" (the file is not UTF-8%s: byte 0x%02x at offset %d; write it in UTF-8, or declare its encoding in "
                "<?xml version='1.0' encoding='...'?>)" % (", though its XML declaration says so" if declared else "",
                                                          bytearray(data[err.start:err.start + 1])[0], err.start))
    return ""


def _utf16(data):
    """"UTF-16LE" or "UTF-16BE" when ``data`` starts as UTF-16 text does (a byte-order mark, or ``<`` next to a
    zero byte), else ""."""
    if data[:2] == b"\xff\xfe" or data[:2] == b"<\x00":
        return "UTF-16LE"
    if data[:2] == b"\xfe\xff" or data[:2] == b"\x00<":
        return "UTF-16BE"
    return ""


class Entity(object):
    """One Anafora entity: id, type, parentsType, sorted spans and properties.

    ``properties`` maps a property name to the list of its non-empty values, in document order (an empty
    ``<Interval></Interval>`` is absent, as in the reference reader). ``misplaced``: ``(property name, where)``
    of what looks like a property but is not read, as the reference reader does not read it: an element
    directly under ``<entity>`` ("outside <properties>"), or a property whose value is in an attribute
    ("in an attribute").
    """

    __slots__ = ("id", "type", "parents_type", "spans", "properties", "line", "misplaced")

    def __init__(self, id, type, parents_type, spans, properties, line=0, misplaced=()):
        self.id = id
        self.type = type
        self.parents_type = parents_type
        self.spans = sorted(spans)
        self.properties = properties
        self.line = line
        self.misplaced = list(misplaced)

    @property
    def full_span(self):
        """(first start, last end) over the entity's spans."""
        return (min(s for s, _ in self.spans), max(e for _, e in self.spans))

    def values(self, name):
        """The non-empty values of property ``name`` (a list, possibly empty)."""
        return self.properties.get(name, [])

    def __repr__(self):
        return "Entity(%r, %r, %r)" % (self.id, self.type, self.spans)


_LINKS = {}


def link_properties(type_name):
    """The properties of entity type ``type_name`` that the SCATE schema (:data:`.schema.TYPES`) says name entities
    (``Sub-Interval``, ``Repeating-Interval``, ``Number``...); none for a type outside the schema. Only their values
    are links: a plain value (``<Value>7</Value>``, ``<Type>Day</Type>``) is a value, whatever ids the document uses."""
    if not _LINKS:
        from .schema import TYPES   # the schema module reads the interpreter's tables, which read this module
        _LINKS.update((name, frozenset(prop for prop, spec in props.items() if spec.kind == "link"))
                      for name, props in TYPES.items())
    return _LINKS.get(type_name, frozenset())


def links(entity):
    """The value lists of ``entity``'s link properties (see :func:`link_properties`), in property order."""
    names = link_properties(entity.type)
    return [values for name, values in entity.properties.items() if name in names]


class Document(object):
    """The entities of one Anafora file, with id look-up (the last entity of a duplicated id wins, its id listed in
    ``duplicate_ids``) and the reference's "top entities"."""

    def __init__(self, entities, file="", text=None):
        self.entities = entities
        self.file = file
        self.text = text
        self.by_id = {}
        self.duplicate_ids = []
        for entity in entities:
            if entity.id in self.by_id:
                self.duplicate_ids.append(entity.id)
            self.by_id[entity.id] = entity

    def top_entities(self):
        """Entities that no link of any entity names (the roots of the annotation graphs; see :func:`links`)."""
        named = set()
        for entity in self.entities:
            for values in links(entity):
                named.update(values)
        return [entity for entity in self.entities if entity.id not in named]

    def children(self, entity):
        """Entities named by ``entity``'s links, in property order (unknown ids skipped; see :func:`links`)."""
        result = []
        for values in links(entity):
            result.extend(self.by_id[v] for v in values if v in self.by_id)
        return result

    def descendants(self, entity):
        """``entity`` and every entity reachable through properties (each once; cycles are safe)."""
        seen = {entity.id}
        order = [entity]
        index = 0
        while index < len(order):
            for child in self.children(order[index]):
                if child.id not in seen:
                    seen.add(child.id)
                    order.append(child)
            index += 1
        return order

    def expanded_span(self, entity):
        """(min start, max end) over the spans of ``entity`` and all its descendants."""
        spans = [span for e in self.descendants(entity) for span in e.spans]
        return (min(s for s, _ in spans), max(e for _, e in spans))


#: A span: two offsets of 1 to 9 ASCII digits (a document has fewer than a billion characters).
_SPAN = re.compile(r"^\s*([0-9]{1,9})\s*,\s*([0-9]{1,9})\s*$")


def _spans(text, file, where, text_length, outside=None):
    """The spans of a ``<span>`` text; DataError when one is malformed, or ends after the text (``text_length``
    characters) unless ``outside`` is a list: such spans are then appended to it, not to the result."""
    spans = []
    for part in text.split(";"):
        match = _SPAN.match(part)
        if match is None:
            numbers = re.findall(r"[0-9]+", part) if re.match(r"^\s*[0-9]+(\s*,\s*[0-9]+)+\s*$", part) else []
            joined = ";".join("%s,%s" % (numbers[i], numbers[i + 1]) for i in range(0, len(numbers) - 1, 2))
            raise DataError(file, where, "expected a span 'start,end' of two non-negative integers (1 to 9 digits "
                            "0-9 each), got %s%s" % (quoted(part, 40), (
                                " (several spans are separated by ';': %s)" % quoted(joined, 60))
                                if len(numbers) > 2 and len(numbers) % 2 == 0 else _span_hint(part)))
        start, end = int(match.group(1)), int(match.group(2))
        if start > end:
            raise DataError(file, where, "expected span start <= end, got %d,%d (a span is start,end, the end "
                            "excluded: if %d is a length, the span is %d,%d)" % (start, end, end, start, start + end))
        if text_length is not None and end > text_length and outside is not None:
            outside.append((start, end))
            continue
        if text_length is not None and end > text_length:
            raise DataError(file, where, "span %d,%d ends outside the document (%d characters)"
                            % (start, end, text_length))
        spans.append((start, end))
    if len(spans) > MAX_SPANS:
        raise DataError(file, where, "expected at most %d spans, got %d" % (MAX_SPANS, len(spans)))
    return spans


def _span_hint(part):
    """What a span text that is not ``start,end`` most likely meant, as a sentence in brackets, or "": two
    offsets written otherwise (``16-20``, ``(16, 20)``, ``16.0,20.0``), or a negative offset.

    >>> _span_hint("16-20"), _span_hint("-1,4")
    (" (write it '16,20': two integers separated by a comma)", ' (offsets count characters from 0: -1 is no position)')
    """
    if not part.strip():
        return " (an empty span: a ';' with nothing after it, or two in a row?)"
    numbers = re.findall(r"(?<![0-9.])-?[0-9]+(?:\.0+)?(?![0-9.])", part)
    if len(numbers) != 2 or re.search(r"[A-Za-z]", part):
        return ""
    negative = [n for n in numbers if n.startswith("-") and not re.match(r"^\s*[0-9]+\s*-", part)]
    if negative:
        return " (offsets count characters from 0: %s is no position)" % negative[0].split(".")[0]
    if any(len(n.split(".")[0]) > 9 for n in numbers):
        return ""
    values = [int(n.split(".")[0]) for n in numbers]
    return " (write it '%d,%d': two integers separated by a comma)" % (values[0], values[1])


def _single(element, tag, file, where, required=True):
    found = element.find_all(tag)
    if len(found) > 1 or (required and not found):
        held = sorted(element.attributes) if not found else []
        raise DataError(file, where, "expected one <%s>, got %d%s" % (tag, len(found), (
            " (the <%s> element has the attribute(s) %s: Anafora writes each as a child element, <%s>...</%s>)"
            % (element.tag, ", ".join(quoted(name, 20) for name in held[:5]), tag, tag)) if held else ""))
    return found[0].text if found else ""


#: The children of an Anafora ``<entity>`` that are not properties (``<addition>``: Anafora's own notes).
_ENTITY_PARTS = frozenset(["id", "span", "type", "parentsType", "properties", "addition"])


def _entity(element, file, text_length, dropped=None, whole=None):
    """The :class:`Entity` of an ``<entity>`` element; DataError when it is malformed. With a list ``dropped``, an
    entity with a span ending after the text is not refused but dropped: None is returned, ``(id, line, first
    such span)`` appended to ``dropped`` and the entity itself, every span kept, to ``whole``."""
    where = "line %d" % element.line
    entity_id = _single(element, "id", file, where)
    where = "entity %s (line %d)" % (entity_id, element.line)
    entity_type = _single(element, "type", file, where)
    span_elements = element.find_all("span")
    if not span_elements or not span_elements[0].text:
        raise DataError(file, where, "expected a <span>, got none")
    spans, outside = [], ([] if dropped is not None else None)
    for span_element in span_elements:
        spans.extend(_spans(span_element.text, file, where, text_length, outside))
    properties = {}
    misplaced = []
    for child in element.children:
        if child.tag not in _ENTITY_PARTS:   # a property under <entity> itself, or in a wrapper of another name
            misplaced.extend([(grand.tag, "in <%s>, not <properties>," % child.tag) for grand in child.children]
                             or [(child.tag, "outside <properties>")])
    for holder in element.find_all("properties"):
        for prop in holder.children:
            value = prop.text
            properties.setdefault(prop.tag, [])
            if value:
                properties[prop.tag].append(value)
            elif prop.attributes:
                misplaced.append((prop.tag, "in an attribute"))
    if outside:   # dropped before its <parentsType> is checked, as it always was
        dropped.append((entity_id, element.line, outside[0]))
        whole.append(Entity(entity_id, entity_type, "", spans + outside, properties, element.line, misplaced))
        return None
    parents = _single(element, "parentsType", file, where, required=False)
    return Entity(entity_id, entity_type, parents, spans, properties, element.line, misplaced)


def read_anafora(data, file, text=None, drop_outside=False):
    """Read Anafora XML bytes into a :class:`Document`; spans are checked against ``text`` when given.

    A span ending after ``text`` refuses the file (DataError), or with ``drop_outside`` (a prediction: zero only
    what is wrong) drops its entity alone: ``Document.dropped`` lists ``(id, line, span)`` of those dropped, and
    ``Document.dropped_entities`` the entities themselves, every span kept (what :mod:`.mends` reads back when the
    offsets were counted on another text).

    Entities are taken from ``<annotations>``; relations are ignored (SCATE uses none). A link to a duplicated id
    reaches the last entity with that id, as in the reference reader; ``Document.duplicate_ids`` lists them.

    >>> doc = read_anafora(b"<data><annotations><entity><id>1</id><span>0,4</span><type>Year</type>"
    ...                    b"<properties><Value>1998</Value></properties></entity></annotations></data>", "a.xml")
    >>> doc.entities[0].type, doc.entities[0].values("Value"), doc.entities[0].full_span
    ('Year', ['1998'], (0, 4))
    """
    root = parse_xml(data, file)
    if root.tag != "data":
        raise DataError(file, "line %d" % root.line, "expected root element <data>, got <%s>" % root.tag)
    text_length = len(text) if text is not None else None
    entities, dropped, whole = [], ([] if drop_outside else None), []
    for annotations in root.find_all("annotations"):
        for element in annotations.find_all("entity"):
            entity = _entity(element, file, text_length, dropped, whole)
            if entity is not None:
                entities.append(entity)
    document = Document(entities, file, text)
    document.dropped = dropped or []
    document.dropped_entities = whole
    document.stray_entities = stray_entities(root)
    document.other_elements = other_elements(root)
    return document


def other_elements(root):
    """``(count, first line, {tag: count})`` of the elements directly inside an ``<annotations>`` element of the
    tree ``root`` that are not ``<entity>`` (``<relation>``, ``<annotation>``, ...): the reader ignores them (SCATE
    annotations are entities only); ``(0, None, {})`` when there is none.

    >>> other_elements(parse_xml(b"<data><annotations><relation/><relation/><entity/></annotations></data>", "a"))
    (2, 1, {'relation': 2})
    """
    tags, first = {}, None
    for annotations in root.find_all("annotations"):
        for element in annotations.children:
            if element.tag != "entity":
                tags[element.tag] = tags.get(element.tag, 0) + 1
                first = element.line if first is None else min(first, element.line)
    return sum(tags.values()), first, tags


def stray_entities(root):
    """``(count, first line)`` of the ``<entity>`` elements of the tree ``root`` that are not children of an
    ``<annotations>`` element of the root (under ``<data>`` itself, under ``<annotation>``, inside an
    ``<annotations>`` nested in another, ...): the reader, as Anafora's, ignores them, so the document predicts less
    than it holds (``(0, None)`` when there is none).

    >>> stray_entities(parse_xml(b"<data><entity><id>1</id></entity><annotations/></data>", "a.xml"))
    (1, 1)
    >>> stray_entities(parse_xml(b"<data><annotations><annotations><entity/></annotations></annotations></data>", "a"))
    (1, 1)
    """
    count, first = 0, None
    pending = [child for child in root.children if child.tag != "annotations"]
    pending.extend(child for annotations in root.find_all("annotations") for child in annotations.children
                   if child.tag != "entity")
    while pending:
        element = pending.pop()
        if element.tag == "entity":
            count += 1
            first = element.line if first is None else min(first, element.line)
        else:
            pending.extend(element.children)
    return count, first


def read_anafora_file(path, text=None, display=None):
    """Read the Anafora XML file at ``path`` (see :func:`read_anafora`); ``display`` names it in messages."""
    name = display or path
    return read_anafora(read_bounded(path, name, MAX_BYTES), name, text)
