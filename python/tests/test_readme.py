"""The repository README's "From Python" section works as pasted: its
install command is this package's, and its example runs; so do the
examples of the package's own README."""

import contextlib
import io
import pathlib
import re

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def section():
    text = README.read_text()
    start = text.index("\n## From Python\n")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def blocks(text, language):
    return re.findall(rf"^```{language}\n(.*?)^```$", text, re.S | re.M)


def test_the_install_command_is_this_package():
    [install] = blocks(section(), "sh")
    assert install.strip() == "pip install ./python"
    assert (README.parent / "python" / "pyproject.toml").exists()


def test_the_example_runs_as_pasted():
    [example] = blocks(section(), "python")
    assert len(example.splitlines()) <= 14
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        exec(compile(example, "README.md", "exec"), {})
    assert output.getvalue() == "rejected\n"


def test_the_package_readme_examples_run():
    examples = blocks((README.parent / "python" / "README.md").read_text(), "python")
    assert len(examples) == 2
    for example in examples:
        exec(compile(example, "python/README.md", "exec"), {})
