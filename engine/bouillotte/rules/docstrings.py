"""Each field's docstring (the string written under it) as its pydantic description.

The schema's fields are documented by the docstring under each one, which ``variants
show``, the site and the JSON Schema give as the rule's meaning. Pydantic can read them
itself (``use_attribute_docstrings``), but it finds each class's source anew by walking
the interpreter's frames and tokenizing the rest of the file: about 30 ms of every
command's start-up for the profile schema alone. :func:`describe_fields` reads a module's
source once instead, after its classes are defined and before any of them is built
(their configuration says ``defer_build=True``), and gives each field the same
description pydantic would: the cleaned docstring (``inspect.cleandoc``) of an annotated
attribute, an inherited field keeping its parent's, an explicit ``description=`` kept.
"""

from __future__ import annotations

import ast
import inspect
import sys

from pydantic import BaseModel


def describe_fields(module_name: str) -> None:
    """Give the fields of every pydantic model defined at the top of ``module_name``
    their docstrings; a module whose source cannot be read keeps none (as pydantic)."""
    module = sys.modules[module_name]
    try:
        source = inspect.getsource(module)
    except (OSError, TypeError):  # pragma: no cover - no source (a compiled install)
        return
    for node in ast.parse(source).body:
        if not isinstance(node, ast.ClassDef):
            continue
        model = module.__dict__.get(node.name)
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            continue
        if model.__module__ != module_name or model.__qualname__ != node.name:
            continue
        if model.__pydantic_complete__:
            raise RuntimeError(
                f"{model.__name__} was built before its fields were described: give it "
                "defer_build=True, and build nothing before describe_fields() is called"
            )
        docs = _docstrings(node)
        own = inspect.get_annotations(model)
        for name, field in model.__pydantic_fields__.items():
            if field.description is not None:
                continue
            if name in own:
                field.description = docs.get(name)
                continue
            for base in model.__mro__[1:]:
                inherited = getattr(base, "__pydantic_fields__", {}).get(name)
                if inherited is not None:
                    field.description = inherited.description
                    break


def _docstrings(node: ast.ClassDef) -> dict[str, str]:
    """The docstring under each annotated attribute of the class's body."""
    docs: dict[str, str] = {}
    previous: ast.stmt | None = None
    for statement in node.body:
        if (
            isinstance(previous, ast.AnnAssign)
            and isinstance(previous.target, ast.Name)
            and isinstance(statement, ast.Expr)
            and isinstance(statement.value, ast.Constant)
            and isinstance(statement.value.value, str)
        ):
            docs[previous.target.id] = inspect.cleandoc(statement.value.value)
        previous = statement
    return docs
