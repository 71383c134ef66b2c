"""One HTML well-nestedness checker for the tests of every page the kit generates."""
from html.parser import HTMLParser

VOID_ELEMENTS = frozenset(("area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
                           "track", "wbr"))


class NestingParser(HTMLParser):
    """Collects tags, attributes and text, and an error for every element not closed in order.

    An end tag that does not close the innermost open element is an error (a void element has no
    end tag); if that element is open further out, the elements inside it are closed with it, so
    one mistake gives one error. Subclasses add rules in :meth:`check_start`.
    """

    def __init__(self):
        HTMLParser.__init__(self, convert_charrefs=True)
        self.stack, self.errors, self.tags, self.attrs, self.text = [], [], [], [], []

    def check_start(self, tag, attrs):
        """Called with every start tag and its attributes (a dict); appends to ``errors``."""

    def _start(self, tag, attrs):
        self.tags.append(tag)
        self.attrs.extend((tag, name, value) for name, value in attrs)
        self.check_start(tag, dict(attrs))

    def handle_starttag(self, tag, attrs):
        self._start(tag, attrs)
        if tag not in VOID_ELEMENTS:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self._start(tag, attrs)

    def handle_endtag(self, tag):
        if self.stack and self.stack[-1] == tag:
            self.stack.pop()
            return
        self.errors.append("unexpected </%s> (open: %s)" % (tag, self.stack[-3:]))
        if tag in self.stack:
            while self.stack.pop() != tag:
                pass

    def handle_data(self, data):
        self.text.append(data)
