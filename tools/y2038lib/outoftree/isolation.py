# SPDX-License-Identifier: GPL-2.0-only
"""One file's trouble is never the run's: each per-file step of convert
runs isolated.  An exception or a tool failure becomes a failed result of
that rule for that file (listed as a problem, the file keeps its last good
content) instead of a traceback; a rule whose result no longer pairs its
#if/#endif though the input did is that rule's failure on that file."""
import traceback
from typing import Dict

from ..engine.apply import Applier
from . import kernel_versions

# the steps whose failure details name themselves (spatch's own do not)
STEPS = ("conditionals", "version filter", "exception")


def failure(step: str, err: BaseException) -> str:
    """'step: Type: message (at file:line)' for a problem line."""
    where = traceback.extract_tb(err.__traceback__)[-1] if err.__traceback__ else None
    at = f" (at {where.filename.rsplit('/', 1)[-1]}:{where.lineno})" if where else ""
    return f"{step}: {type(err).__name__}: {err}{at}"


def unpaired(data: bytes):
    """Why data's conditionals do not pair up, or None."""
    try:
        kernel_versions.SourceVersions(data.decode(errors="replace"), kernel_versions.Evaluator(
            kernel_versions.Macros()), [])
    except kernel_versions.ConditionalError as err:
        return str(err)
    return None


class IsolatingApplier(Applier):
    """The apply stage's Applier, each (rule, file) step isolated."""

    def run_rules(self, work, what: str):
        try:
            return super().run_rules(work, what)
        except Exception:
            return self._one_by_one(work, what)

    def _one_by_one(self, work, what: str):
        """After a failure: each (rule, file) alone, so that only the step
        that fails fails."""
        done: Dict[str, Dict[str, dict]] = {rule.relpath: {} for rule, _ in work}
        for rule, files in work:
            for relpath in files:
                try:
                    done[rule.relpath].update(super().run_rules([(rule, [relpath])], what)[rule.relpath])
                except Exception as err:
                    done[rule.relpath][relpath] = {"status": "failed", "detail": failure("exception", err),
                                                   "input": self.content(relpath)}
        return done

    def settle(self, rule, relpath: str, result: dict) -> dict:
        try:
            settled = super().settle(rule, relpath, result)
        except Exception as err:
            return {"status": "failed", "detail": failure("version filter", err), "input": result["input"]}
        if settled["status"] != "changed" or not relpath.endswith((".c", ".h")):
            return settled
        why = unpaired(settled["output"])
        if why and not unpaired(settled["input"]):
            return {"status": "failed", "input": settled["input"],
                    "detail": f"conditionals: its result no longer pairs #if/#endif ({why})"}
        return settled
