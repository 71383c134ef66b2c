"""Submission paths declared with folders (``SUBMISSION_FILE = "answer/{task}/{lang}.txt"``, SemEval-2020 Task 1's
layout) are found and hinted as flat names are (issue 31): a wrapping folder is forgiven, a misnamed file gets its
did-you-mean with the whole path, and a submission with no expected file lists what it holds."""
import types

import pytest

from evalkit import lines
from evalkit.declare import TextTask
from evalkit.layout import NothingToScore

TASKS = (TextTask("task1", "Binary change", "token_labels", "acc", ("acc",), [("english", ("0", "1")),
                                                                             ("german", ("0", "1"))]),
         TextTask("task2", "Graded change", "token_labels", "acc", ("acc",), [("english", ("0", "1")),
                                                                             ("german", ("0", "1"))]))
COMPETITION = types.SimpleNamespace(TASKS=TASKS, SUBMISSION_FILE="answer/{task}/{lang}.txt", NAME_ALIASES={})
PAIRS = [(task, lang) for task in TASKS for lang in task.languages]


class Names(object):
    def __init__(self, names):
        self._names = names

    def names(self):
        return self._names


def find(names):
    messages = []
    submission = lines.find_named_files(Names(names), COMPETITION, PAIRS, messages)
    return submission, messages


def test_nested_paths_are_found_at_the_root_and_inside_one_folder():
    names = ["answer/task1/english.txt", "answer/task2/german.txt"]
    submission, messages = find(names)
    assert submission.files == {("task1", "english"): names[0], ("task2", "german"): names[1]} and messages == []
    submission, messages = find(["run1/" + name for name in names])
    assert sorted(submission.files) == [("task1", "english"), ("task2", "german")]
    assert [m.text.split(";")[0] for m in messages] == ["the files are inside the folder 'run1/'"]


@pytest.mark.parametrize("given, meant", [
    ("answer/task1/English.TXT", "answer/task1/english.txt"),
    ("Answer/Task2/german.txt", "answer/task2/german.txt"),
    ("answers/task2/german.txt", "answer/task2/german.txt"),
    ("task1/german.txt", "answer/task1/german.txt"),
    ("answer/german_task2.txt", "answer/task2/german.txt"),
    ("answer/task1/english.txt.gz", "answer/task1/english.txt"),
])
def test_a_misnamed_nested_file_gets_the_whole_path_as_its_did_you_mean(given, meant):
    submission, messages = find(["answer/task1/english.txt", given])
    said = [m for m in messages if m.file == given]
    assert len(said) == 1 and said[0].where == "layout", messages
    assert said[0].text.endswith("Did you mean %s?" % meant), said[0].text
    assert "expected files named like answer/task1/english.txt (paths from the root of the zip)" in said[0].text


def test_nothing_expected_lists_the_names_with_their_did_you_mean():
    with pytest.raises(NothingToScore) as error:
        find(["english.txt", "Task2/German.txt"])
    text = str(error.value)
    assert "expected names: answer/task1/english.txt, answer/task1/german.txt, answer/task2/english.txt" in text
    assert "Task2/German.txt (names are compared with their letter case: task2/german.txt, not Task2/German.txt; did " \
        "you mean answer/task2/german.txt?)" in text
