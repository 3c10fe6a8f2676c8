#!/usr/bin/env python3
"""Batch driver for kernel's reference validator (used as a test oracle, never copied).

Loads the unchanged reference module once and asks it for its `validate` verdict on every file
named on stdin (one absolute path per line), printing one JSON line per file:
{"file": ..., "exit": 0|1|2, "output": "..."}. The exit code is the one
`kernel-manifest validate FILE` would end with: 0 valid, 1 invalid, 2 unparseable; an uncaught
exception in the reference ends a real run with 1, so it is reported as 1 here too.
Run it with the working directory inside the git repository the paths are resolved against.
"""
import contextlib
import importlib.machinery
import importlib.util
import io
import json
import sys

REFERENCE = sys.argv[1]
loader = importlib.machinery.SourceFileLoader("kernel_manifest_reference", REFERENCE)
spec = importlib.util.spec_from_loader(loader.name, loader)
module = importlib.util.module_from_spec(spec)
loader.exec_module(module)

for line in sys.stdin:
    path = line.rstrip("\n")
    if not path:
        continue
    out, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            module.cmd_validate([path])
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        except Exception as exc:  # the reference crashed: a real run exits 1 with a traceback
            code = 1
            print(f"crash: {type(exc).__name__}: {exc}", file=err)
    print(json.dumps({"file": path, "exit": code, "output": (out.getvalue() + err.getvalue())[-2000:]}), flush=True)
