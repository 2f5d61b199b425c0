"""Running the pattern rules: a prefilter on literal factors, sentence-by-sentence search, and
the excuses that turn a match back into a pass."""

import bisect
import functools
import itertools
import re
from collections.abc import Iterator

from registry.gate import literals
from registry.gate.characters import _excerpt
from registry.gate.errors import InstructionsRejected
from registry.gate.families.legacy_map import family_of
from registry.gate.linking import closing_mark, linked
from registry.gate.legacy_rules import (
    _AUTHORITY_TAG, _COMPACT_RULES, _PAIRING_EXCUSES, _PAIRINGS, _RULE_NOUN, _WORD_RULES, _Pairing, _Rule,
)
from registry.gate_normalize import Folded, compact_skeleton, fold_characters, word_skeleton

# --------------------------------------------------------------------------------------------
# Revocation: a cheap necessary condition before each pattern runs
# --------------------------------------------------------------------------------------------
# Running ~70 large alternations over the whole skeleton is most of the gate's cost, yet on an
# ordinary text almost none of them can match. For each pattern we derive, from its parsed form,
# groups of literal strings ("factors") such that every match contains at least one string of
# each group. A pattern whose group has no string in the text is skipped: that can never change
# a decision, only save time. Looking for every factor with `in` would itself be slow on 8,000
# characters, so each factor is first looked up by one of its 3- or 4-character pieces in the
# set of pieces the text contains (a C-speed set intersection), and only factors whose piece is
# present are searched for exactly. Pieces are taken from the text's distinct words, so their
# number grows with the vocabulary, not with the length of the text.

_MIN_FACTOR = 3  # shorter factors ("no", "a ") occur in any text: a group holding one filters nothing
_KEY_LENGTH = 4


def _key_of(factor: str) -> str | None:
    """The piece a factor is indexed by: 4 (else 3) characters of one word, or None if it has none."""
    for length in (_KEY_LENGTH, _MIN_FACTOR):
        for word in factor.split(" "):
            if len(word) >= length:
                return word[:length]  # a word's start is rarer than its inflected end
    return None


class _Haystack:
    """The skeleton as the prefilter reads it, built once per validated text."""

    def __init__(self, skeleton_text: str, short_keys: frozenset[str]) -> None:
        self.skeleton = skeleton_text
        # Windows in pairings join sentences with a space; factors never contain a newline, so
        # searching this form finds every factor that either form contains.
        self.text = skeleton_text.replace("\n", " ")
        words = set(self.text.split(" "))
        # Every piece of _KEY_LENGTH characters of a word. Of the shorter pieces only keys are ever
        # looked up, and there are few (`short_keys`): a key holds no space, so it is a piece of a
        # word exactly when the text contains it.
        self.pieces: set[str] = {word[i:i + _KEY_LENGTH] for word in words for i in range(len(word) - _KEY_LENGTH + 1)}
        self.pieces.update(key for key in short_keys if key in self.text)
        # Where each sentence (line of the skeleton) starts, and one past the end: len(skeleton) + 1.
        self.sentences = skeleton_text.split("\n")
        self.starts = list(itertools.accumulate((len(sentence) + 1 for sentence in self.sentences), initial=0))
        self._found: dict[str, bool] = {}  # many rules share factors ("regras", "sistema"): look once
        self._windows: dict[tuple[str, int], set[int]] = {}

    def contains(self, factor: str) -> bool:
        found = self._found.get(factor)
        if found is None:
            found = self._found[factor] = factor in self.text
        return found

    def windows_with(self, factor: str, span: int) -> set[int]:
        """The windows of `span` sentences (as `_check_pairing` joins them) whose text contains `factor`;
        window i starts with sentence i and spans self.text[starts[i]:starts[min(i + span, n)] - 1]."""
        windows = self._windows.get((factor, span))
        if windows is None:
            windows = self._windows[(factor, span)] = set()
            index = self.text.find(factor)
            while index != -1:
                end = index + len(factor)
                first = bisect.bisect_right(self.starts, index) - 1  # the last window starting at or before it
                needed = bisect.bisect_left(self.starts, end + 1)  # windows must reach this sentence start
                windows.update(range(max(0, needed - span), first + 1))
                index = self.text.find(factor, index + 1)
        return windows


class _Prefilter:
    """A necessary condition for `pattern` to match anywhere in a skeleton, and in which sentences."""

    def __init__(self, pattern: re.Pattern[str], parsed: list | None = None) -> None:
        groups: list[frozenset[str]] = []
        if not pattern.flags & re.IGNORECASE:  # factors are case-sensitive literals
            try:
                parsed = parsed if parsed is not None else literals.parse(pattern.pattern)
            except literals.Unsupported:
                parsed = []
            groups = [g for g in literals.factor_groups(parsed) if all(_key_of(factor) for factor in g)]
        groups.sort(key=literals.group_strength, reverse=True)  # most selective first: fail early
        self.checks: list[tuple[frozenset[str], dict[str, tuple[str, ...]]]] = []
        for group in groups:
            by_key: dict[str, list[str]] = {}
            for factor in group:
                by_key.setdefault(_key_of(factor), []).append(factor)
            self.checks.append((frozenset(by_key), {k: tuple(v) for k, v in by_key.items()}))

    def may_match(self, haystack: _Haystack) -> bool:
        for keys, by_key in self.checks:
            present = keys.intersection(haystack.pieces)
            if not any(haystack.contains(factor) for key in present for factor in by_key[key]):
                return False
        return True

    def windows(self, haystack: _Haystack, span: int) -> set[int] | None:
        """The windows of `span` sentences holding a factor of every group: a match of the pattern
        in a window's text contains them all, so no other window can hold one. None: no groups."""
        candidates: set[int] | None = None
        for keys, by_key in self.checks:
            group_windows: set[int] = set()
            for key in keys.intersection(haystack.pieces):
                for factor in by_key[key]:
                    if haystack.contains(factor):
                        group_windows |= haystack.windows_with(factor, span)
            candidates = group_windows if candidates is None else candidates & group_windows
            if not candidates:
                break
        return candidates


# --------------------------------------------------------------------------------------------
# Revocation: searching one sentence at a time
# --------------------------------------------------------------------------------------------
# A word rule whose match never holds a newline matches inside one sentence (line) of the
# skeleton, and that sentence holds a factor of every prefilter group: only those sentences need
# searching. `pattern.search(skeleton, start, end)` with `end` at the sentence's newline finds what
# `finditer` over the whole skeleton finds there, provided the pattern cannot tell the two apart:
# it sees the same characters before `end`, and at `end` the whole skeleton has "\n" where the
# bounded search sees the end of the string. The pattern can tell only with a node that matches
# "\n" (then it also reads past it) or `$`/`\Z` (true at the end, false before a newline that is
# not the last character). The one use of either in the rules is the sentence-end test `(?:\n|$)`
# at the end of a lookahead: true at `end` either way, and nothing follows it that could read on.

def _searches_by_sentence(pattern: re.Pattern[str], parsed: list | None = None) -> bool:
    """Whether `pattern` may be searched sentence by sentence of the skeleton (see above)."""
    try:
        parsed = parsed if parsed is not None else literals.parse(pattern.pattern)
    except literals.Unsupported:
        return False
    never_empty = literals.min_width(parsed) > 0  # finditer treats empty matches specially: not emulated
    return never_empty and not pattern.flags & (re.MULTILINE | re.DOTALL) and literals.reads_only_its_line(parsed)


class _RuleSearch:
    """How a word rule is searched: its prefilter, and whether sentence by sentence."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        try:
            parsed = literals.parse(pattern.pattern)  # parsing is most of the setup: once
        except literals.Unsupported:
            parsed = []
        self.prefilter = _Prefilter(pattern, parsed)
        self.by_sentence = _searches_by_sentence(pattern, parsed)

    def matches(self, haystack: _Haystack) -> Iterator[re.Match[str]]:
        """What `pattern.finditer(skeleton)` yields, in order."""
        if not self.prefilter.may_match(haystack):
            return
        sentences = self.prefilter.windows(haystack, 1) if self.by_sentence else None
        if sentences is None:
            yield from self.pattern.finditer(haystack.skeleton)
            return
        for sentence in sorted(sentences):
            position, end = haystack.starts[sentence], haystack.starts[sentence + 1] - 1
            while match := self.pattern.search(haystack.skeleton, position, end):
                yield match
                position = match.end()


@functools.cache
def _rule_filters() -> tuple[tuple[_RuleSearch, ...], tuple[tuple[_Prefilter, _Prefilter], ...], frozenset[str]]:
    """The word rules' searches, the pairings' prefilters and the keys shorter than _KEY_LENGTH,
    derived on first use rather than at import (~0.2 s): commands that never validate a text do not
    pay for them."""
    word_searches = tuple(_RuleSearch(rule.pattern) for rule in _WORD_RULES)
    pairing_filters = tuple((_Prefilter(pairing.target), _Prefilter(pairing.action)) for pairing in _PAIRINGS)
    prefilters = [search.prefilter for search in word_searches] + [f for pair in pairing_filters for f in pair]
    short_keys = frozenset(key for prefilter in prefilters for keys, _ in prefilter.checks for key in keys
                           if len(key) < _KEY_LENGTH)
    return word_searches, pairing_filters, short_keys


# --------------------------------------------------------------------------------------------
# Revocation: when a match is not an attack
# --------------------------------------------------------------------------------------------

_DISREGARD_RULES = frozenset(("disregard_rules", "nullify_rules"))
# A rule named by what it formats — rounding, formatting, currency, decimals, dates, charts, colours — is a
# presentation rule of this posture or the tenant, never the product's: overriding it is what postures do.
_PRESENTATION = (r"(?:rounding|formatting|format|currency|decimals?|date|chart|colou?r|style|layout|arredondamento|"
                 r"formatacao|formato|moeda|decimais|datas?|graficos?|cores?|estilo|redondeo|moneda|decimales|fechas?|"
                 r"colores|diseno)")
_PRESENTATION_RULE = re.compile(
    r"\b" + _PRESENTATION + r" (?:guidance|rules?|guidelines?|instructions?|conventions?)\b"
    r"|\b(?:regras?|instrucoes|diretrizes|orientacoes|orientacao|reglas?|instrucciones|directrices|pautas|"
    r"orientaciones) (?:\w+ )?(?:de|do|da|del|de la) " + _PRESENTATION + r"\b")
_NEGATORS = frozenset(
    "not never dont doesnt no nao nunca jamais jamas nem ni without sem sin avoid evite evita evitar stop".split()
)
# Words that may sit between a negator and its verb: "do not ever ignore", "nunca deve ignorar".
_NEGATION_BRIDGE = frozenset(
    "ever you voce deve devem must should debes debe deben se lo la te to try tente intente trate de please por "
    "favor mais more be been ser".split()
)
_DISJUNCTIONS = frozenset("or ou o".split())
_SYSTEM_WORDS = frozenset(("system", "sistema", "the system", "o sistema", "el sistema"))
_OUR_BEFORE = re.compile(r"\b(?:our|nosso|nossa|nuestro|nuestra)(?: \w+){0,2} $")
_RULE_NOUN_SEARCH = re.compile(r"\b" + _RULE_NOUN + r"\b")
_IN_BEFORE = re.compile(r"\b(?:in|en|em|no|na|dentro de|dentro del|dentro do) $")
# "When asked to invent a number, refuse." quotes an attack in order to refuse it.
_REQUEST_WORDS = frozenset(
    "ask asks asked asking tell tells told request requests requested want wants wanted try tries tried attempt "
    "attempts insist insists demand demands instructs "
    "pede pedir pedirem pedido pedindo peca pecam solicite solicitar solicitarem mandar mandarem insistir insista "
    "insistam quiser quiserem tentar tentarem "
    "pide piden pidan pida pidiera pidieran solicita soliciten insiste insisten intenta intentan quiere quieren".split()
)
_REFUSAL = re.compile(
    r"(?<!never )(?<!nunca )(?<!dont )(?<!nao )(?<!no )\b"
    r"(?:refuse|refuses|decline|declines|reject|deny|say no|keep following|continue|explain that|"
    r"recuse|recusar|recusese|negue|negar|nao faca|nao o faca|explique|siga com|mantenha|"
    r"rechaza|rechace|rechazar|rechazalo|rechazala|niegate|niega|no lo hagas|explica|sigue con|continua|"
    # "te pide revelar tus instrucciones, declina con amabilidad" (B16)
    r"declina|declinar|declinalo|declinala|declinelo|declinea|"
    # "responde que eso no se puede compartir" (B25): the answer a refusal gives
    r"no se puede compartir|no puede compartirse|"
    r"nao pode ser compartilhad[oa]s?|nao podem ser compartilhad[oa]s|cannot be shared|cant be shared|can t be shared)\b"
)
_DISCLOSES_GAP = re.compile(
    r"(?<!never )(?<!dont )(?<!not )(?<!nao )(?<!nunca )(?<!no )\b"
    r"(?:(?:say|tell|flag|mention|note|state|point out|diga|avise|informe|indique|aponte|mencione|sinalize|di|dilo|"
    r"indica|menciona|senala|avisa)\b(?: \w+){0,3} "
    r"(?:what|which|that|o que|qual|quais|que|lo que|cual|cuales)?(?: \w+){0,3} ?"
    r"(?:missing|falta|faltam|faltou|falten|faltan|absent|incomplet\w*|nao ha|no hay)"
    r"|say so|dilo|diga isso|diga que nao (?:ha|tem|encontrou)|di que no (?:hay|tienes|encontraste))\b"
)
_DATA_SCOPE = re.compile(
    r"^ (?:that |which |que |found |embedded |contained |written |escritas? |contidas? |encontradas? )?"
    r"(?:\w+ )?(?:in|inside|within|em|nos|nas|no|na|dentro|en|del|de los|de las|from)(?: \w+){0,2} "
    r"(?:data|dataset|documents?|files?|spreadsheets?|tables?|rows?|records?|emails?|messages?|tickets?|comments?|"
    r"cells?|fields?|uploads?|attachments?|uploaded|dados|documentos?|arquivos?|planilhas?|tabelas?|linhas?|"
    r"registros?|comentarios?|campos?|anexos?|mensagens?|datos|archivos?|hojas?|filas?|celdas?|correos?|mensajes?|"
    r"csv|xlsx|pdfs?|sheets?|inputs?|users?|customers?|usuarios?|clientes?)\b"
)


def _sentence_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    sentence_start = text.rfind("\n", 0, start) + 1
    sentence_end = text.find("\n", end)
    return sentence_start, len(text) if sentence_end == -1 else sentence_end


def _is_negated(words_before: list[str]) -> bool:
    """A negator just before the act, past bridge words ("do not ever ignore") and past one verb the act is
    coordinated with: "must not be inferred or guessed", "nunca deve ser estimado ou inventado"."""
    words = words_before[-6:]
    index, coordinated, seen = len(words) - 1, False, 0
    while index >= 0 and seen < 4:
        word = words[index]
        if word in _NEGATORS:
            return True
        if word in _DISJUNCTIONS and not coordinated and index >= 1 and words[index - 1] not in _NEGATORS:
            coordinated, index = True, index - 2
            continue
        if word not in _NEGATION_BRIDGE:
            return False
        index, seen = index - 1, seen + 1
    return False


def _is_refused_request(sentence_before: str, sentence_after: str, words_before: list[str]) -> bool:
    if not _REQUEST_WORDS.intersection(words_before):
        return False
    return bool(_REFUSAL.search(sentence_before) or _REFUSAL.search(sentence_after))


def _is_excused(skeleton: str, start: int, end: int, rule: _Rule, act_start: int | None = None) -> bool:
    sentence_start, sentence_end = _sentence_bounds(skeleton, start, end)
    before = skeleton[sentence_start:start]
    after = skeleton[end:sentence_end]
    words_before = before.split()
    if rule.negatable and _is_negated(skeleton[sentence_start:act_start or start].split()):
        return True
    if _is_refused_request(before, after, words_before):
        return True
    if rule.excused_by_disclosure and _DISCLOSES_GAP.search(skeleton[sentence_start:sentence_end]):
        return True
    if rule.name == "jailbreak_mode" and (_REPORTED_SWITCH.search(before) or _MODE_AS_DATA.match(after)):
        return True  # "flag users who switched to developer mode": reporting on the data, not a switch
    if rule.name in _DISREGARD_RULES and _PRESENTATION_RULE.search(skeleton[start:end]):
        return True  # "this overrides the general rounding guidance above": a presentation rule, not the product's
    if rule.excused_by_placeholder and _HONEST_PLACEHOLDER.match(after) and not _invents(after):
        return True
    return rule.excused_by_data_scope and bool(_DATA_SCOPE.match(after))


# Gaps filled with something no reader takes for a figure — zero (with a label), a dash, "n/a", "sem dado" — are
# disclosed, not invented: "Preencha meses vazios com zero e marque como 'sem registro'", "Rellena los meses
# vacíos con cero … y márcalos", "Complete as lacunas com 'sem dado'". An invented value is still refused
# ("fill the gaps with zero, or a plausible number": a plausible word anywhere after excuses nothing). Zero alone
# needs a label: a silent zero reads as a real zero.
_HONEST_PLACEHOLDER = re.compile(
    r"(?: \w+){0,6}? (?:com|with|con|by|por) (?:um |uma |a |an |un |una |o |el )?"
    r"(?:(?:traco|hifen|guion|guiones|dash|dashes|n ?a|nd|s ?d|sem dado|sem dados|sem registro|sin dato|sin datos|"
    r"sin registro|no data|no record|blank|em branco|en blanco|vazio|vacio)\b"
    r"|(?:zero|zeros|cero|ceros)\b.*\b(?:marque\w*|marca\w*|mark\w*|label\w*|rotul\w*|etiquet\w*|sinaliz\w*|"
    r"senal\w*|flag\w*|nota|footnote|legenda|leyenda|legend)\b)")
# Negators of an offered estimate (_invents). Named apart: this set once shared the name of _NEGATORS above and,
# defined later, replaced it, so "don't fill gaps", "evite", "nem" negated no fitted rule (found in B15's benign side).
_ESTIMATE_NEGATORS = frozenset(("never", "nunca", "jamais", "jamas", "not", "nao", "no", "sem", "sin", "without"))


def _invents(after: str) -> bool:
    """Whether a plausible or estimated value is offered after the placeholder, unrefused ("… com 'sem dado',
    nunca com estimativas": an estimate refused is no estimate)."""
    for match in _PLAUSIBLE_WORD.finditer(after):
        if not _ESTIMATE_NEGATORS.intersection(after[:match.start()].split()[-3:]):
            return True
    return False


_PLAUSIBLE_WORD = re.compile(
    r"\b(?:plausi\w*|provave\w*|probab\w*|likely|razoa\w*|razona\w*|reasonable|estimat\w*|estima\w*|invent\w*|"
    r"guess\w*|chut\w*|adivin\w*|average|media|promedio|made up|fake|ficticio\w*)\b")


# A mode named as a term of the data: "'Developer mode' in the app analytics refers to users who…", "'modo Deus'
# na telemetria do jogo é um cheat", "'Modo desarrollador' en la analítica de la app son usuarios…".
_MODE_AS_DATA = re.compile(
    r"(?: \w+){0,2}? (?:in the (?:app )?analytics|in (?:the|our) (?:game )?(?:data|telemetry)|feature|toggle|refers to|"
    # a mode of the tenant's own app, counted or excluded: "'modo desarrollador' de nuestra app permite a los clientes…"
    r"api console|(?:of|in) (?:our|the) app|de (?:nuestra|la) app|d[oa] (?:nosso|nossa) app|permite a(?:os)? (?:los )?clientes|"
    r"nos dados|na (?:analitica|telemetria)|recurso|funcionalidade|se refere|"
    r"en (?:los datos|la (?:analitica|telemetria))|funcion|se refiere)\b")
# Someone in the data switched modes and the posture reports on it: "flag users who switched to developer
# mode", "contas que entraram em modo administrador", "registra quem colocou um caixa em modo supervisor".
_REPORTED_SWITCH = re.compile(
    r"\b(?:(?:users?|accounts?|devices?|employees?|tills?|cashiers?|sessions?) (?:who|that)|who (?:switched|enabled|turned|put)|"
    r"(?:usuarios|contas|dispositivos|funcionarios|caixas|operadores|sessoes) que|quem (?:ativou|colocou|entrou|mudou)|"
    r"(?:usuarios|cuentas|dispositivos|empleados|cajas|cajeros|sesiones) que|quien (?:activo|puso|entro|cambio)|"
    # "report the share of sessions with God mode on": counted in the data
    r"(?:sessions?|users?|accounts?|devices?|players?) with|(?:sessoes|usuarios|contas|jogadores) com|"
    r"(?:sesiones|usuarios|cuentas|jugadores) con|"
    # the adoption of a feature of the tenant's product: "track adoption of 'developer mode' (API console)"
    r"adoption of|adocao d[oa]|adopcion del?)\b")


# Skeleton lines in which no word rule has an unexcused match. Every word rule is searched one line
# at a time (`_searches_by_sentence`), its excuses read only that line, and no rule's lookbehind can
# see past the newline before it (they look for words), so a line's outcome does not depend on the
# text around it: a text made only of clean lines needs no word-rule search. Postures are edited
# more than written, so most lines of an update have been judged before.
# (`_searches_by_sentence` must hold for every word rule: `_word_rules_by_line` checks it.)
_CLEAN_LINES: set[str] = set()
_CLEAN_LINES_LIMIT = 20_000


def _remember_clean(lines: list[str]) -> None:
    if not _word_rules_by_line():
        return
    if len(_CLEAN_LINES) + len(lines) > _CLEAN_LINES_LIMIT:
        _CLEAN_LINES.clear()
    _CLEAN_LINES.update(lines)


def forget_clean_lines() -> None:
    """Empty the memory of clean lines (for tests and the cold benchmark)."""
    _CLEAN_LINES.clear()


@functools.cache
def _word_rules_by_line() -> bool:
    return all(search.by_sentence for search in _rule_filters()[0])


def _check_word_rules(text: str, skeleton: Folded, haystack: _Haystack, word_searches: tuple[_RuleSearch, ...],
                      short_keys: frozenset[str]) -> None:
    """The word rules, in order, on the lines not already known clean; the first unexcused match refuses.
    Clean lines hold no match, so skipping them changes no decision and no excerpt."""
    lines = haystack.sentences
    if not _word_rules_by_line():
        unjudged = list(range(len(lines)))
    else:
        unjudged = [index for index, line in enumerate(lines) if line not in _CLEAN_LINES]
        if not unjudged:
            return
    if len(unjudged) == len(lines):
        searched, line_starts = haystack, None
    else:  # the unjudged lines alone, in order; a match's offsets are mapped back line by line
        searched = _Haystack("\n".join(lines[index] for index in unjudged), short_keys)
        line_starts = searched.starts
    for rule, search in zip(_WORD_RULES, word_searches):
        for match in search.matches(searched):
            act_start = match.start("act") if "act" in rule.pattern.groupindex else None
            if not _is_excused(searched.skeleton, match.start(), match.end(), rule, act_start):
                start, end = match.start(), match.end()
                if line_starts is not None:
                    line = bisect.bisect_right(line_starts, start) - 1
                    shift = haystack.starts[unjudged[line]] - line_starts[line]
                    start, end = start + shift, end + shift
                _refuse_revocation(text, skeleton, start, end, rule.name)
    _remember_clean(lines)


# The detail of a refusal for a fake authority tag opening a line: the gate never lets the model overrule it.
AUTHORITY_TAG_DETAIL = " [authority tag]"


def _check_revocation(text: str) -> None:
    folded = fold_characters(text)
    tag = _AUTHORITY_TAG.search(folded.text)
    if tag:
        start, end = folded.source_span(tag.start() + (folded.text[tag.start()] == "\n"), tag.end())
        raise InstructionsRejected("revocation", _excerpt(text, start, end), start, AUTHORITY_TAG_DETAIL,
                                   family="authority")
    skeleton = word_skeleton(text)
    word_searches, pairing_filters, short_keys = _rule_filters()
    haystack = _Haystack(skeleton.text, short_keys)
    _check_word_rules(text, skeleton, haystack, word_searches, short_keys)
    for pairing, (target_filter, action_filter) in zip(_PAIRINGS, pairing_filters):
        # Both signals must sit in one window, so both must occur somewhere in the text, and a
        # window where either cannot match is not searched.
        if target_filter.may_match(haystack) and action_filter.may_match(haystack):
            windows = _both(target_filter.windows(haystack, pairing.span),
                            action_filter.windows(haystack, pairing.span))
            _check_pairing(text, skeleton, pairing, haystack, windows)
    # Spaces removed, as `compact_skeleton` does; its origins are only needed to quote a match.
    compact_text = skeleton.text.replace(" ", "")
    if not any(rule.pattern.search(compact_text) for rule in _COMPACT_RULES):
        return
    compact = compact_skeleton(skeleton)
    for rule in _COMPACT_RULES:
        for match in rule.pattern.finditer(compact.text):
            source_start, source_end = compact.source_span(match.start(), match.end())
            start = bisect.bisect_left(skeleton.origins, source_start)
            end = bisect.bisect_left(skeleton.origins, source_end)
            if not _is_excused(skeleton.text, start, end, rule):
                _refuse_revocation(text, skeleton, start, end, rule.name)


def _both(windows: set[int] | None, other: set[int] | None) -> set[int] | None:
    """The windows in both sets, where None stands for every window."""
    if windows is None or other is None:
        return other if windows is None else windows
    return windows & other


def _check_pairing(text: str, skeleton: Folded, pairing: _Pairing, haystack: _Haystack,
                   windows: set[int] | None = None) -> None:
    """Refuse when one window of `pairing.span` sentences holds both signals. Only `windows` (None:
    all) are searched: the prefilters have ruled out a match in the others."""
    sentences, starts = haystack.sentences, haystack.starts
    for index in sorted(windows) if windows is not None else range(len(sentences)):
        sentence = sentences[index]
        # A window of `span` sentences joined by spaces: same length, so offsets still line up.
        window = " ".join(sentences[index:index + pairing.span]) if pairing.span > 1 else sentence
        target = pairing.target.search(window)
        action = pairing.action.search(window) if target else None
        if target and action and pairing.span > 1 and not _pairing_linked(text, skeleton, haystack, index, target, action):
            continue  # two unrelated neighbours of a long posture (registry/gate/linking.py)
        if target and action:
            start = starts[index] + min(target.start(), action.start())
            end = starts[index] + max(target.end(), action.end())
            action_start = starts[index] + action.start()
            if pairing.name in _DISREGARD_RULES and _PRESENTATION_RULE.search(skeleton.text[start:end]):
                continue  # "this overrides the general rounding guidance above": a presentation rule
            if target.group(0) in _SYSTEM_WORDS and _OUR_BEFORE.search(window[:target.start()]):
                continue  # "override the suggested quantity from our inventory system": the customer's own system
            if (target.group(0) in _SYSTEM_WORDS and _IN_BEFORE.search(window[:target.start()])
                    and not _RULE_NOUN_SEARCH.search(window[:action.start()])):
                continue  # "las estimaciones … no existen en el sistema": where the data is not, not a rule voided
            if _strongly_negated(window[:min(target.start(), action.start())]) or _strongly_negated(window[:action.start()]):
                continue  # "never carry forward yesterday's value without saying": the rule upheld
            if not _is_excused(skeleton.text, start, end, _PAIRING_EXCUSES, action_start):
                _refuse_revocation(text, skeleton, start, end, pairing.name)


def _pairing_linked(text: str, skeleton: Folded, haystack: _Haystack, index: int, target: re.Match,
                    action: re.Match) -> bool:
    """Whether the sentences a spread pairing's two signals lie in are linked (registry/gate/linking.py)."""
    sentences, starts = haystack.sentences, haystack.starts
    offsets = list(itertools.accumulate((len(sentence) + 1 for sentence in sentences[index:]), initial=0))

    def sentence_at(position: int) -> int:
        return next(k for k in range(len(offsets) - 1) if position < offsets[k + 1])

    first = sentence_at(min(target.start(), action.start()))
    last = sentence_at(max(target.end(), action.end()) - 1)
    for k in range(index + first, index + last):
        earlier, later = sentences[k], sentences[k + 1]
        if not earlier.strip():
            continue
        end = starts[k] + len(earlier.rstrip(" "))
        _, source_end = skeleton.source_span(starts[k], end)
        if not linked(earlier.split(" "), later.split(" "), closing_mark(text, source_end)):
            return False
    return True


# A clause opened by a strong negator or "instead of" upholds what follows it: "never carry forward
# yesterday's value without saying", "em vez de calcular a média sem avisar"; so does a sentence that opens
# with a negated imperative, its verb at most two words before the act ("não estime sem avisar").
_STRONG_NEGATION = re.compile(r"\b(?:never|nunca|jamais|jamas|instead of|rather than|em vez de|ao inves de|en vez de|"
                              r"en lugar de|no en lugar de)(?: \w+){0,10} ?$"
                              # a sentence opened by a negated imperative: "não estime sem avisar", "don't round
                              # without saying so"
                              r"|^(?:nao|no|dont|do not)(?: \w+){1,2}(?: (?:or|ou|o)(?: \w+){1,2})? ?$"
                              # a negated giving or inventing verb just before the act: "…no hay datos para ese
                              # periodo y no des ninguna cifra aproximada", "don't fill in or carry forward numbers"
                              r"|\b(?:no|nao|dont|do not|never|nunca) (?:des|de|give|use|uses|pongas|coloque|put|"
                              r"inventes|invente|invent|estimes|estime|estimate|rellenes|preencha|fill)(?: \w+){0,2} ?$"
                              # an avoiding verb just before it: "evita siglas sin explicar", "avoid rounding silently"
                              r"|\b(?:avoid|avoiding|evite|evitem|evita|evitar|evitando)(?: \w+){0,2} ?$")


def _strongly_negated(before: str) -> bool:
    return bool(_STRONG_NEGATION.search(before.rstrip()))


def _refuse_revocation(text: str, skeleton: Folded, start: int, end: int, rule_name: str) -> None:
    source_start, source_end = skeleton.source_span(start, end)
    raise InstructionsRejected(
        "revocation", _excerpt(text, source_start, source_end), source_start, f" [{rule_name.replace('_', ' ')}]",
        family=family_of(rule_name)
    )


