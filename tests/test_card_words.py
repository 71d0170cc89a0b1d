"""The proof sheets' words group what the expression groups.

A strict reader of the words (ordinary precedence: × binds tighter than +, comparisons looser
than sums, "and" tighter than "or"; "half of X, rounded down" and "the smaller of A and B" are
phrases that stand alone, never an operand of + or ×) reads the words of random expressions back;
it must find the very tree they were made from. Words that dropped a needed parenthesis
(Nasser's old "USA Influence on Egypt + 1 ÷ 2 (rounded down)") read back as another tree.
"""

from __future__ import annotations

import re

from hypothesis import given, settings, strategies as st

from rulespec.compiler.frontend import ast
from rulespec.compiler.tools.cards.words import Words
from rulespec.compiler.frontend.fmt import shape
from support import TS, loaded

SPAN = ast.Span("<test>", 1, 1, 1, 1)
WORDS = None


def words() -> Words:
    global WORDS
    if WORDS is None:
        WORDS = Words(loaded(TS).model)
    return WORDS


# ------------------------------------------------------------------ random expressions

def _atom():
    return st.one_of(
        st.integers(0, 9).map(lambda v: ast.IntLit(SPAN, v)),
        st.sampled_from(["defcon", "x", "y"]).map(lambda n: ast.NameRef(SPAN, n)),
        st.just(ast.CallExpr(SPAN, "influence", (ast.NameRef(SPAN, "usa"), ast.NameRef(SPAN, "egypt")))),
    )


def _extend(children):
    binary = st.tuples(st.sampled_from("+-*/%"), children, children).map(
        lambda t: ast.BinOp(SPAN, t[0], t[1], t[2]))
    compare = st.tuples(st.sampled_from(["==", "!=", ">=", "<=", ">", "<"]), children, children).map(
        lambda t: ast.Compare(SPAN, t[0], t[1], t[2]))
    boolean = st.tuples(st.sampled_from(["and", "or"]), st.lists(children, min_size=2, max_size=3)).map(
        lambda t: ast.BoolOp(SPAN, t[0], tuple(t[1])))
    minmax = st.tuples(st.sampled_from(["min", "max"]), children, children).map(
        lambda t: ast.CallExpr(SPAN, t[0], (t[1], t[2])))
    return st.one_of(
        binary, compare, boolean, minmax,
        children.map(lambda c: ast.Negate(SPAN, c)),
        children.map(lambda c: ast.Not(SPAN, c)),
        children.map(lambda c: ast.BinOp(SPAN, "/", c, ast.IntLit(SPAN, 2))),
        st.tuples(children, children, children).map(lambda t: ast.Cond(SPAN, *t)),
    )


EXPRESSIONS = st.recursive(_atom(), _extend, max_leaves=12)


# ------------------------------------------------------------------ the strict reader

_TOKENS = [
    "half of", ", rounded down", "the smaller of", "the larger of", ", else", "is not", "is at least",
    "is at most", "is more than", "is less than", "is", "and", "or", "not", "if", "then",
    "USA Influence in Egypt", "DEFCON", "`x`", "`y`", "(", ")", "+", "\u2212", "×", "÷", "mod",
]
_TOKEN = re.compile("|".join(re.escape(t) for t in sorted(_TOKENS, key=len, reverse=True)) + r"|\d+|\S+")
_COMPARE = {"is": "==", "is not": "!=", "is at least": ">=", "is at most": "<=", "is more than": ">",
            "is less than": "<"}
_NAMES = {"DEFCON": "defcon", "`x`": "x", "`y`": "y"}


class Unreadable(Exception):
    pass


class Reader:
    """Reads the words back into a tree, refusing what a careful reader could take two ways."""

    def __init__(self, text: str):
        self.tokens = [t.strip() if t.strip() else t for t in _TOKEN.findall(text)]
        self.at = 0

    def peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self, expected: str | None = None) -> str:
        token = self.peek()
        if token is None or (expected is not None and token != expected):
            raise Unreadable(f"expected {expected!r} at {self.at}, found {token!r} in {self.tokens}")
        self.at += 1
        return token

    def read(self) -> ast.Expr:
        expr = self.cond()
        if self.peek() is not None:
            raise Unreadable(f"left over: {self.tokens[self.at:]}")
        return expr

    def cond(self) -> ast.Expr:
        if self.peek() != "if":
            return self.or_()
        self.take("if")
        test = self.or_()
        self.take("then")
        then = self.or_()
        self.take(", else")
        return ast.Cond(SPAN, test, then, self.cond())

    def _operand(self, inner):
        """An operand; an open phrase (if ... else ...) only as the last one, where it ends all."""
        return self.cond() if self.peek() == "if" else inner()

    def or_(self) -> ast.Expr:
        return self._bool("or", self.and_)

    def and_(self) -> ast.Expr:
        return self._bool("and", self.not_)

    def _bool(self, word, inner) -> ast.Expr:
        first = self._operand(inner)
        operands = [first]
        while self.peek() == word:  # after a bare "if ... else ...", nothing is left to join
            self.take(word)
            operands.append(self._operand(inner))
        return operands[0] if len(operands) == 1 else ast.BoolOp(SPAN, word, tuple(operands))

    def not_(self) -> ast.Expr:
        if self.peek() == "not":
            self.take("not")
            return ast.Not(SPAN, self.sum())
        return self.compare()

    def compare(self) -> ast.Expr:
        left = self.phrase()
        if self.peek() in _COMPARE:
            op = _COMPARE[self.take()]
            return ast.Compare(SPAN, op, left, self._operand(self.phrase))
        return left

    def phrase(self) -> ast.Expr:
        """A phrase that stands alone (half of X, rounded down; X ÷ Y, rounded down; the smaller
        of A and B) or a sum."""
        token = self.peek()
        if token == "half of":
            self.take()
            value = self.unary()
            self.take(", rounded down")
            return ast.BinOp(SPAN, "/", value, ast.IntLit(SPAN, 2))
        if token in ("the smaller of", "the larger of"):
            self.take()
            first = self.sum()
            self.take("and")
            second = self._operand(self.sum)
            return ast.CallExpr(SPAN, "min" if token == "the smaller of" else "max", (first, second))
        start = self.at
        left = self.unary()
        if self.peek() == "÷":  # only between two single parts: "a + b ÷ c" is read no way at all
            self.take()
            right = self.unary()
            self.take(", rounded down")
            return ast.BinOp(SPAN, "/", left, right)
        self.at = start
        return self.sum()

    def sum(self) -> ast.Expr:
        return self._left_to_right({"+": "+", "\u2212": "-"}, self.product)

    def product(self) -> ast.Expr:
        return self._left_to_right({"×": "*", "mod": "%"}, self.unary)

    def _left_to_right(self, words: dict[str, str], inner) -> ast.Expr:
        left = inner()
        while self.peek() in words:
            left = ast.BinOp(SPAN, words[self.take()], left, inner())
        return left

    def unary(self) -> ast.Expr:
        if self.peek() == "\u2212":
            self.take()
            return ast.Negate(SPAN, self.atom())
        return self.atom()

    def atom(self) -> ast.Expr:
        token = self.take()
        if token == "(":
            inner = self.cond()
            self.take(")")
            return inner
        if token.isdigit():
            return ast.IntLit(SPAN, int(token))
        if token in _NAMES:
            return ast.NameRef(SPAN, _NAMES[token])
        if token == "USA Influence in Egypt":
            return ast.CallExpr(SPAN, "influence", (ast.NameRef(SPAN, "usa"), ast.NameRef(SPAN, "egypt")))
        raise Unreadable(f"not an atom: {token!r} in {self.tokens}")


def read_words(text: str) -> ast.Expr:
    return Reader(text).read()


# ------------------------------------------------------------------ the properties


@settings(max_examples=400)  # words are cheap; precedence slips hide in rare shapes
@given(EXPRESSIONS)
def test_the_words_of_any_expression_read_back_as_its_tree(expr):
    text = words().expr(expr)
    assert shape(read_words(text)) == shape(expr), text


@settings(max_examples=400)  # words are cheap; precedence slips hide in rare shapes
@given(EXPRESSIONS)
def test_an_amount_in_a_sentence_is_one_part(expr):
    text = words().operand(expr)
    if text.startswith("("):  # the parentheses enclose the whole amount, not a part of it
        reader = Reader(text)
        reader.take("(")
        depth = 1
        while depth:
            token = reader.take()
            depth += {"(": 1, ")": -1}.get(token, 0)
        assert reader.peek() is None, text
    assert shape(read_words(text)) == shape(expr), text


def test_nassers_half_reads_as_the_card_does():
    influence = ast.CallExpr(SPAN, "influence", (ast.NameRef(SPAN, "usa"), ast.NameRef(SPAN, "egypt")))
    half = ast.BinOp(SPAN, "/", ast.BinOp(SPAN, "+", influence, ast.IntLit(SPAN, 1)), ast.IntLit(SPAN, 2))
    assert words().expr(half) == "half of (USA Influence in Egypt + 1), rounded down"
    soft = ast.BinOp(SPAN, "/", ast.BinOp(SPAN, "-", ast.IntLit(SPAN, 5), ast.NameRef(SPAN, "defcon")),
                     ast.IntLit(SPAN, 2))
    assert words().expr(soft) == "half of (5 \u2212 DEFCON), rounded down"


def test_the_reader_refuses_the_old_ambiguous_words():
    # the words before this fix: ÷ binds tighter than +, so a reader takes "+ 1 ÷ 2" as 1 ÷ 2
    old = "USA Influence in Egypt + 1 ÷ 2"
    try:
        tree = read_words(old)
    except Unreadable:
        return
    raise AssertionError(f"read {shape(tree)}")
