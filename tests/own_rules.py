"""Every rule of Foster's system written out as a user's own profile would state it: each
value as YAML gives it, citing the user's own book ``mybook`` as our reading. The tests of a
user's own site (``--no-bundled``) start from it."""

from __future__ import annotations

import json
from typing import Any

from bouillotte.rules.profile import rule_paths
from bouillotte.rules.profiles import Library


def foster_rules_as_ones_own() -> dict[str, dict[str, Any]]:
    """The ``rules:`` block of such a profile, by group and rule."""
    foster = Library().get("foster")
    rules: dict[str, dict[str, Any]] = {}
    for path in rule_paths():
        group, name = path.split(".")
        value = foster.value(path)
        value = value.model_dump(mode="json") if hasattr(value, "model_dump") else value
        value = json.loads(json.dumps(value, default=str))
        if name == "packs":
            value = {int(k): v for k, v in value.items()}
        rules.setdefault(group, {})[name] = {
            "value": value,
            "source": "mybook",
            "locator": "p. 1",
            "status": "inferred",
            "reason": "Our reading.",
        }
    return rules
