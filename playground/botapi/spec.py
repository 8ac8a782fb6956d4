"""The official description of the Bot API (``playground/api.json``) every request is checked against, and
how Telegram reads a text's HTML and counts its length."""

from __future__ import annotations

import html
import json
import os
import re
from pathlib import Path
from typing import Any

from playground.botapi.world import ApiError, Upload

SPEC_PATH = Path(__file__).resolve().parent.parent / "api.json"


def find_spec() -> dict[str, Any]:
    """The Bot API description: ``$BOT_API_SPEC`` when set, else the copy pinned in this package."""
    path = Path(os.environ.get("BOT_API_SPEC") or SPEC_PATH)
    return json.loads(path.read_text("utf-8"))  # type: ignore[no-any-return]


class SpecChecker:
    """Checks request parameters against api.json: names, presence and types, recursively."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.methods = {name.lower(): m for name, m in spec["methods"].items()}
        self.types = spec["types"]

    def method(self, name: str) -> dict[str, Any]:
        method = self.methods.get(name.lower())
        if method is None:
            raise ApiError(404, "Not Found: method not found")
        return dict(method)

    def decode(
        self, method: dict[str, Any], raw: dict[str, str], files: dict[str, bytes] | None = None
    ) -> dict[str, Any]:
        """The parameters as values; ``files``: the parts of a multipart upload, each taken where the
        description allows an InputFile."""
        fields = {f["name"]: f for f in method.get("fields", [])}
        params: dict[str, Any] = {}
        for name, content in (files or {}).items():
            spec = fields.get(name)
            if spec is None or "InputFile" not in spec["types"]:
                raise ApiError(400, f"Bad Request: unknown parameter {name!r} of {method['name']} (a file)")
            params[name] = Upload(content)
        for name, value in raw.items():
            spec = fields.get(name)
            if spec is None:
                raise ApiError(400, f"Bad Request: unknown parameter {name!r} of {method['name']}")
            params[name] = self.decode_value(value, spec["types"], f"{method['name']}.{name}")
        for name, spec in fields.items():
            if spec["required"] and name not in params:
                raise ApiError(400, f"Bad Request: parameter {name!r} of {method['name']} is required")
        return params

    def decode_value(self, raw: str, types: list[str], where: str) -> Any:
        if types == ["String"]:
            return raw
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            if "String" in types:
                return raw
            raise ApiError(400, f"Bad Request: {where} is not valid JSON: {raw[:40]!r}") from None
        if "String" in types and not isinstance(value, str) and not any(self.matches(value, t) for t in types):
            return raw
        if not any(self.matches(value, t) for t in types):
            raise ApiError(400, f"Bad Request: {where} has the wrong type for {types}: {raw[:60]!r}")
        return value

    def matches(self, value: Any, type_name: str) -> bool:
        if type_name.startswith("Array of "):
            inner = type_name.removeprefix("Array of ")
            return isinstance(value, list) and all(self.matches(v, inner) for v in value)
        if type_name == "Integer":
            return isinstance(value, int) and not isinstance(value, bool)
        if type_name == "Float":
            return isinstance(value, int | float) and not isinstance(value, bool)
        if type_name == "Boolean":
            return isinstance(value, bool)
        if type_name == "String":
            return isinstance(value, str)
        if type_name == "InputFile":
            return False
        spec = self.types.get(type_name)
        if spec is None or not isinstance(value, dict):
            return False
        if "subtypes" in spec:
            return any(self.matches(value, sub) for sub in spec["subtypes"])
        fields = {f["name"]: f for f in spec.get("fields", [])}
        if any(key not in fields for key in value):
            return False
        if any(f["required"] and name not in value for name, f in fields.items()):
            return False
        return all(any(self.matches(v, t) for t in fields[k]["types"]) for k, v in value.items())


_HTML_TAG = re.compile(r"</?(b|strong|i|em|u|ins|s|strike|del|code|pre|a|tg-spoiler|span|blockquote)(\s[^>]*)?>")
_HTML_ENTITY = re.compile(r"&(lt|gt|amp|quot|#\d+|#x[0-9a-fA-F]+);")


def check_html(text: str) -> None:
    """Telegram's HTML mode: only its tags, and every other <, > and & written as an entity."""
    rest = _HTML_ENTITY.sub("", _HTML_TAG.sub("", text))
    for char in "<>&":
        if char in rest:
            raise ApiError(400, f"Bad Request: can't parse entities: unexpected {char!r} in {text[:60]!r}")


def visible_length(text: str, parse_mode: str | None) -> int:
    """A text's length as Telegram checks it against a limit: after its entities are parsed, in UTF-16 code
    units."""
    if parse_mode and parse_mode.upper() == "HTML":
        text = html.unescape(re.sub(r"<[^>]+>", "", text))
    return len(text.encode("utf-16-le")) // 2
