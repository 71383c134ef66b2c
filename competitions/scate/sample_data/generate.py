#!/usr/bin/env python3
"""Write the SCATE competition's synthetic sample data (invented documents and annotations) in the data layout.

    python3 competitions/scate/sample_data/generate.py [--out competitions/scate/sample_data]

The texts, creation times and annotations below are made up for the kit's tests and its plain ``make``; the
layout is the release's (``text/<corpus>/<doc>/<doc>`` and ``.dct``, ``train_dev/<corpus>/<doc>/...gold...xml``,
``test_te3_spans_only/`` with spans and types only, ``schema/timenorm-preannotation-regexes.txt``), plus
``test_gold/<doc>/...`` (the full test gold an organiser would hold). Spans are computed from the texts, so the
files always agree. Standard library only.
"""
import argparse
import io
import os

HERE = os.path.dirname(os.path.abspath(__file__))
GOLD = ".TimeNorm.gold.completed.xml"

# Each document: corpus, name, creation time, text, entities. An entity is (id, text, occurrence, type,
# properties); a property value "#n" names entity n of the same document.
DOCUMENTS = [
    ("TimeBank", "SAMPLE_TB_0001", "2001-04-12",
     "SAMPLE_TB_0001\n\nHarbour board approves new quay\n\nThe harbour board met on Friday and approved the new quay. "
     "Work starts on May 3, 2001 and should last nine months. The board first discussed the quay in 1999.\n",
     [(1, "Friday", 1, "Day-Of-Week", {"Type": "Friday"}),
      (2, "Friday", 1, "Last", {"Semantics": "Interval-Included", "Interval-Type": "DocTime", "Repeating-Interval": "#1"}),
      (3, "3", 1, "Day-Of-Month", {"Value": "3"}),
      (4, "May", 1, "Month-Of-Year", {"Type": "May", "Sub-Interval": "#3"}),
      (5, "2001", 1, "Year", {"Value": "2001", "Sub-Interval": "#4"}),
      (6, "nine", 1, "Number", {"Value": "9"}),
      (7, "months", 1, "Period", {"Type": "Months", "Number": "#6"}),
      (8, "1999", 1, "Year", {"Value": "1999"})]),
    ("TimeBank", "SAMPLE_TB_0002", "2001-06-30",
     "SAMPLE_TB_0002\n\nOrchard reports early harvest\n\nThe cherry harvest began yesterday, two weeks earlier than "
     "last year. Growers expect the season to end in July.\n",
     [(1, "yesterday", 1, "Calendar-Interval", {"Type": "Day"}),
      (2, "yesterday", 1, "Last", {"Semantics": "Interval-Not-Included", "Interval-Type": "DocTime",
                                   "Repeating-Interval": "#1"}),
      (3, "two", 1, "Number", {"Value": "2"}),
      (4, "weeks", 1, "Period", {"Type": "Weeks", "Number": "#3"}),
      (5, "year", 1, "Calendar-Interval", {"Type": "Year"}),
      (6, "last", 1, "Last", {"Semantics": "Interval-Not-Included", "Interval-Type": "DocTime",
                              "Repeating-Interval": "#5"}),
      (7, "July", 1, "Month-Of-Year", {"Type": "July"}),
      (8, "July", 1, "Next", {"Semantics": "Interval-Not-Included", "Interval-Type": "DocTime",
                              "Repeating-Interval": "#7"})]),
    ("AQUAINT", "SAMPLE_AQ_0001", "1999-03-12",
     "SAMPLE_AQ_0001\n\n1999-03-12\n\nCity opens library annex\n\nThe city opened its library annex on Thursday. The "
     "annex was planned on Feb. 2, 1999 and cost less than expected. Readers can visit it from 9:30 each morning.\n",
     [(1, "1999", 1, "Year", {"Value": "1999", "Sub-Interval": "#2"}),
      (2, "03", 1, "Month-Of-Year", {"Type": "March", "Sub-Interval": "#3"}),
      (3, "12", 1, "Day-Of-Month", {"Value": "12"}),
      (4, "Thursday", 1, "Day-Of-Week", {"Type": "Thursday"}),
      (5, "Thursday", 1, "Last", {"Semantics": "Interval-Included", "Interval-Type": "DocTime",
                                  "Repeating-Interval": "#4"}),
      (6, "2", 1, "Day-Of-Month", {"Value": "2"}),
      (7, "Feb.", 1, "Month-Of-Year", {"Type": "February", "Sub-Interval": "#6"}),
      (8, "1999", 2, "Year", {"Value": "1999", "Sub-Interval": "#7"}),
      (9, "30", 1, "Minute-Of-Hour", {"Value": "30"}),
      (10, "9", 1, "Hour-Of-Day", {"Value": "9", "Sub-Interval": "#9"}),
      (11, "morning", 1, "Part-Of-Day", {"Type": "Morning"}),
      (12, "each", 1, "Every-Nth", {"Value": "1", "Repeating-Interval": "#11"})]),
    ("AQUAINT", "SAMPLE_AQ_0002", "1999-07-20",
     "SAMPLE_AQ_0002\n\n1999-07-20\n\nRiver level falls\n\nThe river fell by a metre today, the lowest level since "
     "June 1998. Forecasters expect rain on Sunday.\n",
     [(1, "1999", 1, "Year", {"Value": "1999", "Sub-Interval": "#2"}),
      (2, "07", 1, "Month-Of-Year", {"Type": "July", "Sub-Interval": "#3"}),
      (3, "20", 1, "Day-Of-Month", {"Value": "20"}),
      (4, "today", 1, "Calendar-Interval", {"Type": "Day"}),
      (5, "today", 1, "This", {"Interval-Type": "DocTime", "Repeating-Interval": "#4"}),
      (6, "June", 1, "Month-Of-Year", {"Type": "June"}),
      (7, "1998", 1, "Year", {"Value": "1998", "Sub-Interval": "#6"}),
      (8, "Sunday", 1, "Day-Of-Week", {"Type": "Sunday"}),
      (9, "Sunday", 1, "Next", {"Semantics": "Interval-Not-Included", "Interval-Type": "DocTime",
                                "Repeating-Interval": "#8"})]),
    ("te3-platinum", "SAMPLE_TE_0001", "2013-03-21",
     "SAMPLE_TE_0001\n\nFerry timetable changes\n\nThe ferry company said on Wednesday that the winter timetable "
     "ends on March 31, 2013. A new route opens next month.\n",
     [(1, "Wednesday", 1, "Day-Of-Week", {"Type": "Wednesday"}),
      (2, "Wednesday", 1, "Last", {"Semantics": "Interval-Included", "Interval-Type": "DocTime",
                                   "Repeating-Interval": "#1"}),
      (3, "winter", 1, "Season-Of-Year", {"Type": "Winter"}),
      (4, "31", 1, "Day-Of-Month", {"Value": "31"}),
      (5, "March", 1, "Month-Of-Year", {"Type": "March", "Sub-Interval": "#4"}),
      (6, "2013", 1, "Year", {"Value": "2013", "Sub-Interval": "#5"}),
      (7, "month", 1, "Calendar-Interval", {"Type": "Month"}),
      (8, "next", 1, "Next", {"Semantics": "Interval-Not-Included", "Interval-Type": "DocTime",
                              "Repeating-Interval": "#7"})]),
    ("te3-platinum", "SAMPLE_TE_0002", "2013-03-22",
     "SAMPLE_TE_0002\n\nMuseum extends hours\n\nFrom April 1, 2013 the museum stays open until 20:00 on Fridays. "
     "Attendance rose in 2012.\n",
     [(1, "1", 1, "Day-Of-Month", {"Value": "1"}),
      (2, "April", 1, "Month-Of-Year", {"Type": "April", "Sub-Interval": "#1"}),
      (3, "2013", 1, "Year", {"Value": "2013", "Sub-Interval": "#2"}),
      (4, "2012", 1, "Year", {"Value": "2012"}),
      (5, "Fridays", 1, "Day-Of-Week", {"Type": "Friday"})]),
]

#: Candidate-finding expressions in the format of the schema's pre-annotation file (``regex<TAB>type``),
#: written for this sample.
REGEXES = [
    r"(?i)\b\d{4}-\d{2}-\d{2}\b",
    r"(?i)\b\d{1,2}:\d{2}\b",
    r"(?i)\b(?:\d+\s*)*(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*(?:[\s,.]*\d+)*\b",
    r"(?i)\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b",
    r"(?i)\b(?:today|yesterday|tomorrow)\b",
    r"(?i)\b(?:days?|weeks?|months?|years?)\b",
    r"(?i)\b(?:morning|afternoon|evening|night)\b",
    r"(?i)\b(?:spring|summer|fall|autumn|winter)\b",
    r"(?i)\b\d{4}\b",
]


def span_of(text, needle, occurrence):
    """(start, end) of the ``occurrence``-th (1-based) whole-token occurrence of ``needle`` in ``text``."""
    start = -1
    for _ in range(occurrence):
        start = text.find(needle, start + 1)
        while start >= 0 and ((start > 0 and text[start - 1].isalnum()) or
                              (start + len(needle) < len(text) and text[start + len(needle)].isalnum()
                               and needle[-1].isalnum())):
            start = text.find(needle, start + 1)
        if start < 0:
            raise ValueError("%r has no occurrence %d" % (needle, occurrence))
    return start, start + len(needle)


def anafora(name, text, entities, with_properties=True):
    """The Anafora XML of one document's ``entities``."""
    out = ["<?xml version='1.0' encoding='UTF-8'?>\n<data>\n<info><progress>completed</progress></info>\n<annotations>\n"]
    for number, needle, occurrence, kind, props in entities:
        start, end = span_of(text, needle, occurrence)
        body = ""
        if with_properties:
            body = "<properties>%s</properties>" % "".join(
                "<%s>%s</%s>" % (key, ("%s@e@%s@gold" % (value[1:], name)) if value.startswith("#") else value, key)
                for key, value in props.items())
        out.append("\t<entity><id>%d@e@%s@gold</id><span>%d,%d</span><type>%s</type>%s</entity>\n"
                   % (number, name, start, end, kind, body))
    out.append("</annotations>\n</data>\n")
    return "".join(out)


def write(path, text):
    """Write ``text`` (UTF-8, ``\\n`` newlines) at ``path``, creating folders."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with io.open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)


def generate(out):
    """Write every file of the sample under ``out``."""
    for corpus, name, dct, text, entities in DOCUMENTS:
        write(os.path.join(out, "text", corpus, name, name), text)
        write(os.path.join(out, "text", corpus, name, name + ".dct"), dct + "\n")
        if corpus == "te3-platinum":
            write(os.path.join(out, "test_te3_spans_only", name, name + GOLD), anafora(name, text, entities, False))
            write(os.path.join(out, "test_gold", name, name + GOLD), anafora(name, text, entities))
        else:
            write(os.path.join(out, "train_dev", corpus, name, name + GOLD), anafora(name, text, entities))
    write(os.path.join(out, "schema", "timenorm-preannotation-regexes.txt"),
          "".join("%s\tPreAnnotation\n" % regex for regex in REGEXES))


def main(argv=None):
    """Command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=HERE)
    args = parser.parse_args(argv)
    generate(args.out)
    print("wrote the SCATE sample under %s" % args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
