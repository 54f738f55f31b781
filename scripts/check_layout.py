#!/usr/bin/env python3
"""Checks that proofline's source tree keeps its layering and style rules (docs/design.md, CONTRIBUTING.md).

    scripts/check_layout.py [ROOT]      # ROOT: the repository (default: this script's parent folder)
    scripts/check_layout.py --self-test # runs the checker on small made-up trees, to check the checker

Rules, each reported as PATH:LINE: [rule] what is wrong:

  include   A file in folder X includes <proofline/Y/...> only for Y at or below X in the layer order
              util <- trace <- memory <- arith <- (cpu, cuda) <- groth16 <- devices <- nodes <- graph
              <- (capi, fleet, circom) <- apps
            (siblings in parentheses do not include each other). tests/ and perf/ may include anything,
            apps/ any public header. A folder with sources that is not in the order is reported too.
  detail    <proofline/Y/detail/...> (at any depth) is included only from inside Y, or from tests/ and perf/.
  length    No function is longer than 80 lines, counted from the first line of its declaration to its
            closing brace, outside tests/ and the CUDA kernels (*.cu, cuda/kernels/, arith/detail/*device*).
            A brace-matching heuristic over C++ with comments, strings and preprocessor lines blanked out.
            Exceptions: scripts/check_layout_allow.txt, one "path function-name  # why" a line; an entry
            that no longer matches a long function is reported, so the list cannot go stale.
  test-name No doctest TEST_CASE name (tests/) holds a ';': ctest's test discovery splits the name there into
            entries that match no test case, so the case would never run while its entries pass.
  comment   No code comment (C++, CUDA, CMake, shell, Python) points outside the repository (the sibling
            shared folder, its reference notes or DESIGN.md: the design lives in docs/design.md) or names
            an issue number.

Exits 0 when the tree is clean, 1 with the list (grouped by folder) otherwise. Python 3 standard library only.
"""

from __future__ import annotations

import bisect
import io
import os
import re
import sys
import tempfile
import tokenize
from dataclasses import dataclass
from pathlib import Path

LAYERS: list[tuple[str, ...]] = [
    ("util",),
    ("trace",),
    ("memory",),
    ("arith",),
    ("cpu", "cuda"),
    ("groth16",),
    ("devices",),
    ("nodes",),
    ("graph",),
    ("capi", "fleet", "circom"),
    ("apps",),
]
RANK = {folder: rank for rank, group in enumerate(LAYERS) for folder in group}
INCLUDE_ANYTHING = {"tests", "perf"}  # test and benchmark code reaches into every layer, detail included
PUBLIC_ANYTHING = {"apps"}  # the top: any layer's public headers
NON_SOURCE_FOLDERS = {"cmake", "docs", "scripts"}

MAX_FUNCTION_LINES = 80
ALLOWLIST = Path("scripts/check_layout_allow.txt")

CPP_SUFFIXES = {".h", ".hpp", ".cuh", ".cc", ".cpp", ".cu"}
LENGTH_SUFFIXES = {".h", ".hpp", ".cuh", ".cc", ".cpp"}
HASH_COMMENT_NAMES = {"CMakeLists.txt"}
HASH_COMMENT_SUFFIXES = {".cmake", ".in", ".sh"}
SKIP_DIRS = {".git", ".cache", "node_modules", "__pycache__"}
SKIP_PATHS = {"tests/fixtures", "tests/fuzz/corpus", "tests/interop/work", "perf/results"}

# What a comment must not say: paths out of the repository (the design lives in docs/design.md, the upper-case
# name is the sibling folder's file) and issue numbers.
COMMENT_PATTERNS = [
    (re.compile(r"\.\./shared"), "points to the shared folder outside the repository"),
    (re.compile(r"shared/reference"), "points to the shared reference notes outside the repository"),
    (re.compile(r"(?<![\w/])reference/[\w.-]+\.md"), "points to a reference note outside the repository"),
    (re.compile(r"\bDESIGN\.md\b"), "points to DESIGN.md outside the repository (use docs/design.md)"),
    (re.compile(r"(?<![\w/])device\.md\b"), "points to device.md outside the repository"),
    (re.compile(r"\bissues?\s+#?\d+", re.IGNORECASE), "names an issue number"),
    (re.compile(r"\(issue", re.IGNORECASE), "names an issue"),
]

INCLUDE_RE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]proofline/([^>"]+)[>"]', re.MULTILINE)


@dataclass(frozen=True)
class Violation:
    path: str
    line: int
    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: [{self.rule}] {self.message}"


# ---- reading C++ --------------------------------------------------------------------------------------------


@dataclass
class CppText:
    """A C++ file three ways: comments blanked (for includes), everything but code blanked (for braces), and
    the comments themselves with their line numbers. Blanking keeps newlines, so offsets map to lines."""

    no_comments: str
    code: str
    comments: list[tuple[int, str]]


def _raw_string_end(text: str, i: int) -> int | None:
    """If text[i] opens a raw string literal (R"delim( ... )delim", maybe u8R, uR, UR, LR), the index just past
    it."""
    match = re.match(r'R"([^()\\\s]{0,16})\(', text[i:])
    if not match or (i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_") and text[i - 1] not in "uUL8"):
        return None
    close = text.find(")" + match.group(1) + '"', i + match.end())
    return len(text) if close < 0 else close + len(match.group(1)) + 2


def _is_digit_separator(text: str, i: int) -> bool:
    """A ' inside a number (1'000'000) is not a character literal."""
    j = i
    while j > 0 and (text[j - 1].isalnum() or text[j - 1] in "_.'"):
        j -= 1
    return j < i and text[j].isdigit()


def _quoted_end(text: str, i: int, quote: str) -> int:
    """The index just past the string or character literal opened at text[i]."""
    j = i + 1
    while j < len(text) and text[j] != quote and text[j] != "\n":
        j += 2 if text[j] == "\\" else 1
    return min(j + 1, len(text))


def _blank(chars: list[str], start: int, end: int) -> None:
    for k in range(start, end):
        if chars[k] != "\n":
            chars[k] = " "


def _line_of(text: str, i: int) -> int:
    return text.count("\n", 0, i) + 1


def read_cpp(text: str) -> CppText:
    no_comments = list(text)
    code = list(text)
    comments: list[tuple[int, str]] = []
    i = 0
    while i < len(text):
        c = text[i]
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = len(text) if end < 0 else end
            comments.append((_line_of(text, i), text[i:end]))
            _blank(no_comments, i, end)
            _blank(code, i, end)
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = len(text) if end < 0 else end + 2
            first = _line_of(text, i)
            for offset, line in enumerate(text[i:end].split("\n")):
                comments.append((first + offset, line))
            _blank(no_comments, i, end)
            _blank(code, i, end)
            i = end
        elif c == "R" and (end := _raw_string_end(text, i)) is not None:
            _blank(code, i + 1, end)
            i = end
        elif c == '"' or (c == "'" and not _is_digit_separator(text, i)):
            end = _quoted_end(text, i, c)
            _blank(code, i + 1, end - 1)
            i = end
        else:
            i += 1
    _blank_directives(code)
    return CppText("".join(no_comments), "".join(code), comments)


def _blank_directives(code: list[str]) -> None:
    """Blanks preprocessor lines (continuations included): macro bodies are not functions."""
    text = "".join(code)
    offset = 0
    continued = False
    for line in text.split("\n"):
        if continued or line.lstrip().startswith("#"):
            _blank(code, offset, offset + len(line))
            continued = line.rstrip().endswith("\\")
        offset += len(line) + 1


# ---- functions ----------------------------------------------------------------------------------------------

_QUALIFIERS = (
    r"(?:\s*(?:const|volatile|noexcept(?:\s*\([^()]*(?:\([^()]*\)[^()]*)*\))?|override|final|mutable|&&?|"
    r"->\s*[\w:<>,\s*&\[\]]+?|requires\b[^{;]*|\[\[[^\]]*\]\]|try))*\s*$"
)
_FUNCTION_END = re.compile(r"\)" + _QUALIFIERS)
_CTOR_INIT = re.compile(r"\)\s*(?:noexcept\s*)?:(?!:)")
_TEMPLATE_PREFIX = re.compile(r"^(?:template\s*<.*?>\s*)+", re.DOTALL)
_SCOPE = re.compile(r"^(?:export\s+)?(?:inline\s+)?(namespace|class|struct|union|enum|extern)\b")
_ACCESS = re.compile(r"^(?:\s*(?:public|private|protected)\s*:(?!:))+")
_NAME = re.compile(r"(operator\s*(?:\(\)|[^\s(\w]+|[\w:<>,\s*&]+?)|~?[A-Za-z_]\w*(?:\s*::\s*~?[A-Za-z_]\w*)*)\s*\(")
_NOT_NAMES = {"alignas", "decltype", "noexcept", "requires", "sizeof", "static_assert", "__attribute__", "catch"}


@dataclass(frozen=True)
class Function:
    name: str
    first_line: int
    last_line: int

    @property
    def lines(self) -> int:
        return self.last_line - self.first_line + 1


def _matching_braces(code: str) -> dict[int, int]:
    match: dict[int, int] = {}
    stack: list[int] = []
    for i, c in enumerate(code):
        if c == "{":
            stack.append(i)
        elif c == "}" and stack:
            match[stack.pop()] = i
    return match


def _classify(header: str) -> str:
    """'function', 'scope' (namespace, class: functions may sit inside) or 'data' (initializers, enums)."""
    header = _ACCESS.sub("", " ".join(header.split()))
    if _FUNCTION_END.search(header):
        return "function"
    if _CTOR_INIT.search(header) and header.endswith("}"):
        return "function"  # Foo() : a_{1} {
    scope = _SCOPE.match(_TEMPLATE_PREFIX.sub("", header))
    if scope and scope.group(1) != "enum":
        return "scope"
    return "data"


def _function_name(header: str) -> str:
    header = _TEMPLATE_PREFIX.sub("", _ACCESS.sub("", " ".join(header.split())))
    for match in _NAME.finditer(header):
        name = re.sub(r"\s+", "", match.group(1))
        if name not in _NOT_NAMES:
            return name
    return "<unnamed>"


def find_functions(code: str) -> list[Function]:
    """Function definitions at namespace or class scope (lambdas and local classes count as part of the
    function that holds them)."""
    match = _matching_braces(code)
    line_starts = [0] + [i + 1 for i, c in enumerate(code) if c == "\n"]
    line = lambda i: bisect.bisect_right(line_starts, i)  # noqa: E731
    functions: list[Function] = []
    header_start, paren, i = 0, 0, 0
    while i < len(code):
        c = code[i]
        if c in "(":
            paren += 1
        elif c == ")":
            paren = max(0, paren - 1)
        elif c == ";" and paren == 0:
            header_start = i + 1
        elif c == "}":
            header_start, paren = i + 1, 0
        elif c == "{":
            close = match.get(i, len(code) - 1)
            header = code[header_start:i]
            kind = "data" if paren > 0 else _classify(header)
            if kind == "function":
                start = header_start + len(header) - len(header.lstrip())
                start += len(_ACCESS.match(code[start:i]).group(0)) if _ACCESS.match(code[start:i]) else 0
                start += len(code[start:i]) - len(code[start:i].lstrip())
                functions.append(Function(_function_name(header), line(start), line(close)))
            if kind == "scope":
                header_start = i + 1
            else:
                i = close
                if kind == "function":
                    header_start = close + 1
        i += 1
    return functions


# ---- the rules --------------------------------------------------------------------------------------------


def check_includes(path: str, text: CppText) -> list[Violation]:
    folder = path.split("/", 1)[0]
    found: list[Violation] = []
    for match in INCLUDE_RE.finditer(text.no_comments):
        included = match.group(1)
        target = included.split("/", 1)[0]
        line = _line_of(text.no_comments, match.start())
        where = f"<proofline/{included}>"
        if target not in RANK:
            found.append(Violation(path, line, "include", f"{where}: '{target}' is not a layer"))
            continue
        detail = "/detail/" in "/" + included and target != folder
        if detail and folder not in INCLUDE_ANYTHING:
            found.append(Violation(path, line, "detail", f"{where}: a detail header of {target}/ from {folder}/"))
        if folder in INCLUDE_ANYTHING or folder in PUBLIC_ANYTHING or folder == target:
            continue
        if folder in RANK and RANK[target] < RANK[folder]:
            continue
        if folder in RANK:
            relation = "a sibling of" if RANK[target] == RANK[folder] else "above"
            found.append(Violation(path, line, "include", f"{where}: {target}/ is {relation} {folder}/"))
    return found


def _length_checked(path: str) -> bool:
    p = Path(path)
    if p.suffix not in LENGTH_SUFFIXES or path.startswith(("tests/", "cuda/kernels/")):
        return False
    return not (path.startswith("arith/detail/") and "device" in p.name)


def check_lengths(path: str, text: CppText, allowed: set[tuple[str, str]], used: set) -> list[Violation]:
    found: list[Violation] = []
    for function in find_functions(text.code):
        if function.lines <= MAX_FUNCTION_LINES:
            continue
        if (path, function.name) in allowed:
            used.add((path, function.name))
            continue
        message = f"{function.name} is {function.lines} lines (at most {MAX_FUNCTION_LINES})"
        found.append(Violation(path, function.first_line, "length", message))
    return found


TEST_CASE_RE = re.compile(r'\bTEST_CASE\s*\(\s*((?:"(?:[^"\\\n]|\\.)*"\s*)+)')


def check_test_names(path: str, text: CppText) -> list[Violation]:
    found: list[Violation] = []
    for match in TEST_CASE_RE.finditer(text.no_comments):
        name = "".join(re.findall(r'"((?:[^"\\\n]|\\.)*)"', match.group(1)))
        if ";" in name:
            line = _line_of(text.no_comments, match.start())
            found.append(Violation(path, line, "test-name", f"'{name[:80]}' holds a ';' (ctest splits it there)"))
    return found


def check_comments(path: str, comments: list[tuple[int, str]]) -> list[Violation]:
    found: list[Violation] = []
    for line, comment in comments:
        for pattern, why in COMMENT_PATTERNS:
            if pattern.search(comment):
                found.append(Violation(path, line, "comment", f"{why}: {comment.strip()[:100]}"))
                break
    return found


def hash_comments(text: str) -> list[tuple[int, str]]:
    """Comments of CMake and shell files: from a # at the start of a word, outside quotes."""
    comments: list[tuple[int, str]] = []
    for number, line in enumerate(text.split("\n"), start=1):
        quote = None
        for k, c in enumerate(line):
            if quote:
                quote = None if c == quote and line[k - 1] != "\\" else quote
            elif c in "\"'":
                quote = c
            elif c == "#" and (k == 0 or line[k - 1].isspace()):
                comments.append((number, line[k:]))
                break
    return comments


def python_comments(text: str) -> list[tuple[int, str]]:
    try:
        tokens = tokenize.generate_tokens(io.StringIO(text).readline)
        return [(t.start[0], t.string) for t in tokens if t.type == tokenize.COMMENT]
    except (tokenize.TokenError, SyntaxError):
        return hash_comments(text)


# ---- the tree -------------------------------------------------------------------------------------------


def source_files(root: Path) -> list[str]:
    files: list[str] = []
    for directory, subdirs, names in os.walk(root):
        rel_dir = Path(directory).relative_to(root).as_posix()
        rel_dir = "" if rel_dir == "." else rel_dir + "/"
        subdirs[:] = sorted(
            d
            for d in subdirs
            if d not in SKIP_DIRS
            and not (rel_dir == "" and d.startswith(("build", "stage", ".")))
            and rel_dir + d not in SKIP_PATHS
            and not os.path.islink(os.path.join(directory, d))
        )
        files.extend(rel_dir + name for name in sorted(names) if not os.path.islink(os.path.join(directory, name)))
    return files


def _comment_reader(path: str, text: str):
    p = Path(path)
    if p.suffix == ".py" or text.startswith("#!") and "python" in text.split("\n", 1)[0]:
        return python_comments
    if p.name in HASH_COMMENT_NAMES or p.suffix in HASH_COMMENT_SUFFIXES or text.startswith("#!"):
        return hash_comments
    return None


def read_allowlist(root: Path) -> set[tuple[str, str]]:
    allowed: set[tuple[str, str]] = set()
    path = root / ALLOWLIST
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            fields = line.split("#", 1)[0].split()
            if len(fields) == 2:
                allowed.add((fields[0], fields[1]))
    return allowed


def check_tree(root: Path) -> list[Violation]:
    allowed = read_allowlist(root)
    used: set[tuple[str, str]] = set()
    found: list[Violation] = []
    layered_folders: dict[str, str] = {}
    for path in source_files(root):
        text = (root / path).read_text(encoding="utf-8", errors="replace")
        if Path(path).suffix in CPP_SUFFIXES:
            cpp = read_cpp(text)
            folder = path.split("/", 1)[0]
            if "/" in path and folder not in RANK and folder not in INCLUDE_ANYTHING | NON_SOURCE_FOLDERS:
                layered_folders.setdefault(folder, path)
            found += check_includes(path, cpp)
            if path.startswith("tests/"):
                found += check_test_names(path, cpp)
            if _length_checked(path):
                found += check_lengths(path, cpp, allowed, used)
            found += check_comments(path, cpp.comments)
        elif reader := _comment_reader(path, text):
            found += check_comments(path, reader(text))
    for folder, path in layered_folders.items():
        found.append(Violation(path, 1, "include", f"{folder}/ holds sources but is not in the layer order"))
    for path, name in sorted(allowed - used):
        found.append(Violation(str(ALLOWLIST), 1, "length", f"stale entry: {path} {name} is not over the limit"))
    return found


def report(found: list[Violation]) -> str:
    by_folder: dict[str, list[Violation]] = {}
    for v in sorted(found, key=lambda v: (v.path, v.line, v.rule)):
        by_folder.setdefault(v.path.split("/", 1)[0] if "/" in v.path else ".", []).append(v)
    lines: list[str] = []
    for folder in sorted(by_folder):
        lines.append(f"{folder}/ ({len(by_folder[folder])})")
        lines.extend(f"  {v}" for v in by_folder[folder])
    counts = {rule: sum(v.rule == rule for v in found) for rule in ("include", "detail", "length", "test-name", "comment")}
    summary = ", ".join(f"{n} {rule}" for rule, n in counts.items() if n)
    lines.append(f"check_layout: {len(found)} violations ({summary})")
    return "\n".join(lines)


# ---- self test --------------------------------------------------------------------------------------------

_SELF_TEST_TREE = {
    "util/ok.hpp": "#include <proofline/util/other.hpp>\nint f();\n",
    "memory/up.cpp": "#include <proofline/graph/pipeline.hpp>  // upward\n#include <proofline/util/size.hpp>\n",
    "cpu/sibling.cpp": "#include <proofline/cuda/gpu_ntt.hpp>\n",
    "graph/detail.cpp": "#include <proofline/nodes/detail/stages.hpp>\n#include <proofline/graph/detail/x.hpp>\n",
    "apps/main.cpp": "#include <proofline/graph/pipeline.hpp>\n#include <proofline/graph/detail/core.hpp>\n",
    "tests/t.cpp": "#include <proofline/graph/detail/core.hpp>\n// see .." + "/shared/x\n"
    + "void t() {\n" + "  x();\n" * 100 + "}\n",
    "memory/commented.cpp": "// #include <proofline/graph/x.hpp> is not an include\n/* issue 7 */\n",
    "memory/long.cpp": "namespace a {\nstruct S {\n  int x{0};\n  void m() const {\n" + "    y();\n" * 79
    + "  }\n};\nFoo::Foo(int v) : a_{v}, b_([](int q) { return q; }) {\n  z();\n}\n"
    + 'const char* s = "{";\nchar c = \'{\';\nint n = 1\'000;\nauto r = R"(})";\n}  // namespace a\n',
    "memory/short.cpp": "template <class T>\nT g(T v) noexcept {\n" + "  v++;\n" * 76 + "  return v;\n}\n",
    "cuda/kernels/k.cu": "__global__ void k() {\n" + "  x();\n" * 100 + "}\n",
    "CMakeLists.txt": "# fuzz builds (Issue 12)\nset(X \"#not a comment\")\n",
    "scripts/s.sh": "#!/bin/sh\n[ ${#a[@]} -gt 0 ]  # see DESIGN.md\n",
    "scripts/p.py": "x = '# issue 3 in a string'  # fine\n",
    "extra/thing.cpp": "int h();\n",
    "tests/names.cpp": 'TEST_CASE("fine, with a comma") {}\n// TEST_CASE("a; b") in a comment\nTEST_CASE(\n'
    + '    "split over two "\n    "literals; not run") {}\n',
}

_SELF_TEST_EXPECTED = {
    ("memory/up.cpp", 1, "include"),
    ("cpu/sibling.cpp", 1, "include"),
    ("graph/detail.cpp", 1, "detail"),
    ("apps/main.cpp", 2, "detail"),
    ("memory/commented.cpp", 2, "comment"),
    ("memory/long.cpp", 4, "length"),
    ("CMakeLists.txt", 1, "comment"),
    ("scripts/s.sh", 2, "comment"),
    ("tests/t.cpp", 2, "comment"),
    ("extra/thing.cpp", 1, "include"),
    ("tests/names.cpp", 3, "test-name"),
}

_SELF_TEST_PARSE = """template <class T>
struct View {
 public:
  operator std::span<const T>() const noexcept { return {}; }
  int x{0};
};
enum class E : int { a, b };
int main(int argc, char** argv) try {
  return 0;
} catch (const std::exception& e) {
  return 1;
}
"""
_SELF_TEST_PARSED = [
    Function("operatorstd::span<constT>", 4, 4),
    Function("main", 8, 10),
    Function("<unnamed>", 10, 12),
]


def self_test() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for path, text in _SELF_TEST_TREE.items():
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(text, encoding="utf-8")
        found = check_tree(root)
    got = {(v.path, v.line, v.rule) for v in found}
    lengths = {v.message.split(" is ")[0] for v in found if v.rule == "length"}
    parsed = find_functions(read_cpp(_SELF_TEST_PARSE).code)
    ok = got == _SELF_TEST_EXPECTED and lengths == {"m"} and parsed == _SELF_TEST_PARSED
    if parsed != _SELF_TEST_PARSED:
        print(f"check_layout self-test: parsed {parsed}", file=sys.stderr)
    if not ok:
        print("check_layout self-test FAILED", file=sys.stderr)
        print("  missed:   " + str(sorted(_SELF_TEST_EXPECTED - got)), file=sys.stderr)
        print("  spurious: " + str(sorted(got - _SELF_TEST_EXPECTED)), file=sys.stderr)
        print(report(found), file=sys.stderr)
        return 1
    print(f"check_layout self-test: {len(got)} planted violations found, nothing else")
    return 0


def main(argv: list[str]) -> int:
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) > 2 or (len(argv) == 2 and argv[1].startswith("-")):
        print(__doc__, file=sys.stderr)
        return 2
    root = Path(argv[1] if len(argv) == 2 else Path(__file__).resolve().parent.parent).resolve()
    if not (root / "CMakeLists.txt").exists():
        print(f"check_layout: {root} is not the proofline repository (no CMakeLists.txt)", file=sys.stderr)
        return 2
    found = check_tree(root)
    if found:
        print(report(found))
        return 1
    print(f"check_layout: {root} is clean")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
