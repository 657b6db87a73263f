"""Check (a): Rasa's project check beside casegen's project findings, project by project.

For each Mantle project (the repository's examples and test projects, the real projects in
`../shared/realworld`, and the projects that ship inside rasa-pro), Rasa's
`collect_project_findings` runs on a copy in its own process. Figures:

- Rasa errors on our projects (goal 0: every project we wrote builds in Rasa);
- Rasa errors that casegen also reports (goal: all), matched by Rasa's finding code, which
  casegen names in each finding it derives from Rasa's rules;
- casegen warnings on Rasa's own projects (goal 0: no false warnings);
- skills Rasa loads vs skills casegen plans for.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import (
    REALWORLD,
    RECORDED,
    REPO,
    RasaEnv,
    call,
    find_env,
    install_env,
    project_copy,
)

_NOT_DEFINITIONS = ("eval/", ".casegen/", ".git/")

_RASA_LOAD_FAILURES = frozenset({"mantle.validation.tools.import_failed"})
"""Rasa's findings about importing the project's Python (a missing `lib/`), which casegen never
does: reported as what Rasa could not load, not as findings casegen must share."""
_RASA_CODE = re.compile(r"\[([a-z_]+(?:\.[a-z_]+)+)\]")


@dataclass
class ProjectResult:
    """One project's findings from both sides."""

    name: str
    ours: bool
    rasa_version: str = ""
    rasa_errors: list[dict[str, str]] = field(default_factory=list)
    rasa_warnings: list[dict[str, str]] = field(default_factory=list)
    rasa_skills: list[str] = field(default_factory=list)
    casegen_warnings: list[str] = field(default_factory=list)
    casegen_skills: list[str] = field(default_factory=list)
    could_not_run: list[str] = field(default_factory=list)
    unloadable: list[dict[str, str]] = field(default_factory=list)
    pinned: str = ""
    pinned_errors: list[dict[str, str]] | None = None
    failure: str = ""

    def casegen_codes(self) -> Counter[str]:
        return Counter(m.group(1) for w in self.casegen_warnings for m in _RASA_CODE.finditer(w))

    def missed_errors(self) -> list[dict[str, str]]:
        """Rasa errors whose code casegen does not report as often as Rasa does."""
        left = self.casegen_codes()
        missed = []
        for finding in self.rasa_errors:
            if left[finding["code"]] > 0:
                left[finding["code"]] -= 1
            else:
                missed.append(finding)
        return missed


def our_projects() -> list[Path]:
    """Every Mantle project this repository holds."""
    found = [REPO / "examples" / "bank"]
    for folder in ("corpus", "holdout"):
        found += sorted(p for p in (REPO / "tests" / "data" / folder).iterdir() if p.is_dir())
    return [p for p in found if is_mantle_project(p)]


def is_mantle_project(folder: Path) -> bool:
    """A Mantle project has `skills/` beside `agent.yml` or `integrations.yml`."""
    has_config = (folder / "agent.yml").is_file() or (folder / "integrations.yml").is_file()
    return has_config and (folder / "skills").is_dir()


def realworld_projects() -> list[Path]:
    """The Mantle projects of `../shared/realworld` (written by other people)."""
    if not REALWORLD.is_dir():
        return []
    return sorted(p for p in REALWORLD.iterdir() if is_mantle_project(p))


def rasa_packaged_projects(env: RasaEnv) -> list[Path]:
    """The projects that ship inside rasa-pro: its project template and inspector test agent."""
    site = next((env.python.parent.parent / "lib").glob("python3*/site-packages/rasa"), None)
    if site is None:
        return []
    candidates = [
        site / "cli" / "project_templates" / "mantle",
        site / "core" / "channels" / "inspector-nextgen" / "e2e" / "agents" / "mantle",
    ]
    return [p for p in candidates if (p / "agent.yml").is_file()]


def rasa_side(env: RasaEnv, project: Path, map_old_names: bool) -> dict[str, Any]:
    with project_copy(project) as holder:
        root = Path(holder) / project.name
        return call(env, "project_findings.py", {"root": str(root), "map_old_names": map_old_names})


def casegen_side(project: Path) -> tuple[list[str], list[str]]:
    from evalcore.definitions import load_project

    loaded = load_project(project)
    skills = sorted(loaded.mantle.skills) if loaded.mantle else []
    return list(loaded.warnings), skills


def uses_old_module_names(project: Path) -> bool:
    """True when the project's tools import the 3.19/3.20 names (`rasa.calm_v2`)."""
    for path in project.rglob("*.py"):
        if "rasa.calm_v2" in path.read_text(encoding="utf-8", errors="replace"):
            return True
    return False


_PIN = re.compile(r"rasa-pro\s*==\s*([0-9][\w.]*)")


def pinned_version(project: Path) -> str:
    """The rasa-pro build the project pins in its pyproject.toml, or ''."""
    manifest = project / "pyproject.toml"
    if not manifest.is_file():
        return ""
    found = _PIN.search(manifest.read_text(encoding="utf-8", errors="replace"))
    return found.group(1) if found else ""


def check(env: RasaEnv, project: Path, ours: bool, install_pinned: bool = False) -> ProjectResult:
    result = ProjectResult(name=_label(project), ours=ours)
    result.pinned = pinned_version(project)
    if result.pinned and result.pinned != env.version:
        pinned_env = install_env(result.pinned) if install_pinned else find_env(result.pinned)
        if pinned_env is not None:
            answer = rasa_side(pinned_env, project, map_old_names=False)
            result.pinned_errors = [f for f in answer["findings"] if f["severity"] == "error"]
    try:
        answer = rasa_side(env, project, map_old_names=uses_old_module_names(project))
    except Exception as error:  # one project's crash must not hide the others
        result.failure = str(error)
        answer = {"findings": [], "skills": [], "version": env.version}
    result.rasa_version = answer.get("version", env.version)
    result.could_not_run = answer.get("could_not_run", [])
    result.rasa_errors = [
        f
        for f in answer["findings"]
        if f["severity"] == "error" and f["code"] not in _RASA_LOAD_FAILURES
    ]
    result.unloadable = [f for f in answer["findings"] if f["code"] in _RASA_LOAD_FAILURES]
    result.rasa_warnings = [f for f in answer["findings"] if f["severity"] == "warning"]
    result.rasa_skills = answer["skills"]
    result.casegen_warnings, result.casegen_skills = casegen_side(project)
    return result


def _label(project: Path) -> str:
    for base in (REPO, REALWORLD.parent):
        try:
            return str(project.relative_to(base))
        except ValueError:
            continue
    return f"rasa-pro:{project.name}/{project.parent.name}"


def report(results: list[ProjectResult]) -> int:
    """Print per-project figures and every disagreement; the number of goals missed."""
    missed_goals = 0
    ours_errors = sum(len(r.rasa_errors) for r in results if r.ours)
    print(f"Rasa errors on our projects: {ours_errors} (goal 0)")
    for r in results:
        casegen_rasa = sum(r.casegen_codes().values())
        missed = r.missed_errors()
        print(
            f"  {r.name}: Rasa {len(r.rasa_errors)} errors, {len(r.rasa_warnings)} warnings; "
            f"casegen {len(r.casegen_warnings)} findings ({casegen_rasa} by Rasa's rules); "
            f"Rasa errors casegen misses: {len(missed)}"
        )
        if r.pinned and r.pinned != r.rasa_version:
            on_pin = (
                f"{len(r.pinned_errors)} errors"
                if r.pinned_errors is not None
                else "not installed (make rasa-oracle installs it)"
            )
            print(
                f"    pins rasa-pro {r.pinned}: on it, Rasa's check finds {on_pin}; the figures "
                f"above are rasa-pro {r.rasa_version}'s, with `rasa.calm_v2` read as `rasa.mantle`"
            )
        if r.failure:
            print(f"    Rasa's check could not run: {r.failure.splitlines()[-1]}")
        for line in r.could_not_run:
            print(f"    Rasa could not run {line[:200]}")
        for finding in r.unloadable:
            print(f"    Rasa could not load: {finding['message'][:200]}")
        for finding in r.rasa_errors if r.ours else []:
            print(f"    rasa error [{finding['code']}] {finding['message'][:160]}")
        for finding in missed:
            print(f"    missed [{finding['code']}] {finding['message'][:160]}")
        dropped = sorted(set(r.casegen_skills) - set(r.rasa_skills))
        if dropped:
            print(f"    skills Rasa does not load but casegen reads: {', '.join(dropped)}")
    all_missed = sum(len(r.missed_errors()) for r in results)
    print(f"Rasa errors casegen does not report: {all_missed} (goal 0)")
    missed_goals += (ours_errors > 0) + (all_missed > 0)
    return missed_goals


def default_skills_project(env: RasaEnv, holder: Path) -> Path | None:
    """The skills rasa-pro bundles (`rasa/mantle/default_skills`), as the skills of a copy
    of its project template under `holder` (None when either is missing)."""
    site = next((env.python.parent.parent / "lib").glob("python3*/site-packages/rasa"), None)
    if site is None:
        return None
    template = site / "cli" / "project_templates" / "mantle"
    defaults = site / "mantle" / "default_skills"
    if not template.is_dir() or not defaults.is_dir():
        return None
    root = holder / "default_skills"
    shutil.copytree(template, root, ignore=shutil.ignore_patterns("__pycache__", "skills"))
    for skill in sorted(defaults.iterdir()):
        if (skill / "skill.md").is_file():
            shutil.copytree(skill, root / "skills" / skill.name)
    return root


def check_packaged(env: RasaEnv) -> int:
    """casegen's warnings on the projects and default skills that ship inside rasa-pro."""
    false_warnings = 0
    with tempfile.TemporaryDirectory(prefix="rasa-defaults-") as holder:
        defaults = default_skills_project(env, Path(holder))
        for project in [*rasa_packaged_projects(env), *([defaults] if defaults else [])]:
            warnings, skills = casegen_side(project)
            false_warnings += len(warnings)
            label = f"default skills ({len(skills)})" if project == defaults else _label(project)
            print(f"  rasa-pro {label}: casegen warnings {len(warnings)}")
            for warning in warnings:
                print(f"    {warning}")
    print(f"casegen warnings on Rasa's packaged projects: {false_warnings} (goal 0)")
    return int(false_warnings > 0)


def definition_digest(project: Path) -> str:
    """One hash of every file Rasa may read in PROJECT (scenarios and caches left out)."""
    digest = hashlib.sha256()
    for path in sorted(project.rglob("*")):
        relative = path.relative_to(project).as_posix()
        if not path.is_file() or relative.startswith(_NOT_DEFINITIONS) or "__pycache__" in relative:
            continue
        digest.update(relative.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def record_results(results: list[ProjectResult], version: str) -> Path:
    """Rasa's errors on our projects, keyed by a digest of their files (for `make test`)."""
    target = RECORDED / "projects.json"
    kept = json.loads(target.read_text(encoding="utf-8")) if target.is_file() else {}
    entries = kept.get("projects", {})
    for result in results:
        if result.ours:
            entries[result.name] = {
                "digest": definition_digest(REPO / result.name),
                "errors": result.rasa_errors,
                "skills": result.rasa_skills,
            }
    target.parent.mkdir(parents=True, exist_ok=True)
    payload = {"rasa_version": version, "recorded_by": "make rasa-oracle", "projects": entries}
    target.write_text(json.dumps(payload, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return target


def main(
    env: RasaEnv, only: list[str] | None = None, record: bool = False, install: bool = False
) -> int:
    projects = [(p, True) for p in our_projects()] + [(p, False) for p in realworld_projects()]
    if only:
        projects = [(p, ours) for p, ours in projects if any(o in str(p) for o in only)]
    results = [check(env, project, ours, install_pinned=install) for project, ours in projects]
    missed = report(results) + check_packaged(env)
    if record:
        print(f"recorded: {record_results(results, env.version)}")
    return missed
