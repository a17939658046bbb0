"""The static check a pack's source passes before any of its code runs: what it may import and call.

A pack's module may import only the standard library, pydantic and the plan vocabulary
(:data:`ALLOWED_BROWSEROPS`); one that imports ``browserops.browser``, ``browserops.tools``, playwright,
subprocess, sockets and the like is refused with ``BROWSER_PACK_INVALID``. The check keeps honest packs honest;
it is not a sandbox for hostile code (packs are code you put in your repository, workspace or environment).
"""

from __future__ import annotations

import ast
from pathlib import Path

ALLOWED_BROWSEROPS = ("browserops.packs", "browserops.plan.steps", "browserops.plan.model", "browserops.contract",
                      "browserops.privacy")
FORBIDDEN_MODULES = frozenset({
    "playwright", "importlib", "subprocess", "socket", "ctypes", "multiprocessing", "http", "urllib", "httpx",
    "requests", "anthropic", "mcp", "websockets", "uvicorn", "starlette", "pty", "shutil", "webbrowser",
})
FORBIDDEN_CALLS = frozenset({"__import__", "exec", "eval", "compile"})


def _is_pack_source(path: Path, folder: Path) -> bool:
    rel = path.relative_to(folder)
    return not (
        path.name.startswith("test_") or path.name == "conftest.py" or "tests" in rel.parts[:-1]
        or any(part.startswith(".") for part in rel.parts)
    )


def _imported_modules(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
        if node.module == "browserops":
            return [f"browserops.{alias.name}" for alias in node.names]
        return [node.module]
    return []


def _module_problem(rel: Path, line: int, module: str) -> str | None:
    top = module.split(".")[0]
    if top == "browserops":
        if not any(module == ok or module.startswith(ok + ".") for ok in ALLOWED_BROWSEROPS):
            return (f"{rel}:{line}: imports {module}; a pack may import only "
                    f"{', '.join(ALLOWED_BROWSEROPS)} from browserops (it cannot drive the browser)")
    elif top in FORBIDDEN_MODULES:
        return f"{rel}:{line}: imports {module}, which a pack may not use"
    return None


def check_imports(folder: Path) -> list[str]:
    """Problems with what the pack's source files import or call (tests are exempt)."""
    problems: list[str] = []
    for path in sorted(folder.rglob("*.py")):
        if not _is_pack_source(path, folder):
            continue
        rel = path.relative_to(folder)
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        except SyntaxError as exc:
            problems.append(f"{rel}:{exc.lineno}: cannot be parsed: {exc.msg}")
            continue
        except (UnicodeDecodeError, ValueError) as exc:
            problems.append(f"{rel}: cannot be parsed ({type(exc).__name__})")
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FORBIDDEN_CALLS:
                problems.append(f"{rel}:{node.lineno}: calls {node.func.id}(), which a pack may not use")
            for module in _imported_modules(node):
                problem = _module_problem(rel, getattr(node, "lineno", 0), module)
                if problem:
                    problems.append(problem)
    return problems
