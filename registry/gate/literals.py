"""What a regular expression needs to find in a text before it can match there.

The gate's pattern rules are many large alternations; on an ordinary text almost none can match.
This module reads a pattern (our own small parser for the syntax the rules use — the standard
library's parser is private) and derives:

* groups of literal *factors*: every match contains at least one factor of each group, so a rule
  whose group has no factor in the text is skipped (that never changes a decision, only saves time);
* whether the pattern can only match inside one line (sentence) of the skeleton, so it may be
  searched sentence by sentence.

Anything the parser does not understand makes it give up, and giving up is always safe: no
factors (the rule is searched) and not line-bound (it is searched over the whole text).
"""

from __future__ import annotations

from dataclasses import dataclass

_UNBOUNDED = 1 << 30


class Unsupported(ValueError):
    pass


# Nodes: ("lit", ch) ("in", negated, items) ("cat", letter) ("any",) ("at", kind)
#        ("group", branches) ("look", ahead, negative, branches) ("repeat", lo, hi, node)
# where branches is a list of sequences (lists of nodes).


@dataclass
class _Reader:
    text: str
    pos: int = 0

    def peek(self, n: int = 1) -> str:
        return self.text[self.pos:self.pos + n]

    def take(self, n: int = 1) -> str:
        s = self.text[self.pos:self.pos + n]
        self.pos += n
        return s

    def done(self) -> bool:
        return self.pos >= len(self.text)


_CATEGORY_LETTERS = frozenset("wWsSdD")
_AT_LETTERS = {"b": "b", "B": "B", "A": "A", "Z": "Z"}
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "a": "\a"}


def parse(pattern: str) -> list:
    reader = _Reader(pattern)
    branches = _branches(reader)
    if not reader.done():
        raise Unsupported(pattern)
    return [("group", branches)]


def _branches(r: _Reader) -> list[list]:
    branches = [_sequence(r)]
    while r.peek() == "|":
        r.take()
        branches.append(_sequence(r))
    return branches


def _sequence(r: _Reader) -> list:
    items: list = []
    while not r.done() and r.peek() not in "|)":
        atom = _atom(r)
        items.append(_quantified(r, atom))
    return items


def _quantified(r: _Reader, atom: tuple) -> tuple:
    c = r.peek()
    if c in ("?", "*", "+"):
        r.take()
        lo, hi = {"?": (0, 1), "*": (0, _UNBOUNDED), "+": (1, _UNBOUNDED)}[c]
    elif c == "{" and _brace_ahead(r):
        r.take()
        body = ""
        while r.peek() != "}":
            body += r.take()
        r.take()
        if "," in body:
            a, b = body.split(",", 1)
            lo, hi = int(a or 0), (int(b) if b else _UNBOUNDED)
        else:
            lo = hi = int(body)
    else:
        return atom
    if atom[0] in ("at", "look"):
        raise Unsupported("quantified assertion")
    if r.peek() in ("?", "+"):  # lazy or possessive: same set of possible matches for our purpose
        r.take()
    return ("repeat", lo, hi, atom)


def _brace_ahead(r: _Reader) -> bool:
    end = r.text.find("}", r.pos)
    inner = r.text[r.pos + 1:end] if end != -1 else ""
    return bool(inner) and all(ch.isdigit() or ch == "," for ch in inner)


def _atom(r: _Reader) -> tuple:
    c = r.take()
    if c == "(":
        return _group(r)
    if c == "[":
        return _class(r)
    if c == ".":
        return ("any",)
    if c == "^":
        return ("at", "^")
    if c == "$":
        return ("at", "$")
    if c == "\\":
        e = r.take()
        if e in _CATEGORY_LETTERS:
            return ("cat", e)
        if e in _AT_LETTERS:
            return ("at", _AT_LETTERS[e])
        if e in _SIMPLE_ESCAPES:
            return ("lit", _SIMPLE_ESCAPES[e])
        if e.isalnum():
            raise Unsupported("escape \\" + e)
        return ("lit", e)
    if c in "*+?{" and c != "{":
        raise Unsupported("nothing to repeat")
    return ("lit", c)


def _group(r: _Reader) -> tuple:
    if r.peek() != "?":
        node = ("group", _branches(r))
    else:
        r.take()
        kind = r.take()
        if kind == ":":
            node = ("group", _branches(r))
        elif kind == "P" and r.peek() == "<":
            r.pos = r.text.index(">", r.pos) + 1
            node = ("group", _branches(r))
        elif kind in "=!":
            node = ("look", True, kind == "!", _branches(r))
        elif kind == "<" and r.peek() in "=!":
            negative = r.take() == "!"
            node = ("look", False, negative, _branches(r))
        else:
            raise Unsupported("group (?" + kind)
    if r.take() != ")":
        raise Unsupported("unclosed group")
    return node


def _class(r: _Reader) -> tuple:
    negated = r.peek() == "^"
    if negated:
        r.take()
    items: list = []
    first = True
    while True:
        if r.done():
            raise Unsupported("unclosed class")
        c = r.take()
        if c == "]" and not first:
            break
        first = False
        if c == "\\":
            e = r.take()
            if e in _CATEGORY_LETTERS:
                items.append(("cat", e))
                continue
            c = _SIMPLE_ESCAPES.get(e, e)
            if e.isalnum() and e not in _SIMPLE_ESCAPES:
                raise Unsupported("class escape \\" + e)
        if r.peek() == "-" and r.peek(2)[1:] not in ("]", ""):
            r.take()
            hi = r.take()
            if hi == "\\":
                hi = _SIMPLE_ESCAPES.get(r.peek(), r.peek())
                r.take()
            items.append(("range", c, hi))
        else:
            items.append(("lit", c))
    return ("in", negated, items)


# ------------------------------------------------------------------------------------------------
# Factors
# ------------------------------------------------------------------------------------------------

def factor_groups(seq: list) -> list[frozenset[str]]:
    """Groups of literal strings: a match of `seq` contains a string from each group."""
    groups: list[frozenset[str]] = []
    run: list[str] = []

    def close() -> None:
        if run:
            groups.append(frozenset(["".join(run)]))
            run.clear()

    for node in seq:
        if node[0] == "lit" and node[1] != "\n":  # no factor spans a sentence end
            run.append(node[1])
            continue
        close()
        group = None
        if node[0] == "group":
            group = _group_factors(node[1])
        elif node[0] == "repeat" and node[1] >= 1:
            group = best_group(factor_groups([node[3]]))
        if group:
            groups.append(_without_redundant(group))
    close()
    return groups


def _group_factors(branches: list[list]) -> frozenset[str] | None:
    if len(branches) == 1:
        return best_group(factor_groups(branches[0]))
    chosen = [best_group(factor_groups(branch)) for branch in branches]
    if any(group is None for group in chosen):
        return None
    return frozenset().union(*chosen)


def _without_redundant(group: frozenset[str]) -> frozenset[str]:
    kept: list[str] = []
    for factor in sorted(group, key=len):
        if not any(shorter in factor for shorter in kept):
            kept.append(factor)
    return frozenset(kept)


def group_strength(group: frozenset[str]) -> tuple[int, int]:
    return min(len(factor) for factor in group), -len(group)


def best_group(groups: list[frozenset[str]]) -> frozenset[str] | None:
    return max(groups, key=group_strength) if groups else None


# ------------------------------------------------------------------------------------------------
# Line-bound patterns
# ------------------------------------------------------------------------------------------------

_LINE_SAFE_CATEGORIES = frozenset("wdS")
_LINE_SAFE_ASSERTIONS = frozenset("bB^A")


def _class_may_hold_newline(negated: bool, items: list) -> bool:
    holds = False
    for item in items:
        if item[0] == "lit":
            holds |= item[1] == "\n"
        elif item[0] == "range":
            holds |= item[1] <= "\n" <= item[2]
        elif not (item[0] == "cat" and item[1] in _LINE_SAFE_CATEGORIES):
            return True
    return holds != negated


def _is_newline_or_end(branches: list[list]) -> bool:
    return sorted(map(repr, branches)) == sorted([repr([("lit", "\n")]), repr([("at", "$")])])


def reads_only_its_line(seq: list, at_tail_of_lookahead: bool = False) -> bool:
    """Whether `seq` can neither match a newline nor test for the end, except as a `(?:\\n|$)` at
    the tail of a lookahead (nothing follows it there, and it holds at a sentence's end either way)."""
    for position, node in enumerate(seq):
        at_tail = at_tail_of_lookahead and position == len(seq) - 1
        kind = node[0]
        if kind == "lit":
            ok = node[1] != "\n"
        elif kind == "in":
            ok = not _class_may_hold_newline(node[1], node[2])
        elif kind == "cat":
            ok = node[1] in _LINE_SAFE_CATEGORIES
        elif kind == "at":
            ok = node[1] in _LINE_SAFE_ASSERTIONS
        elif kind == "group":
            ok = (at_tail and _is_newline_or_end(node[1])) or all(
                reads_only_its_line(branch, at_tail) for branch in node[1])
        elif kind == "repeat":
            ok = reads_only_its_line([node[3]], at_tail and node[2] == 1)
        elif kind == "look":
            ahead, branches = node[1], node[3]
            ok = (ahead and _is_newline_or_end(branches)) or all(
                reads_only_its_line(branch, ahead) for branch in branches)
        else:
            ok = False
        if not ok:
            return False
    return True


def min_width(seq: list) -> int:
    total = 0
    for node in seq:
        kind = node[0]
        if kind in ("lit", "in", "cat", "any"):
            total += 1
        elif kind == "group":
            total += min(min_width(branch) for branch in node[1])
        elif kind == "repeat":
            total += node[1] * min_width([node[3]])
    return total
