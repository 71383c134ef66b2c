#!/usr/bin/env python3
"""The rule-based baseline of the SCATE competition: the schema's pre-annotation regular expressions find
candidate time expressions, a few lexical rules type their words as SCATE entities, and simple linking gives
intervals for explicit dates.

    python3 scate_baseline.py --data DIR --split dev --out baseline-dev.zip [--regexes FILE]

``DIR`` is laid out as the data release (see ``scate_data.py``); the regular expressions default to
``DIR/schema/timenorm-preannotation-regexes.txt`` (one ``regex<TAB>type`` per line). What it annotates:

- in the tokens that overlap a region those expressions match: month names (``Month-Of-Year``), days of the month after a month
  (``Day-Of-Month``), four-digit years (``Year``), numeric dates ``MM/DD/YYYY``, ``MM-DD-YY`` and ``YYYY-MM-DD``, each with a clock time after it (``Month-Of-Year``,
  ``Day-Of-Month``, ``Year`` or ``Two-Digit-Year``), clock times ``HH:MM`` (``Hour-Of-Day`` and
  ``Minute-Of-Hour``), ``a.m.``/``p.m.`` (``AMPM-Of-Day``), weekdays (``Day-Of-Week``), parts of the day and
  seasons, unit words (``Calendar-Interval`` in the singular, under ``Last`` / ``Next`` / ``This`` after
  "last", "next", "this"; ``Period`` in the plural), today / yesterday / tomorrow (a ``Calendar-Interval`` Day
  under ``This`` / ``Last`` / ``Next``);
- linking: a year's ``Sub-Interval`` is the month written with it, the month's is its day, an hour's is its
  minute (so "Aug. 7, 1998" is one day, "08/07/1998 06:18:00" one second); a month (and day) without a year is anchored with ``This`` at the
  document creation time; a weekday alone with ``Last`` (news reports the past; the day itself included).

Standard library only, Python 3.7+; runs in well under a second per document.
"""
import argparse
import os
import re
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import scate_data  # noqa: E402

REGEX_FILE = os.path.join("schema", "timenorm-preannotation-regexes.txt")
MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december"]
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
UNITS = {"second": "Second", "minute": "Minute", "hour": "Hour", "day": "Day", "week": "Week", "month": "Month",
         "quarter": "Quarter-Year", "year": "Year", "decade": "Decade", "century": "Century"}
PLURALS = {"seconds": "Seconds", "minutes": "Minutes", "hours": "Hours", "days": "Days", "weeks": "Weeks",
           "months": "Months", "years": "Years", "decades": "Decades", "centuries": "Centuries"}
PARTS_OF_DAY = {"morning": "Morning", "afternoon": "Afternoon", "evening": "Evening", "night": "Night",
                "noon": "Noon", "midnight": "Midnight"}
SEASONS = {"spring": "Spring", "summer": "Summer", "fall": "Fall", "autumn": "Fall", "winter": "Winter"}
DEICTIC = {"today": "This", "yesterday": "Last", "tomorrow": "Next"}

_MONTH = r"(?P<month>(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?)"
_CLOCK = r"(?:[ T]+(?P<hh>\d{1,2}):(?P<mm>\d{2})(?::(?P<ss>\d{2}))?\b)?"
_TOKEN = re.compile(
    r"(?P<isodate>\b(?P<iy>\d{4})-(?P<im>\d{2})-(?P<id>\d{2})\b" + _CLOCK.replace("?P<", "?P<i") + ")"
    r"|(?P<numdate>\b(?P<nm>\d{1,2})[-/](?P<nd>\d{1,2})[-/](?P<ny>\d{4}|\d{2})\b" + _CLOCK.replace("?P<", "?P<n") + ")"
    r"|(?P<time>\b(?P<hh>\d{1,2}):(?P<mm>\d{2})\b)"
    r"|(?P<monthdate>\b" + _MONTH + r"(?:\s+(?P<day>\d{1,2})\b)?(?:,?\s+(?P<year>\d{4})\b)?)"
    r"|(?P<ampm>\b[ap]\.?m\b\.?)"
    r"|(?P<word>\b[a-z]+\b)"
    r"|(?P<lone_year>\b\d{4}\b)", re.I)
#: An operator word just before a unit word.
_OPERATOR = re.compile(r"\b(last|next|this)\s+$", re.I)
#: Years a lone four-digit number may be (document numbers such as "0261" or "1117" are not years).
YEARS = (1800, 2099)


def load_regexes(path):
    """The compiled expressions of a ``regex<TAB>type`` file (lines that do not compile are skipped)."""
    patterns = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            regex = line.rstrip("\n").split("\t")[0]
            if regex.strip():
                try:
                    patterns.append(re.compile(regex))
                except re.error:
                    continue
    return patterns


def regions(text, patterns):
    """The merged (start, end) character regions that any of ``patterns`` matches in ``text``."""
    found = sorted((m.start(), m.end()) for p in patterns for m in p.finditer(text) if m.end() > m.start())
    merged = []
    for start, end in found:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


class Annotator(object):
    """Collects the entities of one document and writes them as Anafora XML."""

    def __init__(self, doc, text=""):
        self.doc = doc
        self.text = text
        self.entities = []

    def add(self, span, kind, **properties):
        """Add an entity; return its id."""
        ident = "%d@e@%s@system" % (len(self.entities) + 1, self.doc)
        self.entities.append((ident, span, kind, properties))
        return ident

    def xml(self):
        """The Anafora XML of the entities."""
        out = ["<?xml version='1.0' encoding='UTF-8'?>\n<data>\n<annotations>\n"]
        for ident, (start, end), kind, properties in self.entities:
            props = "".join("<%s>%s</%s>" % (name, _escape(value), name) for name, value in properties.items())
            out.append("<entity><id>%s</id><span>%d,%d</span><type>%s</type><properties>%s</properties></entity>\n"
                       % (_escape(ident), start, end, kind, props))
        out.append("</annotations>\n</data>\n")
        return "".join(out)


def _escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _month_number(word):
    """1-12 for a month name or abbreviation, else None."""
    word = word.lower().rstrip(".")
    for index, name in enumerate(MONTHS):
        if len(word) >= 3 and name.startswith(word[:3]) and (word == name or len(word) <= 4):
            return index + 1
    return None


def _clock(ann, m, prefix):
    """Entities of the clock time after a date (groups ``<prefix>hh``, ``mm``, ``ss``); the hour's id or None."""
    if not m.group(prefix + "hh") or int(m.group(prefix + "hh")) > 24 or int(m.group(prefix + "mm")) > 59:
        return None
    sub = {}
    if m.group(prefix + "ss") and int(m.group(prefix + "ss")) < 60:
        sub["Sub-Interval"] = ann.add(m.span(prefix + "ss"), "Second-Of-Minute", Value=str(int(m.group(prefix + "ss"))))
    minute = ann.add(m.span(prefix + "mm"), "Minute-Of-Hour", Value=str(int(m.group(prefix + "mm"))), **sub)
    return ann.add(m.span(prefix + "hh"), "Hour-Of-Day", Value=str(int(m.group(prefix + "hh"))), **{"Sub-Interval": minute})


def _date(ann, spans, month, day, year, two_digit=False, hour=None):
    """Entities of a date: year -> month -> day (-> hour) chain (a date without a year under ``This``)."""
    day_props = {"Sub-Interval": hour} if hour else {}
    day_id = ann.add(spans["day"], "Day-Of-Month", Value=str(int(day)), **day_props) if day else None
    month_props = {"Type": MONTHS[month - 1].capitalize()}
    if day_id:
        month_props["Sub-Interval"] = day_id
    month_id = ann.add(spans["month"], "Month-Of-Year", **month_props)
    if year and two_digit:
        ann.add(spans["year"], "Two-Digit-Year", Value=year, **{"Interval-Type": "DocTime", "Sub-Interval": month_id})
    elif year:
        ann.add(spans["year"], "Year", Value=year, **{"Sub-Interval": month_id})
    else:
        ann.add(spans["month"], "This", **{"Interval-Type": "DocTime", "Repeating-Interval": month_id})


def _word(ann, span, word):
    """Entities of one word (weekday, unit, part of day, season, deictic day)."""
    lower = word.lower()
    if lower in WEEKDAYS:
        ident = ann.add(span, "Day-Of-Week", Type=lower.capitalize())
        ann.add(span, "Last", **{"Semantics": "Interval-Included", "Interval-Type": "DocTime",
                                 "Repeating-Interval": ident})
    elif lower in DEICTIC:
        ident = ann.add(span, "Calendar-Interval", Type="Day")
        props = {"Interval-Type": "DocTime", "Repeating-Interval": ident}
        if lower != "today":
            props["Semantics"] = "Interval-Not-Included"
        ann.add(span, DEICTIC[lower], **props)
    elif lower in UNITS:
        ident = ann.add(span, "Calendar-Interval", Type=UNITS[lower])
        before = _OPERATOR.search(ann.text, 0, span[0])
        if before:   # "last year", "next week", "this month": the unit before or after the creation time
            props = {"Interval-Type": "DocTime", "Repeating-Interval": ident}
            if before.group(1).lower() != "this":
                props["Semantics"] = "Interval-Not-Included"
            ann.add(before.span(1), before.group(1).capitalize(), **props)
    elif lower in PLURALS:
        ann.add(span, "Period", Type=PLURALS[lower])
    elif lower in PARTS_OF_DAY:
        ann.add(span, "Part-Of-Day", Type=PARTS_OF_DAY[lower])
    elif lower in SEASONS:
        ann.add(span, "Season-Of-Year", Type=SEASONS[lower])


def _match(ann, m):
    """Entities of one token match."""
    if m.group("isodate") or m.group("numdate"):
        p = "i" if m.group("isodate") else "n"
        month, day = int(m.group(p + "m")), int(m.group(p + "d"))
        if 1 <= month <= 12 and 1 <= day <= 31:
            spans = {"month": m.span(p + "m"), "day": m.span(p + "d"), "year": m.span(p + "y")}
            _date(ann, spans, month, m.group(p + "d"), m.group(p + "y"), len(m.group(p + "y")) == 2, _clock(ann, m, p))
    elif m.group("time"):
        hour, minute = int(m.group("hh")), int(m.group("mm"))
        if hour <= 24 and minute < 60:
            minute_id = ann.add(m.span("mm"), "Minute-Of-Hour", Value=str(minute))
            ann.add(m.span("hh"), "Hour-Of-Day", Value=str(hour), **{"Sub-Interval": minute_id})
    elif m.group("monthdate"):
        month = _month_number(m.group("month"))
        day = m.group("day")
        if month is None or (day and not 1 <= int(day) <= 31) or not m.group("month")[0].isupper():
            return   # news text capitalises month names ("may" and "march" are mostly verbs)
        spans = {"month": m.span("month"), "day": m.span("day"), "year": m.span("year")}
        _date(ann, spans, month, day, m.group("year"))
    elif m.group("ampm"):
        ann.add(m.span("ampm"), "AMPM-Of-Day", Type="AM" if m.group("ampm")[0].lower() == "a" else "PM")
    elif m.group("word"):
        _word(ann, m.span("word"), m.group("word"))
    elif m.group("lone_year"):
        if YEARS[0] <= int(m.group("lone_year")) <= YEARS[1]:
            ann.add(m.span("lone_year"), "Year", Value=m.group("lone_year"))


def annotate(text, doc, patterns):
    """The Anafora XML of the baseline's entities for one document ``text``."""
    ann = Annotator(doc, text)
    found = regions(text, patterns)
    index = 0
    for m in _TOKEN.finditer(text):
        while index < len(found) and found[index][1] <= m.start():
            index += 1
        if index < len(found) and found[index][0] < m.end():   # the token overlaps a candidate region
            _match(ann, m)
    return ann.xml()


def make(data, split, out_zip, regex_path=None):
    """Write the baseline's submission zip for every document of ``split``; return the number of documents."""
    patterns = load_regexes(regex_path or os.path.join(data, REGEX_FILE))
    docs = scate_data.documents(data, split)
    with zipfile.ZipFile(out_zip, "w", zipfile.ZIP_DEFLATED) as archive:
        for doc in docs:
            text, _ = scate_data.read_text(data, split, doc)
            archive.writestr(scate_data.submission_name(doc), annotate(text, doc, patterns))
    return len(docs)


def main(argv=None):
    """Command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", required=True, help="the data folder (text/, schema/, ...)")
    parser.add_argument("--split", default="test", choices=sorted(scate_data.SPLITS))
    parser.add_argument("--out", required=True, help="the submission zip to write")
    parser.add_argument("--regexes", help="the regular expressions (default: DATA/%s)" % REGEX_FILE)
    args = parser.parse_args(argv)
    regex_path = args.regexes or os.path.join(args.data, REGEX_FILE)
    if not os.path.isfile(regex_path):
        sys.stderr.write("no regular expressions at %s (give --regexes FILE)\n" % regex_path)
        return 2
    count = make(args.data, args.split, args.out, regex_path)
    if not count:
        sys.stderr.write("no document texts for the %s split under %s\n" % (args.split, args.data))
        return 2
    print("wrote %s (%d documents)" % (args.out, count))
    return 0


if __name__ == "__main__":
    sys.exit(main())
