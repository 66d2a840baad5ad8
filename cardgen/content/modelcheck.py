"""Check a YAML document against its model (pydantic), one located error per problem.

Every problem of a file is reported at once, at its line, in words a content author
reads: the key, what was expected and the closest allowed key.  Used by the game loader,
the shared strings, the font lists and the engines' data files alike.
"""

from __future__ import annotations

from typing import Any, TypeVar, get_origin

from pydantic import BaseModel, ValidationError

from cardgen.content import memo
from cardgen.content.yamlsource import YamlDocument
from cardgen.errors import ContentError

M = TypeVar("M", bound=BaseModel)


def validate_document(doc: YamlDocument, model: type[M], errors: list[ContentError]) -> M | None:
    """Check ``doc.data`` against ``model``; append one error per problem found.

    A document read from a file is checked once per content and model: the model is kept
    between runs (cardgen.content.memo), errors never are.
    """
    if doc.digest is None:
        return check_now(doc, model, errors)
    found: list[ContentError] = []
    checked = memo.cached("model", [f"{model.__module__}.{model.__qualname__}", doc.digest],
                          lambda: check_now(doc, model, found), keep=lambda result: not found)
    errors.extend(found)
    return checked


def check_now(doc: YamlDocument, model: type[M], errors: list[ContentError]) -> M | None:
    """Check ``doc.data`` against ``model`` without the cache (a document made in memory)."""
    if not isinstance(doc.data, dict):
        errors.append(
            ContentError(
                f"expected a mapping of keys at the top of the file, found {_type_name(doc.data)}",
                doc.locate(()),
            )
        )
        return None
    try:
        return model.model_validate(doc.data)
    except ValidationError as exc:
        for problem in exc.errors(include_url=False):
            errors.append(_schema_error(doc, problem))
        return None


def _schema_error(doc: YamlDocument, problem: dict[str, Any]) -> ContentError:
    loc = tuple(problem["loc"])
    where = data_path(doc.data, loc)
    kind = problem["type"]
    if loc and loc[-1] == "[key]":
        return ContentError(
            f"key '{where[-1]}' is not {_expected_text(problem)}", doc.locate(where, key=True)
        )
    if kind == "extra_forbidden":
        parent = where[:-1]
        allowed = _allowed_keys(doc, parent)
        hint = f"; expected one of: {', '.join(allowed)}" if allowed else ""
        return ContentError(f"unknown key '{where[-1]}'{hint}", doc.locate(where, key=True))
    if kind == "missing":
        return ContentError(f"missing required key '{where[-1]}'", doc.locate(where))
    found = problem.get("input")
    message = problem["msg"]
    if kind in {"model_type", "dict_type"}:
        keys = _allowed_keys(doc, where) if kind == "model_type" else []
        listed = f" with keys {', '.join(keys)}" if keys else ""
        message = f"expected a mapping{listed}, found {_type_name(found)} {_short(found)}"
    elif kind in _SIMPLE:
        message = f"expected {_WORDS[kind]}, found {_type_name(found)} {_short(found)}"
    elif kind.endswith("_type") or kind in {"int_from_float", "bool_parsing"}:
        message = f"{message}, found {_type_name(found)} {_short(found)}"
    elif kind == "string_pattern_mismatch":
        message = f"expected {_expected_text(problem)}, found {_short(found)}"
    elif kind in {"too_short", "too_long"}:
        ctx = problem.get("ctx") or {}
        bound = ctx.get("min_length") if kind == "too_short" else ctx.get("max_length")
        items = "entry" if isinstance(found, dict) else "item"
        message = (
            f"expected {'at least' if kind == 'too_short' else 'at most'} {bound} "
            f"{items}{'' if bound == 1 else 's'}, found {ctx.get('actual_length', len(found or ()))}"
        )
    return ContentError(message, doc.locate(where))


#: What a value of each pydantic error type should have been, in the user's words (layouts
#: add their own on top: cards/layoutschema.py).
EXPECTED = {
    "int_type": "an integer",
    "int_from_float": "a whole number",
    "int_parsing": "an integer",
    "float_type": "a number",
    "float_parsing": "a number",
    "string_type": "text",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "list_type": "a list",
    "dict_type": "a mapping",
    "model_type": "a mapping",
    "date_type": "a date written YYYY-MM-DD",
    "date_parsing": "a date written YYYY-MM-DD",
    "date_from_datetime_parsing": "a date written YYYY-MM-DD",
}
#: A content file's wrong literal says only that (a layout's names the values: cards/layoutschema.py).
_WORDS = {**EXPECTED, "literal_error": "one of the listed values"}
#: The types whose message is only "expected ..., found ..." (the others say more).
_SIMPLE = frozenset({"int_type", "int_from_float", "float_type", "string_type", "bool_type", "list_type",
                     "literal_error", "date_type", "date_parsing", "date_from_datetime_parsing"})


def _expected_text(problem: dict[str, Any]) -> str:
    from cardgen.content.model import PATTERN_MEANINGS

    pattern = (problem.get("ctx") or {}).get("pattern")
    if pattern is None:  # not a pattern at all (a key that is no text): pydantic's own words
        return f"valid ({str(problem.get('msg', 'invalid')).lower()})"
    return PATTERN_MEANINGS.get(pattern, f"matching the pattern {pattern}")


def data_path(data: Any, loc: tuple) -> tuple:
    """Keep only the parts of a pydantic error location that walk the YAML data.

    Unions add member names (``'str'``, ``'int'``, tags such as ``'[card]'``) to the location;
    those are not keys of the document, so they are dropped (a key that is in the data is
    always kept, whatever its name).  Content files and layouts share this.
    """
    path: list = []
    node: Any = data
    for part in loc:
        if isinstance(node, dict) and part in node:
            path.append(part)
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            path.append(part)
            node = node[part]
        elif isinstance(node, dict) and isinstance(part, str) and not _is_member_name(part):
            path.append(part)  # a missing or unknown key
            node = None
    return tuple(path)


_MEMBER_NAMES = {"str", "int", "float", "bool", "none", "list", "dict", "shape-list", "viewbox-form"}


def _is_member_name(part: str) -> bool:
    return part in _MEMBER_NAMES or "[" in part


def _allowed_keys(doc: YamlDocument, parent: tuple) -> list[str]:
    """The keys the schema allows where an unknown key was found.

    Where the schema offers several models (a card or a card generator), the
    one sharing most keys with the data there is meant.
    """
    from cardgen.content.model import CardsFile, GameMeta, MessagesFile

    roots = {"game.yaml": GameMeta, "cards.yaml": CardsFile}
    models: list[Any] = [roots.get(doc.path.name, MessagesFile)]
    node: Any = doc.data
    in_dict = False  # the next part is a free key of a dict[str, Model]
    for part in parent:
        if isinstance(part, int) or in_dict:
            in_dict = False
        else:
            info = _fields(_closest_model(models, node)).get(part)
            if info is None:
                return []
            in_dict = _is_dict(info.annotation)
            models = _inner_models(info.annotation)
            if not models:
                return []
        node = _child(node, part)
    return sorted(_fields(_closest_model(models, node)))


def _fields(model: Any) -> dict[str, Any]:
    """A model's fields by the key written in YAML (its alias, e.g. 'from')."""
    return {info.alias or name: info for name, info in getattr(model, "model_fields", {}).items()}


def _closest_model(models: list[Any], node: Any) -> Any:
    if len(models) == 1 or not isinstance(node, dict):
        return models[0]
    return max(models, key=lambda model: len(set(_fields(model)) & set(node)))


def _child(node: Any, part: Any) -> Any:
    if isinstance(node, dict):
        return node.get(part)
    if isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
        return node[part]
    return None


def _is_dict(annotation: Any) -> bool:
    if get_origin(annotation) is dict:
        return True
    return any(_is_dict(arg) for arg in getattr(annotation, "__args__", ()))


def _inner_models(annotation: Any) -> list[Any]:
    """The BaseModel classes inside ``list[X]``, ``X | None``, ``X | Y`` and the like."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [model for arg in getattr(annotation, "__args__", ()) for model in _inner_models(arg)]


def _type_name(value: Any) -> str:
    return {
        dict: "a mapping",
        list: "a list",
        str: "text",
        bool: "a boolean",
        int: "an integer",
        float: "a number",
        type(None): "nothing (null)",
    }.get(type(value), type(value).__name__)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


__all__ = ["check_now", "data_path", "validate_document"]
