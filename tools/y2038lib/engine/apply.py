# SPDX-License-Identifier: GPL-2.0-only
"""Apply stage: run the catalogue's patch rules with spatch over the tree.

Rules run campaign by campaign, each on the tree as the earlier rules left
it.  spatch runs once per (rule, candidate file), jobs in parallel, and every
result is cached by the content of the rule and of the file, so a re-run
with an unchanged tree and catalogue, and the files two kernel versions
share, never call spatch again.  Each campaign's result is recorded as a git
commit (made without a checkout) and the stage writes matches.json.
"""
import difflib
import fnmatch
import os
import tempfile
import time
from dataclasses import replace
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Dict, List, Optional

from . import kconfig, text_rules
from . import layout
from .spatch import (SpatchCache, cache_root, parse_cocci, run_spatch_batch, run_text_rule, spatch_version,
                     type_options, unifdef_arguments)
from ..csource import blank_comments_and_strings
from ..common import Step, Y2038Error, dependency_key, git_env, progress
from ..records import CampaignMatches, Matches, RuleMatches

SPATCH_TIMEOUT = 120  # seconds per file; the kernel's .cocciconfig uses 200
BATCH_FILES = 4  # files per spatch process
# files per process of a rule that reads headers: a start costs about a
# second of CPU for such a rule, and files of one directory that share a
# process share the headers it parsed
TYPED_BATCH_FILES = 12
# a campaign's rules run over a file again while one of them changed it
# (one rule's result can be another's input); more rounds than this is a
# rule pair that does not settle
CAMPAIGN_ROUNDS = 4


def check_rule_parses(rule) -> None:
    if rule.kind == "unifdef":
        unifdef_arguments(rule)
        return
    if rule.kind == "kconfig":
        kconfig.parse_commands(rule.body, rule.relpath)
        return
    if rule.kind == "text":
        text_rules.parse_commands(rule.body, rule.relpath)
        return
    returncode, stdout, stderr = parse_cocci(rule.path, "-D", "patch" if rule.patch_mode else "report")
    if returncode != 0:
        lines = [l for l in (stderr + stdout).splitlines() if l.strip() and "Warning" not in l]
        detail = " ".join(l.strip() for l in lines[:4])
        raise Y2038Error(f"{rule.relpath} does not parse: {detail}")


def removed_lines(before: bytes, after: bytes) -> list:
    """The sites of a change: the removed lines of the unified diff, stripped."""
    diff = difflib.unified_diff(before.decode(errors="replace").splitlines(),
                                after.decode(errors="replace").splitlines(), lineterm="", n=0)
    return [line[1:].strip() for line in diff if line.startswith("-") and not line.startswith("---")]



class Applier:
    def __init__(self, tree, jobs: int, timeout: int, use_scope: bool = True):
        """tree: a kernel tree, or any source with .src, .baseline and
        .files_with_tokens(); use_scope=False ignores the rules' Scope and
        Exclude (out-of-tree code has its own layout)."""
        self.tree = tree
        self.use_scope = use_scope
        self.jobs = jobs
        self.timeout = timeout
        self.version = spatch_version()
        # results are kept with the layout restored: difflib over every changed
        # file took most of a re-run that found everything in the cache
        self.cache = SpatchCache(cache_root(), self.version, [layout.__file__])
        self.current: Dict[str, bytes] = {}  # relpath -> content after the rules run so far
        # site_filter(rule, relpath, before, after) -> api_availability.Outcome:
        # which of a rule's changes stand (convert: the kernels the code supports)
        self.site_filter: Optional[Callable[[Any, str, bytes, bytes], Any]] = None
        self.refused: Dict[str, Dict[str, list]] = {}  # rule.relpath -> {relpath: [Decision]}
        # the file's own directory on the include path of a rule that reads
        # headers (type_options); convert's: out-of-tree code may name its
        # headers <x.h>
        self.own_directory_includes = False
        self.spatch_runs = 0
        self.cache_hits = 0

    def content(self, relpath: str) -> bytes:
        if relpath in self.current:
            return self.current[relpath]
        return (self.tree.src / relpath).read_bytes()

    def index_tokens(self, rules) -> None:
        """One scan of the source for the tokens of all the rules:
        {token: set of files} (a scan per rule costs seconds each)."""
        tokens = sorted({t for r in rules for t in r.tokens()})
        self.token_files = self.tree.files_with_tokens(tokens, sorted({r.file_glob for r in rules}))

    def candidates(self, rule):
        """Files of the rule's scope holding one of its tokens, as the tree has
        them or as the earlier rules left them."""
        files = set()
        for token in rule.tokens():
            files |= self.token_files[token]
        pattern = rule.token_regex()
        for relpath, data in self.current.items():
            files.discard(relpath)
            if pattern.search(data):
                files.add(relpath)
        return sorted(f for f in files if self.takes(rule, f))

    def takes(self, rule, relpath: str) -> bool:
        """Whether relpath, holding one of the rule's tokens, is its candidate:
        in its scope, of its kind of file, matching its Prefilter-regex."""
        return self.in_scope(relpath, rule) and fnmatch.fnmatch(relpath, rule.file_glob) and \
            (not rule.content_regex or bool(rule.content_regex.search(self.content(relpath))))

    def run_rule(self, rule, files):
        """Returns {relpath: result} for one rule over files."""
        return self.run_rules([(rule, files)], rule.relpath)[rule.relpath]

    def run_rules(self, work, what: str):
        """work: [(rule, files)] of rules independent of each other (each
        reads the files as they are now).  Returns {rule.relpath: {relpath:
        result}}: cached results first, the rest in small spatch batches on
        one pool, so no core waits for a rule's last slow batch."""
        done: Dict[str, Dict[str, dict]] = {rule.relpath: {} for rule, _ in work}
        batches, todo = [], {}
        for rule, files in work:
            # a timeout is a result too: the same input times out again at the same limit
            context = f"timeout={self.timeout}" + (f" tree={self.tree.baseline}" if rule.needs_types else "") + \
                (" own-directory" if rule.needs_types and self.own_directory_includes else "")
            pending = {}
            for relpath in files:
                data = self.content(relpath)
                key = self.cache.key(rule, relpath, data, context)
                result = self.cache.get(key)
                if result is None:
                    pending[relpath] = todo[rule.relpath, relpath] = (key, data)
                else:
                    self.cache_hits += 1
                    done[rule.relpath][relpath] = dict(result, input=data)
            batches += [(rule, files) for files in self.batches(rule, pending)]
        if not todo:
            return done

        def one(batch):
            rule, files = batch
            if rule.kind != "cocci":
                return rule, {f: run_text_rule(rule, f, todo[rule.relpath, f][1]) for f in files}
            extra = self.type_options(rule, files[0]) if rule.needs_types else []
            headers = self.tree.src if rule.needs_types and not self.own_directory_includes else None
            return rule, run_spatch_batch(rule, {f: todo[rule.relpath, f][1] for f in files}, self.timeout, extra,
                                          headers)

        with Step(f"{what}: spatch", total=len(todo)) as step, \
                ThreadPoolExecutor(max_workers=self.jobs) as pool:
            finished = 0
            for rule, results in pool.map(one, batches):
                for relpath, result in results.items():
                    key, data = todo[rule.relpath, relpath]
                    result = layout.with_layout(rule, result, data)
                    if result["status"] in ("changed", "unchanged", "timeout"):
                        self.cache.put(key, {k: v for k, v in result.items() if k != "input"})
                    done[rule.relpath][relpath] = result
                    finished += 1
                step.update(finished, relpath)
        self.spatch_runs += len(todo)
        return done

    def batches(self, rule, pending: dict) -> list:
        """The files of pending ({relpath: (key, content)}) in the spatch
        processes they run in."""
        # largest files first, so that the slowest do not start last
        order = sorted(pending, key=lambda f: (-len(pending[f][1]), f))
        if rule.one_file_per_process:
            return [[relpath] for relpath in order]
        if rule.needs_types:  # the files of one include path, in path order
            by_options: Dict[tuple, List[str]] = {}
            for relpath in sorted(pending):
                by_options.setdefault(tuple(self.type_options(rule, relpath)), []).append(relpath)
            return [files[n:n + TYPED_BATCH_FILES] for files in by_options.values()
                    for n in range(0, len(files), TYPED_BATCH_FILES)]
        # dealt round-robin into batches of a few files of similar cost: a
        # spatch start costs about 0.1 s
        count = max(self.jobs, -(-len(order) // BATCH_FILES))
        return [order[n::count] for n in range(count) if order[n::count]]

    def type_options(self, rule, relpath: str) -> list:
        return type_options(self.tree.src, relpath, rule.reads_headers_recursively, self.own_directory_includes)

    def in_scope(self, relpath: str, rule) -> bool:
        return not self.use_scope or in_scope(relpath, rule)

    def settle(self, rule, relpath: str, result: dict) -> dict:
        """The result with only the changes the site filter keeps."""
        if self.site_filter is None or result["status"] != "changed":
            return result
        outcome = self.site_filter(rule, relpath, result["input"], result["output"])
        refused = outcome.refused
        if refused:
            self.refused.setdefault(rule.relpath, {})[relpath] = refused
        else:
            self.refused.get(rule.relpath, {}).pop(relpath, None)
        if outcome.content == result["input"]:
            return {k: v for k, v in result.items() if k != "output"} | {"status": "unchanged"}
        return dict(result, output=outcome.content)

    def commit(self, files, parent: str, message: str) -> str:
        """A commit of parent plus the current content of files, made in a
        temporary index so the tree is never checked out or written."""
        return commit_contents(self.tree, {f: self.current[f] for f in files}, parent, message)


def commit_contents(tree, contents: dict, parent: str, message: str, env=None) -> str:
    """A commit of parent plus contents ({relpath: bytes}), made with tree.git
    in a temporary index; env: the identity and date (git_env)."""
    with tempfile.TemporaryDirectory(prefix="y2038-index-") as scratch:
        env = dict(env or git_env(), GIT_INDEX_FILE=os.path.join(scratch, "index"))
        tree.git("read-tree", parent, env=env)
        lines = []
        for relpath in sorted(contents):
            blob = tree.git("hash-object", "-w", "--stdin", env=env, input=contents[relpath],
                            binary=True).stdout.decode().strip()
            mode = tree.git("ls-tree", parent, "--", relpath, env=env).stdout.split(" ", 1)[0] or "100644"
            lines.append(f"{mode} {blob}\t{relpath}\n")
        tree.git("update-index", "--index-info", env=env, input="".join(lines))
        tree_sha = tree.git("write-tree", env=env).stdout.strip()
        return tree.git("commit-tree", tree_sha, "-p", parent, "-m", message, env=env).stdout.strip()


def leftovers(rule, result: dict):
    """[(line, why)] for matches of the rule's Leftover-regex in its output,
    comments and strings aside."""
    if not rule.leftover_regex or result["status"] not in ("changed", "unchanged"):
        return []
    text = result.get("output", result["input"])
    code = blank_comments_and_strings(text)
    lines = text.splitlines()
    found = []
    for m in rule.leftover_regex.finditer(code):
        # a regex may start at the ',' or '{' before what it found: name that line
        start = m.start() + len(m.group(0)) - len(m.group(0).lstrip(b"{,( \t\r\n"))
        line_no = code.count(b"\n", 0, start) + 1
        found.append((line_no, f"left as it is, convert by hand: {lines[line_no - 1].decode(errors='replace').strip()}"))
    return list(dict.fromkeys(found))




def in_scope(relpath: str, rule) -> bool:
    if rule.scope and not any(relpath.startswith(p) for p in rule.scope):
        return False
    return not any(relpath.startswith(p) for p in rule.exclude)


def stage_inputs(tree, campaign_rules, timeout: int) -> str:
    """All a matches.json is made from: the baseline, the rules in their
    campaigns, spatch, its timeout and this stage's code."""
    return dependency_key(tree.baseline, spatch_version(), str(timeout),
                          *(f"{campaign}\0{rule.relpath}\0{rule.digest}" for campaign, rules in campaign_rules
                            for rule in rules), code=[__file__])


def kept_matches(tree, inputs: str) -> Optional[Matches]:
    """The matches.json of the run before when it was made from the same
    inputs and its commits are still in the tree's git directory."""
    try:
        kept = Matches.read(tree.state)
    except Y2038Error:  # none yet, or of an older toolkit
        return None
    commits = [kept.final] + [c.commit for c in kept.campaigns if c.commit]
    if kept.inputs != inputs or any(tree.git("cat-file", "-e", c, check=False).returncode for c in commits):
        return None
    return kept


def apply_stage(tree, campaign_rules, jobs: int, timeout: int = SPATCH_TIMEOUT) -> Matches:
    """Run every patch rule; write and return <state>/matches.json.  With
    the inputs of the last run (stage_inputs) its record is kept as it is:
    reading every rule's cached results back took about a minute."""
    started = time.monotonic()
    inputs = stage_inputs(tree, campaign_rules, timeout)
    kept = kept_matches(tree, inputs)
    if kept:
        progress("apply stage unchanged (same baseline, rules, spatch and toolkit code): matches.json kept")
        kept = replace(kept, spatch_runs=0, cache_hits=0, seconds=round(time.monotonic() - started, 1))
        kept.write(tree.state)
        return kept
    applier = Applier(tree, jobs, timeout)
    campaigns = []
    parent = tree.baseline
    for _, rules in campaign_rules:
        for rule in rules:
            check_rule_parses(rule)
    applier.index_tokens([r for _, rules in campaign_rules for r in rules if r.patch_mode])
    for campaign, rules in campaign_rules:
        if not any(r.patch_mode for r in rules):
            continue  # report-only: the hazards stage runs it
        entry, changed_in_campaign = run_campaign(applier, campaign, rules)
        if changed_in_campaign:
            parent = applier.commit(sorted(changed_in_campaign), parent, f"y2038 campaign {campaign}")
            entry.commit = parent
            progress(f"campaign {campaign}: {entry.sites} sites in {len(entry.files)} files")
        else:
            progress(f"campaign {campaign}: 0 sites (nothing to convert: already converted upstream)")
        campaigns.append(entry)
    runs_before, checked = applier.spatch_runs, time.monotonic()
    idempotent = check_idempotent(applier, campaign_rules)
    report = Matches(version=tree.version, baseline=tree.baseline, spatch=applier.version, campaigns=campaigns,
                     final=parent, idempotent=idempotent,
                     idempotence_check={"seconds": round(time.monotonic() - checked, 1),
                                        "spatch_runs": applier.spatch_runs - runs_before},
                     spatch_runs=applier.spatch_runs, cache_hits=applier.cache_hits,
                     seconds=round(time.monotonic() - started, 1), inputs=inputs)
    report.write(tree.state)
    return report


def run_campaign(applier, campaign: str, rules):
    """The campaign's patch rules, one after another, on applier.current,
    in rounds until none of them changes a file (at most CAMPAIGN_ROUNDS):
    (its record, without a commit; files changed).  A file still changing in
    the last round keeps the content it had before that round, listed in
    the record's unsettled."""
    unsettled: Dict[str, str] = {}
    patch_rules = [r for r in rules if r.patch_mode]
    recs: Dict[str, RuleMatches] = {}
    changed_in_campaign = set()
    last_changed = {}  # of the round before: set at the end of each round
    for round_no in range(1, CAMPAIGN_ROUNDS + 1):
        start_of_round = dict(applier.current)
        changed_in_round: Dict[str, List[str]] = {}
        for rule in patch_rules:
            files = applier.candidates(rule)
            if round_no > 1:  # only what the last round changed can change now
                files = [f for f in files if f in last_changed]
                if not files:
                    continue
            progress(f"{rule.relpath}: {len(files)} candidate files" + (f" (round {round_no})" if round_no > 1 else ""))
            started = time.monotonic()
            results = applier.run_rule(rule, files)
            rec = recs.setdefault(rule.relpath, new_rule_record(rule))
            rec.candidates = max(rec.candidates, len(files))
            rec.seconds = round(rec.seconds + time.monotonic() - started, 1)
            for relpath in record_results(applier, rule, rec, results):
                changed_in_campaign.add(relpath)
                changed_in_round.setdefault(relpath, []).append(rule.relpath)
        last_changed = changed_in_round
        if not changed_in_round:
            break
    else:
        for relpath, paths in changed_in_round.items():
            unsettled[relpath] = (f"still changed by {', '.join(paths)} after {CAMPAIGN_ROUNDS} "
                                           f"rounds: kept as it was before the last round")
            if relpath in start_of_round:
                applier.current[relpath] = start_of_round[relpath]
            else:
                applier.current.pop(relpath, None)
                changed_in_campaign.discard(relpath)
            progress(f"WARNING: campaign {campaign}: {relpath}: {unsettled[relpath]}")
    refresh_leftovers(applier, patch_rules, recs)
    ran = [recs[r.relpath] for r in patch_rules if r.relpath in recs]
    entry = CampaignMatches(name=campaign, rules=ran, files=sorted(changed_in_campaign),
                            sites=sum(r.sites for r in ran), unsettled=unsettled, commit=None)
    return entry, changed_in_campaign


def new_rule_record(rule) -> RuleMatches:
    """A rule's entry of matches.json before it ran."""
    return RuleMatches(name=rule.name, path=rule.relpath, subject=rule.headers["Subject"],
                       candidates=0, seconds=0.0, files={}, sites=0,
                       timeouts={}, failed={}, unparsed={}, left={}, removed={})


def record_results(applier, rule, rec: RuleMatches, results: dict) -> list:
    """One run of a rule, its results (settled by the site filter) added to
    its record rec, the changes taken into applier.current: the files it changed."""
    changed = []
    for relpath, result in sorted(results.items()):
        result = applier.settle(rule, relpath, result)
        rec.left.pop(relpath, None)
        for line, why in result.get("left", []) + leftovers(rule, result):
            rec.left.setdefault(relpath, []).append(f"{relpath}:{line}: {why}")
        if result.get("unparsed_lines"):
            rec.unparsed[relpath] = result["unparsed_lines"]
        if result["status"] in ("timeout", "failed"):
            (rec.timeouts if result["status"] == "timeout" else rec.failed)[relpath] = result["detail"]
            progress(f"WARNING: {rule.relpath}: {relpath}: {result['status']}: {result['detail']}")
        elif result["status"] == "changed":
            removed = removed_lines(result["input"], result["output"])
            rec.removed[relpath] = rec.removed.get(relpath, []) + removed
            if rule.listing:
                rec.listed = rec.listed or {}
                rec.listed[relpath] = sorted(set(rec.listed.get(relpath, []))
                                             | set(rule.listed_names(result["input"], result["output"])))
            if "fired" in result:
                rec.fired = rec.fired or {}
                rec.fired[relpath] = sorted(set(rec.fired.get(relpath, [])) | set(result["fired"]))
            rec.files[relpath] = rec.files.get(relpath, 0) + len(removed)
            rec.sites += len(removed)
            applier.current[relpath] = result["output"]
            changed.append(relpath)
    return changed


def refresh_leftovers(applier, patch_rules, recs: Dict[str, RuleMatches]) -> None:
    """What a later round or rule converted is no longer left."""
    for rule in patch_rules:
        rec = recs.get(rule.relpath)
        if rec and rule.leftover_regex:
            for relpath in list(rec.left):
                found = leftovers(rule, {"status": "unchanged", "input": applier.content(relpath)})
                if found:
                    rec.left[relpath] = [f"{relpath}:{line}: {why}" for line, why in found]
                else:
                    del rec.left[relpath]


def idempotence_offenders(applier, campaign_rules) -> dict:
    """Every rule run again over every changed file must change nothing.
    A file is a rule's candidate as in a run (Applier.takes: what a rule
    does not take, it cannot change).  The rules all read the
    final content: one pool for all of them.
    Returns {relpath: [rule paths that change it again]}."""
    changed = sorted(applier.current)
    work = []
    for _, rules in campaign_rules:
        for rule in (r for r in rules if r.patch_mode):
            regex = rule.token_regex()
            work.append((rule, [f for f in changed if regex.search(applier.current[f]) and applier.takes(rule, f)]))
    offenders: Dict[str, List[str]] = {}
    for path, results in applier.run_rules(work, "idempotence check").items():
        rule = next(r for r, _ in work if r.relpath == path)
        for relpath, result in sorted(results.items()):
            if applier.settle(rule, relpath, result)["status"] == "changed":
                offenders.setdefault(relpath, []).append(path)
    return offenders


def check_idempotent(applier, campaign_rules) -> bool:
    offenders = idempotence_offenders(applier, campaign_rules)
    if offenders:
        raise Y2038Error("not idempotent: " + "; ".join(
            f"{path} changes {relpath} again" for relpath, paths in sorted(offenders.items()) for path in paths))
    return True
