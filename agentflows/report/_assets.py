"""The report page's inline style and script (no file, font or script is loaded from
anywhere: the page works offline and its Content-Security-Policy allows only these two)."""

from __future__ import annotations

import base64
import hashlib

STYLE = """
:root { --pass: #1a7f37; --fail: #cf222e; --error: #bc4c00; --muted: #59636e;
  --line: #d1d9e0; --bg: #f6f8fa; --warn: #9a6700; }
* { box-sizing: border-box; }
body { font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0;
  color: #1f2328; background: #fff; }
main { max-width: 1100px; margin: 0 auto; padding: 24px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 28px 0 8px; }
h3 { font-size: 15px; margin: 16px 0 6px; } h4 { font-size: 14px; margin: 12px 0 6px; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: 12px; }
.meta { color: var(--muted); margin: 0; overflow-wrap: anywhere; }
.meta b { color: #1f2328; font-weight: 600; }
.stats { display: flex; flex-wrap: wrap; gap: 8px; margin: 12px 0; padding: 0; }
.stat { border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px; min-width: 96px;
  background: var(--bg); }
.stat dt { color: var(--muted); font-size: 12px; } .stat dd { margin: 0; font-size: 20px;
  font-weight: 600; }
.stat.passed dd { color: var(--pass); } .stat.failed dd { color: var(--fail); }
.stat.errored dd { color: var(--error); }
.stat.zero dd { color: var(--muted); }
.note { border-left: 3px solid var(--warn); background: #fff8c5; padding: 6px 10px;
  margin: 6px 0; }
.note.bad { border-color: var(--fail); background: #ffebe9; }
.badge { display: inline-block; min-width: 52px; text-align: center; border-radius: 10px;
  padding: 0 8px; font-size: 12px; font-weight: 600; color: #fff; margin-right: 6px; }
.badge.passed, .badge.pass { background: var(--pass); }
.badge.failed, .badge.fail { background: var(--fail); }
.badge.errored { background: var(--error); }
.badge.inconclusive { background: var(--warn); }
.badge.unjudged, .badge.none { background: #818b98; }
table.index { border-collapse: collapse; width: 100%; }
table.index td, table.index th { border-bottom: 1px solid var(--line); padding: 4px 8px;
  text-align: left; vertical-align: top; }
table.index td.name { overflow-wrap: anywhere; }
.controls { display: flex; gap: 12px; align-items: center; margin: 8px 0; }
button { font: inherit; border: 1px solid var(--line); background: var(--bg); border-radius: 6px;
  padding: 2px 10px; cursor: pointer; }
article.case { border: 1px solid var(--line); border-radius: 8px; margin: 10px 0; }
article.case > details > summary { padding: 8px 12px; cursor: pointer; background: var(--bg);
  border-radius: 8px; overflow-wrap: anywhere; }
article.case[data-status="failed"] { border-color: #ff8182; }
article.case[data-status="errored"] { border-color: #fb8f44; }
.case-inner { padding: 4px 14px 12px; }
.run { border-top: 1px dashed var(--line); margin-top: 8px; }
.error { color: var(--error); white-space: pre-wrap; overflow-wrap: anywhere; }
ol.turns { list-style: none; padding: 0; margin: 0; }
li.turn { display: grid; grid-template-columns: 44px 1fr; gap: 8px; padding: 6px 0;
  border-bottom: 1px solid #eef1f4; }
.turn-no { color: var(--muted); font-weight: 600; font-size: 12px; padding-top: 3px; }
.msg { margin: 2px 0; padding: 4px 10px; border-radius: 8px; white-space: pre-wrap;
  overflow-wrap: anywhere; max-width: 85%; }
.msg.user { background: #ddf4ff; margin-left: auto; }
.msg.agent { background: var(--bg); }
.msg .role { display: block; font-size: 11px; color: var(--muted); }
details.events summary { color: var(--muted); font-size: 12px; cursor: pointer; }
details.events ul { margin: 2px 0; padding-left: 18px; }
details.events li { overflow-wrap: anywhere; }
ul.verdicts { list-style: none; padding: 0; margin: 4px 0; }
li.verdict { padding: 3px 8px; margin: 2px 0; border-radius: 6px; border: 1px solid var(--line);
  overflow-wrap: anywhere; }
li.verdict.fail { background: #ffebe9; border-color: #ffcecb; }
li.verdict.inconclusive { background: #fff8c5; }
li.verdict .detail { color: var(--muted); display: block; white-space: pre-wrap; }
.unplaced h5 { margin: 10px 0 2px; font-size: 13px; }
.changes summary h3 { display: inline; }
.changes summary { cursor: pointer; margin: 12px 0 4px; }
.changes li { margin: 4px 0; overflow-wrap: anywhere; }
.changes .flips { color: var(--muted); }
footer { color: var(--muted); font-size: 12px; margin-top: 32px; }
"""

SCRIPT = """
(function () {
  var only = document.getElementById('only-failing');
  var cases = Array.prototype.slice.call(document.querySelectorAll('article.case'));
  function apply() {
    cases.forEach(function (c) { c.hidden = only.checked && c.dataset.status === 'passed'; });
  }
  function openAll(open) {
    cases.forEach(function (c) { c.querySelector('details').open = open; });
  }
  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (target && target.tagName === 'ARTICLE') {
      target.hidden = false;
      target.querySelector('details').open = true;
    }
  }
  only.addEventListener('change', apply);
  document.getElementById('expand-all').addEventListener('click', function () { openAll(true); });
  document.getElementById('collapse-all').addEventListener('click', function () {
    openAll(false);
  });
  window.addEventListener('hashchange', reveal);
  reveal();
  document.documentElement.setAttribute('data-ready', '1');
})();
"""


def csp_hash(text: str) -> str:
    """`'sha256-…'` of an inline element's exact text, for the Content-Security-Policy."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def content_security_policy() -> str:
    """Nothing loads, nothing but the page's own style and script runs (an injected
    `<script>` or `<img src=…>` that escaped escaping would still be blocked)."""
    return (
        "default-src 'none'; "
        f"style-src {csp_hash(STYLE)}; "
        f"script-src {csp_hash(SCRIPT)}; "
        "img-src 'none'; base-uri 'none'; form-action 'none'"
    )


__all__ = ["SCRIPT", "STYLE", "content_security_policy", "csp_hash"]
