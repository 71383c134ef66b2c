"""Time normalisation: Anafora XML, the SCATE interpreter, TimeML values and the interval metrics.

* :mod:`.anafora` reads Anafora XML safely (no DTD, no entities, bounded) into :class:`.anafora.Document`.
* :mod:`.calendar` is the calendar arithmetic (units, fields, truncation) on naive, UTC-like date-times.
* :mod:`.types` holds the time expressions (intervals, repeating intervals, periods, operators).
* :mod:`.scate` interprets an Anafora SCATE graph into time expressions anchored at a document creation time.
* :mod:`.timeml` interprets TIMEX3 ``value`` attributes into intervals.
* :mod:`.metrics` holds the interval precision/recall of the SCATE paper and the entity metrics.

The semantics are those of the public reference implementation (clulab/timenorm, ``scate/Types.scala``,
``scate/Readers.scala``, ``scate/TimeNormScorer.scala``, ``timeml/TimeMLScorer.scala``), ported, not copied.
Standard library only, Python 3.7+. See docs/timenorm.md.
"""
