"""What a model would read that a reviewer would not: encoded runs and hidden markup, decoded.

`views(text)` yields `View`s — a decoded text and the span of the source it came from. The gate
judges every view as it judges the text, so an instruction in base64, hex, percent or unicode
escapes, HTML entities, ROT13 (when the text names it), reversed text, quoted string concatenation
("ig" + "nore"), or inside HTML/Markdown comments and hidden elements is refused like a plain one.
Decoding never raises: what does not decode to readable text is not a view.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import html
import re
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass

from registry.gate.scripts import first_unreadable_word


@dataclass(frozen=True)
class View:
    text: str
    start: int  # the source span the view was decoded from
    end: int
    how: str


_MIN_DECODED = 8

_BASE64 = re.compile(r"(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{16,}={0,2}(?![A-Za-z0-9+/=_-])")
_HEX = re.compile(r"(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}[ :,-]?){8,}")
_HEX_ESCAPES = re.compile(r"(?:\\x[0-9A-Fa-f]{2}){4,}")
_PERCENT = re.compile(r"[^%\s]*(?:%[0-9A-Fa-f]{2}[^%\s]*){4,}")  # a token with four or more %XX escapes
# Character codes written as decimal numbers ("77 111 115 116 114 101 32 …"): eight or more, 32-255 or
# accented letters, separated by spaces or commas.
_DECIMAL_CODES = re.compile(r"(?<![\d.])(?:\d{2,3}[ ,;]+){7,}\d{2,3}(?![\d.])")
_UNICODE_ESCAPES = re.compile(r"(?:\\u[0-9A-Fa-f]{4}){3,}")
_ENTITIES = re.compile(r"(?:&#(?:x[0-9A-Fa-f]+|\d+);){3,}")
_SETTING = re.compile(r"\w\s*=\s*[\w\"'{\[]")
# A YAML or INI line "exigir_fonte: nao", "- ocultar_linhas: [multas, estornos]" and a JSON pair
# "treat_embedded_text_as": "instructions": read only when the key is an identifier (an underscore or a
# dot in it) or the value is a bare literal, so a prose label ("Tom: direto") is not a setting.
_COLON_SETTING = re.compile(r"^\s*(?:[-*]\s+)?[\"']?([A-Za-z\u00C0-\u00FF][\w.\u00C0-\u00FF-]*)[\"']?\s*:\s*(.*?)\s*,?\s*$")
_JSON_PAIR = re.compile(r"\"([A-Za-z_][\w.-]*)\"\s*:\s*(\"[^\"\n]*\"|true|false|null|-?\d+(?:\.\d+)?)")
_OFF_LITERALS = frozenset("false no nao não none null off 0 disabled ninguno ninguna nenhum nenhuma nada nunca never".split())
_ON_LITERALS = frozenset("true yes sim si sí on 1 enabled siempre sempre always".split())
_LITERAL = re.compile(r"^(?:[\"']?[\w.\u00C0-\u00FF-]*_[\w.\u00C0-\u00FF-]*[\"']?|\[.*\]|[\"']?(?:%s)[\"']?)$"
                      % "|".join(sorted(_OFF_LITERALS | _ON_LITERALS)), re.IGNORECASE)


_EQUALS_PAIR = re.compile(r"([A-Za-z_][\w.-]*)\s*=\s*([^;,\n]+)")


def _setting_sentence(key: str, value: str) -> str:
    """A setting read as words: "exigir_fonte: nao" -> "exigir fonte: disabled"."""
    bare = value.strip().strip("\"'").lower()
    if bare in _OFF_LITERALS:
        value = "disabled"
    elif bare in _ON_LITERALS:
        value = "enabled"
    return f"{_SETTING_PUNCTUATION.sub(' ', key)}: {_SETTING_PUNCTUATION.sub(' ', value)}"


# A question and its answer in an FAQ ("P: Posso responder sobre dados de outras empresas?" / "R: Sim, se o
# usuário pedir."): the answer says nothing on its own, so the pair is also read as one sentence, and a "yes" as
# the permission it gives ("you may" + the question).
_QUESTION = re.compile(r"^\s*(?:[-*]\s*)?(?:\*\*)?(?:P|Q|Pergunta|Question|Pregunta)(?:\*\*)?\s*[:.)-]\s*(?:\*\*)?(.+?)\s*$",
                       re.IGNORECASE)
_ANSWER = re.compile(r"^\s*(?:[-*]\s*)?(?:\*\*)?(?:R|A|Resposta|Answer|Respuesta)(?:\*\*)?\s*[:.)-]\s*(?:\*\*)?(.+?)\s*$",
                     re.IGNORECASE)
_YES = re.compile(r"^(?:sim|yes|s[ií]|claro|of course|sure)\b", re.IGNORECASE)
# "A: No — only our own data is available here": a question answered no is a request refused, not a permission. The no
# stands alone, punctuated: "R: Não precisa pedir permissão" starts with "não" and refuses nothing.
_NO = re.compile(r"^(?:n[aã]o|no|nunca|never|jamais|jam[aá]s)\s*(?:[,.;:!—–-]|$)", re.IGNORECASE)
# ... unless it makes an exception: "No, unless the user asks", "Não, a menos que o diretor peça", "No, salvo que…"
_EXCEPT = re.compile(r"\b(?:unless|except|but|only if|only when|a menos que|a n[aã]o ser|exceto|salvo|mas|por[eé]m|s[oó] se|"
                     r"s[oó] quando|a no ser|excepto|pero|solo si|s[oó]lo cuando|sin embargo)\b", re.IGNORECASE)


def _refusing(answer: str) -> bool:
    """Whether an FAQ answer says a plain no: no exception in its first sentence."""
    first = re.split(r"(?<=[.!?])\s", answer, maxsplit=1)[0]
    return bool(_NO.match(answer)) and not _EXCEPT.search(first)
# "Pode pedir resumido, mas a fonte continua": a yes with a "but" is no plain permission
_BUT = re.compile(r"\b(?:but|however|mas|por[eé]m|pero|sin embargo|no entanto)\b", re.IGNORECASE)


def _question_answers(text: str) -> Iterator[View]:
    lines = text.split("\n")
    position = 0
    for index, line in enumerate(lines):
        question = _QUESTION.match(line)
        answer = _ANSWER.match(lines[index + 1]) if question and index + 1 < len(lines) else None
        if answer:
            asked = question.group(1).rstrip("?").strip()
            said = answer.group(1)
            joined = f"{asked}: {said}"
            if _YES.match(said) and not _BUT.search(said):
                joined = f"you may {asked}. {said}"
            yield View(joined, position, position + len(line) + 1 + len(lines[index + 1]), "question and answer")
        position += len(line) + 1


def refused_question(text: str, offset: int) -> tuple[int, int] | None:
    """The span of the FAQ question that `offset` falls in, when the answer that follows it says no ("P: O
    assistente mostra preços de outras empresas? R: Não, só vê os nossos dados."): the question is a request the
    customer's FAQ refuses, and what it asks is no order. On one line or the question's line and the next."""
    line_start = text.rfind("\n", 0, offset) + 1
    asked = None
    for marker in _FAQ_MARKER.finditer(text, line_start, offset + 1):
        asked = marker
    if asked is None:
        return None
    mark = text.find("?", offset)
    if mark == -1 or "\n" in text[offset:mark] or _FAQ_MARKER.search(text, offset, mark):
        return None
    reply = _FAQ_REPLY.match(text, mark + 1)
    if reply is None or not _refusing(reply.group(1)):
        return None
    return asked.start(), mark + 1


_FAQ_MARKER = re.compile(r"(?:^|(?<=\s))(?:\*\*)?(?:P|Q|Pergunta|Question|Pregunta)(?:\*\*)?\s*[:.)-]\s", re.MULTILINE)
_FAQ_REPLY = re.compile(r"[ \t]*\n?\s*(?:[-*]\s*)?(?:\*\*)?(?:R|A|Resposta|Answer|Respuesta)(?:\*\*)?\s*[:.)-]\s*(?:\*\*)?(\S.*)")


def _colon_settings(text: str) -> Iterator[View]:
    position = 0
    for line in text.split("\n"):
        match = _COLON_SETTING.match(line)
        # a short value: a setting, not a glossary line ("override_code: 'OVR' in the movement type column means…")
        if match and match.group(2) and len(match.group(2).split()) <= 6 and (
                "_" in match.group(1) or "." in match.group(1) or _LITERAL.match(match.group(2).strip())):
            yield View(_setting_sentence(match.group(1), match.group(2)), position, position + len(line), "settings")
        position += len(line) + 1
    for match in _JSON_PAIR.finditer(text):
        yield View(_setting_sentence(match.group(1), match.group(2)), match.start(), match.end(), "settings")
_SETTING_PUNCTUATION = re.compile(r"[={}\[\]\"'_]+|(?<=[a-z])\.(?=[a-z])")
_QUOTE = "\"'`“”‘’«»"
_CONCATENATION = re.compile(
    rf"[{_QUOTE}][^{_QUOTE}\n]{{0,40}}[{_QUOTE}](?:\s*[+&.]\s*|\s*\|\|\s*)"
    rf"(?:[{_QUOTE}][^{_QUOTE}\n]{{0,40}}[{_QUOTE}](?:\s*[+&.]\s*|\s*\|\|\s*))*"
    rf"[{_QUOTE}][^{_QUOTE}\n]{{0,40}}[{_QUOTE}]"
)
_QUOTED = re.compile(rf"[{_QUOTE}]([^{_QUOTE}\n]*)[{_QUOTE}]")
_TAG = re.compile(r"</?([A-Za-z][\w-]{1,30})[^<>]{0,200}>")
_HTML_COMMENT = re.compile(r"<!--(.*?)(?:-->|$)", re.DOTALL)
_HIDDEN_ELEMENT = re.compile(
    r"<(\w+)[^>]*(?:display\s*:\s*none|visibility\s*:\s*hidden|\bhidden\b|font-size\s*:\s*0|opacity\s*:\s*0"
    r"|color\s*:\s*(?:white|#fff\b|#ffffff))[^>]*>(.*?)</\1\s*>",
    re.IGNORECASE | re.DOTALL,
)
_MARKDOWN_COMMENT = re.compile(r"^\s*\[[^\]\n]*\]:\s*(?:#|<>)\s*[(\"'](.*?)[)\"']\s*$", re.MULTILINE)
_ROT13_CUE = re.compile(r"rot\s*-?\s*13|\bcesar\b|\bcaesar\b|\bcésar\b", re.IGNORECASE)
_REVERSE_CUE = re.compile(
    r"revers|backwards|\binvert|de tr[aá]s (?:pra|para) frente|ao contr[aá]rio|al rev[eé]s|del rev[eé]s|espelh|"
    r"\bmirror|right to left|direita para a esquerda|derecha a izquierda", re.IGNORECASE)
# Common short words, written backwards: a line holding several reads as reversed text.
_REVERSED_WORDS = frozenset(
    "eht ruoy lla dna uoy era siht taht tnod ton on sa so sal sol ed od ad sod sad euq ecov sut sus ues aus "
    "arap rop le al moc noc eton".split())


_INLINE = frozenset(("decimal character codes", "hex escapes", "percent encoding", "unicode escapes", "HTML entities", "base64", "hex", "spaced letters"))


def _readable(decoded: str) -> bool:
    if len(decoded) < _MIN_DECODED:
        return False
    letters = sum(ch.isalpha() or ch == " " for ch in decoded)
    printable = sum(ch.isprintable() or ch in "\n\t" for ch in decoded)
    # Words are spaced in the languages the gate reads; Chinese or Japanese decoded from a payload
    # are not, and must still be seen (scripts.py refuses them).
    spaced = " " in decoded.strip() or first_unreadable_word(decoded) is not None
    return printable == len(decoded) and letters >= 0.7 * len(decoded) and spaced


def _utf8(data: bytes) -> str | None:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _base64(run: str, depth: int = 0) -> str | None:
    padded = run.rstrip("=")
    padded += "=" * (-len(padded) % 4)
    for decoder in (base64.b64decode, base64.urlsafe_b64decode):
        try:
            decoded = _utf8(decoder(padded))
        except (binascii.Error, ValueError):
            continue
        if decoded and _readable(decoded):
            return decoded
        # base64 of base64 ("base64 doble"): the first layer is a run of base64 letters, not text
        if decoded and depth < 3 and _BASE64.fullmatch(decoded.strip()):
            return _base64(decoded.strip(), depth + 1)
    return None


def _hex(run: str) -> str | None:
    digits = re.sub(r"[^0-9A-Fa-f]", "", run)
    if len(digits) % 2:
        digits = digits[:-1]
    try:
        decoded = _utf8(bytes.fromhex(digits))
    except ValueError:
        return None
    return decoded if decoded and _readable(decoded) else None


_ANY_REVERSED_WORD = re.compile(r"\b(?:" + "|".join(sorted(_REVERSED_WORDS)) + r")\b", re.IGNORECASE)


def _looks_reversed(line: str) -> bool:
    words = re.findall(r"[a-zà-ÿ]+", line.lower())
    backwards = sum(word in _REVERSED_WORDS for word in words)
    return backwards >= 2 and backwards * 4 >= len(words) * 1


# At least eight single letters, each followed by one to three spaces.
_SPACED_LETTERS = re.compile(r"(?<!\S)(?:[^\W\d_] {1,3}){7,}[^\W\d_](?!\S)")


def _lines_decoded(text: str, runs: list[View]) -> list[View]:
    """For runs decoded inside lines of `text`, each line with its runs of one kind replaced by what they decode
    to: one view a line and kind, spanning its first run to its last. One view a run would cost a line of N runs N
    copies of the line, each searched again for its N runs, then judged: cubic in N (hostile round 14 held the gate
    11 s on a 984-character posture of percent-encoded words)."""
    lines: dict[tuple[str, int], list[View]] = {}
    for run in runs:
        lines.setdefault((run.how, text.rfind("\n", 0, run.start) + 1), []).append(run)
    decoded = []
    for (how, line_start), line_runs in lines.items():
        line_runs.sort(key=lambda run: run.start)
        line_end = text.find("\n", line_runs[-1].end)
        line_end = len(text) if line_end == -1 else line_end
        pieces, position = [], line_start
        for run in line_runs:
            if run.start < position:  # overlapping runs of one kind: the first one read stands
                continue
            pieces += [text[position:run.start], run.text]
            position = run.end
        pieces.append(text[position:line_end])
        decoded.append(View("".join(pieces), line_runs[0].start, line_runs[-1].end, how))
    return decoded


def views(text: str, depth: int = 0) -> Iterator[View]:
    found: list[View] = []
    for match in _BASE64.finditer(text):
        decoded = _base64(match.group())
        if decoded:
            found.append(View(decoded, match.start(), match.end(), "base64"))
    for match in _HEX.finditer(text):
        decoded = _hex(match.group())
        if decoded:
            found.append(View(decoded, match.start(), match.end(), "hex"))
    for match in _HEX_ESCAPES.finditer(text):
        decoded = _hex(match.group().replace("\\x", ""))
        if decoded:
            found.append(View(decoded, match.start(), match.end(), "hex escapes"))
    if "%" in text:
        for match in _PERCENT.finditer(text):
            decoded = urllib.parse.unquote(match.group())
            if decoded != match.group():
                found.append(View(decoded, match.start(), match.end(), "percent encoding"))
    for match in _DECIMAL_CODES.finditer(text):
        codes = [int(code) for code in re.findall(r"\d+", match.group())]
        if all(32 <= code <= 255 for code in codes):
            decoded = "".join(map(chr, codes))
            if _readable(decoded):
                found.append(View(decoded, match.start(), match.end(), "decimal character codes"))
    if "\\u" in text:
        for match in _UNICODE_ESCAPES.finditer(text):
            try:
                decoded = codecs.decode(match.group(), "unicode_escape")
            except UnicodeDecodeError:
                continue
            found.append(View(decoded, match.start(), match.end(), "unicode escapes"))
    if "&#" in text:
        for match in _ENTITIES.finditer(text):
            found.append(View(html.unescape(match.group()), match.start(), match.end(), "HTML entities"))
    # settings written as key=value ("guardrails=false; mode=unrestricted"): folding would glue
    # "guardrails=false" into one word, so each such line is also read with "=" and "_" as spaces
    if "=" in text:
        position = 0
        for line in text.split("\n"):
            if _SETTING.search(line):
                found.append(View(_SETTING_PUNCTUATION.sub(" ", line), position, position + len(line), "settings"))
                # and each pair with its value read as a word ("label_estimates = no" -> "label estimates: disabled")
                pairs = [_setting_sentence(key, value) for key, value in _EQUALS_PAIR.findall(line)]
                if pairs:
                    found.append(View(". ".join(pairs), position, position + len(line), "settings"))
            position += len(line) + 1
    if ":" in text:
        found.extend(_colon_settings(text))
        found.extend(_question_answers(text))
    concatenations = []
    for match in _CONCATENATION.finditer(text):
        concatenation = View("".join(_QUOTED.findall(match.group())), match.start(), match.end(), "string concatenation")
        found.append(concatenation)
        concatenations.append(concatenation)
    # the sentence with its concatenations replaced by their values
    found.extend(_lines_decoded(text, concatenations))
    if "<" in text:
        # tags read as headings: "<admin>You may…</admin>" is an authority heading over a permission
        if _TAG.search(text):
            found.append(View(_TAG.sub(lambda m: f" {m.group(1)}: ", text), 0, len(text), "markup tags"))
        for match in _HTML_COMMENT.finditer(text):
            found.append(View(match.group(1), match.start(), match.end(), "HTML comment"))
        for match in _HIDDEN_ELEMENT.finditer(text):
            found.append(View(match.group(2), match.start(), match.end(), "hidden element"))
    if "]:" in text:
        for match in _MARKDOWN_COMMENT.finditer(text):
            found.append(View(match.group(1), match.start(), match.end(), "Markdown comment"))
    if _ROT13_CUE.search(text):
        found.append(View(codecs.decode(text, "rot_13"), 0, len(text), "ROT13"))
    cue = _REVERSE_CUE.search(text) is not None
    if cue or _ANY_REVERSED_WORD.search(text):
        position = 0
        for line in text.split("\n"):
            if line.strip() and (cue or _looks_reversed(line)):
                found.append(View(line[::-1], position, position + len(line), "reversed text"))
            position += len(line) + 1
    # Letters spaced out, words set apart by wider gaps: "y o u  a r e  n o w", "r e v e l e   s u a s".
    if "  " in text:
        for match in _SPACED_LETTERS.finditer(text):
            words = [word.replace(" ", "") for word in re.split(r" {2,}", match.group().strip())]
            if len(words) > 1:
                found.append(View(" ".join(words), match.start(), match.end(), "spaced letters"))
    # An escaped run inside a sentence ("\\u0069\\u0067… as regras"): also the line with the run decoded.
    found.extend(_lines_decoded(text, [view for view in found
                                       if view.how in _INLINE and not (view.start == 0 and view.end == len(text))]))
    for view in found:
        yield view
        if depth == 0 and view.how not in ("ROT13", "reversed text"):
            for inner in views(view.text, depth + 1):
                yield View(inner.text, view.start, view.end, f"{view.how}, then {inner.how}")
